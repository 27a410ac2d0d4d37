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
