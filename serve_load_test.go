package main

import (
	"crypto/sha256"
	"encoding/base64"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"plog/core/lesson"
)

func TestGeneratedPagePreloadsTheWasmFirst(t *testing.T) {
	for _, prefix := range []string{"/", "/plog/"} {
		out, _ := generate(t, fakeWasm(t, "x"), prefix, "")
		page := readFile(t, filepath.Join(out, "index.html"))
		link := `<link as="fetch" crossorigin="anonymous" fetchpriority="high" href="` + prefix + `web/app.wasm" rel="preload">`
		at := strings.Index(page, link)
		if at < 0 {
			t.Fatalf("prefix %s: the page lacks %s", prefix, link)
		}
		for _, later := range []string{"<link", "<script"} {
			if i := strings.Index(page, later); i < at {
				t.Errorf("prefix %s: %s comes before the wasm's preload", prefix, later)
			}
		}
		js := readFile(t, filepath.Join(out, "app.js"))
		if !strings.Contains(js, `fetchWithProgress("`+prefix+`web/app.wasm"`) {
			t.Errorf("prefix %s: app.js fetches the wasm elsewhere than the preload: the browser would download it twice", prefix)
		}
	}
	if _, err := preloadWasm("<html><head></head></html>", "/"); err == nil {
		t.Error("a go-app page whose head changed must fail the build, not lose the preload")
	}
}

// The page's head holds nothing that holds up its first paint: no
// stylesheet to fetch (its styles, first-paint.css among them, are in the
// page) and no script to fetch before the page shows: theme.js and
// first-paint.js run inline, allowed by their hashes in the page's policy,
// and every other script is deferred, the page's own before go-app's
// app.js, which calls into them.
func TestGeneratedPageHeadBlocksNothing(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "x"), "/plog/", "")
	for _, name := range []string{"index.html", filepath.Join("lessons", lesson.Names()[0]+".html")} {
		page := readFile(t, filepath.Join(out, name))
		head := page[:strings.Index(page, "</head>")]
		if strings.Contains(head, `rel="stylesheet"`) {
			t.Errorf("%s links a stylesheet", name)
		}
		if css := readFile(t, filepath.Join("web", "static", "first-paint.css")); !strings.Contains(head, "<style>") || !strings.Contains(head, css) {
			t.Errorf("%s does not carry first-paint.css in its head", name)
		}
		for _, tag := range regexp.MustCompile(`<script[^>]*>`).FindAllString(head, -1) {
			if strings.Contains(tag, "src=") && !strings.Contains(tag, " defer") && !strings.Contains(tag, " async") {
				t.Errorf("%s: %s blocks the page until it is fetched", name, tag)
			}
		}
		policy := pagePolicyMeta.FindStringSubmatch(head)
		if policy == nil || strings.Index(head, policy[0]) > strings.Index(head, "<script") {
			t.Fatalf("%s states no policy before its first script", name)
		}
		for _, inline := range []string{"theme.js", "first-paint.js"} {
			js := readFile(t, filepath.Join("web", "static", inline))
			sum := sha256.Sum256([]byte(js))
			if !strings.Contains(head, "<script>"+js+"</script>") {
				t.Errorf("%s does not run %s inline", name, inline)
			}
			if !strings.Contains(policy[1], "'sha256-"+base64.StdEncoding.EncodeToString(sum[:])+"'") {
				t.Errorf("%s: its policy does not allow %s by its hash", name, inline)
			}
		}
		goapp := strings.Index(head, `<script defer src="/plog/app.js"></script>`)
		for _, deferred := range []string{"storage-guard.js", "runtime-guard.js", "workspaces.js", "embed-start.js"} {
			if at := strings.Index(head, `<script defer src="/plog/web/static/`+deferred+`"></script>`); at < 0 || at > goapp {
				t.Errorf("%s does not run %s deferred before app.js", name, deferred)
			}
		}
	}
	// The server sends the policy the page states, which allows its
	// inline scripts.
	srv, err := newSiteServer(out, "/plog/")
	if err != nil {
		t.Fatal(err)
	}
	if policy := pagePolicyMeta.FindStringSubmatch(readFile(t, filepath.Join(out, "index.html"))); srv.policy != policy[1] {
		t.Errorf("the server's policy is %q, the page's %q", srv.policy, policy[1])
	}
}

func TestGeneratedPageCarriesItsFavicon(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "x"), "/plog/", "")
	page := readFile(t, filepath.Join(out, "index.html"))
	svg := readFile(t, filepath.Join("web", "static", "icon.svg"))
	if want := `<link href="data:image/svg+xml;base64,` + base64.StdEncoding.EncodeToString([]byte(svg)) + `" rel="icon">`; !strings.Contains(page, want) {
		t.Error("the page does not carry web/static/icon.svg as its icon")
	}
	if strings.Contains(page, `href="/plog/web/static/icon.svg"`) {
		t.Error("the page still links its icon: the browser fetches it outside the service worker")
	}
}
