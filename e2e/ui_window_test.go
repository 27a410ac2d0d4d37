package e2e

import (
	"strings"
	"testing"
)

// A lane follows its newest records in strides, and its buttons move from
// what the lane draws now, however many records came since they were
// first drawn.
func TestUILaneButtonsFollowTheWindow(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic t partitions=1\nproduce t key=k value=v count=100\n")
	lane := `[data-topic=t][data-partition="0"]`
	b.waitCount(t, lane+` [data-offset="60"]`, 1)
	b.fill(t, "#produce-count", "21")
	b.click(t, "#produce-send")
	// 121 records: the newest 40 start at 81, the window at 80.
	b.waitCount(t, lane+` [data-offset="120"]`, 1)
	if got := b.count(t, lane+" [data-offset]"); got != 41 || b.count(t, lane+` [data-offset="80"]`) != 1 {
		t.Errorf("the lane draws %d records, want the 41 from offset 80", got)
	}
	b.click(t, lane+` .lane-nav[aria-label^="show older"]`)
	b.waitCount(t, lane+` [data-offset="40"]`, 1)
	if b.count(t, lane+` [data-offset="20"]`) != 0 || b.count(t, lane+` [data-offset="80"]`) != 0 {
		t.Error("the older button did not move one window back from offset 80")
	}
	b.noErrors(t)
}

// The timeline draws its lines in strides; after they move, each line
// still takes the page to its own step.
func TestUITimelineLinesFollowTheScript(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic t partitions=1\n"+strings.Repeat("produce t value=v\n", 98))
	b.waitFor(t, `document.querySelector(".timeline").dataset.length === "99"`)
	b.waitCount(t, `#timeline-script button[data-step="26"]`, 1)
	b.click(t, "#produce-send")
	// 100 lines: the lines drawn start at step 51 instead of 26.
	b.waitFor(t, `document.querySelector(".timeline").dataset.length === "100"`)
	b.waitCount(t, `#timeline-script li[data-step="50"]`, 0)
	b.click(t, `#timeline-script button[data-step="51"]`)
	b.waitFor(t, `document.querySelector(".timeline").dataset.position === "51"`)
	b.noErrors(t)
}
