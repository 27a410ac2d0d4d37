package app

import (
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ShareMenu sits in the masthead: Share opens the share dialog (the link,
// the file, the iframe snippet), Scenarios the list of recent scenarios and
// the ways to open one. It also says, once, what the page has to say about
// storage or a reopened workspace.
type ShareMenu struct {
	app.Compo

	Lines    []string // the whole history
	Position int
	Rules    int // the rules the scenario runs under; 0 is the latest
	Options  linkOptions
	Base     string // the page's URL without fragment
	Recent   []recentScenario
	Current  string // the workspace's id
	Notice   string

	open      string // "share", "scenarios" or ""
	dismissed string // the notice the learner closed
}

func (m *ShareMenu) toggle(panel string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		if m.open == panel {
			m.open = ""
		} else {
			m.open = panel
		}
	}
}

// panelButton opens and closes a panel; it names the panel it controls
// while the panel is there.
func (m *ShareMenu) panelButton(panel, panelID, label string) app.UI {
	b := app.Button().Type("button").ID(panel+"-open").Class(roleSecondary.classes()...).Aria("expanded", m.open == panel).
		OnClick(m.toggle(panel)).Text(label)
	if m.open == panel {
		b = b.Aria("controls", panelID)
	}
	return b
}

// OnMount closes the Scenarios panel once a scenario opens from it (New
// scenario, or one of the recent), and the Share panel once the lesson
// editor opens from it: the panel hangs over the page, and would hide
// what the learner asked for.
func (m *ShareMenu) OnMount(ctx app.Context) {
	ctx.Handle(openAction, func(ctx app.Context, a app.Action) {
		if m.open == "scenarios" {
			m.open = ""
		}
	})
	ctx.Handle(closePanelAction, func(ctx app.Context, a app.Action) { m.open = "" })
	// Make a lesson, from Share, opens the editor in the page's centre,
	// which the panel would cover.
	ctx.Handle(lessonAction, func(ctx app.Context, a app.Action) {
		if r, ok := a.Value.(lessonRequest); ok && r.Kind == "edit" {
			m.open = ""
		}
	})
}

// closePanelAction closes the open panel: its own ✕ sends it.
const closePanelAction = "plog/close-panel"

// panelHead is a popover panel's title with its close button, which stays
// at the panel's top as it scrolls: on a phone the panel is taller than
// the screen, and the button that opened it is out of sight.
func panelHead(title, panel string) app.UI {
	return app.Div().Class("panel-head").Body(
		app.H2().Text(title),
		app.Button().Type("button").ID(panel+"-close").Class(append(roleSecondary.classes(), "panel-close")...).Aria("label", "Close "+strings.ToLower(title)).
			OnClick(func(ctx app.Context, e app.Event) { ctx.NewAction(closePanelAction) }).Text("✕"),
	)
}

func (m *ShareMenu) dismiss(ctx app.Context, e app.Event) {
	m.dismissed = m.Notice
}

// closeOnEscape closes the open panel.
func (m *ShareMenu) closeOnEscape(ctx app.Context, e app.Event) {
	if e.Get("key").String() == "Escape" {
		m.open = ""
	}
}

// Render draws the two buttons, the open panel and the notice.
func (m *ShareMenu) Render() app.UI {
	return app.Div().Class("share-menu").OnKeyDown(m.closeOnEscape).Body(
		app.Div().Class("row", "share-buttons").Body(
			m.panelButton("share", "share-dialog", "Share"),
			m.panelButton("scenarios", "scenarios-panel", "Scenarios"),
		),
		m.notice(),
		app.If(m.open == "share",
			&ShareDialog{Lines: m.Lines, Position: m.Position, Rules: m.Rules, Options: m.Options, Base: m.Base},
		),
		app.If(m.open == "scenarios",
			&RecentScenarios{Recent: m.Recent, Current: m.Current},
		),
	)
}

// notice is the page's notice with its OK button, or while there is none
// (or it was dismissed) an empty, hidden place with no role or class of a
// notice: the panels after it keep their places, and go-app updates them
// rather than making them anew when a notice comes or goes (playground.go's
// slots).
func (m *ShareMenu) notice() app.UI {
	if m.Notice == "" || m.Notice == m.dismissed {
		return app.P().Class("notice-slot").Hidden(true)
	}
	return app.P().Class("notice").Attr("role", "status").Body(
		app.Text(m.Notice+" "),
		app.Button().Type("button").Class("link-button").ID("notice-dismiss").
			OnClick(m.dismiss).Text("OK"),
	)
}

// shareMenu is the page's ShareMenu.
func (p *Playground) shareMenu() app.UI {
	var lines []string
	position := 0
	if p.session != nil {
		lines, position = p.session.Lines(), p.session.Position()
	}
	return &ShareMenu{
		Lines:    lines,
		Position: position,
		Rules:    p.rules(),
		Options:  p.linkOptions(),
		Base:     p.share.base,
		Recent:   p.share.recent,
		Current:  p.share.workspace,
		Notice:   p.share.notice,
	}
}
