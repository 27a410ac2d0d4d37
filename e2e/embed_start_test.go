package e2e

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A course page of several embeds starts the runtime of those in view only
// (web/static/embed-start.js). The page, on an origin of its own, stacks
// three frames as a course page does (loading="lazy", as the Share dialog
// and web/static/embed.html write them): one at the top, in view; one whose
// top 40 pixels peek above the window's foot, too little to count as in view;
// one far below the fold. Each frame's address carries a query of its own,
// so the test can tell their requests apart.
func TestEmbedsStartWhenShownOrTouched(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	link := linkOf(t, ordersScenario) + "&embed=1"
	src := func(name string) string {
		return html.EscapeString(strings.TrimSuffix(srv.URL, "/") + "/?frame=" + name + link)
	}
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>A course on Kafka</title>
<style>body { margin: 0; height: 30000px; position: relative; } iframe { position: absolute; left: 0; border: 0; }</style>
</head><body>
<iframe id="top" style="top: 0" src="%s" width="640" height="400" loading="lazy" title="plog: top"></iframe>
<iframe id="peek" style="top: calc(100vh - 40px)" src="%s" width="640" height="400" loading="lazy" title="plog: peek"></iframe>
<iframe id="far" style="top: 20000px" src="%s" width="640" height="400" loading="lazy" title="plog: far"></iframe>
</body></html>`, src("top"), src("peek"), src("far"))
	}))
	t.Cleanup(course.Close)

	b := newBrowser(t)
	// The peek frame's preload fetches the wasm it does not yet run: the
	// browser says so, a warning of no consequence.
	b.allowConsole("preloaded using link preload but not used", "a frame out of view keeps its preload for when it starts")
	b.do(t, chromedp.Navigate(course.URL))
	// frame is the iframe #id once it holds its own page: a lazy frame
	// holds an empty document until the browser loads it.
	frame := func(id string) *chromedp.Node {
		t.Helper()
		deadline := time.Now().Add(readyTimeout)
		for {
			nodes, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSS("iframe#"+id)))
			if err != nil || len(nodes) != 1 {
				t.Fatalf("want the course page's iframe #%s, got %d (%v)", id, len(nodes), err)
			}
			if doc := nodes[0].ContentDocument; doc != nil && strings.Contains(doc.DocumentURL, "frame="+id) {
				return nodes[0]
			}
			if time.Now().After(deadline) {
				t.Fatalf("the iframe #%s never loaded its page", id)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitIn := func(id, selector, what string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
		defer cancel()
		if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(selector), chromedp.FromNode(frame(id)))); err != nil {
			t.Fatalf("frame #%s: %s: %v", id, what, err)
		}
	}
	count := func(id, selector string) int {
		t.Helper()
		nodes, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSSAll(selector), chromedp.AtLeast(0), chromedp.FromNode(frame(id))))
		if err != nil {
			t.Fatal(err)
		}
		return len(nodes)
	}
	requestedFrame := func(name string) bool {
		for _, u := range b.requested() {
			if strings.Contains(u, "frame="+name) {
				return true
			}
		}
		return false
	}

	waitIn("top", ready, "the frame in view never became ready")
	waitIn("peek", `html[data-starts-when-shown="true"] #app-wasm-loader-label`, "the frame out of view does not wait to be shown")
	// A runtime that starts replaces this note with the download's progress
	// at once, long before its scenario is ready as the top frame's is.
	label, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS("#app-wasm-loader-label"), chromedp.FromNode(frame("peek"))))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(label, "Starts when shown") || count("peek", ready) != 0 {
		t.Fatalf("the frame that only peeks into view started its runtime untouched (its loader says %q)", label)
	}
	if requestedFrame("far") {
		t.Fatal("the frame far below the fold was loaded before it was scrolled to")
	}

	// A click on the strip that shows starts it.
	height := eval[float64](t, b, `window.innerHeight`)
	b.do(t, chromedp.MouseClickXY(100, height-20))
	waitIn("peek", ready, "the frame clicked never became ready")

	// Scrolling the far frame into view loads it and starts it.
	eval[bool](t, b, `(document.getElementById("far").scrollIntoView({block: "center"}), true)`)
	waitIn("far", ready, "the frame scrolled into view never became ready")
	if !requestedFrame("far") {
		t.Error("the far frame became ready without a request of its own: the test did not watch the network")
	}
}
