package e2e

import (
	"fmt"
	"testing"
)

// A lane keeps its newest record in view as records arrive, where a
// learner looks for the one just written; a lane the learner scrolled back
// stays where they put it until they scroll to its end again.
func TestUILanesFollowTheNewestRecord(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=1\n")
	lane := `.lane[data-topic=orders] .records`
	produce := func(value string, count int) {
		t.Helper()
		b.fill(t, "#produce-key", "k")
		b.fill(t, "#produce-value", value)
		b.fill(t, "#produce-count", fmt.Sprint(count))
		b.click(t, "#produce-send")
	}
	produce("first", 30)
	b.waitCount(t, lane+` [data-offset="29"]`, 1)
	b.waitFor(t, fmt.Sprintf(`(() => { const r = document.querySelector(%s); return r.scrollLeft > 0 && r.scrollLeft + r.clientWidth >= r.scrollWidth - 2 })()`, js(lane)))
	if problem := onScreen(t, b, lane+` [data-offset="29"]`); problem != "" {
		t.Errorf("the newest record is %s", problem)
	}

	// Scrolled back by the learner, the lane stays put.
	eval[bool](t, b, fmt.Sprintf(`(() => { document.querySelector(%s).scrollLeft = 0; return true })()`, js(lane)))
	produce("second", 1)
	b.waitCount(t, lane+` [data-offset="30"]`, 1)
	if left := eval[float64](t, b, fmt.Sprintf(`document.querySelector(%s).scrollLeft`, js(lane))); left != 0 {
		t.Errorf("the lane the learner scrolled back moved on to %.0f", left)
	}
	if problem := onScreen(t, b, lane+` [data-offset="0"]`); problem != "" {
		t.Errorf("the oldest record, scrolled to, is %s", problem)
	}
}
