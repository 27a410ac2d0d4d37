package app

import (
	"fmt"

	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The presenter's view (present=1 in the link, or Present in the masthead)
// is for a teacher in front of a room: the picture takes the window,
// enlarged; the tools, the timeline's lines, the help buttons and the
// topic's skew badge, which would give a lesson's answer away, are hidden
// (share.css); the narration is in large type; a bar says the step, the
// command that made it, and steps on the keys a presentation clicker sends
// (Page Down and Page Up; the arrow keys and the space bar too). Escape or
// the bar's button leaves it. The link keeps it, so a teacher's prepared
// link opens presenting.

// presentControl names the presenter bar's errors.
const presentControl = "present"

// presentAction turns the presenter's view on or off (a bool).
const presentAction = "present"

// handlePresent turns the presenter's view on or off, and writes it into
// the URL.
func (p *Playground) handlePresent(ctx app.Context, a app.Action) {
	on, _ := a.Value.(bool)
	if p.share.options.Present == on {
		return
	}
	p.share.options.Present = on
	// A step taken while presenting held the workspace at the presenter's
	// height, the window's whole, and leaving would keep it so: the
	// timeline below it pushed out of the window (a learner's walk).
	releaseWorkspaceHeight()
	p.writeURL(ctx)
}

// presenterKey steps for a key of a presentation clicker, or leaves the
// presenter's view on Escape, and reports whether it took the key. A step
// past either end of the script is no step: a clicker pressed once too
// often says nothing.
func (p *Playground) presenterKey(ctx app.Context, key string) bool {
	kind := ""
	switch key {
	case "PageDown", "ArrowRight", "ArrowDown", " ":
		if p.session != nil && p.session.Position() < p.session.Len() {
			kind = "redo"
		}
	case "PageUp", "ArrowLeft", "ArrowUp":
		if p.session != nil && p.session.Position() > 0 {
			kind = "undo"
		}
	case "Escape":
		ctx.NewActionWithValue(presentAction, false)
		return true
	default:
		return false
	}
	if kind != "" {
		ctx.NewActionWithValue(historyAction, historyMove{Control: presentControl, Kind: kind})
	}
	return true
}

// PresenterBar heads the page in the presenter's view: back, the step and
// the command that made it, next, the keys, and the way out.
type PresenterBar struct {
	app.Compo

	Position int
	Length   int
	Line     string // the command of the step shown; "" at step 0
	Playing  bool
	TimeMs   int64  // the virtual clock
	Lesson   string // the open lesson's title, "" outside a lesson
	Goal     string // and its goal
}

func (b *PresenterBar) play(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(playAction, playRequest{Start: !b.Playing, Stop: b.Playing})
}

func (b *PresenterBar) step(kind string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		ctx.NewActionWithValue(historyAction, historyMove{Control: presentControl, Kind: kind})
	}
}

func (b *PresenterBar) exit(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(presentAction, false)
}

// Render draws the bar.
func (b *PresenterBar) Render() app.UI {
	line := b.Line
	if line == "" {
		line = "the start: nothing has happened yet"
	}
	return app.Div().Class("presenter-bar").Attr("role", "toolbar").Aria("label", "presenting").Body(
		app.If(b.Lesson != "", app.Strong().Class("present-lesson").Text(b.Lesson)),
		app.If(b.Goal != "", app.P().Class("present-goal").Text("Goal: "+b.Goal)),
		app.Button().Type("button").ID("present-back").Disabled(b.Position == 0).OnClick(b.step("undo")).
			Aria("label", "previous step").Text("◀"),
		app.Span().Class("present-position").DataSet("position", b.Position).DataSet("length", b.Length).
			Text(fmt.Sprintf("step %d of %d", b.Position, b.Length)),
		app.Button().Type("button").ID("present-next").Disabled(b.Position >= b.Length).OnClick(b.step("redo")).
			Aria("label", "next step").Text("▶"),
		app.Code().Class("present-line").Title(line).Text(line),
		// Play runs the script's steps, then the clock: the starter's
		// workloads only move with it.
		app.Button().Type("button").ID("present-play").Aria("pressed", b.Playing).OnClick(b.play).
			Text(map[bool]string{true: pauseText, false: playText}[b.Playing]),
		app.Span().Class("present-clock").DataSet("time-ms", b.TimeMs).Text("virtual time "+units.Duration(b.TimeMs)),
		app.Span().Class("present-keys").Text("Page Down, → or space: next · Page Up or ←: back"),
		app.Button().Type("button").ID("present-exit").Class("secondary").OnClick(b.exit).Text("Exit (Esc)"),
		&ControlError{Control: presentControl},
	)
}

// presenterBar is the page's PresenterBar.
func (p *Playground) presenterBar() app.UI {
	bar := &PresenterBar{Playing: p.playing, TimeMs: p.view.TimeMs, Lesson: p.lesson.title()}
	if p.lesson.current != nil {
		bar.Goal = p.lesson.current.Goal
	}
	if p.session != nil {
		bar.Position, bar.Length = p.session.Position(), p.session.Len()
		bar.Line = p.session.StepLine(bar.Position)
	}
	return bar
}

// presentButton opens the presenter's view from the masthead.
func presentButton() app.UI {
	return app.Button().Type("button").ID("present-open").Class("secondary").
		Title("Show the picture large, for a room: Page Down and Page Up step, Esc leaves").
		OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(presentAction, true) }).
		Text("Present")
}
