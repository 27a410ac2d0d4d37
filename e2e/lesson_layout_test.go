package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// An open lesson with its hints shown, solved, fits a 360 px phone and a
// 1280 px screen without scrolling sideways; the screenshots are kept for a
// human to look at (in $PLOG_SCREENSHOTS when set).
func TestLessonLayoutFitsPhoneAndDesktop(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("PLOG_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL+"#lesson=key-order")
	for range 3 {
		b.click(t, "#lesson-hint")
	}
	b.waitCount(t, "[data-hint]", 3)
	shoot := func(state string) {
		for _, width := range []int64{360, 1280} {
			b.do(t, chromedp.EmulateViewport(width, 900))
			b.waitFor(t, fmt.Sprintf(`window.innerWidth === %d`, width))
			if scroll := eval[int](t, b, `document.documentElement.scrollWidth`); scroll > int(width) {
				wide := eval[[]string](t, b, `Array.from(document.querySelectorAll("body *")).filter(el => el.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map(el => el.tagName + "." + el.className)`)
				t.Errorf("%s, at %d px the page is %d px wide: it scrolls sideways; too wide: %v", state, width, scroll, wide)
			}
			png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("lesson-%s-%d.png", state, width)), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	shoot("open")
	for i, v := range []string{"created", "updated", "shipped"} {
		b.fill(t, "#produce-key", "acct-1")
		b.fill(t, "#produce-value", v)
		b.click(t, "#produce-send")
		b.waitCount(t, `[data-topic=orders] [data-key="acct-1"]`, i+1)
	}
	b.waitText(t, "[role=status]", "Solved!")
	shoot("solved")

	// The list, opened outside a lesson.
	b.do(t, chromedp.Navigate("about:blank"))
	b.open(t, s.URL+linkOf(t, "topic orders partitions=2\n"))
	b.mouseClick(t, "#lessons-open")
	b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)
	shoot("list")
}
