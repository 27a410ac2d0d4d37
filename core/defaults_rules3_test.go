package core

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Under rules 3 a new group's members start at the end of each partition
// (auto.offset.reset=latest) and commit by themselves
// (enable.auto.commit=true), as Kafka's consumer does; under rules 2 they
// started at the log start and committed only when told.
func TestConsumerDefaultsUnderRules3(t *testing.T) {
	for _, tt := range []struct {
		rules      int
		firstPoll  string // offsets the first poll reads
		secondPoll string // offsets the second reads, 6s later
		committed  string // the group's committed offset then
	}{
		{RulesV2, "0 1 2 3 4", "5", "-"},
		// The first poll finds the end (5: Kafka's consumer resets its
		// position as it polls), and reads the record produced after it.
		{RulesV3, "", "5", "5"},
	} {
		t.Run(fmt.Sprint("rules ", tt.rules), func(t *testing.T) {
			l := newTestLogUnder(t, tt.rules, "orders", 1, nil)
			for i := range 4 {
				produceTo(t, l, "orders", 0, "k", fmt.Sprint("before-", i))
			}
			mustJoin(t, l, "g", "c1", StrategyRange)
			settle(t, l)
			produceTo(t, l, "orders", 0, "k", "after")
			read := func() string {
				var got []string
				for _, d := range mustPoll(t, l, "g", "c1", 10) {
					got = append(got, fmt.Sprint(d.Record.Offset))
				}
				return strings.Join(got, " ")
			}
			if got := read(); got != tt.firstPoll {
				t.Errorf("first poll read [%s], want [%s]", got, tt.firstPoll)
			}
			produceTo(t, l, "orders", 0, "k", "later")
			mustAdvance(t, l, 6*secondMs)
			// Auto-commit commits the position in poll, once its interval
			// has passed, before it reads on.
			if got := read(); got != tt.secondPoll {
				t.Errorf("second poll read [%s], want [%s]", got, tt.secondPoll)
			}
			offsets, _ := l.GroupOffsets("g")
			committed := "-"
			if o, ok := offsets[TopicPartition{Topic: "orders", Partition: 0}]; ok {
				committed = fmt.Sprint(o)
			}
			if committed != tt.committed {
				t.Errorf("committed %s, want %s", committed, tt.committed)
			}
		})
	}
	// A group's config shows the defaults of its rules, by Kafka's names;
	// the name of links made before rules 3 still sets auto-commit.
	if c := DefaultGroupConfigUnder(RulesV3); !c.AutoCommit || c.AutoOffsetReset != "latest" {
		t.Errorf("rules 3 defaults %+v", c)
	}
	if c := DefaultGroupConfigUnder(RulesV1); c.AutoCommit || c.AutoOffsetReset != "earliest" {
		t.Errorf("rules 1 defaults %+v", c)
	}
	l := NewPartitionedLog(1)
	must(t, l.SetGroupConfig("g", "auto.commit", "false"))
	if v := mustGroup(t, l, "g"); v.Config.AutoCommit {
		t.Error("auto.commit=false left auto-commit on")
	}
}

// Under rules 3 retention is checked 30s after the start, then every 5
// minutes (Kafka's LogManager: log.initial.task.delay.ms, then
// log.retention.check.interval.ms): a segment that expires between two
// checks stays until the next.
func TestRetentionChecksEveryFiveMinutesUnderRules3(t *testing.T) {
	l := newTestLog(t, "orders", 1, map[string]string{"retention.ms": "1m", "segment.records": "2"})
	for range 3 {
		produceTo(t, l, "orders", 0, "k", "v")
	}
	mustAdvance(t, l, 5*minuteMs+29*secondMs)
	if start := logStart(t, l, "orders", 0); start != 0 {
		t.Fatalf("at 5m29s log start %d, want 0: no check between 30s and 5m30s", start)
	}
	mustAdvance(t, l, secondMs)
	if start := logStart(t, l, "orders", 0); start != 3 {
		t.Fatalf("at 5m30s log start %d, want 3", start)
	}
	var at []int64
	for _, e := range l.DrainEvents() {
		if e.Kind == EventSegmentDeleted {
			at = append(at, e.Time)
		}
	}
	if !slices.Equal(at, []int64{330 * secondMs, 330 * secondMs}) {
		t.Errorf("segments deleted at %v, want both at 5m30s", at)
	}
	// Under rules 2, the check at 90s deletes them.
	old := newTestLogUnder(t, RulesV2, "orders", 1, map[string]string{"retention.ms": "1m", "segment.records": "2"})
	for range 3 {
		produceTo(t, old, "orders", 0, "k", "v")
	}
	mustAdvance(t, old, 90*secondMs)
	if start := logStart(t, old, "orders", 0); start != 3 {
		t.Fatalf("rules 2: at 90s log start %d, want 3", start)
	}
}

// keyValues lists a partition's records as key=value.
func keyValues(t *testing.T, l *PartitionedLog, topicName string, partition int) []string {
	t.Helper()
	records, err := l.Records(topicName, partition)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range records {
		out = append(out, r.Key+"="+r.Value)
	}
	return out
}

// Under rules 3 the log cleaner runs by itself (Kafka's LogCleaner): it
// looks every log.cleaner.backoff.ms (15s), and cleans a partition once more
// than half of its cleanable bytes are dirty, not before.
func TestCleanerRunsByItselfUnderRules3(t *testing.T) {
	produce := func(l *PartitionedLog, kvs ...string) {
		for _, kv := range kvs {
			produceTo(t, l, "users", 0, kv[:1], kv[1:])
		}
	}
	l := newTestLog(t, "users", 1, map[string]string{"cleanup.policy": "compact", "segment.records": "2"})
	produce(l, "a1", "a2", "b1", "b2", "c1") // segments [0,2) [2,4), the active one [4,5)
	mustAdvance(t, l, 14*secondMs)
	if got := keyValues(t, l, "users", 0); len(got) != 5 {
		t.Fatalf("cleaned before the cleaner's look at 15s: %v", got)
	}
	mustAdvance(t, l, secondMs) // 15s: all dirty, ratio 1
	if got := keyValues(t, l, "users", 0); !slices.Equal(got, []string{"a=2", "b=2", "c=1"}) {
		t.Fatalf("at 15s %v, want the cleaner to keep a=2 b=2 c=1", got)
	}
	// Clean 20 bytes (a=2, b=2), dirty 20 (c=1, c=2): a ratio of 0.5 is
	// not above min.cleanable.dirty.ratio.
	produce(l, "c2", "d1")
	mustAdvance(t, l, 30*secondMs)
	if got := keyValues(t, l, "users", 0); !slices.Equal(got, []string{"a=2", "b=2", "c=1", "c=2", "d=1"}) {
		t.Fatalf("at 45s %v: cleaned at a dirty ratio of 0.5", got)
	}
	// Dirty 40 of 60 bytes: the next look cleans.
	produce(l, "d2", "e1")
	mustAdvance(t, l, 14*secondMs) // 59s
	if got := keyValues(t, l, "users", 0); len(got) != 7 {
		t.Fatalf("at 59s %v, cleaned between two looks", got)
	}
	mustAdvance(t, l, secondMs)
	if got := keyValues(t, l, "users", 0); !slices.Equal(got, []string{"a=2", "b=2", "c=2", "d=2", "e=1"}) {
		t.Fatalf("at 60s %v, want c=1 and d=1 cleaned", got)
	}
	var at []int64
	for _, e := range l.DrainEvents() {
		if e.Kind == EventCompacted {
			at = append(at, e.Time)
		}
	}
	if !slices.Equal(at, []int64{15 * secondMs, 60 * secondMs}) {
		t.Errorf("cleanings at %v, want 15s and 60s", at)
	}

	// min.compaction.lag.ms holds back a segment younger than it: records
	// at 0 with a lag of 1m are cleaned at the look at 60s, not at 45s.
	lag := newTestLog(t, "users", 1, map[string]string{"cleanup.policy": "compact", "segment.records": "2", "min.compaction.lag.ms": "1m"})
	produce(lag, "a1", "a2", "b1")
	mustAdvance(t, lag, 45*secondMs)
	if got := keyValues(t, lag, "users", 0); len(got) != 3 {
		t.Fatalf("lag: at 45s %v, cleaned a segment younger than min.compaction.lag.ms", got)
	}
	mustAdvance(t, lag, 15*secondMs)
	if got := keyValues(t, lag, "users", 0); !slices.Equal(got, []string{"a=2", "b=1"}) {
		t.Fatalf("lag: at 60s %v", got)
	}

	// Under rules 2 the cleaner runs only when asked.
	old := newTestLogUnder(t, RulesV2, "users", 1, map[string]string{"cleanup.policy": "compact", "segment.records": "2"})
	produce(old, "a1", "a2", "b1")
	mustAdvance(t, old, hourMs)
	if got := keyValues(t, old, "users", 0); len(got) != 3 {
		t.Fatalf("rules 2: %v cleaned without compact", got)
	}
	must(t, old.Compact("users"))
	if got := keyValues(t, old, "users", 0); !slices.Equal(got, []string{"a=2", "b=1"}) {
		t.Fatalf("rules 2: after compact %v", got)
	}
}

// compact, the shortcut, cleans at once whatever the dirty ratio; and the
// cleaner, not the retention checks, runs retention on a topic that both
// compacts and deletes (Kafka's LogCleaner.cleanFilthiestLog).
func TestCompactShortcutAndCompactedRetentionUnderRules3(t *testing.T) {
	l := newTestLog(t, "users", 1, map[string]string{"cleanup.policy": "compact", "segment.records": "2"})
	for _, kv := range []string{"a1", "b1", "a2", "c1", "c2"} { // dirty 20 of 40 bytes after a first cleaning
		produceTo(t, l, "users", 0, kv[:1], kv[1:])
		if kv == "b1" {
			must(t, l.Compact("users"))
		}
	}
	must(t, l.Compact("users"))
	if got := keyValues(t, l, "users", 0); !slices.Equal(got, []string{"b=1", "a=2", "c=1", "c=2"}) && !slices.Equal(got, []string{"b=1", "a=2", "c=2"}) {
		t.Fatalf("after compact %v", got)
	}
	if got := keyValues(t, l, "users", 0); slices.Contains(got, "a=1") {
		t.Fatalf("compact left a=1 at a dirty ratio of 0.5: %v", got)
	}

	both := newTestLog(t, "events", 1, map[string]string{"cleanup.policy": "compact,delete", "retention.ms": "1m", "segment.records": "1"})
	produceTo(t, both, "events", 0, "a", "1")
	produceTo(t, both, "events", 0, "b", "1")
	mustAdvance(t, both, 75*secondMs) // expired at 60.001s; the cleaner's next look is at 75s
	if start := logStart(t, both, "events", 0); start != 2 {
		t.Fatalf("compact,delete at 75s: log start %d, want 2 (the cleaner's retention)", start)
	}
}
