package app

import (
	"fmt"
	"runtime"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Playground is the page's root: it boots the engine with the scenario in the
// URL fragment and shows what the engine holds. Everything the learner sees
// is a child of its <main>.
type Playground struct {
	app.Compo

	link    string            // the URL fragment last applied; "" is the empty scenario
	session *scenario.Session // the scenario being played; the source of truth
	view    LogSnapshot       // what the engine holds, for rendering
	err     string            // why the scenario in the URL could not be (fully) applied
	ready   bool              // the scenario from the URL has been applied
}

// OnMount applies the scenario in the URL, then marks the page ready: tests
// and embedding pages wait for main[data-ready="true"].
func (p *Playground) OnMount(ctx app.Context) {
	p.applyLink(ctx.Page().URL().Fragment)
	p.ready = true
}

// OnNav fires when the fragment changes (a pasted link, back and forward).
func (p *Playground) OnNav(ctx app.Context) {
	p.applyLink(ctx.Page().URL().Fragment)
}

// applyLink replays the scenario a link carries. A link that cannot be read
// leaves the empty scenario; a script that fails part way keeps the commands
// before the failing line. Either way the page says why and keeps working.
func (p *Playground) applyLink(link string) {
	if p.ready && link == p.link {
		return
	}
	p.link = link
	defer func() {
		// The engine promises never to panic; this is the page's last line
		// of defence if it ever does, because a panic in wasm kills the page.
		if r := recover(); r != nil {
			p.session, p.view = scenario.NewSession(), LogSnapshot{}
			p.err = fmt.Sprintf("plog hit a bug while applying this scenario (please report it with the link): %v", r)
		}
	}()
	p.session, p.err = loadLink(link)
	view, err := snapshotLog(p.session.Log())
	if err != nil && p.err == "" {
		p.err = err.Error()
	}
	p.view = view
}

// loadLink returns the session a link fragment (without '#') describes, and
// why it is not all of it. The empty fragment is the empty scenario.
func loadLink(link string) (*scenario.Session, string) {
	if link == "" {
		return scenario.NewSession(), ""
	}
	script, err := scenario.DecodeLink(link)
	if err != nil {
		return scenario.NewSession(), "This link holds no scenario plog can read: " + err.Error()
	}
	session, err := scenario.Load(script)
	if session == nil {
		session = scenario.NewSession()
	}
	if err != nil {
		return session, "The scenario stopped early: " + err.Error()
	}
	return session, ""
}

// Render draws the page from the current snapshot.
func (p *Playground) Render() app.UI {
	return app.Main().
		Class("playground").
		DataSet("ready", p.ready).
		Body(
			app.Header().Class("masthead").Body(
				app.H1().Text("plog"),
				app.P().Text("a playground for Kafka's partitioned log"),
			),
			app.If(p.err != "",
				app.P().Class("alert").Aria("live", "assertive").Attr("role", "alert").Text(p.err),
			),
			&TopicList{Topics: p.view.Topics},
			app.Footer().Class("colophon").Body(
				app.Text("plog runs entirely in your browser. Engine built with "),
				// The browser tests read this to check that the served
				// wasm_exec.js belongs to the toolchain that built the wasm.
				app.Span().DataSet("go-version", runtime.Version()).Text(runtime.Version()),
				app.Text("."),
			),
		)
}
