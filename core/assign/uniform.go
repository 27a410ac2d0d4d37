package assign

import "errors"

// The uniform assignor (UniformAssignor, kafka-group-coordinator 4.4.0):
// the homogeneous builder when every member subscribes to the same topics,
// the heterogeneous one (uniform_heterogeneous.go) otherwise. Both put
// balance first and stickiness second: a member keeps what its current
// target holds unless that would leave the group unbalanced.

// assignUniformHomogeneous is UniformHomogeneousAssignmentBuilder.build
// (Kafka 4.4): every member gets total/members partitions and
// total%members members (in memberIds() order) one more, an extra going to
// a member that already holds it unless too few members are left for the
// extras; a member keeps its current target up to its quota (its topics
// and partitions taken in its map's and sets' iteration order), and what
// is left over, the unassigned partitions first and then what members gave
// up, goes to the members below their quota in order.
func (g serverGroup) assignUniformHomogeneous() (Assignment, error) {
	// new HashSet<>(first member's subscribedTopicIds()).
	subscribedSet := newJavaSetOf[string](len(g.subs[0]))
	for _, t := range g.subs[0] {
		subscribedSet.put(t, javaSpread(g.ids[t].javaHash()))
	}
	subscribed := subscribedSet.keys()
	if len(subscribed) == 0 {
		return g.emptyAssignment(), nil
	}
	assigned := g.assigned()
	var unassigned []TopicPartition
	total := 0
	for _, t := range subscribed {
		for p := range g.counts[t] {
			if !assigned[t][p] {
				unassigned = append(unassigned, TopicPartition{t, p})
			}
		}
		total += g.counts[t]
	}
	memberCount := len(g.members)
	minimumQuota, extraLeft := total/memberCount, total%memberCount

	// maybeRevokePartitions.
	type unfilledMember struct{ index, quota int }
	var unfilled []unfilledMember
	targets := make([]*javaAssignment, memberCount)
	for i := range g.members {
		old := g.javaFromRecord(g.target[i])
		target := old
		quota, hasExtra := minimumQuota, false
		if extraLeft > 0 {
			quota, hasExtra = quota+1, true
		}
		for _, t := range old.topics.keys() {
			if !subscribedSet.has(t) {
				target = target.mutable()
				target.removeTopic(t)
				continue
			}
			ps := old.partitions[t]
			if len(ps.entries) <= quota {
				quota -= len(ps.entries)
				continue
			}
			for _, p := range ps.keys() {
				if quota > 0 {
					quota--
					continue
				}
				target = target.mutable()
				target.removePartition(t, p)
				unassigned = append(unassigned, TopicPartition{t, p})
			}
		}
		// A member that cannot fill its extra partition from what it
		// keeps gives the extra up when enough members follow it to take
		// the extras left.
		if quota > 0 && hasExtra && memberCount-i > extraLeft {
			quota, hasExtra = quota-1, false
		}
		if quota > 0 {
			unfilled = append(unfilled, unfilledMember{i, quota})
		}
		if hasExtra {
			extraLeft--
		}
		targets[i] = target
	}

	// assignRemainingPartitions.
	next := 0
	for _, u := range unfilled {
		target := targets[u.index].mutable()
		targets[u.index] = target
		for n := 0; n < u.quota && next < len(unassigned); n++ {
			target.add(g, unassigned[next].Topic, unassigned[next].Partition, newJavaTable[int])
			next++
		}
	}
	if next < len(unassigned) {
		//lint:ignore ST1005 Kafka's own words (PartitionAssignorException)
		return nil, errors.New("Partitions were left unassigned")
	}
	return g.records(targets), nil
}
