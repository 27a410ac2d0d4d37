package core

import "slices"

// simpleAssign is Kafka 4.4's SimpleAssignor for share groups
// (org.apache.kafka.coordinator.group.assignor.SimpleAssignor, with
// SimpleHomogeneousAssignmentBuilder when every member subscribes to the
// same topics, SimpleHeterogeneousAssignmentBuilder per topic otherwise).
// It spreads partitions over members so that each partition is shared by
// desiredSharing = ceil(members / partitions) members: with no more
// members than partitions, each partition goes to one member; with more,
// members share partitions, so every member gets work. It keeps what each
// member had where it can (sticky). Kafka walks hash sets of member
// indexes and partitions; the playground walks members in join order and
// partitions in topic, partition order, so that a scenario always assigns
// the same way. It returns each member's partitions, sorted, in the order
// of g.members.
func (l *PartitionedLog) simpleAssign(g *shareGroup) [][]TopicPartition {
	n := len(g.members)
	out := make([][]TopicPartition, n)
	if n == 0 {
		return out
	}
	homogeneous := true
	for _, m := range g.members {
		homogeneous = homogeneous && slices.Equal(m.topics, g.members[0].topics)
	}
	var topics []string
	for _, m := range g.members {
		for _, t := range m.topics {
			if !slices.Contains(topics, t) {
				topics = append(topics, t)
			}
		}
	}
	slices.Sort(topics)
	partitionsOf := func(ts []string) []TopicPartition {
		var tps []TopicPartition
		for _, t := range ts {
			count, err := l.Partitions(t)
			if err != nil {
				continue
			}
			for p := range count {
				tps = append(tps, TopicPartition{Topic: t, Partition: p})
			}
		}
		return tps
	}
	if homogeneous {
		all := make([]int, n)
		for i := range all {
			all[i] = i
		}
		assignShared(g, all, partitionsOf(topics), out)
	} else {
		for _, t := range topics {
			var subscribed []int
			for i, m := range g.members {
				if slices.Contains(m.topics, t) {
					subscribed = append(subscribed, i)
				}
			}
			assignShared(g, subscribed, partitionsOf([]string{t}), out)
		}
	}
	for i := range out {
		sortTopicPartitions(out[i])
	}
	return out
}

// assignShared assigns targets to the members (indexes of g.members) as
// SimpleHomogeneousAssignmentBuilder.build does: keep each member's
// current partitions that are still targets, up to its desired count;
// revoke from partitions shared by more than desiredSharing members; then
// fill the partitions short of members with the members short of
// partitions, round after round.
func assignShared(g *shareGroup, members []int, targets []TopicPartition, out [][]TopicPartition) {
	if len(members) == 0 || len(targets) == 0 {
		return
	}
	sharing := (len(members) + len(targets) - 1) / len(targets)
	// desiredAssignmentCount: ceil(p*(i+1)) - ceil(p*i) with p the
	// precise count sharing*partitions/members, in integers.
	total := sharing * len(targets)
	desired := make(map[int]int, len(members))
	for i, m := range members {
		desired[m] = ceilDiv(total*(i+1), len(members)) - ceilDiv(total*i, len(members))
	}
	isTarget := make(map[TopicPartition]bool, len(targets))
	for _, tp := range targets {
		isTarget[tp] = true
	}
	byPartition := make(map[TopicPartition][]int, len(targets))
	byMember := make(map[int][]TopicPartition, len(members))
	// revokeUnassignablePartitions and revokeOverfilledMembers: a member
	// keeps its current target partitions, up to its desired count.
	for _, m := range members {
		for _, tp := range g.members[m].assignment {
			if isTarget[tp] && len(byMember[m]) < desired[m] {
				byMember[m] = append(byMember[m], tp)
				byPartition[tp] = append(byPartition[tp], m)
			}
		}
	}
	// revokeOversharedPartitions: a partition keeps desiredSharing members.
	for _, tp := range targets {
		for len(byPartition[tp]) > sharing {
			m := byPartition[tp][0]
			byPartition[tp] = byPartition[tp][1:]
			byMember[m] = slices.DeleteFunc(byMember[m], func(x TopicPartition) bool { return x == tp })
		}
	}
	// assignRemainingPartitions: walk the partitions; give each one short
	// of members the next unfilled member that does not have it yet,
	// going round the unfilled members again while a round assigned
	// something.
	var unfilled []int
	for _, m := range members {
		if len(byMember[m]) < desired[m] {
			unfilled = append(unfilled, m)
		}
	}
	next, assignedThisRound := 0, false
	for _, tp := range targets {
		if len(unfilled) == 0 {
			break
		}
		for need := sharing - len(byPartition[tp]); need > 0; {
			if next >= len(unfilled) {
				if !assignedThisRound {
					break
				}
				next, assignedThisRound = 0, false
				if len(unfilled) == 0 {
					break
				}
			}
			m := unfilled[next]
			if slices.Contains(byPartition[tp], m) {
				next++
				continue
			}
			byPartition[tp] = append(byPartition[tp], m)
			byMember[m] = append(byMember[m], tp)
			need--
			assignedThisRound = true
			if len(byMember[m]) >= desired[m] {
				unfilled = slices.Delete(unfilled, next, next+1)
			} else {
				next++
			}
		}
	}
	for _, m := range members {
		out[m] = append(out[m], byMember[m]...)
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
