package core

import (
	"slices"
	"strings"
	"testing"
)

func keyedValues(records []Record) []string {
	var out []string
	for _, r := range records {
		v := r.Value
		if r.Tombstone {
			v = "⊥"
		}
		out = append(out, r.Key+"="+v)
	}
	return out
}

func tombstone(t *testing.T, l *PartitionedLog, topicName, key string) {
	t.Helper()
	mustProduce(t, l, ProduceRequest{Topic: topicName, Partition: 0, Key: key, HasKey: true, Tombstone: true})
}

func TestCompactKeepsLatestPerKeyOutsideActiveSegment(t *testing.T) {
	l := newTestLog(t, "accounts", 1, map[string]string{"cleanup.policy": "compact", "segment.records": "3"})
	for i, key := range []string{"a", "b", "a", "c", "b", "a", "a"} {
		produceTo(t, l, "accounts", 0, key, string(rune('0'+i)))
	}
	// Segments [0,3) a b a, [3,6) c b a, active [6,7) a.
	l.DrainEvents()
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	records, _ := l.Records("accounts", 0)
	if got := offsetsOf(records); !slices.Equal(got, []int64{3, 4, 5, 6}) {
		t.Fatalf("offsets after compaction %v, want [3 4 5 6]", got)
	}
	if got := keyedValues(records); !slices.Equal(got, []string{"c=3", "b=4", "a=5", "a=6"}) {
		t.Fatalf("records %v", got)
	}
	if start := logStart(t, l, "accounts", 0); start != 0 {
		t.Fatalf("compaction moved the log start to %d", start)
	}
	if hw, _ := l.HighWatermark("accounts", 0); hw != 7 {
		t.Fatalf("high watermark %d", hw)
	}
	// Reading from the log start, inside the gap, gives the first survivor.
	read, err := l.Consume("accounts", 0, 0, 2)
	if err != nil || !slices.Equal(offsetsOf(read), []int64{3, 4}) {
		t.Fatalf("read from 0: %v %v", offsetsOf(read), err)
	}
	events := l.DrainEvents()
	// The event says where the cleaning stopped: the active segment's base.
	if len(events) != 1 || events[0].Kind != EventCompacted || events[0].Count != 3 || events[0].To != 6 {
		t.Fatalf("events %+v", events)
	}
	// The emptied first segment is gone; the others keep their bases.
	segments, _ := l.Segments("accounts", 0)
	if len(segments) != 2 || segments[0].BaseOffset != 3 || segments[0].Records != 3 || segments[0].Bytes != 3*(1+1+8) || !segments[1].Active {
		t.Fatalf("segments %+v", segments)
	}
	// A second cleaning finds nothing more to do.
	before := dumpLog(l)
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	if dumpLog(l) != before {
		t.Fatal("a second cleaning changed the log")
	}
}

func TestCompactRespectsMinCompactionLag(t *testing.T) {
	l := newTestLog(t, "accounts", 1, map[string]string{"cleanup.policy": "compact", "segment.records": "2", "min.compaction.lag.ms": "1m"})
	produceTo(t, l, "accounts", 0, "a", "1")
	produceTo(t, l, "accounts", 0, "a", "2") // segment [0,2) at 0s
	mustAdvance(t, l, 30*secondMs)
	produceTo(t, l, "accounts", 0, "a", "3")
	produceTo(t, l, "accounts", 0, "a", "4") // segment [2,4) at 30s
	produceTo(t, l, "accounts", 0, "a", "5") // active
	mustAdvance(t, l, 29*secondMs)
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.RecordCount("accounts", 0); n != 5 {
		t.Fatalf("at 59s nothing is 1m old, yet %d records are left", n)
	}
	mustAdvance(t, l, 1*secondMs) // 60s: the first segment may be cleaned, the second not
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	records, _ := l.Records("accounts", 0)
	if got := keyedValues(records); !slices.Equal(got, []string{"a=2", "a=3", "a=4", "a=5"}) {
		t.Fatalf("at 60s: %v", got)
	}
	mustAdvance(t, l, 30*secondMs)
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	records, _ = l.Records("accounts", 0)
	if got := keyedValues(records); !slices.Equal(got, []string{"a=4", "a=5"}) {
		t.Fatalf("at 90s: %v", got)
	}
}

func TestTombstoneStaysDeleteRetentionAfterFirstCleaning(t *testing.T) {
	l := newTestLog(t, "accounts", 1, map[string]string{"cleanup.policy": "compact", "segment.records": "2", "delete.retention.ms": "1m"})
	produceTo(t, l, "accounts", 0, "a", "1")
	tombstone(t, l, "accounts", "a") // offset 1, still in the active segment
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 2*minuteMs)
	produceTo(t, l, "accounts", 0, "b", "1") // rolls: [0,2) is now cleanable
	// First cleaning that sees the tombstone: at 2m. It removes a=1 and
	// keeps the tombstone until 3m.
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	records, _ := l.Records("accounts", 0)
	if got := keyedValues(records); !slices.Equal(got, []string{"a=⊥", "b=1"}) {
		t.Fatalf("after the first cleaning: %v", got)
	}
	mustAdvance(t, l, minuteMs-1)
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.RecordCount("accounts", 0); n != 2 {
		t.Fatalf("the tombstone went before delete.retention.ms passed")
	}
	mustAdvance(t, l, 1)
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	records, _ = l.Records("accounts", 0)
	if got := keyedValues(records); !slices.Equal(got, []string{"b=1"}) || records[0].Offset != 2 {
		t.Fatalf("after delete.retention.ms: %v", got)
	}
	if start := logStart(t, l, "accounts", 0); start != 0 {
		t.Fatalf("log start %d", start)
	}
}

func TestSupersededTombstoneGoesAtOnce(t *testing.T) {
	l := newTestLog(t, "accounts", 1, map[string]string{"cleanup.policy": "compact", "segment.records": "3"})
	produceTo(t, l, "accounts", 0, "a", "1")
	tombstone(t, l, "accounts", "a")
	produceTo(t, l, "accounts", 0, "a", "again")
	produceTo(t, l, "accounts", 0, "z", "active")
	if err := l.Compact("accounts"); err != nil {
		t.Fatal(err)
	}
	records, _ := l.Records("accounts", 0)
	if got := keyedValues(records); !slices.Equal(got, []string{"a=again", "z=active"}) {
		t.Fatalf("%v", got)
	}
}

func TestCompactDropsKeylessRecordsWrittenBeforeThePolicyChanged(t *testing.T) {
	l := newTestLog(t, "mixed", 1, map[string]string{"segment.records": "2"})
	mustProduce(t, l, ProduceRequest{Topic: "mixed", Partition: 0, Value: "no key"})
	produceTo(t, l, "mixed", 0, "a", "1")
	produceTo(t, l, "mixed", 0, "a", "2")
	if err := l.SetTopicConfig("mixed", "cleanup.policy", "compact"); err != nil {
		t.Fatal(err)
	}
	_, err := l.Produce(ProduceRequest{Topic: "mixed", Partition: -1, Value: "no key"})
	if err == nil || !strings.Contains(err.Error(), "without a key") {
		t.Fatalf("keyless record on a compacted topic: %v", err)
	}
	if err := l.Compact("mixed"); err != nil {
		t.Fatal(err)
	}
	// a=1 is the latest of its key in the cleanable part: a=2 is in the
	// active segment, which the cleaner does not read.
	records, _ := l.Records("mixed", 0)
	if got := keyedValues(records); !slices.Equal(got, []string{"a=1", "a=2"}) {
		t.Fatalf("%v", got)
	}
}

func TestCompactDeleteTopicDoesBoth(t *testing.T) {
	l := newTestLog(t, "both", 1, map[string]string{"cleanup.policy": "delete,compact", "segment.records": "2", "retention.ms": "1m"})
	if config, _ := l.TopicConfig("both"); config.CleanupPolicy != PolicyCompactDelete {
		t.Fatalf("policy %q", config.CleanupPolicy)
	}
	for _, key := range []string{"a", "a", "b"} {
		produceTo(t, l, "both", 0, key, "v")
	}
	if err := l.Compact("both"); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.RecordCount("both", 0); n != 2 {
		t.Fatalf("%d records after compaction", n)
	}
	mustAdvance(t, l, 2*minuteMs)
	if n, _ := l.RecordCount("both", 0); n != 0 {
		t.Fatalf("%d records after retention", n)
	}
}

func TestCompactRefusesDeleteOnlyTopic(t *testing.T) {
	l := newTestLog(t, "orders", 1, nil)
	if err := l.Compact("orders"); err == nil || !strings.Contains(err.Error(), "cleanup.policy") {
		t.Fatalf("compact a delete topic: %v", err)
	}
	if err := l.Compact("nope"); err == nil {
		t.Fatal("compact an unknown topic")
	}
}
