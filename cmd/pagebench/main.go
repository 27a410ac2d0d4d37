// Command pagebench measures plog's page in headless Chromium, served on
// loopback by plog's own server: how long the page takes to be ready, cold
// (a fresh profile) and with its service worker warm (a second visit); what
// the wasm weighs on the wire; and, on a page opened with a topic of
// 100,000 records (the size the repaint budget names) and on one as full
// as a scenario may make it (a million records), read by a group of one
// member, how long the page took to be ready, what it holds in memory, and
// how long a gesture takes to show: a produce click, and a click on the
// member's Poll button on its card.
//
// It is a measuring program, not a test: it fails only when it cannot
// measure. It builds the wasm and the site into a temporary directory, as
// the browser tests do, and prints each sample as a line of `go test -bench`
// output, which cmd/benchreport reads:
//
//	go run ./cmd/pagebench -runs 5
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"plog/internal/headless"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"plog/core/scenario"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("pagebench: ")
	runs := flag.Int("runs", 5, "how many times to measure each figure, each time in a fresh browser")
	clicks := flag.Int("clicks", 2, "produce clicks measured per run")
	profile := flag.String("profile", "", "write V8's CPU profile of the first run's cold start of the empty page (its size start: click-start.cpuprofile) and produce clicks on each full page to this file, the page's size before its extension (click-1M.cpuprofile), and print the top functions")
	seekOnly := flag.Bool("seek", false, "measure only the timeline's seek across 1,000 steps (seek.go), -clicks times each way a run")
	peersOnly := flag.Bool("peers", false, "measure only plog's page beside its peers, a go-app hello and a static page (peers.go)")
	onNetwork := flag.Bool("network", false, "measure instead cold and repeat visits of the empty page over throttled networks (network.go), and the memory of the course page of five embeds before and after interaction (course.go)")
	flag.Parse()
	if *onNetwork {
		if err := runOnNetworks(*runs); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *runs < 1 || *clicks < 1 || *clicks >= fullHeadroom && !*seekOnly && !*peersOnly {
		log.Fatalf("-runs and -clicks must be at least 1, with fewer than %d clicks a run", fullHeadroom)
	}
	if err := run(*runs, *clicks, *profile, *seekOnly, *peersOnly); err != nil {
		log.Fatal(err)
	}
}

// fullPage is a page opened on a link that fills a topic: its records
// leave fullHeadroom below a round size, so that every measured produce
// click is accepted (each run opens the link afresh).
type fullPage struct {
	size    string // the round size, which names its samples: PageReadyCold1M
	records int
}

// fullHeadroom is how many records below its round size a full page
// starts: room for the warm-up click and the measured ones.
const fullHeadroom = 10

// fullPages are the pages measured with a full topic: 100,000 records,
// where the repaint budget is set, and as many as a scenario may produce.
var fullPages = []fullPage{
	{"100k", 100_000 - fullHeadroom},
	{"1M", scenario.MaxRecords - fullHeadroom},
}

// script fills a topic of four partitions with the page's records, keyless
// so that they spread evenly, in produce commands of at most
// scenario.MaxProduceCount records; then a group's member joins, reading
// from the start, so that the page draws its card and its marks on the
// lanes as it does in use, and its Poll button has records to read.
func (f fullPage) script() string {
	var b strings.Builder
	b.WriteString("seed 1\ntopic orders partitions=4\n")
	for left := f.records; left > 0; left -= scenario.MaxProduceCount {
		fmt.Fprintf(&b, "produce orders value=v count=%d\n", min(left, scenario.MaxProduceCount))
	}
	fmt.Fprintf(&b, "config group %s auto.offset.reset=earliest\njoin %s %s topics=orders\nadvance 4s\n", pollGroup, pollGroup, pollMember)
	return b.String()
}

// The group and member whose Poll button is measured.
const pollGroup, pollMember = "readers", "r1"

// bench is a built site served on loopback, and the Chromium that measures
// it, in a temporary folder that stop removes.
type bench struct {
	chromium, dir, url, dist, site string
	stop                           func()
}

// startBench builds the site (its wasm stripped or not) and serves it.
func startBench(stripped bool) (*bench, error) {
	chromium, err := findChromium()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "plog-pagebench-")
	if err != nil {
		return nil, err
	}
	site, dist, err := buildSite(dir, stripped)
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("building the site: %w", err)
	}
	url, stop, err := serve(site, dist)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &bench{chromium: chromium, dir: dir, url: url, dist: dist, site: site, stop: func() { stop(); os.RemoveAll(dir) }}, nil
}

func run(runs, clicks int, profile string, seekOnly, peersOnly bool) error {
	// A profile names the Go functions only when the wasm keeps its symbols,
	// which the site's wasm (built with -s -w, as make wasm does) drops.
	b, err := startBench(profile == "")
	if err != nil {
		return err
	}
	defer b.stop()
	chromium, dir, url, dist := b.chromium, b.dir, b.url, b.dist
	links := make([]string, len(fullPages))
	for i, f := range fullPages {
		link, err := scenario.EncodeLink(f.script())
		if err != nil {
			return err
		}
		links[i] = url + "#" + link
	}
	seek, err := seekLink()
	if err != nil {
		return err
	}
	var peers []peer
	if !seekOnly {
		var stop func()
		peers, stop, err = startPeers(dir, b.site)
		defer stop()
		if err != nil {
			return err
		}
	}

	version, err := browserVersion(chromium, dir)
	if err != nil {
		return err
	}
	fmt.Printf("browser: %s\n", version)
	for _, f := range fullPages {
		fmt.Printf("records-%s: %d\n", f.size, f.records)
	}
	fmt.Printf("max-records: %d\n", scenario.MaxRecords)
	if profile == "" {
		if err := printSizes(dist); err != nil {
			return err
		}
	}
	for i := range runs {
		log.Printf("run %d of %d", i+1, runs)
		if !seekOnly {
			if err := measurePeers(chromium, dir, url, peers); err != nil {
				return fmt.Errorf("beside the peers: %w", err)
			}
		}
		if peersOnly {
			continue
		}
		if err := measureSeek(chromium, dir, url+"#"+seek, clicks, profilePath(profile, "seek")); err != nil {
			return fmt.Errorf("the seek across %d steps: %w", seekSteps, err)
		}
		if seekOnly {
			profile = ""
			continue
		}
		if err := measureVisits(chromium, dir, url, profilePath(profile, "start")); err != nil {
			return err
		}
		for i, f := range fullPages {
			if err := measureFull(chromium, dir, links[i], f.size, clicks, profilePath(profile, f.size)); err != nil {
				return fmt.Errorf("the page of %d records: %w", f.records, err)
			}
		}
		profile = "" // the first run's clicks only
	}
	return nil
}

// findChromium returns the browser to drive: $PLOG_CHROMIUM, else Debian's
// chromium, as the browser tests do.
func findChromium() (string, error) {
	if p := os.Getenv("PLOG_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no Chromium found: install it (Debian: apt-get install -y chromium) or set PLOG_CHROMIUM")
}

// buildSite builds the wasm as `make wasm` does (or with its symbols, for
// profiling) and generates the site for the root of a host as `make dist`
// does (brotli at 11), returning the site's server and the site.
func buildSite(dir string, strip bool) (site, dist string, err error) {
	wasm := filepath.Join(dir, "app.wasm")
	site = filepath.Join(dir, "plog-site")
	dist = filepath.Join(dir, "dist")
	ldflags := "-s -w"
	if !strip {
		ldflags = ""
	}
	steps := []struct {
		env  []string
		args []string
	}{
		{[]string{"GOOS=js", "GOARCH=wasm"}, []string{"go", "build", "-ldflags", ldflags, "-o", wasm, "./wasm"}},
		{nil, []string{"go", "build", "-o", site, "."}},
		{nil, []string{site, "-build-only", "-brotli", "11", "-wasm", wasm, "-prefix", "/", "-out", dist}},
	}
	for _, s := range steps {
		log.Print(strings.Join(s.args, " "))
		cmd := exec.Command(s.args[0], s.args[1:]...)
		cmd.Env = append(os.Environ(), s.env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("%s: %v\n%s", strings.Join(s.args, " "), err, out)
		}
	}
	return site, dist, nil
}

// serve starts plog's server on a free loopback port and returns the page's
// URL.
func serve(site, dist string) (url string, stop func(), err error) {
	cmd := exec.Command(site, "-serve-only", "-out", dist, "-prefix", "/", "-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return "", nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	stop = func() {
		cmd.Process.Kill()
		cmd.Wait()
	}
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		// The server prints: plog: serving <dir> on http://127.0.0.1:PORT/
		if _, u, ok := strings.Cut(lines.Text(), " on "); ok && strings.HasPrefix(u, "http://") {
			go io.Copy(io.Discard, stdout)
			return u, stop, nil
		}
	}
	stop()
	return "", nil, fmt.Errorf("plog's server exited before it said where it serves: %v", lines.Err())
}

// printSizes prints what the wasm weighs as built and as plog's server
// sends it, compressed.
func printSizes(dist string) error {
	var sizes []string
	for _, f := range []struct{ name, unit string }{
		{"app.wasm", "raw-bytes"}, {"app.wasm.br", "brotli-bytes"}, {"app.wasm.gz", "gzip-bytes"},
	} {
		info, err := os.Stat(filepath.Join(dist, "web", f.name))
		if err != nil {
			return err
		}
		sizes = append(sizes, fmt.Sprintf("%d %s", info.Size(), f.unit))
	}
	fmt.Printf("BenchmarkPageWasmSize\t1\t%s\n", strings.Join(sizes, "\t"))
	return nil
}

// sample prints one measurement as a benchmark line: name, one iteration,
// then value and unit pairs.
func sample(name string, values ...any) {
	var b strings.Builder
	fmt.Fprintf(&b, "Benchmark%s\t1", name)
	for i := 0; i+1 < len(values); i += 2 {
		fmt.Fprintf(&b, "\t%v %s", values[i], values[i+1])
	}
	fmt.Println(b.String())
}

// tab is one headless Chromium with a fresh profile and one page.
type tab struct {
	ctx    context.Context
	cancel func()

	mu          sync.Mutex
	wasmRequest network.RequestID
	wasmBytes   float64 // bytes received for the wasm, headers included
}

// observeScript runs before the page's own scripts in every document: it
// notes when main[data-ready="true"] first appears and when the wasm is
// instantiated (milliseconds since the navigation began), and keeps the
// wasm instance, whose linear memory is the Go heap of the page.
const observeScript = `(() => {
  const ready = () => {
    if (window.plogReadyAt === undefined && document.querySelector('main[data-ready="true"]')) {
      window.plogReadyAt = performance.now();
    }
  };
  new MutationObserver(ready).observe(document, {subtree: true, childList: true, attributes: true, attributeFilter: ["data-ready"]});
  for (const name of ["instantiateStreaming", "instantiate"]) {
    const original = WebAssembly[name];
    if (!original) continue;
    WebAssembly[name] = async function (...args) {
      const result = await original.apply(WebAssembly, args);
      if (result && result.instance) {
        window.plogWasm = result.instance;
        window.plogWasmAt = performance.now();
      }
      return result;
    };
  }
})()`

// newTab starts Chromium with a fresh profile under dir.
func newTab(chromium, dir string) (*tab, error) {
	profile, err := os.MkdirTemp(dir, "profile-")
	if err != nil {
		return nil, err
	}
	opts := headless.Options(chromium, profile)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	t := &tab{ctx: ctx, cancel: func() {
		cancelCtx()
		cancelAlloc()
		os.RemoveAll(profile)
	}}
	if err := chromedp.Do(ctx); err != nil {
		t.cancel()
		return nil, fmt.Errorf("starting Chromium (%s): %w", chromium, err)
	}
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: observeScript}); err != nil {
		t.cancel()
		return nil, err
	}
	go func() {
		for ev, err := range chromedp.Events(ctx, network.RequestWillBeSent) {
			if err != nil {
				return
			}
			if strings.HasSuffix(ev.Request.URL, "/app.wasm") {
				t.mu.Lock()
				t.wasmRequest = ev.RequestID
				t.mu.Unlock()
			}
		}
	}()
	go func() {
		for ev, err := range chromedp.Events(ctx, network.LoadingFinished) {
			if err != nil {
				return
			}
			t.mu.Lock()
			if ev.RequestID == t.wasmRequest {
				t.wasmBytes = ev.EncodedDataLength
			}
			t.mu.Unlock()
		}
	}()
	return t, nil
}

// readyTimeout bounds how long a page may take to be ready on a busy
// machine.
const readyTimeout = 2 * time.Minute

// readiness is when, in milliseconds from the start of a navigation, the
// wasm had arrived, was instantiated (compiled and linked), and the page
// said it was ready.
type readiness struct {
	Fetched      float64 `json:"fetched"`
	Instantiated float64 `json:"instantiated"`
	// Main is when the wasm's main began, after the Go runtime's start and
	// every package's init; Mounted when the page's first render was done
	// and the link applied (the marks of app/timing.go).
	Main    float64 `json:"main"`
	Mounted float64 `json:"mounted"`
	Ready   float64 `json:"ready"`
}

// sample prints the readiness as a benchmark line: the time to ready, and
// the milestones on the way.
func (r readiness) sample(name string) {
	sample(name, msToNs(r.Ready), "ns/op", msToNs(r.Fetched), "wasm-fetched-ns", msToNs(r.Instantiated), "wasm-instantiated-ns",
		msToNs(r.Main), "go-main-ns", msToNs(r.Mounted), "mounted-ns")
}

// readinessScript reads the page's readiness, or null before it is ready.
// The wasm's arrival is its resource timing's responseEnd (0 when the
// service worker answered from its cache, which leaves no entry).
const readinessScript = `window.plogReadyAt === undefined ? null : {
  ready: window.plogReadyAt,
  instantiated: window.plogWasmAt || 0,
  main: (performance.getEntriesByName("plog-main")[0] || {startTime: 0}).startTime,
  mounted: (performance.getEntriesByName("plog-mounted")[0] || {startTime: 0}).startTime,
  fetched: (performance.getEntriesByType("resource").find(e => e.name.endsWith("/app.wasm")) || {responseEnd: 0}).responseEnd,
}`

// visit navigates to url and waits until the page is ready.
func (t *tab) visit(url string) (readiness, error) { return t.visitFrom(url, true) }

// visitFrom navigates to url, from about:blank when blank, and waits until
// the page is ready.
func (t *tab) visitFrom(url string, blank bool) (readiness, error) {
	if blank {
		if err := chromedp.Do(t.ctx, chromedp.Navigate("about:blank")); err != nil {
			return readiness{}, err
		}
	}
	if err := chromedp.Do(t.ctx, chromedp.Navigate(url)); err != nil {
		return readiness{}, err
	}
	var r readiness
	err := t.waitFor(readyTimeout, func() (bool, error) {
		v, err := chromedp.Run(t.ctx, chromedp.Evaluate[*readiness](readinessScript))
		if v != nil {
			r = *v
		}
		return v != nil, err
	})
	if err != nil {
		return readiness{}, fmt.Errorf("%s not ready: %w", url, err)
	}
	return r, nil
}

// waitFor calls done every 50 ms until it says so or the time is up.
// (chromedp's Poll builds its predicate with new Function, which the page's
// Content-Security-Policy forbids.)
func (t *tab) waitFor(limit time.Duration, done func() (bool, error)) error {
	deadline := time.Now().Add(limit)
	for {
		ok, err := done()
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("still waiting after %s (last error: %v)", limit, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// measureVisits opens the empty page in a fresh browser (cold), notes the
// wasm's transfer and the page's memory, waits for the service worker to
// take over, and opens it again (warm).
func measureVisits(chromium, dir, url, profile string) error {
	t, err := newTab(chromium, dir)
	if err != nil {
		return err
	}
	defer t.cancel()
	if profile != "" {
		// The profiler runs in the page's renderer: it starts on a file of
		// the same site (which starts no service worker), so that it stays
		// running across the navigation to the page.
		if err := chromedp.Do(t.ctx, chromedp.Navigate(url+"manifest.webmanifest")); err != nil {
			return err
		}
		if err := t.startProfile(); err != nil {
			return err
		}
	}
	cold, err := t.visitFrom(url, profile == "")
	if err != nil {
		return err
	}
	if profile != "" {
		if err := t.stopProfile(profile, os.Stdout); err != nil {
			return err
		}
	}
	cold.sample("PageReadyCold")
	t.mu.Lock()
	transferred := t.wasmBytes
	t.mu.Unlock()
	if transferred > 0 {
		sample("PageWasmTransfer", int64(transferred), "bytes")
	}
	if err := t.printMemory("PageMemoryEmpty"); err != nil {
		return err
	}
	if err := t.waitForServiceWorker(); err != nil {
		return err
	}
	warm, err := t.visit(url)
	if err != nil {
		return err
	}
	warm.sample("PageReadyWarm")
	return nil
}

// waitForServiceWorker waits until the page's service worker is active: a
// fresh profile installs it after the page is ready, fetching and caching
// the site, which would otherwise compete with what is measured next.
func (t *tab) waitForServiceWorker() error {
	err := t.waitFor(readyTimeout, func() (bool, error) {
		return chromedp.Run(t.ctx, chromedp.Evaluate[bool](
			`navigator.serviceWorker.getRegistration().then(r => !!(r && r.active && r.active.state === "activated"))`,
			chromedp.EvalAwaitPromise))
	})
	if err != nil {
		return fmt.Errorf("the service worker never activated: %w", err)
	}
	return nil
}

// measureFull opens a full page in a fresh browser, notes how long it took
// to be ready and, once its service worker is installed, what it holds in
// memory. Then it clicks Produce once to warm up (the browser compiles the
// wasm's hot code in the background at first) and times each further click
// until the frame that shows the new record; with profile set, under V8's
// profiler. Its samples' names end in size.
func measureFull(chromium, dir, url, size string, clicks int, profile string) error {
	t, err := newTab(chromium, dir)
	if err != nil {
		return err
	}
	defer t.cancel()
	ready, err := t.visit(url)
	if err != nil {
		return err
	}
	ready.sample("PageReadyCold" + size)
	if err := t.waitForServiceWorker(); err != nil {
		return err
	}
	if err := t.printMemory("PageMemory" + size); err != nil {
		return err
	}
	if _, err := chromedp.Run(t.ctx, chromedp.Evaluate[[]float64](produceScript, chromedp.EvalAwaitPromise)); err != nil {
		return fmt.Errorf("produce click: %w", err)
	}
	if profile != "" {
		if err := t.startProfile(); err != nil {
			return err
		}
	}
	for range clicks {
		times, err := chromedp.Run(t.ctx, chromedp.Evaluate[[]float64](produceScript, chromedp.EvalAwaitPromise))
		if err != nil {
			return fmt.Errorf("produce click: %w", err)
		}
		sample("PageProduceToRepaint"+size, msToNs(times[1]), "ns/op", msToNs(times[0]), "dom-ns")
	}
	// The member's Poll, warmed up as Produce was.
	for i := range clicks + 1 {
		times, err := chromedp.Run(t.ctx, chromedp.Evaluate[[]float64](pollScript, chromedp.EvalAwaitPromise))
		if err != nil {
			return fmt.Errorf("poll click: %w", err)
		}
		if i > 0 {
			sample("PagePollToRepaint"+size, msToNs(times[1]), "ns/op", msToNs(times[0]), "dom-ns")
		}
	}
	if profile != "" {
		return t.stopProfile(profile, os.Stderr)
	}
	return nil
}

func msToNs(ms float64) int64 { return int64(ms * 1e6) }

// gestureScript clicks the button a selector finds and resolves to the
// milliseconds from the click until changed (a JavaScript function of the
// value state() had before the click) says the page shows its effect, and
// until the frame after that has run.
func gestureScript(button, state, changed, what string) string {
	return fmt.Sprintf(`new Promise((resolve, reject) => {
  const state = %s;
  const changed = %s;
  const before = state();
  let start = 0, shown = 0;
  const observer = new MutationObserver(() => {
    if (shown || !changed(before)) return;
    shown = performance.now();
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve([shown - start, performance.now() - start]), 0));
  });
  observer.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  setTimeout(() => { observer.disconnect(); reject(new Error(%q)); }, 30000);
  const button = document.querySelector(%q);
  if (!button) { reject(new Error("no " + %q)); return; }
  start = performance.now();
  button.click();
})`, state, changed, "not shown within 30 s: "+what, button, button)
}

// produceScript clicks Produce (the form holds key acct-1, value created,
// count 1 when the page opens) and waits until the lanes' high watermarks
// count one more record. A lane is .lane[data-topic][data-partition]: a
// group's mark under it carries data-topic and data-partition too.
var produceScript = gestureScript("#produce-send", `() => {
    let n = 0;
    for (const lane of document.querySelectorAll('.lane[data-topic="orders"][data-partition]')) n += Number(lane.dataset.highWatermark);
    return n;
  }`, `before => state() > before`, "a new record")

// pollScript clicks the member's Poll button on its card and waits until
// its marks on the lanes say where it reads now.
var pollScript = gestureScript(fmt.Sprintf(`li[data-member=%q] [data-action="poll"]`, pollMember), fmt.Sprintf(`() =>
    Array.from(document.querySelectorAll('[data-assignment][data-group=%q][data-member=%q]'), mark => mark.textContent).join("|")`, pollGroup, pollMember),
	`before => state() !== before`, "the member's new position")

// printMemory prints what the page holds once the garbage is collected: the
// wasm's linear memory (the Go heap, which never shrinks), the JavaScript
// heap in use, and the proportional set size (resident memory, shared pages
// split among the processes sharing them) of the browser's renderer
// processes.
func (t *tab) printMemory(name string) error {
	if _, err := chromedp.Call(t.ctx, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
		return err
	}
	wasm, err := chromedp.Run(t.ctx, chromedp.Evaluate[float64](`window.plogWasm ? window.plogWasm.exports.mem.buffer.byteLength : 0`))
	if err != nil {
		return err
	}
	heap, err := chromedp.Call(t.ctx, runtime.GetHeapUsage, cdp.Empty{})
	if err != nil {
		return err
	}
	values := []any{int64(wasm), "wasm-bytes", int64(heap.UsedSize), "js-heap-bytes"}
	if pss := rendererPSS(chromedp.FromContext(t.ctx).Browser.Process()); pss > 0 {
		values = append(values, pss, "renderer-pss-bytes")
	}
	sample(name, values...)
	return nil
}

// rendererPSS sums the proportional set size of the renderer processes
// under the browser process, from /proc; 0 when it cannot tell.
func rendererPSS(browserProcess *os.Process) int64 {
	if browserProcess == nil {
		return 0
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	parent := map[int]int{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so read after ')'.
		if _, rest, ok := strings.Cut(string(stat), ") "); ok {
			if fields := strings.Fields(rest); len(fields) > 1 {
				parent[pid], _ = strconv.Atoi(fields[1])
			}
		}
	}
	under := func(pid int) bool {
		for p := parent[pid]; p > 1; p = parent[p] {
			if p == browserProcess.Pid {
				return true
			}
		}
		return false
	}
	var total int64
	for pid := range parent {
		if !under(pid) {
			continue
		}
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if !strings.Contains(string(cmdline), "--type=renderer") {
			continue
		}
		rollup, _ := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
		for line := range strings.SplitSeq(string(rollup), "\n") {
			if v, ok := strings.CutPrefix(line, "Pss:"); ok {
				kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				total += kb << 10
			}
		}
	}
	return total
}

// browserVersion asks a throwaway browser for its product and version.
func browserVersion(chromium, dir string) (string, error) {
	t, err := newTab(chromium, dir)
	if err != nil {
		return "", err
	}
	defer t.cancel()
	v, err := chromedp.CallBrowser(t.ctx, browser.GetVersion, cdp.Empty{})
	if err != nil {
		return "", err
	}
	return v.Product, nil
}
