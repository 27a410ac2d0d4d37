package app

import (
	"fmt"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Help is a small "?" button next to a concept on screen that opens a short
// explanation of it. It is a real button, so it works from the keyboard
// (Tab, then Enter or Space; Escape closes it), and it says whether the
// explanation is open with aria-expanded. Topic names one of HelpTopics.
//
//	&Help{Topic: "high-watermark"}
type Help struct {
	app.Compo

	Topic string
	// Label, when set, is the words on screen that the explanation is
	// about, drawn as the button itself (underlined, no circle): a card
	// of a dozen small facts each with its own "?" read as clutter, and
	// the help belongs on the thing it explains.
	Label string

	open bool
	// leftward opens the explanation to the left of the button, which is
	// too near the window's right edge for it to open to the right.
	leftward bool
	// at places the explanation in the window, by the button, when the
	// page is wide: the dock and the groups column scroll, and clipped an
	// explanation hung inside them to a sliver. nil natively and on a
	// phone, where the explanation is a sheet at the screen's foot.
	at *popoverPlace
}

// popoverPlace is where an explanation sits in the window: its top (or,
// opening upward near the window's foot, its bottom) and its left (or,
// leftward, its right), in CSS pixels from the window's edges.
type popoverPlace struct {
	vertical, horizontal string // "top" or "bottom"; "left" or "right"
	y, x                 float64
}

// popoverHeightPx is about the tallest explanation at 20rem wide: one
// opened nearer the window's foot opens upward.
const popoverHeightPx = 260

// popoverRoomPx is the room a popover needs to the right of its button:
// its widest (20rem and its padding, web/static/groups.css) and a margin.
const popoverRoomPx = 380

// button opens and closes the explanation: a "?", or the Label's words.
// A term's accessible name starts with its visible words (WCAG's label in
// name).
func (h *Help) button(topic helpTopic) app.UI {
	question := "What is " + topic.Title + "?"
	b := app.Button().Type("button").Aria("expanded", strconv.FormatBool(h.open)).Title(question).OnClick(h.toggle)
	if h.Label != "" {
		return b.Class("help-button", "help-term").Aria("label", h.Label+" ("+question+")").Text(h.Label)
	}
	return b.Class("help-button").Aria("label", question).Text("?")
}

// Render draws the button and, when open, the explanation right after it,
// where a screen reader reaches it next. (It has no aria-controls: that
// needs an id unique on the page, and the same topic may be explained in
// several places; the explanation follows the button instead.)
func (h *Help) Render() app.UI {
	topic, known := helpTopics[h.Topic]
	if !known {
		topic = helpTopic{Title: h.Topic, Text: "No explanation is written for this yet."}
	}
	return app.Span().
		Class("help").
		DataSet("help", h.Topic).
		OnKeyDown(h.onKeyDown).
		Body(
			h.button(topic),
			app.If(h.open,
				h.placed(app.Span().
					Class("help-popover").
					Class(h.popoverSide()).
					Attr("role", "note")).
					Body(
						app.Strong().Text(topic.Title),
						app.Text(" "+topic.Text),
						app.If(differsOf[h.Topic] != "", &DiffersLink{Name: differsOf[h.Topic]}),
						app.Button().
							Type("button").
							Class("help-close").
							Aria("label", "Close the explanation of "+topic.Title).
							OnClick(h.toggle).
							Text("×"),
					),
			),
		)
}

func (h *Help) toggle(ctx app.Context, e app.Event) {
	h.open = !h.open
	if h.open {
		h.leftward = nearRightEdge(ctx.JSSrc())
		h.at = placeBy(ctx.JSSrc(), h.leftward)
	}
}

// placed gives the explanation its place in the window, when it has one.
func (h *Help) placed(popover app.HTMLSpan) app.HTMLSpan {
	if h.at == nil {
		return popover
	}
	// The sides not placed are auto: the stylesheet's top and left hang
	// the explanation under its button.
	other := map[string]string{"top": "bottom", "bottom": "top", "left": "right", "right": "left"}
	return popover.Class("help-popover-fixed").
		Style(h.at.vertical, fmt.Sprintf("%.0fpx", h.at.y)).Style(other[h.at.vertical], "auto").
		Style(h.at.horizontal, fmt.Sprintf("%.0fpx", h.at.x)).Style(other[h.at.horizontal], "auto")
}

// placeBy is where an explanation opened by button sits in the window:
// under the button (over it near the window's foot), from its left edge
// (its right edge, leftward). nil where there is no button (natively) and
// on a phone (web/static/groups.css makes it a sheet there).
func placeBy(button app.Value, leftward bool) *popoverPlace {
	if !button.Truthy() {
		return nil
	}
	width, height := app.Window().Get("innerWidth").Float(), app.Window().Get("innerHeight").Float()
	if width < phoneWidthPx {
		return nil
	}
	rect := button.Call("getBoundingClientRect")
	place := &popoverPlace{vertical: "top", y: rect.Get("bottom").Float() + 4, horizontal: "left", x: rect.Get("left").Float() - 8}
	if place.y+popoverHeightPx > height && rect.Get("top").Float() > popoverHeightPx {
		place.vertical, place.y = "bottom", height-rect.Get("top").Float()+4
	}
	if leftward {
		place.horizontal, place.x = "right", width-rect.Get("right").Float()-8
	}
	return place
}

// phoneWidthPx is the width below which the page is laid out for a phone
// (the stylesheets' max-width: 699px).
const phoneWidthPx = 700

// popoverSide is the class that opens the popover to the left, or none.
func (h *Help) popoverSide() string {
	if h.leftward {
		return "help-popover-left"
	}
	return ""
}

// nearRightEdge says whether a popover opened to the right of button would
// run past the window's right edge, and there is room to its left. (On a
// phone the popover is a sheet across the screen's bottom whatever this
// says.)
func nearRightEdge(button app.Value) bool {
	if !button.Truthy() {
		return false // no element: natively, in tests
	}
	rect := button.Call("getBoundingClientRect")
	left, right := rect.Get("left").Float(), rect.Get("right").Float()
	return left+popoverRoomPx > app.Window().Get("innerWidth").Float() && right >= popoverRoomPx
}

// onKeyDown closes the explanation on Escape, as a popover should.
func (h *Help) onKeyDown(ctx app.Context, e app.Event) {
	if h.open && e.Get("key").String() == "Escape" {
		h.open = false
	}
}
