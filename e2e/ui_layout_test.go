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
	dir := os.Getenv("PLOG_SCREENSHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	b := openPlayground(t, layoutScenario)
	b.waitCount(t, `[data-topic][data-partition]`, 4)
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
