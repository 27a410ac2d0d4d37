package app

import (
	"fmt"
	"runtime"
	"time"

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
	err     string            // why the last scenario or command could not be (fully) applied
	ready   bool              // the scenario from the URL has been applied

	urlUpdates int // counts scheduled URL updates; only the latest runs
}

// OnMount applies the scenario in the URL, then marks the page ready: tests
// and embedding pages wait for main[data-ready="true"].
func (p *Playground) OnMount(ctx app.Context) {
	ctx.Handle(applyAction, p.handleApply)
	p.applyLink(ctx.Page().URL().Fragment)
	p.ready = true
}

// applyAction is the go-app action by which any component changes the state.
const applyAction = "plog/apply"

// Apply asks the page to run one line of the scenario language. Every
// gesture in the UI ends here, so the script stays the source of truth:
// undo, time travel and share links all follow from it.
func Apply(ctx app.Context, line string) {
	ctx.NewActionWithValue(applyAction, line)
}

// handleApply runs a line against the session. On error the state is
// untouched and the alert says why; on success the view and, a moment later,
// the URL follow.
func (p *Playground) handleApply(ctx app.Context, a app.Action) {
	line, ok := a.Value.(string)
	if !ok || p.session == nil {
		return
	}
	if _, err := p.session.Apply(line); err != nil {
		p.err = err.Error()
		return
	}
	view, err := snapshotLog(p.session.Log(), nil)
	p.view, p.err = view, ""
	if err != nil {
		p.err = err.Error()
	}
	p.scheduleURLUpdate(ctx)
}

// urlDebounce is how long the URL waits for the state to settle: a burst of
// commands rewrites it once, and the browser's history is not flooded.
const urlDebounce = 400 * time.Millisecond

// scheduleURLUpdate writes the session's link into the URL fragment once no
// command has come for urlDebounce. It replaces the history entry rather than
// adding one: back leaves the playground, as a learner expects.
func (p *Playground) scheduleURLUpdate(ctx app.Context) {
	p.urlUpdates++
	pending := p.urlUpdates
	ctx.After(urlDebounce, func(ctx app.Context) {
		if pending != p.urlUpdates || p.session == nil {
			return
		}
		link, err := scenario.EncodeLink(p.session.Script())
		if err != nil {
			p.err = "This scenario no longer fits in a link: " + err.Error()
			return
		}
		p.link = link // the fragment now says what the page shows: no reload on OnNav
		u := *ctx.Page().URL()
		u.Fragment = link
		ctx.Page().ReplaceURL(&u)
	})
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
	view, err := snapshotLog(p.session.Log(), nil)
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
