package app

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"plog/core"
	"plog/core/lesson"
	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// everyControlScenario brings out every control of the page.
const everyControlScenario = "testdata/every_control.plog"

// Every command of the scenario language has a control on the page that
// sends it, named by data-command, in one of the dock's tabs or in the
// inspector of a group.
// The commands come from the language's own table, the one the parser
// reads.
func TestEveryCommandHasAControl(t *testing.T) {
	script, err := os.ReadFile(everyControlScenario)
	if err != nil {
		t.Fatal(err)
	}
	p, d := mountAt(t, mustLink(t, string(script)))
	if p.err != "" {
		t.Fatalf("unexpected alert: %s", p.err)
	}
	showEveryTab(d)
	page := app.HTMLString(p) + inspect(t, p, d, selection{Kind: selectGroup, Group: "billing"})
	// The answer's controls show under the goal of a lesson that asks.
	page += app.HTMLString(&LessonQuestions{Questions: []lesson.Question{{Name: "hot", Text: "Which?", Choices: []string{"0", "1"}}, {Name: "why", Text: "Why?"}}})
	for _, name := range scenario.CommandNames() {
		if len(tagsWith(page, "data-command", name)) == 0 {
			t.Errorf("no control on the page sends %q (%s): give it data-command=%q", name, scenario.Usage(name), name)
		}
	}
}

// The new controls write lines the language reads, with every argument
// the form offers.
func TestWorkloadConfigAndClusterControlsWriteLines(t *testing.T) {
	topics := []TopicSnapshot{{Name: "views", Partitions: make([]PartitionSnapshot, 4)}}

	pf := &ProduceForm{Topics: topics}
	pf.OnInit()
	pf.acks = "1"
	if l, _ := pf.Line(); l != "produce views key=acct-1 value=created acks=1" {
		t.Errorf("produce with acks: %q", l)
	}

	cf := &TopicConfigForm{Topics: topics}
	if _, problem := cf.Line(); problem == "" {
		t.Error("a config with no value must be refused before the engine sees it")
	}
	cf.name, cf.value = "min.insync.replicas", " 2 "
	if l, _ := cf.Line(); l != "config topic views min.insync.replicas=2" {
		t.Errorf("config line: %q", l)
	}
	if _, problem := (&TopicConfigForm{}).Line(); problem == "" {
		t.Error("configuring with no topic must say there is none")
	}

	w := &WorkloadControls{Topics: topics}
	w.OnInit()
	w.keys, w.keyspace, w.exponent, w.value, w.acks = "zipf", "50", "2", "view", "0"
	lines, _ := w.ProducerLines()
	if strings.Join(lines, "\n") != "producer web views rate=10/s keys=zipf keyspace=50 exponent=2 value=view acks=0" {
		t.Errorf("producer lines: %q", lines)
	}
	// A producer of that name runs: the form replaces it.
	w.Workloads = []scenario.Workload{{Producer: true, Name: "web", Topic: "views"}}
	w.keys, w.keyspace, w.value, w.acks = "uniform", "10000", "", ""
	lines, _ = w.ProducerLines()
	if strings.Join(lines, "\n") != "stop web\nproducer web views rate=10/s keys=uniform keyspace=10000" {
		t.Errorf("replacing producer lines: %q", lines)
	}
	w.group, w.member = "stats", "s2"
	lines, _ = w.ConsumerLines()
	if strings.Join(lines, "\n") != "consumer stats s2 rate=2/s max=5 commit" {
		t.Errorf("consumer lines: %q", lines)
	}
	w.Workloads = append(w.Workloads, scenario.Workload{Name: "stats s2", Group: "stats", Member: "s2"})
	w.commit, w.max = false, ""
	lines, _ = w.ConsumerLines()
	if strings.Join(lines, "\n") != "stop stats s2\nconsumer stats s2 rate=2/s" {
		t.Errorf("replacing consumer lines: %q", lines)
	}
	// A share group's member commits nothing: the form leaves commit out
	// even while its box was ticked for a consumer group.
	w.ShareGroups, w.group, w.member, w.commit, w.max = []string{"work"}, "work", "w1", true, "5"
	lines, _ = w.ConsumerLines()
	if strings.Join(lines, "\n") != "consumer work w1 rate=2/s max=5" {
		t.Errorf("share consumer lines: %q", lines)
	}
	w.member = ""
	if _, problem := w.ConsumerLines(); problem == "" {
		t.Error("a consumer with no member must be refused before the engine sees it")
	}
	if l, _ := w.SeedLine(); l != "seed 1" {
		t.Errorf("seed line: %q", l)
	}
	for _, wl := range w.Workloads {
		parseOne(t, wl.StopLine())
	}

	bf := &BrokersForm{Brokers: 3, LagMaxMs: 30_000}
	bf.OnInit()
	if l, _ := bf.BrokersLine(); l != "brokers 3" {
		t.Errorf("brokers line: %q", l)
	}
	bf.count, bf.lagMax = "5", "10s"
	if l, _ := bf.BrokersLine(); l != "brokers 5 replica.lag.time.max.ms=10s" {
		t.Errorf("brokers line: %q", l)
	}
	bf.slowID, bf.pace = "2", "5/s"
	if l, _ := bf.SlowLine(); l != "broker slow 2 pace=5/s" {
		t.Errorf("slow line: %q", l)
	}

	gc := &GroupCommitForm{Group: "billing", Partitions: []string{"orders/0", "orders/1"}}
	if _, problem := gc.commitLine(); problem == "" {
		t.Error("an explicit commit with no offset must be refused before the engine sees it")
	}
	gc.offset = "4"
	if l, _ := gc.commitLine(); l != "commit billing orders/0 offset=4" {
		t.Errorf("explicit commit line: %q", l)
	}

	for _, l := range []string{
		"produce views key=acct-1 value=created acks=1", "config topic views min.insync.replicas=2",
		"producer web views rate=10/s keys=uniform keyspace=10000", "consumer stats s2 rate=2/s",
		"brokers 5 replica.lag.time.max.ms=10s", "broker slow 2 pace=5/s", "commit billing orders/0 offset=4",
	} {
		parseOne(t, l)
	}
}

func parseOne(t *testing.T, l string) scenario.Command {
	t.Helper()
	cmds, err := scenario.Parse(l)
	if err != nil || len(cmds) != 1 {
		t.Fatalf("%q does not parse as one command: %v", l, err)
	}
	return cmds[0]
}

// Every argument, flag and choice word of every command is something a
// control on the page writes: each control here is filled with every option
// it offers, and the lines it writes, read back by the parser, must use all
// that the language's table lists for the command.
func TestEveryArgumentHasAControl(t *testing.T) {
	topics := []TopicSnapshot{{Name: "views", Partitions: make([]PartitionSnapshot, 4)}}
	var lines []string
	add := func(l ...string) { lines = append(lines, l...) }
	first := func(l, _ string) string { return l }
	firsts := func(l []string, _ string) []string { return l }

	tf := &TopicForm{}
	tf.OnInit()
	tf.name, tf.retention, tf.segment, tf.more = "orders", "1h", "10", "retention.bytes=4KB"
	add(first(tf.Line()))

	pf := &ProduceForm{Topics: topics}
	pf.OnInit()
	pf.count, pf.partition, pf.acks, pf.partitioner = "2", "1", "all", "round-robin"
	add(first(pf.Line()))
	pf.tombstone = true
	add(first(pf.Line()))
	// Through a named producer, with a value each (producer_panel.go).
	pf.Producers, pf.producer, pf.values = []string{"p1"}, "p1", "a,b"
	add(first(pf.Line()))
	add(first((&ProducerPanel{name: "p1", acks: "all", idempotence: "true", maxInFlight: "5", transactionalID: "t1"}).Line()))
	card := &ProducerCard{Producer: core.ProducerView{Name: "p1"}, Groups: []string{"g"}, after: "1", count: "2"}
	for _, fault := range scenario.WireFaults {
		add(card.wireLine(fault))
	}
	for _, action := range scenario.TxnActions {
		add(first(card.txnLine(action)))
	}
	add(first(AdvanceLine("1s")))
	add(first((&PartitionsForm{Topic: "views", Partitions: 4}).Line()))
	cf := &TopicConfigForm{Topics: topics, name: "retention.ms", value: "1h"}
	add(first(cf.Line()))
	cc := &CleanupControls{Topics: topics, before: "3"}
	add(first(cc.TruncateLine()))
	add(first(cc.CompactLine()))

	join := &GroupJoinForm{group: "g", member: "c1", topics: "views", strategy: "sticky", instance: "i1"}
	add(first(join.joinLine()))
	m := &GroupMember{Group: "g", Member: core.MemberView{ID: "c1", Topics: []string{"views"}}}
	for _, action := range []string{"poll", "commit", "leave", "crash"} {
		add(first(m.line(action)))
	}
	consumerJoin := &GroupJoinForm{group: "g", member: "c2", topics: "views", protocol: core.ProtocolConsumer, assignor: "range"}
	add(first(consumerJoin.joinLine()))
	consumer := &GroupMember{Group: "g", Member: core.MemberView{ID: "c2", Topics: []string{"views"}, Epoch: 3, MemberState: core.MemberStable}}
	add(first(consumer.line("commit"))) // a consumer group member's commit carries its epoch
	add(first((&GroupCommitForm{Group: "g", partition: "views/0", offset: "3"}).commitLine()))
	// The share groups' controls (share_group_panel.go, share_group_card.go).
	sj := &ShareJoinForm{group: "w", member: "s1", topics: "views", ackMode: core.AckModeExplicit, maxPoll: "10"}
	add(first(sj.joinLine()))
	sm := &ShareMember{Group: "w", Member: core.ShareMemberView{Name: "s1", AckMode: core.AckModeExplicit,
		Holding: []core.ShareHeld{{TopicPartition: core.TopicPartition{Topic: "views", Partition: 0}, Offset: 3}}}, max: "2"}
	for _, action := range []string{"share-poll", core.AckAccept, core.AckRelease, core.AckReject, core.AckRenew, "share-leave", "crash"} {
		add(firsts(sm.lines(action))...)
	}
	crashed := &ShareMember{Group: "w", Member: core.ShareMemberView{Name: "s1", Topics: []string{"views"}, AckMode: core.AckModeExplicit, MaxPoll: 10, CrashedAt: 0},
		ComeBackID: "s2"}
	add(firsts(crashed.lines("come-back"))...)
	// The share group's config form, each config with its control: the
	// picked ones with every value they offer, the typed ones at their
	// least value.
	sc := &ShareGroupConfigForm{Group: "w", typed: map[string]string{}}
	for _, d := range core.Configs(core.OnShareGroup) {
		if shareConfigPicked(d) {
			for _, v := range shareConfigChoices(d) {
				add(sc.choiceLine(d.Name, v))
			}
			continue
		}
		sc.typed[d.Name] = strconv.FormatInt(d.Min, 10)
		if d.Kind == core.KindDuration {
			sc.typed[d.Name] = units.Duration(d.Min)
		}
	}
	add(first(sc.setLine()))
	gc := &GroupConfigForm{Group: "g", typed: map[string]string{}}
	for _, c := range editableConfigs {
		gc.typed[c.name] = "10s"
	}
	gc.typed["lag.alert.records"] = "10"
	add(first(gc.setLine()), gc.autoCommitLine(true))
	for _, c := range choiceConfigs {
		add(gc.choiceLine(c.name, c.values[len(c.values)-1]))
	}
	for _, mode := range resetModes {
		r := &GroupResetForm{Group: "g", mode: mode, value: "5", scope: "views"}
		if mode == core.ResetToDatetime {
			r.value = "5s"
		}
		add(first(r.resetLine()))
	}

	w := &WorkloadControls{Topics: topics}
	w.OnInit()
	w.keys, w.value, w.acks, w.group, w.member, w.partitioner = "zipf", "v", "1", "g", "c1", "round-robin"
	add(firsts(w.ProducerLines())...)
	// The Key names box: a list, and a pattern.
	for _, names := range []string{"acct-1,acct-2", "tenant-{n}"} {
		w.keyNames = names
		add(firsts(w.ProducerLines())...)
	}
	w.keyNames = ""
	add(firsts(w.ConsumerLines())...)
	add(first(w.SeedLine()))
	// The timeline's Use the latest rules, under older rules.
	tl := &Timeline{Rules: core.RulesV1}
	dt := app.NewClientTester(tl)
	defer dt.Close()
	for _, tag := range tagsWith(app.HTMLString(tl), "data-command", scenario.CmdRules) {
		if title := htmlTitle.FindStringSubmatch(tag); title != nil {
			add(title[1])
		}
	}
	add(scenario.Workload{Producer: true, Name: "web"}.StopLine(), scenario.Workload{Group: "g", Member: "c1"}.StopLine())
	add(answerLine("hot", "partition 3"))

	add((&GroupLifecycle{Group: GroupSnapshot{GroupView: core.GroupView{Name: "g"}}}).deleteLine())
	bf := &BrokersForm{Brokers: 3, count: "3", lagMax: "10s", slowID: "1", pace: "1/s", policy: core.MigrationUpgrade}
	add(first(bf.BrokersLine()))
	add(first(bf.SlowLine()))
	// The brokers' buttons, in each state that shows one of them.
	rv := &BrokerStrip{Brokers: []core.BrokerInfo{{ID: 1, Down: true}, {ID: 2, Isolated: true}, {ID: 3}}}
	d := app.NewClientTester(rv)
	defer d.Close()
	for _, tag := range tagsWith(app.HTMLString(rv), "data-command", "broker") {
		if title := htmlTitle.FindStringSubmatch(tag); title != nil {
			add(title[1])
		}
	}

	used := map[string]map[string]bool{}
	for _, l := range lines {
		c := parseOne(t, l)
		if used[c.Name] == nil {
			used[c.Name] = map[string]bool{}
		}
		for _, a := range c.Args {
			used[c.Name][a.Name] = true
			used[c.Name][a.Value] = true
		}
	}
	for _, name := range scenario.CommandNames() {
		if used[name] == nil {
			t.Errorf("no control writes %s", name)
			continue
		}
		for _, arg := range scenario.CommandArgs(name) {
			if !used[name][arg] {
				t.Errorf("no control writes %s with %s (%s)", name, arg, scenario.Usage(name))
			}
		}
	}
	for _, name := range scenario.GroupConfigNames() {
		if !used["config"][name] {
			t.Errorf("the group config form does not set %s", name)
		}
	}
	for _, name := range scenario.ShareGroupConfigNames() {
		if !used["config"][name] {
			t.Errorf("the share group config form does not set %s", name)
		}
	}
	for _, name := range scenario.TopicConfigNames() {
		offered := false
		for _, tag := range tagsWith(renderedConfigForm(t), "value", name) {
			offered = offered || strings.HasPrefix(tag, "<option")
		}
		if !offered {
			t.Errorf("the topic config form does not offer %s", name)
		}
	}
}

var htmlTitle = regexp.MustCompile(` title="([^"]*)"`)

func renderedConfigForm(t *testing.T) string {
	t.Helper()
	f := &TopicConfigForm{Topics: []TopicSnapshot{{Name: "views"}}}
	d := app.NewClientTester(f)
	defer d.Close()
	return app.HTMLString(f)
}
