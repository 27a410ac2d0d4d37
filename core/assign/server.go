package assign

import (
	"cmp"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
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
// of them where the order decides who keeps what: see javaTopicOrder and
// javaMemberOrder below for what is followed.

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
	// assignor keeps where it can. Partitions that do not exist, and a
	// partition a member before it (in Kafka's member order) already
	// holds, are ignored.
	Target []TopicPartition
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
		sum := sha256.Sum256(fmt.Appendf(nil, "plog topic id %d %s", n, topic))
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
// server-side assignor, each topic's id being DefaultTopicID.
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
	var out Assignment
	switch {
	case len(g.members) == 0:
		return Assignment{}, nil
	case assignor == ServerRange:
		out = g.assignRange()
	case g.homogeneous:
		out, err = g.assignUniformHomogeneous()
	default:
		out, err = g.assignUniformHeterogeneous()
	}
	if err != nil {
		return nil, err
	}
	for id, tps := range out {
		slices.SortFunc(tps, ComparePartitions)
		out[id] = tps
	}
	return out, nil
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
	// topics that exist, sorted by name, without repeats.
	subs [][]string
	// target is each member's current target: topic → partitions,
	// ascending, of topics that exist.
	target []map[string][]int
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
	owned := map[TopicPartition]bool{}
	for i, m := range g.members {
		names := slices.Compact(slices.Sorted(slices.Values(m.Topics)))
		if i == 0 {
			firstNames = names
		} else if !slices.Equal(names, firstNames) {
			g.homogeneous = false
		}
		g.subs = append(g.subs, slices.DeleteFunc(slices.Clone(names), func(t string) bool { return g.counts[t] == 0 }))
		target := map[string][]int{}
		for _, tp := range m.Target {
			if tp.Partition < 0 || tp.Partition >= g.counts[tp.Topic] || owned[tp] {
				continue
			}
			owned[tp] = true
			target[tp.Topic] = append(target[tp.Topic], tp.Partition)
		}
		for _, ps := range target {
			slices.Sort(ps)
		}
		g.target = append(g.target, target)
	}
	return g, nil
}

// assigned reports whether a partition is in some member's current target
// (GroupSpec.isPartitionAssigned, over the group's inverted target
// assignment).
func (g serverGroup) assigned() map[TopicPartition]bool {
	out := map[TopicPartition]bool{}
	for _, target := range g.target {
		for topic, ps := range target {
			for _, p := range ps {
				out[TopicPartition{topic, p}] = true
			}
		}
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
// them: the keys of the java.util.HashMap the coordinator's
// TargetAssignmentBuilder.build (Kafka 4.4) fills with the group's
// members, by the buckets of the member ids' String.hashCode (see java.go).
// Ids that share a bucket come in the order they were put in, which is
// the order of the group's own TimelineHashMap; plog puts them in sorted
// by id.
func javaMemberOrder(members []TargetMember) []TargetMember {
	sorted := slices.SortedFunc(slices.Values(members), func(a, b TargetMember) int { return strings.Compare(a.ID, b.ID) })
	hashes := make([]uint32, len(sorted))
	for i, m := range sorted {
		hashes[i] = javaSpread(JavaStringHash(m.ID))
	}
	out := make([]TargetMember, 0, len(sorted))
	for _, i := range javaHashOrder(hashes) {
		out = append(out, sorted[i])
	}
	return out
}

// javaTopicOrder puts topics in the order a java.util.HashMap or HashSet
// keyed by their ids iterates them, the topics put in in the order given.
// sized is whether the table was made for them at once, as
// new HashSet<>(collection) makes it (capacity for size/0.75+1, at least
// 16); otherwise it started empty at 16 and grew.
func (g serverGroup) javaTopicOrder(topics []string, sized bool) []string {
	hashes := make([]uint32, len(topics))
	for i, t := range topics {
		hashes[i] = javaSpread(g.ids[t].javaHash())
	}
	var order []int
	if sized {
		order = javaSizedHashOrder(hashes)
	} else {
		order = javaHashOrder(hashes)
	}
	out := make([]string, len(order))
	for i, j := range order {
		out[i] = topics[j]
	}
	return out
}

// javaPartitionOrder puts a member's partitions of one topic in the order
// its HashSet<Integer> iterates them. The coordinator holds a target
// assignment as it read it from its record (Assignment.fromRecord, Kafka
// 4.4): new HashSet<>(partitions), the partitions in ascending order.
// (Integer.hashCode is the value itself.)
func javaPartitionOrder(ps []int) []int {
	hashes := make([]uint32, len(ps))
	for i, p := range ps {
		hashes[i] = javaSpread(int32(p))
	}
	order := javaSizedHashOrder(hashes)
	out := make([]int, len(order))
	for i, j := range order {
		out[i] = ps[j]
	}
	return out
}

// javaSizedHashOrder is the iteration order of a HashSet made by
// new HashSet<>(collection) of keys with these spread hashes: its table
// holds max(size/0.75+1, 16) rounded up to a power of two buckets
// (HashSet(Collection), HashMap.tableSizeFor), so adding them never
// resizes it.
func javaSizedHashOrder(hashes []uint32) []int {
	capacity := 1
	for want := max(int(float32(len(hashes))/0.75)+1, javaInitialCapacity); capacity < want; {
		capacity *= 2
	}
	return javaBucketOrder(hashes, capacity)
}
