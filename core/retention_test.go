package core

import (
	"slices"
	"strings"
	"testing"
)

func logStart(t *testing.T, l *PartitionedLog, topicName string, partition int) int64 {
	t.Helper()
	start, err := l.LogStartOffset(topicName, partition)
	if err != nil {
		t.Fatal(err)
	}
	return start
}

func segmentBases(t *testing.T, l *PartitionedLog, topicName string, partition int) []int64 {
	t.Helper()
	segments, err := l.Segments(topicName, partition)
	if err != nil {
		t.Fatal(err)
	}
	var bases []int64
	for _, s := range segments {
		bases = append(bases, s.BaseOffset)
	}
	return bases
}

// Under rules 1 and 2 the checks run every 30s from 0.
func TestRetentionMsDeletesOldestSegmentsAtChecks(t *testing.T) {
	l := newTestLogUnder(t, RulesV2, "orders", 1, map[string]string{"retention.ms": "1m", "segment.records": "2"})
	produceTo(t, l, "orders", 0, "k", "at 0s")
	produceTo(t, l, "orders", 0, "k", "at 0s")
	mustAdvance(t, l, 40*secondMs)
	for range 3 {
		produceTo(t, l, "orders", 0, "k", "at 40s")
	}
	if bases := segmentBases(t, l, "orders", 0); !slices.Equal(bases, []int64{0, 2, 4}) {
		t.Fatalf("segments %v", bases)
	}
	l.DrainEvents()
	// At 60s the first segment is exactly 1m old: not more than retention.ms.
	mustAdvance(t, l, 20*secondMs)
	mustAdvance(t, l, 29*secondMs)
	if start := logStart(t, l, "orders", 0); start != 0 {
		t.Fatalf("at 89s log start %d, want 0", start)
	}
	// The check at 90s deletes it; the next segment (newest record 50s old)
	// stops deletion.
	mustAdvance(t, l, 1*secondMs)
	if start := logStart(t, l, "orders", 0); start != 2 {
		t.Fatalf("at 90s log start %d, want 2", start)
	}
	events := l.DrainEvents()
	if len(events) != 4 || events[2].Kind != EventSegmentDeleted || events[2].Time != 90*secondMs ||
		events[2].From != 0 || events[2].To != 2 || events[2].Count != 2 || !strings.HasPrefix(events[2].Detail, "retention.ms") {
		t.Fatalf("events %+v", events)
	}
	if events[2].RolledActive {
		t.Fatalf("a closed segment's deletion says the active segment rolled: %+v", events[2])
	}
	// At 120s every segment has expired, the active one too: Kafka rolls a
	// new active segment and deletes them all.
	mustAdvance(t, l, 30*secondMs)
	if start := logStart(t, l, "orders", 0); start != 5 {
		t.Fatalf("at 120s log start %d, want 5", start)
	}
	segments, _ := l.Segments("orders", 0)
	if len(segments) != 1 || !segments[0].Active || segments[0].BaseOffset != 5 || segments[0].Records != 0 || segments[0].CreatedAt != 120*secondMs {
		t.Fatalf("segments %+v", segments)
	}
	// The events say which deleted segment was the active one, which rolled
	// first: the last, and only it.
	var deleted []Event
	for _, e := range l.DrainEvents() {
		if e.Kind == EventSegmentDeleted {
			deleted = append(deleted, e)
		}
	}
	if len(deleted) != 2 || deleted[0].From != 2 || deleted[0].RolledActive || deleted[1].From != 4 || deleted[1].To != 5 || !deleted[1].RolledActive {
		t.Fatalf("deleted at 120s %+v, want [2,4) then the active [4,5), rolled first", deleted)
	}
	if res := produceTo(t, l, "orders", 0, "k", "v"); res.Offset != 5 {
		t.Fatalf("next offset %d", res.Offset)
	}
}

func TestRetentionStopsAtFirstSegmentThatDoesNotQualify(t *testing.T) {
	p := newPartition(0, 0)
	p.segments = []segment{{base: 0, bytes: 10, maxTimestamp: 0}, {base: 5, bytes: 10, maxTimestamp: 100}, {base: 9, bytes: 10, maxTimestamp: 0}}
	p.next = 12
	n := p.deletableSegments(func(s *segment) bool { return s.maxTimestamp < 50 })
	if n != 1 {
		t.Fatalf("%d segments deletable, want 1: the young second segment shields the third", n)
	}
	empty := newPartition(0, 0)
	if n := empty.deletableSegments(func(*segment) bool { return true }); n != 0 {
		t.Fatalf("an empty active segment is deletable")
	}
}

func TestRetentionBytesNeverGoesBelowTheLimit(t *testing.T) {
	// Each record is 1+11+8 = 20 bytes; each full segment holds 2.
	l := newTestLog(t, "orders", 1, map[string]string{"retention.bytes": "100", "segment.records": "2", "retention.ms": "-1"})
	for range 10 {
		produceTo(t, l, "orders", 0, "k", "elevenbytes")
	}
	mustAdvance(t, l, RetentionCheckIntervalMs)
	// 200 bytes: dropping [0,2) and [2,4) leaves 120; dropping [4,6) too
	// would leave 80, below the limit.
	if start := logStart(t, l, "orders", 0); start != 4 {
		t.Fatalf("log start %d, want 4", start)
	}
	var size int64
	segments, _ := l.Segments("orders", 0)
	for _, s := range segments {
		size += s.Bytes
	}
	if size != 120 {
		t.Fatalf("partition size %d, want 120", size)
	}
	events := l.DrainEvents()
	deleted := 0
	for _, e := range events {
		if e.Kind == EventSegmentDeleted {
			deleted++
			if !strings.HasPrefix(e.Detail, "retention.bytes") {
				t.Errorf("detail %q", e.Detail)
			}
		}
	}
	if deleted != 2 {
		t.Fatalf("%d segment-deleted events, want 2", deleted)
	}

	if err := l.SetTopicConfig("orders", "retention.bytes", "0"); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 5*minuteMs) // the next check, log.retention.check.interval.ms later
	if start := logStart(t, l, "orders", 0); start != 10 {
		t.Fatalf("retention.bytes=0: log start %d, want 10", start)
	}
}

func TestRetentionUnlimitedAndCompactOnly(t *testing.T) {
	l := NewPartitionedLog(1)
	if err := l.CreateTopic("forever", 1, map[string]string{"retention.ms": "-1"}); err != nil {
		t.Fatal(err)
	}
	if err := l.CreateTopic("compacted", 1, map[string]string{"retention.ms": "1s", "cleanup.policy": "compact"}); err != nil {
		t.Fatal(err)
	}
	produceTo(t, l, "forever", 0, "k", "v")
	produceTo(t, l, "compacted", 0, "k", "v")
	mustAdvance(t, l, MaxAdvanceMs)
	for _, name := range []string{"forever", "compacted"} {
		if n, _ := l.RecordCount(name, 0); n != 1 {
			t.Errorf("%s lost its record", name)
		}
	}
	if l.Now() != MaxAdvanceMs {
		t.Fatalf("clock %d", l.Now())
	}
}

func TestRetentionOverLongAdvance(t *testing.T) {
	l := newTestLogUnder(t, RulesV1, "orders", 3, map[string]string{"retention.ms": "1h", "segment.records": "1"})
	for i := range 30 {
		mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1})
		mustAdvance(t, l, int64(i+1)*minuteMs)
	}
	mustAdvance(t, l, 10*yearMs)
	for p := range 3 {
		hw, _ := l.HighWatermark("orders", p)
		if start := logStart(t, l, "orders", p); start != hw || hw != 10 {
			t.Fatalf("partition %d: log start %d, high watermark %d", p, start, hw)
		}
	}
}

func TestSegmentRolling(t *testing.T) {
	l := NewPartitionedLog(1)
	mustAdvance(t, l, 7)
	configs := map[string]map[string]string{
		"by-records": {"segment.records": "3"},
		"by-bytes":   {"segment.bytes": "60", "segment.records": "-1"}, // 20-byte records: 3 fit
		"by-time":    {"segment.ms": "1m", "segment.records": "-1"},
	}
	for name, c := range configs {
		if err := l.CreateTopic(name, 1, c); err != nil {
			t.Fatal(err)
		}
	}
	for range 7 {
		produceTo(t, l, "by-records", 0, "k", "elevenbytes")
		produceTo(t, l, "by-bytes", 0, "k", "elevenbytes")
	}
	for _, name := range []string{"by-records", "by-bytes"} {
		segments, _ := l.Segments(name, 0)
		want := []SegmentInfo{
			{BaseOffset: 0, EndOffset: 3, Records: 3, Bytes: 60, MaxTimestamp: 7, CreatedAt: 7},
			{BaseOffset: 3, EndOffset: 6, Records: 3, Bytes: 60, MaxTimestamp: 7, CreatedAt: 7},
			{BaseOffset: 6, EndOffset: 7, Records: 1, Bytes: 20, MaxTimestamp: 7, CreatedAt: 7, Active: true},
		}
		if !slices.Equal(segments, want) {
			t.Errorf("%s: segments\n%+v\nwant\n%+v", name, segments, want)
		}
	}
	produceTo(t, l, "by-time", 0, "k", "v")
	mustAdvance(t, l, minuteMs)
	produceTo(t, l, "by-time", 0, "k", "v") // exactly 1m after the first: no roll
	mustAdvance(t, l, 1)
	produceTo(t, l, "by-time", 0, "k", "v") // 1m1ms after: roll
	if bases := segmentBases(t, l, "by-time", 0); !slices.Equal(bases, []int64{0, 2}) {
		t.Fatalf("by-time segments %v", bases)
	}
}

func TestTruncateThenRetention(t *testing.T) {
	l := newTestLog(t, "orders", 1, map[string]string{"retention.ms": "1m", "segment.records": "4"})
	for range 6 {
		produceTo(t, l, "orders", 0, "k", "v")
	}
	if err := l.Truncate("orders", 0, 2); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 6*minuteMs) // past the check at 5m30s
	records, _ := l.Records("orders", 0)
	if len(records) != 0 || logStart(t, l, "orders", 0) != 6 {
		t.Fatalf("records %v, log start %d", records, logStart(t, l, "orders", 0))
	}
}
