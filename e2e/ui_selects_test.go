package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// cutSelects lists the selects in sight whose chosen option is cut: the
// option's text, in the select's font, with its padding and arrow, is
// wider than the select.
const cutSelects = `(() => {
  const canvas = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const s of document.querySelectorAll("main select")) {
    const r = s.getBoundingClientRect();
    if (r.width === 0 || r.bottom < 0 || r.top > innerHeight || s.selectedIndex < 0) continue;
    const style = getComputedStyle(s);
    canvas.font = style.font;
    const text = s.options[s.selectedIndex].text;
    const needed = canvas.measureText(text).width + parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) + 18;
    if (needed > r.width + 1) cut.push((s.id || s.name || s.className) + ": " + JSON.stringify(text) + " needs " + Math.round(needed) + "px, has " + Math.round(r.width));
  }
  return cut.join("; ");
})()`

// The selects a learner meets first (Produce's, the groups', the
// timeline's speed) show their choice whole at 1280x800 and on a phone:
// "partitioner chooses" was cut to "partitioner ch".
func TestUISelectsShowTheirChoiceWhole(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=3\n")
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		b.do(t, chromedp.EmulateViewport(size[0], size[1]))
		for _, region := range []string{"#produce-form", ".groups-column", ".timeline"} {
			eval[bool](t, b, `(() => { document.querySelector(`+js(region)+`).scrollIntoView(); return true })()`)
			if cut := eval[string](t, b, cutSelects); strings.TrimSpace(cut) != "" {
				t.Errorf("%dx%d, %s in sight: %s", size[0], size[1], region, cut)
			}
		}
	}
}
