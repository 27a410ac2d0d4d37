package app

import (
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

	open bool
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
			app.Button().
				Type("button").
				Class("help-button").
				Aria("expanded", strconv.FormatBool(h.open)).
				Aria("label", "What is "+topic.Title+"?").
				Title("What is "+topic.Title+"?").
				OnClick(h.toggle).
				Text("?"),
			app.If(h.open,
				app.Span().
					Class("help-popover").
					Attr("role", "note").
					Body(
						app.Strong().Text(topic.Title),
						app.Text(" "+topic.Text),
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
}

// onKeyDown closes the explanation on Escape, as a popover should.
func (h *Help) onKeyDown(ctx app.Context, e app.Event) {
	if h.open && e.Get("key").String() == "Escape" {
		h.open = false
	}
}
