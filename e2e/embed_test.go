package e2e

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chromedp/chromedp"
)

// startCoursePage serves, on an origin of its own, a course page that embeds
// src in an iframe with the given extra attributes.
func startCoursePage(t *testing.T, src, attrs string) string {
	t.Helper()
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>A course on Kafka</title></head><body>
<h1>Keys and partitions</h1>
<iframe src="%s" %s width="1000" height="700" title="plog"></iframe>
</body></html>`, html.EscapeString(src), attrs)
	}))
	t.Cleanup(course.Close)
	return course.URL
}

func TestEmbeddedInAnotherSitesPage(t *testing.T) {
	srv := startPlogServer(t, build.rootSite, "/")
	course := startCoursePage(t, srv.URL+linkOf(t, ordersScenario), "")
	b := newBrowser(t)
	b.do(t, chromedp.Navigate(course))

	frames, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSS("iframe")))
	if err != nil || len(frames) != 1 {
		t.Fatalf("want the course page's iframe, got %d (%v)", len(frames), err)
	}
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(ready), chromedp.FromNode(frames[0]))); err != nil {
		t.Fatalf("the embedded page never became ready: %v", err)
	}
	lanes, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSSAll("[data-topic][data-partition]"), chromedp.FromNode(frames[0])))
	if err != nil {
		t.Fatal(err)
	}
	if want := len(lanesOfScript(t, ordersScenario)); len(lanes) != want {
		t.Errorf("the embedded page shows %d lanes, want %d", len(lanes), want)
	}
}

// TestRunsWhereStorageIsForbidden loads the page as a sandbox without
// allow-same-origin makes it: an opaque origin, where merely reading
// localStorage throws. go-app reads it as it starts; without the page's
// storage guard it panics and the page never starts.
func TestRunsWhereStorageIsForbidden(t *testing.T) {
	files := http.FileServer(http.Dir(build.rootSite))
	sandboxed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The same restrictions as <iframe sandbox="allow-scripts">.
		w.Header().Set("Content-Security-Policy", "sandbox allow-scripts")
		// An opaque origin's fetch of app.wasm is cross-origin.
		w.Header().Set("Access-Control-Allow-Origin", "*")
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(sandboxed.Close)

	b := newBrowser(t)
	b.open(t, sandboxed.URL+"/"+linkOf(t, ordersScenario))
	if origin := eval[string](t, b, `self.origin`); origin != "null" {
		t.Fatalf("the page's origin is %q: the sandbox is not in force, the test proves nothing", origin)
	}
	checkLanes(t, b, ordersScenario)
	if got := eval[string](t, b, `localStorage.setItem("k", "v"), localStorage.getItem("k")`); got != "v" {
		t.Errorf("the stand-in storage gave back %q, want v", got)
	}
}
