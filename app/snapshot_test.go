package app

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"
)

// The snapshot asks the engine only about each lane's window; what it says
// of segments must be what the whole list of segments says, and what it says
// of retention the engine's retention cliff, whatever the window (the rule
// is the engine's, tested in core/retention_cliff_test.go).
func TestSnapshotAgreesWithTheWholePartition(t *testing.T) {
	scripts := map[string]string{
		"retention": "topic r partitions=2 retention.ms=1m segment.records=3\n" +
			"produce r value=v count=200\nadvance 50s\nproduce r value=v count=100\nadvance 15s\n",
		// Every segment expired, and no retention check yet to delete them.
		"all expired": "topic r partitions=1 retention.ms=10m segment.records=2\n" +
			"produce r value=v count=500\nadvance 10m\nadvance 1s\n",
		"compacted": "topic c partitions=1 cleanup.policy=compact segment.records=4\n" +
			repeatLines(300, "produce c key=k%d value=v\n", 23) + "compact c\n",
		"truncated": "topic t partitions=1 segment.records=7 retention.ms=1h\n" +
			"produce t value=v count=300\ntruncate t/0 before=123\nadvance 30m\n",
	}
	cliffs, expiries := 0, 0
	for name, script := range scripts {
		s, err := scenario.Load(script)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		l := s.Log()
		for _, topic := range l.TopicNames() {
			n, _ := l.Partitions(topic)
			for p := range n {
				for _, view := range []int64{followTail, 0, 1, 50, 122, 123, 124, 199, 290, 1000} {
					snap, err := snapshotLog(l, map[string]int64{laneKey(topic, p): view})
					if err != nil {
						t.Fatal(err)
					}
					got := snap.Topics[0].Partitions[p]
					want := wholePartitionView(t, l, topic, p, got.Records)
					if got.Segments != want.Segments || !slices.Equal(got.SegmentStarts, want.SegmentStarts) ||
						got.Cliff != want.Cliff || got.NextExpiry != want.NextExpiry {
						t.Errorf("%s, %s/%d from %d: segments %d, starts %v, cliff %d, expiry %q; want %d, %v, %d, %q",
							name, topic, p, view, got.Segments, got.SegmentStarts, got.Cliff, got.NextExpiry,
							want.Segments, want.SegmentStarts, want.Cliff, want.NextExpiry)
					}
					if got.Cliff >= 0 {
						cliffs++
					}
					if got.NextExpiry != "" {
						expiries++
					}
				}
			}
		}
	}
	if cliffs == 0 || expiries == 0 {
		t.Errorf("the scripts drew %d lanes with a retention cliff and %d with an expiry to come: they test too little", cliffs, expiries)
	}
}

func repeatLines(n int, format string, keys int) string {
	var text string
	for i := range n {
		text += fmt.Sprintf(format, i%keys)
	}
	return text
}

// wholePartitionView works out the segment marks of a lane drawing records
// from the partition's whole list of segments, and the engine's retention
// cliff.
func wholePartitionView(t *testing.T, l core.ReadOnlyLog, topic string, p int, records []core.Record) PartitionSnapshot {
	t.Helper()
	segments, err := l.Segments(topic, p)
	if err != nil {
		t.Fatal(err)
	}
	part := PartitionSnapshot{Segments: len(segments)}
	if len(records) > 0 {
		first, last := records[0].Offset, records[len(records)-1].Offset
		for _, s := range segments {
			if s.BaseOffset > first && s.BaseOffset <= last {
				part.SegmentStarts = append(part.SegmentStarts, s.BaseOffset)
			}
		}
	}
	cliff, err := l.RetentionCliff(topic, p)
	if err != nil {
		t.Fatal(err)
	}
	part.Cliff = cliff.Below
	part.NextExpiry = expiryNote(cliff, l.Now())
	return part
}

// A lane that follows its newest records starts on a multiple of
// laneStride: a produce adds a record to its end, and only every
// laneStride records does the window move on.
func TestFollowingLaneMovesInStrides(t *testing.T) {
	for name, script := range map[string]string{
		"dense": "topic t partitions=1\n",
		// Compaction leaves gaps: the window still holds every record
		// from its start.
		"compacted": "topic t partitions=1 cleanup.policy=compact segment.records=3\n" +
			repeatLines(90, "produce t key=k%d value=v\n", 7) + "compact t\n",
	} {
		s, err := scenario.Load(script)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 130 {
			if _, err := s.Apply("produce t key=k value=v"); err != nil {
				t.Fatal(err)
			}
			snap, err := snapshotLog(s.Log(), nil)
			if err != nil {
				t.Fatal(err)
			}
			p := snap.Topics[0].Partitions[0]
			all, _ := s.Log().Records("t", 0)
			// The window holds every record from a stride's start on.
			first := p.Records[0].Offset
			start := first / laneStride * laneStride
			var want []core.Record
			for _, r := range all {
				if r.Offset >= start {
					want = append(want, r)
				}
			}
			if !slices.Equal(p.Records, want) {
				t.Fatalf("%s, produce %d: drew offsets %v, want every record from %d", name, i, offsetsOf(p.Records), start)
			}
			if n := len(p.Records); n < min(len(all), laneWindow) || n >= laneWindow+laneStride {
				t.Fatalf("%s, produce %d: drew %d of %d records", name, i, n, len(all))
			}
		}
	}
}

func offsetsOf(records []core.Record) []int64 {
	offsets := make([]int64, len(records))
	for i, r := range records {
		offsets[i] = r.Offset
	}
	return offsets
}

// A crashed broker takes the partitions it alone holds offline. The page
// still draws them, with their records, marked unavailable and saying why;
// everything else is as before the crash.
func TestSnapshotDrawsAnOfflinePartition(t *testing.T) {
	const before = "topic solo partitions=2 replication.factor=1\ntopic safe replication.factor=3\n" +
		"produce solo key=k value=v count=3 partition=0\nproduce safe key=k value=v count=2\n" +
		"join g c1 topics=safe\nadvance 1s\n"
	s, err := scenario.Load(before)
	if err != nil {
		t.Fatal(err)
	}
	was, err := snapshotLog(s.Log(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("broker crash 1"); err != nil {
		t.Fatal(err)
	}
	now, err := snapshotLog(s.Log(), nil)
	if err != nil {
		t.Fatalf("the snapshot of a cluster with an offline partition failed: %v", err)
	}
	if now.TimeMs != was.TimeMs || len(now.Topics) != 2 || len(now.Groups) != 1 {
		t.Fatalf("after the crash: time %d (was %d), %d topics, %d groups", now.TimeMs, was.TimeMs, len(now.Topics), len(now.Groups))
	}
	solo := now.Topics[1].Partitions[0]
	if now.Topics[1].Name != "solo" || solo.Offline == "" || len(solo.Records) != 3 || !slices.Equal(solo.OfflineBrokers, []int{1}) {
		t.Fatalf("solo/0 after broker 1 crashed: offline %q on %v, %d records drawn", solo.Offline, solo.OfflineBrokers, len(solo.Records))
	}
	if note := offlineNote(solo); !strings.Contains(note, "its only replica is on broker 1, which is down") || !strings.Contains(note, "3 records are kept") {
		t.Errorf("offline note %q", note)
	}
	if other := now.Topics[1].Partitions[1]; other.Offline != "" {
		t.Errorf("solo/1 is on another broker, yet offline: %q", other.Offline)
	}
	for _, p := range now.Topics[0].Partitions {
		if p.Offline != "" || len(p.Records) != 2 {
			t.Errorf("safe/%d, replicated on three brokers: offline %q, %d records", p.Partition, p.Offline, len(p.Records))
		}
	}
}

// The next records to pass retention.ms are named as a range, or as one
// offset when there is one ("offsets 0–0" read as a mistake), with the
// check that deletes them by the virtual clock; a topic that also
// compacts, whose cleaner deletes them, is told by when they expire.
func TestExpiryNoteNamesOneOffset(t *testing.T) {
	for _, tc := range []struct {
		from, to, goneAt int64
		want             string
	}{
		{0, 1, 3_630_000, "offset 0 goes at 3630s (retention.ms)"},
		{4, 6, 3_630_000, "offsets 4–5 go at 3630s (retention.ms)"},
		{4, 6, -1, "offsets 4–5 pass retention.ms in 1h"},
		{0, 1, -1, "offset 0 passes retention.ms in 1h"},
	} {
		cliff := core.RetentionCliff{Below: -1, NextFrom: tc.from, NextTo: tc.to, NextAt: 3_600_000, GoneAt: tc.goneAt}
		if got := expiryNote(cliff, 0); got != tc.want {
			t.Errorf("[%d, %d): %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
	if got := expiryNote(core.RetentionCliff{Below: -1, NextFrom: -1, NextTo: -1, NextAt: -1}, 0); got != "" {
		t.Errorf("nothing on its way: %q, want nothing", got)
	}
}

// A compacted topic's snapshot holds the table its changelog builds: each
// key's latest value, a tombstone deleting its key, keyless records and
// other topics building none.
func TestCompactedTopicsTable(t *testing.T) {
	s, err := scenario.Load(`topic balances partitions=2 cleanup.policy=compact
topic plain partitions=1
produce balances key=acct-1 value=100
produce balances key=acct-2 value=50
produce balances key=acct-1 value=90
produce balances key=acct-3 value=70
produce balances key=acct-3 tombstone
produce balances key=acct-4 value=
produce plain key=k value=v
`)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := snapshotLog(s.Log(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []TableEntry{{Key: "acct-1", Value: "90"}, {Key: "acct-2", Value: "50"}, {Key: "acct-3", Deleted: true}, {Key: "acct-4", Value: ""}}
	for _, topic := range snap.Topics {
		switch topic.Name {
		case "balances":
			if !slices.Equal(topic.Table, want) {
				t.Errorf("balances' table %+v, want %+v", topic.Table, want)
			}
		case "plain":
			if topic.Table != nil {
				t.Errorf("a topic that does not compact has a table: %+v", topic.Table)
			}
		}
	}
}

// The tables read at most tableRecordsRead records at a step: past them,
// compacted topics have none.
func TestTablesAreBounded(t *testing.T) {
	var script strings.Builder
	const topics = tableRecordsRead/maxTableRecords + 2
	for i := range topics {
		fmt.Fprintf(&script, "topic t%02d cleanup.policy=compact\nproduce t%02d key=k value=v count=%d\n", i, i, maxTableRecords)
	}
	s, err := scenario.Load(script.String())
	if err != nil {
		t.Fatal(err)
	}
	snap, err := snapshotLog(s.Log(), nil)
	if err != nil {
		t.Fatal(err)
	}
	withTables := 0
	for _, topic := range snap.Topics {
		if topic.Table != nil {
			withTables++
		}
	}
	if withTables != tableRecordsRead/maxTableRecords {
		t.Errorf("%d of %d compacted topics of %d records got a table, want %d", withTables, topics, maxTableRecords, tableRecordsRead/maxTableRecords)
	}
}
