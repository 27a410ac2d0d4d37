package app

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A long script draws the lines around the position, starting on a
// stride: a new command adds a line to the end instead of shifting every
// line drawn.
func TestTimelineDrawsLinesInStrides(t *testing.T) {
	var lines []string
	lastFirst, moves := 1, 0
	for n := 1; n <= 300; n++ {
		lines = append(lines, fmt.Sprintf("advance %ds", n))
		page := app.HTMLString(&Timeline{Lines: lines, Position: n})
		first, last := drawnSteps(t, page)
		if len(tagsWith(page, "id", "timeline-current", "data-step", strconv.Itoa(n))) != 1 {
			t.Fatalf("%d lines: the current line is not drawn", n)
		}
		if last-first+1 > timelineShown || n-first < min(n-1, timelineShown/2-1) {
			t.Fatalf("%d lines: drew steps %d to %d", n, first, last)
		}
		if first != lastFirst {
			moves++
			if (first-1)%timelineStride != 0 {
				t.Fatalf("%d lines: the first line drawn is step %d, not on a stride", n, first)
			}
		}
		lastFirst = first
	}
	if want := (300 - timelineShown/2) / timelineStride; moves != want {
		t.Errorf("the lines drawn moved %d times over 300 commands, want %d", moves, want)
	}
}

// drawnSteps returns the first and last step of the script's lines drawn.
func drawnSteps(t *testing.T, page string) (first, last int) {
	t.Helper()
	first = -1
	for _, tag := range tagsWith(page, "class", "script-line") {
		_, rest, _ := strings.Cut(tag, `data-step="`)
		step, err := strconv.Atoi(rest[:strings.IndexByte(rest, '"')])
		if err != nil {
			t.Fatal(err)
		}
		if first < 0 {
			first = step
		}
		last = step
	}
	return first, last
}
