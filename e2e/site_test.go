package e2e

import (
	"net/url"
	"strings"
	"testing"
)

// sameOrigin fails the test for every request that left the page's origin.
// The page must work on a laptop with no network: everything it needs is in
// dist/.
func sameOrigin(t *testing.T, b *browser, pageURL string) {
	t.Helper()
	page, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	origin := page.Scheme + "://" + page.Host
	requests := b.requested()
	if len(requests) == 0 {
		t.Fatal("the browser reported no requests at all: the network log is not working")
	}
	for _, r := range requests {
		if r != origin && !strings.HasPrefix(r, origin+"/") {
			t.Errorf("request to another origin than %s: %s", origin, r)
		}
	}
}

func TestPageStartsWithAnEmptyScenario(t *testing.T) {
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)

	hint := eval[string](t, b, `document.querySelector("main .topics").innerText`)
	if !strings.Contains(hint, "No topics yet") {
		t.Errorf("empty scenario shows %q, want the no-topics hint", hint)
	}
	if n := eval[int](t, b, `document.querySelectorAll("[data-topic][data-partition]").length`); n != 0 {
		t.Errorf("empty scenario shows %d lanes, want 0", n)
	}
	sameOrigin(t, b, srv.URL)
}

func TestOfflineAfterFirstVisitAtRoot(t *testing.T) {
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)
	b.waitServiceWorker(t)

	srv.stop()
	b.reload(t)
	if n := eval[int](t, b, `document.querySelectorAll("main").length`); n != 1 {
		t.Errorf("offline page has %d <main>, want 1", n)
	}
}

func TestSubPathOnPlainStaticServerWorksOffline(t *testing.T) {
	srv := startPlainServer(t, build.subSite, subPath)
	b := newBrowser(t)
	b.open(t, srv.URL)
	sameOrigin(t, b, srv.URL)
	b.waitServiceWorker(t)

	srv.stop()
	b.reload(t)
	if got := eval[string](t, b, `location.pathname`); got != subPath {
		t.Errorf("offline page is at %q, want %q", got, subPath)
	}
}
