package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"plog/core/lesson"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Every hint of every built-in lesson points at the controls it names: the
// learner reveals the hints, presses each control's name in them, and sees
// the control highlighted inside the window, in the tab or the inspector
// that holds it; a control of a thing the lesson has not made yet (a
// member that joins later) says so beside the hints, and points once the
// learner has typed the lesson's solution into the command line.
func TestEveryHintPointsAtItsControl(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)
	for _, l := range lesson.All() {
		t.Run(l.Name, func(t *testing.T) {
			eval[string](t, b, fmt.Sprintf(`location.hash = %s`, js("#lesson="+l.Name)))
			b.waitFor(t, fmt.Sprintf(`(document.querySelector("#lesson-title") || {}).textContent === %s && !!document.querySelector(%s)`, js(l.Title), js(ready)))
			for i := range l.HintDocs {
				if b.count(t, fmt.Sprintf(`[data-hint="%d"]`, i)) > 0 {
					continue // shown before, in this browser
				}
				b.click(t, "#lesson-hint")
				b.waitCount(t, fmt.Sprintf(`[data-hint="%d"]`, i), 1)
				// The hint comes at the short panel's end: the panel shows
				// its first line.
				first := fmt.Sprintf(`(() => { const h = document.querySelector('[data-lesson-panel] [data-hint="%d"]').getBoundingClientRect();
					const p = document.querySelector("[data-lesson-panel]").getBoundingClientRect();
					return h.top >= p.top - 1 && h.top + 12 <= p.bottom && h.top >= 0 && h.top + 12 <= innerHeight })()`, i)
				if !b.eventually(first) {
					t.Errorf("hint %d, just shown, is out of the lesson panel's view", i+1)
				}
			}
			refs := eval[[]string](t, b, `Array.from(document.querySelectorAll("[data-control-ref]")).map(el => el.dataset.controlRef)`)
			want := 0
			for _, h := range l.HintDocs {
				for _, in := range h {
					if in.Kind == lesson.InlineControl {
						want++
					}
				}
			}
			if len(refs) != want {
				t.Fatalf("the hints draw %d controls' names, want %d", len(refs), want)
			}
			var later []int
			for i := range refs {
				if !b.points(t, i) {
					later = append(later, i)
				}
			}
			if len(later) == 0 {
				return
			}
			// The things the start lacks come with the solution.
			for _, line := range strings.Split(strings.TrimSpace(l.Solution), "\n") {
				if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				steps := eval[int](t, b, `document.querySelectorAll(".script-line").length`)
				eval[bool](t, b, `(document.querySelector("[data-command-line]").value = "") || true`)
				b.mouseClick(t, commandLine)
				// The line goes in at once, as pasted; Enter runs it.
				if _, err := chromedp.Call(b.ctx, input.InsertText, input.InsertTextParams{Text: line}); err != nil {
					t.Fatal(err)
				}
				b.do(t, chromedp.KeyEvent(kb.Enter))
				b.waitFor(t, fmt.Sprintf(`document.querySelectorAll(".script-line").length > %d`, steps))
			}
			b.waitQuiet(t)
			for _, i := range later {
				if !b.points(t, i) {
					t.Errorf("hint control %s: %s, even after the solution", refs[i], eval[string](t, b, `(document.querySelector(".point-missing") || {}).textContent || "nothing said"`))
				}
			}
		})
	}
	b.noErrors(t)
}

// points presses the i-th control name in the hints and reports whether
// the page highlighted the control inside the window; when it did not,
// the page must say why, where the learner reads the hints.
func (b *browser) points(t *testing.T, i int) bool {
	t.Helper()
	sel := fmt.Sprintf(`document.querySelectorAll("[data-control-ref]")[%d]`, i)
	ref := eval[string](t, b, sel+`.dataset.controlRef`)
	eval[bool](t, b, `document.querySelectorAll("[data-pointed]").forEach(el => el.removeAttribute("data-pointed")) || true`)
	// The learner's click, where the name is: mark the i-th name to find
	// it.
	eval[bool](t, b, `document.querySelectorAll("[data-pressing]").forEach(el => el.removeAttribute("data-pressing")) || `+sel+`.setAttribute("data-pressing", "") || true`)
	done := eval[string](t, b, `document.documentElement.dataset.pointDone || ""`)
	b.mouseClick(t, "[data-pressing]")
	b.waitFor(t, fmt.Sprintf(`(document.documentElement.dataset.pointDone || "") !== %s`, js(done)))
	if b.count(t, ".point-missing") > 0 {
		if where := onScreen(t, b, ".point-missing"); where != "" {
			t.Errorf("hint control %s is missing, and the sentence that says so is %s", ref, where)
		}
		if b.count(t, "[data-pointed]") == 0 {
			return false
		}
	}
	var where string
	for range 20 {
		if where = onScreen(t, b, "[data-pointed]"); where == "" {
			// A box pointed at takes the focus: the learner types at once.
			if box := eval[string](t, b, `(() => { const el = document.querySelector("[data-pointed]");
				return /^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && document.activeElement !== el ? (el.id || el.tagName) : "" })()`); box != "" {
				t.Errorf("hint control %s points at the box %s and leaves the focus elsewhere", ref, box)
			}
			return true
		}
		time.Sleep(100 * time.Millisecond) // a smooth scroll may still run
	}
	t.Errorf("hint control %s points at a control that is %s", ref, where)
	return true
}
