package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"plog/core/lesson"
	"plog/internal/gowasm"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// smallGoWasm is a small program built for GOOS=js GOARCH=wasm, which the
// generator slims (internal/gowasm) as it does the page's wasm.
var smallGoWasm = sync.OnceValues(func() ([]byte, error) {
	out := filepath.Join(os.TempDir(), fmt.Sprintf("plog-serve-test-%d.wasm", os.Getpid()))
	defer os.Remove(out)
	if err := gowasm.Build("./internal/gowasm/testdata/program", out, "-s -w"); err != nil {
		return nil, err
	}
	return os.ReadFile(out)
})

// fakeWasm stands in for the page's wasm: a small Go wasm carrying content,
// repeated, in a custom section, so that two contents make two wasms.
func fakeWasm(t *testing.T, content string) string {
	t.Helper()
	wasm, err := smallGoWasm()
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(t.TempDir(), "app.wasm")
	if err := os.WriteFile(name, withCustomSection(wasm, strings.Repeat(content, 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// withCustomSection appends a custom section named plog-test holding content.
func withCustomSection(wasm []byte, content string) []byte {
	name := "plog-test"
	payload := append(binary.AppendUvarint(nil, uint64(len(name))), name...)
	payload = append(payload, content...)
	return gowasm.AppendSection(slices.Clone(wasm), gowasm.SectionCustom, payload)
}

// servedWasm is the wasm a generated site serves.
func servedWasm(t *testing.T, out string) string {
	t.Helper()
	return readFile(t, filepath.Join(out, "web", "app.wasm"))
}

// generate builds a site into a fresh directory and returns it and its
// version.
func generate(t *testing.T, wasm, prefix, url string) (string, string) {
	t.Helper()
	wasmExec, err := toolchainWasmExec()
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "dist")
	version, err := generateSite(siteConfig{Out: out, Prefix: prefix, Wasm: wasm, WasmExec: wasmExec, Static: "web/static", URL: url})
	if err != nil {
		t.Fatal(err)
	}
	return out, version
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestGeneratedSiteVersionIsAHashOfItsFiles(t *testing.T) {
	wasm := fakeWasm(t, "wasm v1 ")
	_, v1 := generate(t, wasm, "/", "")
	_, again := generate(t, wasm, "/", "")
	if v1 != again {
		t.Errorf("the same inputs gave versions %s and %s: the build is not reproducible", v1, again)
	}
	_, v2 := generate(t, fakeWasm(t, "wasm v2 "), "/", "")
	if v2 == v1 {
		t.Error("a different wasm kept the same version: visitors would keep the old one")
	}
	_, sub := generate(t, wasm, "/plog/", "")
	if sub == v1 {
		t.Error("a different prefix kept the same version")
	}
}

func TestGeneratedSiteServesTheToolchainsWasmExec(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "x"), "/", "")
	wasmExec, err := toolchainWasmExec()
	if err != nil {
		t.Fatal(err)
	}
	if readFile(t, filepath.Join(out, "wasm_exec.js")) != readFile(t, wasmExec) {
		t.Errorf("dist/wasm_exec.js is not %s", wasmExec)
	}
}

func TestGeneratedSiteMeasuresProgressAgainstTheRawWasm(t *testing.T) {
	wasm := fakeWasm(t, "abc")
	out, _ := generate(t, wasm, "/", "")
	js := readFile(t, filepath.Join(out, "app.js"))
	if want := "const total = " + strconv.Itoa(len(servedWasm(t, out))) + ";"; !strings.Contains(js, want) {
		t.Errorf("app.js lacks %q", want)
	}
	if strings.Contains(js, goappProgressTotal) {
		t.Error("app.js still divides by Content-Length")
	}
	if _, err := measureProgressAgainstRawSize("no loader here", 1); err == nil {
		t.Error("a go-app whose loader changed must fail the build, not ship a wrong progress")
	}
}

func TestGeneratedSiteNeedsNoOtherHost(t *testing.T) {
	const site = "https://example.github.io/plog/"
	out, _ := generate(t, fakeWasm(t, "x"), "/plog/", site)
	// A URL in an attribute of a real tag; the escaped markup shown as an
	// example in embed.html is text, not a tag. Link previews (og:url,
	// og:image) must name the site's own public address, which is no other
	// host.
	remote := regexp.MustCompile(`<[a-zA-Z][^<>]*\s(?:src|href|content)="((?:https?:)?//[^"]*)"`)
	files, err := siteFiles(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range files {
		if !compressible[filepath.Ext(rel)] || rel == "web/app.wasm" {
			continue
		}
		text := readFile(t, filepath.Join(out, rel))
		if strings.Contains(text, "githubusercontent") {
			t.Errorf("%s refers to go-app's icons on GitHub", rel)
		}
		for _, m := range remote.FindAllStringSubmatchIndex(text, -1) {
			url := text[m[2]:m[3]]
			if !strings.HasPrefix(url, site) {
				t.Errorf("%s loads something from another host: %s", rel, text[m[0]:m[1]])
			}
		}
	}
	var manifest struct {
		Icons []struct{ Src string }
		Scope string
	}
	if err := json.Unmarshal([]byte(readFile(t, filepath.Join(out, "manifest.webmanifest"))), &manifest); err != nil {
		t.Fatal(err)
	}
	for _, icon := range manifest.Icons {
		if !strings.HasPrefix(icon.Src, "/plog/web/static/") {
			t.Errorf("manifest icon %q is not one of ours", icon.Src)
		}
	}
	if manifest.Scope != "/plog/" {
		t.Errorf("manifest scope = %q, want /plog/", manifest.Scope)
	}
}

func TestGeneratedPageLinkPreviewURL(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "x"), "/", "")
	page := readFile(t, filepath.Join(out, "index.html"))
	if strings.Contains(page, "og:url") || strings.Contains(page, "127.0.0.1") {
		t.Errorf("with no public URL the page must carry no og:url, and never the generator's address:\n%s", page)
	}
	out, _ = generate(t, fakeWasm(t, "x"), "/plog/", "https://example.github.io/plog/")
	page = readFile(t, filepath.Join(out, "index.html"))
	if !strings.Contains(page, `<meta content="https://example.github.io/plog/" property="og:url">`) {
		t.Errorf("og:url is not the public URL:\n%s", page)
	}
}

// The service worker's install fails as a whole if one resource it caches is
// missing, and offline use then silently never happens.
func TestServiceWorkerCachesOnlyFilesThatExist(t *testing.T) {
	for _, prefix := range []string{"/", "/plog/"} {
		out, version := generate(t, fakeWasm(t, "x"), prefix, "")
		worker := readFile(t, filepath.Join(out, "app-worker.js"))
		if !strings.Contains(worker, `"app-" + "`+version+`"`) {
			t.Errorf("%s: the service worker's cache is not named after version %s", prefix, version)
		}
		m := regexp.MustCompile(`const resourcesToCache = (\[.*\]);`).FindStringSubmatch(worker)
		if m == nil {
			t.Fatalf("%s: no resourcesToCache in app-worker.js:\n%s", prefix, worker)
		}
		var resources []string
		if err := json.Unmarshal([]byte(m[1]), &resources); err != nil {
			t.Fatal(err)
		}
		cachesPage := false
		for _, r := range resources {
			cachesPage = cachesPage || r == prefix
			rel, ok := strings.CutPrefix(r+"/", prefix)
			if !ok {
				t.Errorf("%s: caches %q, outside the site", prefix, r)
				continue
			}
			rel = strings.TrimSuffix(rel, "/")
			if rel == "" || rel == "/" {
				rel = "index.html"
			}
			if _, err := os.Stat(filepath.Join(out, rel)); err != nil {
				t.Errorf("%s: the service worker caches %q, which is not in dist/", prefix, r)
			}
		}
		if !cachesPage {
			t.Errorf("%s: the service worker does not cache the page itself (%v)", prefix, resources)
		}
	}
}

func TestGenerateRefusesToReplaceADirectoryThatIsNoSite(t *testing.T) {
	dir := t.TempDir()
	precious := filepath.Join(dir, "notes.txt")
	os.WriteFile(precious, []byte("keep me"), 0o644)
	if err := clearPreviousSite(dir); err == nil {
		t.Fatal("clearPreviousSite removed a directory that holds no site")
	}
	if _, err := os.Stat(precious); err != nil {
		t.Fatal("the file is gone")
	}
}

func TestSortAttributes(t *testing.T) {
	for in, want := range map[string]string{
		`<meta name="a" content="b">`:                     `<meta content="b" name="a">`,
		`<script src="/app.js" defer></script>`:           `<script defer src="/app.js"></script>`,
		`<p title="say \"hi\" > there" class="x">hi</p>`:  `<p class="x" title="say \"hi\" > there">hi</p>`,
		`<main class="playground" data-ready="false">`:    `<main class="playground" data-ready="false">`,
		"<div\n  id=\"z\"   class=\"a\">text <b>bold</b>": `<div class="a" id="z">text <b>bold</b>`,
	} {
		if got := sortAttributes(in); got != want {
			t.Errorf("sortAttributes(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNegotiateEncoding(t *testing.T) {
	both := map[string]string{"br": `"b"`, "gzip": `"g"`}
	gzipOnly := map[string]string{"gzip": `"g"`}
	for _, c := range []struct {
		accept   string
		variants map[string]string
		want     string // "" for identity
	}{
		{"gzip, deflate, br, zstd", both, "br"},
		{"gzip, deflate, br", gzipOnly, "gzip"},
		{"gzip", both, "gzip"},
		{"", both, ""},
		{"identity", both, ""},
		{"br;q=0, gzip;q=0.5", both, "gzip"},
		{"BR;Q=1", both, "br"},
		{"*", both, "br"},
		{"*;q=0", both, ""},
		{"br;q=0, *", both, "gzip"},
		{"br;q=nonsense", both, ""},
		{"deflate", both, ""},
	} {
		t.Run("Accept: "+c.accept, func(t *testing.T) {
			enc, ok := negotiateEncoding(c.accept, c.variants)
			got := ""
			if ok {
				got = enc.name
			}
			if got != c.want {
				t.Errorf("Accept-Encoding %q with %v: got %q, want %q", c.accept, c.variants, got, c.want)
			}
		})
	}
}

func TestNormalizePrefix(t *testing.T) {
	for in, want := range map[string]string{"/": "/", "": "/", "plog": "/plog/", "/plog": "/plog/", "/plog/": "/plog/", "a/b": "/a/b/"} {
		if got, err := normalizePrefix(in); err != nil || got != want {
			t.Errorf("normalizePrefix(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"/a/../b", "/a//b", "/./"} {
		if got, err := normalizePrefix(bad); err == nil {
			t.Errorf("normalizePrefix(%q) = %q, want an error", bad, got)
		}
	}
}

// get requests path from the site server with the given Accept-Encoding.
func get(t *testing.T, s http.Handler, path, acceptEncoding string, header ...string) *http.Response {
	t.Helper()
	r := httptest.NewRequest(http.MethodGet, path, nil)
	if acceptEncoding != "" {
		r.Header.Set("Accept-Encoding", acceptEncoding)
	}
	for i := 0; i+1 < len(header); i += 2 {
		r.Header.Set(header[i], header[i+1])
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w.Result()
}

func body(t *testing.T, res *http.Response) []byte {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	var r io.Reader
	switch res.Header.Get("Content-Encoding") {
	case "":
		return b
	case "br":
		r = brotli.NewReader(bytes.NewReader(b))
	case "gzip":
		if r, err = gzip.NewReader(bytes.NewReader(b)); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("unknown Content-Encoding %q", res.Header.Get("Content-Encoding"))
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", res.Header.Get("Content-Encoding"), err)
	}
	return plain
}

func TestSiteServerNegotiatesPrecompressedFiles(t *testing.T) {
	wasm := fakeWasm(t, "a very compressible wasm ")
	out, _ := generate(t, wasm, "/", "")
	s, err := newSiteServer(out, "/")
	if err != nil {
		t.Fatal(err)
	}
	raw := servedWasm(t, out)
	if !strings.Contains(raw, "a very compressible wasm ") {
		t.Fatal("the served wasm lost its custom section")
	}
	etags := map[string]string{}
	for _, accept := range []string{"gzip, deflate, br", "gzip", ""} {
		res := get(t, s, "/web/app.wasm", accept)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%q: status %d", accept, res.StatusCode)
		}
		if got := res.Header.Get("Content-Type"); got != "application/wasm" {
			t.Errorf("%q: Content-Type %q, want application/wasm", accept, got)
		}
		if got := res.Header.Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("%q: Vary %q, want Accept-Encoding", accept, got)
		}
		if string(body(t, res)) != raw {
			t.Errorf("%q: the body is not the wasm", accept)
		}
		etags[res.Header.Get("Content-Encoding")] = res.Header.Get("ETag")
	}
	if len(etags) != 3 || etags["br"] == etags["gzip"] || etags["br"] == etags[""] {
		t.Errorf("want br, gzip and identity, each with its own ETag; got %v", etags)
	}

	res := get(t, s, "/web/app.wasm", "br", "If-None-Match", etags["br"])
	if res.StatusCode != http.StatusNotModified {
		t.Errorf("revalidating with the ETag gave %d, want 304", res.StatusCode)
	}
	if got := get(t, s, "/web/static/icon-192.png", "br").Header; got.Get("Content-Encoding") != "" || got.Get("Content-Type") != "image/png" {
		t.Errorf("a PNG is served with Content-Encoding %q, type %q", got.Get("Content-Encoding"), got.Get("Content-Type"))
	}
}

func TestSiteServerHeadersAndPaths(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "x"), "/plog/", "")
	s, err := newSiteServer(out, "/plog/")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, wantType string
		wantStatus     int
	}{
		{"/plog/", "text/html; charset=utf-8", 200},
		{"/plog/index.html", "text/html; charset=utf-8", 200},
		{"/plog/app.js", "text/javascript; charset=utf-8", 200},
		{"/plog/app-worker.js", "text/javascript; charset=utf-8", 200},
		{"/plog/manifest.webmanifest", "application/manifest+json", 200},
		{"/plog/web/static/plog.css", "text/css; charset=utf-8", 200},
		{"/plog/web/static/icon.svg", "image/svg+xml", 200},
		{"/plog/nope", "", 404},
		{"/plog/../serve.go", "", 404},
		{"/app.js", "", 404},
		{"/", "", 302},
		{"/plog", "", 302},
	} {
		res := get(t, s, c.path, "gzip, br")
		if res.StatusCode != c.wantStatus {
			t.Errorf("%s: status %d, want %d", c.path, res.StatusCode, c.wantStatus)
		}
		if c.wantStatus == 302 && res.Header.Get("Location") != "/plog/" {
			t.Errorf("%s: redirects to %q, want /plog/", c.path, res.Header.Get("Location"))
		}
		if c.wantStatus == 200 {
			if got := res.Header.Get("Content-Type"); got != c.wantType {
				t.Errorf("%s: Content-Type %q, want %q", c.path, got, c.wantType)
			}
			if got := res.Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("%s: Cache-Control %q, want no-cache", c.path, got)
			}
			if res.Header.Get("ETag") == "" {
				t.Errorf("%s: no ETag", c.path)
			}
		}
		// Every answer, errors included, carries the security headers.
		if got := res.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q", c.path, got)
		}
		if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "'wasm-unsafe-eval'") || !strings.Contains(csp, "frame-ancestors *") {
			t.Errorf("%s: CSP %q", c.path, csp)
		}
	}
	r := httptest.NewRequest(http.MethodPost, "/plog/", nil)
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	if w.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST: status %d, want 405", w.Code)
	}
}

func TestGeneratedLoaderStartsTheWasmThroughEmbedStart(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "abc"), "/", "")
	js := readFile(t, filepath.Join(out, "app.js"))
	if strings.Contains(js, goappStartWasm) || !strings.Contains(js, "(window.plogStartWasm || ((start) => start()))(goappInitWebAssembly);") {
		t.Error("app.js starts the wasm itself, not through web/static/embed-start.js: every embed would start at once")
	}
	page := readFile(t, filepath.Join(out, "index.html"))
	if start, goapp := strings.Index(page, `src="/web/static/embed-start.js"`), strings.Index(page, `src="/app.js"`); start < 0 || goapp < 0 {
		t.Error("the page lacks embed-start.js or app.js")
	}
	if _, err := startWasmWhenShown("no loader here"); err == nil {
		t.Error("a go-app whose loader changed must fail the build, not start every embed at once")
	}
}

// Each lesson has a page of its own, lessons/NAME.html, holding the lesson
// (its panel, its title) as the live page shows it, with the wasm's preload
// under the prefix, and its own address as og:url.
func TestGeneratedSiteWritesAPagePerLesson(t *testing.T) {
	const site = "https://example.github.io/plog/"
	out, _ := generate(t, fakeWasm(t, "x"), "/plog/", site)
	for _, l := range lesson.All() {
		page := readFile(t, filepath.Join(out, "lessons", l.Name+".html"))
		for _, want := range []string{
			`data-lesson="` + l.Name + `"`,
			`id="lesson-title">` + html.EscapeString(l.Title) + `<`,
			`<link as="fetch" crossorigin="anonymous" fetchpriority="high" href="/plog/web/app.wasm" rel="preload">`,
			`<meta content="` + site + `lessons/` + l.Name + `.html" property="og:url">`,
		} {
			if !strings.Contains(page, want) {
				t.Errorf("lessons/%s.html lacks %s", l.Name, want)
			}
		}
	}
	// Each lesson's embedded page is written as an embedded frame shows it.
	for _, l := range lesson.All() {
		page := readFile(t, filepath.Join(out, "embed", "lessons", l.Name+".html"))
		for _, want := range []string{`data-lesson="` + l.Name + `"`, `data-embed="true"`, `class="embed-bar"`} {
			if !strings.Contains(page, want) {
				t.Errorf("embed/lessons/%s.html lacks %s", l.Name, want)
			}
		}
	}
	if root := readFile(t, filepath.Join(out, "index.html")); strings.Contains(root[strings.Index(root, "<body>"):], `data-lesson-panel`) {
		t.Error("the site's root holds a lesson: it is the landing page")
	}
	// The worker fetches no lesson page as it installs, but keeps each.
	worker := readFile(t, filepath.Join(out, "app-worker.js"))
	if strings.Contains(worker, `"/plog/lessons/`) {
		t.Error("the service worker fetches the lessons' pages as it installs: all of them, on a first visit, beside the wasm")
	}
	if !strings.Contains(worker, "plogLesson(url.pathname)") {
		t.Error("the service worker does not answer the lessons' pages")
	}
}

// app.js compiles the wasm's own response, not a Response it made of the
// bytes it read, whose compiled code the browser cannot keep.
func TestGeneratedLoaderCompilesTheWasmsOwnResponse(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "abc"), "/", "")
	js := readFile(t, filepath.Join(out, "app.js"))
	if strings.Contains(js, "new ReadableStream") || !strings.Contains(js, "const counted = response.clone();") {
		t.Error("app.js hands instantiateStreaming a Response of its own making")
	}
	if !strings.Contains(js, "await window.plogWasmCounted; // plog: the progress reaches 100% before the loader goes\n"+guardedRunWasm) {
		t.Error("app.js starts the Go runtime, and removes the loader, before the progress is counted to its end")
	}
	if _, err := compileTheWasmsOwnResponse("no loader here"); err == nil {
		t.Error("a go-app whose loader changed must fail the build")
	}
}

// app.js starts the Go runtime through web/static/runtime-guard.js, and
// tells it of a start that failed: a runtime that stops is said.
func TestGeneratedLoaderStartsTheRuntimeUnderItsGuard(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "abc"), "/", "")
	js := readFile(t, filepath.Join(out, "app.js"))
	if strings.Contains(js, goappRunWasm) || !strings.Contains(js, guardedRunWasm) {
		t.Error("app.js starts the Go runtime itself, unwatched")
	}
	if !strings.Contains(js, goappWasmFailed+"    if (window.plogWasmFailed) window.plogWasmFailed(err);") {
		t.Error("app.js does not report a failed start to the guard")
	}
	page := readFile(t, filepath.Join(out, "index.html"))
	for _, script := range []string{"runtime-guard.js", "workspaces.js"} {
		if !strings.Contains(page, `<script defer src="/web/static/`+script+`"></script>`) {
			t.Errorf("the page does not run web/static/%s before app.js", script)
		}
	}
	if _, err := watchTheRuntime("no loader here"); err == nil {
		t.Error("a go-app whose loader changed must fail the build, not run the runtime unwatched")
	}
}

// The .br files are compressed at the level asked for (make dist asks for
// brotli's best, 11), and decompress to the file.
func TestGeneratedSiteCompressesAtTheBrotliLevelAsked(t *testing.T) {
	wasmExec, err := toolchainWasmExec()
	if err != nil {
		t.Fatal(err)
	}
	wasm := fakeWasm(t, "levels ")
	sizes := map[int]int{}
	for _, level := range []int{1, 11} {
		out := filepath.Join(t.TempDir(), "dist")
		if _, err := generateSite(siteConfig{Out: out, Prefix: "/", Wasm: wasm, WasmExec: wasmExec, Static: "web/static", BrotliLevel: level}); err != nil {
			t.Fatal(err)
		}
		packed := readFile(t, filepath.Join(out, "web", "app.wasm.br"))
		unpacked, err := io.ReadAll(brotli.NewReader(strings.NewReader(packed)))
		if err != nil || string(unpacked) != servedWasm(t, out) {
			t.Fatalf("level %d: app.wasm.br does not decompress to app.wasm (%v)", level, err)
		}
		sizes[level] = len(packed)
	}
	if sizes[11] >= sizes[1] {
		t.Errorf("app.wasm.br is %d bytes at level 11 and %d at level 1: the level was not used", sizes[11], sizes[1])
	}
}

// go-app's handler serves its proxied resources (robots.txt and the like)
// from the site's own files, asked in-process: it makes no request, to
// the request's Host or to any other host (third_party/go-app/PLOG.md).
// The request names a host where nothing answers; the file comes all the
// same.
func TestProxiedResourcesAreServedWithoutARequest(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := os.MkdirAll("web", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("web", "robots.txt"), []byte("User-agent: *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &app.Handler{Name: "plog", Resources: app.LocalDir("")}
	req := httptest.NewRequest(http.MethodGet, "/robots.txt", nil)
	req.Host = "127.0.0.1:1" // nothing listens on port 1
	res := httptest.NewRecorder()
	h.ServeHTTP(res, req)
	if res.Code != http.StatusOK || res.Body.String() != "User-agent: *\n" {
		t.Errorf("robots.txt: %d %q, want 200 and the file", res.Code, res.Body.String())
	}
	missing := httptest.NewRecorder()
	h.ServeHTTP(missing, httptest.NewRequest(http.MethodGet, "/ads.txt", nil))
	if missing.Code != http.StatusNotFound {
		t.Errorf("ads.txt, which the site lacks: %d, want 404", missing.Code)
	}
}

// The site serves the wasm slimmed (internal/gowasm), and a file that is not
// a Go wasm fails the build with a message that names it.
func TestGeneratedSiteSlimsTheWasm(t *testing.T) {
	wasm := fakeWasm(t, "slim ")
	out, _ := generate(t, wasm, "/", "")
	built := []byte(readFile(t, wasm))
	slim, err := gowasm.Slim(built)
	if err != nil {
		t.Fatal(err)
	}
	if served := servedWasm(t, out); served != string(slim) || bytes.Equal(built, slim) {
		t.Errorf("the site serves %d bytes; built %d, slimmed %d", len(served), len(built), len(slim))
	}

	notWasm := filepath.Join(t.TempDir(), "app.wasm")
	if err := os.WriteFile(notWasm, []byte("<html>not a wasm</html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	wasmExec, err := toolchainWasmExec()
	if err != nil {
		t.Fatal(err)
	}
	_, err = generateSite(siteConfig{Out: filepath.Join(t.TempDir(), "dist"), Prefix: "/", Wasm: notWasm, WasmExec: wasmExec, Static: "web/static"})
	if err == nil || !strings.Contains(err.Error(), notWasm) || !strings.Contains(err.Error(), "not a WebAssembly binary") {
		t.Errorf("generating with a file that is not a wasm: %v", err)
	}
}
