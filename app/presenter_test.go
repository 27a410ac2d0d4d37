package app

import (
	"strings"
	"testing"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Presenting a lesson, the bar names the lesson and says its goal: the
// lesson panel is hidden with the dock.
func TestPresentingALessonSaysItsGoal(t *testing.T) {
	p, _ := mountAt(t, "lesson=offsets&present=1")
	l, err := lesson.Find("offsets")
	if err != nil {
		t.Fatal(err)
	}
	page := app.HTMLString(p)
	if !strings.Contains(page, `class="presenter-bar"`) || !strings.Contains(page, l.Title) || !strings.Contains(page, "Goal: "+l.Goal) {
		t.Errorf("presenting the lesson %q, the page does not name it and its goal", l.Name)
	}
}

// A presenter's step is in the address at once: a projected page reloaded
// a moment after a key press opens at that step, not the one before.
func TestPresentersStepIsInTheAddressAtOnce(t *testing.T) {
	opened := mustLink(t, "topic orders partitions=2\nproduce orders key=a\nproduce orders key=b\n") + "&present=1"
	p, d := mountAt(t, opened)
	if p.session.Position() != 3 {
		t.Fatalf("the link opened at step %d, want 3", p.session.Position())
	}
	for _, key := range []string{"PageUp", "ArrowLeft"} {
		if !p.presenterKey(d.Context(), key) {
			t.Fatalf("the presenter's view did not take %s", key)
		}
		d.Consume()
	}
	// No clock step: the debounce has not run.
	if got := d.Context().Page().URL().Fragment; !strings.Contains(got, "at=1") {
		t.Errorf("two steps back from 3, the address is %q, want at=1 in it", got)
	}
}
