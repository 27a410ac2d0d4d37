package assign

import (
	"slices"
)

// Kafka's own sticky assignors, ported line for line from kafka-clients
// 4.4.0: org.apache.kafka.clients.consumer.internals.AbstractStickyAssignor
// (its ConstrainedAssignmentBuilder when every member subscribes to the same
// topics, its GeneralAssignmentBuilder otherwise), with the member data of
// StickyAssignor and CooperativeStickyAssignor, and the latter's
// adjustAssignment. The conformance suite checks them against the Java
// classes (conformance/assign_oracle_test.go).
//
// Where Java iterates a HashMap or HashSet and the order decides the
// answer, the port iterates in Java's order (java.go):
//
//   - the members, in the order of the subscriptions map the group leader
//     builds (ConsumerCoordinator.onLeaderElected: a HashMap keyed by
//     member id, filled in the order the coordinator lists the members).
//     Which member first claims a partition, and which members keep more
//     than the minimum quota, follow it. The playground lists the members
//     in Kafka's assignor order (static members first, by
//     group.instance.id, then by member id); members whose ids share a
//     bucket keep that order, as they would in Java given that listing.
//   - the partitions that moved between two members
//     (PartitionMovements.getTheActualPartitionToBeMoved takes the first of
//     a HashSet).
//
// Racks play no part: the playground's members have no client.rack, and
// without it the Java classes skip their rack-aware steps.

// kafkaMemberData is AbstractStickyAssignor.MemberData: what the leader
// reads of a member's subscription.
type kafkaMemberData struct {
	partitions []TopicPartition
	generation int
	present    bool // whether generation is set (Optional.isPresent)
}

// noGeneration is AbstractStickyAssignor.DEFAULT_GENERATION.
const noGeneration = -1

// kafkaSticky is one run of AbstractStickyAssignor over a group.
type kafkaSticky struct {
	in          assignInput
	cooperative bool
	order       []int           // the subscriptions map's order: member indices
	exists      map[string]bool // partitionsPerTopic's keys
	subscribed  []map[string]bool
}

// memberData is StickyAssignor.memberData (the previous assignment and
// generation a member's own assignor wrote into its user data in
// onAssignment) or CooperativeStickyAssignor.memberData (the subscription's
// owned partitions and generation, ConsumerProtocolSubscription v2, or the
// generation in its user data when the subscription carries none). A
// member given an assignment carries generation max(Generation, 0); one
// never given any carries none (sticky) or -1 (cooperative).
func (k *kafkaSticky) memberData(m Member) kafkaMemberData {
	assigned := len(m.Owned) > 0 || m.Generation >= 0
	switch {
	case !k.cooperative && assigned:
		return kafkaMemberData{m.Owned, max(m.Generation, 0), true}
	case !k.cooperative:
		return kafkaMemberData{}
	case m.Generation >= 0:
		return kafkaMemberData{m.Owned, m.Generation, true}
	case assigned:
		return kafkaMemberData{m.Owned, 0, true}
	}
	return kafkaMemberData{m.Owned, noGeneration, true}
}

// subscriptionGeneration is Subscription.generationId().orElse(-1).
func subscriptionGeneration(m Member) int {
	return max(m.Generation, noGeneration)
}

// assignStickyKafka runs Kafka 4.4's StickyAssignor, or with cooperative
// its CooperativeStickyAssignor: the assignment and how many partitions the
// cooperative adjustment held back.
func (in assignInput) assignStickyKafka(cooperative bool) (Assignment, int) {
	k := &kafkaSticky{in: in, cooperative: cooperative, exists: map[string]bool{}}
	for _, topic := range in.topics {
		k.exists[topic] = true
	}
	hashes := make([]uint32, len(in.members))
	for i, m := range in.members {
		hashes[i] = javaSpread(JavaStringHash(m.ID))
		sub := map[string]bool{}
		for _, t := range m.Topics {
			sub[t] = true
		}
		k.subscribed = append(k.subscribed, sub)
	}
	k.order = javaHashOrder(hashes)

	owned, multiple, equal, maxGeneration := k.allSubscriptionsEqual()
	var out [][]TopicPartition
	var transferring map[TopicPartition]int
	if equal {
		c := k.constrained(owned, multiple)
		out, transferring = c.build(), c.transferring
	} else {
		out = k.general(owned, maxGeneration)
		if cooperative {
			transferring = k.computePartitionsTransferringOwnership(out)
		}
	}
	held := 0
	if cooperative {
		// CooperativeStickyAssignor.adjustAssignment: a partition that goes
		// from one member to another is first revoked, and assigned in the
		// next rebalance.
		for tp, m := range transferring {
			if i := slices.Index(out[m], tp); i >= 0 {
				out[m] = slices.Delete(out[m], i, i+1)
				held++
			}
		}
	}
	result := in.empty()
	for i, m := range in.members {
		result[m.ID] = append(result[m.ID], out[i]...)
	}
	sortAssignment(result)
	return result, held
}

// validClaim reports whether a claimed partition is one of a topic being
// assigned (allTopics.contains in Java). The playground drops claims beyond
// a topic's partition count too: Kafka's topics never lose partitions, so
// its members never make them.
func (k *kafkaSticky) validClaim(tp TopicPartition) bool {
	return k.exists[tp.Topic] && tp.Partition >= 0 && tp.Partition < k.in.counts[tp.Topic]
}

// allSubscriptionsEqual is AbstractStickyAssignor.allSubscriptionsEqual:
// whether every member subscribes to the same topics, each member's owned
// partitions still valid (a partition two members claim goes to the higher
// generation; claimed twice in one generation, to neither), the partitions
// claimed twice in one generation, and the highest generation.
func (k *kafkaSticky) allSubscriptionsEqual() ([][]TopicPartition, map[TopicPartition]bool, bool, int) {
	equal := true
	subscribedTopics := map[string]bool{}
	previousOwner := map[TopicPartition]int{}
	multiple := map[TopicPartition]bool{}
	owned := make([][]TopicPartition, len(k.in.members))
	maxGeneration := noGeneration
	for _, c := range k.order {
		m := k.in.members[c]
		if len(subscribedTopics) == 0 {
			for _, t := range m.Topics {
				subscribedTopics[t] = true
			}
		} else if equal && !(len(m.Topics) == len(subscribedTopics) && containsAll(subscribedTopics, m.Topics)) {
			equal = false
		}
		data := k.memberData(m)
		generation := noGeneration
		if data.present {
			generation = data.generation
		}
		maxGeneration = max(maxGeneration, generation)
		owned[c] = []TopicPartition{}
		for _, tp := range data.partitions {
			if !k.validClaim(tp) {
				continue
			}
			other, claimed := previousOwner[tp]
			if !claimed {
				owned[c] = append(owned[c], tp)
				previousOwner[tp] = c
				continue
			}
			otherGeneration := subscriptionGeneration(k.in.members[other])
			switch {
			case generation == otherGeneration:
				multiple[tp] = true
				owned[other] = removeFirst(owned[other], tp)
				previousOwner[tp] = c
			case generation > otherGeneration:
				owned[c] = append(owned[c], tp)
				owned[other] = removeFirst(owned[other], tp)
				previousOwner[tp] = c
			}
		}
	}
	return owned, multiple, equal, maxGeneration
}

func containsAll(set map[string]bool, topics []string) bool {
	for _, t := range topics {
		if !set[t] {
			return false
		}
	}
	return true
}

// removeFirst is List.remove(Object): the first tp goes.
func removeFirst(list []TopicPartition, tp TopicPartition) []TopicPartition {
	if i := slices.Index(list, tp); i >= 0 {
		return slices.Delete(list, i, i+1)
	}
	return list
}

// allPartitions lists the partitions of topics in order, each 0..n-1
// (AbstractAssignmentBuilder.getAllTopicPartitions).
func (k *kafkaSticky) allPartitions(topics []string) []TopicPartition {
	var all []TopicPartition
	for _, t := range topics {
		for p := range k.in.counts[t] {
			all = append(all, TopicPartition{t, p})
		}
	}
	return all
}

// constrainedBuilder is AbstractStickyAssignor.ConstrainedAssignmentBuilder
// of kafka-clients 4.4.0, for equal subscriptions.
type constrainedBuilder struct {
	k        *kafkaSticky
	owned    [][]TopicPartition
	multiple map[TopicPartition]bool
	// maybeRevoked: an owned partition beyond its owner's quota → owner.
	maybeRevoked map[TopicPartition]int
	transferring map[TopicPartition]int
	// unfilledUnder and unfilledExactly are
	// unfilledMembersWithUnderMinQuotaPartitions and
	// unfilledMembersWithExactlyMinQuotaPartitions.
	unfilledUnder, unfilledExactly []int
	minQuota, maxQuota             int
	expectedOverMin, currentOver   int
	assignment                     [][]TopicPartition
	assigned                       map[TopicPartition]bool
}

func (k *kafkaSticky) constrained(owned [][]TopicPartition, multiple map[TopicPartition]bool) *constrainedBuilder {
	total := 0
	for _, t := range k.in.topics {
		total += k.in.counts[t]
	}
	n := len(k.in.members)
	return &constrainedBuilder{
		k:               k,
		owned:           owned,
		multiple:        multiple,
		maybeRevoked:    map[TopicPartition]int{},
		transferring:    map[TopicPartition]int{},
		minQuota:        total / n,
		maxQuota:        (total + n - 1) / n,
		expectedOverMin: total % n,
		assignment:      make([][]TopicPartition, n),
		assigned:        map[TopicPartition]bool{},
	}
}

// consumerToOwnedOrder is the order of consumerToOwnedPartitions, the
// HashMap allSubscriptionsEqual fills in the subscriptions' order.
func (k *kafkaSticky) consumerToOwnedOrder() []int {
	hashes := make([]uint32, len(k.order))
	for i, c := range k.order {
		hashes[i] = javaSpread(JavaStringHash(k.in.members[c].ID))
	}
	order := javaHashOrder(hashes)
	for i, j := range order {
		order[i] = k.order[j]
	}
	return order
}

// build is ConstrainedAssignmentBuilder.build without racks: owned
// partitions are kept up to the quotas, then the rest dealt round.
func (b *constrainedBuilder) build() [][]TopicPartition {
	b.assignOwnedPartitions()
	var unassigned []TopicPartition
	for _, tp := range b.k.allPartitions(b.k.in.topics) {
		if !b.assigned[tp] {
			unassigned = append(unassigned, tp)
		}
	}
	byID := func(x, y int) int {
		return javaCompareStrings(b.k.in.members[x].ID, b.k.in.members[y].ID)
	}
	slices.SortStableFunc(b.unfilledUnder, byID)
	slices.SortStableFunc(b.unfilledExactly, byID)
	b.assignRoundRobin(unassigned)
	return b.assignment
}

// assignOwnedPartitions is ConstrainedAssignmentBuilder.assignOwnedPartitions.
func (b *constrainedBuilder) assignOwnedPartitions() {
	for _, c := range b.k.consumerToOwnedOrder() {
		owned := slices.Clone(b.owned[c])
		slices.SortStableFunc(owned, func(x, y TopicPartition) int {
			if x.Partition != y.Partition {
				return x.Partition - y.Partition
			}
			return javaCompareStrings(x.Topic, y.Topic)
		})
		owned = slices.DeleteFunc(owned, func(tp TopicPartition) bool { return b.multiple[tp] })
		keep := func(tps []TopicPartition) {
			b.assignment[c] = append(b.assignment[c], tps...)
			for _, tp := range tps {
				b.assigned[tp] = true
			}
		}
		switch {
		case len(owned) < b.minQuota:
			keep(owned)
			b.unfilledUnder = append(b.unfilledUnder, c)
		case len(owned) >= b.maxQuota && b.currentOver < b.expectedOverMin:
			b.currentOver++
			if b.currentOver == b.expectedOverMin {
				b.unfilledExactly = nil
			}
			keep(owned[:b.maxQuota])
			for _, tp := range owned[b.maxQuota:] {
				b.maybeRevoked[tp] = c
			}
		default:
			keep(owned[:b.minQuota])
			for _, tp := range owned[b.minQuota:] {
				b.maybeRevoked[tp] = c
			}
			if b.currentOver < b.expectedOverMin {
				b.unfilledExactly = append(b.unfilledExactly, c)
			}
		}
	}
}

// assignRoundRobin is ConstrainedAssignmentBuilder.assignRoundRobin: the
// unassigned partitions, in topic and partition order, go round the
// members under the minimum quota, then one each to members at it.
func (b *constrainedBuilder) assignRoundRobin(unassigned []TopicPartition) {
	next := 0 // the iterator over unfilledUnder: the index of its next element
	for _, tp := range unassigned {
		var c int
		fromUnder := false
		switch {
		case next < len(b.unfilledUnder):
			c, fromUnder = b.unfilledUnder[next], true
			next++
		case len(b.unfilledUnder) == 0 && len(b.unfilledExactly) == 0:
			return // Java throws: the quotas leave no partition over
		case len(b.unfilledUnder) == 0:
			c, b.unfilledExactly = b.unfilledExactly[0], b.unfilledExactly[1:]
		default:
			c, fromUnder = b.unfilledUnder[0], true
			next = 1
		}
		count := b.assignNewPartition(tp, c)
		switch count {
		case b.minQuota:
			if fromUnder {
				next--
				b.unfilledUnder = slices.Delete(b.unfilledUnder, next, next+1)
			}
			b.unfilledExactly = append(b.unfilledExactly, c)
		case b.maxQuota:
			b.currentOver++
		}
	}
}

// assignNewPartition is ConstrainedAssignmentBuilder.assignNewPartition: a
// partition given to a member other than the one that kept it over quota,
// or claimed twice, changes owner.
func (b *constrainedBuilder) assignNewPartition(tp TopicPartition, c int) int {
	b.assignment[c] = append(b.assignment[c], tp)
	if owner, ok := b.maybeRevoked[tp]; (ok && owner != c) || b.multiple[tp] {
		b.transferring[tp] = c
	}
	return len(b.assignment[c])
}

// computePartitionsTransferringOwnership is CooperativeStickyAssignor's,
// for the general case: partitions a member gets that it did not own and
// that another member owned.
func (k *kafkaSticky) computePartitionsTransferringOwnership(out [][]TopicPartition) map[TopicPartition]int {
	added := map[TopicPartition]int{}
	revoked := map[TopicPartition]bool{}
	for c, m := range k.in.members {
		for _, tp := range out[c] {
			if !slices.Contains(m.Owned, tp) {
				added[tp] = c
			}
		}
		for _, tp := range m.Owned {
			if !slices.Contains(out[c], tp) {
				revoked[tp] = true
			}
		}
	}
	for tp := range added {
		if !revoked[tp] {
			delete(added, tp)
		}
	}
	return added
}
