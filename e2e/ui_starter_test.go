package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A first visit shows a small system at work, not a form: a topic of three
// partitions, a group of two consumers that share them, and a note that
// says so and what to press, readable on a laptop and a phone. One press of
// Play makes records flow: the lanes fill, the consumers read, and the
// narration says where each record went and who read what.
func TestFirstVisitShowsASystemAtWork(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)
	b.waitCount(t, ".lane[data-topic=orders][data-partition]", 3)
	readableAtBothSizes(t, b, "[data-starter]", "starter-note")
	b.do(t, chromedp.EmulateViewport(1280, 800))
	for _, member := range []string{"c1", "c2"} {
		if problem := onScreen(t, b, `li.member[data-member="`+member+`"]`); problem != "" {
			t.Errorf("consumer %s is %s", member, problem)
		}
	}

	b.click(t, "#play")
	b.waitFor(t, `document.querySelectorAll("[data-read-member]").length > 0`)
	b.click(t, "#pause")
	if n := eval[int](t, b, `document.querySelectorAll("[data-topic=orders] [data-offset]").length`); n == 0 {
		t.Error("the consumers read, but no record is drawn in the lanes")
	}
	for _, selector := range []string{".landing [data-landed-topic]", "[data-read-member]"} {
		if problem := onScreen(t, b, selector); problem != "" {
			t.Errorf("the narration's %s is %s", selector, problem)
		}
	}
	b.waitCount(t, "[data-starter]", 0)
}

// A lesson picked from the list opens with its start said where every
// later step is narrated: its topics, who writes and who reads. The
// learner's first step ends it.
func TestALessonStartSaysWhatThePictureShows(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.open(t, srv.URL)
	b.mouseClick(t, "#lessons-open")
	b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)
	b.mouseClick(t, `[data-lesson-list] [data-lesson=transactions] a`)
	note := `[data-lesson-start=transactions]`
	b.waitCount(t, note, 1)
	if problem := onScreen(t, b, note); problem != "" {
		t.Fatalf("the lesson's start note is %s", problem)
	}
	text := b.text(t, note)
	for _, want := range []string{"Topics orders (2 partitions, empty) and payments (1 partition, empty)", "Producer shop writes to them", "read them"} {
		if !strings.Contains(text, want) {
			t.Errorf("the lesson's start says %q, without %q", text, want)
		}
	}
	b.mouseClick(t, `[data-producer-column] [data-producer=shop] [data-action=begin]`)
	b.waitCount(t, note, 0)
	b.noErrors(t)
}
