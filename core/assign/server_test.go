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

// serverCase is one case of Kafka's own assignor tests: members as
// "id:topic,topic:topic/p,topic/p" (instance id as "id@instance").
type serverCase struct {
	name       string
	assignor   string
	partitions map[string]int
	members    []string
	want       map[string]string // member → "topic/p topic/p"
}

func parseTargetMembers(t *testing.T, lines []string) []TargetMember {
	t.Helper()
	var out []TargetMember
	for _, line := range lines {
		parts := strings.Split(line, ":")
		if len(parts) < 2 {
			t.Fatalf("bad member %q", line)
		}
		m := TargetMember{}
		m.ID, m.InstanceID, _ = strings.Cut(parts[0], "@")
		if parts[1] != "" {
			m.Topics = strings.Split(parts[1], ",")
		}
		if len(parts) > 2 && parts[2] != "" {
			for _, s := range strings.Split(parts[2], ",") {
				var tp TopicPartition
				topic, p, _ := strings.Cut(s, "/")
				if _, err := fmt.Sscan(p, &tp.Partition); err != nil {
					t.Fatalf("bad partition %q", s)
				}
				tp.Topic = topic
				m.Target = append(m.Target, tp)
			}
		}
		out = append(out, m)
	}
	return out
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

// The topic ids of Kafka's assignor tests (UniformHomogeneousAssignmentBuilderTest,
// UniformHeterogeneousAssignmentBuilderTest, RangeAssignorTest).
func kafkaTestTopicIDs(t *testing.T) map[string]TopicID {
	return map[string]TopicID{
		"topic1": kafkaTopicID(t, "T1-A4s3VTwiI5CTbEp6POw"),
		"topic2": kafkaTopicID(t, "T2-B4s3VTwiI5YHbPp6YUe"),
		"topic3": kafkaTopicID(t, "T3-CU8fVTLCz5YMkLoDQsa"),
	}
}

func runServerCases(t *testing.T, cases []serverCase) {
	t.Helper()
	ids := kafkaTestTopicIDs(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			members := parseTargetMembers(t, c.members)
			a, err := AssignTargetWithTopicIDs(c.assignor, members, c.partitions, ids)
			if err != nil {
				t.Fatal(err)
			}
			got := formatTargets(a)
			for _, m := range members {
				if got[m.ID] != c.want[m.ID] {
					t.Errorf("%s: got %q, want %q", m.ID, got[m.ID], c.want[m.ID])
				}
			}
			checkTargetComplete(t, members, c.partitions, a)
		})
	}
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
	id := kafkaTestTopicIDs(t)["topic1"]
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
			// The same members in another order give the same answer.
			shuffled := slices.Clone(members)
			rng.Shuffle(len(shuffled), func(x, y int) { shuffled[x], shuffled[y] = shuffled[y], shuffled[x] })
			c, _ := AssignTarget(assignor, shuffled, partitions)
			if !sameTargets(a, c) {
				t.Errorf("case %d %s: the order of members changed the answer", i, assignor)
			}
		}
	}
}

func sameTargets(a, b Assignment) bool {
	return maps.EqualFunc(a, b, slices.Equal)
}
