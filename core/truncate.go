package core

import "fmt"

// TruncateToHighWatermark is the offset Truncate reads as the partition's
// high watermark: Kafka's DeleteRecordsRequest.HIGH_WATERMARK.
const TruncateToHighWatermark = -1

// Truncate is Kafka's DeleteRecords: it moves the partition's log start
// offset up to before. Records below it are gone; the ones left keep their
// offsets and the high watermark does not change. An offset at or below the
// current log start changes nothing; one above the high watermark is refused
// (Kafka's OFFSET_OUT_OF_RANGE). Segments that lie wholly below the new log
// start are deleted at once (Kafka deletes them at its next retention check);
// the segment the new log start falls in stays, its file unchanged.
//
// Like Kafka, Truncate refuses a topic whose cleanup.policy lacks delete
// (POLICY_VIOLATION), and takes TruncateToHighWatermark (-1) for the
// partition's high watermark and refuses any other negative offset
// (OFFSET_OUT_OF_RANGE), as Kafka 4.4's Partition.deleteRecordsOnLeader
// does with DeleteRecordsRequest.HIGH_WATERMARK. The scenario language takes
// the offset itself (core/scenario/schema.go says why).
func (l *PartitionedLog) Truncate(topicName string, partition int, before int64) error {
	t, p, err := l.partition(topicName, partition)
	if err != nil {
		return err
	}
	if !t.config.Deletes() {
		return fmt.Errorf("%s/%d: records cannot be deleted: cleanup.policy=%s has no delete (POLICY_VIOLATION)", topicName, partition, t.config.CleanupPolicy)
	}
	if before < 0 && before != TruncateToHighWatermark {
		return fmt.Errorf("%s/%d: cannot truncate before a negative offset (%d): only -1, the high watermark, is taken (OFFSET_OUT_OF_RANGE)", topicName, partition, before)
	}
	if p.offline() {
		return offlineError(topicName, partition, p) // DeleteRecords goes to the leader
	}
	if before == TruncateToHighWatermark {
		before = p.highWatermark()
	}
	if hw := p.highWatermark(); before > hw {
		return fmt.Errorf("%s/%d: cannot truncate before offset %d: it is above the high watermark %d (OFFSET_OUT_OF_RANGE)", topicName, partition, before, hw)
	}
	if before <= p.logStart {
		return nil
	}
	from := p.logStart
	p.logStart = before
	removed := p.dropBefore(before)
	// Kafka's log-start-offset breach: a segment whose successor starts at
	// or below the log start holds nothing readable.
	gone := 0
	for gone+1 < len(p.segments) && p.segments[gone+1].base <= before {
		gone++
	}
	p.segments = p.segments[gone:]
	l.emit(Event{Kind: EventTruncated, Topic: topicName, Partition: partition, From: from, To: before, Count: removed})
	return nil
}
