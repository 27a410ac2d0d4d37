package core

import "fmt"

// The read path's isolation (isolation.level, ConsumerConfig of
// kafka-clients 4.4). read_uncommitted, the default, fetches up to the
// high watermark; read_committed up to the last stable offset
// (FetchIsolation.TXN_COMMITTED in UnifiedLog.read), and the consumer's
// FetchCollector (CompletedFetch) drops the batches of aborted
// transactions, which the fetch response lists (the aborted transactions
// index). Neither hands out control records: the consumer skips the
// markers, and its position moves past them.

// The isolation levels.
const (
	ReadUncommitted = "read_uncommitted"
	ReadCommitted   = "read_committed"
)

// fetchEnd is the offset a consumer with the isolation level reads below.
func (p *partition) fetchEnd(isolation string) int64 {
	if isolation == ReadCommitted {
		return p.lastStableOffset()
	}
	return p.highWatermark()
}

// skipsInFetch reports whether a consumer with the isolation level is not
// given r: a marker, or for read_committed a record of an aborted
// transaction.
func (p *partition) skipsInFetch(r Record, isolation string) bool {
	if r.Control != ControlNone {
		return true
	}
	return isolation == ReadCommitted && p.producers != nil && p.producers.aborted(r.Offset)
}

// LastStableOffset returns the partition's last stable offset: the high
// watermark, or the first offset of the earliest transaction still open
// (or ended with a marker not yet below the high watermark) if lower.
func (l *PartitionedLog) LastStableOffset(topicName string, partition int) (int64, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return 0, err
	}
	return p.lastStableOffset(), nil
}

// RecordTransaction says which transaction wrote the record at offset:
// its producer id and whether it is open, committed or aborted; "" (and
// -1) for a record no transaction wrote.
func (l *PartitionedLog) RecordTransaction(topicName string, partition int, offset int64) (int64, string) {
	_, p, err := l.partition(topicName, partition)
	if err != nil || p.producers == nil {
		return noProducerID, ""
	}
	return p.producers.txnStateOf(offset)
}

// TransactionsInUse reports whether a named producer exists: the state
// then shows producers, last stable offsets and markers.
func (l *PartitionedLog) TransactionsInUse() bool { return len(l.producers.names) > 0 }

// waitingAtLSO says why a read_committed member that got nothing waits:
// a transaction still open holds the last stable offset below the high
// watermark on one of its partitions; "" when none does.
func (l *PartitionedLog) waitingAtLSO(g *group, m *member, order []TopicPartition) string {
	if g.config.IsolationLevel != ReadCommitted {
		return ""
	}
	for _, tp := range order {
		p := l.topics[tp.Topic].partitions[tp.Partition]
		if lso := p.lastStableOffset(); lso < p.highWatermark() && m.positions[tp] >= lso {
			return fmt.Sprintf("it is at the last stable offset %d of %s/%d: a transaction there is still open, and isolation.level=read_committed reads only below it (the high watermark is %d)",
				lso, tp.Topic, tp.Partition, p.highWatermark())
		}
	}
	return ""
}
