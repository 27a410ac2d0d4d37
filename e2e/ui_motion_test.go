package e2e

import (
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

const motionScenario = `seed 1
topic orders partitions=2
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

// A produced record travels into its lane, a poll's records flash on their
// way to the member, and a rebalance shows the partition arriving at its
// new member; with prefers-reduced-motion: reduce nothing moves, and the
// same things are still marked.
func TestUIMotionRespectsReducedMotion(t *testing.T) {
	t.Parallel()
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
	// c2 joins; when the rebalance ends, orders/1 arrives at it.
	b.joinMember(t, "billing", "c2", "orders", "range", "")
	b.waitCount(t, `[data-group=billing] [data-member=c2]`, 1)
	b.click(t, "#advance-1m")
	arrived := `[data-topic=orders][data-partition="1"] .group-mark[data-group=billing][data-motion=arriving]`
	b.waitCount(t, arrived, 1)
	if m := motionOf(t, b, arrived); m.Name != "plog-arrive" || m.Duration <= 0 {
		t.Errorf("a partition arriving runs %+v, want plog-arrive", m)
	}

	_, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `matchMedia("(prefers-reduced-motion: reduce)").matches`)
	// c2 leaves; when the rebalance ends, orders/1 comes back to c1, still:
	// c1 reads both partitions again.
	b.click(t, `[data-group=billing] [data-member=c2] [data-action=leave]`)
	b.waitCount(t, `[data-group=billing] [data-member=c2]`, 0)
	b.click(t, "#advance-1m")
	b.waitCount(t, arrived, 1)
	if m := motionOf(t, b, arrived); m.Name != "none" && m.Duration != 0 {
		t.Errorf("with reduced motion a partition arriving runs %+v, want none", m)
	}
	if style := eval[string](t, b, `getComputedStyle(document.querySelector(`+js(arrived)+`)).outlineStyle`); style != "solid" {
		t.Errorf("with reduced motion a partition arriving has outline %q, want a solid one", style)
	}
	b.click(t, "#produce-send")
	b.waitFor(t, `document.querySelector('[data-topic=orders] .record[data-landed]') && document.querySelector('[data-topic=orders] .record[data-landed]').dataset.offset === "1"`)
	if m := motionOf(t, b, `[data-topic=orders] .record[data-landed]`); m.Name != "none" && m.Duration != 0 {
		t.Errorf("with reduced motion a produced record runs %+v, want none", m)
	}
	b.click(t, `[data-group=billing] [data-member=c1] [data-action=poll]`)
	// (The link opens under rules 1, where the group commits only when told:
	// after the rebalances c1 reads from offset 0 again.)
	read := `[data-topic=orders] .record[data-offset="1"][data-read]`
	b.waitCount(t, read, 1)
	if m := motionOf(t, b, read); m.Name != "none" && m.Duration != 0 {
		t.Errorf("with reduced motion a record read runs %+v, want none", m)
	}
	// The same information, drawn still: the records read are outlined.
	if style := eval[string](t, b, `getComputedStyle(document.querySelector(`+js(read)+`)).outlineStyle`); style != "solid" {
		t.Errorf("with reduced motion a record read has outline %q, want a solid one", style)
	}
	b.noErrors(t)
}
