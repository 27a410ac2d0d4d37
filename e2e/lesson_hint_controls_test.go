package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Every hint of every built-in lesson points at the controls it names: the
// learner reveals the hints, presses each control's name in them, and sees
// the control highlighted inside the window, in the tab or the inspector
// that holds it; a control of a thing the lesson has not made yet (a
// member that joins later) says so beside the hints, and points once the
// learner has typed the lesson's solution into the command line. The
// progress line's control names point too, at every step of the solution
// and of each wrong attempt.
func TestEveryHintPointsAtItsControl(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)
	progressPressed := 0
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
			refs := eval[[]string](t, b, fmt.Sprintf(`Array.from(document.querySelectorAll(%s)).map(el => el.dataset.controlRef)`, js(hintControls)))
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
				if !b.points(t, hintControls, i) {
					later = append(later, i)
				}
			}
			// The things the start lacks come with the solution; the
			// progress line names what to press on the way.
			progress := progressPointer{b: b, l: l, pressed: map[string]bool{}}
			progress.walk(t, l.Solution)
			b.waitQuiet(t)
			for _, i := range later {
				if !b.points(t, hintControls, i) {
					t.Errorf("hint control %s: %s, even after the solution", refs[i], eval[string](t, b, `(document.querySelector(".point-missing") || {}).textContent || "nothing said"`))
				}
			}
			start, err := scenario.Parse(l.Script)
			if err != nil {
				t.Fatal(err)
			}
			for _, wrong := range l.WrongAttempts {
				// The lesson again from its start, as its link opens it.
				eval[string](t, b, fmt.Sprintf(`location.hash = %s`, js("#lesson="+l.Name)))
				b.waitFor(t, fmt.Sprintf(`document.querySelector(".timeline").dataset.length === "%d"`, len(start)))
				progress.walk(t, wrong)
			}
			t.Logf("the progress line named %d controls", len(progress.pressed))
			progressPressed += len(progress.pressed)
		})
	}
	if progressPressed == 0 {
		t.Error("no progress line named a control: the walks pressed none")
	}
	b.noErrors(t)
}

// The control names of the hints, and of the progress line.
const (
	hintControls     = "[data-lesson-panel] [data-hint] [data-control-ref]"
	progressControls = "[data-lesson-panel] [data-lesson-progress] [data-control-ref]"
)

// progressPointer walks a lesson's steps from its start, typed into the
// command line, and presses each control the progress line names on the
// way, once.
type progressPointer struct {
	b       *browser
	l       lesson.Lesson
	pressed map[string]bool // the controls pressed, as reference|label
}

// walk types a script's lines into the lesson, which is at its start,
// and after each, and before the first, presses the progress line's
// controls not pressed before: each must point at its control inside the
// window, or say why not where the learner reads it.
func (p *progressPointer) walk(t *testing.T, script string) {
	t.Helper()
	b := p.b
	var done []string
	p.press(t, done)
	for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
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
		done = append(done, line)
		p.press(t, done)
	}
}

// press presses the controls the progress line names after the lesson's
// start and lines, as package lesson says them.
func (p *progressPointer) press(t *testing.T, lines []string) {
	t.Helper()
	b := p.b
	want := lessonResult(t, p.l, lines...)
	b.waitProgress(t, p.l.Name, want.Progress)
	i := -1
	for _, in := range want.ProgressDoc {
		if in.Kind != lesson.InlineControl {
			continue
		}
		i++
		ref := in.Control.String()
		if got := eval[string](t, b, fmt.Sprintf(`(document.querySelectorAll(%s)[%d] || {dataset: {}}).dataset.controlRef || ""`, js(progressControls), i)); got != ref {
			t.Errorf("after %q the progress line's control %d is %q, want %q", lines, i+1, got, ref)
			continue
		}
		if p.pressed[ref+"|"+in.Text] {
			continue
		}
		p.pressed[ref+"|"+in.Text] = true
		if !b.points(t, progressControls, i) {
			t.Errorf("progress control %s after %q: %s", ref, lines, eval[string](t, b, `(document.querySelector(".point-missing") || {}).textContent || "nothing said"`))
		}
	}
}

// points presses the i-th control name that list finds and reports
// whether the page highlighted the control inside the window; when it did
// not, the page must say why, where the learner reads the hints.
func (b *browser) points(t *testing.T, list string, i int) bool {
	t.Helper()
	sel := fmt.Sprintf(`document.querySelectorAll(%s)[%d]`, js(list), i)
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
			t.Errorf("control %s is missing, and the sentence that says so is %s", ref, where)
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
				t.Errorf("control %s points at the box %s and leaves the focus elsewhere", ref, box)
			}
			return true
		}
		time.Sleep(100 * time.Millisecond) // a smooth scroll may still run
	}
	t.Errorf("control %s points at a control that is %s", ref, where)
	return true
}
