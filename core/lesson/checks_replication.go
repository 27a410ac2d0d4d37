package lesson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"
)

// The checks about replication: what the producer's acks promise when a
// partition's leader fails, read from a replay of the script.

// election is one change of a partition's leader, read from a replay of
// the script: what the partition looked like just before, and what the
// change cost.
type election struct {
	partition int
	crashed   int // the broker whose crash caused it; 0 when none did
	leader    int // the new leader
	// clean: the new leader was in the ISR just before.
	clean  bool
	isr    []int // the ISR just before
	minISR int64 // min.insync.replicas just before
	// lost counts the records the new leader lacked; ackedLost those of
	// them whose producers had been told they were written.
	lost, ackedLost int64
	// guarded counts the acks=all records acknowledged under
	// min.insync.replicas of 2 or more since the previous election.
	guarded int64
	// failed counts the acks=all records still waiting, which the
	// leader's fall answered with an error.
	failed int64
}

// replicationHistory is what a replay of the script says about a topic's
// leaders.
type replicationHistory struct {
	elections []election
	// guarded counts, per partition, the acks=all records acknowledged
	// under min.insync.replicas of 2 or more since its last election.
	guarded map[int]int64
}

// leaderChanges replays the script and follows the leaders of a topic's
// partitions. Whether an acknowledged record was lost is read from what
// the producers had been told just before the election, the state the
// previous command left.
func (c *ctx) leaderChanges(topic string) replicationHistory {
	h := replicationHistory{guarded: map[int]int64{}}
	before := map[int]core.PartitionReplication{}
	c.replay(func(_ int, l core.ReadOnlyLog, events []core.Event) {
		cfg, _ := l.TopicConfig(topic)
		crashed := 0
		lost := map[int]core.Event{}
		failed := map[int]int64{}
		for _, e := range events {
			if e.Kind == core.EventBrokerCrashed {
				crashed = e.Broker
			}
			if e.Topic != topic {
				continue
			}
			switch e.Kind {
			case core.EventRecordsLost:
				lost[e.Partition] = e
			case core.EventProduceFailed:
				failed[e.Partition] += int64(e.Count)
			case core.EventAcknowledged:
				if cfg.MinInsyncReplicas >= 2 {
					h.guarded[e.Partition] += int64(e.Count)
				}
			case core.EventLeaderElected:
				p := before[e.Partition]
				el := election{partition: e.Partition, crashed: crashed, leader: e.Broker,
					clean: slices.Contains(p.ISR, e.Broker), isr: p.ISR, minISR: p.MinInsyncReplicas,
					guarded: h.guarded[e.Partition], failed: failed[e.Partition]}
				if gone, ok := lost[e.Partition]; ok {
					el.lost, el.ackedLost = int64(gone.Count), acknowledgedIn(p.Acks, gone.From, gone.To)
				}
				h.elections = append(h.elections, el)
				h.guarded[e.Partition] = 0
			}
		}
		n, _ := l.Partitions(topic)
		for p := range n {
			if r, err := l.Replication(topic, p); err == nil {
				before[p] = r
			}
		}
	})
	return h
}

// acknowledgedIn counts the offsets in [from, to) whose producers were
// told the write succeeded.
func acknowledgedIn(acks []core.AckRange, from, to int64) int64 {
	var n int64
	for _, a := range acks {
		if a.Status == core.AckAcknowledged {
			n += max(0, min(to, a.To)-max(from, a.From))
		}
	}
	return n
}

// brokersText writes broker ids as "broker 2 alone" or "brokers 1 and 2".
func brokersText(ids []int) string {
	switch len(ids) {
	case 0:
		return "no broker"
	case 1:
		return fmt.Sprintf("broker %d alone", ids[0])
	}
	return "brokers " + joinInts(ids)
}

// history returns the replay's account of a topic's leaders, replaying
// the script once for all the lines of a goal.
func (x *ctx) history(topic string) replicationHistory {
	if x.histories == nil {
		x.histories = map[string]replicationHistory{}
	}
	h, ok := x.histories[topic]
	if !ok {
		h = x.leaderChanges(topic)
		x.histories[topic] = h
	}
	return h
}

// afterCrash returns the first election of a topic that followed a
// broker's crash, chose a leader from the ISR and is such that keep says,
// nil for none.
func (x *ctx) afterCrash(topic string, keep func(e *election) bool) *election {
	h := x.history(topic)
	for i := range h.elections {
		if e := &h.elections[i]; e.crashed > 0 && e.clean && keep(e) {
			return e
		}
	}
	return nil
}

// latestElection returns a topic's latest election, nil for none.
func (x *ctx) latestElection(topic string) *election {
	h := x.history(topic)
	if len(h.elections) == 0 {
		return nil
	}
	return &h.elections[len(h.elections)-1]
}

// replicationOr returns a partition's replicas, named TOPIC/PARTITION, or
// a pending result naming it.
func replicationOr(x *ctx, partition string) (core.PartitionReplication, *Result) {
	topic, p, _ := splitPartition(partition)
	rep, err := x.log.Replication(topic, p)
	if err != nil {
		r := pending("there is no partition %s yet", partition)
		return rep, &r
	}
	return rep, nil
}

func checkReplicated(x *ctx, c *check) Result {
	topic, least := c.args[0], c.count(1)
	cfg, err := x.log.TopicConfig(topic)
	switch {
	case err != nil:
		return pending("there is no topic %s yet", topic)
	case int64(cfg.ReplicationFactor) < least:
		return pending("%s has replication.factor=%d; it needs %d", topic, cfg.ReplicationFactor, least)
	}
	return solved("%s has replication.factor=%d", topic, cfg.ReplicationFactor)
}

func checkLeaderChanged(x *ctx, c *check) Result {
	rep, missing := replicationOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if rep.LeaderEpoch == 0 && !rep.Offline {
		x.keep(c, "leader", fmt.Sprint(rep.Leader))
		return pending("broker %d has led %s since it was created", rep.Leader, c.args[0])
	}
	return solved("the leader of %s has changed", c.args[0])
}

func checkUncleanLoss(x *ctx, c *check) Result {
	topic := c.args[0]
	below, _ := strconv.ParseInt(c.named["min-isr-below"], 10, 64)
	e := x.latestElection(topic)
	if e == nil || e.clean || e.ackedLost == 0 || below > 0 && e.minISR >= below {
		return pending("the latest election of a leader of %s lost no acknowledged record to an unclean election%s", topic, minISRBelow(below))
	}
	x.keep(c, "leader", fmt.Sprint(e.leader))
	x.keep(c, "partition", fmt.Sprint(e.partition))
	x.keep(c, "lost", units.Plural(e.ackedLost, "acknowledged record"))
	x.keep(c, "were", units.Noun(e.ackedLost, "was", "were"))
	x.keep(c, "min-isr", fmt.Sprint(e.minISR))
	x.keep(c, "isr", brokersText(e.isr))
	return solved("broker %d was not in the ISR, yet led %s/%d (an unclean election), and %s %s lost",
		e.leader, topic, e.partition, units.Plural(e.ackedLost, "acknowledged record"), units.Noun(e.ackedLost, "was", "were"))
}

func minISRBelow(below int64) string {
	if below == 0 {
		return ""
	}
	return fmt.Sprintf(" under min.insync.replicas below %d", below)
}

// electionValues are what lost-acked and survived-acked find, the first
// named for what the check counts.
var electionValues = []string{"them", "crashed", "leader", "partition", "min-isr"}

// keepElection keeps what an election shows: the count of the records it
// is about (as name), and the pronoun for them.
func (x *ctx) keepElection(c *check, e *election, name, count string, n int64) {
	x.keep(c, name, count)
	x.keep(c, "them", units.Noun(n, "it", "them"))
	x.keep(c, "crashed", fmt.Sprint(e.crashed))
	x.keep(c, "leader", fmt.Sprint(e.leader))
	x.keep(c, "partition", fmt.Sprint(e.partition))
	x.keep(c, "min-isr", fmt.Sprint(e.minISR))
}

func checkLostAcked(x *ctx, c *check) Result {
	topic := c.args[0]
	if e := x.afterCrash(topic, func(e *election) bool { return e.ackedLost > 0 }); e != nil {
		x.keepElection(c, e, "lost", units.Plural(e.ackedLost, "acknowledged record"), e.ackedLost)
		return solved("broker %d's crash lost %s: broker %d, from the ISR, led %s/%d without %s",
			e.crashed, units.Plural(e.ackedLost, "acknowledged record"), e.leader, topic, e.partition, units.Noun(e.ackedLost, "it", "them"))
	}
	h := x.history(topic)
	for i := len(h.elections) - 1; i >= 0; i-- {
		e := h.elections[i]
		if e.crashed > 0 && e.lost > 0 {
			return pending("broker %d's crash lost %s, but none acknowledged: their producers had not been told they were written (acks=0, or acks=all still waiting). Write with acks=1 and crash the leader straight after",
				e.crashed, units.Plural(e.lost, "record"))
		}
		if e.crashed > 0 {
			return pending("broker %d's crash lost no acknowledged record: its followers had copied everything. Write with acks=1 and crash the leader straight after, before the followers' next fetch (every %s)",
				e.crashed, units.Duration(core.ReplicaFetchIntervalMs))
		}
	}
	return pending("no leader of %s has crashed yet: write a record with acks=1, and crash the leader before its followers copy it", topic)
}

func checkSurvivedAcked(x *ctx, c *check) Result {
	topic := c.args[0]
	if e := x.afterCrash(topic, func(e *election) bool { return e.ackedLost == 0 && e.guarded > 0 }); e != nil {
		x.keepElection(c, e, "kept", units.Plural(e.guarded, "acknowledged acks=all record"), e.guarded)
		return solved("with acks=all and min.insync.replicas=%d, %s survived broker %d's crash: broker %d leads with %s",
			e.minISR, units.Plural(e.guarded, "acknowledged acks=all record"), e.crashed, e.leader, units.Noun(e.guarded, "it", "them"))
	}
	// What to do next, on the first partition with acks=all records
	// acknowledged since its last election.
	h := x.history(topic)
	p := 0
	n := x.partitions(topic)
	for q := n - 1; q >= 0; q-- {
		if h.guarded[q] > 0 {
			p = q
		}
	}
	rep, err := x.log.Replication(topic, p)
	cfg, _ := x.log.TopicConfig(topic)
	switch {
	case err != nil:
		return pending("there is no partition %s/%d yet", topic, p)
	case h.guarded[p] > 0:
		return pending("%s acknowledged by %s; now crash the leader, broker %d",
			units.Plural(h.guarded[p], "acks=all record"), brokersText(rep.ISR), rep.Leader)
	}
	return pending("min.insync.replicas is %d: write to %s with acks=all, advance until the write is acknowledged, then crash the leader, broker %d",
		cfg.MinInsyncReplicas, topic, rep.Leader)
}

func checkFailedByCrash(x *ctx, c *check) Result {
	topic := c.args[0]
	e := x.latestElection(topic)
	if e == nil || e.crashed == 0 || !e.clean || e.guarded > 0 || e.failed == 0 || e.ackedLost > 0 {
		return pending("the latest election of a leader of %s answered no waiting acks=all record with an error", topic)
	}
	x.keep(c, "crashed", fmt.Sprint(e.crashed))
	x.keep(c, "records", units.Noun(e.failed, "record", "records"))
	x.keep(c, "told", units.Noun(e.failed, "it failed", "they failed"))
	return solved("broker %d crashed before its followers copied the acks=all %s, so the producer was told %s",
		e.crashed, units.Noun(e.failed, "record", "records"), units.Noun(e.failed, "it failed", "they failed"))
}

func checkWritable(x *ctx, c *check) Result {
	rep, missing := replicationOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if int64(len(rep.ISR)) < rep.MinInsyncReplicas {
		x.keep(c, "isr", brokersText(rep.ISR))
		x.keep(c, "min-isr", fmt.Sprint(rep.MinInsyncReplicas))
		x.keep(c, "bring-back", bringBack(x, rep))
		return pending("%s has %s in sync, fewer than min.insync.replicas=%d, so acks=all writes are refused (NOT_ENOUGH_REPLICAS): %s",
			c.args[0], brokersText(rep.ISR), rep.MinInsyncReplicas, bringBack(x, rep))
	}
	return solved("%s has %s in sync, min.insync.replicas=%d", c.args[0], brokersText(rep.ISR), rep.MinInsyncReplicas)
}

func checkNoneWaiting(x *ctx, c *check) Result {
	rep, missing := replicationOr(x, c.args[0])
	if missing != nil {
		return *missing
	}
	waiting := int64(0)
	for _, a := range rep.Acks {
		if a.Status == core.AckPending {
			waiting += a.To - a.From
		}
	}
	if waiting > 0 {
		return pending("%s of %s %s for the in-sync replicas: advance the clock so the followers fetch it",
			units.Plural(waiting, "acks=all record"), c.args[0], units.Noun(waiting, "waits", "wait"))
	}
	return solved("no acks=all record of %s waits for the in-sync replicas", c.args[0])
}

// bringBack says how to get a replica of a partition back into its ISR.
func bringBack(c *ctx, rep core.PartitionReplication) string {
	var ways []string
	for _, b := range c.log.Brokers() {
		i := slices.IndexFunc(rep.Replicas, func(r core.ReplicaInfo) bool { return r.Broker == b.ID })
		if i < 0 || rep.Replicas[i].InSync {
			continue
		}
		switch {
		case b.Down:
			ways = append(ways, fmt.Sprintf("restart broker %d", b.ID))
		case b.Isolated || b.PaceRecords > 0:
			ways = append(ways, fmt.Sprintf("heal broker %d", b.ID))
		default:
			ways = append(ways, fmt.Sprintf("let broker %d catch up", b.ID))
		}
	}
	if len(ways) == 0 {
		return "bring another replica back"
	}
	return strings.Join(ways, " or ")
}
