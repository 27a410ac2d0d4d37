package app

import (
	"net/url"
	"regexp"
	"testing"

	"plog/core/lesson"
)

// A lesson's page opens its lesson, under any prefix, unless its fragment
// says otherwise; its links to share are the site root's.
func TestLessonPageAddress(t *testing.T) {
	first := lesson.Names()[0]
	for _, c := range []struct {
		address, fragment, root string
	}{
		{"http://h/plog/lessons/" + first + ".html", "lesson=" + first, "http://h/plog/"},
		{"http://h/lessons/" + first + ".html", "lesson=" + first, "http://h/"},
		{"http://h/plog/lessons/" + first + ".html#v1.abc", "v1.abc", "http://h/plog/"},
		{"http://h/plog/lessons/no-such-lesson.html", "", "http://h/plog/lessons/no-such-lesson.html"},
		{"http://h/plog/lessons/" + first, "", "http://h/plog/lessons/" + first},
		{"http://h/plog/", "", "http://h/plog/"},
		{"http://h/plog/index.html#lesson=x", "lesson=x", "http://h/plog/index.html"},
		// Options alone keep the page's lesson.
		{"http://h/plog/lessons/" + first + ".html#theme=dark", "lesson=" + first + "&theme=dark", "http://h/plog/"},
		// A lesson's embedded page opens it embedded, with its options;
		// a scenario of its own keeps the embedded layout.
		{"http://h/plog/embed/lessons/" + first + ".html", "lesson=" + first + "&embed=1", "http://h/plog/"},
		{"http://h/embed/lessons/" + first + ".html#readonly=1&theme=light", "lesson=" + first + "&embed=1&readonly=1&theme=light", "http://h/"},
		{"http://h/plog/embed/lessons/" + first + ".html#v1.abc", "v1.abc&embed=1", "http://h/plog/"},
		{"http://h/plog/embed/lessons/" + first + ".html#v1.abc&embed=1", "v1.abc&embed=1", "http://h/plog/"},
	} {
		u, err := url.Parse(c.address)
		if err != nil {
			t.Fatal(err)
		}
		if got := addressFragment(*u); got != c.fragment {
			t.Errorf("%s: the page opens %q, want %q", c.address, got, c.fragment)
		}
		root := siteRoot(*u)
		if got := root.String(); got != c.root {
			t.Errorf("%s: links are shared from %q, want %q", c.address, got, c.root)
		}
	}
	paths := LessonPagePaths()
	if len(paths) != len(lesson.Names()) {
		t.Fatalf("%d lesson pages for %d lessons", len(paths), len(lesson.Names()))
	}
	for i, p := range paths {
		if got := lessonOfPage(p); got != lesson.Names()[i] {
			t.Errorf("page %s opens lesson %q, want %q", p, got, lesson.Names()[i])
		}
		if isEmbedPage(p) {
			t.Errorf("page %s is taken for an embedded page", p)
		}
	}
	for i, p := range LessonEmbedPaths() {
		if got := lessonOfPage(p); got != lesson.Names()[i] || !isEmbedPage(p) {
			t.Errorf("embedded page %s opens lesson %q (embedded: %v), want %q embedded", p, got, isEmbedPage(p), lesson.Names()[i])
		}
	}
}

// The lesson pages' route takes the paths the pattern
// ^(/embed)?/lessons/[a-z0-9-]+\.html$ takes, and only those: every
// lesson's page and embedded page, and none of the paths around them.
func TestLessonPageRouteIsThePattern(t *testing.T) {
	pattern := regexp.MustCompile(`^(/embed)?/lessons/[a-z0-9-]+\.html$`)
	paths := append(append(LessonPagePaths(), LessonEmbedPaths()...), "/embed/lessons/a.html", "/embedx/lessons/a.html",
		"/embed/embed/lessons/a.html", "/x/embed/lessons/a.html", "/embed/lessons/", "/embed/a.html", "/lessons/.html", "/lessons/a.html", "/lessons/A.html", "/lessons/a_b.html",
		"/lessons/a/b.html", "/lessons/a.htm", "/lessons/a.html/", "/x/lessons/a.html", "/lessons/", "/lessons",
		"/", "/index.html", "lessons/a.html", "/lessons/ü.html", "/lessons/a-1.html", "/lessons/a.html.html")
	for _, p := range paths {
		if got, want := isLessonPagePath(p), pattern.MatchString(p); got != want {
			t.Errorf("%q: routed %v, the pattern says %v", p, got, want)
		}
	}
	for _, p := range LessonPagePaths() {
		if !isLessonPagePath(p) {
			t.Errorf("%s is not routed", p)
		}
	}
}
