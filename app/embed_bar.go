package app

import (
	"fmt"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// EmbedBar heads the page in embed mode (embed=1), where the page is a
// small iframe in a course page: step back and forth, play, where the
// timeline is, and a button that opens the same scenario in the full
// playground, in a top-level tab of its own. Where the frame may open no
// tab (sandboxed without allow-popups), it offers the link to copy instead.
//
// It is a button, not a link with target=_blank: go-app takes every click
// on a link to the page's own host for a navigation inside the page, and
// would load the full playground inside the frame.
type EmbedBar struct {
	app.Compo

	Position int
	Length   int
	Playing  bool
	ReadOnly bool
	Loop     loopRange // the steps play goes through over and over, if any
	// LoopProblem is why the link's loop= was left out; "" when it was not.
	LoopProblem string
	FullURL     string // the same scenario and step, without embed and read-only

	refused string // why the last try to open a tab failed; "" when it did not
	copied  string // what copying the link did
}

// embedControl names the bar's errors.
const embedControl = "embed"

// fullLinkField is the field that offers the full playground's link when no
// tab may be opened.
const fullLinkField = "open-full-link"

// openFull opens the full playground in a new tab, or offers its link.
func (b *EmbedBar) openFull(ctx app.Context, e app.Event) {
	err := currentBrowser().OpenTab(b.FullURL)
	b.copied = ""
	if err == nil {
		b.refused = ""
		return
	}
	b.refused = err.Error()
	ctx.Defer(func(app.Context) { currentBrowser().SelectText(fullLinkField) })
}

// copyFull copies the offered link, or selects it to copy by hand.
func (b *EmbedBar) copyFull(ctx app.Context, e app.Event) {
	br, url := currentBrowser(), b.FullURL
	ctx.Async(func() {
		err := br.CopyText(url)
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				br.SelectText(fullLinkField)
				b.copied = "No clipboard here: the link is selected, press Ctrl+C (⌘C on a Mac)."
				return
			}
			b.copied = "Copied."
		})
	})
}

func (b *EmbedBar) closeCopy(ctx app.Context, e app.Event) {
	b.refused, b.copied = "", ""
}

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
	playLabel := playText
	if b.Playing {
		playLabel = pauseText
	}
	return app.Div().Class("embed-bar").Attr("role", "toolbar").Aria("label", "embedded playground").Body(
		// Where the keyboard may edit, the frame's first Tab stop lets a
		// reader of the course page pass it by (web/static/embed-keys.js
		// moves the focus to the frame's end). A read-only frame is one
		// Tab stop already.
		app.If(!b.ReadOnly, app.Button().Type("button").Class("embed-skip").Text("Skip this playground")),
		// Focusable from the keyboard script only: Shift+Tab leaves the
		// frame from here, as nothing tabbable comes before it.
		app.Strong().Class("embed-brand").TabIndex(-1).Text("plog"),
		app.Button().Type("button").ID("embed-back").Disabled(b.Position == 0).OnClick(b.step("undo")).
			Aria("label", "step back").Text("◀"),
		app.Button().Type("button").ID("embed-step").Disabled(b.Position >= b.Length).OnClick(b.step("redo")).
			Aria("label", "next step").Text("▶ Step"),
		app.Button().Type("button").ID("embed-play").Aria("pressed", b.Playing).OnClick(b.play).Text(playLabel),
		app.Span().Class("embed-position").DataSet("position", b.Position).DataSet("length", b.Length).
			Text(fmt.Sprintf("step %d of %d", b.Position, b.Length)),
		app.If(b.Loop.set(), app.Span().Class("embed-loop").DataSet("loop", b.Loop.String()).
			Title(fmt.Sprintf("play goes through steps %d to %d over and over", b.Loop.From, b.Loop.To)).
			Text(fmt.Sprintf("⟳ %d–%d", b.Loop.From, b.Loop.To))),
		app.If(b.ReadOnly, app.Span().Class("embed-readonly").Text("read-only")),
		// Short, so that the bar stays one row of a 640 px frame; its
		// title says it in full.
		app.Button().Type("button").ID("open-full").DataSet("href", b.FullURL).OnClick(b.openFull).
			Title("Open this scenario in the full playground, in a new tab").Text("Full playground ↗"),
		app.If(b.refused != "", b.copyBox()),
		app.If(b.LoopProblem != "", app.P().Class("embed-loop-problem").Attr("role", "alert").Text(b.LoopProblem)),
		&ControlError{Control: embedControl},
	)
}

// copyBox offers the full playground's link where no tab may be opened.
func (b *EmbedBar) copyBox() app.UI {
	return app.Div().Class("embed-copy").DataSet("refused", b.refused).Body(
		app.Label().For(fullLinkField).Text("This frame may not open a tab; copy the link and open it yourself:"),
		app.Input().Type("text").ID(fullLinkField).ReadOnly(true).Value(b.FullURL),
		app.Button().Type("button").ID("open-full-copy").OnClick(b.copyFull).Text("Copy"),
		app.Button().Type("button").ID("open-full-close").Aria("label", "close").OnClick(b.closeCopy).Text("×"),
		app.Span().Class("embed-copy-status").Attr("role", "status").Text(b.copied),
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
		Position:    position,
		Length:      length,
		Playing:     p.playing,
		ReadOnly:    p.share.options.ReadOnly,
		Loop:        p.share.options.Loop,
		LoopProblem: p.share.options.LoopProblem,
		FullURL:     pageURL(p.share.base, withOptions(p.link, linkOptions{})),
	}
}

// playsForward makes play a walk through the steps ahead of the position:
// a tick redoes the next step while there is one, so that play from an
// earlier step shows the script rather than replacing it. With loop=FROM-TO
// the tick after step TO (or one outside the range) goes back to step FROM.
// It reports whether it took the tick; at the end of the script the clock
// advances (playground.go), on a page that may edit.
func (p *Playground) playsForward(ctx app.Context) bool {
	control := timelineControl
	if p.share.options.Embed {
		control = embedControl
	}
	if loop, at := p.share.options.Loop, p.session.Position(); loop.set() && (at >= loop.To || at < loop.From) {
		p.run(ctx, control, func() error { return p.session.Seek(loop.From) })
		return true
	}
	if p.session.Position() >= p.session.Len() {
		return false
	}
	p.run(ctx, control, p.session.Redo)
	return true
}

// takeLoop checks the link's loop= against the scenario the page opened
// (a lesson's start included): a range that fits is played over and over;
// one that does not is left out, and the embed bar (outside an embed, the
// page's alert) says why. The page opens all the same.
func (p *Playground) takeLoop() {
	o := &p.share.options
	o.Loop, o.LoopProblem = loopRange{}, ""
	if o.loopText == "" || p.session == nil {
		return
	}
	r, err := parseLoop(o.loopText, p.session.Len())
	if err != nil {
		o.LoopProblem = "This link's loop was ignored: " + err.Error() + "."
		if !o.Embed {
			p.addAlert(o.LoopProblem)
		}
		return
	}
	o.Loop = r
}

// playOnOpen starts play as the page opens when the link asks for it
// (play=1), or for a loop (loop=FROM-TO), which opens at step FROM.
func (p *Playground) playOnOpen(ctx app.Context) {
	o := p.share.options
	if p.session == nil || !o.Play && !o.Loop.set() {
		return
	}
	if o.Loop.set() && p.session.Position() != o.Loop.From {
		p.run(ctx, embedControl, func() error { return p.session.Seek(o.Loop.From) })
	}
	p.handlePlay(ctx, app.Action{Value: playRequest{Start: true}})
}
