package e2e

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// courseScenario is taller than a 400 px frame: twelve lanes, and a group
// of two beside them.
var courseScenario = latestRulesLine + `topic orders partitions=12
produce orders key=acct-1 value=a count=3
produce orders key=acct-2 value=b count=3
produce orders key=acct-3 value=c count=3
join billing c1 topics=orders
join billing c2 topics=orders
advance 6s
`

// readmeSnippet is the course-page snippet of the README's section on
// embedding: its iframe, with the link's place marked, and its script.
func readmeSnippet(t *testing.T) (frame, script string) {
	t.Helper()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := string(readme)
	if i := strings.Index(section, "## Sharing and embedding"); i >= 0 {
		section = section[i:]
	}
	m := regexp.MustCompile("(?s)```html\n(<iframe .*?</iframe>)\n(<script>.*?</script>)\n```").FindStringSubmatch(section)
	if m == nil {
		t.Fatal("the README's section on embedding has no course-page snippet (an iframe and a script)")
	}
	return m[1], m[2]
}

// A teacher pastes the README's snippet into a course page on another
// site, three times, with prose between the frames: a read-only scenario
// taller than its 400 px frame, an editable one, and a lesson. Each frame
// that starts settles at its content's height (a message or two, no frame
// ever shrinking, nothing of its page hidden by a scroll); a frame not yet
// shown tells no height; the wheel over a frame that has nothing more to
// scroll scrolls the course page; a read-only frame is one Tab stop whose
// bar the arrow keys walk, and an editable one begins with a button that
// skips it. The sample course page's script holds the snippet's word for
// word.
func TestCoursePageFromTheReadmeSnippet(t *testing.T) {
	t.Parallel()
	frame, script := readmeSnippet(t)
	example, err := os.ReadFile("../web/static/embed-example.js")
	if err != nil {
		t.Fatal(err)
	}
	if body := strings.TrimSuffix(strings.TrimPrefix(script, "<script>\n"), "</script>"); !strings.Contains(string(example), body) {
		t.Errorf("web/static/embed-example.js does not hold the README's snippet:\n%s", body)
	}

	srv := startPlogServer(t, build.rootSite, "/")
	link := srv.URL + linkOf(t, courseScenario)
	src := regexp.MustCompile(`src="[^"]*"`)
	frameOf := func(id, url, before, after string) string {
		f := src.ReplaceAllLiteralString(frame, `id="`+id+`" src="`+url+`"`)
		return fmt.Sprintf(`<p><a href="#%s" id="%s">before %s</a></p>%s<p><a href="#%s" id="%s">after %s</a></p>
<p class="prose">%s</p>`, id, before, id, f, id, after, id, strings.Repeat("A paragraph of the course. ", 120))
	}
	page := frameOf("readonly", link+"&embed=1&readonly=1", "before-1", "after-1") +
		frameOf("editable", link+"&embed=1", "before-2", "after-2") +
		frameOf("lesson", srv.URL+"#lesson=offsets&embed=1", "before-3", "after-3")
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>A course on Kafka</title>
<style>body { max-width: 700px; margin: 0 auto; font: 16px/1.5 sans-serif } .prose { min-height: 900px }</style>
<script>
// What each frame tells, and each frame's heights as the page lays it out.
window.told = []; window.heights = {};
addEventListener("message", e => {
  if (!e.data || e.data.source !== "plog") return;
  const f = Array.from(document.querySelectorAll("iframe")).find(f => f.contentWindow === e.source);
  told.push(Object.assign({frame: f ? f.id : "?"}, e.data));
});
addEventListener("DOMContentLoaded", () => {
  const seen = new ResizeObserver(entries => { for (const e of entries) (heights[e.target.id] ||= []).push(e.target.clientHeight) });
  for (const f of document.querySelectorAll("iframe")) seen.observe(f);
});
</script></head><body><h1>Consumer groups</h1>
%s
%s
</body></html>`, page, script)
	}))
	t.Cleanup(course.Close)

	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(course.URL))
	told := func(frame, kind string) string {
		return fmt.Sprintf(`told.filter(m => m.frame === %s && m.type === %s)`, js(frame), js(kind))
	}

	// shown scrolls a frame into view, where it starts, and waits for it
	// to be ready and to tell its height.
	shown := func(id string) frameWorld {
		t.Helper()
		eval[bool](t, b, `(document.getElementById(`+js(id)+`).scrollIntoView({block: "start"}), true)`)
		b.waitFor(t, told(id, "ready")+`.length === 1`)
		w := b.openFrameOf(t, "#"+id)
		b.waitFor(t, told(id, "height")+`.length >= 1`)
		return w
	}
	settled := func(id string, w frameWorld) {
		t.Helper()
		// A second for the course page to settle: then the frame is as
		// tall as its content says, which its page fills with no scroll.
		time.Sleep(time.Second)
		height := eval[int](t, b, told(id, "height")+`.pop().height`)
		if got := eval[int](t, b, `document.getElementById(`+js(id)+`).clientHeight`); got != min(height, 2000) {
			t.Errorf("%s: the frame is %d px tall; its content said %d", id, got, height)
		}
		if n := eval[int](t, b, told(id, "height")+`.length`); n > 2 {
			t.Errorf("%s: %d height messages (%v): the height does not settle", id, n, eval[[]int](t, b, told(id, "height")+`.map(m => m.height)`))
		}
		if shrank := eval[[]int](t, b, `(heights[`+js(id)+`] || []).filter((h, i, all) => i > 0 && h < all[i-1])`); len(shrank) != 0 {
			t.Errorf("%s: the frame shrank, to %v px (its heights: %v)", id, shrank, eval[[]int](t, b, `heights[`+js(id)+`]`))
		}
		if hidden := evalIn[[]string](t, w, `[document.documentElement, ...document.querySelectorAll(".stage, .groups-column")]
			.filter(el => el.scrollHeight > el.clientHeight).map(el => el.className || el.tagName)`); len(hidden) != 0 {
			t.Errorf("%s: in a frame of its content's height (%d px), %v still scroll: %s", id, height, hidden, evalIn[string](t, w, `innerHeight + " " + document.documentElement.scrollHeight + " " + document.body.scrollHeight`))
		}
	}
	// The first frame starts; the second, below the fold, does not, and
	// tells nothing of its height.
	readonly := shown("readonly")
	settled("readonly", readonly)
	if h := eval[int](t, b, `document.getElementById("readonly").clientHeight`); h <= 400 {
		t.Errorf("the read-only frame of twelve lanes is %d px tall, no taller than the snippet's 400", h)
	}
	// (Loaded, as a lazy frame near the fold is, and waiting to be shown.)
	waiting := b.frameWhen(t, "#editable", "html[data-starts-when-shown]")
	if n := eval[int](t, b, told("editable", "height")+`.length`); n != 0 {
		t.Errorf("the frame not yet shown told %d heights", n)
	}

	// The wheel over the read-only frame, whose page scrolls no further,
	// scrolls the course page; beside the frame too.
	for _, x := range []float64{640, 60} {
		eval[bool](t, b, `(document.getElementById("readonly").scrollIntoView({block: "start"}), scrollBy(0, -50), true)`)
		top := eval[float64](t, b, `scrollY`)
		b.wheel(t, x, 300, 240)
		if !b.eventually(fmt.Sprintf(`scrollY > %f + 100`, top)) {
			t.Errorf("the wheel at x=%.0f over the read-only frame left the course page at %.0f px (from %.0f)", x, eval[float64](t, b, `scrollY`), top)
		}
	}

	// Tab: into the read-only frame at its bar, and out at the next Tab.
	focusIn := func(id string) string { return `document.activeElement && document.activeElement.id === ` + js(id) }
	eval[bool](t, b, `(document.getElementById("before-1").focus(), true)`)
	b.do(t, chromedp.KeyEvent(kb.Tab))
	b.waitFor(t, focusIn("readonly"))
	readonly.waitFor(t, `!!document.activeElement.closest(".embed-bar") && document.activeElement.tagName === "BUTTON"`)
	first := evalIn[string](t, readonly, `document.activeElement.id`)
	b.do(t, chromedp.KeyEvent(kb.ArrowRight))
	readonly.waitFor(t, `document.activeElement.id !== `+js(first)+` && !!document.activeElement.closest(".embed-bar")`)
	b.do(t, chromedp.KeyEvent(kb.ArrowLeft))
	readonly.waitFor(t, `document.activeElement.id === `+js(first))
	steps := eval[int](t, b, `told.filter(m => m.frame === "readonly" && m.type === "step").length`)
	b.do(t, chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, fmt.Sprintf(`told.filter(m => m.frame === "readonly" && m.type === "step").length > %d`, steps))
	b.do(t, chromedp.KeyEvent(kb.Tab))
	b.waitFor(t, focusIn("after-1"))
	// And back: Shift+Tab from after the frame lands on its bar.
	b.do(t, chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	b.waitFor(t, focusIn("readonly"))
	readonly.waitFor(t, `!!document.activeElement.closest(".embed-bar")`)
	b.do(t, chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	b.waitFor(t, focusIn("before-1"))

	// The editable frame's first Tab stop skips it.
	// Still waiting to be shown, it is one Tab stop: the Tab starts it, and
	// once it is ready the focus is on its skip button.
	eval[bool](t, b, `(document.getElementById("before-2").focus({preventScroll: true}), true)`)
	if !evalIn[bool](t, waiting, `document.documentElement.dataset.startsWhenShown === "true"`) {
		t.Error("the editable frame started before the Tab reached it")
	}
	b.do(t, chromedp.KeyEvent(kb.Tab))
	b.waitFor(t, focusIn("editable"))
	editable := shown("editable")
	settled("editable", editable)
	editable.waitFor(t, `document.activeElement.classList.contains("embed-skip")`)
	if where := evalIn[string](t, editable, `(() => { const r = document.activeElement.getBoundingClientRect();
		return r.width > 20 && r.height > 10 && r.top >= 0 && r.bottom <= innerHeight ? "shown" : JSON.stringify(r) })()`); where != "shown" {
		t.Errorf("the focused skip button is not shown: %s", where)
	}
	if label := evalIn[string](t, editable, `document.activeElement.textContent`); label != "Skip this playground" {
		t.Errorf("the editable frame's first stop says %q", label)
	}
	b.do(t, chromedp.KeyEvent(kb.Enter))
	b.do(t, chromedp.KeyEvent(kb.Tab))
	b.waitFor(t, focusIn("after-2"))

	// The lesson's frame settles too.
	settled("lesson", shown("lesson"))
	b.noErrors(t)
}

// wheel turns the mouse wheel at a point of the page's window.
func (b *browser) wheel(t *testing.T, x, y, deltaY float64) {
	t.Helper()
	b.do(t, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, x, y, func(p *input.DispatchMouseEventParams) {
		// Chromium wants both deltas, and cdproto leaves out a zero.
		p.DeltaX, p.DeltaY = 0.01, deltaY
	}))
}
