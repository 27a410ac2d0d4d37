package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// The dock's tabs are WAI-ARIA's tabs, driven from the keyboard: Tab
// reaches the tab shown alone, the arrow keys go round the tabs, Home and
// End go to the first and the last, and each tab they reach has the focus,
// is selected and shows its panel; a selection's inspector joins them.
func TestUIDockTabsByKeyboard(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, pictureScenario)
	b.waitCount(t, `[data-dock-tab]`, 4)
	// The tab the focus is on, and that it alone is selected, in the tab
	// order and with its panel shown.
	state := `(() => {
		const el = document.activeElement, tabs = [...document.querySelectorAll("[role=tablist] [role=tab]")];
		if (!el || el.getAttribute("role") !== "tab") return "the focus is not on a tab";
		const panel = document.getElementById(el.getAttribute("aria-controls"));
		const wrong = tabs.filter(t => (t.getAttribute("aria-selected") === "true") !== (t === el) || (t.tabIndex === 0) !== (t === el));
		if (wrong.length) return "tabs selected or in the tab order: " + wrong.map(t => t.dataset.dockTab + " " + t.getAttribute("aria-selected") + " " + t.tabIndex).join(", ");
		if (!panel || panel.getAttribute("role") !== "tabpanel" || panel.hidden || panel.getAttribute("aria-labelledby") !== el.id) return "the panel of " + el.dataset.dockTab + " is not shown";
		return el.dataset.dockTab })()`
	at := func(want string) {
		t.Helper()
		b.waitFor(t, fmt.Sprintf(`%s === %s`, state, js(want)))
	}
	b.focus(t, `[data-dock-tab][aria-selected=true]`)
	at("produce")
	for _, step := range []struct{ key, want string }{
		{kb.ArrowRight, "topics"}, {kb.ArrowRight, "time"}, {kb.End, "cluster"}, {kb.ArrowRight, "produce"},
		{kb.ArrowLeft, "cluster"}, {kb.Home, "produce"}, {kb.ArrowLeft, "cluster"},
	} {
		b.key(t, step.key)
		at(step.want)
	}
	if got := eval[string](t, b, `document.querySelector("[role=tablist]").getAttribute("aria-label")`); got == "" {
		t.Error("the tablist has no label")
	}

	// A group's inspector is a tab too, the last.
	b.click(t, group("billing")+" [data-action=inspect-group]")
	b.waitFor(t, shown(`[data-inspector=group][data-inspector-group=billing]`))
	b.focus(t, `[data-dock-tab=inspector]`)
	at("inspector")
	b.key(t, kb.Home)
	at("produce")
	b.key(t, kb.End)
	at("inspector")
	b.key(t, kb.ArrowRight)
	at("produce")
	b.noErrors(t)
}

// What a learner types into a tab's form is still there after another
// tab (its panel stays drawn, hidden), and the produce shortcut sends the
// produce form's record while another tab is shown, the topic made from
// the command line.
func TestUIDockTabsKeepTheirForms(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	b.click(t, `[data-dock-tab=time]`)
	b.waitFor(t, shown(`#producer-rate`))
	b.fill(t, `#producer-rate`, "25/s")
	b.typeInCommandLine(t, "topic orders partitions=1", kb.Enter)
	lane := `[data-topic=orders][data-partition="0"]`
	b.waitCount(t, lane, 1)
	b.press(t, "p")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.highWatermark === "1"`, js(lane)))
	if tab := b.attr(t, `[data-dock-tab][aria-selected=true]`, "data-dock-tab"); tab != "time" {
		t.Errorf("the tab shown after the shortcut is %q, want time", tab)
	}
	b.click(t, `[data-dock-tab=cluster]`)
	b.waitFor(t, shown(`[data-dock-panel=cluster] [data-command=brokers]`))
	b.click(t, `[data-dock-tab=time]`)
	b.waitFor(t, shown(`#producer-rate`))
	if got := eval[string](t, b, `document.querySelector("#producer-rate").value`); got != "25/s" {
		t.Errorf("the producer's rate typed before another tab is %q after it, want 25/s", got)
	}
	b.noErrors(t)
}
