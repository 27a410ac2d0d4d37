package scenario

import (
	"strings"
	"testing"
)

// Reading a script pauses after each command, and a zipf table after each
// zipfPauseKeys ranks, so that the page can let the browser run: a link of
// MaxCommands lines took 300 ms of the browser's main thread to read, and
// a table of 100,000 ranks 60 ms.
func TestLongReadsAndTablesPause(t *testing.T) {
	script := "topic t\n# a comment\n\n" + strings.Repeat("produce t key=k value=v\n", 5)
	pauses := 0
	cmds, err := parse(script, func() { pauses++ })
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) != 6 || pauses != 6 {
		t.Errorf("parse read %d commands and paused %d times, want 6 and 6", len(cmds), pauses)
	}
	pauses = 0
	table := newZipfTable(3*zipfPauseKeys+1, 1, func() { pauses++ })
	if pauses != 3 {
		t.Errorf("a table of %d ranks paused %d times, want 3", 3*zipfPauseKeys+1, pauses)
	}
	if want := newZipfTable(3*zipfPauseKeys+1, 1, nil); table.cumulative[len(table.cumulative)-1] != want.cumulative[len(want.cumulative)-1] {
		t.Error("a table built with pauses differs from one built without")
	}
}
