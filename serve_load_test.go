package main

import (
	"encoding/base64"
	"path/filepath"
	"strings"
	"testing"
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

func TestGeneratedPageCarriesTheFirstPaint(t *testing.T) {
	out, _ := generate(t, fakeWasm(t, "x"), "/plog/", "")
	page := readFile(t, filepath.Join(out, "index.html"))
	guard, firstPaint, goapp := strings.Index(page, `src="/plog/web/static/storage-guard.js"`), strings.Index(page, `src="/plog/web/static/first-paint.js"`), strings.Index(page, `src="/plog/app.js"`)
	if firstPaint < 0 || firstPaint < guard {
		t.Errorf("first-paint.js is not in the page after storage-guard.js, which it needs to read the saved workspace")
	}
	if goapp < 0 {
		t.Error("the page has no app.js")
	}
	if !strings.Contains(page, `href="/plog/web/static/first-paint.css" rel="stylesheet"`) {
		t.Error("the page does not load first-paint.css")
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
