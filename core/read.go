package core

import (
	"fmt"
	"slices"
)

// MaxConsume is the most records one Consume returns.
const MaxConsume = 1 << 20

// Consume returns up to max records of a partition at or after offset, in
// offset order. Reading does not consume: the same call returns the same
// records until retention, truncation or compaction removes some. Like a
// Kafka fetch, an offset below the log start offset or above the high
// watermark is out of range (Kafka's OFFSET_OUT_OF_RANGE); at the high
// watermark there is nothing yet and the result is empty. On a compacted
// partition an offset in a gap reads from the next surviving record.
func (l *PartitionedLog) Consume(topicName string, partition int, offset int64, max int) ([]Record, error) {
	p, err := l.partitionToRead(topicName, partition, max)
	if err != nil {
		return nil, err
	}
	if p.offline() {
		return nil, offlineError(topicName, partition, p)
	}
	hw := p.highWatermark()
	if offset < p.logStart || offset > hw {
		return nil, fmt.Errorf("%s/%d: offset %d is out of range: the partition holds offsets %d up to the high watermark %d (OFFSET_OUT_OF_RANGE)",
			topicName, partition, offset, p.logStart, hw)
	}
	records := p.records.collect(offset, hw, max)
	if p.producers != nil {
		// A consumer is never given a transaction's markers (txn_read.go).
		records = slices.DeleteFunc(records, func(r Record) bool { return r.Control != ControlNone })
	}
	return records, nil
}

// LogRecords returns up to max records of a partition at or after offset,
// in offset order, up to its log end offset: the log as its leader stores
// it, records above the high watermark included, which no consumer may read
// yet. Kafka 4.x serves consumers only below the high watermark
// (kafka.cluster.Partition.fetchRecords with FetchIsolation.HIGH_WATERMARK)
// and its followers up to the log end (FetchIsolation.LOG_END), so the
// records the followers in the ISR have not fetched yet are stored but not
// committed. This read is for showing the log; Consume is the consumer's.
// An offline partition's records are still there, unavailable, and it
// returns them.
func (l *PartitionedLog) LogRecords(topicName string, partition int, offset int64, max int) ([]Record, error) {
	p, err := l.partitionToRead(topicName, partition, max)
	if err != nil {
		return nil, err
	}
	if offset < p.logStart || offset > p.next {
		return nil, fmt.Errorf("%s/%d: offset %d is out of range: the partition holds offsets %d up to the log end %d",
			topicName, partition, offset, p.logStart, p.next)
	}
	return p.records.collect(offset, p.next, max), nil
}

// partitionToRead finds the partition a read of up to max records asks for.
func (l *PartitionedLog) partitionToRead(topicName string, partition int, max int) (*partition, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return nil, err
	}
	if max < 1 || max > MaxConsume {
		return nil, fmt.Errorf("%s/%d: max must be between 1 and %d, got %d", topicName, partition, MaxConsume, max)
	}
	return p, nil
}

// HighWatermark returns the partition's high watermark: the offset below
// which records are committed and readable. With one replica it is the
// offset the next record will get. It never decreases, except when an
// unclean leader election loses records.
func (l *PartitionedLog) HighWatermark(topicName string, partition int) (int64, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return 0, err
	}
	return p.highWatermark(), nil
}

// LogEndOffset returns the offset the next record will get: the leader's
// log end offset, at or above the high watermark.
func (l *PartitionedLog) LogEndOffset(topicName string, partition int) (int64, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return 0, err
	}
	return p.next, nil
}

// LogStartOffset returns the first offset a reader may ask for. Truncation
// and retention move it up; compaction does not.
func (l *PartitionedLog) LogStartOffset(topicName string, partition int) (int64, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return 0, err
	}
	return p.logStart, nil
}

// Records returns a copy of every record the partition retains, in offset
// order.
func (l *PartitionedLog) Records(topicName string, partition int) ([]Record, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return nil, err
	}
	return p.records.all(), nil
}

// RecordCount returns how many records the partition retains.
func (l *PartitionedLog) RecordCount(topicName string, partition int) (int, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return 0, err
	}
	return p.records.len(), nil
}

// FirstRecordAtOrAfter returns the first retained record with an offset at or
// after offset, and false when there is none (or no such partition). Time lag
// is measured from its timestamp.
func (l *PartitionedLog) FirstRecordAtOrAfter(topicName string, partition int, offset int64) (Record, bool) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return Record{}, false
	}
	return p.records.first(offset)
}

// PartitionRecordCounts returns how many records each partition of a topic
// retains, by partition number.
func (l *PartitionedLog) PartitionRecordCounts(topicName string) ([]int, error) {
	t, err := l.topic(topicName)
	if err != nil {
		return nil, err
	}
	counts := make([]int, len(t.partitions))
	for i, p := range t.partitions {
		counts[i] = p.records.len()
	}
	return counts, nil
}

// Skew returns the largest partition's record count over the mean count: 1
// when records are spread evenly, the partition count when one partition
// holds them all. A topic with no records has no skew to speak of: 0.
func (l *PartitionedLog) Skew(topicName string) (float64, error) {
	counts, err := l.PartitionRecordCounts(topicName)
	if err != nil {
		return 0, err
	}
	total, largest := 0, 0
	for _, c := range counts {
		total += c
		largest = max(largest, c)
	}
	if total == 0 {
		return 0, nil
	}
	return float64(largest) * float64(len(counts)) / float64(total), nil
}

// SegmentInfo describes one segment of a partition.
type SegmentInfo struct {
	BaseOffset int64 // the segment's first offset (its file name in Kafka)
	// EndOffset is the offset after the segment's range: the next segment's
	// base offset, or the high watermark for the active segment. Without
	// compaction it is the offset after the segment's last record.
	EndOffset    int64
	Records      int   // records retained (truncation and compaction remove some)
	Bytes        int64 // the file's size: record sizes written, rewritten by compaction
	MaxTimestamp int64 // newest record's timestamp (creation time while empty)
	CreatedAt    int64 // when the segment was rolled
	Active       bool  // the segment records are appended to
}

// Segments describes a partition's segments, oldest first; the last is
// active.
func (l *PartitionedLog) Segments(topicName string, partition int) ([]SegmentInfo, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return nil, err
	}
	infos := make([]SegmentInfo, len(p.segments))
	for i := range p.segments {
		infos[i] = p.segmentInfo(i)
	}
	return infos, nil
}
