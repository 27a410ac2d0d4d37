package e2e

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"plog/core/scenario"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// ordersScenario is the scenario most tests put in the URL.
const ordersScenario = `seed 42
topic orders partitions=3 segment.records=2
produce orders key=acct-1 value=created count=3
produce orders key=acct-2 value=created count=2
produce orders key=acct-3 value=paid
produce orders value=no-key count=2
truncate orders/0 before=1
topic audit partitions=1
produce audit key=k value=v
`

// linkOf encodes a script as docs/ARCHITECTURE.md defines links, independently of the
// scenario package: "#v1." and base64url, unpadded, of its raw DEFLATE.
func linkOf(t *testing.T, script string) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, script)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return "#v1." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// lane is what the page shows of one partition.
type lane struct {
	Topic     string            `json:"topic"`
	Partition string            `json:"partition"`
	LogStart  string            `json:"logStart"`
	HighWater string            `json:"highWatermark"`
	Records   map[string]string `json:"records"` // offset → key ("" for none)
}

// lanesOnPage reads every lane the page shows.
func lanesOnPage(t *testing.T, b *browser) []lane {
	t.Helper()
	return eval[[]lane](t, b, `Array.from(document.querySelectorAll("[data-topic][data-partition][data-log-start]")).map(el => ({
		topic: el.dataset.topic,
		partition: el.dataset.partition,
		logStart: el.dataset.logStart,
		highWatermark: el.dataset.highWatermark,
		records: Object.fromEntries(Array.from(el.querySelectorAll("[data-offset]")).map(r => [r.dataset.offset, r.dataset.key || ""])),
	}))`)
}

// lanesOfScript runs the script natively: the page, in wasm, must show the
// very same state.
func lanesOfScript(t *testing.T, script string) []lane {
	t.Helper()
	// As the page opens it from linkOf's link: one without a rules line
	// was made before rules were numbered, and runs under rules 1.
	script, err := scenario.DecodeLink(linkOf(t, script))
	if err != nil {
		t.Fatal(err)
	}
	return lanesOfLoaded(t, script)
}

// lanesOfLoaded is what the engine holds after script, as written: a
// lesson's script, which the page runs as it is, under the latest rules
// unless it names others.
func lanesOfLoaded(t *testing.T, script string) []lane {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	l := s.Log()
	var lanes []lane
	for _, topic := range l.TopicNames() {
		n, _ := l.Partitions(topic)
		for p := range n {
			start, _ := l.LogStartOffset(topic, p)
			hw, _ := l.HighWatermark(topic, p)
			records, _ := l.Records(topic, p)
			ln := lane{Topic: topic, Partition: fmt.Sprint(p), LogStart: fmt.Sprint(start), HighWater: fmt.Sprint(hw), Records: map[string]string{}}
			for _, r := range records {
				ln.Records[fmt.Sprint(r.Offset)] = r.Key
			}
			lanes = append(lanes, ln)
		}
	}
	return lanes
}

// checkLanes fails the test unless the page shows what the script makes.
func checkLanes(t *testing.T, b *browser, script string) {
	t.Helper()
	equalLanes(t, lanesOnPage(t, b), lanesOfScript(t, script))
}

// checkLessonLanes is checkLanes for a lesson's script, which the page
// opens as it is written (lanesOfLoaded).
func checkLessonLanes(t *testing.T, b *browser, script string) {
	t.Helper()
	equalLanes(t, lanesOnPage(t, b), lanesOfLoaded(t, script))
}

func equalLanes(t *testing.T, got, want []lane) {
	t.Helper()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lanes on the page:\n%+v\nwant (the same script run natively):\n%+v", got, want)
	}
}

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
	if len(requests) < 5 {
		t.Fatalf("the browser reported only %d requests (%v): the network log is not working", len(requests), requests)
	}
	for _, r := range requests {
		if r != origin && !strings.HasPrefix(r, origin+"/") {
			t.Errorf("request to another origin than %s: %s", origin, r)
		}
	}
}

func TestScenarioInTheURLIsShown(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario))

	checkLanes(t, b, ordersScenario)
	if n := eval[int](t, b, `document.querySelectorAll("[role=alert]").length`); n != 0 {
		t.Errorf("the page shows %d alerts for a good scenario", n)
	}
	if lanes := lanesOnPage(t, b); len(lanes) != 4 {
		t.Errorf("want 4 lanes (orders/0-2, audit/0), got %d", len(lanes))
	}
	sameOrigin(t, b, srv.URL)
	b.noErrors(t)
}

func TestUnreadableLinkShowsAnAlert(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+"#v1.this-is-no-deflate")

	alert := eval[string](t, b, `(document.querySelector("[role=alert]") || {}).innerText || ""`)
	if alert == "" {
		t.Fatal("no [role=alert] for an unreadable link")
	}
	if n := len(lanesOnPage(t, b)); n != 0 {
		t.Errorf("an unreadable link shows %d lanes", n)
	}
}

func TestChangingTheFragmentLoadsTheNewScenario(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario))

	other := "topic payments partitions=2\nproduce payments key=p value=v count=4\n"
	eval[string](t, b, `location.hash = `+fmt.Sprintf("%q", linkOf(t, other))+`, ""`)
	b.waitFor(t, `!!document.querySelector("[data-topic=payments][data-partition='1']") && !document.querySelector("[data-topic=orders]")`)
	checkLanes(t, b, other)
}

func TestOfflineAfterFirstVisitAtRoot(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	b.waitServiceWorker(t)

	srv.stop()
	if _, err := http.Get(srv.URL); err == nil {
		t.Fatal("the server still answers after it was stopped")
	}
	b.reload(t)
	checkLanes(t, b, ordersScenario)
}

// Offline, the page opens at every address it is shared under: as
// index.html, with a query string a chat app or a mailing added, and the
// embedding example with its frames.
func TestOfflinePageOpensAtEveryAddress(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+"index.html"+linkOf(t, ordersScenario))
	checkLanes(t, b, ordersScenario)
	b.waitServiceWorker(t)
	srv.stop()
	if _, err := http.Get(srv.URL); err == nil {
		t.Fatal("the server still answers after it was stopped")
	}
	for _, address := range []string{"index.html", "?utm_source=chat", "index.html?utm_source=mail&utm_medium=email"} {
		b.reopen(t, srv.URL+address+linkOf(t, ordersScenario))
		checkLanes(t, b, ordersScenario)
	}
	b.do(t, chromedp.Navigate("about:blank"))
	b.do(t, chromedp.Navigate(srv.URL+"web/static/embed.html"))
	for _, frame := range []string{"scenario-keys", "scenario-groups"} {
		eval[bool](t, b, `(document.getElementById(`+js(frame)+`).scrollIntoView(), true)`)
		b.waitInFrame(t, frame, `doc.querySelector('main[data-ready="true"] [data-topic][data-partition]')`)
	}
}

func TestSubPathOnPlainStaticServerWorksOffline(t *testing.T) {
	t.Parallel()
	srv := startPlainServer(t, build.subSite, subPath)
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	checkLanes(t, b, ordersScenario)
	sameOrigin(t, b, srv.URL)
	b.waitServiceWorker(t)

	srv.stop()
	b.reload(t)
	if got := eval[string](t, b, `location.pathname`); got != subPath {
		t.Errorf("offline page is at %q, want %q", got, subPath)
	}
	checkLanes(t, b, ordersScenario)
	b.reopen(t, srv.URL+"index.html?utm_source=chat"+linkOf(t, ordersScenario))
	checkLanes(t, b, ordersScenario)
}

// TestLoadingProgressCountsRawBytes watches the loading screen while the wasm
// arrives brotli-compressed: go-app alone would divide decompressed bytes by
// the compressed Content-Length and climb to several hundred percent.
func TestLoadingProgressCountsRawBytes(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.recordLoaderLabels(t)
	responses := chromedp.Events(b.ctx, network.ResponseReceived)
	encoding := make(chan string, 1)
	go func() {
		for ev, err := range responses {
			if err != nil {
				return
			}
			if strings.HasSuffix(ev.Response.URL, "/web/app.wasm") {
				encoding <- fmt.Sprint(ev.Response.Headers["Content-Encoding"])
				return
			}
		}
	}()
	b.open(t, srv.URL)

	select {
	case enc := <-encoding:
		if enc != "br" {
			t.Errorf("app.wasm came with Content-Encoding %q, want br", enc)
		}
	case <-time.After(readyTimeout):
		t.Fatal("the page is ready, and no response for app.wasm came")
	}
	labels := eval[[]string](t, b, `window.plogLoaderLabels`)
	var percents []int
	for _, l := range labels {
		var p int
		if _, err := fmt.Sscanf(l[strings.LastIndex(l, " ")+1:], "%d%%", &p); err == nil {
			percents = append(percents, p)
		}
	}
	if len(percents) < 3 {
		t.Fatalf("the loading screen showed too few steps: %q", labels)
	}
	between := false
	for i, p := range percents {
		if p < 0 || p > 100 || (i > 0 && p < percents[i-1]) {
			t.Fatalf("progress went %v: it must climb from 0 to 100", percents)
		}
		between = between || (p > 0 && p < 100)
	}
	if !between || percents[len(percents)-1] != 100 {
		t.Errorf("progress went %v: want steps between 0 and 100, ending at 100", percents)
	}
	// The page marks its start on the performance timeline (app/timing.go)
	// for pagebench: main began, then the first render was done.
	marks := eval[[]float64](t, b, `["plog-main", "plog-mounted"].map(n => (performance.getEntriesByName(n, "mark")[0] || {startTime: -1}).startTime)`)
	if len(marks) != 2 || marks[0] <= 0 || marks[1] < marks[0] {
		t.Errorf("the start's marks (plog-main, plog-mounted) at %v ms: want both, main first", marks)
	}
}

func TestServedWasmExecMatchesTheToolchain(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)

	// The version of Go that built the running wasm, as the wasm says.
	builtWith := eval[string](t, b, `document.querySelector("[data-go-version]").dataset.goVersion`)
	out, err := exec.Command("go", "env", "GOVERSION", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	env := strings.Fields(string(out))
	if builtWith != env[0] {
		t.Fatalf("the wasm was built with %s but the go command is %s", builtWith, env[0])
	}
	want, err := os.ReadFile(filepath.Join(env[1], "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	served := eval[string](t, b, `fetch("/wasm_exec.js").then(r => r.text())`)
	if served != string(want) {
		t.Errorf("the served wasm_exec.js (%d bytes) differs from %s's (%d bytes)", len(served), builtWith, len(want))
	}
}

func TestSecurityHeaders(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	for _, path := range []string{"", "web/app.wasm", "app.js", "app-worker.js"} {
		res, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		h := res.Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "'wasm-unsafe-eval'", "frame-ancestors *", "object-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("/%s: CSP %q lacks %q", path, csp, want)
			}
		}
		for _, directive := range strings.Split(csp, ";") {
			if strings.Contains(directive, "http") || strings.Contains(directive, "'unsafe-eval'") {
				t.Errorf("/%s: CSP directive %q lets in another host or eval", path, directive)
			}
		}
		if got := h.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("/%s: X-Content-Type-Options = %q, want nosniff", path, got)
		}
		if got := h.Get("X-Frame-Options"); got != "" {
			t.Errorf("/%s: X-Frame-Options = %q: embedding must stay allowed", path, got)
		}
	}
}
