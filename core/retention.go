package core

import (
	"fmt"
	"math"

	"plog/core/units"
)

// Retention follows Kafka's UnifiedLog.deleteOldSegments for topics whose
// cleanup.policy includes delete. It deletes whole segments, oldest first,
// and stops at the first segment that does not qualify, so a young segment
// shields every segment after it:
//
//   - retention.ms: a segment qualifies when the time since its newest
//     record is more than retention.ms;
//   - retention.bytes: a segment qualifies while the partition would still
//     hold at least retention.bytes without it, so retention never takes a
//     partition below the limit.
//
// The active segment qualifies only when every segment before it did; Kafka
// then rolls a new empty active segment first, so the log start offset moves
// to the high watermark (Kafka 4.4's UnifiedLog.deleteSegments, in
// storage/.../internals/log/UnifiedLog.java: "we must always have at least
// one segment, so if we are going to delete all the segments, create a new
// one first"). The segment-deleted event of the segment that was active says
// so (Event.RolledActive), and the page says it. Retention runs at each check
// (nextRetentionCheck) as Advance moves the clock, never on produce.
//
// Under rules 3 the checks follow Kafka 4.4's LogManager (its scheduler's
// kafka-log-retention task, cleanupLogs): the first after
// log.initial.task.delay.ms (30s), then every log.retention.check.interval.ms
// (5m); they skip the topics that compact, whose retention the log cleaner
// runs (runCleaner, compaction.go). Under rules 1 and 2 every
// RetentionCheckIntervalMs (30s) from 0, on every topic that deletes.

// runRetention is one retention check at the current time, over topics in
// name order.
func (l *PartitionedLog) runRetention() {
	l.runRetentionOf(l.retentionChecks)
}

// retentionChecks reports whether the retention checks delete a topic's
// old segments: under rules 3 the topics that do not compact (LogManager.
// cleanupLogs leaves the others to the cleaner), before it every topic.
func (l *PartitionedLog) retentionChecks(c TopicConfig) bool {
	return !l.follows(ScheduledRetentionAndCleaner) || !c.Compacts()
}

// retentionSchedule is when the retention checks run: first at first, then
// every interval.
func (l *PartitionedLog) retentionSchedule() (first, interval int64) {
	interval = durationDefaultUnder(OnCluster, "log.retention.check.interval.ms", l.rules)
	if !l.follows(ScheduledRetentionAndCleaner) {
		return interval, interval
	}
	return durationDefault(OnCluster, "log.initial.task.delay.ms"), interval
}

// runRetentionOf deletes the expired segments of the topics that delete and
// that which takes.
func (l *PartitionedLog) runRetentionOf(which func(TopicConfig) bool) {
	for _, name := range l.topicNames {
		t := l.topics[name]
		if !t.config.Deletes() || !which(t.config) {
			continue
		}
		for i, p := range t.partitions {
			l.work(0) // the advance counted its partitions; time passes
			l.retainByTime(t, i, p)
			l.retainBySize(t, i, p)
		}
	}
}

func (l *PartitionedLog) retainByTime(t *topic, partition int, p *partition) {
	limit := t.config.RetentionMs
	if limit < 0 {
		return
	}
	n := l.expiredSegments(p, limit)
	l.deleteSegments(t.name, partition, p, n, CauseRetentionTime, func(s *segment) string {
		return fmt.Sprintf("retention.ms: newest record is %s old, more than %s", units.Duration(l.now-s.maxTimestamp), units.Duration(limit))
	})
}

func (l *PartitionedLog) retainBySize(t *topic, partition int, p *partition) {
	limit := t.config.RetentionBytes
	size := p.size()
	if limit < 0 || size < limit {
		return
	}
	excess := size - limit
	n := p.deletableSegments(func(s *segment) bool {
		if excess-s.bytes < 0 {
			return false
		}
		excess -= s.bytes
		return true
	})
	left := size
	l.deleteSegments(t.name, partition, p, n, CauseRetentionSize, func(s *segment) string {
		left -= s.bytes
		return fmt.Sprintf("retention.bytes: the partition keeps %dB without it, at least the %s limit", left, units.Size(limit))
	})
}

// expiredSegments counts the leading segments a retention check now would
// delete by retention.ms: those whose newest record is more than limit old,
// as far as deletableSegments lets deletion go.
func (l *PartitionedLog) expiredSegments(p *partition, limit int64) int {
	return p.deletableSegments(func(s *segment) bool { return l.now-s.maxTimestamp > limit })
}

// RetentionCliff is where retention.ms cuts a partition now, as the lanes
// draw it: the records below Below are older than retention.ms, and the next
// retention check deletes them (Kafka 4.x's UnifiedLog.deleteOldSegments,
// above); then the segment of offsets [NextFrom, NextTo) is the next to pass
// retention.ms, at NextAt, from the log start offset if a truncation moved
// it inside that segment.
type RetentionCliff struct {
	Below int64 // -1: the next check deletes nothing by retention.ms
	// NextAt is -1 when no segment is on its way over the cliff: the topic
	// does not delete by time, or holds no record that has not expired.
	NextFrom, NextTo, NextAt int64
	// CheckAt is when the next retention check runs, which deletes what
	// is below the cliff, and GoneAt the check that deletes NextFrom to
	// NextTo, the first at or after NextAt: the segments go at the
	// checks, not as they expire (log.retention.check.interval.ms). -1
	// for none, and for a topic that also compacts, whose retention runs
	// with its cleaner.
	CheckAt, GoneAt int64
}

// RetentionCliff says where retention.ms cuts a partition now. It walks the
// expired segments and the one after them only, and the engine deletes
// expired segments at every check, so it costs little whatever the
// partition holds. It answers for retention.ms alone: retention.bytes cuts
// by size, at the same checks.
func (l *PartitionedLog) RetentionCliff(topicName string, partition int) (RetentionCliff, error) {
	t, p, err := l.partition(topicName, partition)
	if err != nil {
		return RetentionCliff{}, err
	}
	cliff := RetentionCliff{Below: -1, NextFrom: -1, NextTo: -1, NextAt: -1, CheckAt: -1, GoneAt: -1}
	limit := t.config.RetentionMs
	if !t.config.Deletes() || limit < 0 {
		return cliff, nil
	}
	first, interval := l.retentionSchedule()
	if l.retentionChecks(t.config) {
		cliff.CheckAt = nextTick(l.now, l.now, first, interval)
	}
	n := l.expiredSegments(p, limit)
	if n > 0 {
		cliff.Below = p.segmentEnd(n - 1)
	}
	// Timestamps never decrease along a partition, so the first segment
	// with records after the expired ones is the next to expire; an expired
	// one there is held by the high watermark, and waits for it rather than
	// for time.
	// Records a truncation removed (below the log start) are nobody's to
	// expire: the lanes said "offsets 0–3 pass retention.ms" of offsets
	// deleted already.
	for i := n; i < len(p.segments); i++ {
		if p.segmentCount(i) == 0 || p.segmentEnd(i) <= p.logStart {
			continue
		}
		if s := &p.segments[i]; l.now-s.maxTimestamp <= limit {
			cliff.NextFrom, cliff.NextTo, cliff.NextAt = max(s.base, p.logStart), p.segmentEnd(i), s.maxTimestamp+limit+1
			if cliff.CheckAt >= 0 {
				cliff.GoneAt = nextTick(l.now, cliff.NextAt, first, interval)
			}
		}
		break
	}
	return cliff, nil
}

// deletableSegments counts the leading segments that qualify, stopping at the
// first that does not. An empty active segment never qualifies, nor does one
// that reaches above the high watermark (as in Kafka).
func (p *partition) deletableSegments(qualifies func(s *segment) bool) int {
	n := 0
	for n < len(p.segments) {
		s := &p.segments[n]
		lastAndEmpty := n == len(p.segments)-1 && s.bytes == 0
		if lastAndEmpty || p.segmentEnd(n) > p.highWatermark() || !qualifies(s) {
			break
		}
		n++
	}
	return n
}

// deleteSegments deletes the n oldest segments, rolling first when that is
// all of them, and moves the log start offset to the first segment left.
func (l *PartitionedLog) deleteSegments(topicName string, partition int, p *partition, n int, cause Cause, why func(s *segment) string) {
	if n == 0 {
		return
	}
	rolled := n == len(p.segments)
	if rolled {
		p.roll(l.now)
	}
	for i := range n {
		s := &p.segments[i]
		l.emit(Event{Kind: EventSegmentDeleted, Topic: topicName, Partition: partition,
			From: s.base, To: p.segmentEnd(i), Count: p.segmentCount(i), Detail: why(s), Cause: cause,
			RolledActive: rolled && i == n-1})
	}
	p.segments = p.segments[n:]
	p.logStart = max(p.logStart, p.segments[0].base)
	p.dropBefore(p.logStart)
}

// retentionWakeupOf returns the earliest time at which retention could
// delete anything of the topics that which takes, given the log as it is:
// math.MaxInt64 when none could. Only the oldest segment matters, since
// deletion stops at the first segment that does not qualify and timestamps
// never decrease along a partition.
func (l *PartitionedLog) retentionWakeupOf(which func(TopicConfig) bool) int64 {
	wake := int64(math.MaxInt64)
	for _, name := range l.topicNames {
		t := l.topics[name]
		if !t.config.Deletes() || !which(t.config) {
			continue
		}
		for _, p := range t.partitions {
			oldest := &p.segments[0]
			if len(p.segments) == 1 && oldest.bytes == 0 {
				continue
			}
			if limit := t.config.RetentionBytes; limit >= 0 && p.size()-limit-oldest.bytes >= 0 {
				return l.now
			}
			if limit := t.config.RetentionMs; limit >= 0 {
				wake = min(wake, oldest.maxTimestamp+limit+1)
			}
		}
	}
	return wake
}

// nextTick returns the first time of the schedule first, first+interval,
// first+2*interval, ... that is after now and not before wake;
// math.MaxInt64 when wake is beyond the clock's reach.
func nextTick(now, wake, first, interval int64) int64 {
	if wake > maxClockMs {
		return math.MaxInt64
	}
	from := max(wake, now+1)
	if from <= first {
		return first
	}
	return first + (from-first+interval-1)/interval*interval
}
