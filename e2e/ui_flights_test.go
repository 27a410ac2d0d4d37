package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// flight is one journey web/static/flights.js drew: its kind and the
// centres it went from and to.
type flight struct {
	Kind string `json:"kind"`
	From point  `json:"from"`
	To   point  `json:"to"`
}

type point struct{ X, Y float64 }

// box is an element's place in the window.
type box struct{ Left, Top, Right, Bottom float64 }

func (r box) holds(p point) bool {
	const slack = 2 // px: a lane may settle by a pixel after the journey began
	return p.X >= r.Left-slack && p.X <= r.Right+slack && p.Y >= r.Top-slack && p.Y <= r.Bottom+slack
}

func boxOf(t *testing.T, b *browser, selector string) box {
	t.Helper()
	return eval[box](t, b, `(() => { const r = document.querySelector(`+js(selector)+`).getBoundingClientRect();
		return {Left: r.left, Top: r.top, Right: r.right, Bottom: r.bottom} })()`)
}

// flightsAfter waits for a journey past the first n of window.plogFlights,
// and returns it.
func flightsAfter(t *testing.T, b *browser, n int) flight {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`window.plogFlights.length > %d`, n))
	return eval[flight](t, b, fmt.Sprintf(`window.plogFlights[%d]`, n))
}

// A record travels: pressing Produce flies a copy of the new record from
// the button to its place in the lane, and a member's Poll flies the
// records it read from the lane to the member's card. With
// prefers-reduced-motion: reduce nothing flies (the marks stay, as
// TestUIMotionRespectsReducedMotion checks).
func TestRecordsTravelFromProducerToLaneToMember(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=3\nconfig group billing auto.offset.reset=earliest\njoin billing c1 topics=orders\nadvance 4s\n")
	if n := eval[int](t, b, `window.plogFlights.length`); n != 0 {
		t.Fatalf("%d journeys before any command", n)
	}

	button := boxOf(t, b, "#produce-send")
	b.mouseClick(t, "#produce-send")
	landed := `[data-topic=orders] .record[data-landed]`
	b.waitCount(t, landed, 1)
	f := flightsAfter(t, b, 0)
	if f.Kind != "produce" || !button.holds(f.From) {
		t.Errorf("the record produced flew %+v, want a produce from the Produce button %+v", f, button)
	}
	if record := boxOf(t, b, landed); !record.holds(f.To) {
		t.Errorf("the record produced flew to %+v, want its place in the lane %+v", f.To, record)
	}
	if problem := onScreen(t, b, landed); problem != "" {
		t.Errorf("the record produced is %s", problem)
	}
	// The copy goes once it has arrived.
	b.waitCount(t, ".record.flight", 0)

	card := `[data-group=billing] [data-member=c1]`
	b.mouseClick(t, card+` [data-action=poll]`)
	read := `[data-topic=orders] .record[data-read]`
	b.waitCount(t, read, 1)
	f = flightsAfter(t, b, 1)
	if f.Kind != "read" || !boxOf(t, b, read).holds(f.From) {
		t.Errorf("the record read flew %+v, want a read from the record %+v", f, boxOf(t, b, read))
	}
	if member := boxOf(t, b, card); !member.holds(f.To) {
		t.Errorf("the record read flew to %+v, want c1's card %+v", f.To, member)
	}
	b.waitCount(t, ".record.flight", 0)

	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `matchMedia("(prefers-reduced-motion: reduce)").matches`)
	before := eval[int](t, b, `window.plogFlights.length`)
	b.mouseClick(t, "#produce-send")
	b.waitFor(t, `(document.querySelector(`+js(landed)+`) || {dataset: {}}).dataset.offset === "1"`)
	// Two frames on, when a journey would have begun.
	eval[bool](t, b, `(window.plogTwoFrames = false, requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(() => { window.plogTwoFrames = true }))), true)`)
	b.waitFor(t, `window.plogTwoFrames`)
	if n := eval[int](t, b, `window.plogFlights.length`); n != before {
		t.Errorf("with reduced motion %d records flew", n-before)
	}
	if n := b.count(t, ".record.flight"); n != 0 {
		t.Errorf("with reduced motion %d copies of records are on the page", n)
	}
	b.noErrors(t)
}
