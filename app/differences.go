package app

import (
	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// differencesID is the element id of "How plog differs from Kafka", which
// the help's "differs from Kafka" links open.
const differencesID = "differences"

// differenceID is the element id of one entry.
func differenceID(name string) string { return "difference-" + name }

// Differences is the page's "How plog differs from Kafka": every deliberate
// simplification (core.Differences), each with what Kafka does, what plog
// does and why, under the Kafka version plog follows. It is part of the page
// itself, folded in the help panel (help_panel.go), so that it works
// wherever the page does: offline, under a sub-path, in a frame.
//
// In the browser the entries are drawn once the fold first opens: folded,
// they are out of sight, and mounting them was 74 ms of the page's first
// task on a 2-core machine (BENCHMARKS.md). The written page (natively)
// draws them, so that its HTML holds the whole list.
type Differences struct {
	app.Compo

	opened bool // the fold has been opened: its entries are drawn
	// showing is the entry (or "" for the list) the last showDifference
	// asked for, brought into view once drawn.
	showing string
}

// differencesAction asks the list to unfold and show an entry; value: its
// name, or "" for the list.
const differencesAction = "plog/differences"

// drawFoldedBodies says whether a fold's body is drawn before it opens:
// natively there is no learner to open it and the page written from the
// render must hold its text. A test sets it to follow the browser.
var drawFoldedBodies = !app.IsClient

// OnMount takes the requests to show an entry.
func (d *Differences) OnMount(ctx app.Context) {
	ctx.Handle(differencesAction, d.handleShow)
}

// Render draws the entries, folded; showDifference unfolds them.
func (d *Differences) Render() app.UI {
	var entries []core.Difference
	if d.opened || drawFoldedBodies {
		entries = core.Differences()
	}
	return app.Section().ID(differencesID).Class("panel", "differences").DataSet("differences", core.KafkaVersion).
		Aria("labelledby", differencesID+"-title").Body(
		app.Details().ID(differencesID+"-details").On("toggle", d.onToggle).Body(
			app.Summary().Body(app.H2().ID(differencesID+"-title").Text("How plog differs from Kafka")),
			app.P().Body(
				app.Text("plog follows Apache Kafka "+core.KafkaVersion+", the broker its conformance suite runs "+
					"against. Where it departs, it does so on purpose, and says so here: what Kafka does, what plog "+
					"does, and why. "),
				app.Code().Text("plogsim differences"),
				app.Text(" prints the same list."),
			),
			app.Range(entries).Slice(func(i int) app.UI {
				e := entries[i]
				return app.Article().ID(differenceID(e.Name)).Class("difference").DataSet("difference", e.Name).
					TabIndex(-1).Body(
					app.H3().Text(e.Title),
					app.P().Body(app.Strong().Text("Kafka "+e.Version+": "), app.Text(e.Kafka)),
					app.P().Body(app.Strong().Text("plog: "), app.Text(e.Plog)),
					app.P().Body(app.Strong().Text("Why: "), app.Text(e.Why)),
					app.If(e.Older != "",
						app.P().Class("difference-older").Body(app.Strong().Text("Links made before: "), app.Text(e.Older)),
					),
				)
			}),
		),
	)
}

// onToggle draws the entries the first time the learner opens the fold.
func (d *Differences) onToggle(ctx app.Context, e app.Event) {
	if ctx.JSSrc().Get("open").Bool() {
		d.opened = true
	}
}

// handleShow unfolds the list and, once its entries are drawn, brings the
// one asked for into view with the focus on it. The folding is the
// browser's own (a details element), so it is set in the page.
func (d *Differences) handleShow(ctx app.Context, a app.Action) {
	d.showing, _ = a.Value.(string)
	if details := app.Window().GetElementByID(differencesID + "-details"); details.Truthy() {
		details.Set("open", true)
	}
	d.opened = true
	name := d.showing
	ctx.Defer(func(ctx app.Context) {
		if name != d.showing {
			return // a later request wins
		}
		id := differencesID
		if name != "" {
			id = differenceID(name)
		}
		ctx.ScrollTo(id)
		if el := app.Window().GetElementByID(id); el.Truthy() && name != "" {
			el.Call("focus")
		}
	})
}

// showDifference unfolds the list and brings the entry named name (or the
// list, for "") into view with the focus on it.
func showDifference(ctx app.Context, name string) {
	ctx.NewActionWithValue(differencesAction, name)
}

// DiffersLink sits beside the help of a control where plog departs from
// Kafka and opens that entry of the list.
type DiffersLink struct {
	app.Compo

	Name string // a core.Differences entry
}

// Render draws the link, or nothing for a name with no entry.
func (l *DiffersLink) Render() app.UI {
	d, ok := core.LookupDifference(l.Name)
	if !ok {
		return app.Span().Class("differs-link", "empty")
	}
	return app.Button().Type("button").Class("differs-link").DataSet("difference-link", l.Name).
		Aria("controls", differencesID). // its entry is drawn once the list unfolds
		Title("How plog differs from Kafka: " + d.Title).
		OnClick(func(ctx app.Context, e app.Event) { showDifference(ctx, l.Name) }).
		Text("differs from Kafka")
}

// differsOf names, for a help topic, the entry of the list that says how
// plog departs from Kafka there; topics missing here follow Kafka.
var differsOf = map[string]string{
	"segment":         "segment.records",
	"retention":       "retention-check",
	"compaction":      "cleaner",
	"tombstone":       "keyless-records",
	"delete-records":  "delete-records",
	"timestamp":       "timestamps",
	"delivery":        "delivery",
	"lag-alert":       "lag.alert.records",
	"rebalance":       "rebalance-timing",
	"member-ordering": "member-ids",
	"workload":        "producer",
	"broker":          "replication",
	"replica":         "replication",
	"acks":            "replication",
	"named-producer":  "named-producers",
	"transaction":     "transactions",
	"isolation-level": "isolation-level",
	"share-group":     "share-groups",
}
