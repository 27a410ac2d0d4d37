// Package assign holds Kafka's four partition assignors as pure functions:
// they read members and partition counts and return who owns what. They
// follow the Java client of Kafka 4.4 (kafka-clients 4.4.0, which the
// conformance suite runs them against): RangeAssignor, RoundRobinAssignor,
// StickyAssignor and CooperativeStickyAssignor, all of
// org.apache.kafka.clients.consumer.
//
// The package knows nothing of the engine: the consumer groups of core call
// it at the end of every rebalance, and to compare strategies. Like core it
// imports only the standard library, never panics and gives the same result
// for the same input, whatever the order of maps.
package assign

import (
	"fmt"
	"slices"
	"strings"
)

// TopicPartition names one partition of one topic.
type TopicPartition struct {
	Topic     string
	Partition int
}

// String writes the partition as `orders/3`, the form the scenario language
// and the page use.
func (tp TopicPartition) String() string {
	return fmt.Sprintf("%s/%d", tp.Topic, tp.Partition)
}

// ComparePartitions orders partitions by topic, then partition number.
func ComparePartitions(a, b TopicPartition) int {
	if c := strings.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	return a.Partition - b.Partition
}

// The assignment strategies, named as Kafka's partition.assignment.strategy
// protocols are.
const (
	Range             = "range"
	RoundRobin        = "roundrobin"
	Sticky            = "sticky"
	CooperativeSticky = "cooperative-sticky"
)

// Strategies lists the strategy names Assign accepts.
func Strategies() []string {
	return []string{Range, RoundRobin, Sticky, CooperativeSticky}
}

// CheckStrategy says what is wrong with a strategy name, nil for one of
// Strategies.
func CheckStrategy(name string) error {
	if slices.Contains(Strategies(), name) {
		return nil
	}
	return fmt.Errorf("unknown assignment strategy %q: use one of %s", name, strings.Join(Strategies(), ", "))
}

// IsCooperative reports whether a strategy rebalances cooperatively: members
// keep consuming the partitions that do not move.
func IsCooperative(strategy string) bool {
	return strategy == CooperativeSticky
}

// Member is one group member as an assignor sees it: what Kafka's
// consumers send in their JoinGroup metadata.
type Member struct {
	// ID is the member id, by which members sort and Assignment is keyed.
	ID string
	// InstanceID is the static member's group.instance.id, empty for a
	// dynamic member. Static members sort before dynamic ones.
	InstanceID string
	// Topics is the subscription.
	Topics []string
	// Owned is what the member held before this rebalance. The sticky
	// strategies keep it where they can; range and round-robin ignore it.
	Owned []TopicPartition
	// Generation is the generation in which the member got Owned. When two
	// members claim one partition, the higher generation wins (KIP-341):
	// the other claim is stale.
	Generation int
}

// Assignment maps each member id to its partitions, sorted by topic, then
// partition. Every member is present, an idle one with no partitions.
type Assignment map[string][]TopicPartition

// Owners inverts the assignment: partition → member.
func (a Assignment) Owners() map[TopicPartition]string {
	owners := make(map[TopicPartition]string)
	for member, tps := range a {
		for _, tp := range tps {
			owners[tp] = member
		}
	}
	return owners
}

// MovedPartitions counts the partitions that had an owner in before and have
// a different owner, or none, in after. A partition that had no owner before
// (new, or revoked by a cooperative round) is not counted as moving.
func MovedPartitions(before, after Assignment) int {
	owners := after.Owners()
	moved := 0
	for member, tps := range before {
		for _, tp := range tps {
			if owners[tp] != member {
				moved++
			}
		}
	}
	return moved
}

// memberLess is Kafka's order of members, used by every assignor
// (AbstractPartitionAssignor.MemberInfo.compareTo, kafka-clients 4.x):
// static members first, by group.instance.id, then dynamic members by member
// id, compared as strings (so c10 sorts before c2). A Member's ID is what
// the group gives: Kafka's member id, client.id-UUID, from rules 3, the
// member's name before (core/member_ids.go).
func memberLess(a, b Member) bool {
	if a.InstanceID != "" || b.InstanceID != "" {
		if a.InstanceID == "" || b.InstanceID == "" {
			return a.InstanceID != ""
		}
		if a.InstanceID != b.InstanceID {
			return a.InstanceID < b.InstanceID
		}
	}
	return a.ID < b.ID
}

// SortMembers puts members in Kafka's assignor order (see memberLess).
func SortMembers(members []Member) {
	slices.SortStableFunc(members, func(a, b Member) int {
		switch {
		case memberLess(a, b):
			return -1
		case memberLess(b, a):
			return 1
		}
		return 0
	})
}

// Bounds on what one assignment may cover, so that no input can make the
// engine run out of memory. They are far above what the page can show.
const (
	maxAssignMembers    = 10_000
	maxAssignPartitions = 1_000_000
)

// assignInput is a validated group: members in Kafka's order, and the
// partition counts of the topics someone subscribes to.
type assignInput struct {
	members []Member
	topics  []string       // sorted: subscribed topics that exist
	counts  map[string]int // topic → partitions
	subs    map[string][]int
}

func newAssignInput(members []Member, partitions map[string]int) (assignInput, error) {
	if len(members) > maxAssignMembers {
		return assignInput{}, fmt.Errorf("%d members is more than the %d an assignment can hold", len(members), maxAssignMembers)
	}
	names := make([]string, 0, len(partitions))
	total := 0
	for topic := range partitions {
		names = append(names, topic)
	}
	slices.Sort(names)
	for _, topic := range names {
		n := partitions[topic]
		if n < 0 {
			return assignInput{}, fmt.Errorf("topic %q has a negative partition count %d", topic, n)
		}
		total += n
		if total > maxAssignPartitions {
			return assignInput{}, fmt.Errorf("more than %d partitions to assign", maxAssignPartitions)
		}
	}
	ids := make(map[string]bool, len(members))
	instances := make(map[string]bool)
	sorted := make([]Member, len(members))
	for i, m := range members {
		if m.ID == "" {
			return assignInput{}, fmt.Errorf("member %d has an empty id", i)
		}
		if ids[m.ID] {
			return assignInput{}, fmt.Errorf("member %q appears twice", m.ID)
		}
		ids[m.ID] = true
		if m.InstanceID != "" {
			if instances[m.InstanceID] {
				return assignInput{}, fmt.Errorf("group.instance.id %q is used by two members", m.InstanceID)
			}
			instances[m.InstanceID] = true
		}
		sorted[i] = m
	}
	SortMembers(sorted)

	in := assignInput{members: sorted, counts: partitions, subs: make(map[string][]int)}
	for i, m := range sorted {
		for _, topic := range m.Topics {
			if partitions[topic] == 0 {
				continue // not a topic, or one with nothing to assign
			}
			if s := in.subs[topic]; len(s) > 0 && s[len(s)-1] == i {
				continue // the member listed the topic twice
			}
			in.subs[topic] = append(in.subs[topic], i)
		}
	}
	for topic := range in.subs {
		in.topics = append(in.topics, topic)
	}
	slices.Sort(in.topics)
	return in, nil
}

func (in assignInput) empty() Assignment {
	out := make(Assignment, len(in.members))
	for _, m := range in.members {
		out[m.ID] = []TopicPartition{}
	}
	return out
}

// StickyAlgorithm is how the sticky strategies choose partitions. Only
// KafkaSticky picks the very partitions Kafka's assignors pick; FlowSticky
// finds the most balanced assignment that moves the fewest partitions,
// which with unequal subscriptions is sometimes more balanced than Kafka's
// and often holds other partitions.
type StickyAlgorithm int

const (
	// KafkaSticky is Kafka's AbstractStickyAssignor of kafka-clients 4.4.0,
	// ported (sticky_kafka.go): the engine's rules 3 on.
	KafkaSticky StickyAlgorithm = iota
	// FlowSticky is the playground's first sticky planner, a minimum-cost
	// flow (sticky.go), kept for scenarios made under rules 1 and 2.
	FlowSticky
)

// Assign runs one of Kafka's four assignors, the sticky ones as Kafka's
// (KafkaSticky). partitions maps each topic to its partition count; topics
// nobody subscribes to are ignored, and a subscription to a topic that is
// not in partitions assigns nothing.
//
// For cooperative-sticky it returns the first of the two rounds: a partition
// that moves from one member to another is left unassigned, and the next
// rebalance (with Owned updated) assigns it.
func Assign(strategy string, members []Member, partitions map[string]int) (Assignment, error) {
	return AssignWith(KafkaSticky, strategy, members, partitions)
}

// AssignWith is Assign with the sticky strategies planned by sticky.
func AssignWith(sticky StickyAlgorithm, strategy string, members []Member, partitions map[string]int) (Assignment, error) {
	out, _, err := RoundWith(sticky, strategy, members, partitions)
	return out, err
}

// Round runs one rebalance round as Assign does, and counts the partitions
// a cooperative round held back: they go from one member to another, so
// their owner revokes them now and the next round, with Owned updated,
// assigns them (KIP-429). The count is 0 for the eager strategies.
func Round(strategy string, members []Member, partitions map[string]int) (Assignment, int, error) {
	return RoundWith(KafkaSticky, strategy, members, partitions)
}

// RoundWith is Round with the sticky strategies planned by sticky.
func RoundWith(sticky StickyAlgorithm, strategy string, members []Member, partitions map[string]int) (Assignment, int, error) {
	if err := CheckStrategy(strategy); err != nil {
		return nil, 0, err
	}
	in, err := newAssignInput(members, partitions)
	if err != nil {
		return nil, 0, err
	}
	out, held := in.assign(sticky, strategy)
	return out, held, nil
}

// assign returns the assignment and how many partitions a cooperative round
// held back to assign in the next round.
func (in assignInput) assign(sticky StickyAlgorithm, strategy string) (Assignment, int) {
	if len(in.members) == 0 {
		return in.empty(), 0
	}
	switch {
	case strategy == Range:
		return in.assignRange(), 0
	case strategy == RoundRobin:
		return in.assignRoundRobin(), 0
	case sticky == KafkaSticky:
		return in.assignStickyKafka(strategy == CooperativeSticky)
	case strategy == Sticky:
		return in.assignSticky(), 0
	default:
		return in.assignCooperativeSticky()
	}
}

// assignRange is Kafka 4.4's RangeAssignor: topic by topic, the members
// subscribed to it in order each take a contiguous range of n/c partitions,
// and the first n%c of them one more.
func (in assignInput) assignRange() Assignment {
	out := in.empty()
	for _, topic := range in.topics {
		subs := in.subs[topic]
		n, c := in.counts[topic], len(subs)
		next := 0
		for i, m := range subs {
			take := n / c
			if i < n%c {
				take++
			}
			id := in.members[m].ID
			for range take {
				out[id] = append(out[id], TopicPartition{topic, next})
				next++
			}
		}
	}
	return out
}

// assignRoundRobin is Kafka 4.4's RoundRobinAssignor: all subscribed partitions
// sorted by (topic, partition) are dealt to the members in order, going
// round; a member not subscribed to a partition's topic is skipped, and the
// next partition starts where the previous one stopped.
func (in assignInput) assignRoundRobin() Assignment {
	out := in.empty()
	subscribed := make([]map[string]bool, len(in.members))
	for _, topic := range in.topics {
		for _, m := range in.subs[topic] {
			if subscribed[m] == nil {
				subscribed[m] = make(map[string]bool)
			}
			subscribed[m][topic] = true
		}
	}
	next := 0
	for _, topic := range in.topics {
		for p := range in.counts[topic] {
			// The topic has a subscriber, so this loop ends within one round.
			for !subscribed[next][topic] {
				next = (next + 1) % len(in.members)
			}
			id := in.members[next].ID
			out[id] = append(out[id], TopicPartition{topic, p})
			next = (next + 1) % len(in.members)
		}
	}
	return out
}

// claimedOwners resolves who owned each partition before the rebalance: a
// claim counts only for a partition that exists and that the member still
// subscribes to; of two claims the higher generation wins, and of two equal
// ones the member first in order. The result is the member's index.
func (in assignInput) claimedOwners() map[TopicPartition]int {
	owners := make(map[TopicPartition]int)
	generation := make(map[TopicPartition]int)
	for i, m := range in.members {
		for _, tp := range m.Owned {
			if tp.Partition < 0 || tp.Partition >= in.counts[tp.Topic] || !slices.Contains(in.subs[tp.Topic], i) {
				continue
			}
			if prev, ok := owners[tp]; ok && (prev == i || generation[tp] >= m.Generation) {
				continue
			}
			owners[tp] = i
			generation[tp] = m.Generation
		}
	}
	return owners
}

// assignCooperativeSticky is Kafka 4.4's CooperativeStickyAssignor: it
// plans as sticky does, then holds back every partition that would go from
// one member straight to another: its owner revokes it in this round, and
// it is assigned in the next one (KIP-429).
func (in assignInput) assignCooperativeSticky() (Assignment, int) {
	plan := in.assignSticky()
	claims := make(map[TopicPartition][]string)
	for _, m := range in.members {
		for _, tp := range m.Owned {
			claims[tp] = append(claims[tp], m.ID)
		}
	}
	owners := in.claimedOwners()
	held := 0
	for _, m := range in.members {
		kept := plan[m.ID][:0]
		for _, tp := range plan[m.ID] {
			owner, owned := owners[tp]
			mine := owned && in.members[owner].ID == m.ID
			claimedByOther := slices.ContainsFunc(claims[tp], func(id string) bool { return id != m.ID })
			if !mine && claimedByOther {
				held++
				continue
			}
			kept = append(kept, tp)
		}
		plan[m.ID] = kept
	}
	return plan, held
}

// AssignRange assigns partitions 0..partitions-1 of one topic to members as
// Kafka's RangeAssignor does: 5 partitions over c1, c2 give c1 [0 1 2] and
// c2 [3 4]. It is the single-topic entry point; Assign handles the rest.
func AssignRange(partitions int, members []string) (map[string][]int, error) {
	return assignOneTopic(Range, partitions, members)
}

// AssignRoundRobin assigns partitions 0..partitions-1 of one topic to members
// as Kafka's RoundRobinAssignor does: 5 partitions over c1, c2 give c1
// [0 2 4] and c2 [1 3].
func AssignRoundRobin(partitions int, members []string) (map[string][]int, error) {
	return assignOneTopic(RoundRobin, partitions, members)
}

func assignOneTopic(strategy string, partitions int, members []string) (map[string][]int, error) {
	const topic = "topic"
	in := make([]Member, len(members))
	for i, id := range members {
		in[i] = Member{ID: id, Topics: []string{topic}}
	}
	assignment, err := Assign(strategy, in, map[string]int{topic: partitions})
	if err != nil {
		return nil, err
	}
	out := make(map[string][]int, len(assignment))
	for id, tps := range assignment {
		out[id] = []int{}
		for _, tp := range tps {
			out[id] = append(out[id], tp.Partition)
		}
	}
	return out, nil
}
