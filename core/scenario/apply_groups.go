package scenario

import (
	"fmt"
	"sort"

	"plog/core"
)

// applyGroupCommand runs the consumer group commands.
func (w *world) applyGroupCommand(c Command) error {
	group, second := c.Positional(0), c.Positional(1)
	switch c.Name {
	case CmdJoin:
		topics, err := c.Names("topics")
		if err != nil {
			return err
		}
		opts := core.JoinOptions{Topics: topics}
		opts.Strategy, _ = c.Value("strategy")
		opts.InstanceID, _ = c.Value("instance")
		opts.Protocol, _ = c.Value("group.protocol")
		opts.RemoteAssignor, _ = c.Value("group.remote.assignor")
		return w.log.Join(group, second, opts)
	case CmdLeave:
		if err := w.log.Leave(group, second); err != nil {
			return err
		}
		w.stopConsumer(group, second)
		return nil
	case CmdCrash:
		if err := w.log.Crash(group, second); err != nil {
			return err
		}
		w.stopConsumer(group, second)
		return nil
	case CmdPoll:
		max, err := c.CountOr("max", defaultPollMax)
		if err != nil {
			return err
		}
		return w.poll(group, second, int(max), false)
	case CmdCommit:
		if c.Has("epoch") {
			epoch, err := c.Count("epoch")
			if err != nil {
				return err
			}
			return w.log.CommitWithEpoch(group, second, int(epoch))
		}
		if !c.Has("offset") {
			return w.log.Commit(group, second)
		}
		topic, partition, offset, err := c.PartitionOffset(1, "offset")
		if err != nil {
			return err
		}
		return w.log.CommitOffset(group, topic, partition, offset)
	case CmdDeleteGroup:
		return w.log.DeleteGroup(group)
	case CmdReset:
		spec, err := resetSpec(c)
		if err != nil {
			return err
		}
		return w.log.ResetOffsets(group, spec)
	}
	return &Error{Line: c.Line, Col: c.Col, Msg: "no way to apply " + c.Name}
}

// resetSpec reads a reset command: reset GROUP to-earliest | to-latest |
// to-offset=N | to-datetime=T [topic=T[/P]].
func resetSpec(c Command) (core.ResetSpec, error) {
	var spec core.ResetSpec
	var err error
	switch {
	case c.HasFlag("to-earliest"):
		spec.To = core.ResetToEarliest
	case c.HasFlag("to-latest"):
		spec.To = core.ResetToLatest
	case c.Has("to-offset"):
		spec.To = core.ResetToOffset
		spec.Offset, err = c.Count("to-offset")
	case c.Has("to-datetime"):
		spec.To = core.ResetToDatetime
		spec.Datetime, err = c.Duration("to-datetime")
	}
	if err != nil {
		return spec, err
	}
	if c.Has("topic") {
		topic, partition, err := c.TopicOrPartition("topic")
		if err != nil {
			return spec, err
		}
		spec.Topic = topic
		if partition >= 0 {
			spec.Partitions = []int{partition}
		}
	}
	return spec, nil
}

// poll polls for a member and, when asked, commits what it got. The poll
// and its records count as work (MaxWork), a refused poll too.
func (w *world) poll(group, member string, max int, commit bool) error {
	if err := w.spend(PollWork); err != nil {
		return err
	}
	deliveries, err := w.log.Poll(group, member, max)
	if err != nil {
		return err
	}
	if err := w.spend(int64(len(deliveries))); err != nil {
		return err
	}
	if commit {
		return w.log.Commit(group, member)
	}
	return nil
}

// configGroup sets several group configs at once, all or none: the values
// are first tried on a scratch group, where the engine checks them.
func (w *world) configGroup(c Command) error {
	group := c.Positional(1)
	scratch := core.NewPartitionedLog(0)
	for _, a := range c.Args[2:] {
		if err := scratch.SetGroupConfig(group, a.Name, a.Value); err != nil {
			return err
		}
	}
	for _, a := range c.Args[2:] {
		if err := w.log.SetGroupConfig(group, a.Name, a.Value); err != nil {
			return err
		}
	}
	return nil
}

// checkMember makes sure a member is in a group and running, before a
// consumer workload polls for it.
func (w *world) checkMember(group, member string) error {
	v, err := w.log.Group(group)
	if err != nil {
		return err
	}
	for _, m := range v.Members {
		if m.ID == member {
			if m.Down != "" {
				return fmt.Errorf("member %s of group %q is down (%s)", member, group, m.Down)
			}
			return nil
		}
	}
	return fmt.Errorf("group %q has no member %q: join it first", group, member)
}

// groupStates reads every group for the snapshot.
func groupStates(l core.ReadOnlyLog) []GroupState {
	states := []GroupState{}
	for _, name := range l.GroupNames() {
		v, err := l.Group(name)
		if err != nil {
			continue
		}
		g := GroupState{
			Name: v.Name, Generation: v.Generation, Strategy: v.Strategy, State: v.State,
			Members: []MemberState{}, Offsets: []OffsetState{},
			TotalLag: v.TotalLag, Alert: v.Alert,
		}
		consumer := v.Protocol == core.ProtocolConsumer
		if consumer {
			epoch, assignmentEpoch := v.GroupEpoch, v.AssignmentEpoch
			g.Protocol, g.GroupEpoch, g.AssignmentEpoch, g.Assignor = v.Protocol, &epoch, &assignmentEpoch, v.Assignor
		}
		for _, m := range v.Members {
			ms := MemberState{ID: m.ID, MemberID: m.MemberID, Instance: m.InstanceID, Down: m.Down, Assignment: []AssignmentState{}}
			if m.EmptyPoll != "" {
				ms.EmptyPoll = &EmptyPollState{TimeMs: m.EmptyPollAt, Why: m.EmptyPoll}
			}
			ms.Assignment = assignmentStates(m.Assignment)
			if consumer {
				epoch := m.Epoch
				ms.Epoch, ms.MemberState, ms.Protocol = &epoch, m.MemberState, m.Protocol
				ms.Target, ms.PendingRevoke, ms.PendingAssign = assignmentStates(m.Target), assignmentStates(m.PendingRevoke), assignmentStates(m.PendingAssign)
			}
			g.Members = append(g.Members, ms)
		}
		sort.Slice(g.Members, func(i, j int) bool { return g.Members[i].ID < g.Members[j].ID })
		for _, p := range v.Partitions {
			o := OffsetState{Topic: p.Topic, Partition: p.Partition, LogEndOffset: p.HighWatermark, Owner: p.Owner}
			if p.HasCommitted {
				committed, lag, lagMs := p.Committed, p.Lag, p.TimeLagMs
				o.Committed, o.Lag, o.LagMs = &committed, &lag, &lagMs
			}
			g.Offsets = append(g.Offsets, o)
		}
		states = append(states, g)
	}
	sort.Slice(states, func(i, j int) bool { return states[i].Name < states[j].Name })
	return states
}

// assignmentStates groups partitions by topic, sorted.
func assignmentStates(tps []core.TopicPartition) []AssignmentState {
	states := []AssignmentState{}
	for _, tp := range sortedPartitions(tps) {
		if n := len(states); n == 0 || states[n-1].Topic != tp.Topic {
			states = append(states, AssignmentState{Topic: tp.Topic})
		}
		a := &states[len(states)-1]
		a.Partitions = append(a.Partitions, tp.Partition)
	}
	return states
}

// sortedPartitions returns a copy sorted by topic, then partition.
func sortedPartitions(tps []core.TopicPartition) []core.TopicPartition {
	out := append([]core.TopicPartition(nil), tps...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Topic != out[j].Topic {
			return out[i].Topic < out[j].Topic
		}
		return out[i].Partition < out[j].Partition
	})
	return out
}
