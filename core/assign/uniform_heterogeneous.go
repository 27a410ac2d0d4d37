package assign

import (
	"cmp"
	"maps"
	"slices"
)

// assignUniformHeterogeneous is UniformHeterogeneousAssignmentBuilder.build
// (kafka-group-coordinator 4.4.0), for members whose subscriptions differ:
// each member keeps its current target of the topics it still subscribes
// to; the unassigned partitions go, topic by topic, to the least loaded
// subscribers; then, for at most 16 passes over the topics with two or
// more subscribers, partitions move from the most loaded subscriber of a
// topic to its least loaded one until no topic can even its subscribers
// out further. Ties go to the member earlier in memberIds() order
// (javaMemberOrder), and topics are taken most partitions per subscriber
// first, then fewest subscribers, then by topic id (Uuid.compareTo).
func (g serverGroup) assignUniformHeterogeneous() Assignment {
	b := heterogeneousBuilder{g: g, owners: map[string][]int{}, subscribers: map[string][]int{}}
	b.sizes = make([]int, len(g.members))
	b.target = make([]*javaAssignment, len(g.members))
	for i, subs := range g.subs {
		for _, t := range subs {
			b.subscribers[t] = append(b.subscribers[t], i)
		}
	}
	if len(b.subscribers) == 0 {
		return g.emptyAssignment()
	}
	for t := range b.subscribers {
		b.owners[t] = slices.Repeat([]int{-1}, g.counts[t])
	}
	// maybeRevokePartitions: a member keeps what it holds of the topics it
	// subscribes to.
	for i := range g.members {
		old := g.javaFromRecord(g.target[i])
		target := old
		for _, t := range old.topics.keys() {
			if !slices.Contains(g.subs[i], t) {
				target = target.mutable()
				target.removeTopic(t)
				continue
			}
			ps := old.partitions[t].keys()
			for _, p := range ps {
				b.owners[t][p] = i
			}
			b.sizes[i] += len(ps)
		}
		b.target[i] = target
	}
	// computeUnassignedPartitions and assignRemainingPartitions.
	unassigned := map[string][]int{}
	for t, owners := range b.owners {
		for p, o := range owners {
			if o == -1 {
				unassigned[t] = append(unassigned[t], p)
			}
		}
	}
	var bal balancer
	for _, t := range b.sortTopics(sortedKeys(unassigned)) {
		bal.initialize(b.sizes, b.subscribers[t])
		for _, p := range unassigned[t] {
			b.assign(t, p, bal.nextLeastLoaded())
		}
	}
	// balance.
	var shared []string
	for t, subs := range b.subscribers {
		if len(subs) >= 2 {
			shared = append(shared, t)
		}
	}
	if len(shared) > 0 {
		b.balanceTopics(b.sortTopics(shared))
	}
	return g.records(b.target)
}

// sortedKeys is a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}

type heterogeneousBuilder struct {
	g           serverGroup
	subscribers map[string][]int // topic → member indices, ascending
	owners      map[string][]int // topic → partition → member index, -1 for none
	sizes       []int            // partitions in each member's target
	target      []*javaAssignment
}

// sortTopics is the builder's topicComparator.
func (b *heterogeneousBuilder) sortTopics(topics []string) []string {
	slices.SortFunc(topics, func(t1, t2 string) int {
		s1, s2 := len(b.subscribers[t1]), len(b.subscribers[t2])
		if c := cmp.Compare(float64(b.g.counts[t2])/float64(s2), float64(b.g.counts[t1])/float64(s1)); c != 0 {
			return c
		}
		if c := cmp.Compare(s1, s2); c != 0 {
			return c
		}
		return compareTopicIDs(b.g.ids[t1], b.g.ids[t2])
	})
	return topics
}

// assign moves a partition to a member (assignPartition, with
// removePartitionFromTargetAssignment and addPartitionToTargetAssignment).
func (b *heterogeneousBuilder) assign(t string, p, member int) {
	if old := b.owners[t][p]; old != -1 {
		b.target[old] = b.target[old].mutable()
		b.target[old].removePartition(t, p)
		b.sizes[old]--
	}
	b.target[member] = b.target[member].mutable()
	b.target[member].add(b.g, t, p, func() *javaTable[int] {
		// new HashSet<>(estimatedPartitionsPerSubscriber / 0.75 + 1).
		subscribers := len(b.subscribers[t])
		estimate := (b.g.counts[t] + subscribers - 1) / subscribers
		return newJavaTableFor[int](int(float32(estimate)/0.75 + 1))
	})
	b.owners[t][p] = member
	b.sizes[member]++
}

// maxBalanceIterations is MAX_ITERATION_COUNT.
const maxBalanceIterations = 16

// balanceTopics passes over the topics until a whole pass moves nothing
// (it stops at the topic that last moved a partition), at most 16 times.
func (b *heterogeneousBuilder) balanceTopics(topics []string) {
	last := -1
	var bal balancer
	for range maxBalanceIterations {
		for i, t := range topics {
			if i == last {
				return
			}
			if moved := b.balanceTopic(t, &bal); moved > 0 || last == -1 {
				last = i
			}
		}
	}
}

// balanceTopic moves a topic's partitions from its most loaded subscribers
// to its least loaded ones: the highest-numbered partition of the most
// loaded first. It returns how many moved.
func (b *heterogeneousBuilder) balanceTopic(t string, bal *balancer) int {
	moved := 0
	owners := b.owners[t]
	if bal.initialize(b.sizes, b.subscribers[t]) <= 1 {
		return 0
	}
	// The partitions sorted by owner, then number; each owner's run of
	// them is [start, end).
	partitions := make([]int, len(owners))
	for p := range partitions {
		partitions[p] = p
	}
	slices.SortFunc(partitions, func(x, y int) int {
		if c := cmp.Compare(owners[x], owners[y]); c != 0 {
			return c
		}
		return cmp.Compare(x, y)
	})
	start, end := map[int]int{}, map[int]int{}
	for i, p := range partitions {
		if _, ok := start[owners[p]]; !ok {
			start[owners[p]] = i
		}
		end[owners[p]] = i + 1
	}
	for !bal.balanced() {
		for {
			most := bal.nextMostLoaded()
			if most == -1 {
				return moved
			}
			e, ok := end[most]
			if !ok || e-start[most] <= 0 {
				bal.excludeMostLoaded()
				continue
			}
			p := partitions[e-1]
			end[most] = e - 1
			least := bal.nextLeastLoaded()
			if bal.balanced() {
				return moved
			}
			b.assign(t, p, least)
			moved++
			break
		}
	}
	return moved
}

// balancer is UniformHeterogeneousAssignmentBuilder.MemberAssignmentBalancer
// (Kafka 4.4): a topic's subscribers sorted by target size (then index),
// handing out the least loaded in turn and the most loaded in turn, its
// ranges of equally loaded members widening as partitions move. It reads
// the builder's sizes as they change.
type balancer struct {
	sizes  []int
	sorted []int

	leastLoadedRangeEnd, leastLoadedRangePartitionCount, nextLeastLoadedMember                    int
	mostLoadedRangeStart, mostLoadedRangeEnd, mostLoadedRangePartitionCount, nextMostLoadedMember int
}

// initialize sorts the members and returns the topic's imbalance: the
// most loaded member's size minus the least loaded one's.
func (bal *balancer) initialize(sizes []int, members []int) int {
	bal.sizes = sizes
	bal.sorted = append(bal.sorted[:0], members...)
	slices.SortFunc(bal.sorted, func(a, b int) int {
		if c := cmp.Compare(sizes[a], sizes[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	n := len(bal.sorted)
	bal.leastLoadedRangeEnd = 0
	bal.leastLoadedRangePartitionCount = sizes[bal.sorted[0]] - 1
	bal.nextLeastLoadedMember = 0
	bal.mostLoadedRangeStart, bal.mostLoadedRangeEnd = n, n
	bal.mostLoadedRangePartitionCount = sizes[bal.sorted[n-1]] + 1
	bal.nextMostLoadedMember = n - 1
	return sizes[bal.sorted[n-1]] - sizes[bal.sorted[0]]
}

func (bal *balancer) nextLeastLoaded() int {
	if bal.nextLeastLoadedMember >= bal.leastLoadedRangeEnd {
		bal.leastLoadedRangePartitionCount++
		for bal.leastLoadedRangeEnd < len(bal.sorted) && bal.sizes[bal.sorted[bal.leastLoadedRangeEnd]] == bal.leastLoadedRangePartitionCount {
			bal.leastLoadedRangeEnd++
		}
		bal.nextLeastLoadedMember = 0
	}
	m := bal.sorted[bal.nextLeastLoadedMember]
	bal.nextLeastLoadedMember++
	return m
}

func (bal *balancer) nextMostLoaded() int {
	if bal.nextMostLoadedMember < bal.mostLoadedRangeStart {
		if bal.mostLoadedRangeEnd <= bal.mostLoadedRangeStart && bal.mostLoadedRangeStart > 0 {
			bal.mostLoadedRangePartitionCount = bal.sizes[bal.sorted[bal.mostLoadedRangeStart-1]]
		} else {
			bal.mostLoadedRangePartitionCount--
		}
		for bal.mostLoadedRangeStart > 0 && bal.sizes[bal.sorted[bal.mostLoadedRangeStart-1]] == bal.mostLoadedRangePartitionCount {
			bal.mostLoadedRangeStart--
		}
		bal.nextMostLoadedMember = bal.mostLoadedRangeEnd - 1
	}
	if bal.nextMostLoadedMember < 0 {
		return -1
	}
	m := bal.sorted[bal.nextMostLoadedMember]
	bal.nextMostLoadedMember--
	return m
}

// excludeMostLoaded drops the member nextMostLoaded last gave (it has no
// partition of this topic to give) from the most loaded range.
func (bal *balancer) excludeMostLoaded() {
	i := bal.nextMostLoadedMember + 1
	bal.sorted[i], bal.sorted[bal.mostLoadedRangeEnd-1] = bal.sorted[bal.mostLoadedRangeEnd-1], bal.sorted[i]
	bal.mostLoadedRangeEnd--
}

func (bal *balancer) balanced() bool {
	return bal.mostLoadedRangePartitionCount-bal.leastLoadedRangePartitionCount <= 1
}
