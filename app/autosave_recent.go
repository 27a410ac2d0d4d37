package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// RecentScenarios lists the scenarios the learner worked on in this
// browser, newest first, and opens one; it also starts a new scenario and
// opens a .plog file (or one dropped anywhere on the page).
type RecentScenarios struct {
	app.Compo

	Recent  []recentScenario
	Current string // the workspace shown now
}

// OnMount has the page read the recent list again as the panel opens: the
// page's other tabs may have saved since.
func (r *RecentScenarios) OnMount(ctx app.Context) {
	ctx.NewAction(recentAction)
}

// recentAction asks the page to read the recent list again.
const recentAction = "plog/recent"

// handleRecent reads the recent list again.
func (p *Playground) handleRecent(ctx app.Context, a app.Action) {
	b := currentBrowser()
	if !p.share.options.Embed && b.StorageProblem() == "" && !p.share.stored.keep[recentKey] {
		p.share.recent = p.storedRecent(b)
	}
}

// storedRecent is the recent list as stored, with the entries that wait
// for the next save.
func (p *Playground) storedRecent(b Browser) []recentScenario {
	recent := p.loadRecent(b)
	for _, e := range p.share.asides {
		recent, _ = withRecent(recent, e)
	}
	return recent
}

// openFileInput is the id of the file picker.
const openFileInput = "open-file"

func open(id, fragment string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		ctx.NewActionWithValue(openAction, openRequest{ID: id, Fragment: fragment})
	}
}

// pickFile reads the picked file off the UI goroutine: reading waits for
// the browser.
func (r *RecentScenarios) pickFile(ctx app.Context, e app.Event) {
	b := currentBrowser()
	ctx.Async(func() {
		f, err := b.ReadPickedFile(openFileInput)
		ctx.Dispatch(func(ctx app.Context) {
			ctx.NewActionWithValue(fileAction, fileOpened{File: f, Err: err})
		})
	})
}

// Render draws the panel.
func (r *RecentScenarios) Render() app.UI {
	return app.Section().ID("scenarios-panel").Class("panel", "scenarios-panel").Aria("label", "scenarios").Body(
		panelHead("Scenarios", "scenarios"),
		app.Div().Class("row").Body(
			app.Button().Type("button").ID("new-scenario").OnClick(open("", "")).Text("New scenario"),
			// The first visit's small system, for a learner who came back
			// to a saved workspace and wants the demo again (a walk found
			// no way back to it).
			app.Button().Type("button").ID("starter-scenario").Class(roleSecondary.classes()...).
				OnClick(open("", starterFragment())).Text("A small running system"),
		),
		field(openFileInput, "Open a .plog scenario or a .lesson file (or drop one on the page)",
			app.Input().Type("file").ID(openFileInput).Accept(".plog,.lesson,.txt,text/plain").OnChange(r.pickFile)),
		app.If(len(r.Recent) == 0,
			app.P().Class("hint").Text("Scenarios you work on are kept in this browser and listed here."),
		).Else(
			app.H3().Text("Recent"),
			app.Ul().Class("recent").Body(
				app.Range(r.Recent).Slice(func(i int) app.UI {
					s := r.Recent[i]
					saved := time.UnixMilli(s.Saved).Format("2 Jan 15:04")
					// The entry (its id and when it was saved) is the
					// handler's scope: go-app reuses a button whose place
					// another entry held, and would keep that entry's
					// handler otherwise.
					b := app.Button().Type("button").Class("recent-open").DataSet("recent", s.ID).
						OnClick(open(s.ID, s.Fragment), s.ID, s.Saved).Text(s.Title)
					li := app.Li().DataSet("recent", s.ID)
					if s.ID == r.Current {
						li = li.Class("current").Aria("current", "true")
					}
					return li.Body(b, app.Span().Class("hint").Text(" "+countOf(s.Steps, "step")+" · "+saved))
				}),
			),
		),
	)
}
