package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

const motionScenario = `seed 1
topic orders partitions=1
config group billing auto.offset.reset=earliest
join billing c1 topics=orders
advance 3s
`

// motionOf is the animation a selector's first element runs: its name and
// duration in seconds, as getComputedStyle has them.
type motion struct {
	Name     string  `json:"name"`
	Duration float64 `json:"duration"`
}

func motionOf(t *testing.T, b *browser, selector string) motion {
	t.Helper()
	return eval[motion](t, b, `(() => { const s = getComputedStyle(document.querySelector(`+js(selector)+`));
		return {name: s.animationName, duration: parseFloat(s.animationDuration)} })()`)
}

// A produced record travels into its lane and a poll's records flash on
// their way to the member; with prefers-reduced-motion: reduce nothing
// moves, and the same records are still marked.
func TestUIMotionRespectsReducedMotion(t *testing.T) {
	b := openPlayground(t, motionScenario)
	b.click(t, "#produce-send")
	b.waitCount(t, `[data-topic=orders] .record[data-landed]`, 1)
	if m := motionOf(t, b, `[data-topic=orders] .record[data-landed]`); m.Name != "plog-enter" || m.Duration <= 0 {
		t.Errorf("a produced record runs %+v, want plog-enter", m)
	}
	b.click(t, `[data-group=billing] [data-member=c1] [data-action=poll]`)
	b.waitCount(t, `[data-topic=orders] .record[data-read]`, 1)
	if m := motionOf(t, b, `[data-topic=orders] .record[data-read]`); m.Name != "plog-read" || m.Duration <= 0 {
		t.Errorf("a record read runs %+v, want plog-read", m)
	}

	_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `matchMedia("(prefers-reduced-motion: reduce)").matches`)
	b.click(t, "#produce-send")
	b.waitFor(t, `document.querySelector('[data-topic=orders] .record[data-landed]') && document.querySelector('[data-topic=orders] .record[data-landed]').dataset.offset === "1"`)
	if m := motionOf(t, b, `[data-topic=orders] .record[data-landed]`); m.Name != "none" && m.Duration != 0 {
		t.Errorf("with reduced motion a produced record runs %+v, want none", m)
	}
	b.click(t, `[data-group=billing] [data-member=c1] [data-action=poll]`)
	b.waitFor(t, `document.querySelector('[data-topic=orders] .record[data-read]') && document.querySelector('[data-topic=orders] .record[data-read]').dataset.offset === "1"`)
	if m := motionOf(t, b, `[data-topic=orders] .record[data-read]`); m.Name != "none" && m.Duration != 0 {
		t.Errorf("with reduced motion a record read runs %+v, want none", m)
	}
	// The same information, drawn still: the records read are outlined.
	if style := eval[string](t, b, `getComputedStyle(document.querySelector('[data-topic=orders] .record[data-read]')).outlineStyle`); style != "solid" {
		t.Errorf("with reduced motion a record read has outline %q, want a solid one", style)
	}
	b.noErrors(t)
}
