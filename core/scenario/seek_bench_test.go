package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// fullScript is a scenario of 100,000 records made of few commands that
// each produce many records: the shape of history where checkpoints taken
// every so many steps help least.
func fullScript() string {
	var b strings.Builder
	b.WriteString("seed 1\ntopic orders partitions=4\n")
	for left := 100_000; left > 0; left -= MaxProduceCount {
		fmt.Fprintf(&b, "produce orders value=v count=%d\n", min(left, MaxProduceCount))
	}
	return b.String()
}

// BenchmarkUndoOnFullTopic undoes the last command of a 12-step history
// holding 100,000 records, as the page's undo button does, then redoes it
// (untimed).
func BenchmarkUndoOnFullTopic(b *testing.B) {
	benchUndo(b, fullScript())
}

// BenchmarkBaselineReplayFullTopic is the floor BenchmarkUndoOnFullTopic
// would have without checkpoints: replaying the whole script.
func BenchmarkBaselineReplayFullTopic(b *testing.B) {
	script := fullScript()
	for b.Loop() {
		if _, err := Load(script); err != nil {
			b.Fatal(err)
		}
	}
}
