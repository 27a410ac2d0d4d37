package e2e

import (
	"fmt"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// The consumer groups panel, driven as a learner does: the join form, each
// member's buttons, the config and reset forms, the clock. The page is read
// back through docs/ARCHITECTURE.md's attributes and checked against the same commands
// run natively on the engine.

// group is the selector of a group's card: lanes carry data-group too, on
// the marks of the groups reading them.
func group(name string) string {
	return fmt.Sprintf(`article[data-group=%s]`, js(name))
}

// member is the selector of one member of a group.
func member(groupName, id string) string {
	return fmt.Sprintf(`%s [data-member=%s]`, group(groupName), js(id))
}

// openJoinForm opens the join form at the groups' top, as a learner does
// with "+ New group", unless it is open.
func (b *browser) openJoinForm(t *testing.T) {
	t.Helper()
	if b.attr(t, `[data-action=new-group]`, "aria-expanded") != "true" {
		b.click(t, `[data-action=new-group]`)
	}
	b.waitFor(t, `document.querySelector(".group-new .join-form")?.getClientRects().length > 0`)
}

// joinMember fills and sends the join form.
func (b *browser) joinMember(t *testing.T, groupName, id, topics, strategy, instance string) {
	t.Helper()
	b.openJoinForm(t)
	b.fill(t, `.join-form [name=group]`, groupName)
	b.fill(t, `.join-form [name=member]`, id)
	b.fill(t, `.join-form [name=topics]`, topics)
	b.fill(t, `.join-form [name=strategy]`, strategy)
	b.fill(t, `.join-form [name=instance]`, instance)
	b.click(t, `.join-form button[type=submit]`)
}

// focus moves the keyboard focus to the element a selector finds.
func (b *browser) focus(t *testing.T, selector string) {
	t.Helper()
	ok := eval[bool](t, b, fmt.Sprintf(`(() => { const el = document.querySelector(%s); if (!el) return false; el.focus(); return document.activeElement === el })()`, js(selector)))
	if !ok {
		t.Fatalf("cannot focus %s", selector)
	}
}

// key types keys into the focused element.
func (b *browser) key(t *testing.T, keys string) {
	t.Helper()
	b.do(t, chromedp.KeyEvent(keys))
}

// assignments runs a script natively and returns each member's
// data-assigned, by "group/member". A script without a rules line runs
// under rules 1, as the page opens its link (linkOf writes none).
func assignments(t *testing.T, script string) map[string]string {
	t.Helper()
	if !strings.HasPrefix(script, "rules ") && !strings.Contains(script, "\nrules ") {
		if seed, rest, ok := strings.Cut(script, "\n"); ok && strings.HasPrefix(seed, "seed ") {
			script = seed + "\nrules 1\n" + rest
		} else {
			script = "rules 1\n" + script
		}
	}
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	l := s.Log()
	out := map[string]string{}
	for _, name := range l.GroupNames() {
		g, err := l.Group(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range g.Members {
			parts := make([]string, len(m.Assignment))
			for i, tp := range m.Assignment {
				parts[i] = tp.String()
			}
			out[name+"/"+m.ID] = strings.Join(parts, " ")
		}
	}
	return out
}

const twoTopics = `topic orders partitions=4
topic audit partitions=3
produce orders value=v count=8
`

// Three members join a group of each strategy through the form; once the
// clock has run the rebalances, each member owns what the engine's assignor
// gives it, and the groups sit side by side.
func TestUIGroupsJoinWithEachStrategy(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, twoTopics)
	script := twoTopics
	for _, s := range scenario.Strategies {
		name := "g-" + s
		for _, id := range []string{"c1", "c2", "c10"} {
			b.joinMember(t, name, id, "orders,audit", s, "")
			b.waitCount(t, member(name, id), 1)
			script += fmt.Sprintf("join %s %s topics=orders,audit strategy=%s\n", name, id, s)
		}
		if got := b.attr(t, group(name), "data-state"); got != "rebalancing" {
			t.Errorf("%s right after the joins: data-state=%q, want rebalancing", name, got)
		}
	}
	b.waitCount(t, `article[data-group]`, 4)
	b.click(t, "#advance-1m")
	script += "advance 1m\n"
	b.waitCount(t, `article[data-group][data-state=stable]`, 4)

	want := assignments(t, script)
	for key, assigned := range want {
		groupName, id, _ := strings.Cut(key, "/")
		if got := b.attr(t, member(groupName, id), "data-assigned"); got != assigned {
			t.Errorf("%s: data-assigned=%q, want %q (the engine's)", key, got, assigned)
		}
	}
	// Member ordering: c10 sorts before c2, so range gives c10 the second
	// range of each topic.
	if got := want["g-range/c10"]; got != "audit/1 orders/2" {
		t.Errorf("range with c1, c10, c2: c10 owns %q; the engine no longer sorts members as Kafka does", got)
	}
	if got := b.attr(t, group("g-sticky"), "data-generation"); got != "1" {
		t.Errorf("g-sticky's generation = %s after one rebalance, want 1", got)
	}

	// Each group's inspector compares what the strategies would move if a
	// member joined.
	if n := b.count(t, b.groupInspector(t, "g-range")+` [data-movement="c4 joins"] tr[data-strategy]`); n != 4 {
		t.Errorf("the movement comparison lists %d strategies, want 4", n)
	}
	// The charts of rebalances, once unfolded: one round per group, as a
	// table too.
	b.click(t, ".group-charts > summary")
	b.waitCount(t, `figure[data-chart=moves]`, 1)
	if n := b.count(t, `figure[data-chart=moves] tr[data-round-of]`); n != 4 {
		t.Errorf("the moves chart's table lists %d rounds, want 4", n)
	}
	if n := b.count(t, `figure[data-chart=moves] svg rect[data-series]`); n != 4 {
		t.Errorf("the moves chart draws %d bars, want 4", n)
	}
	b.noErrors(t)
}

// A member crashes: the group keeps its partitions until its session times
// out, then rebalances them to the others, pausing partitions while it runs.
// A static member comes back with its instance id and takes its partitions
// back with no rebalance. Five members on four partitions leave one idle.
func TestUIGroupsCrashRebalanceAndStaticMembership(t *testing.T) {
	t.Parallel()
	const start = `topic orders partitions=4
config group g session.timeout.ms=6s
join g c1 topics=orders
join g c2 topics=orders
join g c3 topics=orders instance=i3
advance 5s
`
	b := openPlayground(t, start)
	b.waitCount(t, group("g")+`[data-state=stable][data-generation="1"]`, 1)
	before := assignments(t, start)

	b.click(t, member("g", "c2")+` [data-action=crash]`)
	b.waitCount(t, member("g", "c2")+`[data-down=crashed]`, 1)
	if got := b.attr(t, group("g"), "data-state"); got != "stable" {
		t.Errorf("right after the crash the group is %s: it notices only after the session timeout", got)
	}
	// Past the 6s session timeout the rebalance starts, and pauses every
	// partition (range is eager).
	for range 7 {
		b.click(t, "#advance-1s")
	}
	b.waitCount(t, group("g")+`[data-state=rebalancing]`, 1)
	paused := b.attr(t, group("g")+` [data-rebalance=running]`, "data-paused")
	if paused == "" {
		t.Error("the running rebalance names no paused partitions")
	}
	b.click(t, "#advance-1m")
	b.waitCount(t, group("g")+`[data-state=stable][data-generation="2"]`, 1)
	b.waitCount(t, member("g", "c2"), 0)
	script := start + "crash g c2\n" + strings.Repeat("advance 1s\n", 7) + "advance 1m\n"
	after := assignments(t, script)
	for _, id := range []string{"c1", "c3"} {
		if got := b.attr(t, member("g", id), "data-assigned"); got != after["g/"+id] {
			t.Errorf("%s after the rebalance: data-assigned=%q, want %q", id, got, after["g/"+id])
		}
	}
	// What each member lost and gained, and how many moved.
	lost := b.attr(t, group("g")+` [data-change-member=c2]`, "data-lost")
	if lost != before["g/c2"] {
		t.Errorf("the rebalance says c2 lost %q, want %q", lost, before["g/c2"])
	}
	if got := b.attr(t, group("g")+` [data-rebalance=done]`, "data-moved"); got == "" || got == "0" {
		t.Errorf("the rebalance says %q partitions moved", got)
	}

	// The static member crashes and comes back before its session expires:
	// same partitions, same generation.
	owned := b.attr(t, member("g", "c3"), "data-assigned")
	b.click(t, member("g", "c3")+` [data-action=crash]`)
	b.waitCount(t, member("g", "c3")+`[data-down=crashed]`, 1)
	b.click(t, "#advance-1s")
	b.click(t, member("g", "c3")+` [data-action=come-back]`)
	b.waitCount(t, member("g", "c3")+`:not([data-down])`, 1)
	if got := b.attr(t, member("g", "c3"), "data-assigned"); got != owned {
		t.Errorf("c3 came back with %q, want its partitions %q", got, owned)
	}
	if got := b.attr(t, group("g"), "data-generation"); got != "2" {
		t.Errorf("a static member coming back started a rebalance: generation %s", got)
	}

	// Three more members: five on four partitions leaves one idle.
	for _, id := range []string{"c4", "c5", "c6"} {
		b.joinMember(t, "g", id, "orders", "", "")
		b.waitCount(t, member("g", id), 1)
	}
	b.click(t, "#advance-1m")
	b.waitCount(t, group("g")+`[data-state=stable]`, 1)
	idle := eval[[]string](t, b, `[...document.querySelectorAll("article[data-group=g] [data-member][data-idle]")].map(e => e.dataset.member)`)
	if len(idle) != 1 {
		t.Fatalf("idle members: %v, want exactly one of five on four partitions", idle)
	}
	if got := b.attr(t, member("g", idle[0]), "data-assigned"); got != "" {
		t.Errorf("idle member %s owns %q", idle[0], got)
	}
	b.noErrors(t)
}

// Poll and commit move the group's committed offset, which the lanes mark
// and the lag follows, in records and in time; the alert lights when the lag
// crosses its threshold. The charts say the same in tables.
func TestUIGroupsPollCommitLagAndCharts(t *testing.T) {
	t.Parallel()
	const start = `topic orders partitions=1
join g c1 topics=orders
advance 5s
produce orders value=v count=6
advance 10s
config group g lag.alert.records=3
`
	b := openPlayground(t, start)
	c1 := member("g", "c1")
	b.waitCount(t, c1+`[data-assigned="orders/0"]`, 1)
	if got := b.attr(t, group("g"), "data-lag"); got != "0" {
		t.Errorf("before any commit, data-lag=%q, want 0 (nothing to sum)", got)
	}
	g := b.groupInspector(t, "g")
	if got := b.attr(t, g+` [data-lag-of="orders/0"]`, "data-lag"); got != "-" {
		t.Errorf("before any commit the partition's lag is %q, want Kafka's -", got)
	}

	b.fill(t, c1+` [name=max]`, "2")
	b.click(t, c1+` [data-action=poll]`)
	b.waitText(t, c1+` .member-assignment`, "@2")
	b.click(t, c1+` [data-action=commit]`)
	b.waitCount(t, group("g")+`[data-lag="4"][data-alert=true]`, 1)
	// The lane marks the committed offset (drawn by the lane from the
	// group's snapshot).
	b.waitCount(t, `[data-topic=orders][data-partition="0"] [data-committed="2"]`, 1)
	if got := b.attr(t, g+` [data-lag-of="orders/0"]`, "data-group-committed"); got != "2" {
		t.Errorf("the lag table says committed %q, want 2", got)
	}
	if got := b.attr(t, group("g"), "data-time-lag-ms"); got != "10000" {
		t.Errorf("time lag = %s ms, want 10000: the first unread record is 10s old", got)
	}
	if b.count(t, group("g")+` [data-lag-alert]`) != 1 {
		t.Error("the lag alert is not shown in words")
	}

	// Raise the threshold: the alert goes out.
	b.fill(t, g+` .group-config [name="lag.alert.records"]`, "100")
	b.click(t, g+` .group-config button[type=submit]`)
	b.waitCount(t, group("g")+`[data-alert=false]`, 1)

	// Auto-commit on: a poll once auto.commit.interval.ms has passed
	// commits the positions the previous poll left, as Kafka's consumer does.
	b.setChecked(t, g+` .group-config [name="enable.auto.commit"]`, true)
	b.waitCount(t, group("g")+`[data-auto-commit=true]`, 1)
	b.fill(t, c1+` [name=max]`, "100")
	b.click(t, c1+` [data-action=poll]`)
	b.waitText(t, c1+` .member-assignment`, "@6")
	b.click(t, "#advance-1m")
	b.click(t, c1+` [data-action=poll]`)
	b.waitCount(t, group("g")+`[data-lag="0"]`, 1)
	b.waitCount(t, `[data-topic=orders][data-partition="0"] [data-committed="6"]`, 1)

	// The processing order and where a member with no commit starts.
	b.fill(t, g+` .group-config [name=delivery]`, core.AtMostOnce)
	b.waitCount(t, group("g")+`[data-delivery="at-most-once"]`, 1)
	b.fill(t, g+` .group-config [name="auto.offset.reset"]`, "latest")
	b.waitFor(t, `document.querySelector(".script").textContent.includes("auto.offset.reset=latest")`)

	// The charts and their text equivalents.
	rows := b.count(t, g+` figure[data-chart=lag][data-chart-group=g] table tr[data-step]`)
	if rows < 3 {
		t.Errorf("the lag chart's table lists %d samples", rows)
	}
	if b.count(t, g+` figure[data-chart=lag][data-chart-group=g] svg polyline[data-series=total]`) != 1 {
		t.Error("the lag chart draws no total line")
	}
	if b.count(t, g+` figure[data-chart=lag][data-chart-group=g] svg line[data-series=alert]`) != 1 {
		t.Error("the lag chart draws no alert threshold")
	}
	b.click(t, ".group-charts > summary")
	b.waitCount(t, `figure[data-chart=records][data-chart-topic=orders]`, 1)
	if got := b.text(t, `figure[data-chart=records][data-chart-topic=orders] tr[data-records-of="orders/0"] td`); got != "6" {
		t.Errorf("the records chart's table says orders/0 holds %q, want 6", got)
	}
	b.noErrors(t)
}

// Bad input says what is wrong next to the control, and nothing changes:
// an empty member id, max=abc, a non-numeric offset, and a reset while the
// group has active members (Kafka's refusal, from the engine). Once the
// member has left, the reset works.
func TestUIGroupsBadInputAndReset(t *testing.T) {
	t.Parallel()
	const start = `topic orders partitions=2
produce orders value=v count=6
join g c1 topics=orders
advance 5s
poll g c1 max=100
commit g c1
`
	b := openPlayground(t, start)
	c1 := member("g", "c1")
	b.waitCount(t, group("g")+`[data-state=stable]`, 1)
	steps := b.steps(t)
	g := b.groupInspector(t, "g")
	committed := func() string {
		return b.attr(t, g+` [data-lag-of="orders/0"]`, "data-group-committed") + "," +
			b.attr(t, g+` [data-lag-of="orders/1"]`, "data-group-committed")
	}
	if got := committed(); got != "3,3" {
		t.Fatalf("committed = %s, want 3,3", got)
	}

	b.joinMember(t, "g", "", "orders", "", "")
	b.waitText(t, `[data-control=group-join][role=alert]`, "member an id")

	b.fill(t, c1+` [name=max]`, "abc")
	b.click(t, c1+` [data-action=poll]`)
	b.waitText(t, `[data-control="g/member/c1"][role=alert]`, `"abc"`)

	b.fill(t, g+` .group-reset [name=mode]`, core.ResetToOffset)
	b.fill(t, g+` .group-reset [name=value]`, "x")
	b.click(t, g+` .group-reset button[type=submit]`)
	b.waitText(t, `[data-control="g/reset"][role=alert]`, "whole number")

	b.fill(t, g+` .group-reset [name=mode]`, core.ResetToEarliest)
	b.click(t, g+` .group-reset button[type=submit]`)
	b.waitText(t, `[data-control="g/reset"][role=alert]`, "active members")
	if got := committed(); got != "3,3" {
		t.Errorf("a refused reset changed the committed offsets to %s", got)
	}
	if got := b.steps(t); got != steps {
		t.Errorf("refused commands changed the script: %s lines, was %s", got, steps)
	}
	if n := b.count(t, `main > [role=alert], .alert[role=alert]:not([data-control])`); n != 0 {
		t.Errorf("the errors went to the page's main alert too (%d)", n)
	}

	// The only member leaves; now the reset goes through.
	b.click(t, c1+` [data-action=leave]`)
	b.waitCount(t, group("g")+`[data-state=empty]`, 1)
	b.click(t, g+` .group-reset button[type=submit]`)
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.groupCommitted === "0"`, js(g+` [data-lag-of="orders/0"]`)))
	if got := committed(); got != "0,0" {
		t.Errorf("after reset to-earliest, committed = %s, want 0,0", got)
	}
	if b.count(t, `[data-control="g/reset"][role=alert]`) != 0 {
		t.Error("the reset's error stayed after it succeeded")
	}
	b.noErrors(t)
}

// Every help opens from the keyboard, says what it explains, and closes
// with Escape.
func TestUIGroupsHelpByKeyboard(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=2\njoin g c1 topics=orders\n")
	button := group("g") + ` [data-help=generation] button.help-button`
	b.waitCount(t, button, 1)
	b.focus(t, button)
	b.key(t, "\r")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-expanded") === "true"`, js(button)))
	b.waitText(t, group("g")+` [data-help=generation] [role=note]`, "generation")
	b.key(t, "\x1b") // Escape
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-expanded") === "false"`, js(button)))
	if b.count(t, group("g")+` [data-help=generation] [role=note]`) != 0 {
		t.Error("Escape did not close the explanation")
	}
	// Every help button on the page is labelled.
	unlabelled := b.count(t, `button.help-button:not([aria-label])`)
	if unlabelled != 0 {
		t.Errorf("%d help buttons have no label", unlabelled)
	}
	b.noErrors(t)
}

// The groups panel in all its states (a rebalance running, a lag alert, an
// idle and a crashed member, an open help, an error, the charts' tables
// unfolded) has no serious or critical accessibility violation in either
// theme.
func TestUIGroupsAccessibility(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `topic orders partitions=2
produce orders value=v count=9
join g c1 topics=orders strategy=sticky
join g c2 topics=orders strategy=sticky instance=i2
join g c3 topics=orders strategy=sticky
advance 5s
poll g c1 max=1
commit g c1
config group g lag.alert.records=2
crash g c2
join h h1 topics=orders
`)
	b.waitCount(t, group("g")+`[data-alert=true]`, 1)
	b.waitCount(t, member("g", "c3")+`[data-idle]`, 1)
	b.click(t, group("g")+` [data-help=generation] button`)
	b.click(t, b.groupInspector(t, "g")+` .group-reset button[type=submit]`)
	b.waitCount(t, `[data-control="g/reset"][role=alert]`, 1)
	eval[bool](t, b, `(() => { document.querySelectorAll(".groups-panel details, [data-inspector] details").forEach(d => d.open = true); return true })()`)
	for _, scheme := range []string{"light", "dark"} {
		_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}},
		})
		if err != nil {
			t.Fatal(err)
		}
		b.waitFor(t, fmt.Sprintf(`matchMedia("(prefers-color-scheme: %s)").matches`, scheme))
		for _, v := range runAxe(t, b) {
			t.Errorf("%s theme: %s (%s): %s at %s", scheme, v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
		}
	}
}

// A learner who joins and polls at once, as the README's example once did,
// is told beside the member why the poll got nothing; once the clock has
// run the rebalance, the poll gets records and the note goes.
func TestUIEmptyPollSaysWhy(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=2\nproduce orders value=v count=3\n")
	b.joinMember(t, "billing", "c1", "orders", "range", "")
	c1 := member("billing", "c1")
	b.waitCount(t, c1, 1)
	b.click(t, c1+` [data-action=poll]`)
	b.waitText(t, c1+` [data-poll-empty]`, "got nothing: the group is still rebalancing: c1 gets its partitions when the rebalance completes, due at 3s")
	b.click(t, "#advance-1m")
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	b.click(t, c1+` [data-action=poll]`)
	b.waitCount(t, c1+` [data-poll-empty]`, 0)
	b.click(t, c1+` [data-action=poll]`)
	b.waitText(t, c1+` [data-poll-empty]`, "got nothing: it is at the end of its partitions")
}
