package e2e

import (
	"fmt"
	"testing"
)

// Lesson 13's progress line names the cleaner once balances holds a
// tombstone and new records but is not compacted: the learner, who opened
// the lesson from the Lessons list and has asked for no hint, presses the
// name on the progress line, and the topic's Run the cleaner now button
// is highlighted inside the window, in balances' inspector, as a hint's
// button would show it.
func TestProgressLinePointsAtTheCleaner(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerFromList(t, s, "compaction")
	b := x.b
	x.tombstone("balances", "acct-3")
	x.produce("balances", "acct-2", "45", 1)
	x.produce("balances", "acct-1", "80", 1)
	line := panel("compaction") + " [data-lesson-progress]"
	button := line + ` [data-control-ref="run-cleaner balances"]`
	if n := b.count(t, button); n != 1 {
		t.Fatalf("the progress line %q draws %d buttons for the cleaner, want 1", eval[string](t, b, progressText("compaction")), n)
	}
	if got := b.text(t, button); got != "➜run the cleaner" {
		t.Errorf("the progress line's button reads %q", got)
	}
	if b.count(t, "[data-hint]") != 0 {
		t.Fatal("a hint is shown: the test would not show the progress line alone points")
	}

	done := eval[string](t, b, `document.documentElement.dataset.pointDone || ""`)
	b.mouseClick(t, button)
	b.waitFor(t, fmt.Sprintf(`(document.documentElement.dataset.pointDone || "") !== %s`, js(done)))
	if b.count(t, ".point-missing") != 0 {
		t.Fatalf("the page says %q", b.text(t, ".point-missing"))
	}
	cleaner := "#dock-inspector #compact-go"
	if b.count(t, cleaner+"[data-pointed]") != 1 {
		t.Fatalf("the cleaner's button is not highlighted; %q is", eval[string](t, b, `(document.querySelector("[data-pointed]") || {}).outerHTML || "nothing"`))
	}
	if got := b.text(t, cleaner); got != "Run the cleaner now" {
		t.Errorf("the control highlighted reads %q", got)
	}
	if where := onScreenSoon(t, b, cleaner); where != "" {
		t.Errorf("the cleaner's button, pointed at, is %s", where)
	}
	if outline := eval[string](t, b, fmt.Sprintf(`getComputedStyle(document.querySelector(%s)).outlineStyle`, js(cleaner))); outline == "none" {
		t.Error("the cleaner's button, pointed at, has no outline to see")
	}
	b.noErrors(t)
}
