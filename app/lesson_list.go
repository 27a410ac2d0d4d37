package app

import (
	"fmt"
	"slices"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// LessonList lists every lesson in teaching order, each a link to its
// start (#lesson=NAME), with a mark on those the learner has solved. A link
// is all a lesson needs, so the same link can be shared or embedded.
type LessonList struct {
	app.Compo

	Current string   // the open lesson's name, "" outside a lesson
	Solved  []string // names of the lessons the learner has solved

	// StorageProblem says why progress will not outlive the page, "" when
	// it will.
	StorageProblem string

	shown string // the lesson open at the last update
}

// OnUpdate folds the list away when the learner has picked another lesson
// in it: it stayed open over the lanes, which then sat out of view. The
// fold is the browser's own (a details element), so the page closes it.
func (l *LessonList) OnUpdate(ctx app.Context) {
	picked := l.Current != "" && l.Current != l.shown
	l.shown = l.Current
	if picked {
		ctx.Defer(func(app.Context) {
			if el := app.Window().GetElementByID(lessonListID + "-details"); el != nil && el.Truthy() {
				el.Set("open", false)
			}
		})
	}
}

// OnMount notes the lesson open at the start.
func (l *LessonList) OnMount(ctx app.Context) { l.shown = l.Current }

// lessonListID is the list's element id, which the masthead's Lessons
// button scrolls to.
const lessonListID = "lesson-list"

// Render draws the list folded away until asked for: unfolded, it is a
// picker over the page (lessons.css), which picking a lesson, Escape or its
// heading closes. A first visitor meets the picture, with the masthead's
// Lessons button one click away, rather than a list over it.
func (l *LessonList) Render() app.UI {
	all := lesson.Catalogue()
	details := app.Details().ID(lessonListID + "-details")
	return app.Nav().ID(lessonListID).Class("panel", "lesson-list").Attr("data-lesson-list", "").
		Aria("label", "lessons").OnKeyDown(l.closeOnEscape).Body(
		details.Body(
			app.Summary().Text(summaryOf(len(l.Solved), len(all))),
			app.Ol().Body(
				app.Range(all).Slice(func(i int) app.UI {
					item := all[i]
					solved := slices.Contains(l.Solved, item.Name)
					li := app.Li().DataSet("lesson", item.Name).DataSet("solved", solved)
					a := app.A().Href("#lesson=" + item.Name).Text(item.Title)
					if item.Name == l.Current {
						li = li.Class("current")
						a = a.Aria("current", "page")
					}
					return li.Body(
						a,
						app.If(solved, app.Text(" "), app.Span().Class("lesson-done").Text("✓ solved")),
					)
				}),
			),
			app.Div().Class("row").Body(&LessonEditorButton{ID: "lesson-editor-open-list", Label: "Make a lesson from this scenario"}),
			app.If(l.StorageProblem != "",
				app.P().Class("hint").DataSet("storage-problem", true).
					Text("Your progress lasts only while this page is open: "+l.StorageProblem),
			),
		),
	)
}

// closeOnEscape folds the list on Escape, with the focus back on the
// masthead's button.
func (l *LessonList) closeOnEscape(ctx app.Context, e app.Event) {
	if e.Get("key").String() != "Escape" {
		return
	}
	e.StopImmediatePropagation()
	if details := app.Window().GetElementByID(lessonListID + "-details"); details.Truthy() {
		details.Set("open", false)
	}
	if button := app.Window().GetElementByID("lessons-open"); button.Truthy() {
		button.Call("focus", map[string]any{"preventScroll": true})
	}
}

// summaryOf is the list's heading: how many lessons there are and how many
// are solved.
func summaryOf(solved, all int) string {
	if solved == 0 {
		return fmt.Sprintf("Lessons (%d)", all)
	}
	return fmt.Sprintf("Lessons (%d of %d solved)", solved, all)
}
