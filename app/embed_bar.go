package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// EmbedBar heads the page in embed mode (embed=1), where the page is a
// small iframe in a course page: step back and forth, play, where the
// timeline is, and a link that opens the same scenario in the full
// playground, in a tab of its own.
type EmbedBar struct {
	app.Compo

	Position int
	Length   int
	Playing  bool
	ReadOnly bool
	FullURL  string // the same scenario and step, without embed and read-only
}

// embedControl names the bar's errors.
const embedControl = "embed"

func (b *EmbedBar) step(kind string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		ctx.NewActionWithValue(historyAction, historyMove{Control: embedControl, Kind: kind})
	}
}

func (b *EmbedBar) play(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(playAction, playRequest{Start: !b.Playing, Stop: b.Playing})
}

// Render draws the bar.
func (b *EmbedBar) Render() app.UI {
	playLabel := "▶ Play"
	if b.Playing {
		playLabel = "⏸ Pause"
	}
	return app.Div().Class("embed-bar").Attr("role", "toolbar").Aria("label", "embedded playground").Body(
		app.Strong().Class("embed-brand").Text("plog"),
		app.Button().Type("button").ID("embed-back").Disabled(b.Position == 0).OnClick(b.step("undo")).
			Aria("label", "step back").Text("◀"),
		app.Button().Type("button").ID("embed-step").Disabled(b.Position >= b.Length).OnClick(b.step("redo")).
			Aria("label", "next step").Text("▶ Step"),
		app.Button().Type("button").ID("embed-play").Aria("pressed", b.Playing).OnClick(b.play).Text(playLabel),
		app.Span().Class("embed-position").DataSet("position", b.Position).DataSet("length", b.Length).
			Text(fmt.Sprintf("step %d of %d", b.Position, b.Length)),
		app.If(b.ReadOnly, app.Span().Class("embed-readonly").Text("read-only")),
		app.A().ID("open-full").Href(b.FullURL).Target("_blank").Rel("noopener").
			Text("Open in the full playground ↗"),
		&ControlError{Control: embedControl},
	)
}

// embedBar is the page's EmbedBar, its link to the full playground
// written from the URL the page last wrote.
func (p *Playground) embedBar() app.UI {
	var position, length int
	if p.session != nil {
		position, length = p.session.Position(), p.session.Len()
	}
	return &EmbedBar{
		Position: position,
		Length:   length,
		Playing:  p.playing,
		ReadOnly: p.share.options.ReadOnly,
		FullURL:  pageURL(p.share.base, withOptions(p.link, false, false)),
	}
}

// playsForward makes play a walk through the steps ahead of the position:
// a tick redoes the next step while there is one, so that play from an
// earlier step shows the script rather than replacing it. It reports
// whether it took the tick; at the end of the script the clock advances
// (playground.go), on a page that may edit.
func (p *Playground) playsForward(ctx app.Context) bool {
	if p.session.Position() >= p.session.Len() {
		return false
	}
	control := timelineControl
	if p.share.options.Embed {
		control = embedControl
	}
	p.run(ctx, control, p.session.Redo)
	return true
}
