package core

import (
	"fmt"
	"math"

	"plog/core/units"
)

// nextReplication returns when replication next has something to do: the
// next fetch tick (a multiple of ReplicaFetchIntervalMs after now) for a
// follower that can fetch and has something to copy, truncate or rejoin
// for, or the moment an in-sync follower has been behind for longer than
// replica.lag.time.max.ms. Idle partitions need no ticks, so a long Advance
// stays fast.
func (l *PartitionedLog) nextReplication() int64 {
	next := int64(math.MaxInt64)
	tick := (l.now/ReplicaFetchIntervalMs + 1) * ReplicaFetchIntervalMs
	l.eachReplicated(func(t *topic, _ int, p *partition) {
		rs := p.replicas
		if rs.leader < 0 || len(rs.replicas) == 1 {
			return
		}
		leader := rs.replicas[rs.leader].broker
		for i := range rs.replicas {
			r := &rs.replicas[i]
			if i == rs.leader {
				continue
			}
			if r.inSync && r.match < p.next {
				next = min(next, max(r.lastCaughtUp+l.cluster.lagMaxMs+1, l.now+1))
			}
			if next <= tick || !l.cluster.connected(leader, r.broker) || !l.needsFetch(p, r) {
				continue
			}
			next = min(next, l.nextFetch(r.broker, tick))
		}
	})
	return next
}

// needsFetch reports whether a fetch would change a follower: it has a
// tail to truncate, records to copy, or the ISR to rejoin.
func (l *PartitionedLog) needsFetch(p *partition, r *replica) bool {
	return r.logEnd != r.match || r.match < p.next || !r.inSync && r.match >= p.replicas.hw
}

// nextFetch returns the first tick at or after tick at which the broker's
// followers may copy at least one record: tick itself unless the broker is
// slowed.
func (l *PartitionedLog) nextFetch(brokerID int, tick int64) int64 {
	b := l.cluster.broker(brokerID)
	if b.paceRecords == 0 || paceBudget(b, tick) > 0 {
		return tick
	}
	// The next whole record of credit, then the tick that holds it.
	k := tick*b.paceRecords/b.paceMs + 1
	at := (k*b.paceMs + b.paceRecords - 1) / b.paceRecords
	return (at + ReplicaFetchIntervalMs - 1) / ReplicaFetchIntervalMs * ReplicaFetchIntervalMs
}

// paceBudget is how many records a slowed broker's follower may copy at
// the fetch tick: the credit its pace earned since the previous tick.
func paceBudget(b *broker, tick int64) int {
	if b.paceRecords == 0 {
		return math.MaxInt
	}
	prev := max(tick-ReplicaFetchIntervalMs, 0)
	return int(tick*b.paceRecords/b.paceMs - prev*b.paceRecords/b.paceMs)
}

// runReplication does what replication has due at now: on a fetch tick,
// every follower that can reach its leader truncates what it holds beyond
// the leader's log, copies what its pace allows and rejoins the ISR once
// caught up to the high watermark; then in-sync followers behind for
// longer than replica.lag.time.max.ms leave the ISR, and the high watermark
// rises as far as the ISR allows.
func (l *PartitionedLog) runReplication() {
	tick := l.now%ReplicaFetchIntervalMs == 0
	l.eachReplicated(func(t *topic, partition int, p *partition) {
		rs := p.replicas
		if rs.leader < 0 || len(rs.replicas) == 1 {
			return
		}
		l.liftBelowLogStart(p)
		leader := &rs.replicas[rs.leader]
		for i := range rs.replicas {
			r := &rs.replicas[i]
			if i == rs.leader || !tick || !l.cluster.connected(leader.broker, r.broker) {
				continue
			}
			l.fetch(t, partition, p, r, leader)
		}
		for i := range rs.replicas {
			r := &rs.replicas[i]
			if i != rs.leader && r.inSync && r.match < p.next && l.now-r.lastCaughtUp > l.cluster.lagMaxMs {
				r.inSync = false
				l.emit(Event{Kind: EventISRShrunk, Topic: t.name, Partition: partition, Broker: r.broker, Count: int(rs.isrSize()),
					Detail: fmt.Sprintf("not caught up for %s, more than replica.lag.time.max.ms=%s", units.Duration(l.now-r.lastCaughtUp), units.Duration(l.cluster.lagMaxMs))})
			}
		}
		l.raiseHW(t, partition, p)
	})
}

// fetch is one fetch of a follower from its leader.
func (l *PartitionedLog) fetch(t *topic, partition int, p *partition, r, leader *replica) {
	r.logEnd, r.tail, r.tailAcks = r.match, nil, nil // truncate to where it parts from the leader
	budget := paceBudget(l.cluster.broker(r.broker), l.now)
	end := p.records.offsetAfter(r.match, budget, p.next)
	if end > r.match {
		r.match, r.logEnd = end, end
	}
	r.epochs = r.epochs[:0]
	for _, e := range leader.epochs {
		if e.start < r.logEnd {
			r.epochs = append(r.epochs, e)
		}
	}
	if r.logEnd == p.next {
		r.lastCaughtUp = l.now
	}
	if !r.inSync && r.match >= p.replicas.hw {
		r.inSync = true
		l.emit(Event{Kind: EventISRExpanded, Topic: t.name, Partition: partition, Broker: r.broker, Count: int(p.replicas.isrSize())})
	}
}
