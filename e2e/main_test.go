// Package e2e holds plog's browser tests: chromedp drives Debian's Chromium,
// headless, against the generated static site, served by plog's own server
// and by a plain static file server that knows nothing of plog.
//
// TestMain builds everything the tests need into a temporary directory: the
// wasm, the site generator, and two sites, one for the root of a host and
// one for the sub-path /plog/. A machine without Chromium fails the tests
// with a message that says how to install it; they never skip.
package e2e

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"plog/internal/headless"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// build holds what TestMain built.
var build struct {
	dir      string // temporary directory holding all of it
	repo     string // the repository's root
	site     string // the site generator and server (the root package)
	rootSite string // dist for the root of a host
	subSite  string // dist for the sub-path /plog/
	browser  string // Chromium's executable
}

// subPath is where the sub-path site is hosted, as on GitHub Pages.
const subPath = "/plog/"

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	browser, err := findChromium()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	build.browser = browser
	dir, err := os.MkdirTemp("", "plog-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer os.RemoveAll(dir)
	build.dir = dir
	if err := buildSites(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: building the site:", err)
		return 1
	}
	defer shared.close()
	return m.Run()
}

// findChromium returns the browser to drive: $PLOG_CHROMIUM, else Debian's
// chromium.
func findChromium() (string, error) {
	if p := os.Getenv("PLOG_CHROMIUM"); p != "" {
		return p, nil
	}
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("the browser tests need Chromium and found none.\n" +
		"  On Debian or Ubuntu, as root: apt-get install -y chromium (make test does this when it can)\n" +
		"  Elsewhere: install Chromium or Chrome and set PLOG_CHROMIUM to its executable")
}

// buildSites builds the wasm and the generator, then generates both sites.
func buildSites() error {
	repo, err := filepath.Abs("..")
	if err != nil {
		return err
	}
	build.repo = repo
	wasm := filepath.Join(build.dir, "app.wasm")
	build.site = filepath.Join(build.dir, "plog-site")
	build.rootSite = filepath.Join(build.dir, "root")
	build.subSite = filepath.Join(build.dir, "sub")

	// Each stage's commands run at once: the two builds, then the two
	// sites, whose compression of the wasm takes most of the time.
	stages := [][][]string{
		{
			{"GOOS=js", "GOARCH=wasm", "go", "build", "-ldflags", "-s -w", "-o", wasm, "./wasm"},
			{"go", "build", "-o", build.site, "."},
		},
		{
			{build.site, "-build-only", "-wasm", wasm, "-prefix", "/", "-out", build.rootSite},
			{build.site, "-build-only", "-wasm", wasm, "-prefix", subPath, "-out", build.subSite},
		},
	}
	for _, stage := range stages {
		errs := make([]error, len(stage))
		var wg sync.WaitGroup
		for i, args := range stage {
			wg.Go(func() { errs[i] = runIn(repo, args) })
		}
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			return err
		}
	}
	return nil
}

// runIn runs a command in dir; leading NAME=value words add to its
// environment.
func runIn(dir string, args []string) error {
	env := os.Environ()
	for len(args) > 0 && strings.Contains(args[0], "=") {
		env = append(env, args[0])
		args = args[1:]
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = dir
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return nil
}

// server is a running web server for one test.
type server struct {
	URL  string // where the page is, e.g. http://127.0.0.1:41234/plog/
	stop func()
}

// startPlogServer serves a generated site with plog's own server (serve.go)
// on a free loopback port.
func startPlogServer(t *testing.T, dist, prefix string) *server {
	t.Helper()
	cmd := exec.Command(build.site, "-serve-only", "-out", dist, "-prefix", prefix, "-addr", "127.0.0.1:0")
	cmd.Dir = build.repo
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
	t.Cleanup(stop)

	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		// The server prints: plog: serving <dir> on http://127.0.0.1:PORT/prefix/
		if _, url, ok := strings.Cut(lines.Text(), " on "); ok && strings.HasPrefix(url, "http://") {
			go io.Copy(io.Discard, stdout)
			return &server{URL: url, stop: stop}
		}
	}
	t.Fatalf("plog's server exited before it said where it serves: %v", lines.Err())
	return nil
}

// startPlainServer serves a generated site under prefix with Go's plain file
// server, which knows nothing of plog: no precompressed files, no headers.
func startPlainServer(t *testing.T, dist, prefix string) *server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle(prefix, http.StripPrefix(strings.TrimSuffix(prefix, "/"), http.FileServer(http.Dir(dist))))
	ts := httptest.NewServer(mux)
	var once sync.Once
	stop := func() {
		once.Do(func() {
			ts.CloseClientConnections()
			ts.Close()
		})
	}
	t.Cleanup(stop)
	return &server{URL: ts.URL + prefix, stop: stop}
}

// browser is one headless Chromium with a fresh profile, and the log of every
// request its page made and every message it wrote to its console.
type browser struct {
	ctx context.Context

	mu       sync.Mutex
	requests []string
	console  []chromedp.ConsoleMessage
	judged   int              // console messages already judged by noErrors
	allowed  []allowedMessage // errors the test provokes on purpose
}

// allowedMessage is a console error a test provokes on purpose: any message
// that contains text, for the reason why.
type allowedMessage struct {
	text, why string
}

// sharedChromium is the one Chromium that most tests' browsers run in,
// each in a browser context of its own, started by the first test that
// asks for one and stopped when the tests end. Starting a Chromium costs
// more than a second of both cores; a browser context in a running one, a
// fraction of that.
type sharedChromium struct {
	once sync.Once
	ctx  context.Context // the browser's first tab, which stays open
	err  error
	stop func()
}

var shared sharedChromium

// start returns the shared Chromium's first tab, starting the browser the
// first time.
func (c *sharedChromium) start() (context.Context, error) {
	c.once.Do(func() {
		dir, err := os.MkdirTemp(build.dir, "chromium-")
		if err != nil {
			c.err = err
			return
		}
		allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), headless.Options(build.browser, dir)...)
		ctx, cancelCtx := chromedp.NewContext(allocCtx)
		c.stop = func() {
			cancelCtx()
			cancelAlloc()
		}
		if c.err = chromedp.Do(ctx); c.err == nil {
			c.ctx = ctx
		}
	})
	return c.ctx, c.err
}

// close stops the shared Chromium, if it started.
func (c *sharedChromium) close() {
	if c.stop != nil {
		c.stop()
	}
}

// newBrowser opens a browser for one test: a tab of the shared Chromium,
// in a browser context of its own, which is a fresh profile held in
// memory, so no cookie, storage, cache or service worker leaks from one
// test into another, and tests run side by side. With flags, it is
// newBrowserProcess.
//
// Every test that drives a browser fails if its pages report an uncaught
// exception, a console error (console.error or an error of the browser's
// own log, such as a failed load) or a Content-Security-Policy violation:
// the check runs when the test ends, with nothing to call. A test that
// provokes an error on purpose says so with allowConsole.
func newBrowser(t *testing.T, flags ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	if len(flags) > 0 {
		return newBrowserProcess(t, flags...)
	}
	browserCtx, err := shared.start()
	if err != nil {
		t.Fatalf("starting Chromium (%s): %v", build.browser, err)
	}
	ctx, cancel := chromedp.NewContext(browserCtx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		t.Fatalf("opening a tab in the shared Chromium (%s): %v", build.browser, err)
	}
	return watchBrowser(t, ctx)
}

// newBrowserProcess starts a Chromium of its own for one test, with a
// fresh profile on disk and any extra flags. A test needs one where it
// uses what belongs to the whole browser rather than to its tab: its
// list of tabs, its downloads, its permissions, its flags, or a profile
// on disk rather than in memory (whose HTTP cache keeps big files).
func newBrowserProcess(t *testing.T, flags ...chromedp.ExecAllocatorOption) *browser {
	t.Helper()
	opts := headless.Options(build.browser, t.TempDir())
	opts = append(opts, flags...)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelCtx()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting Chromium (%s): %v", build.browser, err)
	}
	return watchBrowser(t, ctx)
}

// watchBrowser keeps the log of a new tab's requests and console, and
// makes the test fail at its end for the errors in it.
func watchBrowser(t *testing.T, ctx context.Context) *browser {
	t.Helper()
	b := &browser{ctx: ctx}
	requests := chromedp.Events(ctx, network.RequestWillBeSent)
	go func() {
		for ev, err := range requests {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.requests = append(b.requests, ev.Request.URL)
			b.mu.Unlock()
		}
	}()
	console := chromedp.Console(ctx)
	go func() {
		for m, err := range console {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.console = append(b.console, m)
			b.mu.Unlock()
		}
	}()
	// The browser logs a violation of the page's policy; the page's own
	// event says it too, for every frame, whatever the log says of it.
	const reportViolations = `addEventListener("securitypolicyviolation", (e) => console.error(
  "Content Security Policy violation: " + e.effectiveDirective + " blocked " + (e.blockedURI || "inline code") +
  " at " + e.sourceFile + ":" + e.lineNumber));`
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: reportViolations}); err != nil {
		t.Fatal(err)
	}
	// Registered after the cleanup that stops the browser, so it runs
	// before it.
	t.Cleanup(func() { b.noErrors(t) })
	return b
}

// allowConsole declares a console error the test provokes on purpose: a
// message containing text does not fail it. why says what provokes it.
func (b *browser) allowConsole(text, why string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.allowed = append(b.allowed, allowedMessage{text, why})
}

// noErrors fails the test for every uncaught exception, console error or
// Content-Security-Policy violation the page has reported since the last
// call, but for those the test allowed. It runs by itself when the test
// ends; a test may call it earlier to fail closer to the cause.
func (b *browser) noErrors(t *testing.T) {
	t.Helper()
	for _, e := range b.takeErrors() {
		t.Errorf("the page reported %s", e)
	}
}

// takeErrors returns the errors the pages reported since the last call,
// but those the test allowed, and counts them judged.
func (b *browser) takeErrors() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var errs []string
	for i, m := range b.console[b.judged:] {
		if isError(m) && !b.isAllowed(m) {
			e := fmt.Sprintf("%s: %s (%s:%d)", m.Type, m.Text, m.URL, m.Line+1)
			if strings.Contains(m.Text, "the page stopped") {
				e += "; the program wrote last:\n" + lastWritten(b.console[:b.judged+i], 60)
			}
			errs = append(errs, e)
		}
	}
	b.judged = len(b.console)
	return errs
}

// lastWritten is what the page wrote to its console before a stop, from
// the start of Go's report of a fatal error or panic (wasm_exec.js logs the
// program's standard error), at most n lines: the stop's own message says
// only the exit code.
func lastWritten(console []chromedp.ConsoleMessage, n int) string {
	var lines []string
	for _, m := range console {
		lines = append(lines, strings.Split(m.Text, "\n")...)
	}
	start := max(len(lines)-n, 0)
	for i := len(lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(lines[i], "panic: ") || strings.HasPrefix(lines[i], "fatal error: ") {
			start = i
			break
		}
	}
	return strings.Join(lines[start:min(start+n, len(lines))], "\n")
}

// isError says whether a console message fails a test.
func isError(m chromedp.ConsoleMessage) bool {
	return m.IsException() || m.Type == chromedp.ConsoleError || strings.Contains(m.Text, "Content Security Policy")
}

func (b *browser) isAllowed(m chromedp.ConsoleMessage) bool {
	for _, a := range b.allowed {
		if strings.Contains(m.Text, a.text) {
			return true
		}
	}
	return false
}

// recordLoaderLabels makes the next pages keep every text the loading screen
// shows, in window.plogLoaderLabels.
func (b *browser) recordLoaderLabels(t *testing.T) {
	t.Helper()
	const script = `window.plogLoaderLabels = [];
new MutationObserver(() => {
  const label = document.getElementById("app-wasm-loader-label");
  const seen = window.plogLoaderLabels;
  if (label && seen[seen.length - 1] !== label.textContent) seen.push(label.textContent);
}).observe(document, {childList: true, subtree: true, characterData: true});`
	_, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: script})
	if err != nil {
		t.Fatal(err)
	}
}

// requested returns the URLs of every request the page has made so far.
func (b *browser) requested() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.requests...)
}

// readyTimeout bounds how long a page may take to download and start the
// wasm, or any one wait of a test, on a slow, busy machine. The tests run
// three at a time on two cores (the Makefile), so a test may get two
// thirds of a core where it had one: 90 s is the minute it had alone.
const readyTimeout = 90 * time.Second

// ready is the selector of a page that has applied the scenario in its URL.
const ready = `main[data-ready="true"]`

// open navigates to url and waits until the page says it is ready.
func (b *browser) open(t *testing.T, url string) {
	t.Helper()
	b.do(t, chromedp.Navigate(url))
	b.waitReady(t)
}

// reload reloads the page and waits until it says it is ready.
func (b *browser) reload(t *testing.T) {
	t.Helper()
	b.do(t, chromedp.Reload())
	b.waitReady(t)
}

func (b *browser) waitReady(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(ready))); err != nil {
		label, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](
			`(document.getElementById("app-wasm-loader-label") || {}).innerText || ""`))
		t.Fatalf("page not ready after %s (loader says %q): %v", readyTimeout, label, err)
	}
	// The dock's tabs not shown are drawn a moment after ready
	// (app/dock.go); the tests act on the page as it is then.
	b.waitFor(t, `!document.querySelector("[data-dock-panel]:empty")`)
}

// do runs actions on the page and fails the test on error, or when they
// take longer than readyTimeout.
func (b *browser) do(t *testing.T, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression in the page, awaiting a promise
// for readyTimeout at most.
func eval[T any](t *testing.T, b *browser, expression string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expression, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("evaluating %s: %v", expression, err)
	}
	return v
}

// waitServiceWorker waits until the site's service worker is active, which
// means it has cached everything the page needs offline.
func (b *browser) waitServiceWorker(t *testing.T) {
	t.Helper()
	b.waitFor(t, `navigator.serviceWorker.getRegistration().then(r => !!(r && r.active && r.active.state === "activated"))`)
}

// waitFor evaluates a JavaScript expression until it is true. chromedp's Poll
// is no use here: it builds its predicate with new Function, which the page's
// Content-Security-Policy forbids, as it should.
func (b *browser) waitFor(t *testing.T, expression string) {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	ctx, cancel := context.WithDeadline(b.ctx, deadline)
	defer cancel()
	for {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expression, chromedp.EvalAwaitPromise))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still not true after %s: %s (last error: %v)", readyTimeout, expression, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
