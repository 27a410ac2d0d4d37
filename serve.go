// Command plog (the module's root package) generates plog's static site into
// dist/ and serves it.
//
//	go run . -wasm bin/app.wasm                    # generate dist/ and serve it on 127.0.0.1:8080
//	go run . -wasm bin/app.wasm -prefix /plog/ -build-only   # for a host under a sub-path
//	go run . -serve-only -out dist                 # serve an existing dist/
//
// The generated dist/ is a plain static site: any static file server can host
// it. Serving it with this command adds what a good host adds: precompressed
// .br and .gz files chosen by Accept-Encoding, cache validators and security
// headers.
package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"mime"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	plog "plog/app"
	"plog/internal/gowasm"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("plog: ")
	var (
		addr      = flag.String("addr", "127.0.0.1:8080", "address to serve on; port 0 picks a free port")
		out       = flag.String("out", "dist", "directory of the generated site")
		prefix    = flag.String("prefix", "/", "URL path the site is hosted under, e.g. /plog/ on GitHub Pages")
		wasm      = flag.String("wasm", "bin/app.wasm", "the page's wasm, built with GOOS=js GOARCH=wasm ./wasm")
		static    = flag.String("static", "web/static", "directory of CSS, icons and scripts copied to web/static/")
		siteURL   = flag.String("url", "", "public URL of the site, for the og:url link preview; empty: none (serving: the local address)")
		buildOnly = flag.Bool("build-only", false, "generate the site and exit")
		serveOnly = flag.Bool("serve-only", false, "serve an existing site without generating it")
		brotliLvl = flag.Int("brotli", defaultBrotliLevel, "brotli level of the precompressed files, 1 to 11: 11 makes the smallest wasm, in about forty seconds more (make dist)")
	)
	flag.Parse()

	p, err := normalizePrefix(*prefix)
	if err != nil {
		log.Fatal(err)
	}
	if !*serveOnly {
		publicURL := *siteURL
		if publicURL == "" && !*buildOnly && !strings.HasSuffix(*addr, ":0") {
			publicURL = "http://" + *addr + p
		}
		if *brotliLvl < 1 || *brotliLvl > 11 {
			log.Fatalf("-brotli %d: the levels are 1 to 11", *brotliLvl)
		}
		cfg := siteConfig{Out: *out, Prefix: p, Wasm: *wasm, Static: *static, URL: publicURL, BrotliLevel: *brotliLvl}
		if cfg.WasmExec, err = toolchainWasmExec(); err != nil {
			log.Fatal(err)
		}
		start := time.Now()
		version, err := generateSite(cfg)
		if err != nil {
			log.Fatal(err)
		}
		log.Printf("generated %s (version %s) in %s", *out, version, time.Since(start).Round(time.Millisecond))
	}
	if *buildOnly {
		return
	}
	if err := serve(*addr, *out, p); err != nil {
		log.Fatal(err)
	}
}

// normalizePrefix turns "plog", "/plog" or "/plog/" into "/plog/".
func normalizePrefix(p string) (string, error) {
	p = "/" + strings.Trim(p, "/")
	if p != "/" {
		p += "/"
	}
	if path.Clean(p) != strings.TrimSuffix(p, "/") && p != "/" {
		return "", fmt.Errorf("prefix %q is not a clean URL path", p)
	}
	return p, nil
}

// toolchainWasmExec is the wasm_exec.js of the Go toolchain that builds the
// wasm. go-app ships its own copy, which drifts from the toolchain's; the glue
// must match the toolchain or the wasm fails at start.
func toolchainWasmExec() (string, error) { return gowasm.ToolchainFile("wasm_exec.js") }

// siteConfig says where the site's inputs are and how it will be hosted.
type siteConfig struct {
	Out      string // output directory; a previous site there is replaced
	Prefix   string // URL path the site is hosted under: "/" or "/plog/"
	Wasm     string // the built app.wasm
	WasmExec string // the toolchain's wasm_exec.js
	Static   string // directory copied to web/static/
	URL      string // public URL for og:url; empty drops the tag
	// BrotliLevel compresses the .br files, 1 to 11; 0 is defaultBrotliLevel.
	BrotliLevel int
}

// placeholderVersion is the service worker version of the first pass, whose
// files are hashed to get the real version.
const placeholderVersion = "unversioned"

// generateSite writes the static site and returns its version: a hash of the
// built files, so the service worker refreshes its cache exactly when
// something a visitor downloads has changed.
func generateSite(cfg siteConfig) (string, error) {
	built, err := os.ReadFile(cfg.Wasm)
	if err != nil {
		return "", fmt.Errorf("reading the wasm (build it with make dist): %w", err)
	}
	wasm, warning, err := gowasm.SlimOrBuilt(built)
	if err != nil {
		return "", fmt.Errorf("reading the wasm %s: %w", cfg.Wasm, err)
	}
	if warning != nil {
		fmt.Fprintf(os.Stderr, "plog: warning: %s: %v\n", cfg.Wasm, warning)
	}
	wasmExec, err := os.ReadFile(cfg.WasmExec)
	if err != nil {
		return "", fmt.Errorf("reading the toolchain's wasm_exec.js: %w", err)
	}
	if err := clearPreviousSite(cfg.Out); err != nil {
		return "", err
	}
	if err := os.MkdirAll(filepath.Join(cfg.Out, "web"), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(cfg.Out, "web", "app.wasm"), wasm, 0o644); err != nil {
		return "", err
	}
	if err := copyDir(cfg.Static, filepath.Join(cfg.Out, "web", "static")); err != nil {
		return "", fmt.Errorf("copying static files: %w", err)
	}

	plog.Routes()
	if err := writePages(cfg, placeholderVersion, len(wasm), wasmExec); err != nil {
		return "", err
	}
	version, err := hashDir(cfg.Out)
	if err != nil {
		return "", err
	}
	if err := writePages(cfg, version, len(wasm), wasmExec); err != nil {
		return "", err
	}
	level := cfg.BrotliLevel
	if level == 0 {
		level = defaultBrotliLevel
	}
	return version, precompressDir(cfg.Out, level)
}

// clearPreviousSite removes dir only if it is empty or holds a generated site,
// so a mistyped -out cannot delete anything else.
func clearPreviousSite(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, marker := range []string{"index.html", "app-worker.js"} {
		if _, err := os.Stat(filepath.Join(dir, marker)); err != nil {
			return fmt.Errorf("refusing to replace %s: it is not empty and holds no generated site", dir)
		}
	}
	return os.RemoveAll(dir)
}

// handler describes the page to go-app. Every icon is a local file: go-app
// falls back to icons on GitHub for any field left empty.
func handler(cfg siteConfig, version string, staticResources []string) *app.Handler {
	resources := app.LocalDir("")
	if cfg.Prefix != "/" {
		resources = app.CustomProvider("", cfg.Prefix)
	}
	return &app.Handler{
		Name:            "plog",
		ShortName:       "plog",
		Title:           "plog · a playground for Kafka's partitioned log",
		Description:     "Produce keyed records, watch them land in partitions, run consumer groups, commit, truncate, compact and rebalance: Kafka's partitioned log, in your browser.",
		Lang:            "en",
		BackgroundColor: "#111827",
		ThemeColor:      "#111827",
		LoadingLabel:    "Loading the plog engine… {progress}%",
		// The link preview's picture (og:image): a local file, resolved
		// under the prefix, absolute when the public URL is known.
		Image: previewImage(cfg),
		Icon: app.Icon{
			Default:    "/web/static/icon-192.png",
			Large:      "/web/static/icon-512.png",
			SVG:        "/web/static/icon.svg",
			AppleTouch: "/web/static/icon-192.png",
		},
		// No Styles or Scripts: the page's are written into its head
		// (head.go), not linked as go-app links them.
		// go-app caches the site's root without its trailing slash; under a
		// sub-path the page is fetched as /plog/, which must be cached too.
		// Every file of web/static is cached, so that the embedding example
		// (embed.html) opens offline as the page does.
		CacheableResources: append(staticResources, cfg.Prefix),
		RawHeaders: []string{
			// Chat apps show og:image large only when asked to.
			`<meta name="twitter:card" content="summary_large_image">`,
		},
		Resources: resources,
		Version:   version,
	}
}

// goappCharset opens the head of the page go-app writes.
const goappCharset = "<meta charset=\"UTF-8\">\n"

// preloadWasm starts the wasm's download with the page's HTML, rather than
// when go-app's deferred app.js runs after the whole page is parsed: a
// preload first in the head, before the stylesheets and the scripts the
// parser waits for. It is the request app.js then makes (fetch of prefix +
// web/app.wasm), so that the browser hands that fetch the preloaded
// response instead of downloading twice: a fetch() has mode cors with
// same-origin credentials, which a preload asks for with as="fetch" and
// crossorigin="anonymous".
func preloadWasm(page, prefix string) (string, error) {
	if n := strings.Count(page, goappCharset); n != 1 {
		return "", fmt.Errorf("go-app's page has %d copies of %q, want 1: its head changed, revisit the wasm's preload", n, strings.TrimSpace(goappCharset))
	}
	link := `<link rel="preload" href="` + htmlAttrEscape(prefix+"web/app.wasm") + `" as="fetch" crossorigin="anonymous" fetchpriority="high">` + "\n"
	return strings.Replace(page, goappCharset, goappCharset+link, 1), nil
}

// inlineFavicon puts the page's icon (web/static/icon.svg, under a kilobyte)
// in the page itself. The browser fetches a favicon on its own, after the
// load event (which waits for the wasm's preload) and outside the service
// worker: a request fewer on a first visit, and none to fail offline.
func inlineFavicon(page, prefix string, svg []byte) (string, error) {
	link := `<link href="` + prefix + `web/static/icon.svg" rel="icon">`
	if n := strings.Count(page, link); n != 1 {
		return "", fmt.Errorf("go-app's page has %d copies of %q, want 1: its head changed, revisit the inline favicon", n, link)
	}
	return strings.Replace(page, link, `<link href="data:image/svg+xml;base64,`+base64.StdEncoding.EncodeToString(svg)+`" rel="icon">`, 1), nil
}

// previewImage is the path of the link preview's picture, web/static/preview.png.
func previewImage(cfg siteConfig) string {
	if cfg.URL != "" {
		return strings.TrimSuffix(cfg.URL, "/") + "/web/static/preview.png"
	}
	return "/web/static/preview.png"
}

// contentSecurityPolicy allows the page's own origin only. go-app needs
// 'wasm-unsafe-eval' to compile the wasm, and its Style() writes style
// attributes, which CSP counts as inline styles; the page's styles are a
// <style> element too (head.go). The site generator puts it in a <meta> tag,
// with the hashes of the page's inline scripts, so static hosts enforce it
// too; serve sends that policy and frame-ancestors, which only a header can
// carry.
const contentSecurityPolicy = "default-src 'self'; " +
	"script-src 'self' 'wasm-unsafe-eval'; " +
	"style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; " +
	"connect-src 'self'; " +
	"worker-src 'self'; " +
	"manifest-src 'self'; " +
	"frame-src 'self'; " +
	"object-src 'none'; " +
	"base-uri 'self'; " +
	"form-action 'self'"

// writePages has go-app write the HTML page, app.js, the service worker and
// the manifest, then corrects what go-app gets wrong for a static site.
func writePages(cfg siteConfig, version string, wasmSize int, wasmExec []byte) error {
	static, err := siteFiles(cfg.Static)
	if err != nil {
		return fmt.Errorf("listing static files: %w", err)
	}
	for i, rel := range static {
		static[i] = "/web/static/" + rel
	}
	if err := app.GenerateStaticWebsite(cfg.Out, handler(cfg, version, static), lessonPages()...); err != nil {
		return fmt.Errorf("generating the site: %w", err)
	}
	if err := editFile(filepath.Join(cfg.Out, "app-worker.js"), func(js string) (string, error) {
		return answerEveryAddressOfThePage(js, cfg.Prefix)
	}); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cfg.Out, "wasm_exec.js"), wasmExec, 0o644); err != nil {
		return err
	}
	if err := editFile(filepath.Join(cfg.Out, "app.js"), func(js string) (string, error) {
		js, err := measureProgressAgainstRawSize(js, wasmSize)
		if err != nil {
			return "", err
		}
		if js, err = compileTheWasmsOwnResponse(js); err != nil {
			return "", err
		}
		if js, err = watchTheRuntime(js); err != nil {
			return "", err
		}
		return startWasmWhenShown(js)
	}); err != nil {
		return err
	}
	icon, err := os.ReadFile(filepath.Join(cfg.Static, "icon.svg"))
	if err != nil {
		return err
	}
	head, err := readPageHead(cfg)
	if err != nil {
		return err
	}
	for _, page := range append([]string{"/index.html"}, lessonPages()...) {
		if err := editFile(filepath.Join(cfg.Out, filepath.FromSlash(page)), func(html string) (string, error) {
			html, err := preloadWasm(html, cfg.Prefix)
			if err != nil {
				return "", err
			}
			if html, err = inlineFavicon(sortAttributes(html), cfg.Prefix, icon); err != nil {
				return "", err
			}
			// After sortAttributes, which would read tags in the scripts.
			if html, err = head.write(html); err != nil {
				return "", err
			}
			return setOpenGraphURL(html, pageURL(cfg.URL, page)), nil
		}); err != nil {
			return err
		}
	}
	return nil
}

// lessonPages are the paths of the pages written for the built-in lessons:
// each lesson's own page and its embedded page.
func lessonPages() []string {
	return append(plog.LessonPagePaths(), plog.LessonEmbedPaths()...)
}

// pageURL is the public address of the page at path (from the site's
// root), for og:url; "" when the public URL is not known.
func pageURL(siteURL, page string) string {
	if siteURL == "" || page == "/index.html" {
		return siteURL
	}
	return strings.TrimSuffix(siteURL, "/") + page
}

func editFile(name string, edit func(string) (string, error)) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	s, err := edit(string(b))
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return os.WriteFile(name, []byte(s), 0o644)
}

// goappProgressTotal is the line of go-app's app.js that takes the download's
// total size from Content-Length.
const goappProgressTotal = "const total = parseInt(contentLength, 10);"

// measureProgressAgainstRawSize makes the loading screen's progress right when
// the wasm travels compressed: go-app counts decompressed bytes but divides by
// Content-Length, the compressed size, and would climb far past 100%.
func measureProgressAgainstRawSize(js string, wasmSize int) (string, error) {
	if n := strings.Count(js, goappProgressTotal); n != 1 {
		return "", fmt.Errorf("go-app's app.js has %d copies of %q, want 1: its loader changed, revisit the progress fix", n, goappProgressTotal)
	}
	return strings.Replace(js, goappProgressTotal,
		"const total = "+strconv.Itoa(wasmSize)+"; // plog: the raw size of app.wasm, whatever the transfer encoding", 1), nil
}

// goappProgressStream is the part of go-app's app.js that counts the wasm's
// bytes as they arrive: it reads the response itself and hands on a new
// Response made of what it read.
const goappProgressStream = `  var res = new Response(
    new ReadableStream(
      {
        async start(controller) {
          var reader = response.body.getReader();
          for (;;) {
            var { done, value } = await reader.read();

            if (done) {
              progressHandler(total, total);
              break;
            }

            loaded += value.byteLength;
            progressHandler(loaded, total);
            controller.enqueue(value);
          }
          controller.close();
        },
      },
      {
        status: response.status,
        statusText: response.statusText,
      }
    )
  );

  for (var pair of response.headers.entries()) {
    res.headers.set(pair[0], pair[1]);
  }

  return res;
}
`

// compileTheWasmsOwnResponse has app.js hand WebAssembly.instantiateStreaming
// the wasm's own response, as fetched (from the network, the preload or the
// service worker's cache), and count the bytes for the progress on a clone
// of it. go-app's new Response made of what it read compiles as it streams
// too, but it has no URL, and Chromium keys the compiled code it keeps for
// a wasm by its response's URL: for go-app's response it keeps none. With
// the response itself it may (it keeps a module's code once enough of it
// has been optimized); measured on a loaded machine, a repeat visit's
// instantiation took 417 ms against 542 ms (medians of 9, alternated).
func compileTheWasmsOwnResponse(js string) (string, error) {
	if n := strings.Count(js, goappProgressStream); n != 1 {
		return "", fmt.Errorf("go-app's app.js has %d copies of its progress stream, want 1: its loader changed, revisit the wasm's streaming", n)
	}
	js = strings.Replace(js, goappProgressStream, `  // plog: the wasm's own response is compiled (serve.go, compileTheWasmsOwnResponse);
  // its clone is counted.
  const counted = response.clone();
  window.plogWasmCounted = (async () => {
    const reader = counted.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        progressHandler(total, total);
        return;
      }
      loaded += value.byteLength;
      progressHandler(loaded, total);
    }
  })().catch(() => {});
  return response;
}
`, 1)
	if n := strings.Count(js, goappRunWasm); n != 1 {
		return "", fmt.Errorf("go-app's app.js has %d copies of %q, want 1: its loader changed, revisit the wasm's streaming", n, strings.TrimSpace(goappRunWasm))
	}
	return strings.Replace(js, goappRunWasm, `    await window.plogWasmCounted; // plog: the progress reaches 100% before the loader goes
`+goappRunWasm, 1), nil
}

// goappRunWasm is the line of go-app's app.js that starts the Go runtime
// once the wasm is compiled; the loader goes right after it. The compiled
// response may be read through before its counted clone is: the progress
// is awaited first, so that it ends at 100%, not where the count stood.
const goappRunWasm = "    go.run(wasm.instance);\n"

// goappWasmFailed is the line of go-app's app.js that reports a wasm that
// would not download, compile or start.
const goappWasmFailed = "    console.error(\"loading wasm failed: \", err);\n"

// watchTheRuntime has app.js start the Go runtime through plogRunWasm and
// report a failed start to plogWasmFailed (web/static/runtime-guard.js),
// which see the runtime stop (out of memory, a trap, a wasm that would not
// load) and have the page say so, rather than stay as it was and answer
// nothing. Without runtime-guard.js the runtime starts as before.
func watchTheRuntime(js string) (string, error) {
	for _, line := range []string{goappRunWasm, goappWasmFailed} {
		if n := strings.Count(js, line); n != 1 {
			return "", fmt.Errorf("go-app's app.js has %d copies of %q, want 1: its loader changed, revisit the runtime's guard", n, strings.TrimSpace(line))
		}
	}
	js = strings.Replace(js, goappRunWasm, guardedRunWasm, 1)
	return strings.Replace(js, goappWasmFailed,
		goappWasmFailed+"    if (window.plogWasmFailed) window.plogWasmFailed(err); // plog: web/static/runtime-guard.js\n", 1), nil
}

// guardedRunWasm is goappRunWasm as watchTheRuntime writes it.
const guardedRunWasm = "    (window.plogRunWasm || ((go, instance) => go.run(instance)))(go, wasm.instance); // plog: web/static/runtime-guard.js\n"

// goappStartWasm is the line of go-app's app.js that starts the wasm's
// download and the Go runtime, as soon as app.js runs.
const goappStartWasm = "goappInitWebAssembly();\n"

// startWasmWhenShown has app.js hand the start of the wasm to plogStartWasm
// (web/static/embed-start.js), which starts it at once but in an embedded
// frame, where it waits until the frame comes into view or is touched. Only
// that call changes: the service worker and the rest of app.js start as
// before. Without embed-start.js the page starts at once.
func startWasmWhenShown(js string) (string, error) {
	if n := strings.Count(js, goappStartWasm); n != 1 {
		return "", fmt.Errorf("go-app's app.js has %d copies of %q, want 1: its loader changed, revisit the embed's lazy start", n, strings.TrimSpace(goappStartWasm))
	}
	return strings.Replace(js, goappStartWasm,
		"(window.plogStartWasm || ((start) => start()))(goappInitWebAssembly); // plog: web/static/embed-start.js\n", 1), nil
}

// goappWorkerMatch is the line of go-app's app-worker.js that looks a
// request up in the cache: by its exact URL, query string included.
const goappWorkerMatch = "caches.match(event.request).then((response) => {"

// answerEveryAddressOfThePage makes the service worker answer, offline, every
// address the page is opened at: the prefix, prefix + "index.html", either with
// a query string (a link shared with ?utm_source=… appended). go-app's worker
// matches the cache by the exact URL and so fails at all but the prefix
// itself. Other files are matched without their query string too.
//
// A lesson's page (lessons/NAME.html) and its embedded page
// (embed/lessons/NAME.html) are not among the files the worker
// fetches as it installs, which would be some 16 KB each with brotli, all
// of them on a first visit, beside the wasm: the worker keeps each one the
// first time it fetches it, and offline, a lesson's page it never fetched
// is answered with the site's root page, which opens the lesson its address
// names (app/lesson_page.go), under go-app's loader.
func answerEveryAddressOfThePage(js, prefix string) (string, error) {
	if n := strings.Count(js, goappWorkerMatch); n != 1 {
		return "", fmt.Errorf("go-app's app-worker.js has %d copies of %q, want 1: its worker changed, revisit the offline fix", n, goappWorkerMatch)
	}
	js = strings.Replace(js, goappWorkerMatch, "plogCached(event.request).then((response) => {", 1)
	return js + `
// plog: the page is one file, whatever the query string and whether it is
// asked for as index.html; other files are matched without their query.
const plogPage = ` + strconv.Quote(prefix) + `;
const plogLessonPage = /^(embed\/)?lessons\/[a-z0-9-]+\.html$/;
function plogCached(request) {
  const url = new URL(request.url);
  if (request.method === "GET" && url.origin === self.location.origin) {
    if (url.pathname === plogPage || url.pathname === plogPage + "index.html") {
      return caches.match(plogPage);
    }
    if (url.pathname.startsWith(plogPage) && plogLessonPage.test(url.pathname.slice(plogPage.length))) {
      return plogLesson(url.pathname);
    }
  }
  return caches.match(request, { ignoreSearch: true });
}
async function plogLesson(path) {
  const cache = await caches.open(cacheName);
  const kept = await cache.match(path);
  if (kept) {
    return kept;
  }
  try {
    const response = await fetch(path);
    if (response.ok) {
      await cache.put(path, response.clone());
    }
    return response;
  } catch (err) {
    return cache.match(plogPage);
  }
}
`, nil
}

var (
	htmlTag       = regexp.MustCompile(`<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'<>/=]+(?:="(?:[^"\\]|\\.)*")?)+)\s*>`)
	htmlAttribute = regexp.MustCompile(`[^\s"'<>/=]+(?:="(?:[^"\\]|\\.)*")?`)
	openGraphURL  = regexp.MustCompile(`\s*<meta content="[^"]*" property="og:url">`)
)

// sortAttributes orders each tag's attributes by name. go-app writes them in
// map order, which changes from run to run; sorted, the same inputs give the
// same bytes and so the same version.
func sortAttributes(page string) string {
	return htmlTag.ReplaceAllStringFunc(page, func(tag string) string {
		m := htmlTag.FindStringSubmatch(tag)
		attrs := htmlAttribute.FindAllString(m[2], -1)
		sort.Strings(attrs)
		return "<" + m[1] + " " + strings.Join(attrs, " ") + ">"
	})
}

// setOpenGraphURL points og:url at the public URL. go-app fills it with the
// temporary address of the generator; with no public URL known, no tag is
// better than a wrong one.
func setOpenGraphURL(page, url string) string {
	if url == "" {
		return openGraphURL.ReplaceAllString(page, "")
	}
	return openGraphURL.ReplaceAllLiteralString(page, "\n<meta content=\""+htmlAttrEscape(url)+"\" property=\"og:url\">")
}

func htmlAttrEscape(s string) string {
	return strings.NewReplacer(`&`, "&amp;", `"`, "&quot;", `<`, "&lt;", `>`, "&gt;").Replace(s)
}

// copyDir copies the regular files under src into dst.
func copyDir(src, dst string) error {
	return filepath.WalkDir(src, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(src, name)
		if err != nil {
			return err
		}
		b, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		target := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
}

// siteFiles lists the site's files as slash paths relative to dir, sorted,
// leaving out the precompressed copies.
func siteFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || isPrecompressed(name) {
			return err
		}
		rel, err := filepath.Rel(dir, name)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	sort.Strings(files)
	return files, err
}

func isPrecompressed(name string) bool {
	return strings.HasSuffix(name, ".br") || strings.HasSuffix(name, ".gz")
}

// hashDir hashes the names and contents of the site's files.
func hashDir(dir string) (string, error) {
	files, err := siteFiles(dir)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, rel := range files {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", rel, len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// compressible lists the file types worth precompressing; images are
// compressed already.
var compressible = map[string]bool{
	".wasm": true, ".js": true, ".css": true, ".html": true,
	".svg": true, ".webmanifest": true, ".json": true, ".txt": true,
}

// defaultBrotliLevel trades build time for size: on the page's wasm, level 9
// takes a few seconds, level 11 about forty on a quiet machine (minutes on a
// busy one) for a further 13% off: 2.27 MB instead of 2.62 MB at commit
// b96e4f4. The tests and make serve build at 9; make dist, the site one
// publishes, at 11 (-brotli).
const defaultBrotliLevel = 9

// precompressDir writes a .br (at brotliLevel) and a .gz beside every
// compressible file, when they are smaller than the file.
func precompressDir(dir string, brotliLevel int) error {
	files, err := siteFiles(dir)
	if err != nil {
		return err
	}
	for _, rel := range files {
		if !compressible[path.Ext(rel)] {
			continue
		}
		name := filepath.Join(dir, filepath.FromSlash(rel))
		raw, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		for _, enc := range encodings {
			packed, err := enc.compress(raw, brotliLevel)
			if err != nil {
				return fmt.Errorf("compressing %s: %w", rel, err)
			}
			if len(packed) >= len(raw) {
				continue
			}
			if err := os.WriteFile(name+enc.suffix, packed, 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}

// encoding is a Content-Encoding this site precompresses files with.
type encoding struct {
	name     string // as in Accept-Encoding
	suffix   string // of the precompressed file
	compress func(b []byte, brotliLevel int) ([]byte, error)
}

// encodings in order of preference.
var encodings = []encoding{
	{"br", ".br", func(b []byte, brotliLevel int) ([]byte, error) {
		var buf bytes.Buffer
		w := brotli.NewWriterLevel(&buf, brotliLevel)
		if _, err := w.Write(b); err != nil {
			return nil, err
		}
		err := w.Close()
		return buf.Bytes(), err
	}},
	{"gzip", ".gz", func(b []byte, _ int) ([]byte, error) {
		var buf bytes.Buffer
		w, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(b); err != nil {
			return nil, err
		}
		err = w.Close()
		return buf.Bytes(), err
	}},
}

// serve serves the site in dir under prefix until interrupted.
func serve(addr, dir, prefix string) error {
	site, err := newSiteServer(dir, prefix)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	// Tests and scripts read this line to learn the port.
	fmt.Printf("plog: serving %s on http://%s%s\n", dir, ln.Addr(), prefix)

	srv := newHTTPServer(site)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// The server's deadlines. A client gets 10 s to send its request's headers
// and 30 s for the whole request (the site takes GET and HEAD only); an idle
// keep-alive connection is closed after 60 s. A response may take 10 minutes,
// time for the raw 11.5 MB wasm at 20 KB/s (its brotli copy, 2.3 MB, at
// 4 KB/s), but a client that takes nothing for 30 s is dropped: one that
// never reads would hold its connection and its file open for the 10
// minutes. Each write must go through within stallTimeout.
const (
	readHeaderTimeout = 10 * time.Second
	readTimeout       = 30 * time.Second
	writeTimeout      = 10 * time.Minute
	idleTimeout       = 60 * time.Second
)

// stallTimeout is how long one write of a response may wait for the client
// to take it (a variable for the tests).
var stallTimeout = 30 * time.Second

// newHTTPServer serves handler with the server's deadlines.
func newHTTPServer(handler http.Handler) *http.Server {
	return &http.Server{
		Handler:           stallGuard(handler),
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
	}
}

// stallGuard gives each write of a response stallTimeout to go through,
// within the response's writeTimeout.
func stallGuard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&stallWriter{ResponseWriter: w, rc: http.NewResponseController(w), end: time.Now().Add(writeTimeout)}, r)
	})
}

// stallWriter moves the connection's write deadline before each write.
type stallWriter struct {
	http.ResponseWriter
	rc  *http.ResponseController
	end time.Time
}

func (w *stallWriter) Write(b []byte) (int, error) {
	deadline := time.Now().Add(stallTimeout)
	if deadline.After(w.end) {
		deadline = w.end
	}
	w.rc.SetWriteDeadline(deadline)
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the connection.
func (w *stallWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// siteServer serves a generated site like a careful static host.
type siteServer struct {
	dir    string
	prefix string
	policy string                // the Content-Security-Policy of its pages (sitePolicy)
	files  map[string]servedFile // by slash path relative to dir
}

// servedFile is one file of the site and its precompressed variants.
type servedFile struct {
	etag     string
	variants map[string]string // encoding name → ETag of the precompressed file
}

// newSiteServer indexes dir once, hashing each file for its ETag: the site is
// generated before it is served and does not change underneath.
func newSiteServer(dir, prefix string) (*siteServer, error) {
	files, err := siteFiles(dir)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no site: generate it first (make dist)", dir)
	}
	s := &siteServer{dir: dir, prefix: prefix, policy: sitePolicy(dir), files: make(map[string]servedFile, len(files))}
	for _, rel := range files {
		name := filepath.Join(dir, filepath.FromSlash(rel))
		etag, err := fileETag(name)
		if err != nil {
			return nil, err
		}
		f := servedFile{etag: etag, variants: map[string]string{}}
		for _, enc := range encodings {
			if etag, err := fileETag(name + enc.suffix); err == nil {
				f.variants[enc.name] = etag
			}
		}
		s.files[rel] = f
	}
	return s, nil
}

func fileETag(name string) (string, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`, nil
}

// setSecurityHeaders sets the headers every response carries: policy is
// the site's Content-Security-Policy (sitePolicy). There is no
// X-Frame-Options: embedding the playground in course pages is a feature.
func setSecurityHeaders(h http.Header, policy string) {
	h.Set("Content-Security-Policy", policy+"; frame-ancestors *")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	// A page embedded in an iframe sandboxed without allow-same-origin has
	// an opaque origin: its fetch of app.wasm is cross-origin. The site is
	// public, so any origin may read it.
	h.Set("Access-Control-Allow-Origin", "*")
}

func (s *siteServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	setSecurityHeaders(w.Header(), s.policy)
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	urlPath := r.URL.Path
	if urlPath == strings.TrimSuffix(s.prefix, "/") || (urlPath == "/" && s.prefix != "/") {
		http.Redirect(w, r, s.prefix, http.StatusFound)
		return
	}
	rel, ok := strings.CutPrefix(urlPath, s.prefix)
	if !ok {
		http.NotFound(w, r)
		return
	}
	if rel == "" || strings.HasSuffix(rel, "/") {
		rel += "index.html"
	}
	f, ok := s.files[rel]
	if !ok {
		http.NotFound(w, r)
		return
	}

	h := w.Header()
	h.Set("Content-Type", contentType(rel))
	// The file names are go-app's and carry no content hash, so caches must
	// revalidate; the ETag makes that a 304. Offline use is the service
	// worker's job, not the HTTP cache's.
	h.Set("Cache-Control", "no-cache")
	name, etag := rel, f.etag
	if len(f.variants) > 0 {
		h.Set("Vary", "Accept-Encoding")
		if enc, ok := negotiateEncoding(r.Header.Get("Accept-Encoding"), f.variants); ok {
			h.Set("Content-Encoding", enc.name)
			name, etag = rel+enc.suffix, f.variants[enc.name]
		}
	}
	h.Set("ETag", etag)

	file, err := os.Open(filepath.Join(s.dir, filepath.FromSlash(name)))
	if err != nil {
		http.Error(w, "file vanished: "+rel, http.StatusInternalServerError)
		return
	}
	defer file.Close()
	http.ServeContent(w, r, "", time.Time{}, file)
}

// negotiateEncoding picks the preferred encoding that the client accepts and
// that a precompressed variant exists for.
func negotiateEncoding(accept string, variants map[string]string) (encoding, bool) {
	accepted := parseAcceptEncoding(accept)
	for _, enc := range encodings {
		if _, ok := variants[enc.name]; !ok {
			continue
		}
		q, listed := accepted[enc.name]
		if !listed {
			q, listed = accepted["*"]
		}
		if listed && q > 0 {
			return enc, true
		}
	}
	return encoding{}, false
}

// parseAcceptEncoding maps each listed coding to its quality (1 when not
// given), as in RFC 9110 section 12.5.3.
func parseAcceptEncoding(header string) map[string]float64 {
	accepted := map[string]float64{}
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		if coding == "" {
			continue
		}
		q := 1.0
		for _, param := range strings.Split(params, ";") {
			name, value, _ := strings.Cut(param, "=")
			if strings.EqualFold(strings.TrimSpace(name), "q") {
				parsed, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
				if err != nil || parsed < 0 || parsed > 1 {
					parsed = 0
				}
				q = parsed
			}
		}
		accepted[coding] = q
	}
	return accepted
}

// contentTypes names the types of the site's files; the system's MIME table
// varies between machines and lacks some of them.
var contentTypes = map[string]string{
	".html":        "text/html; charset=utf-8",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".wasm":        "application/wasm",
	".webmanifest": "application/manifest+json",
	".json":        "application/json",
	".svg":         "image/svg+xml",
	".png":         "image/png",
	".txt":         "text/plain; charset=utf-8",
}

func contentType(name string) string {
	ext := path.Ext(name)
	if t, ok := contentTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return "application/octet-stream"
}
