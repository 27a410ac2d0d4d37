package e2e

import (
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
