package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A teacher opens a scenario, presses Present and steps through it in
// front of a room with a clicker's keys: the picture fills the window and
// is drawn larger, the tools are gone, the bar says the step and the
// command that made it, the narration shows; Page Up, the left arrow, Page
// Down and the space bar step, a step past the end is no step; the link
// keeps the view; Escape leaves it.
func TestPresenterStepsWithTheClickersKeys(t *testing.T) {
	t.Parallel()
	lines := strings.Split(strings.TrimSpace(ordersScenario), "\n")
	steps := len(lines)
	b := openPlayground(t, ordersScenario)
	laneHeight := `document.querySelector(".lane[data-topic=orders][data-partition='1']").getBoundingClientRect().height`
	before := eval[float64](t, b, laneHeight)

	b.click(t, "#present-open")
	b.waitFor(t, `document.querySelector("main").dataset.present === "true"`)
	position := func(n int) {
		t.Helper()
		b.waitFor(t, fmt.Sprintf(`document.querySelector(".present-position").dataset.position === "%d"`, n))
		if got := b.text(t, ".present-position"); got != fmt.Sprintf("step %d of %d", n, steps) {
			t.Errorf("the bar says %q at step %d", got, n)
		}
		if where := shownAt(t, b, ".present-position"); where != "shown" {
			t.Errorf("the step number is %s", where)
		}
		want := "the start: nothing has happened yet"
		if n > 0 {
			want = lines[n-1]
		}
		if got := b.text(t, ".present-line"); got != want {
			t.Errorf("at step %d the bar shows the command %q, want %q", n, got, want)
		}
	}
	position(steps)
	for _, gone := range []string{".dock", "main > .timeline", "main > .masthead", "[data-help]:not(:has(> .help-term))", ".skew", "[data-produce-to]"} {
		if n := eval[int](t, b, `Array.from(document.querySelectorAll(`+js(gone)+`)).filter(el => el.getClientRects().length > 0).length`); n != 0 {
			t.Errorf("presenting, %d of %s still show", n, gone)
		}
	}
	if after := eval[float64](t, b, laneHeight); after < 1.3*before {
		t.Errorf("presenting, a lane is %.0f px tall, %.0f before: the picture is not drawn larger", after, before)
	}
	if where := shownAt(t, b, ".lane[data-topic=orders][data-partition='2']"); where != "shown" {
		t.Errorf("presenting, the last lane of orders is %s", where)
	}

	// The clicker steps back and on; the narration says what each step did.
	b.do(t, chromedp.KeyEvent(kb.PageUp))
	position(steps - 1)
	b.do(t, chromedp.KeyEvent(kb.ArrowLeft))
	position(steps - 2)
	b.do(t, chromedp.KeyEvent(kb.PageUp))
	position(steps - 3) // produce orders value=no-key count=2
	if where := shownAt(t, b, ".stage-notes .landing"); where != "shown" {
		t.Errorf("presenting, the narration of a produce is %s", where)
	}
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		if dir := os.Getenv("PLOG_SCREENSHOTS"); dir != "" {
			b.do(t, chromedp.EmulateViewport(size[0], size[1]))
			png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("present-%dx%d.png", size[0], size[1])), png, 0o644)
		}
	}
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.do(t, chromedp.KeyEvent(kb.PageDown))
	position(steps - 2)
	b.do(t, chromedp.KeyEvent(" "))
	position(steps - 1)
	b.do(t, chromedp.KeyEvent(kb.ArrowRight))
	position(steps)
	b.do(t, chromedp.KeyEvent(kb.PageDown)) // once too often
	b.waitQuiet(t)
	position(steps)
	if alert := eval[string](t, b, `Array.from(document.querySelectorAll("[role=alert]")).map(el => el.textContent).join(" ").trim()`); alert != "" {
		t.Errorf("a step past the end says %q", alert)
	}

	// The link keeps the view: a reload presents.
	b.waitFor(t, `location.hash.includes("&present=1")`)
	b.reload(t)
	b.waitFor(t, `document.querySelector("main").dataset.present === "true"`)
	position(steps)

	// Play runs the clock from the bar, and the bar says its time.
	clock := eval[int](t, b, `Number(document.querySelector(".present-clock").dataset.timeMs)`)
	b.click(t, "#present-play")
	b.waitFor(t, fmt.Sprintf(`Number(document.querySelector(".present-clock").dataset.timeMs) > %d`, clock))
	b.click(t, "#present-play")
	b.waitFor(t, `document.getElementById("present-play").getAttribute("aria-pressed") === "false"`)

	b.do(t, chromedp.KeyEvent(kb.Escape))
	b.waitFor(t, `document.querySelector("main").dataset.present === "false"`)
	b.waitFor(t, `!location.hash.includes("present=")`)
	if where := shownAt(t, b, ".dock"); where != "shown" {
		t.Errorf("after presenting, the dock is %s", where)
	}
	// Play added steps while the timeline was hidden: its box shows the
	// line of the step the page is at, not the one where Play began.
	b.waitFor(t, `(() => { const line = document.getElementById("timeline-current"); if (!line) return false;
		const r = line.getBoundingClientRect(), box = line.closest("ol, ul").getBoundingClientRect();
		return r.height > 0 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1 })()`)

	// Present from the masthead, step back, leave: the timeline is in the
	// window again, not pushed below it by the presenter's height.
	b.click(t, "#present-open")
	b.waitFor(t, `document.querySelector("main").dataset.present === "true"`)
	at := eval[int](t, b, `Number(document.querySelector(".present-position").dataset.position)`) // Play added steps
	b.click(t, "#present-back")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(".present-position").dataset.position === "%d"`, at-1))
	b.click(t, "#present-exit")
	b.waitFor(t, `document.querySelector("main").dataset.present === "false"`)
	for _, control := range []string{"#undo", "#redo"} {
		if where := onScreen(t, b, control); where != "" {
			t.Errorf("after presenting and stepping back, the timeline's %s is %s", control, where)
		}
	}
	b.noErrors(t)
}
