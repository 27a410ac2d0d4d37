package core

import (
	"fmt"
	"math"
	"slices"
)

// Replication is an overlay on the partition log. Each partition has
// replication.factor replicas on distinct brokers; one leads. The
// partition's own log (records, segments, log start) is the leader's log:
// what producers append to and consumers read. Each replica has its own log
// end offset; a follower's log is the leader's log up to its match offset,
// plus, for a replica that once led or followed an earlier leader, a tail of
// records the current leader does not have (they go when it truncates, at
// its next fetch).
//
//   - Followers fetch every ReplicaFetchIntervalMs of virtual time while
//     they are behind, copying everything the leader has (or, on a slowed
//     broker, as much as its pace allows).
//   - The high watermark is the smallest match offset over the in-sync
//     replicas (the leader's is its log end). Consumers read below it.
//     Under rules 3 (rules.go) it does not move while the ISR is smaller
//     than the effective min.insync.replicas, min(min.insync.replicas,
//     replication factor), as Kafka does since 3.7 (KAFKA-15583;
//     kafka.cluster.Partition.maybeIncrementLeaderHW returns early while
//     isUnderMinIsr, Kafka 4.x): records written with acks=0 or acks=1
//     then stay above it, not committed, until a follower catches up and
//     rejoins the ISR. Under rules 1 and 2 it follows the ISR alone.
//   - A follower that has not been caught up with the leader's log end for
//     longer than replica.lag.time.max.ms leaves the ISR; it rejoins once
//     its log reaches the high watermark (Kafka's rule). A crashed broker
//     leaves every ISR at once, except the last member of one, which stays
//     so that it may lead again when it returns.
//   - acks=0 and acks=1 are answered when the leader appends; acks=all when
//     the high watermark passes the record, and only while at least
//     min.insync.replicas replicas are in sync (else
//     NOT_ENOUGH_REPLICAS_AFTER_APPEND; under rules 3 the effective
//     minimum, and the high watermark waits instead: Kafka's broker would
//     time the write out after the producer's request.timeout.ms, which
//     the playground does not model). A leader change fails the acks=all
//     writes still waiting (NOT_LEADER_OR_FOLLOWER); the playground's
//     producer does not retry.
//   - Leader election takes the first live in-sync replica in assignment
//     order; with unclean.leader.election.enable and none, the first live
//     replica. Each election starts a new leader epoch. Every replica's log
//     is compared with the new leader's by leader epoch (Kafka's
//     OffsetsForLeaderEpoch), and what the new leader lacks leaves the
//     partition's log at once: an event says how many of those records
//     were committed and how many acknowledged.
//   - Retention, DeleteRecords and compaction act on every replica alike,
//     and only below the high watermark.

// ReplicaFetchIntervalMs is how often followers fetch from their leader, in
// virtual time, while they are behind. Kafka's followers fetch continuously
// and a fetch waits at most replica.fetch.wait.max.ms (500ms) for new
// records; the playground fetches on a 500ms grid, so that a record is
// visibly acknowledged by the leader before it is replicated.
const ReplicaFetchIntervalMs = 500

// AckStatus says what the producer of a record was told.
type AckStatus string

const (
	AckSent         AckStatus = "sent"         // acks=0: the producer does not wait
	AckAcknowledged AckStatus = "acknowledged" // acks=1 at once; acks=all once committed
	AckPending      AckStatus = "pending"      // acks=all, waiting for the high watermark
	AckFailed       AckStatus = "failed"       // acks=all, answered with an error
)

// The values of ProduceRequest.Acks.
const (
	Acks0   = "0"
	Acks1   = "1"
	AcksAll = "all"
)

// epochStart is one entry of a leader epoch cache: the first offset written
// in an epoch.
type epochStart struct {
	epoch int
	start int64
}

// ackRun gives the ack status of the records with offsets in [from, to).
type ackRun struct {
	from, to int64
	status   AckStatus
}

// replica is one broker's copy of a partition.
type replica struct {
	broker int
	inSync bool
	// match: below it, this replica's log is the partition's log. logEnd
	// is the end of its own log; [match, logEnd) is tail.
	match, logEnd int64
	epochs        []epochStart // its leader epoch cache
	tail          []Record
	tailAcks      []ackRun
	// lastCaughtUp is the last time its log reached the leader's log end.
	lastCaughtUp int64
}

// replicaSet is a partition's replicas, in assignment order (the first is
// the preferred leader).
type replicaSet struct {
	replicas []replica
	leader   int // index in replicas; -1 when the partition is offline
	// current is the replica whose log the partition's log is: the leader,
	// or the last one while offline.
	current int
	epoch   int
	hw      int64
	acks    []ackRun // the partition log's records, in offset order
	// offline says why no replica may lead, while leader is -1.
	offline string
}

func (rs *replicaSet) clone() *replicaSet {
	c := *rs
	c.replicas = slices.Clone(rs.replicas)
	for i := range c.replicas {
		r := &c.replicas[i]
		r.epochs = slices.Clone(r.epochs)
		r.tail = slices.Clone(r.tail)
		r.tailAcks = slices.Clone(r.tailAcks)
	}
	c.acks = slices.Clone(rs.acks)
	return &c
}

func (rs *replicaSet) index(broker int) int {
	for i := range rs.replicas {
		if rs.replicas[i].broker == broker {
			return i
		}
	}
	return -1
}

func (rs *replicaSet) isr() []int {
	var ids []int
	for _, r := range rs.replicas {
		if r.inSync {
			ids = append(ids, r.broker)
		}
	}
	return ids
}

func (rs *replicaSet) isrSize() int64 {
	n := int64(0)
	for _, r := range rs.replicas {
		if r.inSync {
			n++
		}
	}
	return n
}

// highWatermark is the offset below which records are committed: what
// consumers may read. Without replicas it is the log end.
func (p *partition) highWatermark() int64 {
	if p.replicas == nil {
		return p.next
	}
	return p.replicas.hw
}

// offline reports whether the partition has no leader.
func (p *partition) offline() bool {
	return p.replicas != nil && p.replicas.leader < 0
}

// offlineError is the error of a request to a partition without leader.
func offlineError(topicName string, partition int, p *partition) error {
	return fmt.Errorf("%s/%d is offline: %s (LEADER_NOT_AVAILABLE)", topicName, partition, p.replicas.offline)
}

// liveBrokers lists the running brokers' ids: those a new replica may go to.
func (l *PartitionedLog) liveBrokers() []int {
	var ids []int
	for _, b := range l.cluster.brokers {
		if !b.down {
			ids = append(ids, b.id)
		}
	}
	return ids
}

// checkReplication checks a topic config against the cluster before a
// topic or partitions are created.
func (l *PartitionedLog) checkReplication(name string, config *TopicConfig) error {
	live := int64(len(l.liveBrokers()))
	if config.ReplicationFactor > live {
		return fmt.Errorf("topic %q: replication factor %d is larger than the %d available brokers (INVALID_REPLICATION_FACTOR)", name, config.ReplicationFactor, live)
	}
	return l.checkMinInsync(name, config)
}

// checkMinInsync refuses min.insync.replicas above the replication factor
// under rules 1 and 2. Under rules 3 it accepts it, as Kafka does: neither
// the topic config's validation (LogConfig's min.insync.replicas is at
// least 1, nothing more) nor the controller's topic creation
// (org.apache.kafka.controller.ReplicationControlManager, Kafka 4.x)
// compares it with the replication factor; the broker and the controller
// use min(min.insync.replicas, replication factor)
// (kafka.cluster.Partition.effectiveMinIsr,
// ReplicationControlManager.getTopicEffectiveMinIsr).
func (l *PartitionedLog) checkMinInsync(name string, config *TopicConfig) error {
	if !l.follows(HighWatermarkHeldUnderMinISR) && config.MinInsyncReplicas > config.ReplicationFactor {
		return fmt.Errorf("topic %q: min.insync.replicas=%d is more than replication.factor=%d: every acks=all write would fail with NOT_ENOUGH_REPLICAS",
			name, config.MinInsyncReplicas, config.ReplicationFactor)
	}
	return nil
}

// minISR is the fewest in-sync replicas an acks=all write needs and, under
// rules 3, the high watermark too: min.insync.replicas under rules 1 and
// 2; under rules 3 Kafka's effective minimum, min(min.insync.replicas,
// replication factor) (kafka.cluster.Partition.effectiveMinIsr, Kafka 4.x).
func (l *PartitionedLog) minISR(t *topic, rs *replicaSet) int64 {
	if !l.follows(HighWatermarkHeldUnderMinISR) {
		return t.config.MinInsyncReplicas
	}
	return min(t.config.MinInsyncReplicas, int64(len(rs.replicas)))
}

// hwHeld reports whether the high watermark is held where it is: under
// rules 3, while the partition has a leader and its ISR is smaller than the
// effective min.insync.replicas (kafka.cluster.Partition.isUnderMinIsr,
// which maybeIncrementLeaderHW checks first, Kafka 3.7+).
func (l *PartitionedLog) hwHeld(t *topic, rs *replicaSet) bool {
	return l.follows(HighWatermarkHeldUnderMinISR) && rs.leader >= 0 && rs.isrSize() < l.minISR(t, rs)
}

// hwHeldReason says why the high watermark is held, "" when it is not.
func (l *PartitionedLog) hwHeldReason(t *topic, rs *replicaSet) string {
	if rs == nil || !l.hwHeld(t, rs) {
		return ""
	}
	return fmt.Sprintf("the ISR (broker %s) is smaller than %s, so Kafka holds the high watermark until a follower catches up and rejoins (Kafka 3.7+, KAFKA-15583)",
		brokerList(rs.isr()), l.minISRText(t, rs))
}

// HighWatermarkHeld says why a partition's high watermark does not move
// though the leader holds records above it (under rules 3, an ISR smaller
// than the effective min.insync.replicas), "" when it is not held.
func (l *PartitionedLog) HighWatermarkHeld(topicName string, partition int) (string, error) {
	t, p, err := l.partition(topicName, partition)
	if err != nil {
		return "", err
	}
	return l.hwHeldReason(t, p.replicas), nil
}

// placeReplicas gives partitions from..len(t.partitions)-1 their replicas
// by Kafka's rack-unaware rule (AdminUtils.assignReplicasToBrokers) over
// the live brokers in id order, with a fixed start index and replica shift
// rather than random ones: 0 for a new topic, and for added partitions the
// position of partition 0's first replica, as Kafka's add-partitions does.
// Partition p's first replica (its leader) is broker (p+start) mod n; the
// others follow at a shift that grows by one every n partitions, so that
// leaders and followers spread evenly. checkReplication has made sure there
// are enough live brokers.
func (l *PartitionedLog) placeReplicas(t *topic, from int) {
	brokers := l.liveBrokers()
	n := len(brokers)
	start := 0
	if from > 0 && t.partitions[0].replicas != nil {
		first := t.partitions[0].replicas.replicas[0].broker
		start = max(0, slices.IndexFunc(brokers, func(id int) bool { return id >= first }))
	}
	shift := start
	rf := int(t.config.ReplicationFactor)
	for id := from; id < len(t.partitions); id++ {
		if id > 0 && id%n == 0 {
			shift++
		}
		first := (id + start) % n
		ids := []int{brokers[first]}
		for j := range rf - 1 {
			ids = append(ids, brokers[(first+1+(shift+j)%(n-1))%n])
		}
		p := t.partitions[id]
		rs := &replicaSet{current: 0, hw: p.next}
		for _, b := range ids {
			rs.replicas = append(rs.replicas, replica{broker: b, inSync: true, match: p.next, logEnd: p.next, lastCaughtUp: l.now})
		}
		rs.replicas[0].epochs = []epochStart{{0, p.next}}
		p.replicas = rs
	}
}

// partitionerState is what choosing a partition changes, kept so that a
// produce refused after the choice leaves nothing changed.
type partitionerState struct {
	roundRobin          int64
	sticky, stickyCount int
	builtIn             builtInState
	random              uint64
}

func (l *PartitionedLog) savePartitioner(t *topic) partitionerState {
	return partitionerState{t.roundRobin, t.sticky, t.stickyCount, t.builtIn, l.random}
}

func (l *PartitionedLog) restorePartitioner(t *topic, s partitionerState) {
	t.roundRobin, t.sticky, t.stickyCount, t.builtIn, l.random = s.roundRobin, s.sticky, s.stickyCount, s.builtIn, s.random
}

// acksMode is a checked ProduceRequest.Acks, compared as a number on the
// produce path rather than as text.
type acksMode uint8

const (
	acksAll acksMode = iota
	acksLeader
	acksNone
)

// checkAcks checks ProduceRequest.Acks: "", "0", "1" or "all" ("" is
// Kafka's default since 3.0, all; -1 is Kafka's other name for it).
func checkAcks(acks string) (acksMode, error) {
	switch acks {
	case "", AcksAll, "-1":
		return acksAll, nil
	case Acks1:
		return acksLeader, nil
	case Acks0:
		return acksNone, nil
	}
	return 0, fmt.Errorf("acks must be 0, 1 or all, got %q", acks)
}

// checkWritable refuses a produce to an offline partition, and one with
// acks=all while the ISR is smaller than min.insync.replicas (under rules
// 3 the effective one), as kafka.cluster.Partition.appendRecordsToLeader
// does before it appends (NotEnoughReplicasException); acks=0 and acks=1
// are appended whatever the ISR.
func (l *PartitionedLog) checkWritable(t *topic, partition int, acks acksMode) error {
	p := t.partitions[partition]
	if p.replicas == nil {
		return nil
	}
	if p.offline() {
		return offlineError(t.name, partition, p)
	}
	if acks != acksAll || len(p.replicas.replicas) == 1 && t.config.MinInsyncReplicas <= 1 {
		return nil // a lone leader is the whole ISR
	}
	if n, least := p.replicas.isrSize(), l.minISR(t, p.replicas); n < least {
		return fmt.Errorf("%s/%d: only %d in-sync replicas (%s), fewer than %s (NOT_ENOUGH_REPLICAS)",
			t.name, partition, n, brokerList(p.replicas.isr()), l.minISRText(t, p.replicas))
	}
	return nil
}

// minISRText names the minimum minISR gives, with where it comes from when
// it is not min.insync.replicas itself.
func (l *PartitionedLog) minISRText(t *topic, rs *replicaSet) string {
	least := l.minISR(t, rs)
	if least == t.config.MinInsyncReplicas {
		return fmt.Sprintf("min.insync.replicas=%d", least)
	}
	return fmt.Sprintf("%d, the replication factor (min.insync.replicas=%d is more: Kafka uses the smaller)", least, t.config.MinInsyncReplicas)
}

// afterAppend brings the replicas up to date with a record the leader just
// appended at offset and returns what its producer is told.
func (l *PartitionedLog) afterAppend(t *topic, partition int, p *partition, offset int64, acks acksMode) AckStatus {
	rs := p.replicas
	if rs == nil {
		return AckAcknowledged
	}
	if len(rs.replicas) == 1 {
		return l.afterAppendAlone(rs, p, offset, acks)
	}
	for i := range rs.replicas {
		r := &rs.replicas[i]
		switch {
		case i == rs.leader:
			r.match, r.logEnd = p.next, p.next
		case r.match == offset && r.logEnd == offset:
			r.lastCaughtUp = l.now // it had everything until now
		}
	}
	hw := rs.computeHW(p)
	if l.hwHeld(t, rs) {
		hw = rs.hw
	}
	status := AckAcknowledged
	switch {
	case acks == acksNone:
		status = AckSent
	case acks == acksAll && hw <= offset:
		status = AckPending
	}
	rs.noteAck(p, offset, status)
	l.raiseHWTo(t, partition, p, hw)
	return status
}

// afterAppendAlone is afterAppend for a partition whose leader is its only
// replica, as every partition of the default replication.factor=1 is: the
// record is committed as it is written, so the high watermark is the log
// end and the producer is answered at once (min.insync.replicas above 1
// was refused before the write under rules 1 and 2; under rules 3 the
// effective minimum of a single replica is 1). It skips the loops over the
// ISR that a produce would otherwise pay for every record.
func (l *PartitionedLog) afterAppendAlone(rs *replicaSet, p *partition, offset int64, acks acksMode) AckStatus {
	r := &rs.replicas[0]
	r.match, r.logEnd = p.next, p.next
	status := AckAcknowledged
	if acks == acksNone {
		status = AckSent
	}
	rs.noteAck(p, offset, status)
	rs.hw = max(rs.hw, p.next)
	return status
}

// noteAck records what the producer of the record just appended at offset
// was told.
func (rs *replicaSet) noteAck(p *partition, offset int64, status AckStatus) {
	for len(rs.acks) > 0 && rs.acks[0].to <= p.logStart {
		rs.acks = rs.acks[1:] // retention or truncation removed them
	}
	if n := len(rs.acks); n > 0 && rs.acks[n-1].status == status && rs.acks[n-1].to == offset {
		// The common case, the last run grows. Assigning rs.acks anew
		// would pay the GC's write barrier on every record.
		rs.acks[n-1].to = p.next
	} else {
		rs.acks = append(rs.acks, ackRun{offset, p.next, status})
	}
}

// appendAckRun adds a run, merging it with the last one when they touch and
// share a status.
func appendAckRun(runs []ackRun, run ackRun) []ackRun {
	if run.from >= run.to {
		return runs
	}
	if n := len(runs); n > 0 && runs[n-1].status == run.status && runs[n-1].to == run.from {
		runs[n-1].to = run.to
		return runs
	}
	return append(runs, run)
}

// computeHW is the smallest match offset over the in-sync replicas.
func (rs *replicaSet) computeHW(p *partition) int64 {
	hw := p.next
	for _, r := range rs.replicas {
		if r.inSync {
			hw = min(hw, r.match)
		}
	}
	return max(hw, p.logStart)
}

// raiseHW moves the high watermark up to what the ISR holds and answers the
// acks=all writes it passes.
func (l *PartitionedLog) raiseHW(t *topic, partition int, p *partition) {
	if rs := p.replicas; rs.leader >= 0 {
		l.raiseHWTo(t, partition, p, rs.computeHW(p))
	}
}

// raiseHWTo is raiseHW once the high watermark the ISR allows, hw, is known.
func (l *PartitionedLog) raiseHWTo(t *topic, partition int, p *partition, hw int64) {
	rs := p.replicas
	if hw <= rs.hw || l.hwHeld(t, rs) {
		return
	}
	rs.hw = hw
	if !rs.pendingBelow(hw) {
		return // the common case: no acks=all write waits
	}
	status := AckAcknowledged
	if rs.isrSize() < l.minISR(t, rs) {
		status = AckFailed // under rules 1 and 2 only: under 3 the high watermark was held
	}
	l.resolvePending(t, partition, p, hw, status, "")
}

// pendingBelow reports whether an acks=all write below upTo waits.
func (rs *replicaSet) pendingBelow(upTo int64) bool {
	for _, run := range rs.acks {
		if run.from >= upTo {
			return false // runs are in offset order
		}
		if run.status == AckPending {
			return true
		}
	}
	return false
}

// resolvePending gives the pending records below upTo the status, and says
// so in one event.
func (l *PartitionedLog) resolvePending(t *topic, partition int, p *partition, upTo int64, status AckStatus, detail string) {
	rs := p.replicas
	if !rs.pendingBelow(upTo) {
		return
	}
	var out []ackRun
	from, to := int64(-1), int64(0)
	for _, run := range rs.acks {
		if run.status != AckPending || run.from >= upTo {
			out = appendAckRun(out, run)
			continue
		}
		end := min(run.to, upTo)
		if from < 0 {
			from = run.from
		}
		to = end
		out = appendAckRun(out, ackRun{run.from, end, status})
		out = appendAckRun(out, ackRun{end, run.to, AckPending})
	}
	rs.acks = out
	if from < 0 {
		return
	}
	e := Event{Topic: t.name, Partition: partition, From: from, To: to, Count: p.records.countBetween(from, to), Detail: detail}
	switch {
	case status == AckAcknowledged:
		e.Kind = EventAcknowledged
	case detail == "":
		e.Kind = EventNotEnoughReplicas
		e.Detail = fmt.Sprintf("NOT_ENOUGH_REPLICAS_AFTER_APPEND: %d in sync, %s", rs.isrSize(), l.minISRText(t, rs))
	default:
		e.Kind = EventProduceFailed
	}
	l.emit(e)
}

// failPending fails every write still waiting for acks=all, in the log and
// in the replicas' tails: their leader is gone.
func (l *PartitionedLog) failPending(t *topic, partition int, p *partition, why string) {
	l.resolvePending(t, partition, p, p.next, AckFailed, why)
	for i := range p.replicas.replicas {
		r := &p.replicas.replicas[i]
		for j := range r.tailAcks {
			if r.tailAcks[j].status == AckPending {
				r.tailAcks[j].status = AckFailed
			}
		}
	}
}

// onBrokerDown handles a crashed broker's replica of a partition: it leaves
// the ISR (unless it is the last member) and, if it led, a new leader is
// elected.
func (l *PartitionedLog) onBrokerDown(t *topic, partition int, p *partition, id int) {
	rs := p.replicas
	k := rs.index(id)
	if k < 0 {
		return
	}
	r := &rs.replicas[k]
	why := fmt.Sprintf("broker %d crashed", id)
	if r.inSync && rs.isrSize() > 1 {
		r.inSync = false
		l.emit(Event{Kind: EventISRShrunk, Topic: t.name, Partition: partition, Broker: id, Count: int(rs.isrSize()), Detail: why})
	}
	if k != rs.leader {
		l.raiseHW(t, partition, p)
		return
	}
	rs.leader = -1
	l.failPending(t, partition, p, "NOT_LEADER_OR_FOLLOWER: "+why)
	l.tryElect(t, partition, p)
}

// tryElect elects a leader for a partition without one: the first live
// in-sync replica in assignment order, or with unclean leader election the
// first live replica. With neither, the partition stays offline.
func (l *PartitionedLog) tryElect(t *topic, partition int, p *partition) {
	rs := p.replicas
	for i, r := range rs.replicas {
		if r.inSync && l.cluster.alive(r.broker) {
			l.elect(t, partition, p, i, false)
			return
		}
	}
	if t.config.UncleanLeaderElection {
		for i, r := range rs.replicas {
			if l.cluster.alive(r.broker) {
				l.elect(t, partition, p, i, true)
				return
			}
		}
	}
	why := fmt.Sprintf("no live in-sync replica (ISR %s)", brokerList(rs.isr()))
	if !t.config.UncleanLeaderElection {
		why += " and unclean.leader.election.enable=false"
	} else {
		why = "every replica's broker is down"
	}
	if rs.offline != why {
		rs.offline = why
		l.emit(Event{Kind: EventPartitionOffline, Topic: t.name, Partition: partition, Detail: why})
	}
}

// elect makes replica n the leader in a new epoch. The partition's log
// becomes n's log; every other replica's match is where its log and n's
// part by leader epoch, and what it holds beyond becomes its tail.
func (l *PartitionedLog) elect(t *topic, partition int, p *partition, n int, unclean bool) {
	rs := p.replicas
	l.liftBelowLogStart(p)
	leader := &rs.replicas[n]
	// The other replicas' tails, read before the partition's log changes.
	type newTail struct {
		match   int64
		records []Record
		acks    []ackRun
	}
	tails := make([]newTail, len(rs.replicas))
	for i := range rs.replicas {
		if i == n {
			continue
		}
		r := &rs.replicas[i]
		c := max(commonPrefix(r.epochs, r.logEnd, leader.epochs, leader.logEnd), p.logStart)
		records, acks := p.replicaLogFrom(r, c)
		tails[i] = newTail{c, records, acks}
	}

	oldHW, oldEnd := rs.hw, p.next
	x := leader.match
	if lost := p.records.countBetween(x, oldEnd); lost > 0 {
		committed := p.records.countBetween(min(oldHW, x), min(oldHW, oldEnd))
		acked := countAcked(rs.acks, p, x, oldEnd)
		l.emit(Event{Kind: EventRecordsLost, Topic: t.name, Partition: partition, From: x, To: oldEnd, Count: lost,
			Detail: fmt.Sprintf("broker %d leads without them: %d committed, %d acknowledged", leader.broker, committed, acked)})
	}
	p.truncateFrom(x)
	rs.acks = cutAckRuns(rs.acks, x)
	for _, r := range leader.tail {
		p.next = r.Offset
		l.stored += p.append(&r, recordSize(r.Key, r.Value), &t.config)
	}
	p.next = leader.logEnd
	for _, run := range leader.tailAcks {
		rs.acks = appendAckRun(rs.acks, run)
	}
	leader.match, leader.tail, leader.tailAcks = leader.logEnd, nil, nil

	for i := range rs.replicas {
		r := &rs.replicas[i]
		if i != n {
			r.match, r.tail, r.tailAcks = tails[i].match, tails[i].records, tails[i].acks
		}
		if unclean || !l.cluster.alive(r.broker) {
			r.inSync = i == n
		}
		r.lastCaughtUp = l.now
	}
	rs.epoch++
	leader.epochs = append(leader.epochs, epochStart{rs.epoch, p.next})
	rs.leader, rs.current, rs.offline = n, n, ""
	detail := "clean: from the ISR"
	if unclean {
		detail = "unclean: no live in-sync replica, unclean.leader.election.enable=true"
		// The new leader alone is the ISR; under rules 3 an effective
		// min.insync.replicas above 1 holds the high watermark.
		if !l.follows(HighWatermarkHeldUnderMinISR) || l.minISR(t, rs) <= 1 {
			rs.hw = max(p.next, p.logStart)
		}
	}
	rs.hw = min(rs.hw, p.next)
	l.emit(Event{Kind: EventLeaderElected, Topic: t.name, Partition: partition, Broker: leader.broker, Generation: rs.epoch, Detail: detail})
	l.failPending(t, partition, p, fmt.Sprintf("NOT_LEADER_OR_FOLLOWER: broker %d now leads", leader.broker))
	l.raiseHW(t, partition, p)
}

// liftBelowLogStart moves replicas whose log ends below the log start up to
// it: records below the log start are gone on every replica.
func (l *PartitionedLog) liftBelowLogStart(p *partition) {
	for i := range p.replicas.replicas {
		r := &p.replicas.replicas[i]
		if r.match < p.logStart {
			r.match = p.logStart
		}
		if r.logEnd < p.logStart {
			r.logEnd = p.logStart
		}
		k := 0
		for k < len(r.tail) && r.tail[k].Offset < p.logStart {
			k++
		}
		r.tail = r.tail[k:]
		r.tailAcks = cutAckRunsBelow(r.tailAcks, p.logStart)
	}
}

// replicaLogFrom returns a replica's records and ack runs from offset on.
func (p *partition) replicaLogFrom(r *replica, offset int64) ([]Record, []ackRun) {
	var records []Record
	var acks []ackRun
	if offset < r.match {
		records = p.records.collect(offset, r.match, math.MaxInt)
		for _, run := range p.replicas.acks {
			acks = appendAckRun(acks, ackRun{max(run.from, offset), min(run.to, r.match), run.status})
		}
	}
	for _, rec := range r.tail {
		if rec.Offset >= offset {
			records = append(records, rec)
		}
	}
	for _, run := range r.tailAcks {
		acks = appendAckRun(acks, ackRun{max(run.from, offset), run.to, run.status})
	}
	return records, acks
}

// countAcked counts the records in [from, to) whose producers were told they
// were acknowledged.
func countAcked(runs []ackRun, p *partition, from, to int64) int {
	n := 0
	for _, run := range runs {
		a, b := max(run.from, from), min(run.to, to)
		if run.status == AckAcknowledged && a < b {
			n += p.records.countBetween(a, b)
		}
	}
	return n
}

// cutAckRuns keeps the runs below offset.
func cutAckRuns(runs []ackRun, offset int64) []ackRun {
	var out []ackRun
	for _, run := range runs {
		out = appendAckRun(out, ackRun{run.from, min(run.to, offset), run.status})
	}
	return out
}

// cutAckRunsBelow keeps the runs at or above offset.
func cutAckRunsBelow(runs []ackRun, offset int64) []ackRun {
	var out []ackRun
	for _, run := range runs {
		out = appendAckRun(out, ackRun{max(run.from, offset), run.to, run.status})
	}
	return out
}

// commonPrefix returns the offset where two logs part, given their leader
// epoch caches and log ends: the first offset at which they hold records of
// different epochs, or the shorter log's end. Two records at one offset in
// one epoch are the same record: an epoch has a single leader.
func commonPrefix(a []epochStart, endA int64, b []epochStart, endB int64) int64 {
	end := min(endA, endB)
	bounds := make([]int64, 0, len(a)+len(b))
	for _, e := range a {
		bounds = append(bounds, e.start)
	}
	for _, e := range b {
		bounds = append(bounds, e.start)
	}
	slices.Sort(bounds)
	for _, o := range bounds {
		if o >= end {
			break
		}
		if epochAt(a, o) != epochAt(b, o) {
			return o
		}
	}
	return end
}

// epochAt returns the epoch of the record at offset by an epoch cache, -1
// before its first entry.
func epochAt(cache []epochStart, offset int64) int {
	epoch := -1
	for _, e := range cache {
		if e.start > offset {
			break
		}
		epoch = e.epoch
	}
	return epoch
}

// truncateFrom removes the records at and after offset, as a replica
// truncating to a new leader does: segments starting after it go, the one
// holding it shrinks.
func (p *partition) truncateFrom(offset int64) {
	if offset >= p.next {
		return
	}
	k := len(p.segments)
	for k > 1 && p.segments[k-1].base > offset {
		k--
	}
	last := &p.segments[k-1]
	for r := range p.records.between(max(offset, last.base), p.segmentEnd(k-1)) {
		last.bytes -= recordSize(r.Key, r.Value)
	}
	last.bytes = max(last.bytes, 0)
	p.records.truncateFrom(offset)
	p.segments = p.segments[:k]
	last.maxTimestamp = last.createdAt
	for r := range p.records.between(last.base, math.MaxInt64) {
		last.maxTimestamp = max(last.maxTimestamp, r.Timestamp)
	}
	h := len(p.horizons)
	for h > 0 && p.horizons[h-1].offset >= offset {
		h--
	}
	p.horizons = p.horizons[:h]
	p.next = offset
}

// checkConfigChange refuses config changes replication cannot follow.
func (l *PartitionedLog) checkConfigChange(name string, old, config *TopicConfig) error {
	if config.ReplicationFactor != old.ReplicationFactor {
		return fmt.Errorf("topic %q: replication.factor is fixed when the topic is created (Kafka changes it by reassigning partitions)", name)
	}
	return l.checkMinInsync(name, config)
}

// onConfigChanged lets offline partitions elect a leader when unclean
// leader election was just turned on, as Kafka's controller does.
func (l *PartitionedLog) onConfigChanged(t *topic) {
	if !t.config.UncleanLeaderElection {
		return
	}
	for i, p := range t.partitions {
		if p.offline() {
			l.tryElect(t, i, p)
		}
	}
}

// availablePartitions lists the partitions that have a leader, as the Java
// client's keyless partitioners do when some have none: nil when all have
// one (the common case) or none has (then the produce fails as offline).
func (t *topic) availablePartitions() []int {
	var available []int
	offline := false
	for i, p := range t.partitions {
		if p.offline() {
			offline = true
		} else {
			available = append(available, i)
		}
	}
	if !offline || len(available) == 0 {
		return nil
	}
	return available
}
