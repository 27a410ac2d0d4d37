package assign

import (
	"slices"
)

// generalBuilder is AbstractStickyAssignor.GeneralAssignmentBuilder of
// kafka-clients 4.4.0, for unequal subscriptions: keep what members own,
// give the rest to the least loaded, then move partitions from the most
// loaded to the least while that makes the assignment more balanced.
//
// Java keeps each member's partitions in a list and every partition's
// member in a map (currentPartitionConsumer). Where the lists' order does
// not matter (it never decides which partition moves), the port keeps only
// the map, as owner, and each member's count.
type generalBuilder struct {
	k          *kafkaSticky
	partitions []TopicPartition // every partition, by index
	start      map[string]int   // topic → the index of its partition 0
	owner      []int            // partition index → member, -1 for none
	count      []int            // member → partitions held
	active     []bool           // member is in currentAssignment (not set aside as fixed)
	// topicConsumers is topic2AllPotentialConsumers; potentialTopics is
	// consumer2AllPotentialTopics (a topic listed twice counts twice, as
	// in Java).
	topicConsumers  map[string][]int
	potentialTopics [][]string
	totalPartitions int
	topicCount      int   // partitionsPerTopic.size()
	sorted          []int // sortedCurrentSubscriptions: by count, then id
	prev            map[TopicPartition]prevOwner
	movements       *partitionMovements
	revocation      bool // revocationRequired
	sortedAll       []TopicPartition
}

// prevOwner is ConsumerGenerationPair.
type prevOwner struct {
	member, generation int
}

func (k *kafkaSticky) general(owned [][]TopicPartition, maxGeneration int) [][]TopicPartition {
	g := &generalBuilder{
		k:               k,
		start:           map[string]int{},
		count:           make([]int, len(k.in.members)),
		active:          make([]bool, len(k.in.members)),
		topicConsumers:  map[string][]int{},
		potentialTopics: make([][]string, len(k.in.members)),
		topicCount:      len(k.in.topics),
		prev:            map[TopicPartition]prevOwner{},
		movements:       newPartitionMovements(),
	}
	for _, t := range k.in.topics {
		g.start[t] = len(g.partitions)
		g.partitions = append(g.partitions, k.allPartitions([]string{t})...)
	}
	g.totalPartitions = len(g.partitions)
	g.owner = make([]int, len(g.partitions))
	for i := range g.owner {
		g.owner[i] = -1
	}
	for _, t := range k.in.topics {
		g.topicConsumers[t] = []int{}
	}
	for _, c := range k.order {
		g.potentialTopics[c] = []string{}
		for _, t := range k.in.members[c].Topics {
			if k.exists[t] {
				g.potentialTopics[c] = append(g.potentialTopics[c], t)
				g.topicConsumers[t] = append(g.topicConsumers[t], c)
			}
		}
	}
	topics := slices.Clone(k.in.topics)
	slices.SortStableFunc(topics, func(a, b string) int {
		if d := len(g.topicConsumers[a]) - len(g.topicConsumers[b]); d != 0 {
			return d
		}
		return javaCompareStrings(a, b)
	})
	g.sortedAll = k.allPartitions(topics)

	g.prepopulateCurrentAssignments(maxGeneration)
	// assignOwnedPartitions: a member keeps what it owns of the topics it
	// still subscribes to.
	for c, tps := range owned {
		g.active[c] = true
		for _, tp := range tps {
			if !k.subscribed[c][tp.Topic] {
				g.revocation = true
				continue
			}
			g.owner[g.at(tp)] = c
			g.count[c]++
		}
	}
	var unassigned []TopicPartition
	for _, tp := range g.sortedAll {
		if g.owner[g.at(tp)] < 0 {
			unassigned = append(unassigned, tp)
		}
	}
	for c := range k.in.members {
		g.insert(c)
	}
	g.balance(unassigned)
	out := make([][]TopicPartition, len(k.in.members))
	for i, c := range g.owner {
		if c >= 0 {
			out[c] = append(out[c], g.partitions[i])
		}
	}
	return out
}

// at is a partition's index.
func (g *generalBuilder) at(tp TopicPartition) int {
	return g.start[tp.Topic] + tp.Partition
}

// prepopulateCurrentAssignments is GeneralAssignmentBuilder's: what members
// of older generations owned, the newest claim of each partition (ties: the
// first in the subscriptions' order).
func (g *generalBuilder) prepopulateCurrentAssignments(maxGeneration int) {
	for _, c := range g.k.order {
		data := g.k.memberData(g.k.in.members[c])
		generation := 0
		switch {
		case data.present && data.generation < maxGeneration:
			generation = data.generation
		case !data.present && maxGeneration > noGeneration:
			generation = noGeneration
		default:
			continue
		}
		for _, tp := range data.partitions {
			if p, ok := g.prev[tp]; !ok || generation > p.generation {
				g.prev[tp] = prevOwner{c, generation}
			}
		}
	}
}

// less is SubscriptionComparator: fewer partitions first, then member id.
func (g *generalBuilder) less(a, b int) bool {
	if g.count[a] != g.count[b] {
		return g.count[a] < g.count[b]
	}
	return javaCompareStrings(g.k.in.members[a].ID, g.k.in.members[b].ID) < 0
}

// insert and remove keep sorted in the TreeSet's order; a member's count
// changes only while it is out of the set, as in Java.
func (g *generalBuilder) insert(c int) {
	i, _ := slices.BinarySearchFunc(g.sorted, c, func(x, c int) int {
		switch {
		case g.less(x, c):
			return -1
		case g.less(c, x):
			return 1
		}
		return 0
	})
	if i < len(g.sorted) && g.sorted[i] == c {
		return
	}
	g.sorted = slices.Insert(g.sorted, i, c)
}

func (g *generalBuilder) remove(c int) {
	if i := slices.Index(g.sorted, c); i >= 0 {
		g.sorted = slices.Delete(g.sorted, i, i+1)
	}
}

// maxAssignmentSize is getMaxAssignmentSize.
func (g *generalBuilder) maxAssignmentSize(c int) int {
	if len(g.potentialTopics[c]) == g.topicCount {
		return g.totalPartitions
	}
	n := 0
	for _, t := range g.potentialTopics[c] {
		n += g.k.in.counts[t]
	}
	return n
}

// subscribes is consumer2AllPotentialTopics.get(c).contains(topic).
func (g *generalBuilder) subscribes(c int, topic string) bool {
	return slices.Contains(g.potentialTopics[c], topic)
}

// assignTo is maybeAssignPartition: the least loaded member that can take
// the partition takes it.
func (g *generalBuilder) assignTo(tp TopicPartition) {
	for _, c := range g.sorted {
		if g.subscribes(c, tp.Topic) {
			g.remove(c)
			g.owner[g.at(tp)] = c
			g.count[c]++
			g.insert(c)
			return
		}
	}
}

func (g *generalBuilder) canTopicParticipate(topic string) bool {
	return len(g.topicConsumers[topic]) >= 2
}

func (g *generalBuilder) canConsumerParticipate(c int) bool {
	if g.count[c] < g.maxAssignmentSize(c) {
		return true
	}
	for i, o := range g.owner {
		if o == c && g.canTopicParticipate(g.partitions[i].Topic) {
			return true
		}
	}
	return false
}

// balance is GeneralAssignmentBuilder.balance without racks.
func (g *generalBuilder) balance(unassigned []TopicPartition) {
	initializing := len(g.sorted) == 0 || g.count[g.sorted[len(g.sorted)-1]] == 0
	for _, tp := range unassigned {
		if len(g.topicConsumers[tp.Topic]) > 0 {
			g.assignTo(tp)
		}
	}
	fixed := func(tp TopicPartition) bool { return !g.canTopicParticipate(tp.Topic) }
	g.sortedAll = slices.DeleteFunc(g.sortedAll, fixed)
	unassigned = slices.DeleteFunc(unassigned, fixed)
	var fixedMembers []int
	for _, c := range g.k.order {
		if !g.canConsumerParticipate(c) {
			g.remove(c)
			g.active[c] = false
			fixedMembers = append(fixedMembers, c)
		}
	}
	preOwner, preCount := slices.Clone(g.owner), slices.Clone(g.count)
	preScore := g.balanceScore()
	if !g.revocation {
		g.performReassignments(unassigned)
	}
	performed := g.performReassignments(g.sortedAll)
	if !initializing && performed && g.balanceScore() >= preScore {
		g.owner, g.count = preOwner, preCount
	}
	for _, c := range fixedMembers {
		g.active[c] = true
	}
}

// balanceScore is getBalanceScore: the sum, over pairs of members, of the
// difference of their counts.
func (g *generalBuilder) balanceScore() int {
	score := 0
	for a := range g.count {
		for b := a + 1; b < len(g.count); b++ {
			if g.active[a] && g.active[b] {
				score += abs(g.count[a] - g.count[b])
			}
		}
	}
	return score
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// isBalanced is GeneralAssignmentBuilder.isBalanced: counts differ by at
// most one, or no member could take a partition from one holding two more.
func (g *generalBuilder) isBalanced() bool {
	if len(g.sorted) == 0 {
		return true // Java would not get here: no partition is left to move
	}
	low, high := g.count[g.sorted[0]], g.count[g.sorted[len(g.sorted)-1]]
	if low >= high-1 {
		return true
	}
	for _, c := range g.sorted {
		if g.count[c] == g.maxAssignmentSize(c) {
			continue
		}
		for _, t := range g.potentialTopics[c] {
			first := g.start[t]
			for _, other := range g.owner[first : first+g.k.in.counts[t]] {
				if other != c && other >= 0 && g.count[c]+1 < g.count[other] {
					return false
				}
			}
		}
	}
	return true
}

// performReassignments is GeneralAssignmentBuilder.performReassignments:
// until balanced, a partition goes back to its owner of an older
// generation, or to the least loaded member, when its member holds two
// more than that one.
func (g *generalBuilder) performReassignments(partitions []TopicPartition) bool {
	performed := false
	// Java's loop ends when no pass moves a partition; each move lowers
	// the spread of counts, so this bound is never reached.
	for range len(g.partitions)*len(g.count) + 2 {
		modified := false
		for _, tp := range partitions {
			if g.isBalanced() {
				break
			}
			c := g.owner[g.at(tp)]
			if c < 0 {
				continue
			}
			// A previous owner set aside as fixed has no assignment in
			// Java's currentAssignment, and Java fails here with a
			// NullPointerException; the port passes over it.
			if p, ok := g.prev[tp]; ok && g.active[p.member] && g.count[c] > g.count[p.member]+1 {
				g.reassign(tp, p.member)
				performed, modified = true, true
				continue
			}
			for _, other := range g.topicConsumers[tp.Topic] {
				if g.count[c] > g.count[other]+1 {
					g.reassignToLeastLoaded(tp)
					performed, modified = true, true
					break
				}
			}
		}
		if !modified {
			break
		}
	}
	return performed
}

// reassignToLeastLoaded is reassignPartition(partition).
func (g *generalBuilder) reassignToLeastLoaded(tp TopicPartition) {
	for _, c := range g.sorted {
		if g.subscribes(c, tp.Topic) {
			g.reassign(tp, c)
			return
		}
	}
}

// reassign is reassignPartition(partition, newConsumer) and
// processPartitionMovement: the partition that moves is the one the
// movements so far say, so that no partition goes back and forth.
func (g *generalBuilder) reassign(tp TopicPartition, to int) {
	from := g.owner[g.at(tp)]
	tp = g.movements.actualPartitionToMove(tp, from, to)
	from = g.owner[g.at(tp)]
	g.remove(from)
	g.remove(to)
	g.movements.move(tp, from, to)
	g.count[from]--
	g.count[to]++
	g.owner[g.at(tp)] = to
	g.insert(to)
	g.insert(from)
}

// partitionMovements is AbstractStickyAssignor.PartitionMovements.
type partitionMovements struct {
	byTopic map[string]map[memberPair]*javaPartitionSet
	moved   map[TopicPartition]memberPair
}

// memberPair is ConsumerPair: a partition went from src to dst.
type memberPair struct {
	src, dst int
}

func newPartitionMovements() *partitionMovements {
	return &partitionMovements{byTopic: map[string]map[memberPair]*javaPartitionSet{}, moved: map[TopicPartition]memberPair{}}
}

func (pm *partitionMovements) removeRecord(tp TopicPartition) memberPair {
	pair := pm.moved[tp]
	delete(pm.moved, tp)
	forTopic := pm.byTopic[tp.Topic]
	if set := forTopic[pair]; set != nil {
		set.remove(tp)
		if set.empty() {
			delete(forTopic, pair)
		}
	}
	if len(forTopic) == 0 {
		delete(pm.byTopic, tp.Topic)
	}
	return pair
}

func (pm *partitionMovements) addRecord(tp TopicPartition, pair memberPair) {
	pm.moved[tp] = pair
	forTopic := pm.byTopic[tp.Topic]
	if forTopic == nil {
		forTopic = map[memberPair]*javaPartitionSet{}
		pm.byTopic[tp.Topic] = forTopic
	}
	set := forTopic[pair]
	if set == nil {
		set = newJavaPartitionSet()
		forTopic[pair] = set
	}
	set.add(tp)
}

// move is movePartition.
func (pm *partitionMovements) move(tp TopicPartition, from, to int) {
	if _, ok := pm.moved[tp]; ok {
		existing := pm.removeRecord(tp)
		if existing.src != to {
			pm.addRecord(tp, memberPair{existing.src, to})
		}
		return
	}
	pm.addRecord(tp, memberPair{from, to})
}

// actualPartitionToMove is getTheActualPartitionToBeMoved: if a partition
// of the topic went from to to from already, that one goes back instead.
func (pm *partitionMovements) actualPartitionToMove(tp TopicPartition, from, to int) TopicPartition {
	forTopic, ok := pm.byTopic[tp.Topic]
	if !ok {
		return tp
	}
	if pair, ok := pm.moved[tp]; ok {
		from = pair.src
	}
	set, ok := forTopic[memberPair{to, from}]
	if !ok {
		return tp
	}
	return set.first()
}
