package kafkarun

import (
	"encoding/json"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"
)

// stateOf runs a script in the playground and returns its state, copied
// through JSON so that the test can change one side freely.
func stateOf(t *testing.T, script string) scenario.State {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	data, err := scenario.StateJSON(s.Log())
	if err != nil {
		t.Fatal(err)
	}
	var st scenario.State
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	return st
}

const compareScript = `topic orders partitions=2
produce orders partition=0 key=k value=v count=3
join billing c1 topics=orders
advance 5s
poll billing c1
commit billing c1
`

func TestCompareFlagsAnUnexplainedDifference(t *testing.T) {
	prediction, cluster := stateOf(t, compareScript), stateOf(t, compareScript)
	m := newMarks()
	if c := compare(prediction, cluster, &m); !c.OK() || len(c.Unexpected()) != 0 {
		t.Fatalf("identical states differ:\n%s", c.Text())
	}
	// One record more on the cluster: its high watermark, records,
	// the group's lag and total lag all differ, with no reason.
	p := &cluster.Topics[0].Partitions[0]
	extra := "extra"
	p.Records = append(p.Records, scenario.RecordState{Offset: 3, Key: &extra, Value: &extra})
	p.HighWatermark = 4
	o := &cluster.Groups[0].Offsets[0]
	lag := int64(1)
	o.LogEndOffset, o.Lag = 4, &lag
	cluster.Groups[0].TotalLag = 1
	c := compare(prediction, cluster, &m)
	if c.OK() {
		t.Fatalf("a cluster with an extra record compares OK:\n%s", c.Text())
	}
	var differing []string
	for _, row := range c.Unexpected() {
		differing = append(differing, row.What)
	}
	want := "orders/0 high watermark,orders/0 records,billing orders/0 lag,billing total lag"
	if got := strings.Join(differing, ","); got != want {
		t.Errorf("unexpected differences %s, want %s", got, want)
	}
	text := c.Text()
	for _, line := range []string{"3 records", "4 records, #3 at 3: \"extra\"=\"extra\"", "DIFFERS", "4 differ unexpectedly"} {
		if !strings.Contains(text, line) {
			t.Errorf("comparison text lacks %q:\n%s", line, text)
		}
	}

	// The same difference on a partition marked for retention is
	// expected, with its reason in the table.
	m.partition(tp{"orders", 0}, ReasonRetention)
	c = compare(prediction, cluster, &m)
	if !c.OK() {
		t.Errorf("a difference on a retention partition is unexpected:\n%s", c.Text())
	}
	if text := c.Text(); !strings.Contains(text, "differs, expected: retention") || !strings.Contains(text, string(ReasonRetention)) {
		t.Errorf("the reason is not shown:\n%s", text)
	}
}

func TestCompareMissingTopicAndGroup(t *testing.T) {
	prediction := stateOf(t, compareScript)
	m := newMarks()
	c := compare(prediction, scenario.State{}, &m)
	if c.OK() {
		t.Fatal("an empty cluster compares OK")
	}
	if row := c.Rows[0]; row.What != "topic orders" || row.Cluster != "missing" {
		t.Errorf("first row %+v, want topic orders missing", row)
	}
}

// The placement rows check each partitioner's rule on what the cluster's
// producer did, and flag a record that broke it.
func TestComparePlacementFlagsABrokenRule(t *testing.T) {
	prediction := stateOf(t, "rules 1\ntopic rr partitions=2\ntopic st partitions=3 partitioner=sticky\n")
	for _, tc := range []struct {
		name  string
		sends map[string][]keylessSend
		want  string // the unexpected row, "" for none
	}{
		{"rules kept", map[string][]keylessSend{
			"rr": {{line: 3, partitioner: core.PartitionerRoundRobin, partitions: 2, landed: []int{0, 1, 0}}},
			"st": {{line: 4, partitioner: core.PartitionerSticky, partitions: 3, landed: []int{2, 2, 2}}},
		}, ""},
		{"round-robin out of turn", map[string][]keylessSend{
			"rr": {{line: 3, partitioner: core.PartitionerRoundRobin, partitions: 2, landed: []int{0, 1}},
				{line: 4, partitioner: core.PartitionerRoundRobin, partitions: 2, landed: []int{1}}},
		}, "rr keyless placement"},
		{"a sticky batch split", map[string][]keylessSend{
			"st": {{line: 4, partitioner: core.PartitionerSticky, partitions: 3, landed: []int{2, 0}}},
		}, "st keyless placement"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMarks()
			m.sends = tc.sends
			var got []string
			for _, row := range compare(prediction, prediction, &m).Unexpected() {
				got = append(got, row.What+": "+row.Cluster)
			}
			if tc.want == "" && len(got) > 0 || tc.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tc.want)) {
				t.Errorf("unexpected rows %q, want %q", got, tc.want)
			}
		})
	}
}

// A reason explains only the rows it is about: a poll stopped at max
// explains the offsets and lag of the partitions it read, never who owns
// what, nor another partition's offset.
func TestCompareScopesAPollReasonToThePartitionsItRead(t *testing.T) {
	script := compareScript + "produce orders partition=1 key=k value=v count=2\npoll billing c1\ncommit billing c1\n"
	prediction := stateOf(t, script)
	m := newMarks()
	m.polled[groupPartition{"billing", tp{"orders", 0}}] = ReasonPollOrder
	for _, tc := range []struct {
		name   string
		change func(*scenario.GroupState)
		want   string // the unexpected row, "" for none
	}{
		{"the polled partition's commit", func(g *scenario.GroupState) { g.Offsets[0].Committed = ptr(1); g.Offsets[0].Lag = ptr(2) }, ""},
		{"another partition's commit", func(g *scenario.GroupState) { g.Offsets[1].Committed = ptr(1) }, "billing orders/1 committed"},
		{"who owns what", func(g *scenario.GroupState) { g.Members[0].Assignment = g.Members[0].Assignment[:0] }, "billing c1 owns"},
		{"the group's state", func(g *scenario.GroupState) { g.State = "rebalancing" }, "billing state"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cluster := stateOf(t, script)
			tc.change(&cluster.Groups[0])
			var got []string
			for _, row := range compare(prediction, cluster, &m).Unexpected() {
				if !strings.HasSuffix(row.What, "total lag") {
					got = append(got, row.What)
				}
			}
			if tc.want == "" && len(got) > 0 || tc.want != "" && (len(got) != 1 || got[0] != tc.want) {
				t.Errorf("unexpected rows %q, want %q", got, tc.want)
			}
		})
	}
}

func ptr(n int64) *int64 { return &n }

// New partitions of a topic a group read once explain at most one more
// generation on the cluster each (franz-go's leader rejoins for them), and
// never fewer; without such a command the generation has no reason.
func TestCompareFormerTopicExplainsOnlyTheExtraGenerations(t *testing.T) {
	prediction := stateOf(t, compareScript)
	for _, tc := range []struct {
		grew, extra int
		want        Reason
	}{
		{0, 1, ""},
		{1, 1, ReasonFormerTopic},
		{1, 2, ""},
		{2, 2, ReasonFormerTopic},
		{1, -1, ""},
	} {
		cluster := stateOf(t, compareScript)
		cluster.Groups[0].Generation += tc.extra
		m := newMarks()
		m.formerTopicGrew["billing"] = tc.grew
		for _, row := range compare(prediction, cluster, &m).Rows {
			if row.What == "billing generation" && (row.Match || row.Reason != tc.want) {
				t.Errorf("%d partitions commands, %+d generations: row %+v, want reason %q", tc.grew, tc.extra, row, tc.want)
			}
		}
	}
}

// Every reason has its short name for the comparison's table.
func TestEveryReasonHasAShortName(t *testing.T) {
	for _, r := range []Reason{ReasonStickyBalancer, ReasonCooperativePlan, ReasonStaticReturn, ReasonNoGeneration,
		ReasonFormerTopic, ReasonOutsideCommit, ReasonCrash, ReasonRetention, ReasonCompaction, ReasonWorkload, ReasonSticky,
		ReasonPollOrder, ReasonAutoCommit, ReasonDatetime, ReasonBrokers, ReasonMetadataRefresh, ReasonRefreshHeld} {
		if shortReasons[r] == "" {
			t.Errorf("no short name for %q", r)
		}
	}
}
