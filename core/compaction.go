package core

import (
	"fmt"
	"math"
	"sort"
)

// Compact runs Kafka's log cleaner now on every partition of a topic whose
// cleanup.policy includes compact. Kafka's cleaner runs by itself in the
// background once enough of a log is dirty (min.cleanable.dirty.ratio); the
// playground cleans only when asked, so learners see each cleaning.
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
		if removed := p.compact(l.now, &t.config); removed > 0 {
			l.emit(Event{Kind: EventCompacted, Topic: topicName, Partition: i, Count: removed})
		}
	}
	return nil
}

// compact cleans the partition and returns how many records it removed.
func (p *partition) compact(now int64, config *TopicConfig) int {
	// The first segment that may not be cleaned: the active one, or an
	// earlier one holding a record younger than min.compaction.lag.ms.
	end := len(p.segments) - 1
	for i := range end {
		if p.segments[i].maxTimestamp > now-config.MinCompactionLagMs || p.segmentEnd(i) > p.highWatermark() {
			end = i
			break
		}
	}
	if end == 0 {
		return 0
	}
	cleanableEnd := p.segments[end].base

	latest := make(map[string]int64)
	for r := range p.records.between(math.MinInt64, cleanableEnd) {
		if r.HasKey {
			latest[r.Key] = r.Offset
		}
	}

	var horizons []tombstoneHorizon
	removed := p.records.filterBelow(cleanableEnd, func(r Record) bool {
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
	return removed
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
