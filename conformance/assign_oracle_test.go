package conformance

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"

	"plog/core/assign"
	"plog/internal/kafkabroker"
)

// The assignors against Kafka's own: random groups (one topic or several,
// equal and unequal subscriptions, members coming and going with what they
// owned) given to plog's assign.Assign and to kafka-clients 4.4.0's
// RangeAssignor, RoundRobinAssignor, StickyAssignor and
// CooperativeStickyAssignor (kafkabroker.Oracle).
//
// Every strategy must agree on every case: plog's sticky assignors are
// Kafka's AbstractStickyAssignor ported (core/assign/sticky_kafka.go), the
// latest rules' (assign.Assign). Java's sticky answer may depend on the
// order in which the group leader's subscriptions map received the members
// (members whose ids share a HashMap bucket keep that order); the test
// gives Java the members in Kafka's assignor order, the order plog lists
// them in (assign.SortMembers), so the answer plog must give is exactly
// one of Java's. PLOG_ORACLE_CASES sets how many cases each strategy gets
// (default 300; `make conformance` asks for 5000).

// drawGroup draws a group: its topics, members and subscriptions, with
// nothing owned yet.
func drawGroup(rng *rand.Rand) (map[string]int, []assign.Member) {
	partitions := map[string]int{}
	topics := make([]string, 1+rng.IntN(3))
	for i := range topics {
		topics[i] = "t" + strconv.Itoa(i)
		partitions[topics[i]] = 1 + rng.IntN(8)
	}
	equal := rng.IntN(2) == 0
	members := make([]assign.Member, 1+rng.IntN(6))
	for i := range members {
		members[i].ID = fmt.Sprintf("c%d", rng.IntN(20))
		for slices.ContainsFunc(members[:i], func(m assign.Member) bool { return m.ID == members[i].ID }) {
			members[i].ID += "x"
		}
		if equal {
			members[i].Topics = slices.Clone(topics)
		} else {
			for _, t := range topics {
				if rng.IntN(2) == 0 {
					members[i].Topics = append(members[i].Topics, t)
				}
			}
			if len(members[i].Topics) == 0 {
				members[i].Topics = []string{topics[rng.IntN(len(topics))]}
			}
		}
		members[i].Generation = -1
	}
	return partitions, members
}

func toJava(strategy string, partitions map[string]int, members []assign.Member) kafkabroker.AssignCase {
	c := kafkabroker.AssignCase{Strategy: strategy, Partitions: partitions}
	members = slices.Clone(members)
	assign.SortMembers(members)
	for _, m := range members {
		jm := kafkabroker.AssignMember{ID: m.ID, Instance: m.InstanceID, Topics: m.Topics, Generation: m.Generation}
		for _, tp := range m.Owned {
			jm.Owned = append(jm.Owned, [2]any{tp.Topic, tp.Partition})
		}
		c.Members = append(c.Members, jm)
	}
	return c
}

func fromJava(out map[string][][2]any) assign.Assignment {
	a := assign.Assignment{}
	for id, pairs := range out {
		a[id] = []assign.TopicPartition{}
		for _, p := range pairs {
			a[id] = append(a[id], assign.TopicPartition{Topic: p[0].(string), Partition: int(p[1].(float64))})
		}
	}
	return a
}

func sameAssignment(a, b assign.Assignment) bool {
	if len(a) != len(b) {
		return false
	}
	for id, tps := range a {
		if !slices.Equal(tps, b[id]) {
			return false
		}
	}
	return true
}

// shape is what an assignment's quality is judged by: how unbalanced it is
// (the most partitions a member holds minus the fewest) and how many owned
// partitions stayed with their owner. Two assignments of one shape differ
// only in which of equally good choices they made.
func shape(a assign.Assignment, members []assign.Member) [2]int {
	most, fewest, kept := 0, -1, 0
	for _, m := range members {
		n := len(a[m.ID])
		most = max(most, n)
		if fewest < 0 || n < fewest {
			fewest = n
		}
		for _, tp := range m.Owned {
			kept += len(slices.DeleteFunc(slices.Clone(a[m.ID]), func(x assign.TopicPartition) bool { return x != tp }))
		}
	}
	return [2]int{most - fewest, kept}
}

func TestAssignorsAgainstKafkaClients(t *testing.T) {
	n := 300
	if v := os.Getenv("PLOG_ORACLE_CASES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("PLOG_ORACLE_CASES=%q: want a number", v)
		}
	}
	oracle, err := kafkabroker.StartOracle()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { oracle.Close() })
	for _, strategy := range []string{"range", "roundrobin", "sticky", "cooperative-sticky"} {
		rng := rand.New(rand.NewPCG(uint64(len(strategy)), 42))
		mismatches, ties := 0, 0
		var first string
		for i := range n {
			partitions, members := drawGroup(rng)
			// A previous generation: Java assigns the group, then some
			// members leave and others join, keeping what they owned.
			if rng.IntN(3) > 0 {
				prev, err := oracle.Assign(toJava(strategy, partitions, members))
				if err != nil {
					t.Fatal(err)
				}
				owned := fromJava(prev)
				var next []assign.Member
				for _, m := range members {
					if rng.IntN(4) == 0 {
						continue // left
					}
					m.Owned, m.Generation = owned[m.ID], 1
					next = append(next, m)
				}
				_, joining := drawGroup(rng)
				for _, m := range joining[:rng.IntN(len(joining)+1)] {
					m.ID = "n" + m.ID
					m.Topics = []string{"t0"}
					next = append(next, m)
				}
				if len(next) == 0 {
					next = members[:1]
				}
				members = next
			}
			java, err := oracle.Assign(toJava(strategy, partitions, members))
			if err != nil {
				t.Fatal(err)
			}
			want := fromJava(java)
			got, err := assign.Assign(strategy, slices.Clone(members), partitions)
			if err != nil {
				t.Fatalf("case %d: assign.Assign: %v", i, err)
			}
			if !sameAssignment(got, want) {
				mismatches++
				if shape(got, members) == shape(want, members) {
					ties++
				}
				if first == "" {
					first = fmt.Sprintf("case %d: partitions %v, members %+v\n  java %v\n  plog %v", i, partitions, members, want, got)
				}
			}
		}
		line := fmt.Sprintf("%s: %d of %d cases differ from kafka-clients %s; in %d of them plog's is as balanced and as sticky as Java's",
			strategy, mismatches, n, kafkabroker.Version, ties)
		t.Log(line)
		results.addOracle(line)
		if mismatches > 0 {
			t.Errorf("%s: %d of %d cases differ from Kafka's; the first: %s", strategy, mismatches, n, first)
		}
	}
}
