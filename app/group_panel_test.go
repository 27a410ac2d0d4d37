package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// groupsScenario has three groups on one topic, one per strategy tried, and
// commits in billing so that it has lag: billing reads from the log start
// and commits when told.
const groupsScenario = `topic orders partitions=4
config group billing auto.offset.reset=earliest enable.auto.commit=false
produce orders key=a value=v count=6
produce orders key=k2 value=v count=4
join billing c1 topics=orders strategy=range
join billing c2 topics=orders strategy=range
join billing c3 topics=orders strategy=range
join audit a1 topics=orders strategy=sticky
advance 6s
poll billing c1 max=2
commit billing c1
config group billing lag.alert.records=3
`

func TestGroupPanelShowsGroupsMembersAndLag(t *testing.T) {
	p, d := mountAt(t, mustLink(t, groupsScenario))
	if p.err != "" {
		t.Fatalf("alert: %s", p.err)
	}
	page := app.HTMLString(p)
	l := p.session.Log()
	for _, name := range l.GroupNames() {
		g, err := l.Group(name)
		if err != nil {
			t.Fatal(err)
		}
		card := tagsWith(page, "data-group", name, "data-state", g.State,
			"data-generation", strconv.Itoa(g.Generation), "data-lag", strconv.FormatInt(g.TotalLag, 10))
		if len(card) != 1 {
			t.Errorf("group %s: want one card with state %s, generation %d, lag %d; page:\n%s",
				name, g.State, g.Generation, g.TotalLag, page)
		}
		for _, m := range g.Members {
			if len(tagsWith(page, "data-member", m.ID, "data-assigned", partitionList(m.Assignment))) != 1 {
				t.Errorf("%s/%s: want data-assigned=%q", name, m.ID, partitionList(m.Assignment))
			}
		}
	}
	billing, _ := l.Group("billing")
	if !billing.Alert || billing.TotalLag < 3 {
		t.Fatalf("the scenario should light billing's alert: lag %d alert %v", billing.TotalLag, billing.Alert)
	}
	if len(tagsWith(page, "data-group", "billing", "data-alert", "true")) != 1 {
		t.Error("billing's card does not light its lag alert")
	}
	if !strings.Contains(page, "Lag alert: ") {
		t.Error("the lag alert says nothing in words")
	}
	// Lag per partition, in the group's inspector: committed partitions
	// have a number, the others "-".
	inspector := inspect(t, p, d, selection{Kind: selectGroup, Group: "billing"})
	for _, part := range billing.Partitions {
		want := "-"
		if part.HasCommitted {
			want = strconv.FormatInt(part.Lag, 10)
		}
		tp := part.Topic + "/" + strconv.Itoa(part.Partition)
		if len(tagsWith(inspector, "data-lag-of", tp, "data-lag", want)) != 1 {
			t.Errorf("billing %s: want a lag row with data-lag=%q", tp, want)
		}
	}
}

// cardOf returns the HTML of one group's card.
func cardOf(page, group string) string {
	for _, tag := range tagsWith(page, "data-group", group) {
		if strings.HasPrefix(tag, "<article") {
			start := strings.Index(page, tag)
			end := strings.Index(page[start:], "</article>")
			return page[start : start+end]
		}
	}
	return ""
}

func TestGroupPanelMarksIdleMembers(t *testing.T) {
	script := "topic orders partitions=4\n"
	for i := 1; i <= 5; i++ {
		script += "join g c" + strconv.Itoa(i) + " topics=orders\n"
	}
	script += "advance 6s\n" // each joined in the first wait, which waits 3s more
	p, _ := mountAt(t, mustLink(t, script))
	page := app.HTMLString(p)
	idle := tagsWith(page, "data-idle", "true")
	if len(idle) != 1 || !strings.Contains(idle[0], `data-member="c5"`) {
		// range gives c1..c4 a partition each; c5 waits.
		t.Errorf("want c5 alone marked idle, got %v", idle)
	}
}

func TestGroupPanelShowsARebalanceAsItHappens(t *testing.T) {
	script := "topic orders partitions=4\njoin g c1 topics=orders\nadvance 5s\njoin g c2 topics=orders\n"
	p, d := mountAt(t, mustLink(t, script))
	page := app.HTMLString(p)
	running := tagsWith(page, "data-rebalance", "running")
	if len(running) != 1 || !strings.Contains(running[0], `data-paused="orders/0 orders/1 orders/2 orders/3"`) {
		t.Fatalf("while c2 joins, want a running rebalance pausing all of c1's partitions (eager), got %v", running)
	}
	// Rules 4: it waits for c1 to rejoin in its poll, until the timeout.
	if len(tagsWith(page, "data-rebalance-waits-for", "c1")) != 1 || len(tagsWith(page, "data-timeout-at", "305000")) != 1 ||
		len(tagsWith(page, "data-poll-deadline", "c1", "data-at", "300000")) != 1 || !strings.Contains(page, "rejoin, which a consumer does in its next poll") {
		t.Fatalf("the running rebalance does not say it waits for c1 to poll, until the timeout at 5m5s:\n%s", cardOf(page, "g"))
	}
	Apply(d.Context(), "advance 5s")
	d.Consume()
	if len(tagsWith(app.HTMLString(p), "data-rebalance", "running")) != 1 {
		t.Fatal("the rebalance ended before c1 polled")
	}
	Apply(d.Context(), "poll g c1")
	d.Consume()
	page = app.HTMLString(p)
	if len(tagsWith(page, "data-rebalance", "running")) != 0 {
		t.Error("the rebalance still shows as running after it completed")
	}
	if len(tagsWith(page, "data-rebalance", "done", "data-moved", "2")) != 1 {
		t.Errorf("want the done rebalance to say 2 partitions moved, page:\n%s", page)
	}
	if len(tagsWith(page, "data-change-member", "c1", "data-lost", "orders/2 orders/3")) != 1 ||
		len(tagsWith(page, "data-change-member", "c2", "data-gained", "orders/2 orders/3")) != 1 {
		t.Error("the rebalance does not say what c1 lost and c2 gained")
	}
}

func TestGroupPanelSamplesLagAfterEveryCommandAndFollowsUndo(t *testing.T) {
	script := "topic orders partitions=1\njoin g c1 topics=orders\nadvance 5s\npoll g c1\ncommit g c1\n"
	p, d := mountAt(t, mustLink(t, script))
	for _, line := range []string{"produce orders value=v count=3", "advance 1s", "produce orders value=v count=2"} {
		Apply(d.Context(), line)
		d.Consume()
	}
	if got, want := strings.Join(lagOf(p.session.LagHistory(), "g"), " "), "- - - - 0 3 3 5"; got != want {
		t.Errorf("lag samples = %s, want %s", got, want)
	}
	page := inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
	if len(tagsWith(page, "data-chart", "lag", "data-chart-group", "g")) != 1 {
		t.Error("no lag chart for g")
	}
	if n := strings.Count(page, `<tr data-step=`); n != 4 {
		t.Errorf("the lag chart's table lists %d samples, want the 4 with a commit", n)
	}

	// Stepping back shows the history up to there; a new line from there
	// replaces the samples after it.
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "undo"})
	d.Consume()
	if n := strings.Count(inspect(t, p, d, selection{Kind: selectGroup, Group: "g"}), `<tr data-step=`); n != 3 {
		t.Errorf("one step back, the lag chart's table lists %d samples, want 3", n)
	}
	Apply(d.Context(), "produce orders value=v count=7")
	d.Consume()
	if got := strings.Join(lagOf(p.session.LagHistory(), "g"), " "); got != "- - - - 0 3 3 10" {
		t.Errorf("after a different last line, lag samples = %s", got)
	}
	if !strings.Contains(inspect(t, p, d, selection{Kind: selectGroup, Group: "g"}), "<td>10</td>") {
		t.Error("the lag chart's table does not show the new lag of 10")
	}
}

// lagOf lists one group's total lag in each sample, "-" without a commit.
func lagOf(samples []scenario.LagSample, group string) []string {
	var out []string
	for _, s := range samples {
		v := "-"
		for _, g := range s.Groups {
			if g.Group == group && g.HasCommitted() {
				v = strconv.FormatInt(g.Total, 10)
			}
		}
		out = append(out, v)
	}
	return out
}

func TestGroupControlsSayWhatIsWrongWithTheirInput(t *testing.T) {
	f := &GroupJoinForm{}
	if _, problem := f.joinLine(); !strings.Contains(problem, "group") {
		t.Errorf("an empty group: problem %q", problem)
	}
	f.group = "billing"
	if _, problem := f.joinLine(); !strings.Contains(problem, "member") {
		t.Errorf("an empty member: problem %q", problem)
	}
	f.member, f.topics, f.strategy, f.instance = "c 1", "orders, audit", "sticky", "i1"
	line, problem := f.joinLine()
	if problem != "" {
		t.Fatal(problem)
	}
	if line != `join billing "c 1" topics=orders,audit strategy=sticky instance=i1` {
		t.Errorf("join line = %s", line)
	}
	// The quoted id stays one argument, which the engine then refuses.
	if _, err := scenario.Parse(line); err == nil || !strings.Contains(err.Error(), `"c 1"`) {
		t.Errorf("parsing %s: %v, want the member id \"c 1\" refused", line, err)
	}

	m := &GroupMember{Group: "billing"}
	m.Member.ID = "c1"
	m.max, m.maxTyped = "abc", true
	if _, problem := m.line("poll"); !strings.Contains(problem, `"abc"`) {
		t.Errorf("max=abc: problem %q", problem)
	}
	m.max = "3"
	if line, _ := m.line("poll"); line != "poll billing c1 max=3" {
		t.Errorf("poll line = %q", line)
	}

	r := &GroupResetForm{Group: "billing", mode: "to-offset", value: "x"}
	if _, problem := r.resetLine(); problem == "" {
		t.Error("to-offset=x: no problem reported")
	}
	r.value, r.scope = "4", "orders/1"
	if line, _ := r.resetLine(); line != "reset billing to-offset=4 topic=orders/1" {
		t.Errorf("reset line = %q", line)
	}
}

// A group or member named like a flag word (to-earliest, commit) stays a
// name in the lines the controls write.
func TestGroupControlsQuoteFlagWords(t *testing.T) {
	for _, w := range scenario.FlagWords() {
		r := &GroupResetForm{Group: w, mode: "to-earliest"}
		m := &GroupMember{Group: w}
		m.Member.ID = w
		commit, _ := m.line("commit")
		reset, _ := r.resetLine()
		for _, line := range []string{reset, commit, "consumer " + word(w) + " " + word(w) + " rate=1/s commit"} {
			cmds, err := scenario.Parse(line)
			if err != nil {
				t.Errorf("%s: %v", line, err)
				continue
			}
			if cmds[0].Positional(0) != w {
				t.Errorf("%s: the group reads as %q", line, cmds[0].Positional(0))
			}
		}
	}
}

func TestNextMemberID(t *testing.T) {
	for id, want := range map[string]string{"c1": "c2", "c9": "c10", "worker": "worker2", "a-07": "a-8", "": "2"} {
		if got := nextMemberID(id); got != want {
			t.Errorf("nextMemberID(%q) = %q, want %q", id, got, want)
		}
	}
}

func TestHelpOpensAndCloses(t *testing.T) {
	for _, topic := range []string{"offset", "high-watermark", "log-start", "segment", "lag", "generation",
		"range", "roundrobin", "sticky", "cooperative-sticky", "static-membership", "retention",
		"compaction", "tombstone", "skew", "member-ordering"} {
		if _, ok := helpTopics[topic]; !ok {
			t.Errorf("no help for %s", topic)
		}
	}
	h := &Help{Topic: "high-watermark"}
	d := app.NewClientTester(h)
	defer d.Close()
	page := app.HTMLString(h)
	if len(tagsWith(page, "aria-expanded", "false")) != 1 || strings.Contains(page, `role="note"`) {
		t.Fatalf("a closed help: %s", page)
	}
	h.toggle(d.Context(), app.Event{})
	h.Update()
	d.Consume()
	page = app.HTMLString(h)
	if len(tagsWith(page, "aria-expanded", "true")) != 1 || !strings.Contains(page, "the high watermark") {
		t.Fatalf("an open help: %s", page)
	}
}

func TestGroupPanelShowsBothRoundsOfACooperativeRebalance(t *testing.T) {
	script := "topic orders partitions=4\njoin g c1 topics=orders strategy=cooperative-sticky\nadvance 5s\n" +
		"join g c2 topics=orders strategy=cooperative-sticky\npoll g c1\npoll g c2\nadvance 10s\n"
	p, _ := mountAt(t, mustLink(t, script))
	g, _ := p.session.Log().Group("g")
	if n := len(g.History); n != 3 || g.History[2].Round != 2 {
		t.Fatalf("want the first rebalance then a two-round one, history %+v", g.History)
	}
	page := app.HTMLString(p)
	if len(tagsWith(page, "data-rebalance", "done", "data-moved", "2")) != 1 {
		t.Errorf("the cooperative rebalance should count 2 partitions moved over its rounds:\n%s", cardOf(page, "g"))
	}
	lost := tagsWith(page, "data-change-member", "c1")
	gained := tagsWith(page, "data-change-member", "c2")
	if len(lost) != 1 || len(gained) != 1 {
		t.Fatalf("changes: c1 %v, c2 %v", lost, gained)
	}
	c2 := p.session.Log()
	view, _ := c2.Group("g")
	for _, m := range view.Members {
		if m.ID == "c2" && !strings.Contains(gained[0], `data-gained="`+partitionList(m.Assignment)+`"`) {
			t.Errorf("c2 gained %s; the page says %s", partitionList(m.Assignment), gained[0])
		}
	}
	if !strings.Contains(lost[0], `data-lost="`) || strings.Contains(lost[0], `data-lost=""`) {
		t.Errorf("c1 lost nothing, says the page: %s", lost[0])
	}
}

func TestGroupPanelComparesStrategiesAndChartsRecords(t *testing.T) {
	script := "topic orders partitions=6\nproduce orders key=hot value=v count=5\n" +
		"join g c1 topics=orders\njoin g c2 topics=orders\njoin g c3 topics=orders\nadvance 5s\n"
	p, d := mountAt(t, mustLink(t, script))
	page := app.HTMLString(p) + inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
	g := p.view.Groups[0]
	if len(g.Movements) != 2 || g.Movements[0].Change != "c4 joins" || g.Movements[1].Change != "c1 leaves" {
		t.Fatalf("movements = %+v", g.Movements)
	}
	for _, mv := range g.Movements {
		for _, s := range mv.Strategies {
			if len(tagsWith(page, "data-strategy", s.Strategy, "data-moved", strconv.Itoa(s.Moved))) == 0 {
				t.Errorf("%s, %s: the table does not say %d moved", mv.Change, s.Strategy, s.Moved)
			}
		}
	}
	// Records per partition, once the learner unfolds the charts (folded,
	// they are not drawn): the hot key's partition holds all five.
	if strings.Contains(page, `data-chart="records"`) {
		t.Error("the folded charts are drawn")
	}
	d.Context().NewActionWithValue(chartsAction, true)
	d.Consume()
	page = app.HTMLString(p)
	hot := "orders/" + strconv.Itoa(partitionOfKey(t, p, "hot"))
	if !strings.Contains(page, `data-records-of="`+hot+`"`) {
		t.Fatalf("no records row for %s", hot)
	}
	if len(tagsWith(page, "data-chart", "records", "data-chart-topic", "orders", "data-skew", "6.00")) != 1 {
		t.Errorf("the records chart should give orders a skew of 6.00 (5 records in one of 6 partitions)")
	}
}

// partitionOfKey is where the page's engine put a key.
func partitionOfKey(t *testing.T, p *Playground, key string) int {
	t.Helper()
	for _, topic := range p.view.Topics {
		for _, part := range topic.Partitions {
			for _, r := range part.Records {
				if r.HasKey && r.Key == key {
					return part.Partition
				}
			}
		}
	}
	t.Fatalf("no record with key %s", key)
	return -1
}

func TestStoppedMembersComeBack(t *testing.T) {
	script := "topic orders partitions=2\njoin g c1 topics=orders instance=i1\njoin g c2 topics=orders\nadvance 5s\n" +
		"crash g c1\ncrash g c2\n"
	p, _ := mountAt(t, mustLink(t, script))
	g := p.view.Groups[0]
	lines := map[string]string{}
	for _, m := range g.Members {
		gm := &GroupMember{Group: g.Name, Strategy: g.Strategy, Member: m, ComeBackID: comeBackID(g, m)}
		lines[m.ID], _ = gm.line("come-back")
	}
	if lines["c1"] != "join g c1 topics=orders strategy=range instance=i1" {
		t.Errorf("the static member comes back as %q", lines["c1"])
	}
	if lines["c2"] != "join g c3 topics=orders strategy=range" {
		t.Errorf("the crashed dynamic member restarts as %q, want a new id", lines["c2"])
	}
	for id, line := range lines {
		if _, err := p.session.Apply(line); err != nil {
			t.Errorf("%s comes back with %q: %v", id, line, err)
		}
	}
}

func TestEveryHelpTopicHasText(t *testing.T) {
	for _, name := range HelpTopics() {
		topic := helpTopics[name]
		if topic.Title == "" || len(topic.Text) < 40 {
			t.Errorf("help %q is too thin: %+v", name, topic)
		}
	}
	page := app.HTMLString(&Help{Topic: "no-such-topic"})
	if !strings.Contains(page, "help-button") {
		t.Error("an unknown topic must still render a working button")
	}
}

// TestGroupPanelRendersEveryStepOfTheGoldenScenarios walks the golden group
// and workload scenarios one command at a time, as time travel does, and
// checks that every group the engine holds has its card, and that each
// member's assignment is the engine's.
func TestGroupPanelRendersEveryStepOfTheGoldenScenarios(t *testing.T) {
	for _, name := range []string{"groups.plog", "workloads.plog"} {
		script, err := os.ReadFile(filepath.Join("..", "core", "scenario", "testdata", "golden", name))
		if err != nil {
			t.Fatal(err)
		}
		p, d := mountAt(t, mustLink(t, string(script)))
		if p.err != "" {
			t.Fatalf("%s: %s", name, p.err)
		}
		for step := 0; step <= p.session.Len(); step++ {
			if err := p.session.Seek(step); err != nil {
				t.Fatal(err)
			}
			p.refresh()
			p.Update()
			d.Consume()
			page := app.HTMLString(p)
			l := p.session.Log()
			for _, g := range l.GroupNames() {
				view, _ := l.Group(g)
				card := cardOf(page, g)
				if card == "" {
					t.Fatalf("%s step %d: no card for group %s", name, step, g)
				}
				for _, m := range view.Members {
					tags := tagsWith(card, "data-member", m.ID)
					want := partitionList(m.Assignment)
					// go-app prints an empty attribute bare.
					if len(tags) != 1 || want != "" && !strings.Contains(tags[0], `data-assigned="`+want+`"`) ||
						want == "" && strings.Contains(tags[0], `data-assigned="`) {
						t.Fatalf("%s step %d: %s/%s should show %q: %v", name, step, g, m.ID, want, tags)
					}
				}
			}
		}
	}
}

func TestGroupPanelShowsRedeliveriesAfterACrash(t *testing.T) {
	script := "topic orders partitions=1\nproduce orders value=v count=4\nconfig group g session.timeout.ms=6s auto.offset.reset=earliest enable.auto.commit=false\n" +
		"join g c1 topics=orders\njoin g c2 topics=orders\nadvance 6s\n"
	p, d := mountAt(t, mustLink(t, script))
	owner := p.view.Groups[0].Partitions[0].Owner
	for _, line := range []string{"poll g " + owner + " max=3", "crash g " + owner, "advance 1m"} {
		Apply(d.Context(), line)
		d.Consume()
	}
	other := map[string]string{"c1": "c2", "c2": "c1"}[owner]
	Apply(d.Context(), "poll g "+other+" max=10")
	d.Consume()
	page := inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
	if len(tagsWith(page, "data-delivered", "7", "data-redelivered", "3")) != 1 {
		t.Errorf("want 7 delivered, 3 of them again, in:\n%s", page)
	}
	if len(tagsWith(page, "data-delivery", "orders/0@0", "data-outcome", core.OutcomeUnprocessed)) != 1 {
		t.Errorf("the crashed member's first record should show as unprocessed")
	}
}

// A poll that gets nothing says why beside the member, until a poll gets
// records.
func TestMemberSaysWhyItsPollGotNothing(t *testing.T) {
	script := "topic orders partitions=2\nproduce orders value=v count=3\nconfig group g auto.offset.reset=earliest\njoin g c1 topics=orders\npoll g c1\n"
	p, d := mountAt(t, mustLink(t, script))
	page := app.HTMLString(p)
	// go-app writes attributes in no fixed order: the note and its mark are
	// looked for apart.
	if len(tagsWith(page, "data-poll-empty", "true")) != 1 || !strings.Contains(page, `>Its poll at 0s got nothing: the group is still rebalancing: c1 gets its partitions when the rebalance completes; the group was empty, so this rebalance waits group.initial.rebalance.delay.ms for more members, until 3s (longer if another joins).<`) {
		t.Fatalf("the member does not say why its poll got nothing:\n%s", page)
	}
	Apply(d.Context(), "advance 3s")
	d.Consume()
	Apply(d.Context(), "poll g c1")
	d.Consume()
	if page := app.HTMLString(p); strings.Contains(page, "data-poll-empty") {
		t.Errorf("a poll that got records still shows the empty poll's note:\n%s", page)
	}
}

// A rebalance's summary lists changesListed members, each with at most
// assignmentListed partitions of a kind, and says how many more: a group
// of 200 members over 10,000 partitions wrote every partition moved.
func TestGroupPanelSummaryListsAFewMembers(t *testing.T) {
	var script strings.Builder
	script.WriteString("rules 5\ntopic orders partitions=900\n")
	for i := range changesListed + 3 {
		fmt.Fprintf(&script, "join g c%d topics=orders group.protocol=consumer\n", i)
	}
	script.WriteString("advance 10s\n")
	p, _ := mountAt(t, mustLink(t, script.String()))
	page := app.HTMLString(p)
	var changes []string
	for _, tag := range tagsWith(page) {
		if strings.Contains(tag, " data-change-member=") {
			changes = append(changes, tag)
		}
	}
	if n := len(changes); n != changesListed {
		t.Errorf("the summary lists %d members, want %d", n, changesListed)
	}
	if !strings.Contains(page, "and 3 more members: "+lanesShowOwners) {
		t.Errorf("the summary does not say how many members it leaves out:\n%s", cardOf(page, "g"))
	}
	for _, tag := range changes {
		for _, kind := range []string{"data-gained", "data-kept", "data-lost"} {
			if at := strings.Index(tag, kind+`="`); at >= 0 {
				value := tag[at+len(kind)+2:]
				if n := len(strings.Fields(value[:strings.Index(value, `"`)])); n > assignmentListed {
					t.Errorf("%s names %d partitions, want at most %d", kind, n, assignmentListed)
				}
			}
		}
	}
}

// A group's join form offers the next id in its members' style, or for an
// empty group its initial and 1, as the lessons' hints name members.
func TestSuggestedMemberID(t *testing.T) {
	members := func(ids ...string) []core.MemberView {
		var ms []core.MemberView
		for _, id := range ids {
			ms = append(ms, core.MemberView{ID: id})
		}
		return ms
	}
	for _, tc := range []struct {
		group GroupSnapshot
		want  string
	}{
		{GroupSnapshot{GroupView: core.GroupView{Name: "audit"}}, "a1"},
		{GroupSnapshot{GroupView: core.GroupView{Name: "Billing"}}, "b1"},
		{GroupSnapshot{GroupView: core.GroupView{Name: "9lives"}}, "c1"},
		{GroupSnapshot{GroupView: core.GroupView{Name: "billing", Members: members("c1", "c2")}}, "c3"},
		{GroupSnapshot{GroupView: core.GroupView{Name: "billing", Members: members("b2")}}, "b3"},
		{GroupSnapshot{GroupView: core.GroupView{Name: "billing", Members: members("worker")}}, "worker2"},
		{GroupSnapshot{GroupView: core.GroupView{Name: "billing", Members: members("7")}}, "c2"},
	} {
		if got := suggestedMemberID(tc.group); got != tc.want {
			t.Errorf("group %s with %v: suggested %q, want %q", tc.group.Name, tc.group.Members, got, tc.want)
		}
	}
}
