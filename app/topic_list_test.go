package app

import "testing"

// A partition is hot when it is meaningfully hotter than its siblings: at
// least twice their mean, and holding enough records that the difference
// is load rather than where a few keys happened to hash.
func TestHotIsMeaningfullyHotterThanItsSiblings(t *testing.T) {
	for _, tc := range []struct {
		name   string
		counts []int
		hot    []bool // by partition
	}{
		{"one partition has no siblings", []int{500}, []bool{false}},
		{"equal partitions", []int{40, 40, 40, 40}, []bool{false, false, false, false}},
		{"random keys' spread", []int{30, 25, 22, 23}, []bool{false, false, false, false}},
		{"twice its siblings' mean", []int{60, 30, 30}, []bool{true, false, false}},
		{"just under twice", []int{59, 30, 30}, []bool{false, false, false}},
		{"a hot key", []int{70, 10, 10, 10}, []bool{true, false, false, false}},
		{"every record in one", []int{0, 30, 0, 0}, []bool{false, true, false, false}},
		{"two hot keys", []int{50, 50, 0, 0}, []bool{true, true, false, false}},
		{"tiny counts: five in one", []int{0, 0, 5}, []bool{false, false, false}},
		{"tiny counts: two keys that hash alike", []int{8, 0, 0}, []bool{false, false, false}},
		{"tiny counts: two of four", []int{0, 2, 0, 2}, []bool{false, false, false, false}},
		{"a busy topic's hot key", []int{3169, 530, 560, 541}, []bool{true, false, false, false}},
	} {
		total := 0
		for _, c := range tc.counts {
			total += c
		}
		for i, c := range tc.counts {
			if got := isHot(c, total, len(tc.counts)); got != tc.hot[i] {
				t.Errorf("%s: counts %v: partition %d hot %v, want %v", tc.name, tc.counts, i, got, tc.hot[i])
			}
		}
	}
}
