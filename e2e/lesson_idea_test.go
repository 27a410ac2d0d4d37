package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The lesson's explanation follows the task in the dock's short box, where
// a new learner never found it: "The idea ▾" beside the hint button brings
// it into the box's view, on a wide screen and, as the sheet's "Read the
// lesson" does, on a phone.
func TestTheLessonsIdeaIsOneClickAway(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		w := openLesson(t, "key-order")
		b := w.b
		b.do(t, chromedp.EmulateViewport(size[0], size[1]))
		b.waitFor(t, fmt.Sprintf(`innerWidth === %d`, size[0]))
		title := `[data-lesson-panel] .lesson-text-title`
		if size[0] < 900 {
			// On a phone the sheet's own button says it.
			if where := shownAt(t, b, "#lesson-read-idea"); where == "shown" {
				t.Errorf("at %dx%d the idea's button shows beside the sheet's Read the lesson", size[0], size[1])
			}
			b.mouseClick(t, "#lesson-sheet-read")
		} else {
			if problem := onScreen(t, b, title); problem == "" {
				t.Fatalf("at %dx%d the idea is in view before it is asked for: nothing to test", size[0], size[1])
			}
			b.mouseClick(t, "#lesson-read-idea")
		}
		var problem string
		for range 20 {
			if problem = onScreen(t, b, title); problem == "" {
				break
			}
			time.Sleep(100 * time.Millisecond) // a smooth scroll may still run
		}
		if problem != "" {
			t.Errorf("at %dx%d, asked for, the lesson's idea is %s", size[0], size[1], problem)
		}
		b.noErrors(t)
	}
}
