package core

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// The window reads agree with the whole-partition reads they stand in for,
// after random produce, advance, truncate, compact and config changes.
func TestWindowReadsAgreeWithWholeReads(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l, sh := newOpsLog(rapid.Int64().Draw(rt, "seed"))
		c := rapidChooser{rt}
		for i := range rapid.IntRange(1, 100).Draw(rt, "steps") {
			step(l, sh, c, i)
		}
		for _, name := range l.TopicNames() {
			n, _ := l.Partitions(name)
			for p := range n {
				checkWindowReads(rt, l, name, p)
			}
		}
	})
}

func checkWindowReads(rt *rapid.T, l *PartitionedLog, topicName string, p int) {
	segments, _ := l.Segments(topicName, p)
	records, _ := l.Records(topicName, p)
	if n, err := l.SegmentCount(topicName, p); err != nil || n != len(segments) {
		rt.Fatalf("%s/%d: SegmentCount = %d, %v; want %d", topicName, p, n, err, len(segments))
	}
	next, _ := l.LogEndOffset(topicName, p)
	for from := int64(0); from <= next+1; from++ {
		for to := from; to <= next+2; to++ {
			var want []SegmentInfo
			for _, s := range segments {
				if from < to && s.EndOffset > from && s.BaseOffset < to {
					want = append(want, s)
				}
			}
			got, err := l.SegmentsBetween(topicName, p, from, to)
			if err != nil || !slices.Equal(got, want) {
				rt.Fatalf("%s/%d: SegmentsBetween(%d, %d) = %+v, %v; want %+v", topicName, p, from, to, got, err, want)
			}
			count := 0
			for _, r := range records {
				if r.Offset >= from && r.Offset < to {
					count++
				}
			}
			if got, err := l.CountBetween(topicName, p, from, to); err != nil || got != count {
				rt.Fatalf("%s/%d: CountBetween(%d, %d) = %d, %v; want %d", topicName, p, from, to, got, err, count)
			}
		}
	}
}

func TestWindowReadsRefuseBadInput(t *testing.T) {
	l := newTestLog(t, "t", 1, nil)
	if _, err := l.SegmentCount("t", 1); err == nil {
		t.Error("SegmentCount of a missing partition")
	}
	if _, err := l.SegmentsBetween("nosuch", 0, 0, 1); err == nil {
		t.Error("SegmentsBetween of a missing topic")
	}
	if _, err := l.CountBetween("t", 0, 5, 2); err == nil {
		t.Error("CountBetween of a reversed range")
	}
}
