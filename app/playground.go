package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// Playground is the page's root: it boots the engine with the scenario in the
// URL fragment and shows what the engine holds. Everything the learner sees
// is a child of its <main>.
type Playground struct {
	app.Compo

	link  string // the URL fragment last applied; "" is the empty scenario
	view  LogSnapshot
	err   string // why the scenario in the URL could not be applied
	ready bool   // the scenario from the URL has been applied
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

// applyLink rebuilds the view from a scenario link. A link that cannot be
// read leaves an empty log and says why; it never stops the page.
func (p *Playground) applyLink(link string) {
	if p.ready && link == p.link {
		return
	}
	p.link = link
	view, err := snapshotFromLink(link)
	if err != nil {
		p.view, p.err = LogSnapshot{}, err.Error()
		return
	}
	p.view, p.err = view, ""
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
		)
}
