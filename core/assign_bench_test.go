package core

import (
	"fmt"
	"slices"
	"testing"

	"plog/core/assign"
)

// BenchmarkAssign1000PartitionsTo100Members assigns 1,000 partitions of
// three topics to 100 members that owned them before one more member left,
// with equal subscriptions (sticky's direct path) and with every member
// reading two of the three topics (sticky's general path). The sticky
// strategies run as the latest rules plan them (Kafka's
// AbstractStickyAssignor, ported) and, as .../flow, as rules 1 and 2 do
// (the playground's minimum-cost flow), to compare. The assignors live in
// core/assign; the benchmark stays in core beside its floor,
// BenchmarkBaselineAssign, so that make bench runs both in one binary.
func BenchmarkAssign1000PartitionsTo100Members(b *testing.B) {
	counts := map[string]int{"orders": 500, "payments": 300, "audit": 200}
	all := []string{"audit", "orders", "payments"}
	for _, subscriptions := range []string{"equal", "unequal"} {
		var members []assign.Member
		for i := range 101 {
			topics := all
			if subscriptions == "unequal" {
				topics = slices.Delete(slices.Clone(all), i%3, i%3+1)
			}
			members = append(members, assign.Member{ID: fmt.Sprintf("c%03d", i), Topics: topics})
		}
		prev, err := assign.Assign(assign.Sticky, members, counts)
		if err != nil {
			b.Fatal(err)
		}
		members = members[1:]
		for i := range members {
			members[i].Owned, members[i].Generation = prev[members[i].ID], 1
		}
		for _, strategy := range assign.Strategies() {
			b.Run(subscriptions+"/"+strategy, func(b *testing.B) {
				for b.Loop() {
					if _, err := assign.Assign(strategy, members, counts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
		for _, strategy := range []string{assign.Sticky, assign.CooperativeSticky} {
			b.Run(subscriptions+"/"+strategy+"/flow", func(b *testing.B) {
				for b.Loop() {
					if _, err := assign.AssignWith(assign.FlowSticky, strategy, members, counts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
