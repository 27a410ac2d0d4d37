package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// A lane wider than the window opens at its first record, and follows its
// newest once records land in it, so that the record a learner produces is
// in sight; a lane the learner scrolled back stays where the learner put
// it until the learner scrolls to its end again (web/static/
// lanes-follow.js).
func TestLanesFollowTheirNewestRecord(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic t partitions=1\nproduce t key=k value=v count=39\n")
	const list = `[data-topic="t"][data-partition="0"] .records`
	record := func(offset int) string {
		return fmt.Sprintf(`[data-topic="t"][data-partition="0"] [data-offset="%d"]`, offset)
	}
	if w := eval[int](t, b, `(() => { const l = document.querySelector(`+js(list)+`); return l.scrollWidth - l.clientWidth })()`); w < 200 {
		t.Fatalf("the lane's records are only %d px wider than the lane: nothing to follow", w)
	}
	// seen waits for what a selector finds to be on screen, not clipped
	// by the lane: the lane follows at the browser's next frame.
	seen := func(what, selector string) {
		t.Helper()
		deadline := time.Now().Add(readyTimeout)
		for {
			problem := onScreen(t, b, selector)
			if problem == "" {
				return
			}
			if time.Now().After(deadline) {
				t.Errorf("%s (%s) is %s", what, selector, problem)
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	seen("at first, the first record", record(0))
	// The lane fades on the side where records are out of sight: the
	// sign that it scrolls.
	fades := func(what, side string) {
		t.Helper()
		b.waitFor(t, `document.querySelector(`+js(list)+`).dataset.more === `+js(side))
		if mask := eval[string](t, b, `getComputedStyle(document.querySelector(`+js(list)+`)).maskImage`); mask == "none" || mask == "" {
			t.Errorf("%s, the lane hides records on its %s but does not fade there", what, side)
		}
	}
	fades("at first", "right")

	produce := func(key string, offset int) {
		t.Helper()
		b.fill(t, "#produce-key", key)
		b.fill(t, "#produce-count", "1")
		b.click(t, "#produce-send")
		b.waitCount(t, record(offset), 1)
	}
	produce("new-1", 39)
	seen("the record just produced", record(39))
	fades("at its newest record", "left")

	// The learner scrolls the lane back, sideways, with the wheel.
	// The wheel turns where the learner sees the lane: the narration,
	// kept at the picture's foot, may cover a lane's middle.
	scroll := func(dx float64) {
		t.Helper()
		point := eval[[]float64](t, b, `(() => { const l = document.querySelector(`+js(list)+`);
			let r = l.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
			if (!l.contains(document.elementFromPoint(x, y))) {
				l.scrollIntoView({block: "start"});
				r = l.getBoundingClientRect(); x = r.left + r.width / 2; y = r.top + r.height / 2;
			}
			return l.contains(document.elementFromPoint(x, y)) ? [x, y] : [] })()`)
		if len(point) != 2 {
			t.Fatal("no point of the lane is in sight to turn the wheel over")
		}
		x, y := point[0], point[1]
		b.do(t, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, func(p *input.DispatchMouseEventParams) {
			p.DeltaX, p.DeltaY = dx, 0.01
		}))
	}
	scroll(-5000)
	b.waitFor(t, `document.querySelector(`+js(list)+`).scrollLeft === 0`)
	fades("scrolled back to its start", "right")
	oldest := eval[int](t, b, `+document.querySelector(`+js(list)+` + " [data-offset]").dataset.offset`)
	produce("new-2", 40)
	b.waitQuiet(t)
	if left := eval[float64](t, b, `document.querySelector(`+js(list)+`).scrollLeft`); left != 0 {
		t.Errorf("a lane the learner scrolled back moved to %.0f px by itself", left)
	}
	seen("the oldest record drawn, where the learner scrolled back to", record(oldest))
	if onScreen(t, b, record(40)) == "" {
		t.Errorf("the lane scrolled back shows the record just produced: it did not stay where the learner put it")
	}

	// Back at the end, the lane follows again. A learner turns the wheel
	// again when one turn did not reach the end (a busy page may take a
	// wheel event before the lane under it has its last records).
	atEnd := `(() => { const l = document.querySelector(` + js(list) + `); return l.scrollLeft + l.clientWidth >= l.scrollWidth - 8 })()`
	for turn := 0; turn < 5 && !eval[bool](t, b, atEnd); turn++ {
		scroll(5000)
		time.Sleep(time.Second)
	}
	b.waitFor(t, atEnd)
	produce("new-3", 41)
	seen("the record produced after the learner scrolled to the end", record(41))
}

// A lane that hides records says how many over its edge, and a click there
// brings them into sight: a learner in lesson 3 never saw the offsets 5 to
// 7 the lesson is about, past a fade alone.
func TestLaneSaysHowManyMoreAndScrollsToThem(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic t partitions=1\nproduce t key=k value=v count=12\n")
	const body = `[data-topic="t"][data-partition="0"] .lane-body`
	last := `[data-topic="t"][data-partition="0"] [data-offset="11"]`
	b.waitFor(t, `document.querySelector(`+js(body)+`).dataset.hiddenRight > 0`)
	hidden := eval[string](t, b, `document.querySelector(`+js(body)+`).dataset.hiddenRight`)
	said := eval[string](t, b, `getComputedStyle(document.querySelector(`+js(body)+`), "::after").content`)
	if said != `"`+hidden+` more ▶"` {
		t.Errorf("the lane hides %s records and says %s over its edge", hidden, said)
	}
	if where := onScreen(t, b, last); where == "" {
		t.Fatal("the last record is in sight before the learner asks: nothing to test")
	}
	// The learner clicks the words, at the lane's right edge.
	box := eval[[]float64](t, b, `(() => { const r = document.querySelector(`+js(body)+`).getBoundingClientRect(); return [r.right, r.top + r.height / 2] })()`)
	b.do(t, chromedp.MouseClickXY(box[0]-12, box[1]))
	deadline := time.Now().Add(readyTimeout)
	for where := onScreen(t, b, last); where != ""; where = onScreen(t, b, last) {
		if time.Now().After(deadline) {
			t.Fatalf("after a click on %q, the last record is %s", said, where)
		}
		b.do(t, chromedp.MouseClickXY(box[0]-12, box[1])) // a second page, on a narrow lane
		time.Sleep(300 * time.Millisecond)
	}
	b.waitFor(t, `document.querySelector(`+js(body)+`).dataset.hiddenLeft > 0`)
}
