package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// A first visitor meets the picture, not a list over it: the lesson list
// and the help open over the page from the masthead's buttons, close again
// (by a pick, Escape or ✕), and while closed the middle of the page is the
// lanes and what the last command did, nothing below them.
func TestUIListAndHelpOpenOverThePicture(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			b := newBrowser(t)
			b.do(t, chromedp.EmulateViewport(size[0], size[1]))
			b.open(t, s.URL)
			b.waitCount(t, `[data-starter] .landing-title`, 1)
			if where := onScreen(t, b, `.lane[data-topic="orders"][data-partition="0"]`); where != "" {
				t.Errorf("on arrival the first lane is %s", where)
			}
			for _, closed := range []string{"[data-lesson-list] li a", "#help .shortcuts", "#differences"} {
				if where := onScreen(t, b, closed); where != "not drawn" {
					t.Errorf("on arrival %s is %q, want it not drawn", closed, where)
				}
			}
			if size[0] == 1280 {
				// Nothing but the picture and its narration in the stage.
				extra := eval[[]string](t, b, `[...document.querySelector(".stage").children].filter(el =>
					el.getBoundingClientRect().height > 0 &&
					!el.matches(".broker-strip, .picture-row, .producer-column, .topics, .isolation, .stage-notes, .legend-fold, [class*=broker], [class*=producer], [class*=topic], [class*=isolation]")).map(el => el.className)`)
				if len(extra) != 0 {
					t.Errorf("the stage holds more than the picture: %q", extra)
				}
			}

			// The list opens over the picture; picking a lesson closes it.
			b.mouseClick(t, "#lessons-open")
			b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)
			if where := onScreen(t, b, `[data-lesson-list] [data-lesson=offsets] a`); where != "" {
				t.Errorf("the opened list's second lesson is %s", where)
			}
			b.key(t, "\x1b") // Escape, with the focus in the list
			b.waitFor(t, `!document.querySelector("[data-lesson-list] details").open`)
			b.mouseClick(t, "#lessons-open")
			b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)
			b.mouseClick(t, `[data-lesson-list] [data-lesson=offsets] a`)
			b.waitCount(t, panel("offsets"), 1)
			b.waitFor(t, `!document.querySelector("[data-lesson-list] details").open`)
			if where := onScreen(t, b, `[data-lesson-list] li a`); where != "not drawn" {
				t.Errorf("after a pick the list is %q, want it not drawn", where)
			}

			// Help: the keyboard and the differences, over the page, and
			// closed by its ✕ and by Escape.
			b.mouseClick(t, "#help-open")
			b.waitFor(t, `!document.getElementById("help").hidden`)
			for _, shown := range []string{"#help .shortcuts li", "#differences-details > summary", "#help-close"} {
				if where := onScreen(t, b, shown); where != "" {
					t.Errorf("in the open help, %s is %s", shown, where)
				}
			}
			if got := b.attr(t, "#help-open", "aria-expanded"); got != "true" {
				t.Errorf("the Help button's aria-expanded is %q with the help open", got)
			}
			b.mouseClick(t, "#help-close")
			b.waitFor(t, `document.getElementById("help").hidden`)
			if got := b.attr(t, "#help-open", "aria-expanded"); got != "false" {
				t.Errorf("the Help button's aria-expanded is %q with the help closed", got)
			}
			b.mouseClick(t, "#help-open")
			b.waitFor(t, `!document.getElementById("help").hidden && document.activeElement.id === "help-close"`)
			b.key(t, "\x1b")
			b.waitFor(t, `document.getElementById("help").hidden`)
		})
	}
}
