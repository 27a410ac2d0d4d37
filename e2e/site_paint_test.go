package e2e

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The pages' heads hold no request that holds up their first paint: no
// stylesheet to fetch, no script to fetch and run before the page shows,
// as the browser itself judges (Resource Timing's renderBlockingStatus);
// and the inline scripts the policy allows run without a violation.
func TestPagesHoldNoRenderBlockingRequest(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.subSite, subPath)
	b := newBrowser(t)
	for _, path := range []string{"", "lessons/" + pageLesson + ".html", "embed/lessons/" + pageLesson + ".html"} {
		b.do(t, chromedp.Navigate("about:blank"))
		b.open(t, srv.URL+path)
		if blocking := eval[[]string](t, b, `performance.getEntriesByType("resource").filter((e) => e.renderBlockingStatus === "blocking").map((e) => e.name)`); len(blocking) != 0 {
			t.Errorf("/%s: the browser waited for %v before it painted", path, blocking)
		}
		if tags := eval[[]string](t, b, `Array.from(document.head.querySelectorAll('link[rel="stylesheet"], script[src]:not([defer]):not([async])')).map((e) => e.outerHTML)`); len(tags) != 0 {
			t.Errorf("/%s: the head fetches %v before the page shows", path, tags)
		}
		if !eval[bool](t, b, `document.documentElement.classList.contains("plog-first-paint")`) {
			t.Errorf("/%s: first-paint.js, inline, did not show the written page", path)
		}
	}
	b.noErrors(t)
}

// holdWasm holds every request for the wasm until release is called, as
// a network that has not delivered it yet: what shows meanwhile is what
// the page shows before the wasm, however fast the machine.
func holdWasm(t *testing.T, b *browser) (release func()) {
	t.Helper()
	var mu sync.Mutex
	var held []fetch.RequestID
	released := false
	go func() {
		for ev, err := range chromedp.Events(b.ctx, fetch.RequestPaused) {
			if err != nil {
				return
			}
			mu.Lock()
			if released {
				chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			} else {
				held = append(held, ev.RequestID)
			}
			mu.Unlock()
		}
	}()
	if _, err := chromedp.Call(b.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*/web/app.wasm", RequestStage: fetch.RequestStageRequest}}}); err != nil {
		t.Fatal(err)
	}
	return func() {
		mu.Lock()
		defer mu.Unlock()
		released = true
		for _, id := range held {
			// A request of a page navigated away from is gone.
			chromedp.Call(b.ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
		}
		held = nil
	}
}

// embedPageElements are what a lesson's embedded page shows as it first
// paints, in a 640×400 frame, and where the live page must show them too:
// the embed bar, the starting picture's lane with its records and the
// group's card (the lesson's panel is under them, below the frame's fold).
var embedPageElements = []string{
	`.embed-bar`,
	`[data-topic="orders"][data-partition="0"][data-log-start]`,
	`[data-topic="orders"][data-partition] [data-offset]`,
	group("billing"),
}

// The landing page, a lesson's page and an embedded lesson (opened as the
// site's root with #lesson=NAME&embed=1, which goes to the lesson's
// embedded page) show the picture of their starting system while the wasm
// has not come, on screen and not under the loader; once the wasm comes,
// the live page takes it over with each of those elements where it was.
func TestSystemShowsBeforeTheWasmAndStaysPut(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.subSite, subPath)
	for _, c := range []struct {
		name, path, wantPath string
		width, height        int64
		elements             []string
	}{
		{"landing", "", subPath, 1280, 800, firstPaintElements},
		// The browser's own window, where the lesson's explanation shows.
		{"lesson", "lessons/" + pageLesson + ".html", subPath + "lessons/" + pageLesson + ".html", 0, 0, lessonPageElements},
		{"embed", "#lesson=" + pageLesson + "&embed=1", subPath + "embed/lessons/" + pageLesson + ".html", 640, 400, embedPageElements},
		{"embed on a phone", "embed/lessons/" + pageLesson + ".html", subPath + "embed/lessons/" + pageLesson + ".html", 390, 844, embedPageElements},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := newBrowser(t)
			if c.width > 0 {
				b.do(t, chromedp.EmulateViewport(c.width, c.height))
			}
			release := holdWasm(t, b)
			defer release()
			if _, err := chromedp.Call(b.ctx, page.Navigate, page.NavigateParams{URL: srv.URL + c.path}); err != nil {
				t.Fatal(err)
			}
			selectors := "[" + strings.Join(jsAll(c.elements), ",") + "]"
			b.waitFor(t, fmt.Sprintf(`location.pathname === %s && document.readyState !== "loading" && %s.every((s) => document.querySelector(s))`, js(c.wantPath), selectors))
			if got := eval[string](t, b, `document.querySelector("main").dataset.ready`); got != "false" {
				t.Fatalf("main[data-ready=%q] with the wasm held back: the wasm ran", got)
			}
			for _, selector := range c.elements {
				if shown := shownAt(t, b, selector); shown != "shown" {
					t.Errorf("%s before the wasm: %s", selector, shown)
				}
			}
			if h := eval[float64](t, b, `document.getElementById("app-wasm-loader").getBoundingClientRect().height`); h > 60 {
				t.Errorf("the loader is %.0f px high: a curtain over the written page, not a strip", h)
			}
			first := eval[map[string][]float64](t, b, fmt.Sprintf(rectsScript, selectors))

			release()
			b.waitReady(t)
			live := eval[map[string][]float64](t, b, fmt.Sprintf(rectsScript, selectors))
			checkNoJump(t, c.elements, first, live)
		})
	}
}

// checkNoJump fails the test for each of selectors whose box (rectsScript)
// moved or changed size by more than a pixel from first to live, as the
// live page took over the written one.
func checkNoJump(t *testing.T, selectors []string, first, live map[string][]float64) {
	t.Helper()
	for _, s := range selectors {
		f, l := first[s], live[s]
		if len(f) != 4 || len(l) != 4 {
			t.Errorf("%s: first %v, live %v: missing", s, f, l)
			continue
		}
		for i, what := range []string{"left", "top", "width", "height"} {
			if d := f[i] - l[i]; d > 1 || d < -1 {
				t.Errorf("%s moved as the live page took over: %s %.0f, then %.0f", s, what, f[i], l[i])
			}
		}
	}
}
