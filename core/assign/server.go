package assign

import (
	"cmp"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"plog/core/digest"
)

// The server-side assignors of the consumer group protocol (KIP-848): the
// group coordinator, not a member, computes each member's target
// assignment. They follow Kafka 4.4's group-coordinator module
// (kafka-group-coordinator 4.4.0, package
// org.apache.kafka.coordinator.group.assignor): UniformAssignor
// (uniform.go, uniform_heterogeneous.go) and RangeAssignor
// (range_server.go), fed as the coordinator's TargetAssignmentBuilder
// (org.apache.kafka.coordinator.group.modern) feeds them.
//
// Kafka's assignors work on topic ids (org.apache.kafka.common.Uuid), not
// names, and the uniform assignor iterates java.util.HashMap and HashSet
// of them where the order decides who keeps what: javaMemberOrder below
// orders the members, server_java.go follows the tables (and the order of
// the target-assignment records the coordinator writes and reads back).

// The server-side assignor names, as group.remote.assignor and the
// broker's group.consumer.assignors name them.
const (
	Uniform     = "uniform"
	ServerRange = "range"
)

// ServerAssignors lists the server-side assignors in the order of the
// broker's default group.consumer.assignors (uniform first: the default).
func ServerAssignors() []string {
	return []string{Uniform, ServerRange}
}

// CheckServerAssignor says what is wrong with a group.remote.assignor, nil
// for one of ServerAssignors. The message is the coordinator's
// (GroupCoordinatorService.throwIfConsumerGroupHeartbeatRequestIsInvalid,
// Kafka 4.4: UnsupportedAssignorException).
func CheckServerAssignor(name string) error {
	if slices.Contains(ServerAssignors(), name) {
		return nil
	}
	//lint:ignore ST1005 the coordinator's own words, which the page and the CLI quote
	return fmt.Errorf("ServerAssignor %s is not supported. Supported assignors: %s.", name, strings.Join(ServerAssignors(), ", "))
}

// TargetMember is one member of a consumer-protocol group as the
// coordinator's assignor sees it (MemberSubscriptionAndAssignmentImpl).
type TargetMember struct {
	// ID is the member id (a UUID the client made), InstanceID its
	// group.instance.id, empty for a dynamic member.
	ID, InstanceID string
	// Topics is the subscription, by name. Names of topics that do not
	// exist are left out of the assignment, as the coordinator's TopicIds
	// leaves out names it cannot resolve, but they still count when
	// deciding whether the group's subscriptions are all the same.
	Topics []string
	// Target is the member's current target assignment, which the uniform
	// assignor keeps where it can, in the order of its target-assignment
	// record: what AssignTargetInRecordOrder returned for the member. In
	// any other order (sorted, say) it is read as a record in that order,
	// which differs from Kafka only where two of its topic ids, or two of
	// its partitions of one topic, share a bucket of Java's tables
	// (server_java.go). Partitions that do not exist, and a partition a
	// member before it (in Kafka's member order) already holds, are
	// ignored.
	Target []TopicPartition
	// Joining marks the member whose first heartbeat computes this
	// target: the coordinator assigns it before it is among the group's
	// members, so it comes after them (UpdatedMembersAndTargetAssignmentView
	// lays it over the group's members, and an OverlayMap iterates its
	// additions last: Kafka 4.4). A static member that comes back with a
	// new member id joins so too.
	Joining bool
}

// TopicID is a topic id, org.apache.kafka.common.Uuid: 16 bytes, the most
// significant 8 first.
type TopicID [16]byte

func (id TopicID) most() int64  { return int64(binary.BigEndian.Uint64(id[:8])) }
func (id TopicID) least() int64 { return int64(binary.BigEndian.Uint64(id[8:])) }

// String is the id as Kafka writes it (Uuid.toString): URL-safe base64,
// no padding.
func (id TopicID) String() string {
	return base64.RawURLEncoding.EncodeToString(id[:])
}

// javaHash is Uuid.hashCode (kafka-clients 4.4.0).
func (id TopicID) javaHash() int32 {
	x := id.most() ^ id.least()
	return int32(x>>32) ^ int32(x)
}

// compareTopicIDs is Uuid.compareTo: the most significant bits, then the
// least, each as a signed long.
func compareTopicIDs(a, b TopicID) int {
	if c := cmp.Compare(a.most(), b.most()); c != 0 {
		return c
	}
	return cmp.Compare(a.least(), b.least())
}

// DefaultTopicID is the id plog gives a topic: Kafka draws a random
// version-4 UUID when it creates a topic (Uuid.randomUuid, which also
// redraws an id whose string starts with '-'); plog draws it from a hash
// of the name, so that the same scenario gives the same ids, and so the
// same assignments, every time.
func DefaultTopicID(topic string) TopicID {
	for n := 0; ; n++ {
		sum := digest.SHA256(fmt.Appendf(nil, "plog topic id %d %s", n, topic))
		var id TopicID
		copy(id[:], sum[:16])
		id[6] = id[6]&0x0f | 0x40 // version 4
		id[8] = id[8]&0x3f | 0x80 // IETF variant
		if !strings.HasPrefix(id.String(), "-") {
			return id
		}
	}
}

// AssignTarget computes the group's new target assignment with a
// server-side assignor, each topic's id being DefaultTopicID. members are
// in the order they joined the group: where member ids share a bucket of
// Kafka's hash tables, that order decides theirs (javaMemberOrder).
func AssignTarget(assignor string, members []TargetMember, partitions map[string]int) (Assignment, error) {
	return AssignTargetWithTopicIDs(assignor, members, partitions, nil)
}

// AssignTargetWithTopicIDs is AssignTarget with the topic ids given: ids
// maps a topic name to its id (a topic it leaves out gets DefaultTopicID).
// The uniform assignor's answer depends on the ids, as Kafka's does; to
// match a real cluster, pass the cluster's ids.
func AssignTargetWithTopicIDs(assignor string, members []TargetMember, partitions map[string]int, ids map[string]TopicID) (Assignment, error) {
	if err := CheckServerAssignor(assignor); err != nil {
		return nil, err
	}
	g, err := newServerGroup(members, partitions, ids)
	if err != nil {
		return nil, err
	}
	out, err := g.assign(assignor)
	sortTargets(out)
	return out, err
}

// sortTargets sorts each member's partitions by topic, then partition.
func sortTargets(a Assignment) {
	for _, tps := range a {
		slices.SortFunc(tps, ComparePartitions)
	}
}

// AssignTargetInRecordOrder is AssignTargetWithTopicIDs with each member's
// partitions in the order the coordinator writes them in the member's
// target-assignment record (the order Java's answer iterates), not
// sorted: give them back as Target next time for Kafka's exact answer.
func AssignTargetInRecordOrder(assignor string, members []TargetMember, partitions map[string]int, ids map[string]TopicID) (Assignment, error) {
	if err := CheckServerAssignor(assignor); err != nil {
		return nil, err
	}
	g, err := newServerGroup(members, partitions, ids)
	if err != nil {
		return nil, err
	}
	return g.assign(assignor)
}

// assign runs an assignor (one of ServerAssignors) on the group, as
// UniformAssignor.assign and RangeAssignor.assign dispatch: no members,
// no assignment; else the homogeneous or heterogeneous algorithm. Each
// member's partitions come in record order.
func (g serverGroup) assign(assignor string) (Assignment, error) {
	switch {
	case len(g.members) == 0:
		return Assignment{}, nil
	case assignor == ServerRange:
		return g.assignRange(), nil
	case g.homogeneous:
		return g.assignUniformHomogeneous()
	}
	return g.assignUniformHeterogeneous(), nil
}

// records is each member's javaAssignment as its record lists it.
func (g serverGroup) records(targets []*javaAssignment) Assignment {
	out := g.emptyAssignment()
	for i, m := range g.members {
		out[m.ID] = append(out[m.ID], targets[i].record()...)
	}
	return out
}

// serverGroup is a validated group as the coordinator hands it to an
// assignor (GroupSpecImpl and SubscribedTopicDescriberImpl, Kafka 4.4).
type serverGroup struct {
	// members in the order of GroupSpec.memberIds(): see javaMemberOrder.
	members []TargetMember
	ids     map[string]TopicID
	// counts holds the topics that exist (a positive partition count).
	counts map[string]int
	// subs is each member's subscription (by index in members): the
	// topics that exist, in the order the coordinator's TopicIds iterates
	// them (the member's subscribedTopicNames, a HashSet<String> made from
	// the names in the order given: ConsumerGroupMember.Builder, Kafka
	// 4.4).
	subs [][]string
	// target is each member's current target, of partitions that exist,
	// in record order.
	target [][]TopicPartition
	// homogeneous is the coordinator's SubscriptionType: HOMOGENEOUS when
	// every member subscribes to the same topic names
	// (ModernGroup.subscriptionType, Kafka 4.4).
	homogeneous bool
}

func newServerGroup(members []TargetMember, partitions map[string]int, ids map[string]TopicID) (serverGroup, error) {
	if len(members) > maxAssignMembers {
		return serverGroup{}, fmt.Errorf("%d members is more than the %d an assignment can hold", len(members), maxAssignMembers)
	}
	g := serverGroup{ids: map[string]TopicID{}, counts: map[string]int{}, homogeneous: true}
	total := 0
	for topic, n := range partitions {
		if n < 0 {
			return serverGroup{}, fmt.Errorf("topic %q has a negative partition count %d", topic, n)
		}
		if total += n; total > maxAssignPartitions {
			return serverGroup{}, fmt.Errorf("more than %d partitions to assign", maxAssignPartitions)
		}
		if n > 0 {
			g.counts[topic] = n
			if id, ok := ids[topic]; ok {
				g.ids[topic] = id
			} else {
				g.ids[topic] = DefaultTopicID(topic)
			}
		}
	}
	seen := map[TopicID]string{}
	for topic, id := range g.ids {
		if other, ok := seen[id]; ok {
			return serverGroup{}, fmt.Errorf("topics %q and %q have the same id %s", min(topic, other), max(topic, other), id)
		}
		seen[id] = topic
	}
	byID := map[string]bool{}
	for i, m := range members {
		if m.ID == "" {
			return serverGroup{}, fmt.Errorf("member %d has an empty id", i)
		}
		if byID[m.ID] {
			return serverGroup{}, fmt.Errorf("member %q appears twice", m.ID)
		}
		byID[m.ID] = true
	}
	g.members = javaMemberOrder(members)
	var firstNames []string
	owned := g.noneAssigned()
	for i, m := range g.members {
		names := slices.Compact(slices.Sorted(slices.Values(m.Topics)))
		if i == 0 {
			firstNames = names
		} else if !slices.Equal(names, firstNames) {
			g.homogeneous = false
		}
		set := newJavaSetOf[string](len(m.Topics))
		for _, t := range m.Topics {
			set.put(t, javaSpread(JavaStringHash(t)))
		}
		g.subs = append(g.subs, slices.DeleteFunc(set.keys(), func(t string) bool { return g.counts[t] == 0 }))
		var target []TopicPartition
		for _, tp := range m.Target {
			if tp.Partition < 0 || tp.Partition >= g.counts[tp.Topic] || owned[tp.Topic][tp.Partition] {
				continue
			}
			owned[tp.Topic][tp.Partition] = true
			target = append(target, tp)
		}
		g.target = append(g.target, target)
	}
	return g, nil
}

// assigned says, topic by topic, which partitions are in some member's
// current target (GroupSpec.isPartitionAssigned, over the group's inverted
// target assignment).
func (g serverGroup) assigned() map[string][]bool {
	out := g.noneAssigned()
	for _, target := range g.target {
		for _, tp := range target {
			out[tp.Topic][tp.Partition] = true
		}
	}
	return out
}

// noneAssigned is a flag for each partition of each topic, all unset.
func (g serverGroup) noneAssigned() map[string][]bool {
	out := make(map[string][]bool, len(g.counts))
	for topic, n := range g.counts {
		out[topic] = make([]bool, n)
	}
	return out
}

// emptyAssignment has every member with nothing.
func (g serverGroup) emptyAssignment() Assignment {
	out := Assignment{}
	for _, m := range g.members {
		out[m.ID] = []TopicPartition{}
	}
	return out
}

// javaMemberOrder puts members in the order GroupSpec.memberIds() gives
// them: the keys of the java.util.HashMap that the coordinator's
// TargetAssignmentBuilder.build (Kafka 4.4) fills with the group's
// members, by the buckets of the member ids' String.hashCode (see java.go);
// ids that share a bucket come in the order they were put in, the order
// of the group's members, a TimelineHashMap (timelineOrder), then the
// joining ones. members is taken to be in the order they joined.
func javaMemberOrder(members []TargetMember) []TargetMember {
	isJoining := func(m TargetMember) bool { return m.Joining }
	byJoin := timelineOrder(slices.DeleteFunc(slices.Clone(members), isJoining))
	byJoin = append(byJoin, slices.DeleteFunc(slices.Clone(members), func(m TargetMember) bool { return !m.Joining })...)
	hashes := make([]uint32, len(byJoin))
	for i, m := range byJoin {
		hashes[i] = javaSpread(JavaStringHash(m.ID))
	}
	out := make([]TargetMember, 0, len(byJoin))
	for _, i := range javaHashOrder(hashes) {
		out = append(out, byJoin[i])
	}
	return out
}

// timelineOrder is the order in which the group's members, a
// TimelineHashMap (org.apache.kafka.timeline, server-common 4.4) put in in
// the order given, iterate: by slot, the top bits of the member id's
// String.hashCode times 0x9E3779B97F4A7C15 (BaseHashTable.findSlot), and
// within a slot the last put in first (SnapshottableHashTable's
// CurrentIterator takes a slot's members from its end). The table has the fewest slots, at
// least two and a power of two, that hold the members at a load of 0.75;
// one that held more members before keeps more slots, which plog does not
// know of.
func timelineOrder(members []TargetMember) []TargetMember {
	slots := 2
	for float64(len(members))*0.75 > float64(slots) {
		slots *= 2
	}
	shift := 64 - uint(bits.TrailingZeros(uint(slots)))
	slot := func(m TargetMember) uint64 {
		return uint64(int64(JavaStringHash(m.ID))*-7046029254386353131) >> shift
	}
	latestFirst := slices.Clone(members)
	slices.Reverse(latestFirst)
	slices.SortStableFunc(latestFirst, func(a, b TargetMember) int {
		return cmp.Compare(slot(a), slot(b))
	})
	return latestFirst
}
