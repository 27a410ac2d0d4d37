package scenario

import (
	"fmt"
	"testing"
)

// LoadYielding gives Load's session and error, failures included.
func TestLoadYieldingIsLoad(t *testing.T) {
	for _, script := range []string{
		"",
		"seed 7\ntopic t partitions=3\nproduce t key=a value=1 count=50\njoin g c1 topics=t\npoll g c1 max=10\ncommit g c1\nadvance 5m\n",
		"topic t\nproduce t value=v\nproduce nosuch value=v\nproduce t value=w\n", // refused on line 3
		"topic t\nproduce t value=v\nprodcue t\n",                                 // does not parse on line 3
	} {
		want, wantErr := Load(script)
		got, gotErr := LoadYielding(script)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%q: error %v, want %v", script, gotErr, wantErr)
		}
		if got.Script() != want.Script() || got.Len() != want.Len() || StateText(got.Log()) != StateText(want.Log()) {
			t.Errorf("%q: loaded\n%s\nwant\n%s", script, StateText(got.Log()), StateText(want.Log()))
		}
	}
}

// A command's bookkeeping breathes: the session's pause runs between the
// engine's work, the events drained, and the checkpoint's clone, which
// itself breathes after each partition (core's CloneBreathing), so that
// none of them adds to another in one task of the browser's.
func TestCommandBookkeepingBreathes(t *testing.T) {
	s := NewSession()
	if _, err := s.Apply("topic t partitions=3"); err != nil {
		t.Fatal(err)
	}
	var pauses []string
	s.pause = func() { pauses = append(pauses, fmt.Sprint(s.pos)) }
	if _, err := s.Apply("produce t value=v"); err != nil {
		t.Fatal(err)
	}
	// After the step (position 1), and after it is recorded (2).
	if fmt.Sprint(pauses) != "[1 2]" {
		t.Errorf("a produce paused at positions %v, want [1 2]", pauses)
	}
	pauses = nil
	for range checkpointEvery - 3 {
		if _, err := s.Apply("produce t value=v"); err != nil {
			t.Fatal(err)
		}
	}
	pauses = nil
	if _, err := s.Apply("produce t value=v"); err != nil { // step 32: a checkpoint
		t.Fatal(err)
	}
	// The checkpoint's clone breathes after each of the 3 partitions.
	if want := "[31 32 32 32 32]"; fmt.Sprint(pauses) != want {
		t.Errorf("a produce that takes a checkpoint paused at %v, want %s", pauses, want)
	}
}
