package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// The lesson's explanation follows the task in the dock's short box, where
// a new learner never found it: "The idea ▾" beside the hint button brings
// it into the box's view, on a wide screen and, as the sheet's "Read the
// lesson" does, on a phone.
func TestTheLessonsIdeaIsOneClickAway(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		w := openLesson(t, "key-order")
		b := w.b
		b.do(t, chromedp.EmulateViewport(size[0], size[1]))
		b.waitFor(t, fmt.Sprintf(`innerWidth === %d`, size[0]))
		title := `[data-lesson-panel] .lesson-text-title`
		if size[0] < 900 {
			// On a phone the sheet's own button says it.
			if where := shownAt(t, b, "#lesson-read-idea"); where == "shown" {
				t.Errorf("at %dx%d the idea's button shows beside the sheet's Read the lesson", size[0], size[1])
			}
			b.mouseClick(t, "#lesson-sheet-read")
		} else {
			// With the tools open the lesson has part of the column: the
			// idea is below it. (Folded, a short lesson shows it all.)
			b.mouseClick(t, "#dock-tab-produce")
			b.waitFor(t, `document.querySelector(".dock").dataset.tools === "open"`)
			if problem := onScreen(t, b, title); problem == "" {
				t.Fatalf("at %dx%d the idea is in view before it is asked for: nothing to test", size[0], size[1])
			}
			b.mouseClick(t, "#lesson-read-idea")
		}
		if problem := onScreenSoon(t, b, title); problem != "" {
			t.Errorf("at %dx%d, asked for, the lesson's idea is %s", size[0], size[1], problem)
		}
		if size[0] >= 900 {
			// Pressed again, it brings the goal back.
			if problem := onScreen(t, b, `[data-lesson-panel] .lesson-goal`); problem == "" {
				t.Fatal("the goal is in view with the idea read: nothing to test")
			}
			b.waitText(t, "#lesson-read-idea", "Back to the goal")
			b.mouseClick(t, "#lesson-read-idea")
			if problem := onScreenSoon(t, b, `[data-lesson-panel] .lesson-goal`); problem != "" {
				t.Errorf("at %dx%d, the idea hidden, the goal is %s", size[0], size[1], problem)
			}
		}
		b.noErrors(t)
	}
}

// A learner who read the idea, scrolled down the lesson's box, and then
// acts sees the progress it made: the box brings the new progress into
// its view. A walk of lesson 13 never saw it change, above the idea.
func TestProgressComesIntoViewAfterReadingTheIdea(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerAtALaptop(t, s, "compaction")
	b := x.b
	progress := `[data-lesson-panel] [data-lesson-progress]`
	// The tools open, the lesson has part of the column (folded, a
	// short lesson shows its idea and progress at once).
	b.mouseClick(t, "#dock-tab-produce")
	b.waitFor(t, `document.querySelector(".dock").dataset.tools === "open"`)
	b.mouseClick(t, "#lesson-read-idea")
	// The idea in view (a smooth scroll may still run), and so the
	// progress out of it.
	onScreenSoon(t, b, `[data-lesson-panel] .lesson-text-title`)
	if problem := onScreen(t, b, progress); problem == "" {
		t.Fatal("the progress is still in view with the idea read: nothing to test")
	}
	was := b.text(t, progress)
	x.tombstone("balances", "acct-3")
	b.waitFor(t, `document.querySelector(`+js(progress)+`).textContent !== `+js(was))
	if problem := onScreenSoon(t, b, progress); problem != "" {
		t.Errorf("the progress the tombstone made is %s", problem)
	}
}

// A learner who shows the hints and reads down the lesson's box to the
// last one keeps its progress in sight at the box's top: a walk showed
// the hints and lost the progress out of the box.
func TestProgressStaysInViewWhileReadingTheHints(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerAtALaptop(t, s, "compaction")
	b := x.b
	// With the tools open, the lesson has part of the column, and its
	// box scrolls to the hints.
	b.mouseClick(t, "#dock-tab-produce")
	b.waitFor(t, `document.querySelector(".dock").dataset.tools === "open"`)
	for range 3 {
		b.mouseClick(t, "#lesson-hint")
	}
	last := `[data-lesson-panel] .lesson-hints li:nth-child(3)`
	b.waitCount(t, last, 1)
	panel := boxOf(t, b, "[data-lesson-panel]")
	for range 20 {
		if boxOf(t, b, last).Bottom <= panel.Bottom {
			break
		}
		b.wheel(t, (panel.Left+panel.Right)/2, (panel.Top+panel.Bottom)/2, 60)
	}
	if problem := onScreenSoon(t, b, last); problem != "" {
		t.Fatalf("the last hint, scrolled to, is %s", problem)
	}
	if eval[float64](t, b, `document.querySelector("[data-lesson-panel]").scrollTop`) == 0 {
		t.Fatal("the box did not scroll to the last hint: nothing to test")
	}
	if problem := onScreen(t, b, "[data-lesson-panel] [data-lesson-progress]"); problem != "" {
		t.Errorf("at the last hint, the progress is %s", problem)
	}
}
