package e2e

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// The groups column of the picture, driven as a learner does: the buttons on
// each member's card, "+ Join a member" on a group, the inspector a group's
// or a member's name opens, the owners drawn on the lanes, and hovering a
// member to see its partitions.

// twoGroups is two groups of three members reading a topic of four
// partitions: the picture's largest groups side at 1280x800.
const twoGroups = `topic orders partitions=4
produce orders key=acct-1 value=a count=3
produce orders key=acct-2 value=b count=2
produce orders key=acct-3 value=c count=2
join billing c1 topics=orders
join billing c2 topics=orders
join billing c3 topics=orders
join analytics a1 topics=orders strategy=roundrobin
join analytics a2 topics=orders
join analytics a3 topics=orders
advance 5s`

// lastLineAfter is the timeline's last line once it has grown past steps.
func (b *browser) lastLineAfter(t *testing.T, steps string) string {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`document.querySelector(".timeline").dataset.length !== %s`, js(steps)))
	return b.text(t, ".timeline .script-line[data-step="+js(b.steps(t))+"]")
}

// shown reports whether the element a selector finds is laid out (not
// hidden, nor inside something hidden).
func (b *browser) shown(t *testing.T, selector string) bool {
	t.Helper()
	return eval[bool](t, b, fmt.Sprintf(`(() => { const el = document.querySelector(%s); return !!el && el.getClientRects().length > 0 })()`, js(selector)))
}

// use waits until the control a selector finds is on the screen, as a
// learner sees it, and returns the selector, to click or fill.
func (b *browser) use(t *testing.T, selector string) string {
	t.Helper()
	b.waitFor(t, shown(selector))
	return selector
}

// clickAndLine clicks a control and returns the line it added.
func (b *browser) clickAndLine(t *testing.T, selector string) string {
	t.Helper()
	steps := b.steps(t)
	b.click(t, selector)
	return b.lastLineAfter(t, steps)
}

func TestPictureGroupsMemberCardsAct(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, twoGroups)
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	for _, c := range []struct{ member, action, want string }{
		{"c1", "poll", "poll billing c1 max=5"},
		{"c1", "commit", "commit billing c1"},
		{"c2", "leave", "leave billing c2"},
		{"c3", "crash", "crash billing c3"},
	} {
		sel := member("billing", c.member) + " [data-action=" + c.action + "]"
		if !b.shown(t, sel) {
			t.Fatalf("%s's %s button is not on its card", c.member, c.action)
		}
		if got := b.clickAndLine(t, sel); got != c.want {
			t.Errorf("%s's %s button wrote %q, want %q", c.member, c.action, got, c.want)
		}
	}
	b.waitCount(t, member("billing", "c2"), 0)
	b.waitCount(t, member("billing", "c3")+`[data-down=crashed]`, 1)
	if got := b.attr(t, `[data-topic=orders][data-partition="0"] [data-group=billing][data-committed]`, "data-committed"); got == "" {
		t.Error("c1's commit drew no committed offset on orders/0")
	}
}

func TestPictureGroupsJoinFromTheGroup(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, twoGroups)
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	form := group("billing") + " .member-join"
	if b.shown(t, form) {
		t.Fatal("billing's join form is open before the learner asks for it")
	}
	b.click(t, group("billing")+" [data-action=join-member]")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).getClientRects().length > 0`, js(form)))
	if b.count(t, form+" [name=group]") != 0 {
		t.Error("the join form of billing asks for the group")
	}
	// It is preset: the next free member name and the group's topics.
	if got := b.clickAndLine(t, form+" button[type=submit]"); got != "join billing c4 topics=orders" {
		t.Errorf("billing's join wrote %q, want join billing c4 topics=orders", got)
	}
	b.waitCount(t, member("billing", "c4"), 1)
	// The member joined: the form closes; the learner opens it for another.
	b.waitFor(t, fmt.Sprintf(`!document.querySelector(%s)`, js(form)))
	b.click(t, group("billing")+" [data-action=join-member]")
	b.waitCount(t, form, 1)
	b.fill(t, form+" [name=member]", "s1")
	b.fill(t, form+" [name=instance]", "host-1")
	if got := b.clickAndLine(t, form+" button[type=submit]"); got != "join billing s1 topics=orders instance=host-1" {
		t.Errorf("billing's join wrote %q", got)
	}
	b.waitCount(t, member("billing", "s1")+`[data-instance=host-1]`, 1)
	// A name the group has is refused beside the form that sent it, which
	// stays open.
	b.click(t, group("billing")+" [data-action=join-member]")
	b.waitCount(t, form, 1)
	b.fill(t, form+" [name=member]", "c1")
	b.fill(t, form+" [name=instance]", "")
	b.click(t, form+" button[type=submit]")
	b.waitCount(t, `[data-control="billing/join"][role=alert]`, 1)

	// A new group from the column's top.
	b.click(t, `[data-action=new-group]`)
	b.waitFor(t, `document.querySelector(".join-form").getClientRects().length > 0`)
	b.joinMember(t, "audit", "x1", "orders", "", "")
	b.waitCount(t, group("audit"), 1)
}

// A group's name opens the group in the dock's inspector, a member's name
// the member with its group's settings, as a topic's, a lane's and a
// broker's do: one inspector, which another selection replaces, and which
// its button and Escape close. The picture stays whole at 1280x800 with it
// open.
func TestPictureGroupsInspector(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, twoGroups+"\npoll billing c1 max=2\ncommit billing c1")
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	if b.count(t, `[data-inspector=group], [data-inspector=member]`) != 0 {
		t.Fatal("a group's inspector is open before the learner opens one")
	}
	if n := b.count(t, `.groups-column .group-config, .groups-column .group-reset, .groups-column .group-commit`); n != 0 {
		t.Errorf("the groups column holds %d group forms: they belong in the inspector", n)
	}
	b.click(t, group("billing")+" [data-action=inspect-group]")
	inspector := `[data-inspector=group][data-inspector-group=billing][data-inspects=billing]`
	b.waitFor(t, shown(inspector))
	if !eval[bool](t, b, fmt.Sprintf(`!!document.querySelector(%s).closest(".dock #dock-inspector")`, js(inspector))) {
		t.Error("billing's inspector is not the dock's")
	}
	if b.attr(t, group("billing"), "data-inspecting") != "true" {
		t.Error("billing's card is not marked as the one inspected")
	}
	// Configs beside Kafka's defaults, as a topic's are; none changed yet.
	row := inspector + ` tr[data-config="session.timeout.ms"]`
	if got, text := b.attr(t, row, "data-kafka-default"), b.text(t, row+" td:last-child"); got != "45s" || text != "Kafka 45s" {
		t.Errorf("Kafka's default session.timeout.ms reads %q (%q), want 45s", got, text)
	}
	if n := b.count(t, inspector+` tr[data-changed=true]`); n != 0 {
		t.Errorf("%d configs are marked changed before any change", n)
	}
	if got := b.text(t, inspector+` tr[data-config=delivery] td:last-child`); !strings.HasSuffix(got, "(playground only)") {
		t.Errorf("delivery's default reads %q, want it marked playground only", got)
	}
	// Change one in the inspector's form.
	b.fill(t, inspector+` .group-config [name="session.timeout.ms"]`, "10s")
	if got := b.clickAndLine(t, inspector+" .group-config button[type=submit]"); got != "config group billing session.timeout.ms=10s" {
		t.Errorf("the inspector's Set wrote %q", got)
	}
	b.waitCount(t, row+`[data-changed=true][data-value="10s"]`, 1)
	if n := b.count(t, inspector+` tr[data-changed=true]`); n != 1 {
		t.Errorf("%d configs are marked changed, want 1", n)
	}
	if out := eval[[]string](t, b, outsideTheScreen(true)); len(out) > 0 {
		t.Errorf("with billing's inspector open, outside the 1280x800 window: %s", strings.Join(out, "; "))
	}

	// A member's name opens the member: its position and commit, and its
	// group's settings below.
	b.click(t, member("billing", "c1")+" [data-action=inspect-member]")
	m := `[data-inspector=member][data-inspector-group=billing][data-inspector-member=c1]`
	b.waitFor(t, shown(m))
	assigned := strings.Fields(b.attr(t, member("billing", "c1"), "data-assigned"))
	if n := b.count(t, m+` tr[data-position-of]`); n != len(assigned) {
		t.Errorf("the inspector lists %d partitions of c1, its card %d", n, len(assigned))
	}
	first := m + fmt.Sprintf(` tr[data-position-of=%s]`, js(assigned[0]))
	if b.attr(t, first, "data-position") == "-" || b.attr(t, first, "data-position-committed") == "-" {
		t.Errorf("c1's first partition shows no position or commit after a poll and a commit: %q", b.text(t, first))
	}
	if id := b.attr(t, member("billing", "c1"), "data-member-id"); !strings.Contains(b.text(t, m), id) {
		t.Errorf("the inspector does not show c1's member id %s", id)
	}
	if b.attr(t, member("billing", "c1"), "data-selected") != "true" {
		t.Error("c1's card is not marked selected")
	}
	if b.count(t, m+` .group-config`) != 1 || b.count(t, m+` tr[data-config="session.timeout.ms"][data-changed=true]`) != 1 {
		t.Error("c1's inspector does not hold its group's configs and forms")
	}

	// Another group replaces it, with its own forms; so does a topic.
	b.click(t, group("analytics")+" [data-action=inspect-group]")
	b.waitFor(t, shown(`[data-inspector=group][data-inspector-group=analytics]`))
	if n := b.count(t, `[data-inspector]`); n != 1 {
		t.Errorf("%d inspectors on the page, want one", n)
	}
	if b.count(t, `[data-control="billing/config"]`) != 0 || b.count(t, `[data-member][data-selected]`) != 0 || b.count(t, group("billing")+`[data-inspecting]`) != 0 {
		t.Error("billing's forms or marks stay after analytics replaced it")
	}
	b.click(t, `[data-inspect-topic="orders"]`)
	b.waitFor(t, shown(`[data-inspector=topic][data-inspects=orders]`))
	if b.count(t, `article[data-group][data-inspecting]`) != 0 {
		t.Error("a group stays marked inspected once a topic replaced it")
	}

	// The inspector's button closes it, from the keyboard too, and the
	// focus goes on from the dock's tab shown; Escape closes it too.
	b.click(t, group("billing")+" [data-action=inspect-group]")
	b.waitFor(t, shown(inspector))
	b.focus(t, "#inspector-close")
	b.key(t, "\r")
	b.waitFor(t, `!(`+shown(`[data-inspector]`)+`)`)
	b.waitFor(t, `document.activeElement && document.activeElement.matches("[data-dock-tab][aria-selected=true]")`)
	b.click(t, member("billing", "c3")+" [data-action=inspect-member]")
	b.waitFor(t, shown(`[data-inspector=member][data-inspector-member=c3]`))
	b.focus(t, member("billing", "c3")+" [data-action=inspect-member]")
	b.key(t, "\x1b") // Escape
	b.waitFor(t, `!(`+shown(`[data-inspector]`)+`)`)
	if b.count(t, `[data-member][data-selected]`) != 0 {
		t.Error("Escape left c3 marked selected")
	}
	b.noErrors(t)
}

// A lesson's panel stays in view above the inspector a group opens: its
// goal beside what the learner is looking at.
func TestPictureGroupsInspectorBesideTheLesson(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.open(t, s.URL+"#lesson=rebalance-moves")
	b.waitFor(t, `document.querySelectorAll("article[data-group]").length > 0`)
	b.click(t, `article[data-group] [data-action=inspect-group]`)
	b.waitFor(t, shown(`[data-inspector=group]`))
	inView := `(el => { const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight })(document.querySelector(%s))`
	for _, sel := range []string{`[data-lesson-panel]`, `[data-lesson-progress]`, `[data-inspector=group] .inspector-head`} {
		if !eval[bool](t, b, fmt.Sprintf(inView, js(sel))) {
			t.Errorf("%s is not in view with a group's inspector open", sel)
		}
	}
	b.noErrors(t)
}

// marksOf lists the drawn assignment of every member, by "group/member",
// as data-assigned writes it.
func (b *browser) marksOf(t *testing.T) map[string]string {
	t.Helper()
	raw := eval[map[string][]string](t, b, `(() => { const out = {};
		for (const el of document.querySelectorAll("[data-assignment][data-group][data-member][data-topic][data-partition]")) {
			const k = el.dataset.group + "/" + el.dataset.member;
			(out[k] = out[k] || []).push(el.dataset.topic + "/" + el.dataset.partition);
		}
		return out })()`)
	out := map[string]string{}
	for k, parts := range raw {
		sort.Strings(parts)
		out[k] = strings.Join(parts, " ")
	}
	return out
}

func TestPictureGroupsAssignmentOnTheLanes(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, twoGroups)
	b.waitCount(t, group("analytics")+`[data-state=stable]`, 1)
	want := assignments(t, twoGroups)
	got := b.marksOf(t)
	for k, parts := range want {
		if parts == "" {
			continue
		}
		if got[k] != parts {
			t.Errorf("the lanes draw %s on %q, the engine assigns it %q", k, got[k], parts)
		}
		g, m, _ := strings.Cut(k, "/")
		if card := b.attr(t, member(g, m), "data-assigned"); card != parts {
			t.Errorf("%s's card says %q, the engine %q", k, card, parts)
		}
	}
	if len(got) != 6 {
		t.Errorf("the lanes draw %d members, want 6: %v", len(got), got)
	}

	// A rebalance: c4 joins billing (range, eager), every partition stops.
	b.click(t, group("billing")+" [data-action=join-member]")
	b.waitCount(t, group("billing")+" .member-join", 1)
	b.click(t, group("billing")+" .member-join button[type=submit]")
	b.waitCount(t, group("billing")+`[data-state=rebalancing]`, 1)
	paused := strings.Fields(b.attr(t, group("billing")+" [data-rebalance=running]", "data-paused"))
	leaving := eval[[]string](t, b, `[...document.querySelectorAll('[data-assignment=leaving][data-group=billing]')].map(e => e.dataset.topic + "/" + e.dataset.partition).sort()`)
	sort.Strings(paused)
	if strings.Join(leaving, " ") != strings.Join(paused, " ") || len(paused) == 0 {
		t.Errorf("the lanes draw %v leaving billing, the rebalance paused %v", leaving, paused)
	}
	// When it completes, what moved arrives, as the last rebalance says.
	b.click(t, "#advance-1m")
	b.waitCount(t, group("billing")+`[data-state=stable][data-generation="2"]`, 1)
	var gained []string
	for _, id := range []string{"c1", "c2", "c3", "c4"} {
		gained = append(gained, strings.Fields(b.attr(t, group("billing")+fmt.Sprintf(` [data-change-member=%s]`, id), "data-gained"))...)
	}
	sort.Strings(gained)
	arriving := eval[[]string](t, b, `[...document.querySelectorAll('[data-assignment=arriving][data-group=billing]')].map(e => e.dataset.member + ":" + e.dataset.topic + "/" + e.dataset.partition).sort()`)
	if len(arriving) != len(gained) || len(gained) == 0 {
		t.Errorf("the lanes draw %v arriving in billing, the last rebalance gave %v", arriving, gained)
	}
	if n := b.count(t, member("billing", "c4")+` [data-arriving]`); n != 1 {
		t.Errorf("c4's card does not say what it gained (%d)", n)
	}
}

// hover moves the pointer to the middle of the element a selector finds.
func (b *browser) hover(t *testing.T, selector string) {
	t.Helper()
	box := eval[[]float64](t, b, fmt.Sprintf(`(() => { const el = document.querySelector(%s); el.scrollIntoView({block: "center"});
		const r = el.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2] })()`, js(selector)))
	b.do(t, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, box[0], box[1]))
}

func TestPictureGroupsHoverLightsTheLanes(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, twoGroups)
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	lit := func() string {
		return strings.Join(eval[[]string](t, b, `[...document.querySelectorAll('.lane[data-highlight]')].map(e => e.dataset.topic + "/" + e.dataset.partition).sort()`), " ")
	}
	c2 := member("billing", "c2")
	want := b.attr(t, c2, "data-assigned")
	b.hover(t, c2)
	b.waitFor(t, `document.querySelectorAll('.lane[data-highlight]').length > 0`)
	if got := lit(); got != want {
		t.Errorf("hovering c2 lights %q, its partitions are %q", got, want)
	}
	if b.attr(t, c2, "data-highlight") != "true" {
		t.Error("hovering c2 does not light its card")
	}
	// Focus does the same, for the keyboard.
	b.hover(t, "h1")
	b.waitCount(t, `[data-highlight]`, 0)
	b.focus(t, member("billing", "c1")+" [data-action=poll]")
	b.waitFor(t, `document.querySelectorAll('.lane[data-highlight]').length > 0`)
	if got, want := lit(), b.attr(t, member("billing", "c1"), "data-assigned"); got != want {
		t.Errorf("focusing c1's Poll lights %q, its partitions are %q", got, want)
	}
	// And the reverse: a member's mark on a lane lights its card.
	eval[bool](t, b, `(() => { document.activeElement.blur(); return true })()`)
	b.waitCount(t, `[data-highlight]`, 0)
	mark := `[data-assignment][data-group=analytics][data-member=a3]`
	b.hover(t, mark)
	b.waitCount(t, member("analytics", "a3")+`[data-highlight]`, 1)
	if n := b.count(t, `li[data-member][data-highlight]`); n != 1 {
		t.Errorf("hovering a3's mark lights %d cards, want 1", n)
	}
}

func TestPictureGroupsColumnFits(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, twoGroups)
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.waitCount(t, group("analytics")+`[data-state=stable]`, 1)
	// The column as the picture at 1280x800 sizes it (about 300 px wide).
	size := `(() => { const p = document.querySelector(".groups-column");
		return [p.scrollHeight, p.clientHeight, p.scrollWidth, p.clientWidth] })()`
	got := eval[[]int](t, b, size)
	if got[0] > got[1] || got[2] > got[3] {
		t.Errorf("2 groups of 3 members take %dx%d px in the %dx%d column: they should fit without scrolling", got[2], got[0], got[3], got[1])
	}
	// More members scroll inside the column, not the page.
	for i := 0; i < 6; i++ {
		// The form closes once a member joined: open it for each.
		b.click(t, group("billing")+" [data-action=join-member]")
		b.waitCount(t, group("billing")+" .member-join", 1)
		steps := b.steps(t)
		b.click(t, group("billing")+" .member-join button[type=submit]")
		b.lastLineAfter(t, steps)
	}
	b.waitCount(t, group("billing")+" li[data-member]", 9)
	got = eval[[]int](t, b, size)
	if got[0] <= got[1] {
		t.Errorf("9 members fit in %d px: the test wants a column that has to scroll", got[1])
	}
	style := eval[string](t, b, `getComputedStyle(document.querySelector(".groups-column")).overflowY`)
	if style != "auto" && style != "scroll" {
		t.Errorf("the groups column's overflow is %q: more members would grow the page", style)
	}
}

func TestPictureGroupsAccessible(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, twoGroups+"\njoin billing c4 topics=orders")
	b.waitCount(t, group("billing")+`[data-state=rebalancing]`, 1)
	b.click(t, group("billing")+" [data-action=join-member]")
	b.click(t, member("billing", "c1")+" [data-action=inspect-member]")
	b.waitCount(t, `[data-inspector=member][data-inspector-member=c1]`, 1)
	b.click(t, `[data-action=new-group]`)
	for _, v := range runAxe(t, b) {
		t.Errorf("%s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}
}

// A read-only page opens a group's inspector too, to read: its configs, lag
// and charts, and none of the forms that would edit.
func TestPictureGroupsInspectorReadOnly(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL+linkOf(t, twoGroups)+"&readonly=1")
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	b.click(t, group("billing")+" [data-action=inspect-group]")
	inspector := `[data-inspector=group][data-inspector-group=billing]`
	b.waitFor(t, shown(inspector+` tr[data-config="session.timeout.ms"]`))
	if !b.shown(t, inspector+` [data-lag-of="orders/0"]`) {
		t.Error("the read-only inspector does not show billing's lag")
	}
	forms := eval[int](t, b, fmt.Sprintf(`[...document.querySelectorAll(%s)].filter(el => el.getClientRects().length > 0).length`, js(inspector+" form, [data-inspector] button:not(#inspector-close):not(.help-button)")))
	if forms != 0 {
		t.Errorf("the read-only inspector shows %d forms or buttons that edit", forms)
	}
	b.noErrors(t)
}

// A lesson without groups shows the groups' column as one line and a
// button, not the join form's nine fields: lesson 1 is about keys and
// partitions. "+ New group" opens the form in view; a refused join keeps
// it open, with why, and the join that lands closes it, the new member's
// card in sight.
func TestNoGroupsYetIsALineAndAButton(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerFromList(t, s, "key-order")
	b := x.b
	if problem := onScreen(t, b, ".groups-empty"); problem != "" {
		t.Errorf("the line saying there is no group is %s", problem)
	}
	if n := eval[int](t, b, `[...document.querySelectorAll(".groups-panel input, .groups-panel select")].filter(el => el.getClientRects().length > 0).length`); n != 0 {
		t.Errorf("%d form fields are drawn in the groups' column of a lesson without groups", n)
	}
	b.mouseClick(t, "[data-action=new-group]")
	b.waitFor(t, `document.querySelector(".group-new .join-form")?.getClientRects().length > 0`)
	if problem := onScreen(t, b, `.join-form [name=group]`); problem != "" {
		t.Errorf("the join form's group field, opened, is %s", problem)
	}
	b.fill(t, `.join-form [name=group]`, "billing")
	b.fill(t, `.join-form [name=member]`, "c1")
	b.fill(t, `.join-form [name=topics]`, "nowhere")
	b.mouseClick(t, `.join-form button[type=submit]`)
	b.waitFor(t, `!!document.querySelector(".group-new [role=alert]")?.textContent.trim()`)
	if b.attr(t, `[data-action=new-group]`, "aria-expanded") != "true" {
		t.Error("a refused join closed the form")
	}
	b.fill(t, `.join-form [name=topics]`, "orders")
	b.mouseClick(t, `.join-form button[type=submit]`)
	b.waitCount(t, `li.member[data-member=c1]`, 1)
	b.waitFor(t, `document.querySelector("[data-action=new-group]").getAttribute("aria-expanded") === "false"`)
	if problem := onScreen(t, b, `li.member[data-member=c1]`); problem != "" {
		t.Errorf("c1's card, joined, is %s", problem)
	}
}

// A group's join form, opened on a card low in the groups' column, comes
// into view whole: a walk of lesson 4 opened shipping's under the column's
// edge, its fields cut off.
func TestAJoinFormOpensInView(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerAtALaptop(t, s, "assignors")
	b := x.b
	b.mouseClick(t, group("shipping")+" [data-action=join-member]")
	form := group("shipping") + " form.member-join"
	b.waitCount(t, form, 1)
	if problem := onScreenSoon(t, b, form+" button[type=submit]"); problem != "" {
		t.Errorf("shipping's join form's button is %s", problem)
	}
}
