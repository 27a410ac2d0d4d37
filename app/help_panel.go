package app

import (
	"runtime"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// helpID is the element id of the help panel.
const helpID = "help"

// helpAction opens or closes the help panel; value: true to open.
const helpAction = "plog/help"

// HelpPanel is the page's one place for the help that is about no single
// control: the keyboard's shortcuts, how plog differs from Kafka, and what
// the page runs on. It opens over the page from the masthead's Help button,
// or from a "differs from Kafka" link beside a control's explanation, and
// closes with its ✕, Escape or the button again. Closed, it takes no room:
// the middle of the page is the picture and its narration alone, where
// these lists used to push the narration down a scrolling column.
//
// Its parts stay mounted while it is closed (hidden), so that a link to a
// difference finds the list's handler, and the written page holds the text.
type HelpPanel struct {
	app.Compo

	open bool
}

// OnMount takes the requests to open or close the panel; a request to show
// a difference opens it too.
func (h *HelpPanel) OnMount(ctx app.Context) {
	ctx.Handle(helpAction, func(ctx app.Context, a app.Action) {
		open, _ := a.Value.(bool)
		h.setOpen(ctx, open, true)
	})
	// The list of differences brings its entry into view and focuses it.
	ctx.Handle(differencesAction, func(ctx app.Context, a app.Action) { h.setOpen(ctx, true, false) })
}

// setOpen opens or closes the panel. Opened from its button, the focus
// goes to its close button so that a keyboard reaches the help at once;
// closed, back to the masthead's button.
func (h *HelpPanel) setOpen(ctx app.Context, open, moveFocus bool) {
	if h.open == open {
		return
	}
	h.open = open
	if !moveFocus {
		return
	}
	focus := helpOpenID
	if open {
		focus = helpID + "-close"
	}
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID(focus); el.Truthy() {
			el.Call("focus", map[string]any{"preventScroll": true})
		}
	})
}

// closeOnEscape closes the panel on Escape, as a dialog should.
func (h *HelpPanel) closeOnEscape(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Escape" {
		e.StopImmediatePropagation()
		ctx.NewActionWithValue(helpAction, false)
	}
}

// Render draws the panel, hidden while closed.
func (h *HelpPanel) Render() app.UI {
	return app.Section().ID(helpID).Class("panel", "help-panel").Hidden(!h.open).
		Attr("role", "dialog").Aria("labelledby", helpID+"-title").OnKeyDown(h.closeOnEscape).Body(
		app.Div().Class("help-head").Body(
			app.H2().ID(helpID+"-title").Text("Help"),
			app.Button().Type("button").ID(helpID+"-close").Class(roleSecondary.classes()...).
				Aria("label", "Close the help").OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(helpAction, false) }).
				Text("✕"),
		),
		app.P().Class("hint").Text("Each control's own explanation is behind the ? beside it; hints in a lesson "+
			"point at the controls they name."),
		&Shortcuts{},
		&Differences{},
		app.Footer().Class("colophon").Body(
			app.Text("plog runs entirely in your browser. Engine built with "),
			// The browser tests read this to check that the served
			// wasm_exec.js belongs to the toolchain that built the wasm.
			app.Span().DataSet("go-version", runtime.Version()).Text(runtime.Version()),
			app.Text("."),
		),
	)
}

// helpOpenID is the element id of the masthead's Help button.
const helpOpenID = "help-open"

// HelpButton sits in the masthead and opens or closes the help panel.
type HelpButton struct {
	app.Compo

	open bool
}

// OnMount follows the panel's state, to say it in aria-expanded.
func (b *HelpButton) OnMount(ctx app.Context) {
	ctx.Handle(helpAction, func(ctx app.Context, a app.Action) { b.open, _ = a.Value.(bool) })
	ctx.Handle(differencesAction, func(ctx app.Context, a app.Action) { b.open = true })
}

// Render draws the button.
func (b *HelpButton) Render() app.UI {
	return app.Button().Type("button").ID(helpOpenID).Class(append(roleSecondary.classes(), "help-open")...).
		Aria("controls", helpID).Aria("expanded", b.open).
		OnClick(func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(helpAction, !b.open) }).
		Text("Help")
}
