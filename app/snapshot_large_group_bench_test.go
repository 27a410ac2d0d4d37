package app

import (
	"fmt"
	"strings"
	"testing"

	"plog/core/scenario"
)

// BenchmarkSnapshotLargeGroup takes the page's snapshot of ten topics of
// 1,000 partitions read by a consumer group of 200 members (KIP-848), the
// largest scenario the limits let a link make: what each command costs
// the page before it renders. `go test -bench SnapshotLargeGroup -count 3
// ./app/` on a 2-core AMD EPYC, in one run: 26-30 ms, 18.6 MB and 42,530
// allocations before the group's partitions were listed in order and its
// marks kept in a map sized once; 16-19 ms, 9.7 MB and 15,397 after.
func BenchmarkSnapshotLargeGroup(b *testing.B) {
	var script strings.Builder
	topics := make([]string, 10)
	for i := range topics {
		topics[i] = fmt.Sprintf("t%d", i)
		fmt.Fprintf(&script, "topic %s partitions=1000\n", topics[i])
	}
	for i := range 200 {
		fmt.Fprintf(&script, "join g c%d topics=%s group.protocol=consumer\n", i, strings.Join(topics, ","))
	}
	script.WriteString("advance 10s\nleave g c3\nadvance 10s\n")
	s, err := scenario.Load(script.String())
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := snapshotOf(s, nil); err != nil {
			b.Fatal(err)
		}
	}
}
