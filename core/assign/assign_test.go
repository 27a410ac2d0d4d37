package assign

import (
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// formatAssignment writes an assignment as `C0{t0:[0 1] t1:[0 1]} C1{...}`,
// members in the order given, so expected values read like Kafka's docs.
func formatAssignment(a Assignment, order ...string) string {
	var parts []string
	for _, id := range order {
		var b strings.Builder
		b.WriteString(id + "{")
		var topic string
		for i, tp := range a[id] {
			switch {
			case i == 0:
				fmt.Fprintf(&b, "%s:[%d", tp.Topic, tp.Partition)
			case tp.Topic != topic:
				fmt.Fprintf(&b, "] %s:[%d", tp.Topic, tp.Partition)
			default:
				fmt.Fprintf(&b, " %d", tp.Partition)
			}
			topic = tp.Topic
		}
		if len(a[id]) > 0 {
			b.WriteString("]")
		}
		b.WriteString("}")
		parts = append(parts, b.String())
	}
	return strings.Join(parts, " ")
}

func mustAssign(t *testing.T, strategy string, members []Member, partitions map[string]int) Assignment {
	t.Helper()
	a, err := Assign(strategy, members, partitions)
	if err != nil {
		t.Fatalf("Assign(%s): %v", strategy, err)
	}
	return a
}

func subscribe(topics string, ids ...string) []Member {
	var ms []Member
	for _, id := range ids {
		ms = append(ms, Member{ID: id, Topics: strings.Split(topics, ",")})
	}
	return ms
}

// The seed's case: 5 partitions over 2 consumers.
func checkSeedAssignment(t *testing.T, assign func(int, []string) (map[string][]int, error), want map[string][]int) {
	t.Helper()
	got, err := assign(5, []string{"c1", "c2"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("5 partitions over c1, c2: got %v, want %v", got, want)
	}
}

func TestRangeAssignment(t *testing.T) {
	checkSeedAssignment(t, AssignRange, map[string][]int{"c1": {0, 1, 2}, "c2": {3, 4}})
}

func TestRoundRobinAssignment(t *testing.T) {
	checkSeedAssignment(t, AssignRoundRobin, map[string][]int{"c1": {0, 2, 4}, "c2": {1, 3}})
}

// The examples in the javadoc of Kafka's RangeAssignor and RoundRobinAssignor.
func TestJavaDocumentedExamples(t *testing.T) {
	twoTopics := map[string]int{"t0": 3, "t1": 3}
	members := subscribe("t0,t1", "C0", "C1")
	if got, want := formatAssignment(mustAssign(t, Range, members, twoTopics), "C0", "C1"),
		"C0{t0:[0 1] t1:[0 1]} C1{t0:[2] t1:[2]}"; got != want {
		t.Errorf("range: got %s, want %s", got, want)
	}
	if got, want := formatAssignment(mustAssign(t, RoundRobin, members, twoTopics), "C0", "C1"),
		"C0{t0:[0 2] t1:[1]} C1{t0:[1] t1:[0 2]}"; got != want {
		t.Errorf("roundrobin: got %s, want %s", got, want)
	}

	unequal := []Member{
		{ID: "C0", Topics: []string{"t0"}},
		{ID: "C1", Topics: []string{"t0", "t1"}},
		{ID: "C2", Topics: []string{"t0", "t1", "t2"}},
	}
	got := formatAssignment(mustAssign(t, RoundRobin, unequal, map[string]int{"t0": 1, "t1": 2, "t2": 3}), "C0", "C1", "C2")
	if want := "C0{t0:[0]} C1{t1:[0]} C2{t1:[1] t2:[0 1 2]}"; got != want {
		t.Errorf("roundrobin with unequal subscriptions: got %s, want %s", got, want)
	}
}

// Members sort by string, as Kafka's do: c10 comes before c2. Static members
// (with a group.instance.id) come before dynamic ones, by instance id.
func TestMemberOrder(t *testing.T) {
	got := formatAssignment(mustAssign(t, Range, subscribe("t", "c2", "c10"), map[string]int{"t": 3}), "c10", "c2")
	if want := "c10{t:[0 1]} c2{t:[2]}"; got != want {
		t.Errorf("c10 should sort before c2: got %s, want %s", got, want)
	}
	members := []Member{
		{ID: "a", Topics: []string{"t"}},
		{ID: "z", InstanceID: "host-2", Topics: []string{"t"}},
		{ID: "y", InstanceID: "host-1", Topics: []string{"t"}},
	}
	got = formatAssignment(mustAssign(t, Range, members, map[string]int{"t": 3}), "y", "z", "a")
	if want := "y{t:[0]} z{t:[1]} a{t:[2]}"; got != want {
		t.Errorf("static members first, by instance id: got %s, want %s", got, want)
	}
}

// More members than partitions: the extras are in the assignment, idle.
func TestIdleMembers(t *testing.T) {
	for _, strategy := range Strategies() {
		a := mustAssign(t, strategy, subscribe("t", "c1", "c2", "c3", "c4"), map[string]int{"t": 2})
		idle := 0
		for _, id := range []string{"c1", "c2", "c3", "c4"} {
			tps, ok := a[id]
			if !ok {
				t.Errorf("%s: member %s missing from the assignment", strategy, id)
			}
			if len(tps) == 0 {
				idle++
			}
		}
		if idle != 2 {
			t.Errorf("%s: %d idle members, want 2: %v", strategy, idle, a)
		}
	}
}

func TestAssignRejectsBadInput(t *testing.T) {
	cases := []struct {
		name     string
		strategy string
		members  []Member
		counts   map[string]int
		want     string
	}{
		{"unknown strategy", "fair", subscribe("t", "c1"), map[string]int{"t": 1}, `unknown assignment strategy "fair"`},
		{"duplicate member", Range, subscribe("t", "c1", "c1"), map[string]int{"t": 1}, `member "c1" appears twice`},
		{"empty id", Range, subscribe("t", ""), map[string]int{"t": 1}, "empty id"},
		{"negative count", Range, subscribe("t", "c1"), map[string]int{"t": -1}, "negative partition count"},
		{"duplicate instance", Range, []Member{{ID: "a", InstanceID: "i"}, {ID: "b", InstanceID: "i"}}, nil, `group.instance.id "i"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Assign(c.strategy, c.members, c.counts)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	for _, strategy := range Strategies() {
		if a, err := Assign(strategy, nil, map[string]int{"t": 3}); err != nil || len(a) != 0 {
			t.Errorf("%s with no members: %v, %v", strategy, a, err)
		}
	}
	if _, err := AssignRange(-3, []string{"c1"}); err == nil {
		t.Error("AssignRange(-3) should fail")
	}
}

// The example of franz-go's StickyBalancer doc: M2 leaves a group where each
// member owned a whole topic. Sticky keeps M0 and M1's topics and splits t2.
func TestStickyKeepsPartitionsWhenAMemberLeaves(t *testing.T) {
	counts := map[string]int{"t0": 3, "t1": 3, "t2": 3}
	owned := func(topic string) []TopicPartition {
		return []TopicPartition{{topic, 0}, {topic, 1}, {topic, 2}}
	}
	members := []Member{
		{ID: "M0", Topics: []string{"t0", "t1", "t2"}, Owned: owned("t0"), Generation: 1},
		{ID: "M1", Topics: []string{"t0", "t1", "t2"}, Owned: owned("t1"), Generation: 1},
	}
	a := mustAssign(t, Sticky, members, counts)
	if n0, n1 := len(a["M0"]), len(a["M1"]); n0+n1 != 9 || n0-n1 > 1 || n1-n0 > 1 {
		t.Fatalf("not balanced: %v", a)
	}
	before := Assignment{"M0": owned("t0"), "M1": owned("t1"), "M2": owned("t2")}
	if moved := MovedPartitions(before, a); moved != 3 {
		t.Errorf("moved %d partitions, want only M2's 3: %v", moved, a)
	}
	if r := mustAssign(t, Range, members, counts); MovedPartitions(before, r) <= 3 {
		t.Errorf("range should move more than sticky here: %v", r)
	}
}

// Cooperative-sticky: the first round revokes what moves and assigns it to
// nobody; the second round, run with the revocations done, assigns it.
func TestCooperativeStickyTwoRounds(t *testing.T) {
	counts := map[string]int{"t": 6}
	all := func(ids ...int) []TopicPartition {
		var tps []TopicPartition
		for _, p := range ids {
			tps = append(tps, TopicPartition{"t", p})
		}
		return tps
	}
	members := []Member{
		{ID: "c1", Topics: []string{"t"}, Owned: all(0, 1, 2, 3, 4, 5), Generation: 1},
		{ID: "c2", Topics: []string{"t"}},
	}
	round1 := mustAssign(t, CooperativeSticky, members, counts)
	if len(round1["c1"]) != 3 || len(round1["c2"]) != 0 {
		t.Fatalf("round 1 should revoke 3 from c1 and give c2 nothing yet: %v", round1)
	}
	members[0].Owned, members[0].Generation = round1["c1"], 2
	round2 := mustAssign(t, CooperativeSticky, members, counts)
	if !reflect.DeepEqual(round2["c1"], round1["c1"]) || len(round2["c2"]) != 3 {
		t.Fatalf("round 2 should give c2 the 3 revoked partitions and leave c1 alone: %v", round2)
	}
}

// randomGroup makes a group of up to 8 members over up to 4 topics, with
// random subscriptions, static ids and previous ownership.
func randomGroup(rng *rand.Rand) ([]Member, map[string]int) {
	counts := map[string]int{}
	var topics []string
	for i := range 1 + rng.Intn(4) {
		name := fmt.Sprintf("t%d", i)
		topics = append(topics, name)
		counts[name] = 1 + rng.Intn(8)
	}
	var members []Member
	for i := range 1 + rng.Intn(8) {
		m := Member{ID: fmt.Sprintf("c%d", rng.Intn(20)*10+i), Generation: 1}
		if rng.Intn(4) == 0 {
			m.InstanceID = fmt.Sprintf("host-%d", i)
		}
		for _, topic := range topics {
			if rng.Intn(2) == 0 {
				m.Topics = append(m.Topics, topic)
			}
		}
		if len(m.Topics) == 0 {
			m.Topics = []string{topics[rng.Intn(len(topics))]}
		}
		members = append(members, m)
	}
	// Hand each partition to at most one previous owner.
	for _, topic := range topics {
		for p := range counts[topic] {
			if i := rng.Intn(len(members) + 1); i < len(members) {
				members[i].Owned = append(members[i].Owned, TopicPartition{topic, p})
			}
		}
	}
	return members, counts
}

// checkComplete checks that every subscribed partition has exactly one owner
// that subscribes to its topic, and nothing else is assigned.
func checkComplete(t *testing.T, members []Member, counts map[string]int, a Assignment) {
	t.Helper()
	seen := map[TopicPartition]string{}
	for _, m := range members {
		for _, tp := range a[m.ID] {
			if !slices.Contains(m.Topics, tp.Topic) {
				t.Fatalf("%s got %s without subscribing to it", m.ID, tp)
			}
			if other, dup := seen[tp]; dup {
				t.Fatalf("%s assigned to both %s and %s", tp, other, m.ID)
			}
			seen[tp] = m.ID
		}
	}
	for topic, n := range counts {
		subscribed := slices.ContainsFunc(members, func(m Member) bool { return slices.Contains(m.Topics, topic) })
		for p := range n {
			if _, ok := seen[TopicPartition{topic, p}]; subscribed && !ok {
				t.Fatalf("%s/%d is subscribed but unassigned: %v", topic, p, a)
			}
		}
	}
}

func TestAssignorsCoverEveryPartitionOnce(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for range 2000 {
		members, counts := randomGroup(rng)
		for _, strategy := range []string{Range, RoundRobin, Sticky} {
			checkComplete(t, members, counts, mustAssign(t, strategy, members, counts))
		}
	}
}

// With equal subscriptions, sticky counts differ by at most one and every
// member keeps min(owned, its share) of what it had.
func TestStickyBalancedAndStickyWithEqualSubscriptions(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for range 2000 {
		members, counts := randomGroup(rng)
		var topics []string
		for topic := range counts {
			topics = append(topics, topic)
		}
		slices.Sort(topics)
		for i := range members {
			members[i].Topics = topics
		}
		a := mustAssign(t, Sticky, members, counts)
		checkComplete(t, members, counts, a)
		total := 0
		for _, n := range counts {
			total += n
		}
		lo, hi := total/len(members), (total+len(members)-1)/len(members)
		// The best any assignment can keep: each member keeps up to lo, and
		// total%len(members) of them up to hi, best given to those that own most.
		var extra []int
		best := 0
		for _, m := range members {
			n := len(a[m.ID])
			if n < lo || n > hi {
				t.Fatalf("member %s has %d partitions, want %d..%d: %v", m.ID, n, lo, hi, a)
			}
			best += min(len(m.Owned), lo)
			if len(m.Owned) > lo {
				extra = append(extra, 1)
			}
		}
		best += min(len(extra), total%len(members))
		if kept := total - MovedPartitions(ownedAssignment(members), a) - unowned(members, counts); kept != best {
			t.Fatalf("kept %d partitions, the best is %d: members %+v, got %v", kept, best, members, a)
		}
	}
}

func ownedAssignment(members []Member) Assignment {
	a := Assignment{}
	for _, m := range members {
		a[m.ID] = m.Owned
	}
	return a
}

func unowned(members []Member, counts map[string]int) int {
	n := 0
	for _, c := range counts {
		n += c
	}
	for _, m := range members {
		n -= len(m.Owned)
	}
	return n
}

// A fresh sticky group is dealt partitions one at a time, as Java's sticky
// assignor deals unassigned partitions.
func TestStickyFreshGroupDeals(t *testing.T) {
	a := mustAssign(t, Sticky, subscribe("t", "c1", "c2"), map[string]int{"t": 5})
	if got, want := formatAssignment(a, "c1", "c2"), "c1{t:[0 2 4]} c2{t:[1 3]}"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestMovedPartitions(t *testing.T) {
	before := Assignment{"a": {{"t", 0}, {"t", 1}}, "b": {{"t", 2}}}
	after := Assignment{"a": {{"t", 0}}, "b": {{"t", 2}, {"t", 3}}, "c": {}}
	if got := MovedPartitions(before, after); got != 1 {
		t.Errorf("moved %d, want 1 (t/1 left a for nobody; t/3 was new)", got)
	}
}
