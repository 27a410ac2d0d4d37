package core

import (
	"fmt"
	"strings"
	"testing"
)

// newTestLog returns an engine with one topic, failing the test on error.
func newTestLog(t testing.TB, topicName string, partitions int, configs map[string]string) *PartitionedLog {
	t.Helper()
	return newTestLogUnder(t, LatestRules, topicName, partitions, configs)
}

// newTestLogUnder is newTestLog under a version of the rules (rules.go).
func newTestLogUnder(t testing.TB, rules int, topicName string, partitions int, configs map[string]string) *PartitionedLog {
	t.Helper()
	l := NewPartitionedLog(1)
	if err := l.UseRules(rules); err != nil {
		t.Fatal(err)
	}
	if err := l.CreateTopic(topicName, partitions, configs); err != nil {
		t.Fatal(err)
	}
	return l
}

// mustProduce produces a record, failing the test on error.
func mustProduce(t testing.TB, l *PartitionedLog, req ProduceRequest) ProduceResult {
	t.Helper()
	res, err := l.Produce(req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// produceKeyed produces a keyed record to an explicit partition.
func produceTo(t testing.TB, l *PartitionedLog, topicName string, partition int, key, value string) ProduceResult {
	t.Helper()
	return mustProduce(t, l, ProduceRequest{Topic: topicName, Partition: partition, Key: key, HasKey: true, Value: value})
}

func mustAdvance(t testing.TB, l *PartitionedLog, ms int64) {
	t.Helper()
	if err := l.Advance(ms); err != nil {
		t.Fatal(err)
	}
}

func offsetsOf(records []Record) []int64 {
	offsets := make([]int64, len(records))
	for i, r := range records {
		offsets[i] = r.Offset
	}
	return offsets
}

// dumpLog writes the log part of the engine's whole state as text: two
// engines with the same dump behave the same.
func dumpLog(l *PartitionedLog) string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed=%d now=%d random=%d names=%v\n", l.seed, l.now, l.random, l.topicNames)
	for _, name := range l.topicNames {
		t := l.topics[name]
		fmt.Fprintf(&b, "topic %s %+v rr=%d sticky=%d/%d\n", name, t.config, t.roundRobin, t.sticky, t.stickyCount)
		for i, p := range t.partitions {
			fmt.Fprintf(&b, " p%d start=%d next=%d since=%d horizons=%v\n", i, p.logStart, p.next, p.activeSince, p.horizons)
			for _, s := range p.segments {
				fmt.Fprintf(&b, "  seg %+v\n", s)
			}
			for _, r := range p.records.all() {
				fmt.Fprintf(&b, "  %+v\n", r)
			}
		}
	}
	for _, e := range l.events.flatten() {
		fmt.Fprintf(&b, "event %+v\n", e)
	}
	return b.String()
}
