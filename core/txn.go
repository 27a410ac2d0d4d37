package core

import (
	"fmt"
	"maps"
	"slices"
)

// Transactions, as Kafka 4.4 runs them with the transaction protocol v2
// (KIP-890): the client's TransactionManager (its states), the
// TransactionCoordinator and TransactionStateManager (a transactional.id's
// producer id and epoch, its partitions, its timeout), and the partitions'
// side, ProducerStateManager and UnifiedLog (the open transactions, the
// markers, the last stable offset and the aborted transactions index).
// The __transaction_state and __consumer_offsets topics are not drawn:
// the coordinator's state lives here, and a transaction's offsets reach
// the group when it commits.

// ControlType says what a control record marks.
type ControlType uint8

// The control records: a transaction's markers (ControlRecordType).
const (
	ControlNone ControlType = iota
	ControlCommit
	ControlAbort
)

func (c ControlType) String() string {
	switch c {
	case ControlCommit:
		return "COMMIT"
	case ControlAbort:
		return "ABORT"
	}
	return ""
}

// txnState is a transactional producer's state, the client's
// (TransactionManager.State, Kafka 4.4) as far as the playground needs.
type txnState uint8

const (
	txnUninitialized txnState = iota // before initTransactions
	txnReady                         // between transactions
	txnInTransaction                 // after beginTransaction
)

func (s txnState) String() string {
	return [...]string{"uninitialized", "ready", "in-transaction"}[s]
}

// producerTxn is a transactional producer's side of its transaction.
type producerTxn struct {
	state txnState
}

func (t producerTxn) clone() producerTxn { return t }

// txnMetadata is the coordinator's entry for a transactional.id
// (TransactionMetadata, Kafka 4.4).
type txnMetadata struct {
	id         string
	producerID int64
	epoch      int
	owner      string // the producer that holds the epoch
	state      string // Empty, Ongoing, CompleteCommit, CompleteAbort
	partitions []TopicPartition
	// offsets are the group offsets sent to the transaction, by group.
	offsets   map[string]map[TopicPartition]int64
	startedAt int64 // txnStartTimestamp: when its first partition was added
	timeoutMs int64
}

func (m *txnMetadata) clone() *txnMetadata {
	c := *m
	c.partitions = slices.Clone(m.partitions)
	c.offsets = make(map[string]map[TopicPartition]int64, len(m.offsets))
	for g, o := range m.offsets {
		c.offsets[g] = maps.Clone(o)
	}
	return &c
}

// The coordinator's states a learner sees (TransactionState).
const (
	txnEmpty          = "Empty"
	txnOngoing        = "Ongoing"
	txnCompleteCommit = "CompleteCommit"
	txnCompleteAbort  = "CompleteAbort"
)

// maxProducerEpoch is the last epoch before the coordinator gives the
// transactional.id a new producer id (Short.MAX_VALUE - 1, Kafka 4.4).
const maxProducerEpoch = 32766

// errFenced is what a producer an newer one with its transactional.id
// fenced is told (Errors.PRODUCER_FENCED, Kafka 4.4).
const errFenced = "ProducerFencedException: There is a newer producer with the same transactionalId which fences the current one."

func (l *PartitionedLog) txnOf(p *producer) *txnMetadata {
	if p.config.TransactionalID == "" {
		return nil
	}
	return l.producers.coordinator[p.config.TransactionalID]
}

// checkFenced fences a transactional producer whose epoch the coordinator
// has moved past (a newer producer's initTransactions, or a timeout).
func (l *PartitionedLog) checkFenced(p *producer) error {
	if m := l.txnOf(p); m != nil && p.txn.state != txnUninitialized && (m.producerID != p.id || m.epoch > p.epoch) && p.fenced == "" {
		p.fenced = errFenced
	}
	if p.fenced != "" {
		return fmt.Errorf("producer %s: %s", p.name, p.fenced)
	}
	return nil
}

// checkSendable refuses a send a producer cannot make: a fenced one, and a
// transactional one outside a transaction (TransactionManager's
// IllegalStateException, Kafka 4.4).
func (l *PartitionedLog) checkSendable(p *producer) error {
	if p.config.TransactionalID == "" {
		return nil
	}
	if err := l.checkFenced(p); err != nil {
		return err
	}
	switch p.txn.state {
	case txnUninitialized:
		//lint:ignore ST1005 Kafka's own words (TransactionManager)
		return fmt.Errorf("producer %s: IllegalStateException: Cannot perform a 'send' before completing a call to initTransactions when transactions are enabled.", p.name)
	case txnReady:
		return fmt.Errorf("producer %s: IllegalStateException: Cannot call send in state READY: begin a transaction first", p.name)
	}
	return nil
}

// InitTransactions is KafkaProducer.initTransactions: the coordinator
// gives the producer's transactional.id its producer id and a new epoch.
// An open transaction of an earlier producer with the same
// transactional.id is aborted first, and that producer is fenced: its
// epoch is now old (TransactionCoordinator.handleInitProducerId).
func (l *PartitionedLog) InitTransactions(producerName string) error {
	p, err := l.producer(producerName)
	if err != nil {
		return err
	}
	if p.config.TransactionalID == "" {
		//lint:ignore ST1005 Kafka's own words (TransactionManager)
		return fmt.Errorf("producer %s: IllegalStateException: Transactional method invoked on a non-transactional producer.", producerName)
	}
	if p.fenced != "" {
		return fmt.Errorf("producer %s: %s", producerName, p.fenced)
	}
	if p.txn.state != txnUninitialized {
		return fmt.Errorf("producer %s: initTransactions was called already (its state is %s)", producerName, p.txn.state)
	}
	if p.config.TransactionTimeoutMs > transactionMaxTimeoutMs {
		//lint:ignore ST1005 Kafka's own words (Errors.INVALID_TRANSACTION_TIMEOUT)
		return fmt.Errorf("producer %s: transaction.timeout.ms=%d: INVALID_TRANSACTION_TIMEOUT: The transaction timeout is larger than the maximum value allowed by the broker (as configured by transaction.max.timeout.ms).", producerName, p.config.TransactionTimeoutMs)
	}
	s := &l.producers
	if s.coordinator == nil {
		s.coordinator = map[string]*txnMetadata{}
	}
	tid := p.config.TransactionalID
	m := s.coordinator[tid]
	switch {
	case m == nil:
		m = &txnMetadata{id: tid, producerID: s.nextID, state: txnEmpty, offsets: map[string]map[TopicPartition]int64{}}
		s.nextID++
		s.coordinator[tid] = m
		i, _ := slices.BinarySearch(s.txnIDs, tid)
		s.txnIDs = slices.Insert(s.txnIDs, i, tid)
	default:
		if m.state == txnOngoing {
			l.endTxn(m, false, "fenced: a new producer with transactional.id "+tid)
		}
		l.bumpEpoch(m)
	}
	m.owner, m.timeoutMs = producerName, p.config.TransactionTimeoutMs
	p.id, p.epoch, p.txn.state = m.producerID, m.epoch, txnReady
	clear(p.seq)
	l.emit(Event{Kind: EventTxnInit, Member: producerName, Count: int(m.producerID), Generation: m.epoch, Detail: "transactional.id " + tid})
	return nil
}

// bumpEpoch moves the coordinator's epoch on, with a new producer id when
// the epoch is spent (TransactionMetadata.prepareProducerIdRotation).
func (l *PartitionedLog) bumpEpoch(m *txnMetadata) {
	if m.epoch >= maxProducerEpoch {
		m.producerID, m.epoch = l.producers.nextID, 0
		l.producers.nextID++
		return
	}
	m.epoch++
}

// BeginTransaction is KafkaProducer.beginTransaction: a step of the
// client alone.
func (l *PartitionedLog) BeginTransaction(producerName string) error {
	p, err := l.transactional(producerName)
	if err != nil {
		return err
	}
	switch p.txn.state {
	case txnUninitialized:
		return fmt.Errorf("producer %s: IllegalStateException: Cannot begin a transaction before completing a call to initTransactions", producerName)
	case txnInTransaction:
		return fmt.Errorf("producer %s: IllegalStateException: a transaction is already open (TransactionalId %s: Invalid transition attempted from state IN_TRANSACTION to state IN_TRANSACTION)", producerName, p.config.TransactionalID)
	}
	p.txn.state = txnInTransaction
	return nil
}

// transactional returns a transactional producer that is not fenced.
func (l *PartitionedLog) transactional(producerName string) (*producer, error) {
	p, err := l.producer(producerName)
	if err != nil {
		return nil, err
	}
	if p.config.TransactionalID == "" {
		//lint:ignore ST1005 Kafka's own words (TransactionManager)
		return nil, fmt.Errorf("producer %s: IllegalStateException: Transactional method invoked on a non-transactional producer.", producerName)
	}
	if err := l.checkFenced(p); err != nil {
		return nil, err
	}
	return p, nil
}

// addPartitionToTxn adds a partition to the producer's open transaction
// (KIP-890 v2: the produce request adds it); the first one starts the
// transaction's timeout.
func (l *PartitionedLog) addPartitionToTxn(p *producer, tp TopicPartition) {
	m := l.txnOf(p)
	if m == nil || slices.Contains(m.partitions, tp) {
		return
	}
	if m.state != txnOngoing {
		m.state, m.startedAt = txnOngoing, l.now
	}
	i, _ := slices.BinarySearchFunc(m.partitions, tp, compareTP)
	m.partitions = slices.Insert(m.partitions, i, tp)
}

// SendOffsetsToTransaction is KafkaProducer.sendOffsetsToTransaction with
// the positions of the group's members: the consume-transform-produce
// loop's offsets, which the group sees only when the transaction commits
// (TxnOffsetCommit; a group's pending transactional offsets in
// OffsetMetadataManager).
func (l *PartitionedLog) SendOffsetsToTransaction(producerName, groupName string) error {
	p, err := l.transactional(producerName)
	if err != nil {
		return err
	}
	if p.txn.state != txnInTransaction {
		return fmt.Errorf("producer %s: IllegalStateException: Cannot send offsets if a transaction is not in progress (currentState= %s)", producerName, p.txn.state)
	}
	g, err := l.group(groupName)
	if err != nil {
		return err
	}
	m := l.txnOf(p)
	offsets := map[TopicPartition]int64{}
	for _, mem := range g.members {
		for tp, pos := range mem.positions {
			offsets[tp] = pos
		}
	}
	if len(offsets) == 0 {
		return fmt.Errorf("group %q: no member has read anything yet, so there are no offsets to send", groupName)
	}
	if m.state != txnOngoing {
		m.state, m.startedAt = txnOngoing, l.now
	}
	if m.offsets[groupName] == nil {
		m.offsets[groupName] = map[TopicPartition]int64{}
	}
	maps.Copy(m.offsets[groupName], offsets)
	return nil
}

// CommitTransaction and AbortTransaction are KafkaProducer's: the
// coordinator ends the transaction (EndTxn), writes a marker in every
// partition it touched, and, KIP-890 v2, bumps the epoch, which the
// producer takes for its next transaction. Under rules 5 a transaction
// with nothing in it ends in the client alone, keeping the epoch.
func (l *PartitionedLog) CommitTransaction(producerName string) error {
	return l.endTransaction(producerName, true)
}

// AbortTransaction: see CommitTransaction.
func (l *PartitionedLog) AbortTransaction(producerName string) error {
	return l.endTransaction(producerName, false)
}

func (l *PartitionedLog) endTransaction(producerName string, commit bool) error {
	p, err := l.transactional(producerName)
	if err != nil {
		return err
	}
	if p.txn.state != txnInTransaction {
		verb := "commit"
		if !commit {
			verb = "abort"
		}
		return fmt.Errorf("producer %s: IllegalStateException: Cannot attempt operation `%sTransaction` because the previous call to `initTransactions` or `beginTransaction` did not complete (state %s)", producerName, verb, p.txn.state)
	}
	m := l.txnOf(p)
	why, cause := "committed", CauseCommit
	if !commit {
		why, cause = "aborted", CauseAbort
	}
	if l.follows(EmptyTxnEndsInProducer) && m.state != txnOngoing {
		// Nothing was sent in it and no offsets: Kafka 4.4's producer
		// sends no EndTxn, and goes back to READY with its epoch
		// (kafka-clients 4.4.0 TransactionManager.nextRequest, "Not
		// sending EndTxn for completed transaction since no send or
		// sendOffsetsToTransaction were triggered"; resetTransactionState).
		// Rules 4 end it on the coordinator, which bumps the epoch.
		p.txn.state = txnReady
		l.emit(Event{Kind: EventTxnEmpty, Member: producerName, Count: int(m.producerID), Generation: m.epoch, Detail: why, Cause: cause})
		return nil
	}
	l.endTxn(m, commit, why)
	p.epoch, p.id, p.txn.state = m.epoch, m.producerID, txnReady
	clear(p.seq)
	return nil
}

// endTxn ends m's transaction: the epoch is bumped (KIP-890 v2), a marker
// is written with it in each partition, the offsets sent to it reach
// their groups if it commits, and the coordinator's entry is complete.
func (l *PartitionedLog) endTxn(m *txnMetadata, commit bool, why string) {
	l.bumpEpoch(m)
	control, cause := ControlAbort, CauseAbort
	if commit {
		control, cause = ControlCommit, CauseCommit
	}
	for _, tp := range m.partitions {
		t := l.topics[tp.Topic]
		part := t.partitions[tp.Partition]
		offset := part.next
		r := Record{Offset: offset, Timestamp: l.now, Control: control}
		l.stored += part.append(&r, recordSize("", "")+controlRecordBytes, &t.config)
		l.afterAppend(t, tp.Partition, part, offset, acksAll)
		st := part.producerStates()
		first, open := st.ongoing[m.producerID]
		if !open {
			first = offset
		}
		delete(st.ongoing, m.producerID)
		st.completed = append(st.completed, txnSpan{producerID: m.producerID, first: first, last: offset, committed: commit})
		// The marker carries the new epoch: the partition's entry for the
		// producer takes it, and its sequences start again.
		st.entries[m.producerID] = &producerEntry{epoch: m.epoch}
		l.emit(Event{Kind: EventTxnMarker, Member: m.owner, Topic: tp.Topic, Partition: tp.Partition, Offset: offset, Detail: control.String(), Cause: cause})
	}
	if commit {
		for _, groupName := range slices.Sorted(maps.Keys(m.offsets)) {
			g, err := l.group(groupName)
			if err != nil {
				continue
			}
			offsets := m.offsets[groupName]
			for _, tp := range slices.SortedFunc(maps.Keys(offsets), compareTP) {
				g.committed[tp] = offsets[tp]
				l.emit(Event{Kind: EventCommitted, Group: groupName, Topic: tp.Topic, Partition: tp.Partition, Offset: offsets[tp],
					Detail: "transactional.id " + m.id + " committed"})
			}
		}
	}
	clear(m.offsets)
	m.partitions = nil
	m.state = txnCompleteAbort
	if commit {
		m.state = txnCompleteCommit
	}
	l.emit(Event{Kind: EventTxnEnded, Member: m.owner, Count: int(m.producerID), Generation: m.epoch, Detail: why, Cause: cause})
}

// controlRecordBytes is what a marker adds to a record's size: its
// control key and value (version, coordinator epoch).
const controlRecordBytes = 10

// transactionMaxTimeoutMs is the brokers' transaction.max.timeout.ms
// default (15 minutes, TransactionStateManagerConfig, Kafka 4.4): the
// coordinator refuses a longer transaction.timeout.ms.
const transactionMaxTimeoutMs = 15 * 60_000

// abortTimedOutCheckMs is transaction.abort.timed.out.transaction.cleanup.
// interval.ms's default (TransactionStateManagerConfig, Kafka 4.4): how
// often the coordinator looks for transactions past their timeout.
const abortTimedOutCheckMs = 10_000

// nextTxnTimeout returns when the coordinator's next check finds an open
// transaction past its timeout: the first check (every
// abortTimedOutCheckMs from 0) after txnStartTimestamp + timeout
// (TransactionStateManager.timedOutTransactions takes those strictly
// past), and false when no transaction is open.
func (l *PartitionedLog) nextTxnTimeout() (int64, bool) {
	next, found := int64(0), false
	for _, id := range l.producers.txnIDs {
		m := l.producers.coordinator[id]
		if m.state != txnOngoing {
			continue
		}
		due := (m.startedAt+m.timeoutMs)/abortTimedOutCheckMs*abortTimedOutCheckMs + abortTimedOutCheckMs
		if !found || due < next {
			next, found = due, true
		}
	}
	return next, found
}

// abortTimedOut aborts the transactions past their timeout, as
// TransactionCoordinator.abortTimedOutTransactions does: the epoch is
// bumped, so the producer that held the transaction is fenced.
func (l *PartitionedLog) abortTimedOut() {
	for _, id := range l.producers.txnIDs {
		m := l.producers.coordinator[id]
		if m.state == txnOngoing && m.startedAt+m.timeoutMs < l.now {
			l.endTxn(m, false, fmt.Sprintf("transaction.timeout.ms=%d passed: the coordinator aborted it", m.timeoutMs))
		}
	}
}

// lastStableOffset is the partition's last stable offset (UnifiedLog.
// lastStableOffset, Kafka 4.4): the high watermark, or the first offset
// of the earliest transaction that is open, or ended with a marker not yet
// below the high watermark, if that is lower. A read_committed consumer
// reads below it.
func (p *partition) lastStableOffset() int64 {
	hw := p.highWatermark()
	pp := p.producers
	if pp == nil {
		return hw
	}
	lso := hw
	for _, first := range pp.ongoing {
		lso = min(lso, first)
	}
	for i := len(pp.completed) - 1; i >= 0 && pp.completed[i].last >= hw; i-- {
		lso = min(lso, pp.completed[i].first)
	}
	return lso
}

// aborted reports whether the record at offset belongs to an aborted
// transaction: the aborted transactions index, as a read_committed
// consumer's FetchCollector (CompletedFetch) uses it.
func (pp *partitionProducers) aborted(offset int64) bool {
	_, state := pp.txnStateOf(offset)
	return state == "aborted"
}

// txnStateOf says what the transactional record at offset is: open,
// committed or aborted, "" for a record no transaction wrote.
func (pp *partitionProducers) txnStateOf(offset int64) (int64, string) {
	i, found := slices.BinarySearchFunc(pp.txnRecords, offset, func(r txnRecord, o int64) int {
		return int(min(max(r.offset-o, -1), 1))
	})
	if !found {
		return noProducerID, ""
	}
	id := pp.txnRecords[i].producerID
	for _, s := range pp.completed {
		if s.producerID == id && s.first <= offset && offset <= s.last {
			if s.committed {
				return id, "committed"
			}
			return id, "aborted"
		}
	}
	return id, "open"
}
