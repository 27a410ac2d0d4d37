package core

import "testing"

// A clone of a long list of segments breathes as it copies, a slice of
// the list at a time, and is the same clone Clone makes.
func TestCloneBreathesInLongSegmentLists(t *testing.T) {
	l := NewPartitionedLog(1)
	if err := l.CreateTopic("t", 2, map[string]string{"segment.records": "1"}); err != nil {
		t.Fatal(err)
	}
	const records = 3*cloneSlice + 10
	for i := range records {
		if _, err := l.Produce(ProduceRequest{Topic: "t", Partition: i % 2, Value: "v"}); err != nil {
			t.Fatal(err)
		}
	}
	breaths := 0
	c := l.CloneBreathing(func() { breaths++ })
	// Each partition holds about half the segments, more than a slice:
	// a breath for each slice copied, and one after each partition.
	if want := 2*2 + 2; breaths < want {
		t.Errorf("the clone breathed %d times, want at least %d", breaths, want)
	}
	if dumpLog(c) != dumpLog(l.Clone()) {
		t.Error("the breathing clone differs from Clone's")
	}
	if dumpLog(c) != dumpLog(l) {
		t.Error("the clone differs from the log")
	}
}
