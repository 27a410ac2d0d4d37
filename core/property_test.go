package core

import (
	"testing"

	"pgregory.net/rapid"
)

type rapidChooser struct{ t *rapid.T }

func (r rapidChooser) choose(n int, label string) int {
	if n <= 1 {
		return 0
	}
	return rapid.IntRange(0, n-1).Draw(r.t, label)
}

// TestInvariantsUnderRandomOperations checks the invariants of
// shadow.checkInvariants after every operation of random sequences of
// produce, advance, truncate, compact, config changes and added partitions.
func TestInvariantsUnderRandomOperations(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l, sh := newOpsLog(rapid.Int64().Draw(rt, "seed"))
		c := rapidChooser{rt}
		steps := rapid.IntRange(1, 150).Draw(rt, "steps")
		for i := range steps {
			what, _, broken := step(l, sh, c, i)
			if broken != nil {
				rt.Fatalf("step %d, %s: %v", i, what, broken)
			}
		}
	})
}

// TestSameOperationsSameState checks determinism: the same operations on
// two engines with the same seed, and on a clone, give the same state.
func TestSameOperationsSameState(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Int64().Draw(rt, "seed")
		input := rapid.SliceOfN(rapid.Byte(), 0, 600).Draw(rt, "input")
		a, _ := newOpsLog(seed)
		b, _ := newOpsLog(seed)
		run := func(l *PartitionedLog, data []byte) {
			c := &bytesChooser{data: data}
			sh := newShadow()
			for i := 0; !c.done(); i++ {
				step(l, sh, c, i)
			}
		}
		half := len(input) / 2
		run(a, input[:half])
		clone := a.Clone()
		if dumpLog(clone) != dumpLog(a) {
			rt.Fatal("a clone differs from its original")
		}
		run(a, input[half:])
		run(clone, input[half:])
		run(b, input[:half])
		run(b, input[half:])
		if dumpLog(a) != dumpLog(b) {
			rt.Fatal("the same operations gave different states")
		}
		if dumpLog(a) != dumpLog(clone) {
			rt.Fatal("the same operations on a clone gave a different state")
		}
	})
}
