package app

import "plog/core"

// Partition motions: what a rebalance did to a member's assignment, for the
// drawn assignment to show it ([data-motion=arriving|leaving], motion.css).
const (
	motionArriving = "arriving" // the member got the partition
	motionLeaving  = "leaving"  // the member lost it
)

// assignmentKey names one member's assignment of one partition.
type assignmentKey struct {
	Group, Member string
	Partition     core.TopicPartition
}

// assignmentMotions compares the groups before and after a command: each
// partition a member got is arriving, each one it lost (leaving the group
// included) is leaving. A command that moved nothing gives nil.
func assignmentMotions(before, after []GroupSnapshot) map[assignmentKey]string {
	var motions map[assignmentKey]string
	note := func(k assignmentKey, motion string) {
		if motions == nil {
			motions = map[assignmentKey]string{}
		}
		motions[k] = motion
	}
	had := assignments(before)
	has := assignments(after)
	for k := range has {
		if !had[k] {
			note(k, motionArriving)
		}
	}
	for k := range had {
		if !has[k] {
			note(k, motionLeaving)
		}
	}
	return motions
}

// assignments is every member's assignment of every group, as a set.
func assignments(groups []GroupSnapshot) map[assignmentKey]bool {
	set := map[assignmentKey]bool{}
	for _, g := range groups {
		for _, m := range g.Members {
			for _, tp := range m.Assignment {
				set[assignmentKey{Group: g.Name, Member: m.ID, Partition: tp}] = true
			}
		}
	}
	return set
}

// laneMotions is what the last command's moves did to one partition, by
// group: arriving when a member of the group got it, leaving when one lost
// it and none got it. The lane's group mark shows it; nil when nothing
// moved there.
func (l Landing) laneMotions(topic string, partition int) map[string]string {
	var motions map[string]string
	tp := core.TopicPartition{Topic: topic, Partition: partition}
	for k, motion := range l.Moves {
		if k.Partition != tp || motions[k.Group] == motionArriving {
			continue
		}
		if motions == nil {
			motions = map[string]string{}
		}
		motions[k.Group] = motion
	}
	return motions
}
