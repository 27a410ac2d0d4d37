package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The dock's tabs follow WAI-ARIA's tabs pattern: the tab shown is the one
// stop of the Tab key, selected and controlling its panel; the arrow keys
// go round the tabs, Home and End to the first and the last.
func TestDockTabsAreAnARIATabList(t *testing.T) {
	p, d := mountAt(t, mustLink(t, ordersScenario))
	page := app.HTMLString(p)
	if len(tagsWith(page, "role", "tablist")) != 1 {
		t.Fatal("no tablist")
	}
	for _, tab := range dockTabs(false) {
		shown := tab.name == dockProduce
		index, selected := "-1", "false"
		if shown {
			index, selected = "0", "true"
		}
		if len(tagsWith(page, "role", "tab", "data-dock-tab", tab.name, "tabindex", index, "aria-selected", selected,
			"aria-controls", "dock-"+tab.name)) != 1 {
			t.Errorf("tab %s: not a tab with tabindex %s, aria-selected %s and aria-controls dock-%s", tab.name, index, selected, tab.name)
		}
		if len(tagsWith(page, "role", "tabpanel", "id", "dock-"+tab.name, "aria-labelledby", "dock-tab-"+tab.name)) != 1 {
			t.Errorf("no tabpanel dock-%s labelled by its tab", tab.name)
		}
	}
	d.Context().NewActionWithValue(selectAction, selection{Kind: selectTopic, Topic: "orders"})
	d.Consume()
	if len(tagsWith(app.HTMLString(p), "data-dock-tab", dockInspector, "tabindex", "0", "aria-selected", "true")) != 1 {
		t.Error("selecting a topic does not select the inspector's tab")
	}
	for _, c := range []struct {
		key     string
		from, n int
		to      int
		ok      bool
	}{
		{"ArrowRight", 0, 4, 1, true}, {"ArrowRight", 3, 4, 0, true}, {"ArrowLeft", 0, 5, 4, true},
		{"ArrowLeft", 2, 4, 1, true}, {"Home", 3, 5, 0, true}, {"End", 1, 5, 4, true}, {"a", 1, 4, 1, false},
	} {
		if to, ok := tabAfterKey(c.key, c.from, c.n); to != c.to || ok != c.ok {
			t.Errorf("%s from tab %d of %d: %d %v, want %d %v", c.key, c.from, c.n, to, ok, c.to, c.ok)
		}
	}
}

// showEveryTab shows each of the dock's tabs once, as a learner who clicks
// through them, so that every panel is drawn.
func showEveryTab(d app.ClientDispatcher) {
	for _, tab := range dockTabs(false) {
		d.Context().NewActionWithValue(dockAction, dockRequest{Tab: tab.name})
		d.Consume()
	}
}

// panelBody is what the page draws inside a tab's panel.
func panelBody(t *testing.T, p *Playground, name string) string {
	t.Helper()
	page := app.HTMLString(p)
	open := `data-dock-panel="` + name + `"`
	i := strings.Index(page, open)
	if i < 0 {
		t.Fatalf("no panel %s", name)
	}
	body := page[strings.Index(page[i:], ">")+i+1:]
	return body[:strings.Index(body, `role="tabpanel"`)]
}

// A tab's panel is drawn from the first time it is shown, and stays drawn
// when another is: the page on a first visit (the starter, which has a
// topic) draws the produce form, and the new topic form the page drew
// before it opened the starter, not the others; the Time tab, once shown, keeps its
// controls (hidden) after the learner goes back; a moment after the page
// is ready, every tab is drawn.
func TestDockPanelsAreDrawnOnceShown(t *testing.T) {
	p := newTestPlayground()
	d := app.NewClientTester(p)
	t.Cleanup(d.Close)
	if !strings.Contains(panelBody(t, p, dockProduce), `data-command="produce"`) {
		t.Errorf("the produce tab, shown, has no produce form")
	}
	for _, name := range []string{dockTime, dockCluster} {
		if strings.Contains(panelBody(t, p, name), "data-command") {
			t.Errorf("the %s tab, never shown, is drawn", name)
		}
	}
	d.Context().NewActionWithValue(dockAction, dockRequest{Tab: dockTime})
	d.Consume()
	d.Context().NewActionWithValue(dockAction, dockRequest{Tab: dockProduce})
	d.Consume()
	if body := panelBody(t, p, dockTime); !strings.Contains(body, `data-command="advance"`) {
		t.Errorf("the time tab, shown once, is not drawn after going back:\n%s", body)
	}
	if strings.Contains(panelBody(t, p, dockCluster), "data-command") {
		t.Error("the cluster tab, never shown, is drawn")
	}
	clockOf(t, p).Step(d, hiddenPanelsDelay)
	if !strings.Contains(panelBody(t, p, dockCluster), "data-command") {
		t.Errorf("the %s tab is not drawn %s after the page is ready", dockCluster, hiddenPanelsDelay)
	}
}

// In a lesson the tools start folded, no tab selected and no panel shown,
// so that the lesson has the column; a tab, a topic's produce button or a
// thing selected opens them, the chevron folds them again, and the next
// lesson starts folded. Outside a lesson they stay open, with no chevron.
func TestALessonFoldsTheToolsAway(t *testing.T) {
	p, d := mountAt(t, "lesson=key-order")
	folded := func() bool {
		t.Helper()
		page := app.HTMLString(p)
		f := len(tagsWith(page, "data-tools", "folded")) == 1
		if f != (len(tagsWith(page, "role", "tab", "aria-selected", "true")) == 0) {
			t.Fatalf("data-tools folded %v, but the tabs say otherwise", f)
		}
		if f != (countHidden(tagsWith(page, "role", "tabpanel")) == len(dockTabs(true))) {
			t.Fatalf("data-tools folded %v, but the panels say otherwise", f)
		}
		return f
	}
	act := func(name string, value any) {
		d.Context().NewActionWithValue(name, value)
		d.Consume()
	}
	if !folded() {
		t.Fatal("lesson key-order opens with its tools open")
	}
	if len(tagsWith(app.HTMLString(p), "data-action", "fold-tools", "aria-expanded", "false")) != 1 {
		t.Error("no chevron that shows the folded tools")
	}
	act(dockAction, dockRequest{Tab: dockProduce, Topic: "orders"})
	if folded() {
		t.Fatal("the topic's produce button leaves the tools folded")
	}
	act(foldToolsAction, nil)
	if !folded() {
		t.Fatal("the chevron does not fold the tools")
	}
	act(selectAction, selection{Kind: selectTopic, Topic: "orders"})
	if folded() {
		t.Fatal("selecting a topic leaves the inspector folded away")
	}
	act(foldToolsAction, nil)
	d.Context().Dispatch(func(app.Context) { p.applyLink("lesson=exactly-once") })
	d.Consume()
	if !folded() {
		t.Error("the next lesson opens with the tools open")
	}

	p, _ = mountAt(t, mustLink(t, ordersScenario))
	if folded() {
		t.Error("outside a lesson the tools are folded")
	}
	if countHidden(tagsWith(app.HTMLString(p), "data-action", "fold-tools")) != 1 {
		t.Error("outside a lesson the chevron shows")
	}
}

// countHidden counts the tags that are hidden.
func countHidden(tags []string) int {
	n := 0
	for _, tag := range tags {
		if strings.Contains(tag, " hidden>") || strings.Contains(tag, " hidden ") {
			n++
		}
	}
	return n
}
