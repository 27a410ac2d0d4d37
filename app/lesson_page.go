package app

import (
	"net/url"
	"slices"
	"strings"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// lessonPagesDir is where the site generator (serve.go) writes one page per
// lesson, lessons/NAME.html under the site's root: the lesson's title,
// explanation and goal and the picture of its starting scenario are in the
// HTML, so they paint before the wasm arrives. The page is the playground
// opened on the lesson, as #lesson=NAME opens it; its fragment, when it has
// one, says what the page shows instead, as on the site's root.
const lessonPagesDir = "/lessons/"

// isLessonPagePath reports whether path (from the site's root) is where a
// lesson's page would be, /lessons/NAME.html with NAME a slug: the route of
// the lesson pages (Routes).
func isLessonPagePath(path string) bool {
	name, ok := strings.CutPrefix(path, lessonPagesDir)
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
// fragment, or on a lesson's page with none, the lesson.
func addressFragment(u url.URL) string {
	if u.Fragment == "" {
		if name := lessonOfPage(u.Path); name != "" {
			return "lesson=" + name
		}
	}
	return u.Fragment
}

// siteRoot is the address of the site's root page for u: a lesson's page
// shares links to the playground as the root does.
func siteRoot(u url.URL) url.URL {
	if name := lessonOfPage(u.Path); name != "" {
		u.Path = strings.TrimSuffix(u.Path, strings.TrimPrefix(lessonPagesDir, "/")+name+".html")
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
