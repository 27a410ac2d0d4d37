package app

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// progressLine matches the lesson's progress paragraph in a page.
var progressLine = regexp.MustCompile(`(?s)<p[^>]*data-lesson-progress[^>]*>(.*?)</p>`)

// The progress line draws the control its sentence names as a hint's
// button, the label in its place among the words, and the button's
// request opens what holds the control, as a hint's does.
func TestProgressLineDrawsItsControls(t *testing.T) {
	useMemoryBrowser(t)
	l, err := lesson.Find("compaction")
	if err != nil {
		t.Fatal(err)
	}
	p, d := mountAt(t, "lesson=compaction")
	// The tombstone and two more records: balances is not compacted yet.
	steps := lines(l.Solution)[:3]
	ApplyFrom(d.Context(), "", steps...)
	d.Consume()
	want := wantProgress(t, l, steps)
	if want.Progress != "balances still holds every record written to it: run the cleaner (the cleaner skips the active segment, 3 records here)" {
		t.Fatalf("the steps lead to %q, not the cleaner's sentence: the test proves nothing", want.Progress)
	}
	line := progressLine.FindStringSubmatch(app.HTMLString(p))
	if line == nil {
		t.Fatal("the page has no progress line")
	}
	buttons := tagsWith(line[1], "data-control-ref", "run-cleaner balances")
	if len(buttons) != 1 || !strings.Contains(buttons[0], `class="control-ref"`) || !strings.Contains(buttons[0], `title="Show me where: run the cleaner of balances"`) {
		t.Errorf("the progress line's buttons are %q, want the hint's button for run-cleaner balances", buttons)
	}
	text := html.UnescapeString(regexp.MustCompile(`<[^>]*>|➜`).ReplaceAllString(line[1], ""))
	if strings.Join(strings.Fields(text), " ") != want.Progress {
		t.Errorf("the progress line reads %q, want %q", text, want.Progress)
	}

	// The button's request: the topic's inspector opens.
	var control lesson.Inline
	for _, in := range p.lesson.result.ProgressDoc {
		if in.Kind == lesson.InlineControl {
			control = in
		}
	}
	d.Context().NewActionWithValue(pointAction, pointRequest{Control: control.Control, Label: control.Text, Scroll: true})
	d.Consume()
	if p.dock != dockInspector || p.selected.Kind != selectTopic || p.selected.Topic != "balances" {
		t.Errorf("pointing opened dock %q on %+v, want balances' inspector", p.dock, p.selected)
	}
}

// A progress that names no control is drawn as before, its `code` as
// code.
func TestProgressLineWithoutControls(t *testing.T) {
	panel := &LessonPanel{Name: "x", Progress: "set `retention.ms` lower"}
	got := app.HTMLString(app.P().Body(panel.progressLine()...))
	if !strings.Contains(got, "<code>retention.ms</code>") || strings.Contains(got, "control-ref") {
		t.Errorf("drawn %s", got)
	}
}
