package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// smallTargets lists the controls in view of the page (wherever the page
// scrolls to) that a finger cannot press: under 44x44 px, WCAG's target
// size. A checkbox counts with its label, which presses it too.
const smallTargets = `(() => {
	const out = [];
	for (const el of document.querySelectorAll("main :is(button, summary, select, input, a[href], [role=tab], [tabindex='0'])")) {
		if (!el.getClientRects().length || el.closest("[hidden]")) continue;
		let r = el.getBoundingClientRect();
		if (el.matches("input:is([type=checkbox], [type=radio])")) {
			const l = el.closest("label") || (el.id && document.querySelector("label[for='" + el.id + "']"));
			if (l) {
				const lr = l.getBoundingClientRect();
				r = {width: Math.max(r.right, lr.right) - Math.min(r.left, lr.left), height: Math.max(r.bottom, lr.bottom) - Math.min(r.top, lr.top)};
			}
		}
		if (r.width === 0) continue;
		// A link inside a sentence is the sentence's: WCAG leaves it out.
		if (el.matches("a[href]") && getComputedStyle(el).display === "inline") continue;
		if (r.height < 44 || r.width < 44) {
			const name = el.id ? "#" + el.id : el.tagName.toLowerCase() + "." + [...el.classList].join(".");
			out.push(name + " " + JSON.stringify((el.textContent || el.value || "").trim().slice(0, 24)) + " " + Math.round(r.width) + "x" + Math.round(r.height));
		}
	}
	return out;
})()`

// On a phone every control is finger-sized: the landing page with each of
// its tools' tabs and the inspector, and a lesson with a group. A walk
// measured the masthead's buttons 25 px high, the timeline's 23, a lane's
// name 17 and a help circle 20.
func TestEveryControlIsFingerSizedOnAPhone(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(390, 844, chromedp.EmulateMobile))
	b.open(t, srv.URL)
	b.waitFor(t, `innerWidth === 390`)
	check := func(where string) {
		t.Helper()
		if small := eval[[]string](t, b, smallTargets); len(small) > 0 {
			t.Errorf("%s, under a finger's 44x44 px: %q", where, small)
		}
	}
	check("the landing page")
	for _, tab := range []string{"topics", "time", "cluster", "produce"} {
		b.mouseClick(t, "#dock-tab-"+tab)
		b.waitFor(t, `!document.querySelector("#dock-`+tab+`").hidden`)
		check("the " + tab + " tab")
	}
	b.mouseClick(t, `[data-topic=orders] .topic-name`)
	b.waitCount(t, `[data-inspector=topic]`, 1)
	check("the topic's inspector")

	b.open(t, srv.URL+"#lesson=commit-resume")
	b.waitCount(t, panel("commit-resume"), 1)
	check("lesson 3's start")
}
