package assign

import (
	"errors"
	"slices"
)

// The uniform assignor (UniformAssignor, kafka-group-coordinator 4.4.0):
// the homogeneous builder when every member subscribes to the same topics,
// the heterogeneous one (uniform_heterogeneous.go) otherwise. Both put
// balance first and stickiness second: a member keeps what its current
// target holds unless that would leave the group unbalanced.

// assignUniformHomogeneous is UniformHomogeneousAssignmentBuilder.build
// (Kafka 4.4): every member gets total/members partitions, the first
// total%members members (in memberIds() order) that can one more; a member
// keeps its current target up to its quota, and what is left over, the
// unassigned partitions first and then what members gave up, goes to the
// members below their quota in order.
func (g serverGroup) assignUniformHomogeneous() (Assignment, error) {
	// new HashSet<>(first member's subscribedTopicIds()).
	subscribed := g.javaTopicOrder(g.subs[0], true)
	if len(subscribed) == 0 {
		return g.emptyAssignment(), nil
	}
	isSubscribed := map[string]bool{}
	for _, t := range subscribed {
		isSubscribed[t] = true
	}
	assigned := g.assigned()
	var unassigned []TopicPartition
	total := 0
	for _, t := range subscribed {
		for p := range g.counts[t] {
			if !assigned[TopicPartition{t, p}] {
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
	out := g.emptyAssignment()
	for i, m := range g.members {
		quota, hasExtra := minimumQuota, false
		if extraLeft > 0 {
			quota, hasExtra = quota+1, true
		}
		var kept []TopicPartition
		for _, t := range g.javaTopicOrder(sortedKeys(g.target[i]), false) {
			if !isSubscribed[t] {
				continue // the whole topic goes
			}
			ps := g.target[i][t]
			if len(ps) <= quota {
				quota -= len(ps)
				for _, p := range ps {
					kept = append(kept, TopicPartition{t, p})
				}
				continue
			}
			for _, p := range javaPartitionOrder(ps) {
				if quota > 0 {
					quota--
					kept = append(kept, TopicPartition{t, p})
				} else {
					unassigned = append(unassigned, TopicPartition{t, p})
				}
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
		out[m.ID] = append(out[m.ID], kept...)
	}

	// assignRemainingPartitions.
	next := 0
	for _, u := range unfilled {
		for n := 0; n < u.quota && next < len(unassigned); n++ {
			id := g.members[u.index].ID
			out[id] = append(out[id], unassigned[next])
			next++
		}
	}
	if next < len(unassigned) {
		return nil, errors.New("Partitions were left unassigned")
	}
	return out, nil
}

// sortedKeys is a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
