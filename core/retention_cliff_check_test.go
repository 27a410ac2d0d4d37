package core

import "testing"

// The cliff says when the retention checks delete: the next check, and
// the one that deletes the next records, which is when they go.
func TestRetentionCliffSaysWhichCheckDeletes(t *testing.T) {
	l := NewPartitionedLog(1)
	if err := l.UseRules(LatestRules); err != nil {
		t.Fatal(err)
	}
	if err := l.CreateTopic("t", 1, map[string]string{"retention.ms": "10m", "segment.records": "2"}); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		if _, err := l.Produce(ProduceRequest{Topic: "t", Value: "v"}); err != nil {
			t.Fatal(err)
		}
	}
	cliff, err := l.RetentionCliff("t", 0)
	if err != nil {
		t.Fatal(err)
	}
	// Kafka 4.4's checks: 30s after the broker starts, then every 5m
	// (log.initial.task.delay.ms, log.retention.check.interval.ms).
	if cliff.CheckAt != 30_000 {
		t.Errorf("the next check is at %d ms, want 30000", cliff.CheckAt)
	}
	if cliff.NextFrom != 0 || cliff.NextAt != 600_001 || cliff.GoneAt != 630_000 {
		t.Fatalf("the next records go from %d, expire at %d, are deleted at %d; want 0, 600001, 630000", cliff.NextFrom, cliff.NextAt, cliff.GoneAt)
	}
	logStart := func() int64 {
		t.Helper()
		infos, err := l.SegmentsBetween("t", 0, 0, 100)
		if err != nil {
			t.Fatal(err)
		}
		return infos[0].BaseOffset
	}
	if err := l.Advance(cliff.GoneAt - 1); err != nil { // from 0
		t.Fatal(err)
	}
	if got := logStart(); got != 0 {
		t.Fatalf("a millisecond before the check the cliff names, the log starts at %d", got)
	}
	if err := l.Advance(1); err != nil { // Advance moves the clock by, not to
		t.Fatal(err)
	}
	if got := logStart(); got == 0 {
		t.Fatal("at the check the cliff names, the oldest segment is still there")
	}
}
