package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// LessonPanel shows the open lesson: its explanation, its goal, the goal's
// progress after the last action, the hints unlocked so far, and, the
// moment the goal is reached, an announcement that it is solved.
type LessonPanel struct {
	app.Compo

	Name         string
	Number       int // place in teaching order, from 1
	Title        string
	Text         []string // paragraphs; `backquoted` spans are code
	Goal         string
	Progress     string // the goal's status, one sentence
	Solved       bool   // the state now reaches the goal
	SolvedBefore bool   // the learner has reached it before
	Hints        []string
	HintCount    int // how many hints the lesson has

	// Compact folds the explanation away, for a page embedded in a course
	// whose own text explains, in a frame with little room.
	Compact bool
}

// showHint asks the page to unlock the next hint.
func (l *LessonPanel) showHint(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(lessonAction, lessonRequest{Kind: "hint"})
}

// Render draws the lesson: the explanation beside the task (goal,
// progress, hints) on a wide screen, above it on a narrow one. The
// announcement's live region is always there, empty until the goal is
// reached, so screen readers hear it fill.
func (l *LessonPanel) Render() app.UI {
	return app.Section().Class("panel", "lesson").
		Attr("data-lesson-panel", "").DataSet("lesson", l.Name).
		Attr("data-solved", strconv.FormatBool(l.Solved)).
		Aria("labelledby", "lesson-title").Body(
		app.P().Class("lesson-number").Text(fmt.Sprintf("Lesson %d of %d", l.Number, len(lesson.Names()))),
		app.H2().ID("lesson-title").Text(l.Title),
		app.Div().Class("lesson-columns").Body(
			l.renderText(),
			l.renderTask(),
		),
	)
}

// renderText draws the explanation, folded away when compact.
func (l *LessonPanel) renderText() app.UI {
	paragraphs := app.Range(l.Text).Slice(func(i int) app.UI {
		return app.P().Body(withCode(l.Text[i])...)
	})
	if l.Compact {
		return app.Details().Class("lesson-text").Body(
			app.Summary().Text("The idea"),
			paragraphs,
		)
	}
	return app.Div().Class("lesson-text").Body(paragraphs)
}

// renderTask draws what the learner is to do, how far they are, and the
// hints they have asked for.
func (l *LessonPanel) renderTask() app.UI {
	status := ""
	if l.Solved {
		status = "Solved! You reached the goal of this lesson."
	}
	next, hasNext := nextLesson(l.Name)
	return app.Div().Class("lesson-task").Body(
		app.P().Class("lesson-goal").Body(
			append([]app.UI{app.Strong().Text("Goal: ")}, withCode(l.Goal)...)...,
		),
		app.P().Class("lesson-progress").Attr("data-lesson-progress", "").
			Body(withCode(l.Progress)...),
		app.P().Class("lesson-solved").Attr("role", "status").Aria("live", "polite").
			Attr("data-lesson-status", "").Text(status),
		app.If(l.Solved && hasNext,
			app.P().Class("lesson-next").Body(
				app.Text("Next: "),
				app.A().Href("#lesson="+next.Name).DataSet("next-lesson", next.Name).Text(next.Title),
			),
		),
		app.If(!l.Solved && l.SolvedBefore,
			app.P().Class("hint").Text("You have solved this lesson before."),
		),
		app.If(len(l.Hints) > 0,
			app.Ol().Class("lesson-hints").Aria("label", "hints").Body(
				app.Range(l.Hints).Slice(func(i int) app.UI {
					return app.Li().DataSet("hint", i).Body(withCode(l.Hints[i])...)
				}),
			),
		),
		app.Div().Class("row").Body(
			app.If(len(l.Hints) < l.HintCount,
				app.Button().Type("button").ID("lesson-hint").OnClick(l.showHint).
					Text(fmt.Sprintf("Show a hint (%d of %d)", len(l.Hints)+1, l.HintCount)),
			).ElseIf(l.HintCount > 0,
				app.Span().Class("hint").Text("All hints shown."),
			),
			app.A().Href("#lesson="+l.Name).Class("lesson-restart").Text("Start the lesson again"),
		),
	)
}

// nextLesson is the lesson after the named one in teaching order.
func nextLesson(name string) (lesson.Lesson, bool) {
	all := lesson.All()
	for i, l := range all {
		if l.Name == name && i+1 < len(all) {
			return all[i+1], true
		}
	}
	return lesson.Lesson{}, false
}

// withCode turns text with `backquoted` spans into text and code elements.
// An unmatched backquote is kept as it is.
func withCode(text string) []app.UI {
	parts := strings.Split(text, "`")
	if len(parts)%2 == 0 { // an odd number of backquotes: the last one is plain
		last := len(parts) - 1
		parts[last-1] += "`" + parts[last]
		parts = parts[:last]
	}
	var ui []app.UI
	for i, part := range parts {
		switch {
		case part == "":
		case i%2 == 1:
			ui = append(ui, app.Code().Text(part))
		default:
			ui = append(ui, app.Text(part))
		}
	}
	return ui
}
