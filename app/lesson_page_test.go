package app

import (
	"net/url"
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
	}
}
