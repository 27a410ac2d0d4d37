package core

import (
	"fmt"
	"slices"
	"testing"

	"plog/core/assign"
)

// BenchmarkAssignTarget1000PartitionsTo100Members is
// BenchmarkAssign1000PartitionsTo100Members for the consumer protocol's
// server-side assignors (assign.AssignTarget: uniform and range, Kafka
// 4.4's group coordinator): the same 1,000 partitions of three topics and
// 101 members, the target computed once, then one member gone and the rest
// holding what the target gave them; with equal subscriptions (uniform's
// homogeneous builder) and with every member reading two of the three
// topics (its heterogeneous builder). Its floor is BenchmarkBaselineAssign.
func BenchmarkAssignTarget1000PartitionsTo100Members(b *testing.B) {
	counts := map[string]int{"orders": 500, "payments": 300, "audit": 200}
	all := []string{"audit", "orders", "payments"}
	for _, subscriptions := range []string{"equal", "unequal"} {
		var members []assign.TargetMember
		for i := range 101 {
			topics := all
			if subscriptions == "unequal" {
				topics = slices.Delete(slices.Clone(all), i%3, i%3+1)
			}
			members = append(members, assign.TargetMember{ID: fmt.Sprintf("c%03d", i), Topics: topics})
		}
		for _, assignor := range assign.ServerAssignors() {
			target, err := assign.AssignTarget(assignor, members, counts)
			if err != nil {
				b.Fatal(err)
			}
			left := slices.Clone(members[1:])
			for i := range left {
				left[i].Target = target[left[i].ID]
			}
			b.Run(subscriptions+"/"+assignor, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := assign.AssignTarget(assignor, left, counts); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
