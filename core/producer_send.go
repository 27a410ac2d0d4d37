package core

import (
	"fmt"
	"maps"
	"slices"
)

// How a named producer's records travel (ProduceAs), as Kafka 4.4's
// client (Sender, RecordAccumulator, TransactionManager) and broker
// (ProducerStateManager, ProducerAppendInfo, UnifiedLog) handle them.
//
// Where the playground simplifies: every record is a batch of its own (so
// linger.ms and batch.size are kept and shown, and change nothing); a
// produce command's batches go out at once, max.in.flight at a time, and
// every retry happens at the same virtual instant (the clock does not
// move), while the time a lost request costs (request.timeout.ms, plus
// retry.backoff.ms = 100ms per retry) counts against delivery.timeout.ms;
// with replicas, a write the leader appended counts as answered when its
// answer is not lost, even while acks=all is still pending.

// WireFault is what a wire fault does to a produce request.
type WireFault string

// The wire faults.
const (
	// LoseRequest loses a produce request before the broker: nothing is
	// appended, the producer times out and retries.
	LoseRequest WireFault = "lose-request"
	// LoseResponse loses the answer after the broker appended: the
	// producer times out and sends the batch again.
	LoseResponse WireFault = "lose-response"
)

// wireFault hits the requests numbered from..to-1 of a producer (counted
// by producer.requests, retries included).
type wireFault struct {
	kind     WireFault
	from, to int64
}

// MaxWireFaults bounds the faults a producer has pending.
const MaxWireFaults = 1000

// AddWireFault makes the producer's produce requests from the after-th
// next one on (0: the very next) meet fault, count of them.
func (l *PartitionedLog) AddWireFault(producerName string, fault WireFault, after, count int64) error {
	p, err := l.producer(producerName)
	if err != nil {
		return err
	}
	if fault != LoseRequest && fault != LoseResponse {
		return fmt.Errorf("a wire fault is %s or %s, got %q", LoseRequest, LoseResponse, fault)
	}
	if after < 0 || count < 1 || count > MaxProduceRequests || after > MaxProduceRequests {
		return fmt.Errorf("a wire fault hits 1 to %d requests, from 0 to %d requests on", MaxProduceRequests, MaxProduceRequests)
	}
	if len(p.faults) >= MaxWireFaults {
		return fmt.Errorf("producer %s has %d wire faults pending, the most it may", producerName, MaxWireFaults)
	}
	from := p.requests + after
	p.faults = append(p.faults, wireFault{kind: fault, from: from, to: from + count})
	return nil
}

// MaxProduceRequests bounds the requests one fault names, and the attempts
// of one ProduceAs.
const MaxProduceRequests = 100_000

// faultOn returns the fault that hits request n, "" for none; the first
// fault added wins, and faults that can hit nothing more are dropped.
func (p *producer) faultOn(n int64) WireFault {
	p.faults = slices.DeleteFunc(p.faults, func(f wireFault) bool { return f.to <= n })
	for _, f := range p.faults {
		if f.from <= n && n < f.to {
			return f.kind
		}
	}
	return ""
}

// retryBackoffMs is retry.backoff.ms's default (CommonClientConfigs,
// Kafka 4.4).
const retryBackoffMs = 100

// SendOutcome is what became of one record a named producer sent.
type SendOutcome struct {
	TopicPartition
	// Offset is where the record is: where the broker appended it (the
	// first time, for a duplicate the broker dropped), -1 when it failed.
	Offset   int64
	Sequence int32 // its sequence number; -1 without idempotence
	Attempts int
	// Duplicates are the offsets of the copies a retry wrote (idempotence
	// off, a lost answer): the record is in the log more than once.
	Duplicates []int64
	Err        string // why it failed; "" when it was written
}

// batch is one record on its way: the playground's batches hold one.
type batch struct {
	tp        TopicPartition
	record    Record
	size      int64
	reason    partitionReason
	seq       int32
	attempts  int
	elapsedMs int64 // what its attempts cost of delivery.timeout.ms
	out       *SendOutcome
}

// ProduceAs sends count copies of a record of req for each of values
// (req.Value is not read) through the named producer, with
// its acks, partitioner, retries, idempotence and transaction. It returns
// what became of each record. An error refuses the whole send, with
// nothing changed: an unknown producer or topic, a producer fenced or not
// in a transaction when it is transactional, a record the topic refuses,
// and a partition not writable.
func (l *PartitionedLog) ProduceAs(producerName string, req ProduceRequest, values []string, count int) ([]SendOutcome, error) {
	p, err := l.producer(producerName)
	if err != nil {
		return nil, err
	}
	if count < 1 || len(values) < 1 || count*len(values) > MaxProduceRequests {
		return nil, fmt.Errorf("a send holds 1 to %d records, got %d", MaxProduceRequests, count*len(values))
	}
	if err := l.checkSendable(p); err != nil {
		return nil, err
	}
	t, err := l.topic(req.Topic)
	if err != nil {
		return nil, err
	}
	for _, v := range values {
		req.Value = v
		if err := checkProduce(t, &req); err != nil {
			return nil, err
		}
	}
	req.Acks, req.Partitioner = p.config.Acks, p.config.Partitioner
	acks, _ := checkAcks(req.Acks)
	saved := l.savePartitioner(t)
	if !req.HasKey {
		req.Key = ""
	}
	n := count * len(values)
	batches := make([]*batch, 0, n)
	outcomes := make([]SendOutcome, n)
	for i := range n {
		req.Value = values[i/count]
		if req.Tombstone {
			req.Value = ""
		}
		part, reason := l.choosePartition(t, &req)
		part = l.commitPartitionChoice(t, &req, part, &reason)
		if err := l.checkWritable(t, part, acks); err != nil {
			l.restorePartitioner(t, saved)
			return nil, err
		}
		b := &batch{tp: TopicPartition{Topic: t.name, Partition: part}, reason: reason, seq: -1, out: &outcomes[i],
			record: Record{Key: req.Key, Value: req.Value, HasKey: req.HasKey, Tombstone: req.Tombstone},
			size:   recordSize(req.Key, req.Value)}
		batches = append(batches, b)
	}
	// The sequences and the transaction's partitions are taken once the
	// send cannot be refused.
	for _, b := range batches {
		if p.config.Idempotence {
			b.seq = p.seq[b.tp]
			p.seq[b.tp]++
		}
		if p.config.TransactionalID != "" {
			l.addPartitionToTxn(p, b.tp)
		}
	}
	l.send(p, t, acks, batches)
	for i := range outcomes {
		o := &outcomes[i]
		o.TopicPartition, o.Sequence, o.Attempts = batches[i].tp, batches[i].seq, batches[i].attempts
	}
	return outcomes, nil
}

// send runs the batches to the broker and back, max.in.flight at a time,
// retrying what failed, until each is written or has failed for good.
func (l *PartitionedLog) send(p *producer, t *topic, acks acksMode, queue []*batch) {
	for _, b := range queue {
		b.out.Offset = -1
	}
	attempts := 0
	for len(queue) > 0 {
		window := queue[:min(len(queue), p.config.MaxInFlight)]
		rest := queue[len(window):]
		var retry []*batch
		for _, b := range window {
			b.attempts++
			attempts++
			// A retry is a request more; a first attempt is counted
			// with its record, by the caller.
			l.work(int64(min(1, b.attempts-1)))
			fault := p.faultOn(p.requests)
			p.requests++
			if fault == LoseRequest {
				l.emit(Event{Kind: EventRequestLost, Member: p.name, Topic: b.tp.Topic, Partition: b.tp.Partition, Count: int(b.seq),
					Detail: fmt.Sprintf("attempt %d: the broker never saw it", b.attempts)})
				b.elapsedMs += p.config.RequestTimeoutMs
				retry = append(retry, b)
				continue
			}
			offset, result := l.brokerAppend(p, t, acks, b)
			switch result {
			case appendRefusedEpoch:
				b.out.Err = "INVALID_PRODUCER_EPOCH: Producer attempted to produce with an old epoch."
				continue
			case appendOutOfOrder:
				l.emit(Event{Kind: EventOutOfOrder, Member: p.name, Topic: b.tp.Topic, Partition: b.tp.Partition, Offset: -1, Count: int(b.seq),
					Detail: fmt.Sprintf("OUT_OF_ORDER_SEQUENCE_NUMBER: sequence %d does not follow the last one written", b.seq)})
				b.elapsedMs += retryBackoffMs
				retry = append(retry, b)
				continue
			case appendDuplicate:
				l.emit(Event{Kind: EventDuplicateDropped, Member: p.name, Topic: b.tp.Topic, Partition: b.tp.Partition, Offset: offset, Count: int(b.seq),
					Detail: fmt.Sprintf("producer id %d sequence %d is already at offset %d", p.id, b.seq, offset)})
			}
			if result == appendWritten && b.out.Offset >= 0 {
				b.out.Duplicates = append(b.out.Duplicates, offset)
			} else {
				b.out.Offset = offset
			}
			if fault == LoseResponse && acks != acksNone {
				l.emit(Event{Kind: EventResponseLost, Member: p.name, Topic: b.tp.Topic, Partition: b.tp.Partition, Offset: offset, Count: int(b.seq),
					Detail: fmt.Sprintf("attempt %d: the broker wrote it, its answer was lost", b.attempts)})
				b.elapsedMs += p.config.RequestTimeoutMs
				retry = append(retry, b)
			}
		}
		var again []*batch
		for _, b := range retry {
			why := ""
			switch {
			case acks == acksNone:
				why = "acks=0: the producer never learns of a lost request, and does not retry"
			case int64(b.attempts) > p.config.Retries:
				why = fmt.Sprintf("retries=%d exhausted", p.config.Retries)
			case b.elapsedMs+retryBackoffMs+p.config.LingerMs >= p.config.DeliveryTimeoutMs:
				why = fmt.Sprintf("TimeoutException: Expiring 1 record(s) for %s/%d: delivery.timeout.ms=%d has passed since batch creation", b.tp.Topic, b.tp.Partition, p.config.DeliveryTimeoutMs)
			case attempts >= MaxProduceRequests:
				why = fmt.Sprintf("the playground stops a send after %d requests", MaxProduceRequests)
			}
			if why == "" {
				b.elapsedMs += retryBackoffMs
				again = append(again, b)
				continue
			}
			if b.out.Offset < 0 {
				b.out.Err = why
			}
			l.emit(Event{Kind: EventSendFailed, Member: p.name, Topic: b.tp.Topic, Partition: b.tp.Partition, Offset: b.out.Offset, Count: int(b.seq), Detail: why})
			if p.config.Idempotence && b.out.Offset < 0 {
				// TransactionManager.adjustSequencesDueToFailedBatch
				// (Kafka 4.4): the batches after a failed one take its
				// sequence numbers, so the broker sees no gap.
				for _, later := range slices.Concat(retry, rest) {
					if later != b && later.tp == b.tp && later.seq > b.seq {
						later.seq--
					}
				}
				p.seq[b.tp]--
			}
		}
		// RecordAccumulator.reenqueue puts a retried batch back at the
		// front, before the batches not sent yet. The retries came from
		// the window, so they fit in its slots just before the rest:
		// appending the rest to them instead copied the whole queue at
		// every window, a quadratic cost no work unit counted (a produce
		// of 10,000 records was 2,000 copies of up to 10,000 batches).
		start := len(window) - len(again)
		copy(queue[start:], again)
		queue = queue[start:]
		if p.config.Idempotence {
			// insertInSequenceOrder: the retries go out in sequence order.
			// The sort goes through the whole queue: a unit a batch.
			l.work(int64(len(queue)))
			slices.SortStableFunc(queue, func(a, b *batch) int {
				if a.tp != b.tp {
					return 0
				}
				return int(a.seq - b.seq)
			})
		}
	}
}

// appendResult is what the broker made of a batch.
type appendResult uint8

const (
	appendWritten      appendResult = iota
	appendDuplicate                 // already held: the first copy's offset
	appendOutOfOrder                // OUT_OF_ORDER_SEQUENCE_NUMBER: a gap before it
	appendRefusedEpoch              // INVALID_PRODUCER_EPOCH
)

// producerEntry is what a partition's ProducerStateManager keeps of one
// producer id (ProducerStateEntry, Kafka 4.4): its epoch and its last
// batches, to spot a retried one.
type producerEntry struct {
	epoch   int
	batches []batchMetadata // oldest first, at most batchesToRetain
}

// batchMetadata is one batch a producer wrote (BatchMetadata).
type batchMetadata struct {
	firstSeq, lastSeq int32
	offset            int64
}

// batchesToRetain is ProducerStateEntry.NUM_BATCHES_TO_RETAIN (Kafka 4.4):
// the broker remembers a producer's last 5 batches per partition, which is
// why an idempotent producer keeps at most 5 requests in flight.
const batchesToRetain = 5

// brokerAppend is the partition leader's handling of one batch:
// UnifiedLog.analyzeAndValidateProducerState and ProducerAppendInfo
// (Kafka 4.4). A producer without a producer id is appended as is. For one
// with an id: an older epoch is refused (INVALID_PRODUCER_EPOCH); a batch
// whose sequence numbers match one of the last 5 is a duplicate, answered
// with the first copy's offset and not written again; a sequence that does
// not follow the last one (or, for a new epoch, is not 0) is refused with
// OUT_OF_ORDER_SEQUENCE_NUMBER; the next one is appended.
func (l *PartitionedLog) brokerAppend(p *producer, t *topic, acks acksMode, b *batch) (int64, appendResult) {
	part := t.partitions[b.tp.Partition]
	if p.id != noProducerID {
		if m := l.txnOf(p); m != nil && p.epoch < m.epoch {
			// KIP-890's produce verification: the leader asks the
			// coordinator, whose epoch is newer.
			return -1, appendRefusedEpoch
		}
		st := part.producerStates()
		e := st.entries[p.id]
		if e != nil {
			if p.epoch < e.epoch {
				return -1, appendRefusedEpoch
			}
			if p.epoch == e.epoch {
				for _, bm := range e.batches {
					if bm.firstSeq == b.seq && bm.lastSeq == b.seq {
						return bm.offset, appendDuplicate
					}
				}
			}
		}
		switch {
		case e == nil || p.epoch > e.epoch:
			if b.seq != 0 {
				return -1, appendOutOfOrder
			}
		case len(e.batches) == 0:
			if b.seq != 0 {
				return -1, appendOutOfOrder
			}
		case b.seq != e.batches[len(e.batches)-1].lastSeq+1:
			return -1, appendOutOfOrder
		}
	}
	offset := part.next
	r := b.record
	r.Offset, r.Timestamp = offset, l.now
	l.stored += part.append(&r, b.size, &t.config)
	l.events.addProduced(l.now, b.tp.Topic, b.tp.Partition, offset, b.reason)
	l.afterAppend(t, b.tp.Partition, part, offset, acks)
	if p.id != noProducerID {
		st := part.producerStates()
		e := st.entries[p.id]
		if e == nil || e.epoch != p.epoch {
			e = &producerEntry{epoch: p.epoch}
			st.entries[p.id] = e
		}
		e.batches = append(e.batches, batchMetadata{b.seq, b.seq, offset})
		if len(e.batches) > batchesToRetain {
			e.batches = slices.Delete(e.batches, 0, len(e.batches)-batchesToRetain)
		}
		if p.config.TransactionalID != "" {
			st.noteTxnRecord(p.id, offset)
		}
	}
	return offset, appendWritten
}

// partitionProducers is a partition's producer state: Kafka's
// ProducerStateManager (the producers' last batches, their open
// transactions) and the aborted transactions index (txn.go).
type partitionProducers struct {
	entries map[int64]*producerEntry
	// ongoing is the first offset of each producer's open transaction on
	// the partition.
	ongoing map[int64]int64
	// txnRecords are the offsets of the transactional records, with their
	// producer ids, in offset order.
	txnRecords []txnRecord
	// completed are the transactions ended on the partition, in marker
	// order: committed and aborted.
	completed []txnSpan
}

type txnRecord struct {
	offset     int64
	producerID int64
}

// txnSpan is one transaction on a partition: its first record and its
// marker (Kafka's AbortedTxn holds the same for an aborted one).
type txnSpan struct {
	producerID  int64
	first, last int64 // the first record's offset and the marker's
	committed   bool
}

func (pp *partitionProducers) clone() *partitionProducers {
	if pp == nil {
		return nil
	}
	c := &partitionProducers{entries: make(map[int64]*producerEntry, len(pp.entries)), ongoing: maps.Clone(pp.ongoing),
		txnRecords: slices.Clone(pp.txnRecords), completed: slices.Clone(pp.completed)}
	for id, e := range pp.entries {
		c.entries[id] = &producerEntry{epoch: e.epoch, batches: slices.Clone(e.batches)}
	}
	return c
}

// producerStates returns the partition's producer state, made on first
// use: a partition no named producer wrote to has none.
func (p *partition) producerStates() *partitionProducers {
	if p.producers == nil {
		p.producers = &partitionProducers{entries: map[int64]*producerEntry{}, ongoing: map[int64]int64{}}
	}
	return p.producers
}

// noteTxnRecord notes a transactional record at offset, and the start of
// its producer's transaction on the partition. An offset at or below ones
// noted (after an unclean election cut the log) replaces them.
func (pp *partitionProducers) noteTxnRecord(producerID, offset int64) {
	for n := len(pp.txnRecords); n > 0 && pp.txnRecords[n-1].offset >= offset; n-- {
		pp.txnRecords = pp.txnRecords[:n-1]
	}
	pp.txnRecords = append(pp.txnRecords, txnRecord{offset, producerID})
	if _, open := pp.ongoing[producerID]; !open {
		pp.ongoing[producerID] = offset
	}
}

// The named producers' events (Member is the producer; Count the batch's
// sequence number, -1 without idempotence).
const (
	EventRequestLost      EventKind = "request-lost"      // Member, Topic, Partition, Count, Detail: a produce request lost before the broker
	EventResponseLost     EventKind = "response-lost"     // Member, Topic, Partition, Offset, Count, Detail: the answer lost after the broker wrote at Offset
	EventDuplicateDropped EventKind = "duplicate-dropped" // Member, Topic, Partition, Offset, Count, Detail: a retried batch the broker holds at Offset already
	EventOutOfOrder       EventKind = "out-of-order"      // Member, Topic, Partition, Count, Detail: a batch refused for a gap before it; the producer resends in order
	EventSendFailed       EventKind = "send-failed"       // Member, Topic, Partition, Offset (-1: not written), Count, Detail: a batch given up
	EventTxnInit          EventKind = "txn-init"          // Member, Count = producer id, Generation = epoch, Detail
	EventTxnMarker        EventKind = "txn-marker"        // Member, Topic, Partition, Offset, Detail: COMMIT or ABORT
	EventTxnEnded         EventKind = "txn-ended"         // Member, Count = producer id, Generation = the new epoch, Detail: committed, aborted, or why
	EventTxnEmpty         EventKind = "txn-empty"         // Member, Count = producer id, Generation = the epoch it keeps, Detail: committed or aborted; a transaction with nothing in it, which sent no EndTxn (rules 5)
)
