package core

import (
	"fmt"
	"testing"

	"plog/core/assign"
)

// BenchmarkGroupRebalance measures a whole rebalance in the engine: a 101st
// member joins a group of 100 that owns a 1,000-partition topic, and the
// clock runs a second at a time, each member polling once a second, until
// the group is stable again (two rounds for cooperative-sticky): a classic
// member rejoins inside its poll, as Kafka 4.x's ConsumerCoordinator does,
// so a group whose members never poll waits out max.poll.interval.ms.
func BenchmarkGroupRebalance(b *testing.B) {
	for _, strategy := range assign.Strategies() {
		b.Run(strategy, func(b *testing.B) {
			l := NewPartitionedLog(1)
			if err := l.CreateTopic("orders", 1000, nil); err != nil {
				b.Fatal(err)
			}
			for i := range 100 {
				mustJoin(b, l, "g", fmt.Sprintf("c%03d", i), strategy)
			}
			mustAdvance(b, l, 10_000)
			for b.Loop() {
				c := l.Clone()
				mustJoin(b, c, "g", "new", strategy)
				for s := 0; mustGroup(b, c, "g").State != GroupStable; s++ {
					if s == 60 {
						b.Fatalf("group g not stable after %d s", s)
					}
					mustAdvance(b, c, 1000)
					for _, m := range mustGroup(b, c, "g").Members {
						mustPoll(b, c, "g", m.ID, 500)
					}
				}
			}
		})
	}
}

// BenchmarkPoll measures polls of 500 records (Kafka's max.poll.records)
// by a member that owns 100 partitions.
func BenchmarkPoll(b *testing.B) {
	l := NewPartitionedLog(1)
	if err := l.CreateTopic("orders", 100, map[string]string{"segment.records": "-1", "segment.bytes": "1GB"}); err != nil {
		b.Fatal(err)
	}
	for i := range 100_000 {
		mustProduce(b, l, ProduceRequest{Topic: "orders", Partition: i % 100, Value: "v"})
	}
	mustJoin(b, l, "g", "c1", StrategyRange)
	settle(b, l)
	for b.Loop() {
		if len(mustPoll(b, l, "g", "c1", 500)) == 0 {
			// Read everything: start over from offset 0.
			clear(l.groups.groups["g"].members[0].positions)
		}
	}
}
