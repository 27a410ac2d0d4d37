package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// The timeline shows the script as the link would, and every way of moving
// through it gives the state after that many lines.
func TestUITimelineSeekUndoRedoScrubPlay(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `seed 1
topic orders partitions=2
produce orders key=a value=1
produce orders key=b value=2
produce orders key=c value=3
`)
	b.waitFor(t, `document.querySelector(".timeline").dataset.length === "5"`)
	lines := eval[[]string](t, b, `Array.from(document.querySelectorAll(".script-line")).map(el => el.textContent)`)
	if len(lines) != 5 || lines[0] != "seed 1" || lines[2] != "produce orders key=a value=1" {
		t.Fatalf("the timeline reads %q, want the script's lines", lines)
	}

	// A line takes the page back to the state after it. The learner
	// reached it with the keyboard.
	b.waitFor(t, `(document.querySelector('.script-line[data-step="3"]').focus(), true)`)
	b.click(t, `.script-line[data-step="3"]`)
	b.waitFor(t, `document.querySelector(".timeline").dataset.position === "3"`)
	b.waitFor(t, totalJS("orders")+` === 1`)
	// The line keeps the focus as it becomes the current one, drawn anew
	// (app/timeline.go): the keyboard goes on from where it was.
	b.waitFor(t, `document.activeElement.matches('.script-line[data-step="3"]')`)
	if b.count(t, `.script li.ahead`) != 2 {
		t.Error("the lines ahead of the position are not marked")
	}
	// The first of them says what they are: not applied, not deleted; it
	// sits on the line's row, in sight as the line is.
	b.do(t, chromedp.ScrollIntoView(`.script li[data-step="4"]`))
	if where := onScreen(t, b, `.script li[data-step="4"] .script-line`); where != "" {
		t.Errorf("the first line ahead is %s", where)
	} else if got := eval[string](t, b, `getComputedStyle(document.querySelector('.script li[data-step="4"] .script-line'), "::after").content`); !strings.Contains(got, "Redo") {
		t.Errorf("the first line ahead says %s, not that Redo replays it", got)
	}

	// Undo and redo.
	b.click(t, "#undo")
	b.waitFor(t, totalJS("orders")+` === 0`)
	b.click(t, "#redo")
	b.click(t, "#redo")
	b.waitFor(t, totalJS("orders")+` === 2`)

	// The slider scrubs.
	b.fill(t, "#timeline-slider", "5")
	b.waitFor(t, totalJS("orders")+` === 3`)
	b.fill(t, "#timeline-slider", "2")
	b.waitFor(t, totalJS("orders")+` === 0`)

	// A new command after going back replaces the steps ahead, and offers
	// them back.
	b.click(t, "#produce-send")
	b.waitText(t, ".discarded", "Kept aside: 3 steps that followed step 2")
	b.click(t, "#restore")
	b.waitFor(t, `document.querySelector(".timeline").dataset.length === "5"`)

	// Play advances the clock by itself; pause stops it.
	b.fill(t, "#timeline-slider", "5")
	b.waitFor(t, totalJS("orders")+` === 3`)
	b.fill(t, "#play-speed", "10")
	b.click(t, "#play")
	b.waitFor(t, `Number(document.querySelector(".clock").dataset.timeMs) >= 20000`)
	b.click(t, "#pause")
	stopped := b.attr(t, ".clock", "data-time-ms")
	b.waitFor(t, `new Promise(r => setTimeout(() => r(true), 2500))`)
	if got := b.attr(t, ".clock", "data-time-ms"); got != stopped {
		t.Errorf("the clock moved from %s to %s after pause", stopped, got)
	}
	if script := b.text(t, ".script"); !strings.Contains(script, "advance 10s") {
		t.Errorf("play left no advance line in the script:\n%s", script)
	}
	b.noErrors(t)
}

// The keyboard shortcuts make the same lines as the controls.
func TestUIShortcuts(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `topic orders partitions=1
produce orders key=k value=v count=4
join billing c1 topics=orders
advance 5s
`)
	lane := `[data-topic=orders][data-partition="0"]`
	b.press(t, "p")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.highWatermark === "5"`, js(lane)))

	b.press(t, "o")
	b.waitText(t, ".script", "poll billing c1")
	b.press(t, "c")
	b.waitCount(t, lane+` [data-group=billing][data-committed="5"]`, 1)

	time := b.attr(t, ".clock", "data-time-ms")
	b.press(t, "s")
	want, _ := strconv.Atoi(time)
	b.waitFor(t, fmt.Sprintf(`document.querySelector(".clock").dataset.timeMs === "%d"`, want+1000))

	b.press(t, "u")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(".clock").dataset.timeMs === %s`, js(time)))
	b.press(t, "r")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(".clock").dataset.timeMs === "%d"`, want+1000))

	// Typing in a box is typing, not a shortcut.
	steps := b.steps(t)
	eval[bool](t, b, `(() => { document.querySelector("#produce-key").focus(); return true })()`)
	b.do(t, chromedpKeys("pocsu"))
	if got := b.steps(t); got != steps {
		t.Errorf("typing in the key box ran shortcuts: %s steps, was %s", got, steps)
	}
	b.noErrors(t)
}

// A long script keeps its current line in sight, wherever the position is.
func TestUITimelineKeepsTheCurrentLineInSight(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic t partitions=1\n"+strings.Repeat("produce t value=v\n", 60))
	inSight := `(() => {
		const box = document.querySelector("#timeline-script").getBoundingClientRect();
		const line = document.querySelector("#timeline-current").getBoundingClientRect();
		return line.top >= box.top - 1 && line.bottom <= box.bottom + 1 })()`
	b.waitFor(t, inSight)
	b.fill(t, "#timeline-slider", "5")
	b.waitFor(t, `document.querySelector("#timeline-current").dataset.step === "5"`)
	b.waitFor(t, inSight)
	b.noErrors(t)
}
