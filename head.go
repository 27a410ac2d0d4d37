package main

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"plog/core/lesson"
)

// The page's head holds no request that holds up its first paint: its
// styles are one <style> element, the two scripts that must act before the
// page paints run inline, and every other script is deferred. With the
// stylesheets and scripts fetched one by one (10 of the one, 13 of the
// other), the page painted only once each had arrived: at 10 Mbit/s with
// 40 ms of latency, after 0.6 s or more (issue 41).

// pageStyles are the page's stylesheets in web/static, in cascade order,
// after go-app's app.css (its loader's). All of them go into the page: 95
// KB, 18 KB with brotli, which at 10 Mbit/s is less time than a round trip
// to fetch a critical part's rest, and the page never restyles as the rest
// arrives. embed.html links some of them as files.
var pageStyles = []string{"first-paint.css", "theme.css", "plog.css", "groups.css", "share_groups.css", "share.css", "lessons.css", "command_line.css", "motion.css"}

// pageScript is one of the page's scripts in web/static.
type pageScript struct {
	file string
	// inline: it runs as the head is parsed, before the page first paints,
	// in the page itself (a request would hold the paint up). The others
	// are deferred: they run once the page is parsed, in this order, before
	// go-app's loader (app.js), which some of them hook into.
	inline bool
}

// pageScripts are the page's scripts. theme.js sets the page's colours and
// first-paint.js decides whether the written page shows or the loader
// covers it: either, run after the first paint, would make the page flash.
var pageScripts = []pageScript{
	{file: "theme.js", inline: true},
	{file: "first-paint.js", inline: true},
	{file: "storage-guard.js"},
	{file: "runtime-guard.js"},
	{file: "workspaces.js"},
	{file: "link-guard.js"},
	{file: "sandbox-forms.js"},
	{file: "embed-height.js"},
	{file: "embed-keys.js"},
	{file: "embed-start.js"},
	{file: "picture-png.js"},
	{file: "lanes-follow.js"},
	{file: "flights.js"},
}

// pageHead is what the site generator writes into the head of each page in
// place of go-app's stylesheets and scripts.
type pageHead struct {
	prefix string
	css    string   // app.css and pageStyles, in order
	inline []string // the inline scripts' text, in order
	// lessons are the built-in lessons' names, for first-paint.js, which
	// sends an embedded lesson at the root to its embedded page.
	lessons []string
	policy  string // the Content-Security-Policy, with the inline scripts' hashes
}

// readPageHead reads what the head holds from the generated site (app.css)
// and the static files.
func readPageHead(cfg siteConfig) (pageHead, error) {
	h := pageHead{prefix: cfg.Prefix, lessons: lesson.Names()}
	var css strings.Builder
	for _, name := range append([]string{filepath.Join(cfg.Out, "app.css")}, staticPaths(cfg, pageStyles)...) {
		b, err := os.ReadFile(name)
		if err != nil {
			return h, err
		}
		if strings.Contains(strings.ToLower(string(b)), "</style") {
			return h, fmt.Errorf("%s holds </style, which would end the page's <style> early", name)
		}
		css.Write(b)
		css.WriteString("\n")
	}
	h.css = css.String()
	hashes := ""
	for _, s := range pageScripts {
		if !s.inline {
			continue
		}
		b, err := os.ReadFile(filepath.Join(cfg.Static, s.file))
		if err != nil {
			return h, err
		}
		if strings.Contains(strings.ToLower(string(b)), "</script") {
			return h, fmt.Errorf("%s holds </script, which would end its <script> early", s.file)
		}
		h.inline = append(h.inline, string(b))
		sum := sha256.Sum256(b)
		hashes += " 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	h.policy = strings.Replace(contentSecurityPolicy, "script-src 'self'", "script-src 'self'"+hashes, 1)
	return h, nil
}

func staticPaths(cfg siteConfig, files []string) []string {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = filepath.Join(cfg.Static, f)
	}
	return paths
}

// goappHeadLines are the lines of go-app's head (its attributes sorted,
// sortAttributes) that the page's own head replaces: its stylesheet, as a
// preload and as a link, and its two deferred scripts, which must come
// after the page's (their order is the order they run in).
func goappHeadLines(prefix string) []string {
	return []string{
		`<link as="style" href="` + prefix + `app.css" rel="preload" type="text/css">`,
		`<link href="` + prefix + `app.css" rel="stylesheet" type="text/css">`,
		`<script defer src="` + prefix + `wasm_exec.js"></script>`,
		`<script defer src="` + prefix + `app.js"></script>`,
	}
}

// write puts the head into go-app's page: the policy first (a <meta>
// policy governs only what comes after it), then the styles and the
// inline scripts where go-app's stylesheet was, and the deferred scripts,
// go-app's last, where its scripts were.
func (h pageHead) write(page string) (string, error) {
	lines := goappHeadLines(h.prefix)
	for _, line := range append(lines, goappCharset) {
		if n := strings.Count(page, line); n != 1 {
			return "", fmt.Errorf("go-app's page has %d copies of %q, want 1: its head changed, revisit the page's head (head.go)", n, strings.TrimSpace(line))
		}
	}
	var styles strings.Builder
	styles.WriteString("<style>\n" + h.css + "</style>\n")
	styles.WriteString(`<meta content="` + htmlAttrEscape(strings.Join(h.lessons, " ")) + `" name="plog-lessons">` + "\n")
	for _, s := range h.inline {
		styles.WriteString("<script>" + s + "</script>\n")
	}
	var scripts strings.Builder
	for _, s := range pageScripts {
		if !s.inline {
			scripts.WriteString(`<script defer src="` + h.prefix + "web/static/" + s.file + `"></script>` + "\n")
		}
	}
	scripts.WriteString(lines[2] + "\n" + lines[3])
	page = strings.Replace(page, goappCharset, goappCharset+`<meta content="`+htmlAttrEscape(h.policy)+`" http-equiv="Content-Security-Policy">`+"\n", 1)
	page = strings.Replace(page, lines[0]+"\n", styles.String(), 1)
	page = strings.Replace(page, lines[1]+"\n", "", 1)
	page = strings.Replace(page, lines[2]+"\n", "", 1)
	return strings.Replace(page, lines[3], scripts.String(), 1), nil
}

// pagePolicyMeta finds the policy the site generator wrote into a page.
var pagePolicyMeta = regexp.MustCompile(`<meta content="([^"]*)" http-equiv="Content-Security-Policy">`)

// sitePolicy is the Content-Security-Policy of the site in dir, as its
// root page states it (it allows the page's inline scripts by their
// hashes); contentSecurityPolicy where the page states none.
func sitePolicy(dir string) string {
	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		return contentSecurityPolicy
	}
	m := pagePolicyMeta.FindSubmatch(b)
	if m == nil {
		return contentSecurityPolicy
	}
	return strings.NewReplacer("&amp;", "&", "&quot;", `"`, "&lt;", "<", "&gt;", ">").Replace(string(m[1]))
}
