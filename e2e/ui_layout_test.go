package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// layoutScenario fills the page with everything it can draw: topics, keyed,
// keyless and tombstone records, segments, a truncated partition, a
// compacted topic with gaps, and a group with commits.
const layoutScenario = `seed 3
topic orders partitions=3 segment.records=4 retention.ms=10m
produce orders key=acct-1 value=created count=6
produce orders key=a-much-longer-key-than-usual value=v count=3
produce orders value=no-key count=4
advance 5m
produce orders key=acct-2 value=paid count=5
truncate orders/0 before=2
topic profiles partitions=1 cleanup.policy=compact segment.records=3
produce profiles key=ann value=v1
produce profiles key=bob value=v1
produce profiles key=ann value=v2
produce profiles key=bob tombstone
produce profiles key=cy value=v1 count=3
compact profiles
join billing c1 topics=orders
advance 5s
poll billing c1 max=5
commit billing c1
`

// The page fits a 360 px phone, a 1280 px and a 1920 px screen without scrolling
// sideways; the screenshots are kept for a human to look at (in
// $PLOG_SCREENSHOTS when set).
func TestUILayoutFitsPhoneAndDesktop(t *testing.T) {
	t.Parallel()
	dir := os.Getenv("PLOG_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	b := openPlayground(t, layoutScenario)
	b.waitCount(t, `[data-topic][data-partition][data-log-start]`, 4)
	for _, width := range []int64{360, 1280, 1920} {
		b.do(t, chromedp.EmulateViewport(width, 900))
		b.waitFor(t, fmt.Sprintf(`window.innerWidth === %d`, width))
		scroll := eval[int](t, b, `document.documentElement.scrollWidth`)
		if scroll > int(width) {
			wide := eval[[]string](t, b, `Array.from(document.querySelectorAll("body *")).filter(el => el.getBoundingClientRect().right > window.innerWidth + 1).slice(0, 8).map(el => el.tagName + "." + el.className)`)
			t.Errorf("at %d px the page is %d px wide: it scrolls sideways; too wide: %v", width, scroll, wide)
		}
		png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("playground-%d.png", width))
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot at %d px: %s", width, path)
	}
	// The dark theme follows the system's.
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `getComputedStyle(document.body).colorScheme === "dark"`)
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "playground-1920-dark.png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("dark theme: %s", path)
	b.noErrors(t)
}

// Every help popover on the page, opened in turn as a learner taps its "?",
// stays inside the screen of a 360 px phone (and of a 1280 px one) and
// leaves the page as wide as the screen.
func TestUIHelpPopoversFitTheScreen(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, layoutScenario)
	b.waitCount(t, `[data-topic][data-partition][data-log-start]`, 4)
	// A group's settings, each with its help, are in its inspector: the
	// learner opens it.
	b.click(t, `article[data-group] [data-action=inspect-group]`)
	for _, width := range []int64{360, 1280} {
		b.do(t, chromedp.EmulateViewport(width, 800))
		b.waitFor(t, fmt.Sprintf(`window.innerWidth === %d`, width))
		// The help buttons a learner can see, each marked with its index.
		n := eval[int](t, b, `(() => {
			const shown = Array.from(document.querySelectorAll(".help-button")).filter(el => el.offsetParent !== null && el.checkVisibility());
			document.querySelectorAll("[data-help-index]").forEach(el => el.removeAttribute("data-help-index"));
			shown.forEach((el, i) => el.setAttribute("data-help-index", i));
			return shown.length })()`)
		if n < 10 {
			t.Fatalf("at %d px only %d help buttons show: the test would prove little", width, n)
		}
		for i := range n {
			button := fmt.Sprintf(`[data-help-index="%d"]`, i)
			// In view, as a button the learner taps is.
			eval[bool](t, b, fmt.Sprintf(`(document.querySelector(%s).scrollIntoView({block: "center"}), true)`, js(button)))
			b.click(t, button)
			b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-expanded") === "true"`, js(button)))
			popover := fmt.Sprintf(`document.querySelector(%s).parentElement.querySelector(".help-popover")`, js(button))
			problem := eval[string](t, b, fmt.Sprintf(`(() => {
				const p = %s, r = p.getBoundingClientRect(), w = document.documentElement.scrollWidth;
				if (w > innerWidth) return "the page is " + w + " px wide";
				if (r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight)
					return "the popover spans " + Math.round(r.left) + "–" + Math.round(r.right) + " × " + Math.round(r.top) + "–" + Math.round(r.bottom);
				// Nor clipped by a column that scrolls (a fixed popover
				// escapes their clipping).
				if (getComputedStyle(p).position !== "fixed")
					for (let up = p.parentElement; up; up = up.parentElement) {
						const style = getComputedStyle(up);
						if (style.overflowX === "visible" && style.overflowY === "visible") continue;
						const c = up.getBoundingClientRect();
						if (r.left < c.left - 1 || r.right > c.right + 1 || r.top < c.top - 1 || r.bottom > c.bottom + 1)
							return "the popover is clipped by " + (up.className || up.tagName);
					}
				return "" })()`, popover))
			if problem != "" {
				t.Errorf("at %d px, help %q open: %s", width, b.attr(t, button, "aria-label"), problem)
			}
			b.click(t, button)
			b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-expanded") === "false"`, js(button)))
		}
	}
}
