package app

import (
	"testing"

	"plog/core/scenario"
	"plog/core/scenario/hostile"
)

// BenchmarkSnapshotLargeGroup takes the page's snapshot of ten topics of
// 1,000 partitions read by a consumer group of 200 members (KIP-848), the
// hostile script of that name: what each command costs the page before it
// renders. `go test -bench SnapshotLargeGroup -count 3 ./app/` on a 2-core
// AMD EPYC, in one run: 26-30 ms, 18.6 MB and 42,530 allocations before
// the group's partitions were listed in order and its marks kept in a map
// sized once; 16-19 ms, 9.7 MB and 15,397 after.
func BenchmarkSnapshotLargeGroup(b *testing.B) {
	const name = "consumer group of 200 over 10,000 partitions"
	var script string
	for _, h := range hostile.Scripts() {
		if h.Name == name {
			script = h.Text
		}
	}
	if script == "" {
		b.Fatalf("no hostile script %q", name)
	}
	s, err := scenario.Load(script)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := snapshotOf(s, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
