package app

import (
	"net/url"
	"slices"
	"strings"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// lessonPagesDir is where the site generator (serve.go) writes one page per
// lesson, lessons/NAME.html under the site's root: the lesson's title,
// explanation and goal and the picture of its starting scenario are in the
// HTML, so they paint before the wasm arrives. The page is the playground
// opened on the lesson, as #lesson=NAME opens it; its fragment, when it has
// one, says what the page shows instead, as on the site's root.
const lessonPagesDir = "/lessons/"

// embedPagesDir holds the page of each lesson as a course page embeds it
// (embed/lessons/NAME.html): the lesson opened as #lesson=NAME&embed=1
// opens it, written in the compact layout of an iframe, so that an embedded
// lesson paints before the wasm arrives too, as it will look live. The
// site's root opened on #lesson=NAME&embed=1 goes there
// (web/static/first-paint.js).
const embedPagesDir = "/embed" + lessonPagesDir

// isLessonPagePath reports whether path (from the site's root) is where a
// lesson's page would be, /lessons/NAME.html or /embed/lessons/NAME.html
// with NAME a slug: the route of the lesson pages (Routes).
func isLessonPagePath(path string) bool {
	name, ok := strings.CutPrefix(strings.TrimPrefix(path, "/embed"), lessonPagesDir)
	if !ok {
		return false
	}
	if name, ok = strings.CutSuffix(name, ".html"); !ok || name == "" {
		return false
	}
	return !strings.ContainsFunc(name, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') })
}

// LessonPagePaths are the paths, from the site's root, of the page of each
// built-in lesson, in teaching order.
func LessonPagePaths() []string {
	var paths []string
	for _, name := range lesson.Names() {
		paths = append(paths, lessonPagesDir+name+".html")
	}
	return paths
}

// LessonEmbedPaths are the paths, from the site's root, of the embedded
// page of each built-in lesson, in teaching order.
func LessonEmbedPaths() []string {
	var paths []string
	for _, name := range lesson.Names() {
		paths = append(paths, embedPagesDir+name+".html")
	}
	return paths
}

// isEmbedPage reports whether path is a lesson's embedded page.
func isEmbedPage(path string) bool {
	return lessonOfPage(path) != "" && strings.HasSuffix(path[:strings.LastIndex(path, lessonPagesDir)], "/embed")
}

// lessonOfPage is the built-in lesson whose page path is (under any
// prefix), or "" when path is no lesson's page.
func lessonOfPage(path string) string {
	i := strings.LastIndex(path, lessonPagesDir)
	if i < 0 {
		return ""
	}
	name, ok := strings.CutSuffix(path[i+len(lessonPagesDir):], ".html")
	if !ok {
		return ""
	}
	if !slices.Contains(lesson.Names(), name) {
		return ""
	}
	return name
}

// addressFragment is what the address asks the page to show: its
// fragment, or on a lesson's page, the lesson (embedded on its embedded
// page), with the view's options the fragment holds (theme=, readonly=...).
// A fragment with a scenario or a lesson of its own says what the page
// shows instead; an embedded page keeps its layout.
func addressFragment(u url.URL) string {
	name := lessonOfPage(u.Path)
	if name == "" {
		return u.Fragment
	}
	page := "lesson=" + name
	embed := isEmbedPage(u.Path)
	if embed {
		page += "&embed=1"
	}
	if u.Fragment == "" {
		return page
	}
	f, err := scenario.ParseFragment(u.Fragment)
	switch {
	case err == nil && f.Link == "" && f.Lesson == "":
		return page + "&" + u.Fragment
	case err == nil && embed && !f.Embed:
		return u.Fragment + "&embed=1"
	}
	return u.Fragment
}

// siteRoot is the address of the site's root page for u: a lesson's page
// shares links to the playground as the root does.
func siteRoot(u url.URL) url.URL {
	if name := lessonOfPage(u.Path); name != "" {
		page := strings.TrimPrefix(lessonPagesDir, "/") + name + ".html"
		if isEmbedPage(u.Path) {
			page = strings.TrimPrefix(embedPagesDir, "/") + name + ".html"
		}
		u.Path = strings.TrimSuffix(u.Path, page)
	}
	u.Fragment = ""
	return u
}

// OnPreRender opens, as the site generator writes a lesson's page, the
// lesson its path names, so that the page's HTML holds the lesson and its
// starting picture; at the site's root, the starter the live page opens on
// a first visit. The page is written not ready: the live page marks it
// ready once the wasm runs.
func (p *Playground) OnPreRender(ctx app.Context) {
	f := addressFragment(currentURL(ctx))
	if f == "" {
		f = starterFragment() // the site's root: a first visit's system (starter.go)
	}
	p.applyLink(f)
}
