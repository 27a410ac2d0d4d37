package kafkarun

import (
	"fmt"
	"slices"

	"plog/core"
	"plog/core/scenario"
)

// Reason is why a difference between the playground and the cluster is
// expected. The comparison gives each difference the reason marked on what
// differs; a difference with no reason is one that should not be.
type Reason string

// The reasons. Each says what the script cannot control on a cluster, or
// what the run does not do there.
const (
	ReasonRebalanceTiming Reason = "on a cluster a rebalance ends when the members have rejoined, " +
		"not when the script advances the clock, so what a poll or commit during one sees differs"
	ReasonCrash Reason = "a crashed member's client closes and leaves the group at once; " +
		"the playground, like Kafka after a real crash, waits for session.timeout.ms"
	ReasonRetention Reason = "the broker deletes segments on its own schedule and wall-clock time, " +
		"not the playground's virtual clock"
	ReasonCompaction Reason = "the broker's cleaner runs on its own schedule, over its own segments"
	ReasonWorkload   Reason = "workloads (producer, consumer) are not run on a cluster"
	ReasonSticky     Reason = "the sticky partitioner sends keyless records to a partition it picks at random"
	ReasonPollOrder  Reason = "which partitions a poll limited by max reads first is the client's fetch order"
	ReasonAutoCommit Reason = "auto-commit follows the wall clock on a cluster, the virtual clock in the playground"
	ReasonDatetime   Reason = "reset to-datetime is in virtual time, which the cluster's record timestamps do not follow"
	ReasonBrokers    Reason = "broker failures (crash, isolate, slow) are not run on a cluster: " +
		"what the playground's replicas lost, refused or held back below the high watermark, the cluster keeps"
)

// marks records, while the script runs, what may differ and why, and what
// was not run or not sent.
type marks struct {
	topics     map[string]Reason
	partitions map[tp]Reason
	groups     map[string]Reason
	notes      []string
	advancedMs int64
	// brokerFailures is set once the script fails a broker: from then on
	// any topic's log may differ.
	brokerFailures bool
}

func newMarks() marks {
	return marks{topics: map[string]Reason{}, partitions: map[tp]Reason{}, groups: map[string]Reason{}}
}

// note adds a line to what the comparison reports as not run or not
// compared, once.
func (m *marks) note(line string) {
	if !slices.Contains(m.notes, line) {
		m.notes = append(m.notes, line)
	}
}

// The first reason marked on a thing stays: it is where the two sides
// parted.
func (m *marks) topic(name string, why Reason) {
	if _, ok := m.topics[name]; !ok {
		m.topics[name] = why
	}
}

func (m *marks) partition(t tp, why Reason) {
	if _, ok := m.partitions[t]; !ok {
		m.partitions[t] = why
	}
}

func (m *marks) group(name string, why Reason) {
	if _, ok := m.groups[name]; !ok {
		m.groups[name] = why
	}
}

// partitionReason is why a partition's log may differ, "" if it should not.
func (m *marks) partitionReason(t tp) Reason {
	if why, ok := m.partitions[t]; ok {
		return why
	}
	if why, ok := m.topics[t.topic]; ok {
		return why
	}
	if m.brokerFailures {
		return ReasonBrokers
	}
	return ""
}

// offsetReason is why a group's offset on a partition may differ.
func (m *marks) offsetReason(group string, t tp) Reason {
	if why, ok := m.groups[group]; ok {
		return why
	}
	return m.partitionReason(t)
}

// markBefore looks at the playground before a command. A poll or commit
// while the group rebalances sees what a cluster, which settles first, does
// not. A membership change while the group rebalances folds into that
// rebalance in the playground, while on a cluster it may come after it:
// range and roundrobin do not care, but the sticky assignors build on the
// assignment before, so theirs may differ.
func (r *runner) markBefore(c scenario.Command) {
	v, err := r.session.Log().Group(c.Positional(0))
	if err != nil || v.State != core.GroupRebalancing {
		return
	}
	switch c.Name {
	case scenario.CmdPoll, scenario.CmdCommit:
		r.marks.group(v.Name, ReasonRebalanceTiming)
		r.marks.note(fmt.Sprintf("line %d: %s: the playground's group %s was still rebalancing; advance past its rebalance.ms before it to compare", c.Line, c, v.Name))
	case scenario.CmdJoin, scenario.CmdLeave, scenario.CmdCrash:
		if v.Strategy == core.StrategySticky || v.Strategy == core.StrategyCooperativeSticky {
			r.marks.group(v.Name, ReasonRebalanceTiming)
		}
	}
}

// markAfter records what a command the playground applied means for the
// comparison, from the command and the events it caused.
func (r *runner) markAfter(c scenario.Command, events []core.Event) error {
	for _, e := range events {
		switch e.Kind {
		case core.EventSegmentDeleted:
			r.marks.partition(tp{e.Topic, e.Partition}, ReasonRetention)
		case core.EventCompacted:
			r.marks.partition(tp{e.Topic, e.Partition}, ReasonCompaction)
		}
	}
	switch c.Name {
	case scenario.CmdAdvance:
		ms, err := c.DurationAt(0)
		if err != nil {
			return err
		}
		r.marks.advancedMs += ms
	case scenario.CmdBroker:
		r.marks.brokerFailures = true
		r.marks.note(fmt.Sprintf("line %d: %s: not run; the cluster's brokers stay up", c.Line, c))
	case scenario.CmdBrokers:
		r.marks.note(fmt.Sprintf("line %d: %s: not run; the cluster has the brokers it has", c.Line, c))
	case scenario.CmdCompact:
		r.marks.note("compact " + c.Positional(0) + ": not run; the broker's cleaner compacts on its own schedule")
	case scenario.CmdProducer:
		r.marks.topic(c.Positional(1), ReasonWorkload)
		r.marks.note(fmt.Sprintf("producer %s: not run on the cluster", c.Positional(0)))
	case scenario.CmdConsumer:
		r.marks.group(c.Positional(0), ReasonWorkload)
		r.marks.note(fmt.Sprintf("consumer %s %s: not run on the cluster", c.Positional(0), c.Positional(1)))
	case scenario.CmdCrash:
		r.marks.group(c.Positional(0), ReasonCrash)
	case scenario.CmdLeave:
		if r.isStatic(c.Positional(0), c.Positional(1)) {
			// A static member sends no LeaveGroup: it stays until its
			// session times out, in virtual time in the playground and
			// in wall-clock time on the cluster.
			r.marks.group(c.Positional(0), ReasonRebalanceTiming)
		}
	case scenario.CmdProduce:
		keyed, explicit := c.Has("key"), c.Has("partition")
		partitioner, _ := c.Value("partitioner")
		// Under rules 2 keyless records go through the built-in
		// partitioner, whose choices are random too (core/partitioner_builtin.go).
		builtIn := r.session.Rules() >= core.RulesV2 && partitioner != core.PartitionerRoundRobin
		if cfg, err := r.session.Log().TopicConfig(c.Positional(0)); err == nil && !keyed && !explicit && (cfg.Partitioner == core.PartitionerSticky || builtIn) {
			r.marks.topic(c.Positional(0), ReasonSticky)
		}
	case scenario.CmdReset:
		if c.Has("to-datetime") {
			r.marks.group(c.Positional(0), ReasonDatetime)
			r.marks.note("reset " + c.Positional(0) + " to-datetime: not run on the cluster")
		}
	case scenario.CmdConfig:
		if c.Positional(0) != "group" || !c.Has("auto.commit") {
			break
		}
		on, err := c.Bool("auto.commit")
		if err != nil {
			return err
		}
		if on {
			r.marks.group(c.Positional(1), ReasonAutoCommit)
		}
	case scenario.CmdPoll:
		return r.markPollOrder(c, events)
	}
	return nil
}

// markPollOrder marks a group whose poll stopped at max while the member
// owned more than one partition: which records it got depends on the order
// the client reads partitions in.
func (r *runner) markPollOrder(c scenario.Command, events []core.Event) error {
	group, name := c.Positional(0), c.Positional(1)
	max, err := c.CountOr("max", maxPollRecords)
	if err != nil {
		return err
	}
	var delivered int64
	for _, e := range events {
		if e.Kind == core.EventDelivered {
			delivered++
		}
	}
	v, err := r.session.Log().Group(group)
	if err != nil || delivered < max {
		return nil // the poll found no group, or stopped short of max: nothing depends on the order
	}
	for _, m := range v.Members {
		if m.ID == name && len(m.Assignment) > 1 {
			r.marks.group(group, ReasonPollOrder)
		}
	}
	return nil
}
