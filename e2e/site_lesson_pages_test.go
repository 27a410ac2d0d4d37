package e2e

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
	"testing"

	"plog/core/lesson"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// pageLesson is the lesson whose page the tests open: its starting
// scenario has records on its lanes and a group with a member.
const pageLesson = "commit-resume"

// lessonPageElements are what a lesson's page shows as it first paints,
// and where the live page must show them too: the lesson's title,
// explanation and goal, and the picture of its starting scenario (a lane
// with its records, from the first: a lane follows its newest only once
// records land in it, web/static/lanes-follow.js; the group's card).
var lessonPageElements = []string{
	`#lesson-title`,
	`[data-lesson-panel] .lesson-text > :first-child`,
	`[data-lesson-panel] .lesson-goal`,
	`[data-topic="orders"][data-partition="0"][data-log-start]`,
	`[data-topic="orders"][data-partition] [data-offset]`,
	group("billing"),
}

// rectsScript is the script that reads where selectors (a JavaScript
// array) are on the page, as {selector: [left, top, width, height]}.
const rectsScript = `(() => { const o = {}; for (const s of %s) { const el = document.querySelector(s); if (el) { const r = el.getBoundingClientRect(); o[s] = [r.left, r.top, r.width, r.height]; } } return o; })()`

// Each lesson has a page the site generator writes, lessons/NAME.html,
// whose HTML holds the lesson's title, its explanation and goal and the
// picture of its starting scenario: with the wasm never coming, they are on
// screen, above the loader's strip.
func TestLessonPagePaintsBeforeTheWasm(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.subSite, subPath)
	for _, l := range lesson.All() {
		res, err := http.Get(srv.URL + "lessons/" + l.Name + ".html")
		if err != nil {
			t.Fatal(err)
		}
		written, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusOK {
			t.Errorf("lessons/%s.html: %s", l.Name, res.Status)
			continue
		}
		for _, want := range []string{`data-lesson="` + l.Name + `"`, html.EscapeString(l.Title), `href="` + subPath + `web/app.wasm" rel="preload"`} {
			if !strings.Contains(string(written), want) {
				t.Errorf("lessons/%s.html lacks %q", l.Name, want)
			}
		}
	}

	b := newBrowser(t)
	blockWasm(t, b)
	b.do(t, chromedp.Navigate(srv.URL+"lessons/"+pageLesson+".html"))
	b.waitFor(t, `!!document.getElementById("app-wasm-loader-icon") && !document.querySelector("#app-wasm-loader-icon.goapp-spin")`)
	if got := eval[string](t, b, `document.querySelector("main").dataset.ready`); got != "false" {
		t.Fatalf("main[data-ready=%q] with the wasm blocked: the wasm ran", got)
	}
	l, err := lesson.Find(pageLesson)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.text(t, `#lesson-title`); got != l.Title {
		t.Errorf("the written lesson's title is %q, want %q", got, l.Title)
	}
	for _, selector := range lessonPageElements {
		if shown := shownAt(t, b, selector); shown != "shown" {
			t.Errorf("%s before the wasm: %s", selector, shown)
		}
	}
	if h := eval[float64](t, b, `document.getElementById("app-wasm-loader").getBoundingClientRect().height`); h > 60 {
		t.Errorf("the loader is %.0f px high: a curtain, not a strip", h)
	}
}

// shownAt says whether the element selector names begins on screen and is
// on top there, or only its own ancestors are (the dock's fade over its
// foot): "shown", or what is wrong. (A lesson's explanation may run below
// the window's foot, in its scrolling dock.)
func shownAt(t *testing.T, b *browser, selector string) string {
	t.Helper()
	return eval[string](t, b, fmt.Sprintf(`(() => {
  const el = document.querySelector(%s);
  if (!el) return "absent";
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.top + 8 > innerHeight) return "out of view";
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + Math.min(r.height / 2, 8));
  return top && (el.contains(top) || top.contains(el)) ? "shown" : "under " + (top ? top.id || top.className : "nothing");
})()`, js(selector)))
}

// The live page takes over a lesson's written page without a jump: the
// lesson's text and the starting picture stay where they first painted,
// the lanes hold the lesson's starting records, and the lesson runs (a
// Poll from the member's card moves the goal's progress on). Offline, a
// lesson's page the service worker never fetched opens that lesson still.
func TestLessonPageTakesOverWithoutAJump(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.subSite, subPath)
	b := newBrowser(t)
	selectors := "[" + strings.Join(jsAll(lessonPageElements), ",") + "]"
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(`document.addEventListener("DOMContentLoaded", () => {
  window.plogFirstRects = %s;
  window.plogFirstPaintShows = document.documentElement.classList.contains("plog-first-paint");
});`, fmt.Sprintf(rectsScript, selectors))}); err != nil {
		t.Fatal(err)
	}
	b.open(t, srv.URL+"lessons/"+pageLesson+".html")
	if !eval[bool](t, b, `window.plogFirstPaintShows`) {
		t.Fatal("the lesson's page, with no fragment, did not show its written page")
	}
	first := eval[map[string][]float64](t, b, `window.plogFirstRects`)
	live := eval[map[string][]float64](t, b, fmt.Sprintf(rectsScript, selectors))
	checkNoJump(t, lessonPageElements, first, live)
	l, err := lesson.Find(pageLesson)
	if err != nil {
		t.Fatal(err)
	}
	checkLessonLanes(t, b, l.Script)
	progress := b.text(t, `[data-lesson-progress]`)
	b.click(t, member("billing", "b1")+` [data-action=poll]`)
	b.waitFor(t, `document.querySelector("[data-lesson-progress]").innerText !== `+js(progress))

	// Offline, another lesson's page, which the worker has not fetched.
	b.waitServiceWorker(t)
	srv.stop()
	if _, err := http.Get(srv.URL); err == nil {
		t.Fatal("the server still answers after it was stopped")
	}
	other, err := lesson.Find("key-order")
	if err != nil {
		t.Fatal(err)
	}
	b.do(t, chromedp.Navigate("about:blank"))
	b.open(t, srv.URL+"lessons/"+other.Name+".html")
	if got := b.text(t, `#lesson-title`); got != other.Title {
		t.Errorf("offline, lessons/%s.html shows the lesson %q, want %q", other.Name, got, other.Title)
	}
	checkLessonLanes(t, b, other.Script)
}
