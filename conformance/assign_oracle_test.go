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
// nothing owned yet. A big group has up to 30 members over up to 4 topics
// of up to 40 partitions: enough for member ids to share buckets of Java's
// HashMap and for many partitions to move between two members.
func drawGroup(rng *rand.Rand, big bool) (map[string]int, []assign.Member) {
	maxTopics, maxPartitions, maxMembers, ids := 3, 8, 6, 20
	if big {
		maxTopics, maxPartitions, maxMembers, ids = 4, 40, 30, 200
	}
	partitions := map[string]int{}
	topics := make([]string, 1+rng.IntN(maxTopics))
	for i := range topics {
		topics[i] = "t" + strconv.Itoa(i)
		partitions[topics[i]] = 1 + rng.IntN(maxPartitions)
	}
	equal := rng.IntN(2) == 0
	members := make([]assign.Member, 1+rng.IntN(maxMembers))
	for i := range members {
		members[i].ID = fmt.Sprintf("c%d", rng.IntN(ids))
		for slices.ContainsFunc(members[:i], func(m assign.Member) bool { return m.ID == members[i].ID }) {
			members[i].ID += "x"
		}
		if rng.IntN(5) == 0 {
			members[i].InstanceID = "host-" + members[i].ID
		}
		members[i].Topics = drawTopics(rng, topics, equal)
		members[i].Generation = -1
	}
	return partitions, members
}

// drawTopics draws a subscription: every topic, or some of them, now and
// then with a topic that does not exist.
func drawTopics(rng *rand.Rand, topics []string, equal bool) []string {
	if equal {
		return slices.Clone(topics)
	}
	var out []string
	for _, t := range topics {
		if rng.IntN(2) == 0 {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		out = []string{topics[rng.IntN(len(topics))]}
	}
	if rng.IntN(10) == 0 {
		out = append(out, "gone")
	}
	return out
}

// nextGeneration is the group after a rebalance that gave it owned, in
// generation: some members leave, others join with nothing, the rest own
// what they got, as Kafka's client sends it (owned partitions and the
// generation). Now and then a member changes its subscription, or comes
// back from an older generation claiming one more partition of its topics
// (a stale claim, which the higher generation beats), or claims a
// partition another member of its own generation holds (claimed twice in
// one generation: neither keeps it). A stale claim is never outside the
// member's subscription: there Java's GeneralAssignmentBuilder can fail
// (a NullPointerException in performReassignments when the stale owner's
// own topics need no rebalancing), and plog ignores the claim instead.
func nextGeneration(rng *rand.Rand, partitions map[string]int, members []assign.Member, owned assign.Assignment, generation int) []assign.Member {
	var topics []string
	for t := range partitions {
		topics = append(topics, t)
	}
	slices.Sort(topics)
	equal := !slices.ContainsFunc(members, func(m assign.Member) bool { return !slices.Equal(m.Topics, topics) })
	// randomPartition draws a partition of a topic m subscribes to.
	randomPartition := func(m assign.Member) assign.TopicPartition {
		t := m.Topics[rng.IntN(len(m.Topics))]
		return assign.TopicPartition{Topic: t, Partition: rng.IntN(max(partitions[t], 1))}
	}
	var next []assign.Member
	for _, m := range members {
		if rng.IntN(4) == 0 {
			continue // left
		}
		m.Owned, m.Generation = slices.Clone(owned[m.ID]), generation
		switch rng.IntN(12) {
		case 0:
			m.Topics = drawTopics(rng, topics, false)
		case 1:
			m.Generation = generation - 1
			if tp := randomPartition(m); partitions[tp.Topic] > 0 && !slices.Contains(m.Owned, tp) {
				m.Owned = append(m.Owned, tp)
			}
		case 2:
			if tp := randomPartition(m); partitions[tp.Topic] > 0 && !slices.Contains(m.Owned, tp) {
				m.Owned = append(m.Owned, tp)
			}
		}
		next = append(next, m)
	}
	_, joining := drawGroup(rng, len(members) > 6)
	for _, m := range joining[:rng.IntN(len(joining)+1)] {
		m.ID = "n" + m.ID
		if m.InstanceID != "" {
			m.InstanceID = "host-" + m.ID
		}
		if !equal || rng.IntN(4) == 0 {
			m.Topics = []string{"t0"}
		} else {
			m.Topics = slices.Clone(topics)
		}
		if !slices.ContainsFunc(next, func(o assign.Member) bool { return o.ID == m.ID }) {
			next = append(next, m)
		}
	}
	if len(next) == 0 {
		next = members[:1]
	}
	return next
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

// oracleCases is how many cases each assignor gets: PLOG_ORACLE_CASES,
// 300 unless it says.
func oracleCases(t *testing.T) int {
	n := 300
	if v := os.Getenv("PLOG_ORACLE_CASES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("PLOG_ORACLE_CASES=%q: want a number", v)
		}
	}
	return n
}

func TestAssignorsAgainstKafkaClients(t *testing.T) {
	n := oracleCases(t)
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
			partitions, members := drawGroup(rng, rng.IntN(5) == 0)
			// Earlier generations: Java assigns the group, then members
			// come and go, keeping what they owned.
			for generation := 1; generation <= rng.IntN(4); generation++ {
				prev, err := oracle.Assign(toJava(strategy, partitions, members))
				if err != nil {
					t.Fatal(err)
				}
				members = nextGeneration(rng, partitions, members, fromJava(prev), generation)
			}
			java, err := oracle.Assign(toJava(strategy, partitions, members))
			if err != nil {
				t.Fatalf("case %d: %v\npartitions %v members %+v", i, err, partitions, members)
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
		line := fmt.Sprintf("%s: %d of %d cases differ from kafka-clients %s", strategy, mismatches, n, kafkabroker.Version)
		t.Log(line)
		results.addOracle(line)
		if mismatches > 0 {
			t.Errorf("%s: %d of %d cases differ from Kafka's (in %d of them plog's is as balanced and as sticky); the first: %s",
				strategy, mismatches, n, ties, first)
		}
	}
}
