package lesson

import (
	"fmt"
	"slices"

	"plog/core"
	"plog/core/units"
)

// The checks about Kafka 4's consumer group protocol (KIP-848,
// core/group_consumer.go): a group the coordinator assigns, whose members
// reconcile one by one at their heartbeats.

var consumerChecks = []*checkSpec{
	{name: "consumer-stable", usage: "consumer-stable GROUP", min: 1, max: 1,
		help:   "group GROUP runs the consumer protocol (group.protocol=consumer) and is Stable: every member is at the target assignment's epoch, with nothing left to revoke or to be given",
		values: []string{"epoch", "assignor"}, run: checkConsumerStable},
	{name: "kept-partitions", usage: "kept-partitions GROUP", min: 1, max: 1,
		help:   "every member of GROUP that ran at the lesson's start and runs now owns every partition it owned then: only the partitions of members that stopped or left moved",
		values: []string{"kept", "moved"}, run: checkKeptPartitions},
}

func checkConsumerStable(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	x.keep(c, "epoch", fmt.Sprint(v.GroupEpoch))
	x.keep(c, "assignor", v.Assignor)
	if v.Protocol != core.ProtocolConsumer {
		return pending("group %s runs the %s protocol: its members must join with group.protocol=consumer", v.Name, v.Protocol)
	}
	if v.State != core.GroupStable {
		var moving []string
		for _, m := range v.Members {
			if m.Down == "" && (len(m.PendingRevoke) > 0 || len(m.PendingAssign) > 0 || m.Epoch != v.AssignmentEpoch) {
				moving = append(moving, m.ID)
			}
		}
		return pending("group %s is %s at group epoch %d: %s must reach the target assignment's epoch %d at their next heartbeats: advance the clock a few seconds",
			v.Name, v.State, v.GroupEpoch, units.Join(moving), v.AssignmentEpoch)
	}
	return solved("group %s is stable at epoch %d (assignor %s)", v.Name, v.GroupEpoch, v.Assignor)
}

func checkKeptPartitions(x *ctx, c *check) Result {
	v, missing := groupOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	b, _ := x.baseline().Group(v.Name)
	kept, moved := 0, 0
	for _, was := range b.Members {
		now, ok := member(v, was.ID)
		if !ok || now.Down != "" || was.Down != "" {
			moved += len(was.Assignment)
			continue
		}
		for _, tp := range was.Assignment {
			if !slices.Contains(now.Assignment, tp) {
				x.keep(c, "kept", fmt.Sprint(kept))
				return pending("%s owned %s at the start and no longer does: a running member gave up a partition", now.ID, tp)
			}
			kept++
		}
	}
	x.keep(c, "kept", units.Plural(int64(kept), "partition"))
	x.keep(c, "moved", units.Plural(int64(moved), "partition"))
	if moved == 0 {
		return pending("every member of group %s that ran at the start still runs: stop or remove one", v.Name)
	}
	return solved("the members of group %s that kept running kept their %s; %s of the members that stopped or left moved", v.Name, units.Plural(int64(kept), "partition"), units.Plural(int64(moved), "partition"))
}
