package app

import "testing"

// A partition is hot when it holds more than keys spread at random would
// give it, not merely the most: two records in one of four partitions is
// chance; thirty of thirty, or most of a hundred, is a hot key.
func TestHotIsMoreThanChance(t *testing.T) {
	topic := func(counts ...int) TopicSnapshot {
		var top TopicSnapshot
		for _, c := range counts {
			top.Partitions = append(top.Partitions, PartitionSnapshot{Count: c})
			top.Total += c
			top.MaxCount = max(top.MaxCount, c)
		}
		top.Skew = float64(top.MaxCount) * float64(len(counts)) / float64(max(1, top.Total))
		return top
	}
	for _, tc := range []struct {
		counts []int
		hot    bool
	}{
		{[]int{0, 2, 0, 2}, false},
		{[]int{0, 3, 0, 1}, false},
		{[]int{30, 0, 0, 0}, true},
		{[]int{70, 10, 10, 10}, true},
		{[]int{30, 25, 22, 23}, false},
		{[]int{5}, false},
	} {
		top := topic(tc.counts...)
		if got := top.hot(top.MaxCount); got != tc.hot {
			t.Errorf("counts %v: hot %v, want %v", tc.counts, got, tc.hot)
		}
	}
}
