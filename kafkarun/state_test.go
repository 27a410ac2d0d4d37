package kafkarun

import (
	"math"
	"testing"

	"plog/core/assign"
)

// The group's partition of __consumer_offsets is Java's: String.hashCode,
// then Utils.abs, which makes the least int 0.
func TestJavaHashCodeAndAbs(t *testing.T) {
	for _, tc := range []struct {
		s    string
		hash int32
	}{{"", 0}, {"hello", 99162322}, {"polygenelubricants", math.MinInt32}} {
		if got := assign.JavaStringHash(tc.s); got != tc.hash {
			t.Errorf("assign.JavaStringHash(%q) = %d, want %d", tc.s, got, tc.hash)
		}
	}
	if javaAbs(math.MinInt32) != 0 || javaAbs(-7) != 7 || javaAbs(7) != 7 {
		t.Errorf("javaAbs: %d %d %d", javaAbs(math.MinInt32), javaAbs(-7), javaAbs(7))
	}
}
