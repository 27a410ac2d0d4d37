package app

import (
	"fmt"
	"slices"
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

	Name string
	// Ref is what lesson= holds: the name, or the lesson link of a lesson
	// from a link.
	Ref      string
	Number   int // place in teaching order, from 1; 0 for a lesson from a link
	Title    string
	Doc      []lesson.Block // the explanation (lesson_markdown.go draws it)
	Goal     []lesson.Inline
	Progress string // the goal's status, one sentence
	// ProgressDoc is Progress with the controls it names, drawn as a
	// hint's; nil when it names none (lesson.Result).
	ProgressDoc  []lesson.Inline
	Solved       bool              // the state now reaches the goal
	SolvedBefore bool              // the learner has reached it before
	Hints        [][]lesson.Inline // the hints unlocked
	HintCount    int               // how many hints the lesson has
	// Questions are the lesson's questions, answered under the goal.
	Questions *LessonQuestions
	// PointMissing says that a control a hint points at is not on the
	// page now, and why (hint_controls.go).
	PointMissing    string
	PointMissingRef string // the control's reference, as its name's data-control-ref

	// Compact folds the explanation away, for a page embedded in a course
	// whose own text explains, in a frame with little room.
	Compact bool
	// Preview draws the lesson in the lesson editor (lesson_editor.go):
	// as the learner sees it, every hint shown, with nothing to click.
	Preview bool

	announced bool   // Solved was drawn: its line was brought into view
	shown     string // the lesson drawn before: another starts at the top
	hintsSeen int    // the hints drawn before: a new one is brought into view
	// progressSeen is the progress drawn before: a new one is brought into
	// the panel's view.
	progressSeen string
	height       heightFollower
	// sheet is how much of the lesson a phone's sheet shows: "" the
	// task (goal, progress, hints), "full" the explanation too, "small"
	// the title and progress alone. A wide screen shows it all.
	sheet string
}

// OnMount follows the panel's height for the page's scrolling: on a
// phone the panel is a sheet over the screen's foot, and what the page
// scrolls to (a control a hint points at, a field taking the focus) must
// land above it, not under it (web/static/lessons.css).
func (l *LessonPanel) OnMount(ctx app.Context) {
	l.hintsSeen, l.shown = len(l.Hints), l.Name
	if l.Preview {
		return
	}
	l.height = followHeight(ctx.JSSrc(), "--lesson-sheet-height")
}

// OnDismount stops following the panel's height; the sheet's height is
// none once the panel is gone.
func (l *LessonPanel) OnDismount() {
	l.height.stop()
	if !l.Preview {
		app.Window().Get("document").Get("documentElement").Get("style").Call("removeProperty", "--lesson-sheet-height")
	}
}

// sheetButtons draw, on a phone, the sheet's buttons: read the whole
// lesson or the task alone, and fold the sheet down to its progress to
// see the picture (web/static/lessons.css shows them on a narrow screen
// only).
func (l *LessonPanel) sheetButtons() app.UI {
	set := func(mode string) app.EventHandler {
		return func(ctx app.Context, e app.Event) { l.sheet = mode }
	}
	read, readText := "full", "Read the lesson ▴"
	if l.sheet == "full" {
		read, readText = "", "The task only ▾"
	}
	small, smallText := "small", "Fold ▾"
	if l.sheet == "small" {
		small, smallText = "", "Unfold ▴"
	}
	return app.Div().Class("lesson-sheet-buttons").Body(
		app.If(l.sheet != "small",
			app.Button().Type("button").ID("lesson-sheet-read").Class("quiet").
				Aria("expanded", l.sheet == "full").OnClick(set(read), read).Text(readText),
		),
		app.Button().Type("button").ID("lesson-sheet-fold").Class("quiet").
			Aria("expanded", l.sheet != "small").OnClick(set(small), small).Text(smallText),
	)
}

// OnUpdate brings the Solved! line into view the moment the lesson is
// solved: the lesson's box is short, and the line under the goal and its
// questions may be scrolled out of it.
func (l *LessonPanel) OnUpdate(ctx app.Context) {
	// Another lesson opened in the same panel (its Next link, the list)
	// starts at its title and goal, not where the last one was scrolled.
	if l.Name != l.shown && !l.Preview {
		l.shown, l.hintsSeen, l.announced, l.progressSeen = l.Name, len(l.Hints), l.Solved, l.Progress
		ctx.Defer(func(app.Context) {
			if el := app.Window().Get("document").Call("querySelector", "[data-lesson-panel]"); el.Truthy() {
				el.Set("scrollTop", 0)
			}
		})
		return
	}
	// A hint just revealed is brought into the panel's view: the panel is
	// short (a dock's top, a phone's sheet), and the hint came at its end.
	if len(l.Hints) > l.hintsSeen && l.hintsSeen >= 0 && !l.Preview {
		last := len(l.Hints) - 1
		ctx.Defer(func(app.Context) {
			scrollIntoPanel(fmt.Sprintf(`[data-lesson-panel] [data-hint="%d"]`, last))
		})
	}
	l.hintsSeen = len(l.Hints)
	// A progress that changed is brought into the panel's view: a walk
	// read the lesson's idea or a hint, acted, and never saw the progress
	// it made, scrolled above the box. The panel alone moves (never the
	// page), as little as it takes.
	if l.Progress != l.progressSeen && !l.Preview && l.sheet != "small" {
		ctx.Defer(func(app.Context) { scrollWithinPanel("[data-lesson-panel] [data-lesson-progress]") })
	}
	l.progressSeen = l.Progress
	if l.Solved && !l.announced && !l.Preview {
		ctx.Defer(func(app.Context) {
			// The line and the next lesson's link under it, whole: the
			// link first, then the line, which the link's scroll could
			// push up under the progress stuck at the box's top.
			for _, sel := range []string{"[data-lesson-panel] .lesson-next", "[data-lesson-panel] [data-lesson-status]"} {
				scrollIntoPanel(sel)
			}
		})
	}
	l.announced = l.Solved
}

// scrollIntoPanel scrolls the lesson's panel, and it alone, so that what
// selector finds is in its view. scrollIntoView scrolled the page too: on
// a phone, whose lesson is a sheet fixed at the screen's foot, the page
// jumped under the learner's finger as the lesson was solved. A panel
// that does not scroll (an embedded page's) leaves it to the page.
func scrollIntoPanel(selector string) {
	doc := app.Window().Get("document")
	el, panel := doc.Call("querySelector", selector), doc.Call("querySelector", "[data-lesson-panel]")
	if !el.Truthy() || !panel.Truthy() {
		return
	}
	if !panelScrolls(panel) {
		// A panel that does not scroll: the page scrolls, unless the
		// element is in the window already. On a phone the panel is a
		// sheet stuck to the screen's foot, and scrollIntoView moved the
		// page to where the sheet would rest, under the learner's finger.
		r := el.Call("getBoundingClientRect")
		if r.Get("top").Float() >= 0 && r.Get("bottom").Float() <= app.Window().Get("innerHeight").Float() {
			return
		}
		el.Call("scrollIntoView", map[string]any{"block": "nearest"})
		return
	}
	scrollPanelTo(panel, el)
}

// scrollWithinPanel is scrollIntoPanel for a panel that scrolls, and
// nothing else: where the panel does not scroll, the page stays.
func scrollWithinPanel(selector string) {
	doc := app.Window().Get("document")
	el, panel := doc.Call("querySelector", selector), doc.Call("querySelector", "[data-lesson-panel]")
	if el.Truthy() && panel.Truthy() && panelScrolls(panel) {
		scrollPanelTo(panel, el)
	}
}

// panelScrolls says whether the lesson's panel holds more than it shows.
func panelScrolls(panel app.Value) bool {
	return panel.Get("scrollHeight").Float() > panel.Get("clientHeight").Float()+1
}

// scrollPanelTo scrolls the panel so that el is in its view.
func scrollPanelTo(panel, el app.Value) {
	box, in := panel.Call("getBoundingClientRect"), el.Call("getBoundingClientRect")
	// Where the element is from the panel's visible top, and how far to
	// move: its foot up into view, but never its first line out of it.
	// On a wide screen the progress sticks at the panel's top
	// (lessons.css): what shows starts under it, and a walk saw lesson
	// 20's Solved! line scrolled under it.
	top := box.Get("top").Float()
	if progress := panel.Call("querySelector", "[data-lesson-progress]"); progress.Truthy() && !progress.Equal(el) &&
		app.Window().Call("getComputedStyle", progress).Get("position").String() == "sticky" {
		// Stuck, it is at the panel's top (within its border and
		// padding); in its place further down it hides nothing.
		if p := progress.Call("getBoundingClientRect"); p.Get("top").Float()-top < 12 {
			top = p.Get("bottom").Float()
		}
	}
	height := panel.Get("clientHeight").Float() - (top - box.Get("top").Float())
	from, to := in.Get("top").Float()-top, in.Get("bottom").Float()-top
	shift := 0.0
	if to > height {
		shift = min(to-height, from)
	}
	if from < 0 {
		shift = from
	}
	panel.Set("scrollTop", panel.Get("scrollTop").Float()+shift)
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
	marker, titleID := "data-lesson-panel", "lesson-title"
	if l.Preview {
		marker, titleID = "data-lesson-preview-panel", "lesson-preview-title"
	}
	class := []string{"panel", "lesson"}
	head := []app.UI{app.P().Class("lesson-number").Text(l.numberText())}
	if !l.Preview && !l.Compact {
		class = append(class, "sheet")
		if l.sheet != "" {
			class = append(class, "sheet-"+l.sheet)
		}
		head = append(head, l.sheetButtons())
	}
	return app.Section().Class(class...).
		Attr(marker, "").DataSet("lesson", l.Name).
		Attr("data-solved", strconv.FormatBool(l.Solved)).
		Aria("labelledby", titleID).Body(
		app.Div().Class("lesson-head").Body(head...),
		app.H2().ID(titleID).Text(l.Title),
		app.Div().Class("lesson-columns").Body(
			l.renderText(),
			l.renderTask(),
		),
	)
}

// numberText places the lesson: its number in teaching order, or where it
// came from.
func (l *LessonPanel) numberText() string {
	if l.Number == 0 {
		return "A lesson from a link"
	}
	return fmt.Sprintf("Lesson %d of %d", l.Number, len(lesson.Names()))
}

// renderText draws the explanation, folded away when compact.
func (l *LessonPanel) renderText() app.UI {
	paragraphs := lessonBlocks(l.Doc)
	if l.Compact {
		return app.Details().Class("lesson-text").Body(
			append([]app.UI{app.Summary().Text("The idea")}, paragraphs...)...,
		)
	}
	return app.Div().Class("lesson-text").Body(
		append([]app.UI{app.H3().ID("lesson-idea").Class("lesson-text-title").Text("The idea")}, paragraphs...)...,
	)
}

// readIdea shows the lesson's explanation: in the dock it follows the task
// in a short box, where a walk never found it; on a phone the sheet opens
// whole.
func (l *LessonPanel) readIdea(ctx app.Context, e app.Event) {
	l.sheet = "full"
	ctx.Defer(func(app.Context) { scrollIntoPanel("[data-lesson-panel] .lesson-text") })
}

// toggleIdea brings the idea into the box's view, or, once it has, the
// goal back: a walk pressed "The idea ▾" again to go back and saw
// nothing change.
func (l *LessonPanel) toggleIdea(ctx app.Context, e app.Event) {
	if l.sheet != "full" {
		l.readIdea(ctx, e)
		return
	}
	l.sheet = ""
	ctx.Defer(func(app.Context) { scrollIntoPanel("[data-lesson-panel] .lesson-goal") })
}

// renderTask draws what the learner is to do, how far they are, and the
// hints they have asked for.
func (l *LessonPanel) renderTask() app.UI {
	status := ""
	if l.Solved {
		status = "Solved! You reached the goal of this lesson."
	}
	next, hasNext := nextLesson(l.Name)
	hasNext = hasNext && l.Number > 0
	goal := app.P().Class("lesson-goal").Body(
		append([]app.UI{app.Strong().Text("Goal: ")}, lessonInlines(l.Goal)...)...,
	)
	if l.Preview {
		return app.Div().Class("lesson-task").Body(goal, l.renderHints())
	}
	return app.Div().Class("lesson-task").Body(
		goal,
		app.If(l.Questions != nil && len(l.Questions.Questions) > 0, l.Questions),
		app.P().Class("lesson-progress").Attr("data-lesson-progress", "").
			Body(l.progressLine()...),
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
		l.renderHints(),
		app.If(l.PointMissing != "",
			app.P().Class("point-missing").Attr("role", "status").DataSet("missing-ref", l.PointMissingRef).Text(l.PointMissing),
		),
		app.Div().Class("row").Body(
			app.If(len(l.Hints) < l.HintCount,
				app.Button().Type("button").ID("lesson-hint").OnClick(l.showHint).
					Text(fmt.Sprintf("Show a hint (%d of %d)", len(l.Hints)+1, l.HintCount)),
			).ElseIf(l.HintCount > 0,
				app.Span().Class("hint").Text("All hints shown."),
			),
			app.If(!l.Compact,
				app.Button().Type("button").ID("lesson-read-idea").Class("quiet").Aria("expanded", l.sheet == "full").
					OnClick(l.toggleIdea).Text(map[bool]string{false: "The idea ▾", true: "Back to the goal ▴"}[l.sheet == "full"]),
			),
			app.A().Href("#lesson="+l.Ref).Class("lesson-restart").Text("Start the lesson again"),
		),
	)
}

// progressLine draws the progress: its text, with its `code`, and the
// controls it names as buttons that point at them, as a hint's do.
func (l *LessonPanel) progressLine() []app.UI {
	if l.ProgressDoc == nil {
		return withCode(l.Progress)
	}
	var ui []app.UI
	for _, in := range l.ProgressDoc {
		if in.Kind == lesson.InlineControl {
			ui = append(ui, controlButton(in))
			continue
		}
		ui = append(ui, withCode(in.Text)...)
	}
	return ui
}

// renderHints draws the hints unlocked.
func (l *LessonPanel) renderHints() app.UI {
	return app.If(len(l.Hints) > 0,
		app.Ol().Class("lesson-hints").Aria("label", "hints").Body(
			app.Range(l.Hints).Slice(func(i int) app.UI {
				return app.Li().DataSet("hint", i).Body(lessonInlines(l.Hints[i])...)
			}),
		),
	)
}

// nextLesson is the lesson after the named one in teaching order.
func nextLesson(name string) (lesson.Lesson, bool) {
	names := lesson.Names()
	i := slices.Index(names, name)
	if i < 0 || i+1 == len(names) {
		return lesson.Lesson{}, false
	}
	next, err := lesson.Find(names[i+1])
	return next, err == nil
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
