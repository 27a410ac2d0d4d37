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
// another tab and show it (onTabKey). active is the tab shown.
func dockTabBar(active string, inspecting bool) app.UI {
	tabs := dockTabs(inspecting)
	return app.Div().Class("dock-tabs").Attr("role", "tablist").Aria("label", "tools").Body(
		app.Range(tabs).Slice(func(i int) app.UI {
			t := tabs[i]
			tabIndex := -1
			if t.name == active {
				tabIndex = 0
			}
			return app.Button().Type("button").ID("dock-tab-"+t.name).Class("dock-tab").
				Attr("role", "tab").Aria("selected", t.name == active).Aria("controls", "dock-"+t.name).
				TabIndex(tabIndex).DataSet("dock-tab", t.name).
				OnClick(func(ctx app.Context, e app.Event) {
					ctx.NewActionWithValue(dockAction, dockRequest{Tab: t.name})
				}, t.name).
				OnKeyDown(func(ctx app.Context, e app.Event) { onTabKey(ctx, e, tabs, i) }, t.name, len(tabs)).
				Text(t.label)
		}),
	)
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
