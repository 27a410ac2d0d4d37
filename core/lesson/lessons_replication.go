package lesson

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"
	"plog/core/units"
)

// The goals of the lessons about replication: what the producer's acks promise when a
// partition's leader fails.

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

// agree picks the word that agrees with a count: one for 1, else many.
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

func checkReplication(c *ctx) Result {
	cfg, err := c.log.TopicConfig("orders")
	if err != nil || cfg.ReplicationFactor < 2 {
		return pending("topic orders, with three replicas, must be there: reload the lesson")
	}
	rep, err := c.log.Replication("orders", 0)
	if err != nil {
		return pending("orders/0 must be there: reload the lesson")
	}
	if rep.LeaderEpoch == 0 && !rep.Offline {
		return pending("broker %d leads orders/0 and has not crashed yet: write a record with acks=1, and crash broker %d before its followers copy it",
			rep.Leader, rep.Leader)
	}
	h := c.leaderChanges("orders")
	var loss, survival *election
	for i := range h.elections {
		e := &h.elections[i]
		switch {
		case e.crashed == 0 || !e.clean:
		case e.ackedLost > 0 && loss == nil:
			loss = e
		case e.ackedLost == 0 && e.guarded > 0 && survival == nil:
			survival = e
		}
	}
	if loss != nil && survival != nil {
		return solved("acks=1 lost %s when broker %d crashed: broker %d, from the ISR, led without %s. With acks=all and min.insync.replicas=%d, %s survived broker %d's crash: broker %d leads with %s.",
			units.Plural(loss.ackedLost, "acknowledged record"), loss.crashed, loss.leader, units.Noun(loss.ackedLost, "it", "them"),
			survival.minISR, units.Plural(survival.guarded, "acknowledged acks=all record"), survival.crashed, survival.leader,
			units.Noun(survival.guarded, "it", "them"))
	}
	if n := len(h.elections); n > 0 && !h.elections[n-1].clean && h.elections[n-1].ackedLost > 0 {
		return pending("%s", uncleanLoss(h.elections[n-1]))
	}
	if loss == nil {
		return pendingLoss(h, survival)
	}
	return pendingSurvival(c, h, loss, cfg)
}

// uncleanLoss says what an unclean election that lost acknowledged records
// teaches.
func uncleanLoss(e election) string {
	what := fmt.Sprintf("broker %d was not in the ISR, yet led orders/%d (an unclean election), and %s %s lost",
		e.leader, e.partition, units.Plural(e.ackedLost, "acknowledged record"), units.Noun(e.ackedLost, "was", "were"))
	if e.minISR < 2 {
		return fmt.Sprintf("%s: with min.insync.replicas=%d, acks=all waits only for the in-sync replicas, and they were %s. Go back, and set min.insync.replicas=2 before writing with acks=all",
			what, e.minISR, brokersText(e.isr))
	}
	return fmt.Sprintf("%s: every in-sync replica had crashed. Go back, and crash the leader while another replica is in sync", what)
}

// pendingLoss guides towards the first half: an acks=1 record lost.
func pendingLoss(h replicationHistory, survival *election) Result {
	if survival != nil {
		return pending("acks=all with min.insync.replicas=%d survived broker %d's crash; now show what acks=1 risks: write with acks=1 and crash the leader before its followers fetch",
			survival.minISR, survival.crashed)
	}
	for i := len(h.elections) - 1; i >= 0; i-- {
		e := h.elections[i]
		if e.crashed > 0 && e.lost > 0 {
			return pending("broker %d's crash lost %s, but none acknowledged: their producers had not been told they were written (acks=0, or acks=all still waiting). Write with acks=1 and crash the leader straight after",
				e.crashed, units.Plural(e.lost, "record"))
		}
		if e.crashed > 0 {
			return pending("broker %d's crash lost no acknowledged record: its followers had copied everything. Write with acks=1 and crash the leader straight after, before the followers' next fetch (every 500ms)",
				e.crashed)
		}
	}
	return pending("no leader of orders has crashed yet: write a record with acks=1, and crash the leader before its followers copy it")
}

// pendingSurvival guides towards the second half: acks=all records
// acknowledged under min.insync.replicas=2 that survive a leader crash.
func pendingSurvival(c *ctx, h replicationHistory, loss *election, cfg core.TopicConfig) Result {
	p := loss.partition
	rep, err := c.log.Replication("orders", p)
	if err != nil {
		return pending("orders/%d must be there: reload the lesson", p)
	}
	last := &h.elections[len(h.elections)-1]
	switch {
	case rep.Offline:
		return pending("orders/%d is offline: %s. Restart a broker that was in the ISR", p, rep.OfflineReason)
	case cfg.MinInsyncReplicas < 2:
		return pending("acks=1 lost %s when broker %d crashed; now set min.insync.replicas=2 on orders, write with acks=all, and crash the leader again",
			units.Plural(loss.ackedLost, "acknowledged record"), loss.crashed)
	case last.crashed > 0 && last.clean && last.guarded == 0 && last.failed > 0 && last != loss:
		return pending("broker %d crashed before its followers copied the acks=all %s, so the producer was told %s (a real producer retries): nothing acknowledged was lost, but nothing was acknowledged either. After an acks=all write, advance until it is acknowledged, then crash the leader",
			last.crashed, units.Noun(last.failed, "record", "records"), units.Noun(last.failed, "it failed", "they failed"))
	case int64(len(rep.ISR)) < cfg.MinInsyncReplicas:
		return pending("orders/%d has %s in sync, fewer than min.insync.replicas=%d, so acks=all writes are refused (NOT_ENOUGH_REPLICAS): %s, and advance until it is back in the ISR",
			p, brokersText(rep.ISR), cfg.MinInsyncReplicas, bringBack(c, rep))
	}
	waiting := int64(0)
	for _, a := range rep.Acks {
		if a.Status == core.AckPending {
			waiting += a.To - a.From
		}
	}
	switch {
	case waiting > 0:
		return pending("%s of orders/%d %s for the in-sync replicas: advance the clock so the followers fetch it",
			units.Plural(waiting, "acks=all record"), p, units.Noun(waiting, "waits", "wait"))
	case h.guarded[p] > 0:
		return pending("%s acknowledged by %s; now crash the leader, broker %d",
			units.Plural(h.guarded[p], "acks=all record"), brokersText(rep.ISR), rep.Leader)
	}
	return pending("min.insync.replicas is %d: write to orders with acks=all, advance until the write is acknowledged, then crash the leader, broker %d",
		cfg.MinInsyncReplicas, rep.Leader)
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
