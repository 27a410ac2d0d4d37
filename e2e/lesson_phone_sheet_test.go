package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// On a phone the picture comes first and the lesson is a sheet over the
// bottom of the screen, above the docked timeline: wherever the learner
// scrolls, the goal and the progress stay in view, and nothing covers the
// timeline's buttons. The sheet folds down to its progress, or opens to
// the whole explanation; the timeline folds its steps and command line
// away until asked. On a wide screen none of this shows.
func TestLessonIsASheetOnAPhone(t *testing.T) {
	t.Parallel()
	b := lessonOnAPhone(t, "commit-resume")
	const sheet = `[data-lesson-panel]`
	onScreenNow := func(selector, when string) {
		t.Helper()
		if where := onScreen(t, b, selector); where != "" {
			t.Errorf("%s, %s is %s", when, selector, where)
		}
	}
	// The picture first: the first lane, above the sheet.
	onScreenNow(`.lane[data-topic="orders"][data-partition="0"]`, "at the top of the page")
	if above := eval[bool](t, b, fmt.Sprintf(`document.querySelector('.lane[data-topic="orders"]').getBoundingClientRect().bottom <= document.querySelector(%s).getBoundingClientRect().top`, js(sheet))); !above {
		t.Error("at the top of the page the sheet covers the first lane")
	}
	for _, at := range []string{"0", "document.scrollingElement.scrollHeight / 2", `document.querySelector('li.member[data-member="b1"]').getBoundingClientRect().top + scrollY - 80`} {
		eval[bool](t, b, fmt.Sprintf(`(scrollTo(0, %s), true)`, at))
		when := "scrolled to " + at
		onScreenNow(sheet+" .lesson-goal", when)
		onScreenNow(sheet+" .lesson-progress", when)
		onScreenNow("#undo", when)
		onScreenNow("#play", when)
	}
	// b1's Poll, scrolled to, is above the sheet: the learner presses it
	// and reads the progress move on.
	onScreenNow(`button[aria-label="Poll b1"]`, "scrolled to b1")
	before := b.text(t, sheet+" .lesson-progress")
	b.mouseClick(t, `button[aria-label="Poll b1"]`)
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).textContent !== %s`, js(sheet+" .lesson-progress"), js(before)))
	onScreenNow(sheet+" .lesson-progress", "after the poll")

	// A hint's control name points at the control above the sheet, not
	// under it.
	eval[bool](t, b, `(scrollTo(0, 0), true)`)
	b.mouseClick(t, "#lesson-hint")
	b.waitCount(t, `[data-hint="0"]`, 1)
	onScreenNow(`[data-hint="0"]`, "a hint just shown")
	b.mouseClick(t, `[data-hint="0"] [data-control-ref="commit b1"]`)
	b.waitFor(t, `!!document.querySelector('[data-pointed]')`)
	if !b.eventually(fmt.Sprintf(`(() => { const c = document.querySelector("[data-pointed]").getBoundingClientRect();
		return c.top >= 0 && c.bottom <= document.querySelector(%s).getBoundingClientRect().top })()`, js(sheet))) {
		t.Errorf("the control a hint points at is under the sheet: %s", onScreen(t, b, "[data-pointed]"))
	}

	// The explanation is folded into the sheet until asked for.
	if b.count(t, sheet+" .lesson-text p") == 0 || eval[bool](t, b, `document.querySelector("[data-lesson-panel] .lesson-text").getClientRects().length > 0`) {
		t.Error("the sheet shows the explanation before Read the lesson")
	}
	b.mouseClick(t, "#lesson-sheet-read")
	b.waitFor(t, `document.querySelector("[data-lesson-panel] .lesson-text").getClientRects().length > 0`)
	eval[bool](t, b, `(document.querySelector("[data-lesson-panel] .lesson-text p").scrollIntoView({block: "nearest"}), true)`)
	onScreenNow(sheet+" .lesson-text p", "with the lesson read whole")
	onScreenNow("#undo", "with the lesson read whole")
	b.mouseClick(t, "#lesson-sheet-read")
	b.waitFor(t, `document.querySelector("[data-lesson-panel] .lesson-text").getClientRects().length === 0`)

	// Folded, the sheet keeps the progress alone.
	tall := eval[float64](t, b, fmt.Sprintf(`document.querySelector(%s).getBoundingClientRect().height`, js(sheet)))
	b.mouseClick(t, "#lesson-sheet-fold")
	b.waitFor(t, `document.querySelector("[data-lesson-panel] .lesson-goal").getClientRects().length === 0`)
	onScreenNow(sheet+" .lesson-progress", "folded")
	if low := eval[float64](t, b, fmt.Sprintf(`document.querySelector(%s).getBoundingClientRect().height`, js(sheet))); low > tall-80 {
		t.Errorf("folded, the sheet is %.0f px high, unfolded %.0f", low, tall)
	}
	b.mouseClick(t, "#lesson-sheet-fold")
	b.waitFor(t, `document.querySelector("[data-lesson-panel] .lesson-goal").getClientRects().length > 0`)

	// Fingers' targets.
	for _, button := range []string{"#lesson-sheet-read", "#lesson-sheet-fold", "#timeline-steps"} {
		if h := eval[float64](t, b, fmt.Sprintf(`document.querySelector(%s).getBoundingClientRect().height`, js(button))); h < 44 {
			t.Errorf("%s is %.0f px high, under a finger's 44", button, h)
		}
	}

	// The timeline's steps and command line fold away, and come back.
	if eval[bool](t, b, `document.querySelector("#timeline-script").getClientRects().length > 0`) {
		t.Error("on a phone the timeline shows its steps before Steps is pressed")
	}
	b.mouseClick(t, "#timeline-steps")
	b.waitFor(t, `document.querySelector("#timeline-script").getClientRects().length > 0`)
	onScreenNow(commandLine, "with the steps unfolded")
	b.mouseClick(t, "#timeline-steps")
	b.waitFor(t, `document.querySelector("#timeline-script").getClientRects().length === 0`)

	// A wide screen shows the lesson whole, in the dock, with no sheet's
	// buttons and the steps in view.
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.waitFor(t, `innerWidth === 1280`)
	for _, hidden := range []string{"#lesson-sheet-read", "#lesson-sheet-fold", "#timeline-steps"} {
		if eval[bool](t, b, fmt.Sprintf(`document.querySelector(%s).getClientRects().length > 0`, js(hidden))) {
			t.Errorf("on a wide screen %s shows", hidden)
		}
	}
	if !eval[bool](t, b, `document.querySelector("#timeline-script").getClientRects().length > 0`) {
		t.Error("on a wide screen the timeline's steps are folded")
	}
	b.noErrors(t)
}

// Solving a lesson on a phone brings the sheet's Solved! line into the
// sheet's view without moving the page under the learner's finger: the
// walk saw the page jump as the last record was produced, and the Fold
// button move before it was tapped.
func TestSolvingOnAPhoneKeepsThePageStill(t *testing.T) {
	t.Parallel()
	b := lessonOnAPhone(t, "key-order")
	// The tools start folded in a lesson: the learner opens the form.
	b.mouseClick(t, "#dock-tab-produce")
	b.waitFor(t, `document.querySelector(".dock").dataset.tools === "open"`)
	for i, value := range []string{"created", "updated", "shipped"} {
		b.fill(t, "#produce-key", "acct-1")
		b.fill(t, "#produce-value", value)
		// The learner scrolls to the button, then taps it where it is.
		at := eval[[]float64](t, b, `(() => { const el = document.getElementById("produce-send");
			el.scrollIntoView({block: "center"}); const r = el.getBoundingClientRect();
			return [r.left + r.width / 2, r.top + r.height / 2, scrollY] })()`)
		b.do(t, chromedp.MouseClickXY(at[0], at[1]))
		b.waitCount(t, `[data-topic=orders] [data-key="acct-1"]`, i+1)
		if i < 2 {
			continue
		}
		b.waitText(t, "[data-lesson-status]", "Solved!")
		// Give the page the frames its scrolling would take.
		b.waitFor(t, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
		if y := eval[float64](t, b, `scrollY`); y != at[2] {
			t.Errorf("the page scrolled from %.0f to %.0f as the lesson was solved", at[2], y)
		}
		if where := onScreen(t, b, "[data-lesson-status]"); where != "" {
			t.Errorf("the Solved! line is %s", where)
		}
	}
}

// Asking for a hint on a phone shows it in the sheet, where the learner
// looks, and leaves the page where it was: the page jumped to the groups'
// join form, under the sheet, as the hint came.
func TestAHintOnAPhoneKeepsThePageStill(t *testing.T) {
	t.Parallel()
	b := lessonOnAPhone(t, "key-order")
	at := eval[[]float64](t, b, `(() => { const r = document.getElementById("lesson-hint").getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2, scrollY] })()`)
	b.do(t, chromedp.MouseClickXY(at[0], at[1]))
	b.waitCount(t, `[data-hint="0"]`, 1)
	b.waitFor(t, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	if y := eval[float64](t, b, `scrollY`); y != at[2] {
		t.Errorf("the page scrolled from %.0f to %.0f as the hint came", at[2], y)
	}
	if where := onScreen(t, b, `[data-hint="0"]`); where != "" {
		t.Errorf("the hint is %s", where)
	}
}

// lessonOnAPhone opens a lesson from its start on a 390x844 phone.
func lessonOnAPhone(t *testing.T, name string) *browser {
	t.Helper()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.open(t, srv.URL+"#lesson="+name)
	b.waitFor(t, `innerWidth === 390`)
	return b
}
