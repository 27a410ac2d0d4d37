package main

import (
	"fmt"
	"log"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// networkProfile is a network the page is loaded over: Chromium throttles
// every request of the page to it (Network.emulateNetworkConditionsByRule),
// or, with no throughput, leaves loopback as it is.
type networkProfile struct {
	name        string  // names the samples: PageNetworkCold10Mbit
	what        string  // for the table
	bytesPerSec float64 // download and upload throughput; 0: loopback
	latencyMs   float64 // added to each request, from sent to the response's headers
	page        string  // the page opened, from the site's root: "" is the landing page
}

// networkProfiles are those of issue 22: a good connection, a poorer one
// (a course taken on a train), and loopback as the baseline; and the good
// connection again opening a lesson's page, which the site generator writes
// with the lesson and its starting picture (app/lesson_page.go).
var networkProfiles = []networkProfile{
	{"Loopback", "loopback", 0, 0, ""},
	{"10Mbit", "10 Mbit/s, 40 ms", 10e6 / 8, 40, ""},
	{"5Mbit", "5 Mbit/s, 70 ms", 5e6 / 8, 70, ""},
	{"10MbitLesson", "10 Mbit/s, 40 ms, a lesson's page (`lessons/commit-resume.html`)", 10e6 / 8, 40, "lessons/commit-resume.html"},
}

// throttle applies the profile to the tab's requests.
func (p networkProfile) throttle(t *tab) error {
	if p.bytesPerSec == 0 {
		return nil
	}
	_, err := chromedp.Call(t.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{
			Latency:            p.latencyMs,
			DownloadThroughput: p.bytesPerSec,
			UploadThroughput:   p.bytesPerSec,
		}},
	})
	return err
}

// paintScript runs before the page's own scripts and notes, in
// milliseconds from the start of the navigation, the largest contentful
// paint so far and what it painted (the web's measure of when the main
// content shows, which should come within 2.5 s).
const paintScript = `(() => {
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      window.plogLCP = e.startTime;
      const el = e.element;
      window.plogLCPWhat = el ? el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ")[0] : "") : "";
    }
  }).observe({type: "largest-contentful-paint", buffered: true});
})()`

// loadFigures are what one visit measured.
type loadFigures struct {
	FCP      float64 `json:"fcp"`  // first contentful paint, ms
	LCP      float64 `json:"lcp"`  // largest contentful paint so far, ms
	LCPWhat  string  `json:"what"` // the element it painted
	Ready    float64 `json:"ready"`
	Bytes    float64 `json:"-"` // transferred for the page, headers included
	WasmHeap float64 `json:"-"` // the wasm's linear memory
	JSHeap   float64 `json:"-"` // JavaScript heap in use after GC
	// Start is the visit's start split by the page's marks (readiness):
	// where the time went on this network.
	Start readiness `json:"-"`
}

const paintFiguresScript = `({
  fcp: (performance.getEntriesByName("first-contentful-paint")[0] || {startTime: 0}).startTime,
  lcp: window.plogLCP || 0,
  what: window.plogLCPWhat || "",
  ready: window.plogReadyAt || 0,
})`

// transfer counts the bytes the page's requests took on the wire since
// the last reset (the service worker's own requests, made in its own
// target, are not the page's).
type transfer struct {
	mu    sync.Mutex
	bytes float64
}

func (x *transfer) watch(t *tab) {
	go func() {
		for ev, err := range chromedp.Events(t.ctx, network.LoadingFinished) {
			if err != nil {
				return
			}
			x.mu.Lock()
			x.bytes += ev.EncodedDataLength
			x.mu.Unlock()
		}
	}()
}

func (x *transfer) take() float64 {
	x.mu.Lock()
	defer x.mu.Unlock()
	b := x.bytes
	x.bytes = 0
	return b
}

// measureOnNetwork loads the empty page in a fresh browser over the
// profile, cold, then, once its service worker is active (when worker says
// it has one), again (a repeat visit), and returns what each visit
// measured.
func measureOnNetwork(chromium, dir, url string, p networkProfile, worker bool) (cold, repeat loadFigures, err error) {
	t, err := newTab(chromium, dir)
	if err != nil {
		return cold, repeat, err
	}
	defer t.cancel()
	if _, err := chromedp.Call(t.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: paintScript}); err != nil {
		return cold, repeat, err
	}
	var x transfer
	x.watch(t)
	if err := p.throttle(t); err != nil {
		return cold, repeat, fmt.Errorf("throttling to %s: %w", p.what, err)
	}
	visit := func() (loadFigures, error) {
		x.take()
		start, err := t.visit(url)
		if err != nil {
			return loadFigures{}, err
		}
		// A page ready before its first paint (a static page's script runs
		// before it) has no paint to read yet.
		if err := t.waitFor(readyTimeout, func() (bool, error) {
			return chromedp.Run(t.ctx, chromedp.Evaluate[bool](`performance.getEntriesByName("first-contentful-paint").length > 0`))
		}); err != nil {
			return loadFigures{}, fmt.Errorf("no first paint: %w", err)
		}
		f, err := chromedp.Run(t.ctx, chromedp.Evaluate[loadFigures](paintFiguresScript))
		if err != nil {
			return f, err
		}
		f.Start = start
		f.WasmHeap, f.JSHeap, err = t.pageMemory()
		f.Bytes = x.take()
		return f, err
	}
	if cold, err = visit(); err != nil {
		return cold, repeat, err
	}
	if worker {
		if err := t.waitForServiceWorker(); err != nil {
			return cold, repeat, err
		}
	}
	repeat, err = visit()
	return cold, repeat, err
}

// pageMemory reads, after a garbage collection, the wasm's linear memory
// and the JavaScript heap in use.
func (t *tab) pageMemory() (wasm, js float64, err error) {
	if _, err := chromedp.Call(t.ctx, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
		return 0, 0, err
	}
	wasm, err = chromedp.Run(t.ctx, chromedp.Evaluate[float64](`window.plogWasm ? window.plogWasm.exports.mem.buffer.byteLength : 0`))
	if err != nil {
		return 0, 0, err
	}
	heap, err := chromedp.Call(t.ctx, runtime.GetHeapUsage, cdp.Empty{})
	if err != nil {
		return 0, 0, err
	}
	return wasm, heap.UsedSize, nil
}

// runNetwork measures every profile runs times, printing each visit as a
// benchmark line and, at the end, a Markdown table of the medians.
func runNetwork(chromium, dir, url string, runs int) error {
	type key struct{ profile, visit string }
	all := map[key][]loadFigures{}
	for i := range runs {
		for _, p := range networkProfiles {
			log.Printf("run %d of %d, %s", i+1, runs, p.what)
			cold, repeat, err := measureOnNetwork(chromium, dir, url+p.page, p, true)
			if err != nil {
				return fmt.Errorf("%s: %w", p.what, err)
			}
			for visit, f := range map[string]loadFigures{"Cold": cold, "Repeat": repeat} {
				sample("PageNetwork"+visit+p.name, msToNs(f.Ready), "ns/op", msToNs(f.FCP), "fcp-ns", msToNs(f.LCP), "lcp-ns",
					int64(f.Bytes), "transferred-bytes", int64(f.WasmHeap), "wasm-bytes", int64(f.JSHeap), "js-heap-bytes",
					msToNs(f.Start.Fetched), "wasm-fetched-ns", msToNs(f.Start.Instantiated), "wasm-instantiated-ns",
					msToNs(f.Start.Main), "go-main-ns", msToNs(f.Start.Mounted), "mounted-ns")
				all[key{p.name, visit}] = append(all[key{p.name, visit}], f)
			}
		}
	}
	fmt.Printf("\n| network | visit | first contentful paint | largest contentful paint (what) | ready (`data-ready`) | transferred | wasm memory | JS heap |\n|---|---|---|---|---|---|---|---|\n")
	for _, p := range networkProfiles {
		for _, visit := range []string{"Cold", "Repeat"} {
			fs := all[key{p.name, visit}]
			of := func(get func(loadFigures) float64) []float64 {
				var v []float64
				for _, f := range fs {
					v = append(v, get(f))
				}
				return v
			}
			whats := map[string]bool{}
			for _, f := range fs {
				whats[f.LCPWhat] = true
			}
			fmt.Printf("| %s | %s | %s | %s (%s) | %s | %s | %s | %s |\n", p.what, strings.ToLower(visit),
				spreadMs(of(func(f loadFigures) float64 { return f.FCP })),
				spreadMs(of(func(f loadFigures) float64 { return f.LCP })), strings.Join(slices.Sorted(maps.Keys(whats)), ", "),
				spreadMs(of(func(f loadFigures) float64 { return f.Ready })),
				spreadMB(of(func(f loadFigures) float64 { return f.Bytes })),
				spreadMB(of(func(f loadFigures) float64 { return f.WasmHeap })),
				spreadMB(of(func(f loadFigures) float64 { return f.JSHeap })))
		}
	}
	return nil
}

// spread formats the median of values, with the least and greatest.
func spread(values []float64, format func(float64) string) string {
	v := slices.Clone(values)
	slices.Sort(v)
	if len(v) == 0 {
		return "–"
	}
	median := v[len(v)/2]
	if len(v)%2 == 0 {
		median = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	if v[0] == v[len(v)-1] {
		return format(median)
	}
	return fmt.Sprintf("%s (%s–%s)", format(median), format(v[0]), format(v[len(v)-1]))
}

func spreadMs(v []float64) string {
	return spread(v, func(ms float64) string {
		if ms >= 1000 {
			return fmt.Sprintf("%.2f s", ms/1000)
		}
		return fmt.Sprintf("%.0f ms", ms)
	})
}

func spreadMB(v []float64) string {
	return spread(v, func(b float64) string { return fmt.Sprintf("%.2f MB", b/1e6) })
}

// runOnNetworks builds and serves the site, then measures it
// on each network profile, and the course page of five embeds on loopback
// (course.go).
func runOnNetworks(runs int) error {
	if runs < 1 {
		return fmt.Errorf("-runs must be at least 1")
	}
	b, err := startBench(true)
	if err != nil {
		return err
	}
	defer b.stop()
	chromium, dir, url, dist := b.chromium, b.dir, b.url, b.dist
	version, err := browserVersion(chromium, dir)
	if err != nil {
		return err
	}
	fmt.Printf("browser: %s\n", version)
	if err := printSizes(dist); err != nil {
		return err
	}
	if err := runNetwork(chromium, dir, url, runs); err != nil {
		return err
	}
	return runCoursePage(chromium, dir, url, runs)
}
