package conformance

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"plog/core/assign"
	"plog/internal/assigncases"
	"plog/internal/kafkabroker"
)

// The consumer protocol's server-side assignors against the group
// coordinator's own: random groups given to plog's assign.AssignTarget
// and to kafka-group-coordinator 4.4.0's UniformAssignor and RangeAssignor
// (kafkabroker.ServerOracle), round after round: Java's answer becomes the
// members' current target, then members leave, join, change what they
// subscribe to. Member ids are UUIDs as Kafka's consumer makes them (or
// short names), topic ids random, so that Java's hash orders are the ones
// a cluster sees. Every case must agree exactly, down to the order of
// each member's target-assignment record (assign.AssignTargetInRecordOrder). PLOG_ORACLE_CASES sets
// how many cases each assignor gets (default 300).

// drawServerGroup draws topics with ids and partition counts (up to 40,
// so that a member's HashSet of partitions wraps its table) and members.
func drawServerGroup(rng *rand.Rand) (map[string]int, map[string]assign.TopicID, []assign.TargetMember) {
	partitions, ids := map[string]int{}, map[string]assign.TopicID{}
	var topics []string
	for i := range 1 + rng.IntN(4) {
		t := "t" + strconv.Itoa(i)
		topics = append(topics, t)
		partitions[t] = 1 + rng.IntN(40)
		var id assign.TopicID
		for j := range id {
			id[j] = byte(rng.IntN(256))
		}
		ids[t] = id
	}
	equal := rng.IntN(2) == 0
	// Up to 40 members now and then: the HashMap of member ids grows
	// past 16 and 32 buckets.
	maxMembers := 12
	if rng.IntN(4) == 0 {
		maxMembers = 40
	}
	var members []assign.TargetMember
	for range 1 + rng.IntN(maxMembers) {
		members = joinNew(members, drawServerMember(rng, topics, equal))
	}
	return partitions, ids, members
}

func drawServerMember(rng *rand.Rand, topics []string, equal bool) assign.TargetMember {
	var m assign.TargetMember
	if rng.IntN(3) == 0 {
		m.ID = "m" + strconv.Itoa(rng.IntN(1000))
	} else {
		var b [16]byte
		for j := range b {
			b[j] = byte(rng.IntN(256))
		}
		m.ID = base64.RawURLEncoding.EncodeToString(b[:])
	}
	if rng.IntN(4) == 0 {
		m.InstanceID = "host-" + strconv.Itoa(rng.IntN(1000))
	}
	m.Topics = drawTopics(rng, topics, equal)
	return m
}

func toJavaServer(assignor string, partitions map[string]int, ids map[string]assign.TopicID, members []assign.TargetMember) kafkabroker.ServerAssignCase {
	c := kafkabroker.ServerAssignCase{Assignor: assignor, Topics: map[string]kafkabroker.ServerAssignTopic{}}
	for t, n := range partitions {
		c.Topics[t] = kafkabroker.ServerAssignTopic{ID: ids[t].String(), Partitions: n}
	}
	for _, m := range members {
		jm := kafkabroker.ServerAssignMember{ID: m.ID, Instance: m.InstanceID, Topics: m.Topics}
		for _, tp := range m.Target {
			jm.Target = append(jm.Target, [2]any{tp.Topic, tp.Partition})
		}
		c.Members = append(c.Members, jm)
	}
	return c
}

// nextServerRound is the group after a round whose target was target:
// each member's target is what it got, in its record's order or sorted;
// some leave, some change their subscription, some join with nothing.
func nextServerRound(rng *rand.Rand, partitions map[string]int, members []assign.TargetMember, target assign.Assignment) []assign.TargetMember {
	topics := slices.Sorted(func(yield func(string) bool) {
		for t := range partitions {
			if !yield(t) {
				return
			}
		}
	})
	equal := !slices.ContainsFunc(members, func(m assign.TargetMember) bool { return !slices.Equal(m.Topics, members[0].Topics) })
	var next []assign.TargetMember
	for _, m := range members {
		if rng.IntN(5) == 0 && len(members) > 1 {
			continue
		}
		m.Target = slices.Clone(target[m.ID])
		if rng.IntN(3) == 0 {
			// A target given sorted, not in its record's order.
			slices.SortFunc(m.Target, assign.ComparePartitions)
		}
		if rng.IntN(8) == 0 {
			m.Topics = drawTopics(rng, topics, false)
		}
		next = append(next, m)
	}
	for range rng.IntN(3) {
		m := drawServerMember(rng, topics, equal)
		if equal && len(next) > 0 {
			m.Topics = slices.Clone(next[0].Topics)
		}
		next = joinNew(next, m)
	}
	return next
}

// joinNew adds m unless its member id or group.instance.id is taken.
func joinNew(members []assign.TargetMember, m assign.TargetMember) []assign.TargetMember {
	if slices.ContainsFunc(members, func(o assign.TargetMember) bool {
		return o.ID == m.ID || (m.InstanceID != "" && o.InstanceID == m.InstanceID)
	}) {
		return members
	}
	return append(members, m)
}

func TestServerAssignorsAgainstKafkaGroupCoordinator(t *testing.T) {
	n := oracleCases(t)
	oracle, err := kafkabroker.StartServerOracle()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { oracle.Close() })
	for _, assignor := range assign.ServerAssignors() {
		rng := rand.New(rand.NewPCG(uint64(len(assignor)), 848))
		mismatches := 0
		var first string
		for i := range n {
			partitions, ids, members := drawServerGroup(rng)
			for round := range 1 + rng.IntN(4) {
				java, err := oracle.Assign(toJavaServer(assignor, partitions, ids, members))
				if err != nil {
					t.Fatalf("case %d round %d: %v\npartitions %v members %+v", i, round, err, partitions, members)
				}
				want := fromJava(java)
				got, err := assign.AssignTargetInRecordOrder(assignor, members, partitions, ids)
				if err != nil {
					t.Fatalf("case %d round %d: assign.AssignTarget: %v", i, round, err)
				}
				if !sameAssignment(got, want) {
					mismatches++
					if first == "" {
						first = fmt.Sprintf("case %d round %d: partitions %v ids %v, members %+v\n  java %v\n  plog %v", i, round, partitions, ids, members, want, got)
					}
					break
				}
				members = nextServerRound(rng, partitions, members, want)
			}
		}
		line := fmt.Sprintf("server-side %s: %d of %d cases differ from kafka-group-coordinator %s", assignor, mismatches, n, kafkabroker.Version)
		t.Log(line)
		results.addOracle(line)
		if mismatches > 0 {
			t.Errorf("%s: %d of %d cases differ from Kafka's; the first: %s", assignor, mismatches, n, first)
		}
	}
}

// The expected assignments of Kafka's own assignor tests, as plog keeps
// them (internal/assigncases/kafka_server_cases.txt), are what
// kafka-group-coordinator 4.4.0's classes give.
func TestKafkaServerCasesAgainstKafka(t *testing.T) {
	cases, ids, err := assigncases.Kafka()
	if err != nil {
		t.Fatal(err)
	}
	oracle, err := kafkabroker.StartServerOracle()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { oracle.Close() })
	for _, c := range cases {
		jc := kafkabroker.ServerAssignCase{Assignor: c.Assignor, Topics: map[string]kafkabroker.ServerAssignTopic{}, Heterogeneous: c.Heterogeneous}
		for topic, n := range c.Partitions {
			jc.Topics[topic] = kafkabroker.ServerAssignTopic{ID: ids[topic], Partitions: n}
		}
		for _, m := range c.Members {
			jm := kafkabroker.ServerAssignMember{ID: m.ID, Instance: m.Instance, Topics: m.Topics}
			for _, p := range m.Target {
				jm.Target = append(jm.Target, [2]any{p.Topic, p.Partition})
			}
			jc.Members = append(jc.Members, jm)
		}
		java, err := oracle.Assign(jc)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		for id, tps := range fromJava(java) {
			slices.SortFunc(tps, assign.ComparePartitions)
			var got []string
			for _, tp := range tps {
				got = append(got, tp.String())
			}
			if !slices.Equal(got, c.Want[id]) {
				t.Errorf("%s: Kafka gives %s %q, the case wants %q", c.Name, id, got, c.Want[id])
			}
		}
	}
}
