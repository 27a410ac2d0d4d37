package e2e

import (
	"bytes"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// A teacher prints a step for a handout: on paper the lanes, the
// narration of the step and the groups show whole, in the page's flow, the
// timeline's step and lines under them; the dock, the forms, the help and
// the folds do not.
func TestPrintPutsThePictureOnPaper(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=3\njoin billing c1 topics=orders\nadvance 6s\n"+
		"produce orders key=acct-1 value=created count=3\n")
	// A record produced: the narration says where it went.
	b.click(t, "[data-produce-to=orders]")
	b.fill(t, "#produce-key", "acct-2")
	b.click(t, "#produce-send")
	b.waitFor(t, `!!document.querySelector(".stage-notes .landing:not(.empty)")`)
	if _, err := chromedp.Call(b.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: "print"}); err != nil {
		t.Fatal(err)
	}
	b.waitFor(t, `matchMedia("print").matches`)
	shown := func(selector string) bool {
		return eval[bool](t, b, `Array.from(document.querySelectorAll(`+js(selector)+`)).some(el => el.getClientRects().length > 0)`)
	}
	for _, want := range []string{".lane[data-topic=orders]", ".stage-notes .landing:not(.empty)", "li[data-member=c1]", ".script-line", "label[for=timeline-slider]"} {
		if !shown(want) {
			t.Errorf("on paper, %s does not show", want)
		}
	}
	for _, gone := range []string{".dock", ".playground form", "[data-help]", "#undo", ".command-line", "#timeline-slider", ".legend-fold"} {
		if shown(gone) {
			t.Errorf("on paper, %s still shows", gone)
		}
	}
	// Whole: no region keeps part of itself behind a scroll.
	if cut := eval[[]string](t, b, `Array.from(document.querySelectorAll(".stage, .groups-column, .script, .stage-notes"))
		.filter(el => el.scrollHeight > el.clientHeight + 1).map(el => el.className)`); len(cut) != 0 {
		t.Errorf("on paper, %v scroll: part of them would not print", cut)
	}
	pdf, err := chromedp.Call(b.ctx, page.PrintToPDF, page.PrintToPDFParams{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(pdf.Data, []byte("%PDF")) {
		t.Errorf("printing made no PDF")
	}
	b.noErrors(t)
}
