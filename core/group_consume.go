package core

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"plog/core/assign"
	"plog/core/units"
)

// MaxPollRecords is the most records one Poll may ask for (Kafka's
// max.poll.records defaults to 500).
const MaxPollRecords = 100_000

// Delivery is one record handed to a member by a poll.
type Delivery struct {
	Topic      string
	Partition  int
	Record     Record
	Member     string
	Time       int64
	Generation int
	// Redelivery says the group had delivered this offset before: after a
	// crash, a rebalance or a reset, records since the last commit come
	// again (at-least-once).
	Redelivery bool
}

// The outcomes of a delivery, for DeliveryLogEntry.Outcome.
const (
	// OutcomeProcessing: the member is processing it (it came in its last
	// poll).
	OutcomeProcessing = "processing"
	// OutcomeProcessed: the member polled again, committed (at-least-once)
	// or left, so it finished processing it.
	OutcomeProcessed = "processed"
	// OutcomeUnprocessed: the member stopped while processing it and its
	// offset was not committed: the next owner receives it again.
	OutcomeUnprocessed = "unprocessed"
	// OutcomeLost: the member stopped while processing it but had already
	// committed its offset: nobody will process it (at-most-once).
	OutcomeLost = "lost"
)

// DeliveryLogEntry is a delivery with what became of it.
type DeliveryLogEntry struct {
	Delivery
	Outcome string
}

// DeliveryTotals counts a group's deliveries since it was created.
type DeliveryTotals struct {
	Delivered   int64
	Redelivered int64 // deliveries of offsets the group had delivered before
	// LostUnprocessed counts records whose offsets were committed before a
	// member that was processing them stopped (at-most-once).
	LostUnprocessed int64
	// SkippedByReset counts offsets auto.offset.reset jumped over because
	// the position or committed offset was below the log start: records
	// retention or truncation removed before the group read them.
	SkippedByReset int64
}

// Poll returns up to max records from the member's partitions and advances
// its positions, never past the high watermark. Order: the partitions are
// visited from the one that has waited longest; each gives as many records
// as it has, up to what is left of max, and a partition that gave records
// moves to the back of the order for the next poll (as Kafka's consumer
// moves a fetched partition to the end), so a busy partition cannot starve
// the others.
//
// A partition without a position starts at the committed offset; with no
// committed offset, or one below the log start, auto.offset.reset decides
// (none: the poll fails and nothing changes). Partitions paused by a
// rebalance give nothing. Polling also finishes processing the previous
// poll's records, and with auto-commit on commits the positions first once
// the interval has passed.
//
// From rules 4 a poll is also where the member rejoins a rebalance running,
// and restarts its max.poll.interval.ms (group_timing.go).
func (l *PartitionedLog) Poll(groupName, memberID string, max int) ([]Delivery, error) {
	g, m, err := l.liveMember(groupName, memberID)
	if err != nil {
		return nil, err
	}
	if max < 1 || max > MaxPollRecords {
		return nil, fmt.Errorf("poll of group %q by %q: max must be between 1 and %d, got %d", groupName, memberID, MaxPollRecords, max)
	}
	if !g.timing() {
		return l.poll(g, m, max)
	}
	// A member rejoins in its poll: a classic group's rebalance, or, for a
	// classic member of a consumer group, when the coordinator wants it to
	// (group_migration.go).
	rejoin := (*PartitionedLog).rejoin
	needed := g.rebalance != nil && !m.rejoined
	if g.consumer() {
		rejoin, needed = (*PartitionedLog).classicRejoin, m.classic() && g.classicRejoinNeeded(m)
	}
	if needed {
		if g.config.AutoOffsetReset == "none" {
			// The rejoin may hand out partitions with nowhere to
			// start: try it on a copy, so that a poll that fails
			// changes nothing.
			dry := l.Clone()
			dg, dm, _ := dry.liveMember(groupName, memberID)
			rejoin(dry, dg, dm)
			if _, err := dry.poll(dg, dm, max); err != nil {
				return nil, err
			}
		}
		rejoin(l, g, m)
	}
	deliveries, err := l.poll(g, m, max)
	if err == nil {
		m.lastPoll = l.now
	}
	return deliveries, err
}

// poll is Poll's fetch, for a live member and a valid max.
func (l *PartitionedLog) poll(g *group, m *member, max int) ([]Delivery, error) {
	var order []TopicPartition
	for _, tp := range m.pollOrder {
		if !g.isPaused(tp) {
			order = append(order, tp)
		}
	}
	starts, err := l.startPositions(g, m, order)
	if err != nil {
		return nil, err
	}

	l.finishInFlight(g, m)
	if g.config.AutoCommit && l.now-m.lastAutoCommit >= g.config.AutoCommitIntervalMs {
		l.commitPositions(g, m)
		m.lastAutoCommit = l.now
	}
	for _, s := range starts {
		l.resetPosition(g, m, s)
	}

	var deliveries []Delivery
	var gave []TopicPartition
	m.inFlightFrom = g.deliverySeq
	for _, tp := range order {
		if len(deliveries) == max {
			break
		}
		p := l.topics[tp.Topic].partitions[tp.Partition]
		if p.offline() {
			continue // no leader to fetch from
		}
		next := int64(-1)
		for r := range p.records.between(m.positions[tp], p.fetchEnd(g.config.IsolationLevel)) {
			if len(deliveries) == max {
				break
			}
			if p.skipsInFetch(r, g.config.IsolationLevel) { // markers, and aborted records for read_committed (txn_read.go)
				next = r.Offset + 1
				continue
			}
			d := Delivery{Topic: tp.Topic, Partition: tp.Partition, Record: r, Member: m.id, Time: l.now, Generation: g.generation,
				Redelivery: r.Offset < g.deliveredTo[tp]}
			deliveries = append(deliveries, d)
			g.logDelivery(d)
			detail := ""
			if d.Redelivery {
				detail = "redelivery"
			}
			l.emit(Event{Kind: EventDelivered, Group: g.name, Member: m.id, Topic: tp.Topic, Partition: tp.Partition, Offset: r.Offset, Generation: g.generation, Detail: detail})
			next = r.Offset + 1
		}
		if next < 0 {
			continue
		}
		m.setPosition(tp, next)
		g.deliveredTo[tp] = max64(g.deliveredTo[tp], m.positions[tp])
		gave = append(gave, tp)
	}
	m.inFlightTo = g.deliverySeq
	given := setOf(gave)
	m.pollOrder = slices.DeleteFunc(m.pollOrder, func(tp TopicPartition) bool { return given.has(tp) })
	m.pollOrder = append(m.pollOrder, gave...)
	l.noteEmptyPoll(g, m, order, len(deliveries) == 0)
	return deliveries, nil
}

// noteEmptyPoll keeps why a poll got no record, for the member's view, and
// says it in a polled-nothing event when the member's polls have not given
// that reason before: a consumer workload that keeps catching up with its
// partitions says once that it is at their end, not at every tick. order
// is the partitions the poll could read.
func (l *PartitionedLog) noteEmptyPoll(g *group, m *member, order []TopicPartition, empty bool) {
	if !empty {
		m.emptyPoll = ""
		return
	}
	why := l.whyNothing(g, m, order)
	if why != m.saidEmpty {
		l.emit(Event{Kind: EventPolledNothing, Group: g.name, Member: m.id, Generation: g.generation, Detail: why})
		m.saidEmpty = why
	}
	m.emptyPoll, m.emptyPollAt = why, l.now
}

// whyNothing says why a poll that could read the partitions in order got
// no record. It follows Kafka 4.x's consumer
// (org.apache.kafka.clients.consumer.internals.ClassicKafkaConsumer.poll):
// while its group rebalances a member fetches nothing from partitions it
// does not own yet or is giving up (ConsumerCoordinator's join and revoke),
// a member the assignor gave nothing has nothing to fetch, and a fetch
// reads only below the high watermark (kafka.cluster.Partition.fetchRecords
// with FetchIsolation.HIGH_WATERMARK), so records the followers in the ISR
// have not copied yet are not returned.
func (l *PartitionedLog) whyNothing(g *group, m *member, order []TopicPartition) string {
	if g.consumer() {
		if why := l.consumerWhyNothing(g, m); why != "" {
			return why
		}
	}
	r := g.rebalance
	if r != nil && g.timing() {
		switch {
		case len(m.assigned) == 0:
			return fmt.Sprintf("the group is still rebalancing: %s gets its partitions when the rebalance completes; %s", m.id, l.rebalanceWait(g))
		case len(order) == 0:
			return "its partitions are paused while the group rebalances; " + l.rebalanceWait(g)
		}
	}
	switch {
	case len(m.assigned) == 0 && r != nil:
		return fmt.Sprintf("the group is still rebalancing: %s gets its partitions when the rebalance completes, due at %s", m.id, units.Duration(r.doneAt))
	case len(m.assigned) == 0:
		return fmt.Sprintf("%s has no partitions: the assignor gave every partition of its topics to other members", m.id)
	case len(order) == 0:
		return fmt.Sprintf("its partitions are paused while the group rebalances, until the rebalance completes, due at %s", units.Duration(r.doneAt))
	}
	offline, unreplicated, held := 0, int64(0), ""
	for _, tp := range order {
		t := l.topics[tp.Topic]
		p := t.partitions[tp.Partition]
		if p.offline() {
			offline++
			continue
		}
		unreplicated += max(0, p.next-p.highWatermark())
		if why := l.hwHeldReason(t, p.replicas); why != "" && held == "" && p.next > p.highWatermark() {
			held = fmt.Sprintf("%s/%d: %s", tp.Topic, tp.Partition, why)
		}
	}
	paused := ""
	if n := len(m.assigned) - len(order); n > 0 {
		paused = fmt.Sprintf("; %d of its partitions are paused while the group rebalances", n)
	}
	switch {
	case offline == len(order):
		return "its partitions are offline: no leader to fetch from" + paused
	case held != "":
		return fmt.Sprintf("it is at the high watermark of its partitions: %d records above it are not committed, and consumers read only below it; on %s%s", unreplicated, held, paused)
	case unreplicated > 0:
		return fmt.Sprintf("it is at the high watermark of its partitions: %d records above it are not yet replicated to every in-sync replica, and consumers read only below it%s", unreplicated, paused)
	}
	if why := l.waitingAtLSO(g, m, order); why != "" { // txn_read.go
		return why + paused
	}
	return "it is at the end of its partitions: no record past its positions" + paused
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// startPosition is where a poll starts reading a partition that needs a
// reset: the offset it had (if any) and the one it resets to.
type startPosition struct {
	tp       TopicPartition
	had      int64
	hadAny   bool
	resetsTo int64
}

// startPositions works out, without changing anything, which partitions
// need a position before the poll and where they start. It fails when
// auto.offset.reset is none and one of them has nowhere to start.
func (l *PartitionedLog) startPositions(g *group, m *member, order []TopicPartition) ([]startPosition, error) {
	var starts []startPosition
	for _, tp := range order {
		p := l.topics[tp.Topic].partitions[tp.Partition]
		pos, ok := m.positions[tp]
		hw := p.highWatermark() // above it after an unclean election: out of range
		if ok && pos >= p.logStart && pos <= hw {
			continue
		}
		s := startPosition{tp: tp, had: pos, hadAny: ok}
		if !ok {
			s.had, s.hadAny = g.committed[tp]
			if s.hadAny && s.had >= p.logStart && s.had <= hw {
				s.resetsTo = s.had // the committed offset is valid: no reset
				starts = append(starts, s)
				continue
			}
		}
		switch g.config.AutoOffsetReset {
		case "earliest":
			s.resetsTo = p.logStart
		case "latest":
			s.resetsTo = hw
		default:
			if s.hadAny && s.had > hw {
				return nil, fmt.Errorf("%s: offset %d is above the high watermark %d and auto.offset.reset is none (Kafka: OffsetOutOfRangeException)", tp, s.had, hw)
			}
			if s.hadAny {
				return nil, fmt.Errorf("%s: offset %d is below the log start offset %d and auto.offset.reset is none (Kafka: OffsetOutOfRangeException)", tp, s.had, p.logStart)
			}
			return nil, fmt.Errorf("%s: group %q has no committed offset and auto.offset.reset is none (Kafka: NoOffsetForPartitionException)", tp, g.name)
		}
		starts = append(starts, s)
	}
	return starts, nil
}

// resetPosition sets a starting position and counts the offsets a reset
// jumped over as lost to retention.
func (l *PartitionedLog) resetPosition(g *group, m *member, s startPosition) {
	m.setPosition(s.tp, s.resetsTo)
	if !s.hadAny || s.resetsTo <= s.had {
		return
	}
	skipped := s.resetsTo - s.had
	g.skipped[s.tp] += skipped
	g.totals.SkippedByReset += skipped
	l.emit(Event{Kind: EventLostToReset, Group: g.name, Member: m.id, Topic: s.tp.Topic, Partition: s.tp.Partition,
		From: s.had, To: s.resetsTo, Count: int(min(skipped, int64(maxInt))), Detail: "auto.offset.reset=" + g.config.AutoOffsetReset})
}

const maxInt = int(^uint(0) >> 1)

func (m *member) setPosition(tp TopicPartition, offset int64) {
	if m.positions == nil {
		m.positions = map[TopicPartition]int64{}
	}
	m.positions[tp] = offset
}

// logDelivery appends to the delivery log. The log keeps at least the
// latest maxDeliveryLog deliveries; it is cut back only when it reaches
// twice that, so appending stays cheap.
func (g *group) logDelivery(d Delivery) {
	if len(g.deliveries) >= 2*maxDeliveryLog {
		g.deliveries = slices.Delete(g.deliveries, 0, len(g.deliveries)-maxDeliveryLog)
	}
	g.deliveries = append(g.deliveries, DeliveryLogEntry{Delivery: d, Outcome: OutcomeProcessing})
	g.deliverySeq++
	g.totals.Delivered++
	if d.Redelivery {
		g.totals.Redelivered++
	}
}

// finishInFlight marks the member's last poll as processed.
func (l *PartitionedLog) finishInFlight(g *group, m *member) {
	for _, e := range g.inFlightEntries(m) {
		e.Outcome = OutcomeProcessed
	}
}

// abandonInFlight settles the last poll of a member that stops: records
// whose offsets are committed are lost, the others will come again.
func (l *PartitionedLog) abandonInFlight(g *group, m *member) {
	lost := map[TopicPartition][]int64{}
	for _, e := range g.inFlightEntries(m) {
		tp := TopicPartition{Topic: e.Topic, Partition: e.Partition}
		if committed, ok := g.committed[tp]; ok && committed > e.Record.Offset {
			e.Outcome = OutcomeLost
			lost[tp] = append(lost[tp], e.Record.Offset)
			g.totals.LostUnprocessed++
		} else {
			e.Outcome = OutcomeUnprocessed
		}
	}
	tps := slices.SortedFunc(maps.Keys(lost), assign.ComparePartitions)
	for _, tp := range tps {
		offsets := lost[tp]
		l.emit(Event{Kind: EventLostUnprocessed, Group: g.name, Member: m.id, Topic: tp.Topic, Partition: tp.Partition,
			From: offsets[0], To: offsets[len(offsets)-1] + 1, Count: len(offsets), Detail: "committed before processing"})
	}
}

// inFlightEntries returns pointers to the log entries of the member's last
// poll still in the log, and forgets the poll.
func (g *group) inFlightEntries(m *member) []*DeliveryLogEntry {
	first := g.deliverySeq - int64(len(g.deliveries))
	from := max64(m.inFlightFrom, first) - first
	to := max64(m.inFlightTo, first) - first
	m.inFlightFrom, m.inFlightTo = 0, 0
	entries := make([]*DeliveryLogEntry, 0, to-from)
	for i := from; i < to; i++ {
		entries = append(entries, &g.deliveries[i])
	}
	return entries
}

// Commit commits the member's positions as the group's committed offsets:
// for each partition it holds, the next offset to read. Under
// delivery=at-least-once the member has processed its last poll by then.
// During an eager rebalance a member holds nothing, so there is nothing to
// commit.
func (l *PartitionedLog) Commit(groupName, memberID string) error {
	g, m, err := l.liveMember(groupName, memberID)
	if err != nil {
		return err
	}
	if g.config.Delivery == AtLeastOnce {
		l.finishInFlight(g, m)
	}
	l.commitPositions(g, m)
	return nil
}

// CommitWithEpoch is Commit carrying a member epoch, as a consumer-protocol
// client's OffsetCommit does: the epoch it last heard from the coordinator.
// A commit at an epoch the coordinator does not take for the partitions it
// commits is refused (STALE_MEMBER_EPOCH, ConsumerGroup.validateOffsetCommit
// of Kafka 4.4; checkCommitEpoch), as it is when the member's heartbeat
// moved it to a new epoch while the commit was on its way. Classic groups
// have no member epoch.
func (l *PartitionedLog) CommitWithEpoch(groupName, memberID string, epoch int) error {
	g, m, err := l.liveMember(groupName, memberID)
	if err != nil {
		return err
	}
	var committing []TopicPartition // what commitPositions commits
	for _, tp := range m.assigned {
		if _, ok := m.positions[tp]; ok {
			committing = append(committing, tp)
		}
	}
	if err := l.checkCommitEpoch(g, m, epoch, committing); err != nil {
		return fmt.Errorf("group %q refuses the commit of %q: %v", groupName, memberID, err)
	}
	return l.Commit(groupName, memberID)
}

func (l *PartitionedLog) commitPositions(g *group, m *member) {
	l.commitPartitions(g, m, m.assigned)
}

// commitPartitions commits the member's positions on the partitions tps.
func (l *PartitionedLog) commitPartitions(g *group, m *member, tps []TopicPartition) {
	for _, tp := range tps {
		if pos, ok := m.positions[tp]; ok {
			g.committed[tp] = pos
			l.emit(Event{Kind: EventCommitted, Group: g.name, Member: m.id, Topic: tp.Topic, Partition: tp.Partition, Offset: pos})
		}
	}
}

// CommitOffset commits an offset for one partition on behalf of the group,
// as a consumer's commitSync with explicit offsets does (through a running
// member) or, for a group with no running member, an admin client does.
// The offset is the next one to read, from 0 up to the high watermark; it
// does not move any member's position.
//
// Under rules 3, a commit from outside the group (no running member to
// commit through) is refused while the group is not empty: a member that
// crashed, or a static member that shut down, stays in the group until its
// session times out. Kafka's coordinator answers such a commit, which
// carries no member id and generation -1, UNKNOWN_MEMBER_ID unless the
// group is Empty (org.apache.kafka.coordinator.group.classic.ClassicGroup.
// validateOffsetCommit, called by OffsetMetadataManager, Kafka 4.x). Rules
// 1 and 2 accepted it.
func (l *PartitionedLog) CommitOffset(groupName, topicName string, partition int, offset int64) error {
	g, err := l.group(groupName)
	if err != nil {
		return err
	}
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return err
	}
	if hw := p.highWatermark(); offset < 0 || offset > hw {
		return fmt.Errorf("group %q cannot commit offset %d on %s/%d: offsets go from 0 to the high watermark %d", groupName, offset, topicName, partition, hw)
	}
	if why := l.outsideCommitRefused(g); why != "" {
		return fmt.Errorf("group %q cannot commit offset %d on %s/%d from outside the group: %s", groupName, offset, topicName, partition, why)
	}
	g.committed[TopicPartition{Topic: topicName, Partition: partition}] = offset
	g.revive()
	l.emit(Event{Kind: EventCommitted, Group: groupName, Topic: topicName, Partition: partition, Offset: offset})
	return nil
}

// outsideCommitRefused says why, under rules 3, a commit from outside the
// group is refused now: it has no running member to commit through and is
// not empty (see CommitOffset); "" when a commit would be taken.
func (l *PartitionedLog) outsideCommitRefused(g *group) string {
	if !l.follows(OutsideCommitRefused) || g.hasRunningMember() {
		return ""
	}
	who := g.activeMembers()
	if who == "" {
		return ""
	}
	return fmt.Sprintf("it is not empty (%s), and Kafka refuses a commit with no member id while the group has members (UNKNOWN_MEMBER_ID): commit through a running member, or once the group is empty", who)
}

// GroupOffsets returns the group's committed offsets: for each partition,
// the next offset the group will read.
func (l *PartitionedLog) GroupOffsets(groupName string) (map[TopicPartition]int64, error) {
	g, err := l.group(groupName)
	if err != nil {
		return nil, err
	}
	return maps.Clone(g.committed), nil
}

// The targets of ResetOffsets, as kafka-consumer-groups --reset-offsets
// names them.
const (
	ResetToEarliest = "to-earliest"
	ResetToLatest   = "to-latest"
	ResetToOffset   = "to-offset"
	ResetToDatetime = "to-datetime"
)

// ResetSpec says where to move a group's committed offsets.
type ResetSpec struct {
	To       string // to-earliest, to-latest, to-offset, to-datetime
	Offset   int64  // for to-offset; clamped to the log start and high watermark, as Kafka's tool does
	Datetime int64  // for to-datetime: the first record at or after this virtual time, or the high watermark
	// Topic limits the reset to one topic; empty means every topic the group
	// has committed offsets for (Kafka's --all-topics).
	Topic string
	// Partitions limits the reset to some partitions of Topic; empty means
	// all of them.
	Partitions []int
}

// ResetOffsets moves committed offsets like kafka-consumer-groups
// --reset-offsets --execute. Like Kafka, it works only on a group with no
// active members: members that crashed count until their session expires.
func (l *PartitionedLog) ResetOffsets(groupName string, spec ResetSpec) error {
	g, err := l.group(groupName)
	if err != nil {
		return err
	}
	if who := g.activeMembers(); who != "" {
		return fmt.Errorf("group %q has active members (%s): Kafka resets offsets only when a group is inactive; stop its consumers first", groupName, who)
	}
	if !slices.Contains([]string{ResetToEarliest, ResetToLatest, ResetToOffset, ResetToDatetime}, spec.To) {
		return fmt.Errorf("unknown reset %q: use %s, %s, %s or %s", spec.To, ResetToEarliest, ResetToLatest, ResetToOffset, ResetToDatetime)
	}
	tps, err := l.resetPartitions(g, spec)
	if err != nil {
		return err
	}
	targets := make([]int64, len(tps))
	for i, tp := range tps {
		p := l.topics[tp.Topic].partitions[tp.Partition]
		hw := p.highWatermark()
		switch spec.To {
		case ResetToEarliest:
			targets[i] = p.logStart
		case ResetToLatest:
			targets[i] = hw
		case ResetToOffset:
			targets[i] = min(max(spec.Offset, p.logStart), hw)
		case ResetToDatetime:
			targets[i] = hw
			for r := range p.records.between(math.MinInt64, hw) {
				if r.Timestamp >= spec.Datetime {
					targets[i] = r.Offset
					break
				}
			}
		}
	}
	g.revive()
	for i, tp := range tps {
		g.committed[tp] = targets[i]
		l.emit(Event{Kind: EventOffsetsReset, Group: groupName, Topic: tp.Topic, Partition: tp.Partition, Offset: targets[i], Detail: spec.To})
	}
	return nil
}

// resetPartitions lists the partitions a reset covers, sorted.
func (l *PartitionedLog) resetPartitions(g *group, spec ResetSpec) ([]TopicPartition, error) {
	if spec.Topic == "" {
		if len(spec.Partitions) > 0 {
			return nil, fmt.Errorf("a reset of partitions needs a topic")
		}
		tps := slices.SortedFunc(maps.Keys(g.committed), assign.ComparePartitions)
		if len(tps) == 0 {
			return nil, fmt.Errorf("group %q has no committed offsets: name a topic to reset", g.name)
		}
		return tps, nil
	}
	t, err := l.topic(spec.Topic)
	if err != nil {
		return nil, err
	}
	var tps []TopicPartition
	if len(spec.Partitions) == 0 {
		for p := range t.partitions {
			tps = append(tps, TopicPartition{Topic: spec.Topic, Partition: p})
		}
		return tps, nil
	}
	for _, p := range spec.Partitions {
		if _, _, err := l.partition(spec.Topic, p); err != nil {
			return nil, err
		}
		if tp := (TopicPartition{Topic: spec.Topic, Partition: p}); !slices.Contains(tps, tp) {
			tps = append(tps, tp)
		}
	}
	slices.SortFunc(tps, assign.ComparePartitions)
	return tps, nil
}
