package core

import (
	"fmt"
	"testing"

	"plog/core/units"
)

// cliffLog builds a log for the retention cliff's tests, failing the test on
// error: a topic, then produce (count records to the partitioner's choice,
// or to partition when it is ≥ 0) and advance steps.
type cliffLog struct {
	t *testing.T
	l *PartitionedLog
}

func (c cliffLog) produce(topic string, partition, count int, acks string) cliffLog {
	c.t.Helper()
	for i := range count {
		mustProduce(c.t, c.l, ProduceRequest{Topic: topic, Partition: partition, Key: fmt.Sprint("k", i), HasKey: partition >= 0, Value: "v", Acks: acks})
	}
	return c
}

func (c cliffLog) advance(ms int64) cliffLog {
	c.t.Helper()
	mustAdvance(c.t, c.l, ms)
	return c
}

func (c cliffLog) do(err error) cliffLog {
	c.t.Helper()
	if err != nil {
		c.t.Fatal(err)
	}
	return c
}

// The retention cliff is what the next retention check deletes by
// retention.ms: a check run now moves the log start to Below and no
// further; the segment it names next goes at NextAt, not a millisecond
// before.
func TestRetentionCliffIsWhatTheNextCheckDeletes(t *testing.T) {
	logs := map[string]*PartitionedLog{
		"some expired": cliffLog{t, newTestLog(t, "r", 2, map[string]string{"retention.ms": "1m", "segment.records": "3"})}.
			produce("r", -1, 200, "").advance(50*secondMs).produce("r", -1, 100, "").advance(15 * secondMs).l,
		// Every segment expired, the active one too, and no check yet.
		"all expired": cliffLog{t, newTestLog(t, "r", 1, map[string]string{"retention.ms": "10m", "segment.records": "2"})}.
			produce("r", 0, 500, "").advance(10 * minuteMs).advance(secondMs).l,
		"none expired": cliffLog{t, newTestLog(t, "r", 1, map[string]string{"retention.ms": "1h", "segment.records": "5"})}.
			produce("r", 0, 12, "").advance(minuteMs).produce("r", 0, 3, "").l,
		"truncated": func() *PartitionedLog {
			c := cliffLog{t, newTestLog(t, "t", 1, map[string]string{"retention.ms": "1h", "segment.records": "7"})}.produce("t", 0, 300, "")
			return c.do(c.l.Truncate("t", 0, 123)).advance(30*minuteMs).produce("t", 0, 4, "").advance(31 * minuteMs).l
		}(),
		"empty": newTestLog(t, "e", 1, map[string]string{"retention.ms": "1m"}),
		"kept forever": cliffLog{t, newTestLog(t, "f", 1, map[string]string{"retention.ms": "-1", "segment.records": "2"})}.
			produce("f", 0, 9, "").advance(24 * hourMs).l,
		"compacted": cliffLog{t, newTestLog(t, "c", 1, map[string]string{"cleanup.policy": "compact", "retention.ms": "1m", "segment.records": "2"})}.
			produce("c", 0, 9, "").advance(hourMs).l,
	}
	cliffs, nexts := 0, 0
	for name, l := range logs {
		for _, topic := range l.TopicNames() {
			n, _ := l.Partitions(topic)
			config, _ := l.TopicConfig(topic)
			for p := range n {
				cliff, err := l.RetentionCliff(topic, p)
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("%s, %s/%d at %s", name, topic, p, units.Duration(l.Now()))
				start := logStart(t, l, topic, p)
				if !config.Deletes() || config.RetentionMs < 0 {
					if cliff != (RetentionCliff{Below: -1, NextFrom: -1, NextTo: -1, NextAt: -1, CheckAt: -1, GoneAt: -1}) {
						t.Errorf("%s: retention.ms deletes nothing here, yet the cliff is %+v", where, cliff)
					}
					continue
				}
				want := start
				if cliff.Below >= 0 {
					cliffs++
					want = cliff.Below
				}
				if got := startAfterCheckAt(t, l, topic, p, l.Now()); got != want {
					t.Errorf("%s: cliff %+v, but a check now takes the log start from %d to %d", where, cliff, start, got)
				}
				if cliff.NextAt < 0 {
					continue
				}
				nexts++
				if cliff.NextAt <= l.Now() || cliff.NextFrom < want || cliff.NextTo <= cliff.NextFrom {
					t.Errorf("%s: the next to expire is %+v, with the cliff at %d", where, cliff, want)
				}
				if got := startAfterCheckAt(t, l, topic, p, cliff.NextAt-1); got != want {
					t.Errorf("%s: %+v, but a check a millisecond before takes the log start to %d", where, cliff, got)
				}
				if got := startAfterCheckAt(t, l, topic, p, cliff.NextAt); got < cliff.NextTo {
					t.Errorf("%s: %+v, but a check then takes the log start only to %d", where, cliff, got)
				}
			}
		}
	}
	if cliffs == 0 || nexts == 0 {
		t.Errorf("%d partitions with a cliff and %d with a segment to expire next: the logs test too little", cliffs, nexts)
	}
}

// startAfterCheckAt is the log start a retention check at time at would
// leave, on a copy of the log.
func startAfterCheckAt(t *testing.T, l *PartitionedLog, topic string, p int, at int64) int64 {
	t.Helper()
	c := l.Clone()
	c.now = at
	c.runRetention()
	return logStart(t, c, topic, p)
}

// Records above the high watermark are not deleted, however old (Kafka's
// deleteOldSegments stops at the high watermark): the cliff stops there
// too, and no segment is said to be on its way while one waits for the
// followers.
func TestRetentionCliffStopsAtTheHighWatermark(t *testing.T) {
	l := NewPartitionedLog(1)
	c := cliffLog{t, l}.do(l.SetBrokers(3))
	c.do(l.CreateTopic("r", 1, map[string]string{"replication.factor": "3", "retention.ms": "0", "segment.records": "2"}))
	c.produce("r", 0, 4, "all").advance(secondMs)
	c.do(l.IsolateBroker(2))
	c.produce("r", 0, 4, "1").advance(1)
	hw, _ := l.HighWatermark("r", 0)
	end, _ := l.LogEndOffset("r", 0)
	if hw != 4 || end != 8 {
		t.Fatalf("high watermark %d, log end %d: want the follower behind at 4 of 8", hw, end)
	}
	cliff, err := l.RetentionCliff("r", 0)
	if err != nil {
		t.Fatal(err)
	}
	if cliff.Below != hw || cliff.NextAt != -1 {
		t.Errorf("every record is past retention.ms=0: want the cliff at the high watermark %d and nothing on its way, got %+v", hw, cliff)
	}
	if got := startAfterCheckAt(t, l, "r", 0, l.Now()); got != hw {
		t.Errorf("a check now takes the log start to %d, want %d", got, hw)
	}
	if _, err := l.RetentionCliff("r", 1); err == nil {
		t.Error("the cliff of a partition that does not exist: no error")
	}
}

// Records a truncation removed are nobody's to expire: the cliff names
// the next segment's records from the log start, and passes over a segment
// the truncation emptied.
func TestRetentionCliffStartsAtTheLogStart(t *testing.T) {
	l := NewPartitionedLog(1)
	c := cliffLog{t, l}
	c.do(l.CreateTopic("r", 1, map[string]string{"retention.ms": "3600000", "segment.records": "4"}))
	c.produce("r", 0, 6, "all").advance(secondMs)
	for _, tc := range []struct {
		before           int64
		nextFrom, nextTo int64
	}{
		{0, 0, 4},
		{2, 2, 4}, // inside the first segment: from the log start
		{4, 4, 6}, // the first segment emptied: the next one
		{5, 5, 6},
	} {
		c.do(l.Truncate("r", 0, tc.before))
		cliff, err := l.RetentionCliff("r", 0)
		if err != nil {
			t.Fatal(err)
		}
		if cliff.NextFrom != tc.nextFrom || cliff.NextTo != tc.nextTo || cliff.NextAt < 0 {
			t.Errorf("truncated below %d: the next to expire are offsets [%d, %d) at %d, want [%d, %d)",
				tc.before, cliff.NextFrom, cliff.NextTo, cliff.NextAt, tc.nextFrom, tc.nextTo)
		}
	}
}
