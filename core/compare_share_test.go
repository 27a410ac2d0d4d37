package core

import (
	"fmt"
	"strings"
	"testing"
)

// shareComparisonLog is a topic of two partitions read by a share group
// of three members: more members than partitions.
func shareComparisonLog(t *testing.T) *PartitionedLog {
	t.Helper()
	l := NewPartitionedLog(1)
	if err := l.CreateTopic("orders", 2, nil); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"s1", "s2", "s3"} {
		if err := l.ShareJoin("workers", m, ShareJoinOptions{Topics: []string{"orders"}}); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// One workload through a consumer group and a share group: in the
// consumer group the third member gets nothing (two partitions) and each
// partition is read in offset order by its one owner; in the share group
// every member gets records. A crash costs the consumer group the session
// timeout and a rebalance, after which the crashed member's partition is
// read again from the committed offset; it costs the share group the
// record lock, after which the crashed member's records are delivered a
// second time. The real groups do not change.
func TestCompareShareConsumer(t *testing.T) {
	l := shareComparisonLog(t)
	before, _ := l.ShareGroup("workers")
	cmp, err := l.CompareShareConsumer("workers", ShareWorkload{Records: 12, PollMax: 2, Crash: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := l.ShareGroup("workers")
	if fmt.Sprint(before) != fmt.Sprint(after) || len(l.GroupNames()) != 0 {
		t.Fatal("the comparison changed the real engine")
	}
	got := func(r WorkloadRun) map[string]int {
		by := map[string]int{}
		for _, d := range r.Deliveries {
			by[d.Member]++
		}
		return by
	}
	cg, sg := cmp.Consumer, cmp.Share
	for _, r := range []WorkloadRun{cg, sg} {
		if r.Unavailable != "" || !r.Done {
			t.Fatalf("%s run: unavailable %q, done %v", r.Kind, r.Unavailable, r.Done)
		}
		if r.Redelivered == 0 {
			t.Errorf("%s run: the crash redelivered nothing", r.Kind)
		}
		if !r.StallKnown || !r.CostKnown || r.CrashCostMs <= 0 {
			t.Errorf("%s run: the crash cost nothing (stall %d ms known %v, cost %d ms known %v)", r.Kind, r.StalledMs, r.StallKnown, r.CrashCostMs, r.CostKnown)
		}
	}
	if by := got(cg); by["s3"] != 0 && by["s2"] != 0 && by["s1"] != 0 {
		t.Errorf("every consumer group member got records from two partitions before the crash: %v", by)
	}
	if by := got(sg); by["s1"] == 0 || by["s2"] == 0 || by["s3"] == 0 {
		t.Errorf("a share group member got nothing: %v", by)
	}
	// The consumer group waits for the session timeout (45s) and the
	// share group for the lock (30s), each measured from the crash.
	if cg.StalledMs < 45_000 {
		t.Errorf("the consumer group took the crashed member's partitions after %d ms, before its session timed out", cg.StalledMs)
	}
	if sg.StalledMs < 30_000 || sg.StalledMs >= cg.StalledMs {
		t.Errorf("the share group got the crashed member's records after %d ms, want the 30s lock (consumer: %d ms)", sg.StalledMs, cg.StalledMs)
	}
	// A partition of the consumer group is read in offset order, by one
	// member at a time, save the records read again after the crash.
	last := map[TopicPartition]int64{}
	for _, d := range cg.Deliveries {
		if prev, ok := last[d.TopicPartition]; ok && d.Offset <= prev && d.Delivery == 1 {
			t.Errorf("the consumer group read %v@%d after @%d", d.TopicPartition, d.Offset, prev)
		}
		last[d.TopicPartition] = max(last[d.TopicPartition], d.Offset)
	}

	// Bad input is refused.
	for _, w := range []ShareWorkload{{Records: -1}, {PollMax: 1000}, {Crash: "s9"}, {PollIntervalMs: 1}} {
		if _, err := l.CompareShareConsumer("workers", w); err == nil {
			t.Errorf("%+v accepted", w)
		}
	}
	if _, err := l.CompareShareConsumer("nobody", ShareWorkload{}); err == nil || !strings.Contains(err.Error(), "unknown share group") {
		t.Errorf("an unknown group: %v", err)
	}
}

// The comparison runs at every command while a share group's inspector
// shows it: four runs on copies of the engine (each group with and
// without the crash), here of the page's largest workload.
func BenchmarkCompareShareConsumer(b *testing.B) {
	l := NewPartitionedLog(1)
	if err := l.CreateTopic("orders", 4, nil); err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		if _, err := l.Produce(ProduceRequest{Topic: "orders", Partition: i % 4, Value: "v"}); err != nil {
			b.Fatal(err)
		}
	}
	for _, m := range []string{"s1", "s2", "s3"} {
		if err := l.ShareJoin("workers", m, ShareJoinOptions{Topics: []string{"orders"}}); err != nil {
			b.Fatal(err)
		}
	}
	w := ShareWorkload{Records: 48, PollMax: 1, Crash: "s1"}
	for b.Loop() {
		if _, err := l.CompareShareConsumer("workers", w); err != nil {
			b.Fatal(err)
		}
	}
}
