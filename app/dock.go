package app

import (
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The dock is the picture's left side: the open lesson on top, so that its
// goal, progress and hints stay in view, and below it the tools, one tab at
// a time: produce, new topic, time and workloads, the cluster, and the
// inspector of the thing selected. A tab's panel is drawn from the first
// time the tab is shown, or a moment after the page is ready
// (hiddenPanelsDelay), whichever comes first, and stays drawn, hidden,
// while another tab is: its controls keep their state. So the page's
// first render, which the learner waits for, draws the tab shown alone
// (533 elements on the empty playground rather than 818, BENCHMARKS.md),
// and the hidden forms are drawn once the page is up.

// hiddenPanelsDelay is how long after the page is ready the tabs not shown
// yet are drawn: long enough for the browser to paint the ready page
// first.
const hiddenPanelsDelay = 100 * time.Millisecond

// dockAction asks the page to show a tab of the dock (value: dockRequest).
const dockAction = "plog/dock"

// foldToolsAction folds the tools away under the open lesson.
const foldToolsAction = "plog/fold-tools"

// dockRequest shows a tab; Topic, for the produce tab, chooses the topic
// the records go to.
type dockRequest struct {
	Tab   string
	Topic string
}

// The dock's tabs.
const (
	dockProduce   = "produce"
	dockTopics    = "topics"
	dockTime      = "time"
	dockCluster   = "cluster"
	dockInspector = "inspector"
)

// dockTab is one tab: its name and its label.
type dockTab struct{ name, label string }

// dockTabs lists the tabs in order; the inspector's shows once something
// is selected.
func dockTabs(inspecting bool) []dockTab {
	tabs := []dockTab{{dockProduce, "Produce"}, {dockTopics, "Topics"}, {dockTime, "Time"}, {dockCluster, "Cluster"}}
	if inspecting {
		tabs = append(tabs, dockTab{dockInspector, "Inspector"})
	}
	return tabs
}

// dockTabBar draws the tabs as WAI-ARIA's tabs pattern: a tablist of tabs,
// each with aria-selected and aria-controls its panel, and one stop of the
// Tab key, the tab shown; from it the arrow keys, Home and End move to
// another tab and show it (onTabKey). active is the tab shown, or the one
// a press would show while the tools are folded: then no tab is selected.
// Under a lesson a chevron before the tabs folds the tools or shows them:
// the bar is as narrow as the dock (four tabs and the chevron in 285 px).
func dockTabBar(active string, inspecting, folded, inLesson bool) app.UI {
	tabs := dockTabs(inspecting)
	fold, foldLabel := "▾", "Fold the tools away: the lesson takes the column"
	if folded {
		fold, foldLabel = "▸", "Show the tools"
	}
	return app.Div().Class("dock-toolbar").Body(
		app.Button().Type("button").Class("quiet", "dock-fold").DataSet("action", "fold-tools").
			Aria("expanded", !folded).Aria("controls", "dock-"+active).
			Aria("label", foldLabel).Title(foldLabel).Hidden(!inLesson).
			OnClick(func(ctx app.Context, e app.Event) {
				if folded {
					ctx.NewActionWithValue(dockAction, dockRequest{Tab: active})
					return
				}
				ctx.NewAction(foldToolsAction)
			}, folded, active).
			Text(fold),
		app.Div().Class("dock-tabs").Attr("role", "tablist").Aria("label", "tools").Body(
			app.Range(tabs).Slice(func(i int) app.UI {
				t := tabs[i]
				tabIndex := -1
				if t.name == active {
					tabIndex = 0
				}
				return app.Button().Type("button").ID("dock-tab-"+t.name).Class("dock-tab").
					Attr("role", "tab").Aria("selected", t.name == active && !folded).Aria("controls", "dock-"+t.name).
					TabIndex(tabIndex).DataSet("dock-tab", t.name).
					OnClick(func(ctx app.Context, e app.Event) {
						ctx.NewActionWithValue(dockAction, dockRequest{Tab: t.name})
					}, t.name).
					OnKeyDown(func(ctx app.Context, e app.Event) { onTabKey(ctx, e, tabs, i) }, t.name, len(tabs)).
					Text(t.label)
			}),
		),
	)
}

// toolsWord is the dock's data-tools: whether its tools are folded.
func toolsWord(folded bool) string {
	if folded {
		return "folded"
	}
	return "open"
}

// tabAfterKey is the tab a key moves to from tab i of n: left and right
// go round, Home and End go to the first and the last; ok is false for
// any other key.
func tabAfterKey(key string, i, n int) (int, bool) {
	switch key {
	case "ArrowRight":
		return (i + 1) % n, true
	case "ArrowLeft":
		return (i + n - 1) % n, true
	case "Home":
		return 0, true
	case "End":
		return n - 1, true
	}
	return i, false
}

// onTabKey moves the focus to the tab a key chooses, and shows it.
func onTabKey(ctx app.Context, e app.Event, tabs []dockTab, i int) {
	next, ok := tabAfterKey(e.Get("key").String(), i, len(tabs))
	if !ok {
		return
	}
	e.PreventDefault()
	name := tabs[next].name
	if el := app.Window().GetElementByID("dock-tab-" + name); el.Truthy() {
		el.Call("focus")
	}
	ctx.NewActionWithValue(dockAction, dockRequest{Tab: name})
}

// dockPanel is one tab's panel, hidden unless active, and empty until the
// tab is first shown.
func dockPanel(name, active string, shown map[string]bool, body ...app.UI) app.UI {
	if !shown[name] {
		body = nil
	}
	return app.Div().ID("dock-"+name).Class("dock-panel").Attr("role", "tabpanel").
		Aria("labelledby", "dock-tab-"+name).DataSet("dock-panel", name).
		Hidden(name != active).Body(body...)
}

// toolsFolded reports whether the dock's tools are folded away: in a
// lesson until the learner opens a tab there (a tab, a topic's produce
// button, a hint's control, a thing selected in the picture), so that the
// lesson's goal, progress and hints have the column and the controls the
// lesson needs are the picture's own. Outside a lesson the tools are the
// playground: they stay open.
func (p *Playground) toolsFolded() bool {
	return p.lesson.current != nil && p.toolsOpenIn != p.lesson.key
}

// showTab shows a tab of the dock, unfolding the tools.
func (p *Playground) showTab(tab string) {
	p.dock = tab
	p.toolsOpenIn = p.lesson.key
}

// handleFoldTools folds the tools away under the open lesson.
func (p *Playground) handleFoldTools(ctx app.Context, a app.Action) {
	p.toolsOpenIn = ""
}
