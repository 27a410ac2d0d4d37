package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"plog/core"

	"github.com/chromedp/chromedp"
)

// The playground's browser tests drive the page as a learner does: they type
// into its controls, click, press keys, and read the page back through the
// attributes of docs/ARCHITECTURE.md.

// openPlayground serves the root site and opens the page on a scenario
// ("" for the empty one), waiting for main[data-ready="true"].
func openPlayground(t *testing.T, script string) *browser {
	t.Helper()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	if script == "" {
		b.open(t, s.URL)
		b.startEmpty(t)
		return b
	}
	b.open(t, s.URL+linkOf(t, script))
	return b
}

// startEmpty starts an empty scenario as a learner does: the bare address
// opens the starter on a first visit (app/starter.go), and Scenarios → New
// scenario empties the page and closes the panel.
func (b *browser) startEmpty(t *testing.T) {
	t.Helper()
	b.openScenarios(t)
	b.click(t, "#new-scenario")
	b.waitCount(t, "[data-topic][data-partition]", 0)
	b.waitCount(t, "#scenarios-panel", 0)
}

// waitQuiet waits until the page has stopped changing: its timeline's
// position and length, its address and its alerts the same over eight
// looks a quarter of a second apart. A burst of clicks queues its events
// on the page's one thread, which may still be working through them when
// the last click returns.
func (b *browser) waitQuiet(t *testing.T) {
	t.Helper()
	const signature = `(() => { const tl = document.querySelector("[data-timeline]");
		return [tl ? tl.dataset.position + "/" + tl.dataset.length : "", location.hash,
			Array.from(document.querySelectorAll("[role=alert]")).map(e => e.textContent).join("|")].join(" ") })()`
	deadline := time.Now().Add(readyTimeout)
	last, same := "", 0
	for same < 8 {
		if time.Now().After(deadline) {
			t.Fatalf("the page still changes after %s", readyTimeout)
		}
		now := eval[string](t, b, signature)
		if now == last {
			same++
		} else {
			last, same = now, 0
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// latestRulesLine begins a scenario that names the latest rules, as a
// link made today does: one made under older rules gets a notice in the
// timeline, a line more, which the layout tests do not measure.
var latestRulesLine = fmt.Sprintf("rules %d\n", core.LatestRules)

// js quotes a Go string as a JavaScript string literal.
func js(s string) string {
	q, _ := json.Marshal(s)
	return string(q)
}

// click clicks the element a selector finds, as a pointer or the Enter key
// would, and fails when there is none.
func (b *browser) click(t *testing.T, selector string) {
	t.Helper()
	ok := eval[bool](t, b, fmt.Sprintf(`(() => { const el = document.querySelector(%s); if (!el) return false; el.click(); return true })()`, js(selector)))
	if !ok {
		t.Fatalf("nothing to click at %s", selector)
	}
}

// fill types a value into a text box or picks it in a select, firing the
// events a learner's typing fires.
func (b *browser) fill(t *testing.T, selector, value string) {
	t.Helper()
	ok := eval[bool](t, b, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return false;
		el.value = %s;
		el.dispatchEvent(new Event("input", {bubbles: true}));
		el.dispatchEvent(new Event("change", {bubbles: true}));
		return true })()`, js(selector), js(value)))
	if !ok {
		t.Fatalf("nothing to fill at %s", selector)
	}
}

// setChecked ticks or unticks a checkbox.
func (b *browser) setChecked(t *testing.T, selector string, checked bool) {
	t.Helper()
	ok := eval[bool](t, b, fmt.Sprintf(`(() => {
		const el = document.querySelector(%s);
		if (!el) return false;
		if (el.checked !== %v) el.click();
		return true })()`, js(selector), checked))
	if !ok {
		t.Fatalf("no checkbox at %s", selector)
	}
}

// count is how many elements a selector finds.
func (b *browser) count(t *testing.T, selector string) int {
	t.Helper()
	return eval[int](t, b, fmt.Sprintf(`document.querySelectorAll(%s).length`, js(selector)))
}

// text is the text of the first element a selector finds, "" for none.
func (b *browser) text(t *testing.T, selector string) string {
	t.Helper()
	return eval[string](t, b, fmt.Sprintf(`(document.querySelector(%s) || {}).textContent || ""`, js(selector)))
}

// attr is an attribute of the first element a selector finds.
func (b *browser) attr(t *testing.T, selector, name string) string {
	t.Helper()
	return eval[string](t, b, fmt.Sprintf(`((document.querySelector(%s) || {getAttribute: () => ""}).getAttribute(%s)) || ""`, js(selector), js(name)))
}

// waitCount waits until a selector finds n elements.
func (b *browser) waitCount(t *testing.T, selector string, n int) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`document.querySelectorAll(%s).length === %d`, js(selector), n))
}

// waitText waits until the first element a selector finds contains text.
func (b *browser) waitText(t *testing.T, selector, text string) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`((document.querySelector(%s) || {}).textContent || "").includes(%s)`, js(selector), js(text)))
}

// press sends a key to the page with no control focused, as a shortcut.
func (b *browser) press(t *testing.T, key string) {
	t.Helper()
	eval[bool](t, b, `(() => { if (document.activeElement) document.activeElement.blur(); return true })()`)
	b.do(t, chromedp.KeyEvent(key))
}

// alertOf is the text of the alert shown beside a control, "" for none.
func (b *browser) alertOf(t *testing.T, control string) string {
	t.Helper()
	return b.text(t, fmt.Sprintf(`[data-control=%s][role=alert]`, js(control)))
}

// steps is how many lines the timeline holds.
func (b *browser) steps(t *testing.T) string {
	t.Helper()
	return b.attr(t, ".timeline", "data-length")
}

// chromedpKeys types keys into whatever has the focus.
func chromedpKeys(keys string) chromedp.Action[chromedp.Void] {
	return chromedp.KeyEvent(keys)
}

// eventually reports whether a JavaScript expression becomes true within
// readyTimeout, for tests that explain a failure before failing. (As long
// as waitFor: tests run side by side, and a busy machine is slow.)
func (b *browser) eventually(expression string) bool {
	deadline := time.Now().Add(readyTimeout)
	ctx, cancel := context.WithDeadline(b.ctx, deadline)
	defer cancel()
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expression, chromedp.EvalAwaitPromise))
		if err == nil && ok {
			return true
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}

// consoleTexts is what the page has written to its console.
func (b *browser) consoleTexts() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var texts []string
	for _, m := range b.console {
		texts = append(texts, string(m.Type)+": "+m.Text)
	}
	return texts
}

// groupInspector opens a group in the inspector as a learner does, by its
// name in the groups column, unless the inspector shows it already, and
// returns the inspector's selector: a group's configs, forms, lag table
// and charts are in it.
func (b *browser) groupInspector(t *testing.T, name string) string {
	t.Helper()
	inspector := fmt.Sprintf(`[data-inspector=group][data-inspector-group=%s]`, js(name))
	if !b.shown(t, inspector) {
		b.click(t, group(name)+" [data-action=inspect-group]")
		b.waitFor(t, shown(inspector))
	}
	return inspector
}
