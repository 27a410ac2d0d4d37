package e2e

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"strings"
	"testing"

	"plog/core/lesson"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// firstPaintElements are what the landing page shows as it first paints,
// and where the live page must show them too.
var firstPaintElements = []string{
	`header.masthead h1`,
	`#lessons-open`,
	`header.masthead .tagline`,
	// The starter (app/starter.go): its lanes, a consumer and its note.
	`.lane[data-topic="orders"][data-partition="2"]`,
	`li.member[data-member="c2"]`,
	`[data-starter] .landing-title`,
}

// blockWasm makes the browser fail every request for the wasm, as a network
// that never delivers it would (CDP Fetch, paused at the request).
func blockWasm(t *testing.T, b *browser) {
	t.Helper()
	go func() {
		for ev, err := range chromedp.Events(b.ctx, fetch.RequestPaused) {
			if err != nil {
				return
			}
			chromedp.Call(b.ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
		}
	}()
	if _, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/web/app.wasm", RequestStage: fetch.RequestStageRequest}}}); err != nil {
		t.Fatal(err)
	}
	b.allowConsole("ERR_BLOCKED_BY_CLIENT", "the test blocks the wasm")
	b.allowConsole("loading wasm failed", "go-app says so when the wasm does not come")
}

// The landing page is in the HTML the site generator writes, masthead, the
// starter's picture and lessons, and paints before the wasm arrives: with the wasm never coming,
// its text is on screen, not under the loader, which is a strip.
func TestLandingPaintsBeforeTheWasm(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.subSite, subPath)
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	written, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"a playground for Kafka's partitioned log", "A small Kafka system, ready to run", lesson.All()[0].Title, lesson.All()[len(lesson.All())-1].Title} {
		if !strings.Contains(string(written), html.EscapeString(text)) {
			t.Errorf("the written page lacks %q", text)
		}
	}

	b := newBrowser(t)
	blockWasm(t, b)
	b.do(t, chromedp.Navigate(srv.URL))
	b.waitFor(t, `!!document.getElementById("app-wasm-loader-icon") && !document.querySelector("#app-wasm-loader-icon.goapp-spin")`)
	if got := eval[string](t, b, `document.querySelector("main").dataset.ready`); got != "false" {
		t.Fatalf("main[data-ready=%q] with the wasm blocked: the wasm ran", got)
	}
	for _, selector := range firstPaintElements {
		shown := eval[string](t, b, fmt.Sprintf(`(() => {
  const el = document.querySelector(%s);
  if (!el) return "absent";
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.bottom > innerHeight) return "out of view";
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return el.contains(top) ? "shown" : "under " + (top ? top.id || top.className : "nothing");
})()`, js(selector)))
		if shown != "shown" {
			t.Errorf("%s before the wasm: %s", selector, shown)
		}
	}
	if h := eval[float64](t, b, `document.getElementById("app-wasm-loader").getBoundingClientRect().height`); h > 60 {
		t.Errorf("the loader is %.0f px high: a curtain, not a strip", h)
	}
}

// firstRectsScript notes, as the written page is parsed and styled
// (DOMContentLoaded, before any wasm), where firstPaintElements are,
// whether the written page shows, and how high the loader is.
const firstRectsScript = `document.addEventListener("DOMContentLoaded", () => {
  window.plogFirstRects = {};
  for (const s of %s) {
    const el = document.querySelector(s);
    if (el) { const r = el.getBoundingClientRect(); window.plogFirstRects[s] = [r.left, r.top, r.width, r.height]; }
  }
  const loader = document.getElementById("app-wasm-loader");
  window.plogFirstPaint = {shows: document.documentElement.classList.contains("plog-first-paint"), loader: loader ? loader.getBoundingClientRect().height : 0};
});`

// The live page takes over the written one without a jump: what the
// landing page painted first stays where it was once the page is ready.
// Where the address holds a scenario, which the written page does not
// show, the loader still covers it.
func TestLivePageTakesOverWithoutAJump(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.subSite, subPath)
	b := newBrowser(t)
	selectors := "[" + strings.Join(jsAll(firstPaintElements), ",") + "]"
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: fmt.Sprintf(firstRectsScript, selectors)}); err != nil {
		t.Fatal(err)
	}
	b.open(t, srv.URL)
	if !eval[bool](t, b, `window.plogFirstPaint.shows`) {
		t.Fatal("the landing page, with no fragment, did not show its written page")
	}
	first := eval[map[string][]float64](t, b, `window.plogFirstRects`)
	live := eval[map[string][]float64](t, b, fmt.Sprintf(`(() => { const o = {}; for (const s of %s) { const el = document.querySelector(s); if (el) { const r = el.getBoundingClientRect(); o[s] = [r.left, r.top, r.width, r.height]; } } return o; })()`, selectors))
	checkNoJump(t, firstPaintElements, first, live)

	b.do(t, chromedp.Navigate("about:blank")) // a new document, not a move within this one
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	if eval[bool](t, b, `window.plogFirstPaint.shows`) {
		t.Error("a page opened on a scenario showed the written landing page first")
	}
	if h, inner := eval[float64](t, b, `window.plogFirstPaint.loader`), eval[float64](t, b, `innerHeight`); h < inner {
		t.Errorf("on a scenario's link the loader is %.0f px high in a window of %.0f: it must cover the written page", h, inner)
	}
}

func jsAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = js(s)
	}
	return out
}
