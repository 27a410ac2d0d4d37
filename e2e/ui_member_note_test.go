package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// A consumer crashed with its Crash button is said under the lanes: its
// partitions wait, read by nobody, until its session expires (a walk
// crashed c1 and the page said nothing).
func TestACrashIsNarrated(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.open(t, srv.URL)
	b.waitCount(t, ".lane[data-topic=orders][data-partition]", 3)
	b.mouseClick(t, `button[aria-label="Crash c1"]`)
	note := `[data-member-event="member-stopped"][data-member-group=billing][data-member-id=c1]`
	b.waitCount(t, note, 1)
	if problem := onScreenSoon(t, b, note); problem != "" {
		t.Fatalf("the crash's note is %s", problem)
	}
	if text := b.text(t, note); !contains(text, "read by nobody") {
		t.Errorf("the crash's note says %q", text)
	}
	b.noErrors(t)
}
