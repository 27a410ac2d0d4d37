package core

import "slices"

// partition is one ordered log. Its records sit in chunks in offset order
// (records.go); compaction leaves offset gaps. Segments describe how the
// offsets are split into Kafka's segment files.
type partition struct {
	records  recordLog
	segments []segment // oldest first; the last one is the active segment; never empty
	logStart int64     // first offset a reader may ask for
	next     int64     // the next offset to assign: the leader's log end offset
	// activeSince is the timestamp of the active segment's first record,
	// which segment.ms measures from (meaningless while it is empty).
	activeSince int64

	// horizons lists, in offset order, tombstones a cleaning has seen and
	// when they may go (Kafka 3.1+ stores this delete horizon in the batch).
	horizons []tombstoneHorizon
	// cleanedTo is where the last cleaning ended, Kafka's cleaner
	// checkpoint: the records from it on are dirty (firstDirtyOffset).
	cleanedTo int64

	replicas *replicaSet // where its replicas live and how far each got (replica.go)
	// producers is what the partition keeps of named producers: their
	// last batches, open transactions, and the aborted ones (nil until a
	// named producer writes to it; producer_send.go).
	producers *partitionProducers
}

// segment describes one segment file: the records with offsets from base up
// to the next segment's base (the active segment: up to the high watermark).
type segment struct {
	base      int64
	bytes     int64 // bytes written to the file; truncation does not shrink a file, cleaning rewrites it
	createdAt int64 // when the segment was rolled
	// maxTimestamp is the newest record's timestamp, which retention.ms
	// measures from (the creation time while empty, like a file's
	// modification time).
	maxTimestamp int64
}

type tombstoneHorizon struct {
	offset int64
	at     int64 // the tombstone may be removed by a cleaning at or after this time
}

func newPartition(base, now int64) *partition {
	return &partition{
		segments: []segment{{base: base, createdAt: now, maxTimestamp: now}},
		logStart: base,
		next:     base,
	}
}

func (p *partition) clone(breathe func()) *partition {
	c := &partition{
		records:     p.records.clone(),
		segments:    cloneSegments(p.segments, breathe),
		logStart:    p.logStart,
		next:        p.next,
		activeSince: p.activeSince,
		horizons:    slices.Clone(p.horizons),
		cleanedTo:   p.cleanedTo,
		producers:   p.producers.clone(),
	}
	if p.replicas != nil {
		c.replicas = p.replicas.clone()
	}
	return c
}

// cloneSlice is how many segments a clone copies between two breaths: 1 MB.
const cloneSlice = 1 << 15

// cloneSegments copies a list of segments, a slice of it at a time.
func cloneSegments(segments []segment, breathe func()) []segment {
	if len(segments) <= cloneSlice {
		return slices.Clone(segments)
	}
	c := make([]segment, 0, len(segments))
	for from := 0; from < len(segments); from += cloneSlice {
		c = append(c, segments[from:min(from+cloneSlice, len(segments))]...)
		breathe()
	}
	return c
}

// recordOverheadBytes is what the playground adds to len(key)+len(value) for
// a record's size in segment.bytes and retention.bytes: about what Kafka's
// record format spends per record on its length, attributes, timestamp and
// offset deltas and header count. Kafka's 61-byte batch header is left out:
// the playground does not batch.
const recordOverheadBytes = 8

// maxRecordBytes is Kafka's default message.max.bytes: a larger record is
// refused (RECORD_TOO_LARGE).
const maxRecordBytes = 1048588

func recordSize(key, value string) int64 {
	return int64(len(key)+len(value)) + recordOverheadBytes
}

// segmentEnd returns the offset after segment i's range.
func (p *partition) segmentEnd(i int) int64 {
	if i+1 < len(p.segments) {
		return p.segments[i+1].base
	}
	return p.next
}

func (p *partition) size() int64 {
	var total int64
	for _, s := range p.segments {
		total += s.bytes
	}
	return total
}

// append adds a record at the high watermark, rolling the active segment
// first when it is full (segment.bytes, segment.records) or old (segment.ms),
// and returns the bytes of memory it allocated for the record (recordLog's
// append), for the log's StoredBytes.
func (p *partition) append(r *Record, size int64, config *TopicConfig) int64 {
	active := &p.segments[len(p.segments)-1]
	if written := p.next - active.base; written > 0 {
		full := active.bytes+size > config.SegmentBytes ||
			config.SegmentRecords > 0 && written >= config.SegmentRecords ||
			r.Timestamp-p.activeSince > config.SegmentMs
		if full {
			p.roll(r.Timestamp)
			active = &p.segments[len(p.segments)-1]
		}
	}
	if p.next == active.base {
		p.activeSince = r.Timestamp
	}
	active.bytes += size
	active.maxTimestamp = max(active.maxTimestamp, r.Timestamp)
	took := p.records.append(r)
	p.next++
	return took
}

// roll closes the active segment and opens an empty one at the high watermark.
func (p *partition) roll(now int64) {
	p.segments = append(p.segments, segment{base: p.next, createdAt: now, maxTimestamp: now})
}

// dropBefore removes the records below offset (already below the log start)
// and returns how many went.
func (p *partition) dropBefore(offset int64) int {
	removed := p.records.dropBefore(offset)
	h := 0
	for h < len(p.horizons) && p.horizons[h].offset < offset {
		h++
	}
	p.horizons = p.horizons[h:]
	if len(p.horizons) == 0 {
		p.horizons = nil
	}
	return removed
}

// segmentCount returns how many records segment i retains.
func (p *partition) segmentCount(i int) int {
	return p.records.countBetween(p.segments[i].base, p.segmentEnd(i))
}
