package assign

import "slices"

// assignRange is the consumer protocol's range assignor (RangeAssignor,
// kafka-group-coordinator 4.4.0, not the client's RangeAssignor of
// assign.go): members sorted as sortMemberIds sorts them, static members
// first by group.instance.id, then dynamic members by member id; each
// topic's partitions are cut into consecutive ranges, one per subscriber
// in that order, the first partitions%subscribers ranges one longer. It
// ignores the current target assignment.
func (g serverGroup) assignRange() Assignment {
	order := make([]int, len(g.members))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		ma, mb := g.members[a], g.members[b]
		switch {
		case ma.InstanceID != "" && mb.InstanceID != "":
			return javaCompareStrings(ma.InstanceID, mb.InstanceID)
		case ma.InstanceID != "":
			return -1
		case mb.InstanceID != "":
			return 1
		}
		return javaCompareStrings(ma.ID, mb.ID)
	})
	// TopicMetadata: a topic's subscribers, and the next range to give.
	// (In a homogeneous group every member subscribes to every topic, so
	// assignHomogeneousGroup's count of all members is the same count.)
	subscribers := map[string]int{}
	for _, i := range order {
		for _, t := range g.subs[i] {
			subscribers[t]++
		}
	}
	next, extra := map[string]int{}, map[string]int{}
	for t, n := range subscribers {
		extra[t] = g.counts[t] % n
	}
	out := g.emptyAssignment()
	for _, i := range order {
		id := g.members[i].ID
		topics := g.subs[i]
		if g.homogeneous {
			topics = g.subs[order[0]] // assignHomogeneousGroup's topic list
		}
		// new HashMap<>(topics/0.75 + 1) of RangeSets, which iterate in
		// order: the record's order.
		record := newJavaTableFor[string](int(float32(len(topics))/0.75 + 1))
		ranges := map[string][2]int{}
		for _, t := range topics {
			quota := g.counts[t] / subscribers[t]
			if extra[t] > 0 {
				quota++
				extra[t]--
			}
			start := next[t]
			end := min(start+quota, g.counts[t])
			next[t] = end
			if start < end {
				record.put(t, javaSpread(g.ids[t].javaHash()))
				ranges[t] = [2]int{start, end}
			}
		}
		for _, t := range record.keys() {
			for p := ranges[t][0]; p < ranges[t][1]; p++ {
				out[id] = append(out[id], TopicPartition{t, p})
			}
		}
	}
	return out
}
