package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// In a lesson the dock's tools start folded, so that the lesson has the
// column at 1280x800: lesson 20's progress, under a goal of nine lines, was
// cut off by the lesson box's bottom with the produce form below it. The
// lesson's start note opens the form where the learner is the writer, the
// chevron folds it away again, and the playground outside a lesson keeps
// its tools open.
func TestALessonFoldsTheToolsAway(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerAtALaptop(t, s, "exactly-once")
	b := x.b
	b.waitFor(t, `document.querySelector(".dock").dataset.tools === "folded"`)
	if problem := onScreen(t, b, "[data-lesson-panel] [data-lesson-progress]"); problem != "" {
		t.Errorf("lesson 20's progress, the tools folded, is %s", problem)
	}
	if problem := onScreen(t, b, "#lesson-hint"); problem != "" {
		t.Errorf("lesson 20's hint button, the tools folded, is %s", problem)
	}
	if n := eval[int](t, b, `[...document.querySelectorAll(".dock-panel")].filter(p => p.getClientRects().length > 0).length`); n != 0 {
		t.Errorf("%d of the tools' panels show in a lesson that has not opened them", n)
	}

	// Lesson 1: the learner writes; the start note opens the form.
	b.mouseClick(t, "#lessons-open")
	b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)
	b.mouseClick(t, `[data-lesson-list] [data-lesson=key-order] a`)
	b.waitCount(t, panel("key-order"), 1)
	b.waitFor(t, `document.querySelector(".dock").dataset.tools === "folded"`)
	folded := boxOf(t, b, "[data-lesson-panel]")
	open := `[data-lesson-start] button[data-control-ref="produce-key"]`
	if problem := onScreenSoon(t, b, open); problem != "" {
		t.Fatalf("the start note's Open the Produce form is %s", problem)
	}
	b.mouseClick(t, open)
	b.waitFor(t, `document.activeElement && document.activeElement.id === "produce-key"`)
	for _, sel := range []string{"#produce-key", "#produce-send"} {
		if problem := onScreenSoon(t, b, sel); problem != "" {
			t.Fatalf("after Open the Produce form, %s is %s", sel, problem)
		}
	}
	b.do(t, chromedp.KeyEvent(kb.End), chromedp.KeyEvent("-x"))
	b.mouseClick(t, "#produce-send")
	b.waitCount(t, `[data-topic=orders] [data-key="acct-1-x"]`, 1)

	// Folded again, the lesson takes the column back.
	b.mouseClick(t, `[data-action=fold-tools]`)
	b.waitFor(t, `document.querySelector(".dock").dataset.tools === "folded" && document.querySelector("#dock-produce").getClientRects().length === 0`)
	if got := boxOf(t, b, "[data-lesson-panel]"); got.Bottom-got.Top < folded.Bottom-folded.Top-1 {
		t.Errorf("folded again, the lesson box is %.0f px tall, %.0f px at the lesson's start", got.Bottom-got.Top, folded.Bottom-folded.Top)
	}
	// The tab bar shows them again.
	b.mouseClick(t, "#dock-tab-time")
	if problem := onScreenSoon(t, b, "#advance-1s"); problem != "" {
		t.Errorf("the Time tab, pressed, shows +1 s %s", problem)
	}

	// Outside a lesson the tools are the playground: open, no chevron.
	free := newBrowser(t)
	free.do(t, chromedp.EmulateViewport(1280, 800))
	free.open(t, s.URL)
	free.waitFor(t, `document.querySelector(".dock").dataset.tools === "open"`)
	if problem := onScreenSoon(t, free, "#produce-send"); problem != "" {
		t.Errorf("on the landing page the Produce button is %s", problem)
	}
	if eval[bool](t, free, `document.querySelector("[data-action=fold-tools]").getClientRects().length > 0`) {
		t.Error("outside a lesson the tools' chevron shows")
	}
}

// With the tools open the lesson has part of the column, its progress
// stuck at the box's top: solving lesson 20 there brings its Solved! line
// into view under the progress, not under it, where a walk found it.
func TestSolvedShowsUnderTheStuckProgress(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerAtALaptop(t, s, "exactly-once")
	x.b.mouseClick(t, "#dock-tab-produce")
	x.b.waitFor(t, `document.querySelector(".dock").dataset.tools === "open"`)
	lessonSteps["exactly-once"](x)
	x.done()
}
