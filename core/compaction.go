package core

import (
	"fmt"
	"math"
	"sort"
)

// Compact runs Kafka's log cleaner now on every partition of a topic whose
// cleanup.policy includes compact, whatever their dirty ratio: the `compact`
// command, the playground's shortcut for "run the cleaner now". Kafka has no
// such request; its cleaner runs by itself in the background (under rules 3
// the playground's does too, runCleaner below); under rules 1 and 2 the
// playground cleaned only when asked.
//
// A cleaning works on the cleanable part of a partition: every segment
// before the active one, up to the first segment holding a record younger
// than min.compaction.lag.ms. There it keeps, for each key, only the record
// with the highest offset; records without a key are dropped. Survivors keep
// their offsets, so the log has gaps, and the log start offset does not move.
// A tombstone that is the latest for its key stays for delete.retention.ms
// after the first cleaning that saw it (Kafka 3.1's delete horizon); a
// cleaning at or after that time removes it. Segments left empty are
// removed; the others keep their base offsets.
func (l *PartitionedLog) Compact(topicName string) error {
	t, err := l.topic(topicName)
	if err != nil {
		return err
	}
	if !t.config.Compacts() {
		return fmt.Errorf("topic %q has cleanup.policy=%s: only a topic with compact in its cleanup.policy is compacted", topicName, t.config.CleanupPolicy)
	}
	for i, p := range t.partitions {
		l.clean(t, i, p)
	}
	return nil
}

// clean cleans one partition and says what it removed.
func (l *PartitionedLog) clean(t *topic, i int, p *partition) {
	held := p.records.len()
	removed, took := p.compact(l.now, &t.config, l.dirtyFrom(p))
	if removed > 0 || took > 0 {
		l.work(int64(held)) // it read the records below its end, at most all
	}
	l.stored += took
	if removed > 0 {
		// To says where the cleaning stopped, for the page to say why
		// the records past it keep their older values of a key.
		l.emit(Event{Kind: EventCompacted, Topic: t.name, Partition: i, Count: removed, To: p.cleanedTo})
	}
}

// uncleanable returns the index of the first segment the cleaner may not
// clean: the active one, one reaching above the high watermark (Kafka's last
// stable offset, without transactions), or the first dirty one holding a
// record younger than min.compaction.lag.ms (Kafka 4.4's
// LogCleanerManager.cleanableOffsets, in
// org.apache.kafka.storage.internals.log). firstDirty is where the dirty
// records start (dirtyFrom).
func (p *partition) uncleanable(now int64, config *TopicConfig, firstDirty int64) int {
	end := len(p.segments) - 1
	for i := range end {
		if p.segmentEnd(i) > p.highWatermark() {
			return i
		}
		if p.segmentEnd(i) > firstDirty && p.segments[i].maxTimestamp > now-config.MinCompactionLagMs {
			return i
		}
	}
	return end
}

// dirtyFrom is where the engine counts a partition's dirty records from:
// its first dirty offset under rules 3; under rules 1 and 2, whose cleaning
// held at any segment younger than min.compaction.lag.ms, the log start.
func (l *PartitionedLog) dirtyFrom(p *partition) int64 {
	if l.follows(ScheduledRetentionAndCleaner) {
		return p.firstDirtyOffset()
	}
	return p.logStart
}

// firstDirtyOffset is where the partition's uncleaned records start: the
// end of the last cleaning (Kafka's cleaner checkpoint), or the log start
// when that is below it or beyond the log end (LogCleanerManager.
// cleanableOffsets resets an invalid checkpoint so).
func (p *partition) firstDirtyOffset() int64 {
	if p.cleanedTo < p.logStart || p.cleanedTo > p.next {
		return p.logStart
	}
	return p.cleanedTo
}

// compact cleans the partition and returns how many records it removed and
// the bytes of memory the records it kept took anew (recordLog's
// filterBelow).
func (p *partition) compact(now int64, config *TopicConfig, firstDirty int64) (int, int64) {
	end := p.uncleanable(now, config, firstDirty)
	if end == 0 {
		return 0, 0
	}
	cleanableEnd := p.segments[end].base
	// The cleaner's checkpoint: the next cleaning's dirty part starts here.
	p.cleanedTo = cleanableEnd

	latest := make(map[string]int64)
	for r := range p.records.between(math.MinInt64, cleanableEnd) {
		if r.HasKey {
			latest[r.Key] = r.Offset
		}
	}

	var horizons []tombstoneHorizon
	removed, took := p.records.filterBelow(cleanableEnd, func(r Record) bool {
		if !r.HasKey || latest[r.Key] != r.Offset {
			return false
		}
		if r.Tombstone {
			at, seen := p.horizonOf(r.Offset)
			if !seen {
				at = now + config.DeleteRetentionMs
			} else if now >= at {
				return false
			}
			horizons = append(horizons, tombstoneHorizon{offset: r.Offset, at: at})
		}
		return true
	})
	for _, h := range p.horizons {
		if h.offset >= p.segments[end].base {
			horizons = append(horizons, h)
		}
	}
	p.horizons = horizons
	p.rewriteSegments(end)
	return removed, took
}

// horizonOf returns when the tombstone at offset may go, if a cleaning has
// seen it.
func (p *partition) horizonOf(offset int64) (int64, bool) {
	i := sort.Search(len(p.horizons), func(i int) bool { return p.horizons[i].offset >= offset })
	if i < len(p.horizons) && p.horizons[i].offset == offset {
		return p.horizons[i].at, true
	}
	return 0, false
}

// rewriteSegments recomputes the first end segments from the records they
// retain after a cleaning, and removes those left empty.
func (p *partition) rewriteSegments(end int) {
	kept := p.segments[:0]
	for i, s := range p.segments {
		if i < end {
			if p.segmentCount(i) == 0 {
				continue
			}
			s.bytes, s.maxTimestamp = 0, 0
			for r := range p.records.between(s.base, p.segmentEnd(i)) {
				s.bytes += recordSize(r.Key, r.Value)
				s.maxTimestamp = max(s.maxTimestamp, r.Timestamp)
			}
		}
		kept = append(kept, s)
	}
	p.segments = kept
}

// The log cleaner under rules 3 follows Kafka 4.4's LogCleaner and
// LogCleanerManager (org.apache.kafka.storage.internals.log): a cleaner
// thread that finds no log to clean sleeps log.cleaner.backoff.ms (15s), and
// looks again; one that cleaned a log looks again at once. A compacted
// partition is cleanable when its dirty ratio, the bytes of its cleanable
// segments from the first dirty one over those bytes and the bytes of the
// clean segments before them, is above min.cleanable.dirty.ratio (0.5;
// grabFilthiestCompactedLog takes the filthiest first). Kafka's
// max.compaction.lag.ms defaults to Long.MAX_VALUE, so no log is cleaned for
// its age alone; the playground has no such config. After each look the
// thread runs retention on the compacted topics that also delete
// (cleanFilthiestLog's deletableLogs), which the retention checks leave to it.
// Cleaning takes no virtual time, so each look runs at a multiple of
// log.cleaner.backoff.ms of the virtual clock.

// cleanerBackoffMs is log.cleaner.backoff.ms.
var cleanerBackoffMs = durationDefault(OnCluster, "log.cleaner.backoff.ms")

// minCleanableRatio is the brokers' log.cleaner.min.cleanable.ratio, every
// topic's min.cleanable.dirty.ratio.
var minCleanableRatio = ratioDefault(OnCluster, "log.cleaner.min.cleanable.ratio")

// dirtyRatio is a partition's cleanable ratio as LogToClean computes it, with
// its cleanable bytes.
func (p *partition) dirtyRatio(now int64, config *TopicConfig) (ratio float64, cleanable int64) {
	firstDirty := p.firstDirtyOffset()
	end := p.uncleanable(now, config, firstDirty)
	var clean int64
	for i := range end {
		switch {
		case p.segmentEnd(i) <= firstDirty:
			clean += p.segments[i].bytes
		default:
			// The segment holding the first dirty offset counts as dirty
			// (calculateCleanableBytes starts at it), and as clean too when
			// it begins below it (logSegments(-1, firstDirtyOffset)).
			if p.segments[i].base < firstDirty {
				clean += p.segments[i].bytes
			}
			cleanable += p.segments[i].bytes
		}
	}
	if clean+cleanable == 0 {
		return 0, 0
	}
	return float64(cleanable) / float64(clean+cleanable), cleanable
}

// runCleaner is one look of the cleaner thread, rules 3: it cleans the
// filthiest cleanable partition and runs retention on the compacted topics,
// again and again until no partition is cleanable. Retention at one instant
// changes a partition only once, and cleaning one partition changes no
// other's ratio, so after the first cleaning the others are cleaned in the
// order of their ratios then, each followed by its own retention: what
// picking the filthiest each time gives, without measuring every partition
// again after each cleaning.
func (l *PartitionedLog) runCleaner() {
	compacted := func(c TopicConfig) bool { return c.Compacts() }
	candidates := l.cleanable()
	if len(candidates) == 0 {
		l.runRetentionOf(compacted)
		return
	}
	first := candidates[0]
	l.clean(first.t, first.i, first.p)
	l.runRetentionOf(compacted)
	for _, c := range l.cleanable() {
		l.clean(c.t, c.i, c.p)
		if c.t.config.Deletes() {
			l.retainByTime(c.t, c.i, c.p)
			l.retainBySize(c.t, c.i, c.p)
		}
	}
}

// dirtyPartition is a cleanable partition and its dirty ratio.
type dirtyPartition struct {
	t     *topic
	i     int
	p     *partition
	ratio float64
}

// cleanableNow says whether the cleaner would clean the partition now: it
// has cleanable bytes and its dirty ratio is above minCleanableRatio (Kafka
// 4.4's LogCleanerManager.grabFilthiestCompactedLog), with the ratio.
func (p *partition) cleanableNow(now int64, config *TopicConfig) (float64, bool) {
	ratio, cleanable := p.dirtyRatio(now, config)
	return ratio, cleanable > 0 && ratio > minCleanableRatio
}

// cleanable lists the compacted partitions whose dirty ratio is above
// minCleanableRatio, the filthiest first, then in topic and partition order
// (grabFilthiestCompactedLog's pick, repeated).
func (l *PartitionedLog) cleanable() []dirtyPartition {
	var out []dirtyPartition
	for _, name := range l.topicNames {
		t := l.topics[name]
		if !t.config.Compacts() {
			continue
		}
		for i, p := range t.partitions {
			if ratio, ok := p.cleanableNow(l.now, &t.config); ok {
				out = append(out, dirtyPartition{t, i, p, ratio})
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].ratio > out[b].ratio })
	return out
}

// nextCleanerRun returns when the cleaner next looks and could find
// something to do (rules 3): the next multiple of log.cleaner.backoff.ms
// from the first time a partition may be cleanable or a compacted topic's
// retention may delete, math.MaxInt64 when none may or when none comes by
// until. The looks in between would find nothing; skipping them keeps a long
// Advance fast, and a short one need not look at the partitions at all.
func (l *PartitionedLog) nextCleanerRun(until int64) int64 {
	if !l.follows(ScheduledRetentionAndCleaner) || nextTick(l.now, l.now, 0, cleanerBackoffMs) > until {
		return math.MaxInt64
	}
	wake := min(l.cleanerWakeup(), l.retentionWakeupOf(func(c TopicConfig) bool { return c.Compacts() }))
	return nextTick(l.now, wake, 0, cleanerBackoffMs)
}

// cleanerWakeup returns the earliest time at which a compacted partition may
// be cleanable, given the log as it is: now when one is, the time
// min.compaction.lag.ms lets a dirty segment be cleaned when that may make
// one so, math.MaxInt64 when none may.
func (l *PartitionedLog) cleanerWakeup() int64 {
	wake := int64(math.MaxInt64)
	for _, name := range l.topicNames {
		t := l.topics[name]
		if !t.config.Compacts() {
			continue
		}
		for _, p := range t.partitions {
			if _, ok := p.cleanableNow(l.now, &t.config); ok {
				return l.now
			}
			end := p.uncleanable(l.now, &t.config, p.firstDirtyOffset())
			if end < len(p.segments)-1 && p.segmentEnd(end) <= p.highWatermark() {
				// Held by min.compaction.lag.ms alone: cleanable in time.
				wake = min(wake, p.segments[end].maxTimestamp+t.config.MinCompactionLagMs)
			}
		}
	}
	return wake
}
