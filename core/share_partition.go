package core

import (
	"fmt"
	"slices"
	"sort"
)

// This file is a share-partition: one share group's state on one
// partition, as Kafka 4.4's SharePartition (kafka core,
// kafka.server.share.SharePartition) keeps it and its share coordinator
// persists it (ShareSnapshotValue). The playground keeps each record's
// state on its own (SharePartition's per-offset state, InFlightState):
// its records are not grouped in producer batches, so that
// share.acquire.mode batch_optimized and record_limit acquire the same.

// The states of an in-flight record (RecordState, kafka-server 4.4).
// Kafka's ARCHIVING, on the way to a dead-letter topic (KIP-1191), is not
// modelled: no share group has a dead-letter topic by default
// (errors.deadletterqueue.topic.name is empty).
const (
	RecordAvailable    = "Available"
	RecordAcquired     = "Acquired"
	RecordAcknowledged = "Acknowledged"
	RecordArchived     = "Archived"
)

// The acknowledge types (AcknowledgeType, kafka-clients 4.4; RENEW is
// KIP-1222's).
const (
	AckAccept  = "accept"
	AckRelease = "release"
	AckReject  = "reject"
	AckRenew   = "renew"
)

// AckTypes lists the acknowledge types in AcknowledgeType's order.
func AckTypes() []string { return []string{AckAccept, AckRelease, AckReject, AckRenew} }

type sharePartition struct {
	tp TopicPartition
	// start is the share-partition start offset (SPSO): every record
	// below it is done with (acknowledged or archived).
	start int64
	// records are the in-flight records, from start up, in offset order.
	records []inFlightRecord
	// deliveryComplete counts the records at or above start that are
	// acknowledged or archived (SharePartition.deliveryCompleteCount):
	// share lag leaves them out.
	deliveryComplete int
	// reportedStart and reportedComplete are the start offset and the
	// delivered count the share coordinator holds, which the admin API
	// reports (DescribeShareGroupOffsets, kafka-share-groups --describe):
	// SharePartition writes its state (writeShareGroupState) after a
	// change of records' states and before it moves the start offset past
	// them (maybeUpdateCachedStateAndOffsets, Kafka 4.4), so what is
	// reported trails the start offset by one write; reported says a
	// write happened (none before the first acknowledgement or release).
	reportedStart    int64
	reportedComplete int
	reported         bool
	// nextLock caches nextLockExpiry, which the clock asks at every step
	// of an advance; locksChanged says it must be found again.
	nextLock     int64
	hasLock      bool
	locksChanged bool
}

type inFlightRecord struct {
	offset     int64
	state      string
	deliveries int    // the delivery count: how many times it was acquired
	member     string // who holds it while Acquired
	lockUntil  int64  // when its acquisition lock expires, while Acquired
}

func (sp *sharePartition) clone() *sharePartition {
	c := *sp
	c.records = slices.Clone(sp.records)
	return &c
}

// end is the share-partition end offset (SPEO) as SharePartition keeps
// it (endOffset): the last in-flight record's offset, or the start
// offset when none is in flight.
func (sp *sharePartition) end() int64 {
	if len(sp.records) == 0 {
		return sp.start
	}
	return sp.records[len(sp.records)-1].offset
}

// inFlight counts the records in flight as SharePartition.numInFlightRecords
// does: every offset from the start to the end offset.
func (sp *sharePartition) inFlight() int {
	if len(sp.records) == 0 {
		return 0
	}
	return int(sp.end() - sp.start + 1)
}

func (sp *sharePartition) find(offset int64) int {
	i := sort.Search(len(sp.records), func(i int) bool { return sp.records[i].offset >= offset })
	if i < len(sp.records) && sp.records[i].offset == offset {
		return i
	}
	return -1
}

// throttleLimit is the delivery count from which a record is delivered
// alone, at the head of a fetch (SharePartition.throttleRecordsDeliveryLimit,
// Kafka 4.4): max(2, ceil(limit / 2)).
func throttleLimit(deliveryLimit int) int { return max(2, (deliveryLimit+1)/2) }

// initShare makes the group's share-partition on its first read: the
// start offset comes from share.auto.offset.reset
// (SharePartition.startOffsetDuringInitialization): latest is the high
// watermark, earliest the log start offset.
func (l *PartitionedLog) initShare(g *shareGroup, tp TopicPartition) (*sharePartition, error) {
	if sp, ok := g.partitions[tp]; ok {
		return sp, nil
	}
	_, p, err := l.partition(tp.Topic, tp.Partition)
	if err != nil {
		return nil, err
	}
	sp := &sharePartition{tp: tp, start: p.highWatermark()}
	if g.cfg.AutoOffsetReset == ShareResetEarliest {
		sp.start = p.logStart
	}
	g.partitions[tp] = sp
	return sp, nil
}

// acquire acquires up to max records for member at now, as
// SharePartition.acquire does: first the available in-flight records in
// offset order, then new records from the log up to the high watermark,
// never past share.partition.max.record.locks in flight. A record with
// throttleLimit deliveries or more is delivered alone: it ends the
// acquisition, and is not taken after others
// (SharePartition.shouldThrottleRecordsDelivery and
// acquireSubsetBatchRecords). Each acquired record's delivery count goes
// up by one and its lock runs share.record.lock.duration.ms.
func (l *PartitionedLog) acquire(g *shareGroup, sp *sharePartition, member string, maxRecords int, now int64) ([]int64, error) {
	_, p, err := l.partition(sp.tp.Topic, sp.tp.Partition)
	if err != nil {
		return nil, err
	}
	if p.offline() {
		return nil, nil // no leader to fetch from: nothing this time
	}
	sp.archiveBelowLogStart(l, g, p.logStart)
	limit := min(maxRecords, g.cfg.PartitionMaxRecordLocks-sp.inFlight())
	newRecords := true
	if limit <= 0 {
		// At the in-flight limit a fetch still takes records between the
		// start and end offsets (lastOffsetAndMaxRecordsToAcquire).
		limit, newRecords = maxRecords, false
	}
	var got []int64
	throttle := throttleLimit(g.cfg.DeliveryCountLimit)
	lock := now + g.cfg.RecordLockDurationMs
	for i := range sp.records {
		r := &sp.records[i]
		if len(got) >= limit {
			break
		}
		if r.state != RecordAvailable {
			continue
		}
		throttled := r.deliveries >= throttle
		if throttled && len(got) > 0 {
			return got, nil
		}
		r.state, r.member, r.lockUntil = RecordAcquired, member, lock
		r.deliveries++
		sp.locksChanged = true
		got = append(got, r.offset)
		l.emit(Event{Kind: EventShareAcquired, Group: g.name, Member: member, Topic: sp.tp.Topic, Partition: sp.tp.Partition, Offset: r.offset, Count: r.deliveries})
		if throttled {
			return got, nil
		}
	}
	if !newRecords || len(got) >= limit {
		return got, nil
	}
	from := sp.start
	if len(sp.records) > 0 {
		from = sp.end() + 1
	}
	hw := p.highWatermark()
	if from < p.logStart {
		from = p.logStart
	}
	if from >= hw {
		return got, nil
	}
	for _, rec := range p.records.collect(from, hw, limit-len(got)) {
		sp.records = append(sp.records, inFlightRecord{offset: rec.Offset, state: RecordAcquired, deliveries: 1, member: member, lockUntil: lock})
		sp.locksChanged = true
		got = append(got, rec.Offset)
		l.emit(Event{Kind: EventShareAcquired, Group: g.name, Member: member, Topic: sp.tp.Topic, Partition: sp.tp.Partition, Offset: rec.Offset, Count: 1})
	}
	return got, nil
}

// archiveBelowLogStart archives what retention or truncation removed
// below the start offset and moves the start offset to the log start
// (SharePartition.archiveAvailableRecordsOnLsoMovement): records that
// are gone from the log are never delivered again.
func (sp *sharePartition) archiveBelowLogStart(l *PartitionedLog, g *shareGroup, logStart int64) {
	if logStart <= sp.start {
		return
	}
	kept := sp.records[:0]
	for _, r := range sp.records {
		if r.offset >= logStart {
			kept = append(kept, r)
		} else if r.state == RecordAcknowledged || r.state == RecordArchived {
			sp.deliveryComplete--
		}
	}
	sp.records = kept
	sp.start = logStart
	sp.locksChanged = true
	sp.advanceStart()
}

// settle moves a record out of Acquired: to Available, or to Archived
// when it has had share.delivery.count.limit deliveries
// (InFlightState.tryUpdateState, Kafka 4.4), or to Acknowledged or
// Archived.
func (sp *sharePartition) settle(l *PartitionedLog, g *shareGroup, i int, state string, cause Cause, why string) {
	r := &sp.records[i]
	if state == RecordAvailable && r.deliveries >= g.cfg.DeliveryCountLimit {
		state = RecordArchived
		why += fmt.Sprintf(": its delivery count reached share.delivery.count.limit=%d", g.cfg.DeliveryCountLimit)
	}
	holder := r.member
	r.state, r.member, r.lockUntil = state, "", 0
	sp.locksChanged = true
	if state == RecordAcknowledged || state == RecordArchived {
		sp.deliveryComplete++
	}
	kind := EventShareReleased
	switch state {
	case RecordAcknowledged:
		kind = EventShareAcknowledged
	case RecordArchived:
		kind = EventShareArchived
	}
	l.emit(Event{Kind: kind, Group: g.name, Member: holder, Topic: sp.tp.Topic, Partition: sp.tp.Partition, Offset: r.offset, Count: r.deliveries, Cause: cause, Detail: why})
}

// persist is SharePartition.writeShareGroupState: the share coordinator
// keeps the start offset and the delivered count as they are now, before
// advanceStart moves the start offset on.
func (sp *sharePartition) persist() {
	sp.reportedStart, sp.reportedComplete, sp.reported = sp.start, sp.deliveryComplete, true
}

// advanceStart moves the start offset past the acknowledged and archived
// records at its head, and forgets them
// (SharePartition.maybeUpdateCachedStateAndOffsets): when every in-flight
// record is done, the start offset goes past the last one.
func (sp *sharePartition) advanceStart() {
	n := 0
	for n < len(sp.records) && (sp.records[n].state == RecordAcknowledged || sp.records[n].state == RecordArchived) {
		n++
	}
	if n == 0 {
		return
	}
	if n == len(sp.records) {
		sp.start = sp.records[n-1].offset + 1
		sp.records = sp.records[:0]
		sp.deliveryComplete = 0
		return
	}
	sp.start = sp.records[n].offset
	sp.records = slices.Delete(sp.records, 0, n)
	sp.deliveryComplete -= n
}

// nextLockExpiry is the earliest lock deadline of the partition's
// acquired records.
func (sp *sharePartition) nextLockExpiry() (int64, bool) {
	if !sp.locksChanged {
		return sp.nextLock, sp.hasLock
	}
	next, ok := int64(0), false
	for _, r := range sp.records {
		if r.state == RecordAcquired && (!ok || r.lockUntil < next) {
			next, ok = r.lockUntil, true
		}
	}
	sp.nextLock, sp.hasLock, sp.locksChanged = next, ok, false
	return next, ok
}

// expireLocks releases the records whose locks are due at now
// (AcquisitionLockTimerTask, SharePartition.releaseAcquisitionLockOnTimeout).
// Kafka runs a timer per acquired batch and writes the state after each;
// the playground, whose records are not grouped in batches, writes once
// for the partition's records due together, so the start offset it
// reports (persist) may trail Kafka's by the batches between.
func (sp *sharePartition) expireLocks(l *PartitionedLog, g *shareGroup, now int64) {
	changed := false
	for i := range sp.records {
		r := &sp.records[i]
		if r.state == RecordAcquired && r.lockUntil <= now {
			sp.settle(l, g, i, RecordAvailable, CauseLockExpired, fmt.Sprintf("the acquisition lock of %s expired", r.member))
			changed = true
		}
	}
	if changed {
		sp.persist()
		sp.advanceStart()
	}
}

// releaseMember releases every record member holds
// (SharePartition.releaseAcquiredRecords, when its share session closes).
func (sp *sharePartition) releaseMember(l *PartitionedLog, g *shareGroup, member string) {
	changed := false
	for i := range sp.records {
		if sp.records[i].state == RecordAcquired && sp.records[i].member == member {
			sp.settle(l, g, i, RecordAvailable, CauseNone, member+" closed its share session")
			changed = true
		}
	}
	if changed {
		sp.persist()
		sp.advanceStart()
	}
}
