package e2e

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// wasmLoads records how the page got its wasm: every request for it, with
// what started it, and each response, with its type, its encoding and
// whether the service worker answered.
type wasmLoads struct {
	mu        sync.Mutex
	initiator []network.InitiatorType
	responses []*network.Response
}

func (w *wasmLoads) watch(b *browser, path string) {
	go func() {
		for ev, err := range chromedp.Events(b.ctx, network.RequestWillBeSent) {
			if err != nil {
				return
			}
			if strings.HasSuffix(ev.Request.URL, path) {
				w.mu.Lock()
				w.initiator = append(w.initiator, ev.Initiator.Type)
				w.mu.Unlock()
			}
		}
	}()
	go func() {
		for ev, err := range chromedp.Events(b.ctx, network.ResponseReceived) {
			if err != nil {
				return
			}
			if strings.HasSuffix(ev.Response.URL, path) {
				w.mu.Lock()
				w.responses = append(w.responses, ev.Response)
				w.mu.Unlock()
			}
		}
	}()
}

func (w *wasmLoads) take() ([]network.InitiatorType, []*network.Response) {
	w.mu.Lock()
	defer w.mu.Unlock()
	i, r := w.initiator, w.responses
	w.initiator, w.responses = nil, nil
	return i, r
}

// recordInstantiation makes the page note how its wasm was compiled:
// window.plogStreamed once WebAssembly.instantiateStreaming gave an
// instance (it compiles while the bytes arrive), with the URL of the
// response it compiled in window.plogStreamedURL (a response the page made
// itself has none, and the browser keeps no compiled code for it),
// window.plogBuffered if the whole file was first read into memory and
// given to WebAssembly.instantiate (go-app's fallback).
func recordInstantiation(t *testing.T, b *browser) {
	t.Helper()
	const script = `(() => {
  const streaming = WebAssembly.instantiateStreaming, whole = WebAssembly.instantiate;
  WebAssembly.instantiateStreaming = async (...args) => {
    const result = await streaming.apply(WebAssembly, args);
    window.plogStreamed = true;
    window.plogStreamedURL = (await args[0]).url;
    return result;
  };
  WebAssembly.instantiate = (source, ...rest) => {
    if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) window.plogBuffered = true;
    return whole.call(WebAssembly, source, ...rest);
  };
})()`
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		t.Fatal(err)
	}
}

// wasmPreload is the link, as the site generator writes it (attributes
// sorted), that starts the wasm's download with the HTML.
var wasmPreload = regexp.MustCompile(`<link as="fetch" crossorigin="anonymous" fetchpriority="high" href="([^"]*)" rel="preload">`)

// The wasm's download starts with the HTML, from a preload under the
// sub-path, which the loader's fetch then uses (one request, no second
// download); it compiles while it streams, brotli-compressed, as
// application/wasm; a second visit gets it from the service worker, still
// streamed.
func TestWasmIsPreloadedStreamedAndCached(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.subSite, subPath)
	res, err := http.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	html, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	m := wasmPreload.FindSubmatch(html)
	if m == nil {
		t.Fatalf("the page's HTML has no preload of the wasm (%s)", wasmPreload)
	}
	if got, want := string(m[1]), subPath+"web/app.wasm"; got != want {
		t.Errorf("the preload fetches %s, want %s", got, want)
	}
	if head := string(html[:strings.Index(string(html), "</head>")]); strings.Index(head, string(m[0])) > strings.Index(head, "<script") {
		t.Errorf("the preload comes after the head's first script: it would wait for it")
	}

	b := newBrowser(t)
	recordInstantiation(t, b)
	var loads wasmLoads
	loads.watch(b, subPath+"web/app.wasm")
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	checkLanes(t, b, ordersScenario)
	initiators, responses := loads.take()
	if len(initiators) != 1 || len(responses) != 1 {
		t.Fatalf("the page requested the wasm %d times (%v) and had %d responses, want one of each: the preload and the loader's fetch must be one request", len(initiators), initiators, len(responses))
	}
	if initiators[0] != network.InitiatorTypeParser {
		t.Errorf("the wasm's request was started by %q, want the HTML parser (the preload)", initiators[0])
	}
	if r := responses[0]; r.MimeType != "application/wasm" || r.Headers["Content-Encoding"] != "br" {
		t.Errorf("the wasm came as %q with Content-Encoding %v, want application/wasm and br", r.MimeType, r.Headers["Content-Encoding"])
	}
	if !eval[bool](t, b, `window.plogStreamed === true && window.plogBuffered !== true`) {
		t.Error("the wasm was not compiled by WebAssembly.instantiateStreaming while it arrived")
	}
	if got, want := eval[string](t, b, `window.plogStreamedURL`), srv.URL+"web/app.wasm"; got != want {
		t.Errorf("the wasm compiled was the response of %q, want the fetch of %s itself, whose compiled code the browser keeps", got, want)
	}
	for _, m := range b.consoleMessages() {
		if strings.Contains(strings.ToLower(m), "preload") {
			t.Errorf("the browser says of the preload: %s", m)
		}
	}

	b.waitServiceWorker(t)
	b.reload(t)
	checkLanes(t, b, ordersScenario)
	_, responses = loads.take()
	if len(responses) != 1 || !responses[0].FromServiceWorker {
		t.Errorf("on the second visit the wasm came in %d responses, want one from the service worker", len(responses))
	}
	if !eval[bool](t, b, `window.plogStreamed === true && window.plogBuffered !== true`) {
		t.Error("on the second visit the wasm was not compiled while it streamed")
	}
	if got, want := eval[string](t, b, `window.plogStreamedURL`), srv.URL+"web/app.wasm"; got != want {
		t.Errorf("on the second visit the wasm compiled was the response of %q, want the service worker's answer for %s", got, want)
	}
}

// A first visit downloads the wasm once: the preload serves the loader's
// fetch, and the service worker, which caches the whole site as the page
// starts, gets it from the browser's cache (revalidated) rather than from
// the network again. The server sends the wasm slowly, as a real network
// does, so that the worker's install overlaps the page's download.
func TestFirstVisitDownloadsTheWasmOnce(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	downloads := 0
	files := http.StripPrefix(strings.TrimSuffix(subPath, "/"), http.FileServer(http.Dir(build.subSite)))
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wasm := strings.HasSuffix(r.URL.Path, "/web/app.wasm")
		rec := &statusRecorder{ResponseWriter: w, slow: wasm}
		files.ServeHTTP(rec, r)
		if wasm && r.Method == http.MethodGet && rec.status == http.StatusOK {
			mu.Lock()
			downloads++
			mu.Unlock()
		}
	}))
	t.Cleanup(ts.Close)

	// A profile on disk: a browser context's cache, in memory, keeps no
	// file as big as the raw wasm, and the worker would download it again.
	b := newBrowserProcess(t)
	b.open(t, ts.URL+subPath+linkOf(t, ordersScenario))
	b.waitServiceWorker(t)
	mu.Lock()
	defer mu.Unlock()
	if downloads != 1 {
		t.Errorf("a first visit, service worker installed, downloaded the wasm %d times, want once", downloads)
	}
}

// statusRecorder notes the status a handler answered with; slow, it sends
// the body in pieces of slowPiece bytes, slowPause apart.
type statusRecorder struct {
	http.ResponseWriter
	status int
	slow   bool
}

const (
	slowPiece = 256 << 10
	slowPause = 50 * time.Millisecond // the raw wasm of 11 MB in about 2 s
)

func (r *statusRecorder) WriteHeader(status int) {
	r.status = status
	r.ResponseWriter.WriteHeader(status)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	if !r.slow {
		return r.ResponseWriter.Write(b)
	}
	written := 0
	for len(b) > 0 {
		piece := b[:min(len(b), slowPiece)]
		n, err := r.ResponseWriter.Write(piece)
		written += n
		if err != nil {
			return written, err
		}
		b = b[n:]
		if f, ok := r.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		time.Sleep(slowPause)
	}
	return written, nil
}

// consoleMessages returns the text of every console message so far.
func (b *browser) consoleMessages() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var texts []string
	for _, m := range b.console {
		texts = append(texts, m.Text)
	}
	return texts
}
