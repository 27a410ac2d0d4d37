package assign

import (
	"encoding/base64"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// kafkaTopicID parses a topic id as Kafka writes it (Uuid.fromString).
func kafkaTopicID(t *testing.T, s string) TopicID {
	t.Helper()
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(b) != 16 {
		t.Fatalf("bad topic id %q: %v", s, err)
	}
	return TopicID(b)
}

func formatTargets(a Assignment) map[string]string {
	out := map[string]string{}
	for id, tps := range a {
		var s []string
		for _, tp := range tps {
			s = append(s, tp.String())
		}
		out[id] = strings.Join(s, " ")
	}
	return out
}

// checkTargetComplete checks that every partition someone subscribes to
// has exactly one owner, a subscriber, and that every member is present.
func checkTargetComplete(t *testing.T, members []TargetMember, partitions map[string]int, a Assignment) {
	t.Helper()
	if len(a) != len(members) {
		t.Errorf("%d members in the assignment, want %d", len(a), len(members))
	}
	owner := map[TopicPartition]string{}
	wanted := map[string]bool{}
	for _, m := range members {
		got, ok := a[m.ID]
		if !ok {
			t.Errorf("member %s missing", m.ID)
		}
		if !slices.IsSortedFunc(got, ComparePartitions) {
			t.Errorf("%s: %v not sorted", m.ID, got)
		}
		for _, topic := range m.Topics {
			wanted[topic] = true
		}
		for _, tp := range got {
			if !slices.Contains(m.Topics, tp.Topic) {
				t.Errorf("%s got %v outside its subscription %v", m.ID, tp, m.Topics)
			}
			if o, ok := owner[tp]; ok {
				t.Errorf("%v given to %s and %s", tp, o, m.ID)
			}
			owner[tp] = m.ID
		}
	}
	for topic := range wanted {
		for p := range partitions[topic] {
			if _, ok := owner[TopicPartition{topic, p}]; !ok {
				t.Errorf("%s/%d unassigned", topic, p)
			}
		}
	}
}

func TestCheckServerAssignor(t *testing.T) {
	for _, name := range ServerAssignors() {
		if err := CheckServerAssignor(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	err := CheckServerAssignor("sticky")
	if err == nil || err.Error() != "ServerAssignor sticky is not supported. Supported assignors: uniform, range." {
		t.Errorf("CheckServerAssignor(sticky) = %v", err)
	}
	if _, err := AssignTarget("sticky", nil, nil); err == nil {
		t.Error("AssignTarget accepted an unknown assignor")
	}
}

func TestTopicIDs(t *testing.T) {
	id := kafkaTopicID(t, "T1-A4s3VTwiI5CTbEp6POw")
	if id.String() != "T1-A4s3VTwiI5CTbEp6POw" {
		t.Errorf("String() = %s", id)
	}
	a, b := DefaultTopicID("orders"), DefaultTopicID("orders")
	if a != b || a == DefaultTopicID("payments") {
		t.Error("DefaultTopicID is not a function of the name alone")
	}
	if a[6]>>4 != 4 || a[8]>>6 != 2 || strings.HasPrefix(a.String(), "-") {
		t.Errorf("DefaultTopicID(orders) = %s is not a version-4 UUID Kafka would draw", a)
	}
}

// randomTargetGroup draws a group with current targets: some members keep
// what an earlier assignment gave them, some are new.
func randomTargetGroup(rng *rand.Rand, equal bool) ([]TargetMember, map[string]int) {
	partitions := map[string]int{}
	var topics []string
	for i := range 1 + rng.IntN(4) {
		topics = append(topics, fmt.Sprintf("t%d", i))
		partitions[topics[i]] = 1 + rng.IntN(30)
	}
	members := make([]TargetMember, 1+rng.IntN(12))
	for i := range members {
		members[i].ID = fmt.Sprintf("m%d", i)
		if rng.IntN(4) == 0 {
			members[i].InstanceID = fmt.Sprintf("host%d", rng.IntN(100)+i*100)
		}
		if equal {
			members[i].Topics = slices.Clone(topics)
		} else {
			for _, topic := range topics {
				if rng.IntN(2) == 0 {
					members[i].Topics = append(members[i].Topics, topic)
				}
			}
		}
	}
	// Earlier targets: each partition to a random member, or to nobody.
	for topic, n := range partitions {
		for p := range n {
			if rng.IntN(3) > 0 {
				m := &members[rng.IntN(len(members))]
				m.Target = append(m.Target, TopicPartition{topic, p})
			}
		}
	}
	return members, partitions
}

// Every subscribed partition assigned exactly once, to a subscriber; in a
// homogeneous group no member more than one partition ahead of another
// under uniform (range balances each topic on its own);
// and a group whose target is the assignor's own answer keeps it.
func TestAssignTargetProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 848))
	for i := range 400 {
		equal := i%2 == 0
		members, partitions := randomTargetGroup(rng, equal)
		for _, assignor := range ServerAssignors() {
			a, err := AssignTarget(assignor, members, partitions)
			if err != nil {
				t.Fatalf("case %d %s: %v", i, assignor, err)
			}
			checkTargetComplete(t, members, partitions, a)
			if equal && assignor == Uniform {
				most, fewest := 0, 1<<30
				for _, tps := range a {
					most, fewest = max(most, len(tps)), min(fewest, len(tps))
				}
				if most-fewest > 1 {
					t.Errorf("case %d %s: homogeneous group unbalanced: %v", i, assignor, formatTargets(a))
				}
			}
			again := slices.Clone(members)
			for j := range again {
				again[j].Target = a[again[j].ID]
			}
			b, err := AssignTarget(assignor, again, partitions)
			if err != nil {
				t.Fatal(err)
			}
			if !sameTargets(a, b) {
				t.Errorf("case %d %s: nothing changed but the target moved:\n%v\n%v", i, assignor, formatTargets(a), formatTargets(b))
			}
			// In record order: the same partitions, and given back as
			// the targets, the same answer again.
			r, err := AssignTargetInRecordOrder(assignor, members, partitions, nil)
			if err != nil {
				t.Fatal(err)
			}
			for j := range again {
				again[j].Target = r[again[j].ID]
			}
			d, _ := AssignTargetInRecordOrder(assignor, again, partitions, nil)
			sortTargets(r)
			sortTargets(d)
			if !sameTargets(a, r) || !sameTargets(a, d) {
				t.Errorf("case %d %s: the record order holds other partitions, or moves them", i, assignor)
			}
			// The same group twice, the same answer.
			if c, _ := AssignTarget(assignor, slices.Clone(members), partitions); !sameTargets(a, c) {
				t.Errorf("case %d %s: the same group gave another answer", i, assignor)
			}
		}
	}
}

func sameTargets(a, b Assignment) bool {
	return maps.EqualFunc(a, b, slices.Equal)
}

func TestAssignTargetRejectsBadInput(t *testing.T) {
	for name, c := range map[string]struct {
		members    []TargetMember
		partitions map[string]int
		ids        map[string]TopicID
		want       string
	}{
		"empty id":       {[]TargetMember{{Topics: []string{"t"}}}, map[string]int{"t": 1}, nil, "member 0 has an empty id"},
		"twice":          {[]TargetMember{{ID: "a"}, {ID: "a"}}, map[string]int{"t": 1}, nil, `member "a" appears twice`},
		"negative count": {[]TargetMember{{ID: "a"}}, map[string]int{"t": -1}, nil, `topic "t" has a negative partition count -1`},
		"too many":       {[]TargetMember{{ID: "a"}}, map[string]int{"t": maxAssignPartitions + 1}, nil, "more than 1000000 partitions to assign"},
		"one id, two topics": {[]TargetMember{{ID: "a"}}, map[string]int{"s": 1, "t": 1}, map[string]TopicID{"s": {1}, "t": {1}},
			`topics "s" and "t" have the same id AQAAAAAAAAAAAAAAAAAAAA`},
	} {
		for _, assignor := range ServerAssignors() {
			_, err := AssignTargetWithTopicIDs(assignor, c.members, c.partitions, c.ids)
			if err == nil || err.Error() != c.want {
				t.Errorf("%s %s: %v, want %s", name, assignor, err, c.want)
			}
		}
	}
}

// Targets that Kafka's coordinator would never hold (partitions that do
// not exist, one partition in two targets, topics nobody subscribes to, a
// subscription naming a topic twice or one that does not exist) neither
// fail nor break the assignment: each partition still goes to one
// subscriber.
func TestAssignTargetToleratesOddTargets(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 22))
	for i := range 300 {
		members, partitions := randomTargetGroup(rng, i%2 == 0)
		partitions["empty"] = 0
		for j := range members {
			m := &members[j]
			for range rng.IntN(4) {
				switch rng.IntN(5) {
				case 0:
					m.Target = append(m.Target, TopicPartition{"t0", -1 - rng.IntN(3)})
				case 1:
					m.Target = append(m.Target, TopicPartition{"t0", partitions["t0"] + rng.IntN(3)})
				case 2:
					m.Target = append(m.Target, TopicPartition{"gone", rng.IntN(3)}, TopicPartition{"empty", 0})
				case 3:
					o := members[rng.IntN(len(members))]
					if len(o.Target) > 0 {
						m.Target = append(m.Target, o.Target[rng.IntN(len(o.Target))])
					}
				case 4:
					m.Topics = append(m.Topics, "gone", "empty")
					if len(m.Topics) > 2 {
						m.Topics = append(m.Topics, m.Topics[0])
					}
				}
			}
		}
		for _, assignor := range ServerAssignors() {
			a, err := AssignTarget(assignor, members, partitions)
			if err != nil {
				t.Fatalf("case %d %s: %v", i, assignor, err)
			}
			checkTargetComplete(t, members, partitions, a)
		}
	}
}

// Java's tables as OpenJDK 17 iterated them, with kafka-clients 4.4.0's
// Uuid: new HashMap<>(0) given t1 then t2 by put iterates [t2 t1]; given
// a then a then b by computeIfAbsent it iterates [b a] (b at the head of
// the bucket they share in two buckets), and one more computeIfAbsent of
// b, a key it holds, grows it to four buckets first: [a b].
func TestJavaTableOrders(t *testing.T) {
	ids := map[string]TopicID{
		"t1": kafkaTopicID(t, "0Awxxl7N0n8wBPoYraLc_A"), "t2": kafkaTopicID(t, "mNznPpthikM_Sy7ylb_2Cw"),
		"a": kafkaTopicID(t, "QN9IttJ0O2YgTe6_z4bS3w"), "b": kafkaTopicID(t, "DmUv6l_XRLdre1fNrkgPgw"),
	}
	hash := func(k string) uint32 { return javaSpread(ids[k].javaHash()) }
	put := newJavaTableFor[string](0)
	put.put("t1", hash("t1"))
	put.put("t2", hash("t2"))
	if got := put.keys(); !slices.Equal(got, []string{"t2", "t1"}) {
		t.Errorf("put: %v, want [t2 t1]", got)
	}
	computed := newJavaTableFor[string](0)
	for _, k := range []string{"a", "a", "b"} {
		computed.computeIfAbsent(k, hash(k))
	}
	if got := computed.keys(); !slices.Equal(got, []string{"b", "a"}) {
		t.Errorf("computeIfAbsent: %v, want [b a]", got)
	}
	computed.computeIfAbsent("b", hash("b"))
	if got := computed.keys(); !slices.Equal(got, []string{"a", "b"}) || computed.capacity != 4 {
		t.Errorf("computeIfAbsent of a key it holds: %v in %d buckets, want [a b] in 4", got, computed.capacity)
	}
}
