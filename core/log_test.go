package core

import (
	"slices"
	"strings"
	"testing"
)

func TestPerPartitionOrdering(t *testing.T) {
	l := newTestLog(t, "orders", 3, nil)
	var want [3][]string
	for i := range 60 {
		key := []string{"a", "b", "c", "d", "e"}[i%5]
		value := key + "-" + string(rune('A'+i%26))
		res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Key: key, HasKey: true, Value: value})
		want[res.Partition] = append(want[res.Partition], value)
		if int(res.Offset) != len(want[res.Partition])-1 {
			t.Fatalf("record %d got offset %d, want %d", i, res.Offset, len(want[res.Partition])-1)
		}
	}
	for p := range 3 {
		records, err := l.Consume("orders", p, 0, 1000)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for i, r := range records {
			if r.Offset != int64(i) {
				t.Fatalf("partition %d: record %d has offset %d", p, i, r.Offset)
			}
			got = append(got, r.Value)
		}
		if !slices.Equal(got, want[p]) {
			t.Fatalf("partition %d holds %v, want %v", p, got, want[p])
		}
	}
}

func TestConsumeDoesNotConsume(t *testing.T) {
	l := newTestLog(t, "orders", 1, nil)
	for i := range 5 {
		produceTo(t, l, "orders", 0, "k", string(rune('a'+i)))
	}
	first, err := l.Consume("orders", 0, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	second, _ := l.Consume("orders", 0, 1, 2)
	if !slices.Equal(offsetsOf(first), []int64{1, 2}) || !slices.Equal(offsetsOf(second), []int64{1, 2}) {
		t.Fatalf("two reads at offset 1: %v then %v", offsetsOf(first), offsetsOf(second))
	}
	first[0].Value = "changed by the reader"
	if again, _ := l.Consume("orders", 0, 1, 1); again[0].Value != "b" {
		t.Fatalf("a reader changed the log: %q", again[0].Value)
	}
	atEnd, err := l.Consume("orders", 0, 5, 10)
	if err != nil || len(atEnd) != 0 {
		t.Fatalf("read at the high watermark: %v, %v; want empty, no error", atEnd, err)
	}
	if _, err := l.Consume("orders", 0, 6, 10); err == nil || !strings.Contains(err.Error(), "out of range") {
		t.Fatalf("read past the high watermark: %v", err)
	}
}

func TestHighWatermarkAndLogStart(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	hw, _ := l.HighWatermark("orders", 1)
	start, _ := l.LogStartOffset("orders", 1)
	if hw != 0 || start != 0 {
		t.Fatalf("empty partition: high watermark %d, log start %d", hw, start)
	}
	for range 3 {
		produceTo(t, l, "orders", 1, "k", "v")
	}
	hw, _ = l.HighWatermark("orders", 1)
	if hw != 3 {
		t.Fatalf("high watermark %d, want 3", hw)
	}
	if n, _ := l.RecordCount("orders", 1); n != 3 {
		t.Fatalf("record count %d", n)
	}
	if counts, _ := l.PartitionRecordCounts("orders"); !slices.Equal(counts, []int{0, 3}) {
		t.Fatalf("counts %v", counts)
	}
}

func TestTruncate(t *testing.T) {
	l := newTestLog(t, "orders", 1, map[string]string{"segment.records": "4"})
	for i := range 10 {
		produceTo(t, l, "orders", 0, "k", string(rune('a'+i)))
	}
	l.DrainEvents()
	if err := l.Truncate("orders", 0, 6); err != nil {
		t.Fatal(err)
	}
	start, _ := l.LogStartOffset("orders", 0)
	hw, _ := l.HighWatermark("orders", 0)
	records, _ := l.Records("orders", 0)
	if start != 6 || hw != 10 || !slices.Equal(offsetsOf(records), []int64{6, 7, 8, 9}) || records[0].Value != "g" {
		t.Fatalf("after truncate before 6: start %d, high watermark %d, records %v", start, hw, records)
	}
	events := l.DrainEvents()
	if len(events) != 1 || events[0].Kind != EventTruncated || events[0].From != 0 || events[0].To != 6 || events[0].Count != 6 {
		t.Fatalf("events %+v", events)
	}
	// Segments [0,4) went whole; [4,8) stays with its two survivors.
	segments, _ := l.Segments("orders", 0)
	if len(segments) != 2 || segments[0].BaseOffset != 4 || segments[0].Records != 2 || segments[1].BaseOffset != 8 {
		t.Fatalf("segments %+v", segments)
	}
	if _, err := l.Consume("orders", 0, 5, 10); err == nil {
		t.Fatal("read below the log start succeeded")
	}

	// Below the log start: nothing happens.
	before := dumpLog(l)
	if err := l.Truncate("orders", 0, 2); err != nil {
		t.Fatal(err)
	}
	if dumpLog(l) != before {
		t.Fatal("truncate below the log start changed the log")
	}
	// Above the high watermark: refused.
	if err := l.Truncate("orders", 0, 11); err == nil || !strings.Contains(err.Error(), "high watermark") {
		t.Fatalf("truncate above the high watermark: %v", err)
	}
	// Up to the high watermark: empty, offsets go on.
	if err := l.Truncate("orders", 0, 10); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.RecordCount("orders", 0); n != 0 {
		t.Fatalf("%d records left", n)
	}
	if res := produceTo(t, l, "orders", 0, "k", "v"); res.Offset != 10 {
		t.Fatalf("next offset %d, want 10", res.Offset)
	}
}

func TestRetentionKeepsOffsetsStable(t *testing.T) {
	// Rules 2: a retention check every 30s.
	l := newTestLogUnder(t, RulesV2, "orders", 1, map[string]string{"retention.ms": "1m", "segment.records": "3"})
	for range 6 {
		produceTo(t, l, "orders", 0, "k", "old")
	}
	mustAdvance(t, l, 50*secondMs)
	for range 2 {
		produceTo(t, l, "orders", 0, "k", "new")
	}
	// At 90s the two full segments (newest record at 0s) are 90s old.
	mustAdvance(t, l, 40*secondMs)
	records, _ := l.Records("orders", 0)
	if !slices.Equal(offsetsOf(records), []int64{6, 7}) {
		t.Fatalf("after retention: offsets %v, want [6 7]", offsetsOf(records))
	}
	start, _ := l.LogStartOffset("orders", 0)
	hw, _ := l.HighWatermark("orders", 0)
	if start != 6 || hw != 8 {
		t.Fatalf("log start %d, high watermark %d", start, hw)
	}
	if res := produceTo(t, l, "orders", 0, "k", "newer"); res.Offset != 8 {
		t.Fatalf("next offset %d, want 8", res.Offset)
	}
}

func TestBadInputLeavesStateUnchanged(t *testing.T) {
	l := newTestLog(t, "orders", 2, map[string]string{"cleanup.policy": "compact"})
	produceTo(t, l, "orders", 0, "k", "v")
	before := dumpLog(l)
	bad := []struct {
		name string
		run  func() error
	}{
		{"unknown topic", func() error { _, err := l.Produce(ProduceRequest{Topic: "nope", Partition: -1}); return err }},
		{"partition out of range", func() error {
			_, err := l.Produce(ProduceRequest{Topic: "orders", Partition: 2, HasKey: true})
			return err
		}},
		{"keyless on compacted", func() error { _, err := l.Produce(ProduceRequest{Topic: "orders", Partition: -1}); return err }},
		{"tombstone without key", func() error {
			_, err := l.Produce(ProduceRequest{Topic: "orders", Partition: -1, Tombstone: true})
			return err
		}},
		{"tombstone with value", func() error {
			_, err := l.Produce(ProduceRequest{Topic: "orders", Partition: -1, HasKey: true, Tombstone: true, Value: "x"})
			return err
		}},
		{"record too large", func() error {
			_, err := l.Produce(ProduceRequest{Topic: "orders", Partition: -1, HasKey: true, Value: strings.Repeat("x", 2<<20)})
			return err
		}},
		{"consume bad partition", func() error { _, err := l.Consume("orders", -1, 0, 1); return err }},
		{"consume max 0", func() error { _, err := l.Consume("orders", 0, 0, 0); return err }},
		{"truncate negative", func() error { return l.Truncate("orders", 0, -1) }},
		{"truncate unknown", func() error { return l.Truncate("nope", 0, 0) }},
		{"truncate compacted", func() error { return l.Truncate("orders", 0, 1) }},
		{"topic exists", func() error { return l.CreateTopic("orders", 1, nil) }},
		{"zero partitions", func() error { return l.CreateTopic("t", 0, nil) }},
		{"too many partitions", func() error { return l.CreateTopic("t", 1001, nil) }},
		{"bad name", func() error { return l.CreateTopic("a b", 1, nil) }},
		{"bad config", func() error { return l.CreateTopic("t", 1, map[string]string{"retention.ms": "7x"}) }},
		{"unknown config", func() error { return l.CreateTopic("t", 1, map[string]string{"retention.hours": "7"}) }},
		{"set bad config", func() error { return l.SetTopicConfig("orders", "segment.bytes", "1B") }},
		{"shrink", func() error { return l.AddPartitions("orders", 1) }},
		{"same count", func() error { return l.AddPartitions("orders", 2) }},
		{"advance zero", func() error { return l.Advance(0) }},
		{"advance too far", func() error { return l.Advance(MaxAdvanceMs + 1) }},
		{"compact delete topic", func() error {
			if err := l.SetTopicConfig("orders", "cleanup.policy", "delete"); err != nil {
				return nil
			}
			defer l.SetTopicConfig("orders", "cleanup.policy", "compact")
			return l.Compact("orders")
		}},
	}
	for _, c := range bad {
		err := c.run()
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		if after := dumpLog(l); after != before {
			t.Errorf("%s (%v) changed the state", c.name, err)
			before = after
		}
	}
}

func TestErrorsNameTheProblem(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	_, err := l.Consume("orders", 5, 0, 1)
	if err == nil || !strings.Contains(err.Error(), "orders") || !strings.Contains(err.Error(), "5") {
		t.Errorf("bad partition: %v", err)
	}
	if err := l.AddPartitions("orders", 1); err == nil || !strings.Contains(err.Error(), "would not be an increase") {
		t.Errorf("shrink: %v", err)
	}
	err = l.CreateTopic("t", 1, map[string]string{"segment.ms": "10x", "retention.ms": "-5"})
	if err == nil || !strings.Contains(err.Error(), "retention.ms") {
		t.Errorf("the first config in name order should be named: %v", err)
	}
}

func TestAddPartitions(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	keys := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	before := map[string]int{}
	for _, k := range keys {
		before[k] = mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Key: k, HasKey: true}).Partition
	}
	countsBefore, _ := l.PartitionRecordCounts("orders")
	if err := l.AddPartitions("orders", 5); err != nil {
		t.Fatal(err)
	}
	if n, _ := l.Partitions("orders"); n != 5 {
		t.Fatalf("partitions %d", n)
	}
	counts, _ := l.PartitionRecordCounts("orders")
	if !slices.Equal(counts[:2], countsBefore) || !slices.Equal(counts[2:], []int{0, 0, 0}) {
		t.Fatalf("old records moved: %v then %v", countsBefore, counts)
	}
	moved := 0
	for _, k := range keys {
		p := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Key: k, HasKey: true}).Partition
		if p != PartitionFor(k, 5) {
			t.Fatalf("key %q went to %d, want %d", k, p, PartitionFor(k, 5))
		}
		if p != before[k] {
			moved++
		}
	}
	if moved == 0 {
		t.Fatal("no key changed partition: the new count is not used")
	}
}

func TestSkew(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	if s, _ := l.Skew("orders"); s != 0 {
		t.Fatalf("empty topic skew %v, want 0", s)
	}
	for p := range 4 {
		produceTo(t, l, "orders", p, "k", "v")
	}
	if s, _ := l.Skew("orders"); s != 1 {
		t.Fatalf("even skew %v, want 1", s)
	}
	for range 4 {
		produceTo(t, l, "orders", 2, "k", "v")
	}
	// counts 1 1 5 1: mean 2, largest 5.
	if s, _ := l.Skew("orders"); s != 2.5 {
		t.Fatalf("skew %v, want 2.5", s)
	}
	if _, err := l.Skew("nope"); err == nil {
		t.Fatal("skew of an unknown topic")
	}
}

func TestCloneIsIndependent(t *testing.T) {
	l := newTestLogUnder(t, RulesV1, "orders", 2, map[string]string{"partitioner": "sticky"})
	for range 7 {
		mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: "v"})
	}
	c := l.Clone()
	if dumpLog(c) != dumpLog(l) {
		t.Fatal("clone differs")
	}
	for range 9 {
		a := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: "v"})
		b := mustProduce(t, c, ProduceRequest{Topic: "orders", Partition: -1, Value: "v"})
		if a != b {
			t.Fatalf("clone diverged: %+v vs %+v", a, b)
		}
	}
	if err := c.Truncate("orders", 0, 3); err != nil {
		t.Fatal(err)
	}
	if start, _ := l.LogStartOffset("orders", 0); start != 0 {
		t.Fatal("truncating the clone truncated the original")
	}
}

func TestDrainEvents(t *testing.T) {
	l := newTestLog(t, "orders", 1, nil)
	mustAdvance(t, l, 5)
	produceTo(t, l, "orders", 0, "k", "v")
	events := l.DrainEvents()
	kinds := []EventKind{}
	for _, e := range events {
		kinds = append(kinds, e.Kind)
	}
	if !slices.Equal(kinds, []EventKind{EventTopicCreated, EventClockAdvanced, EventProduced}) {
		t.Fatalf("events %v", kinds)
	}
	if events[2].Time != 5 || events[2].Offset != 0 || events[1].Offset != 5 {
		t.Fatalf("events %+v", events)
	}
	if more := l.DrainEvents(); len(more) != 0 {
		t.Fatalf("second drain: %v", more)
	}
	// Records produced one after another at one instant make one run.
	for range 3 * maxPendingEvents {
		produceTo(t, l, "orders", 0, "k", "v")
	}
	events = l.DrainEvents()
	if len(events) != 1 || events[0].From != 1 || events[0].To != 3*maxPendingEvents+1 || events[0].Count != 3*maxPendingEvents {
		t.Fatalf("%d events, want one run of offsets 1..%d: %+v", len(events), 3*maxPendingEvents, events)
	}
	// A clock advance between records ends each run: only the latest
	// events are kept.
	for range 3 * maxPendingEvents / 2 {
		produceTo(t, l, "orders", 0, "k", "v")
		mustAdvance(t, l, 1)
	}
	events = l.DrainEvents()
	last := int64(3*maxPendingEvents + 3*maxPendingEvents/2)
	if len(events) != maxPendingEvents || events[len(events)-2].Offset != last {
		t.Fatalf("%d events kept, want %d ending with the record at offset %d: last %+v", len(events), maxPendingEvents, last, events[len(events)-2:])
	}
	for i := 2; i < len(events); i++ {
		if events[i].Kind == EventProduced && events[i].Offset != events[i-2].Offset+1 {
			t.Fatalf("events out of order at %d: %d after %d", i, events[i].Offset, events[i-2].Offset)
		}
	}
}

// DeleteRecords' -1 is the high watermark (Kafka's
// DeleteRecordsRequest.HIGH_WATERMARK); no other negative offset is taken.
func TestTruncateToHighWatermark(t *testing.T) {
	l := newTestLog(t, "orders", 1, nil)
	for range 5 {
		produceTo(t, l, "orders", 0, "k", "v")
	}
	before := dumpLog(l)
	if err := l.Truncate("orders", 0, -2); err == nil || !strings.Contains(err.Error(), "only -1, the high watermark") {
		t.Fatalf("truncate before -2: %v", err)
	}
	if dumpLog(l) != before {
		t.Fatal("a refused truncate changed the log")
	}
	if err := l.Truncate("orders", 0, TruncateToHighWatermark); err != nil {
		t.Fatal(err)
	}
	start, _ := l.LogStartOffset("orders", 0)
	hw, _ := l.HighWatermark("orders", 0)
	if start != 5 || hw != 5 {
		t.Fatalf("after truncate before -1: log start %d, high watermark %d, want both 5", start, hw)
	}
}
