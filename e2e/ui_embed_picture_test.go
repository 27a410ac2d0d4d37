package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// embedPictureScenario is what the page promises to show whole in a
// 640x400 frame: a topic of four partitions read by a group of two members.
var embedPictureScenario = latestRulesLine + `topic orders partitions=4
produce orders key=acct-1 value=a count=5
produce orders key=acct-2 value=b count=4
produce orders key=acct-3 value=c count=3
produce orders value=none count=4
join billing c1 topics=orders
join billing c2 topics=orders
advance 6s
poll billing c1 max=5
commit billing c1
`

// frameWorld is a JavaScript world of its own in the document of the course
// page's frame: the test reads the frame through it even where the frame is
// on another origin, as an embedded page is, which the course page's own
// scripts may not read.
type frameWorld struct {
	b  *browser
	id runtime.ExecutionContextID
}

// openFrame waits for the course page's one iframe to show a ready
// playground, and opens a world in its document.
func (b *browser) openFrame(t *testing.T) frameWorld {
	t.Helper()
	return b.openFrameOf(t, "iframe")
}

// openFrameOf is openFrame for the one iframe a selector finds.
func (b *browser) openFrameOf(t *testing.T, selector string) frameWorld {
	t.Helper()
	return b.frameWhen(t, selector, ready)
}

// frameWhen waits for the one iframe a selector finds to hold a page in
// which a selector (until) finds something, and opens a world in it.
func (b *browser) frameWhen(t *testing.T, selector, until string) frameWorld {
	t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	// A lazy frame holds about:blank until it loads the snippet's page: the
	// node taken then would keep that first document, in which nothing ever
	// becomes ready, so take the frame's node once it holds the page.
	var frames []*chromedp.Node
	for {
		var err error
		frames, err = chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS(selector)))
		if err != nil || len(frames) != 1 {
			t.Fatalf("want the course page's iframe %s, got %d (%v)", selector, len(frames), err)
		}
		if doc := frames[0].ContentDocument; doc != nil && strings.HasPrefix(doc.DocumentURL, "http") {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the course page's iframe never loaded its page: %v", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(until), chromedp.FromNode(frames[0]))); err != nil {
		t.Fatalf("the embedded page never showed %s: %v", until, err)
	}
	world, err := chromedp.Call(ctx, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frames[0].FrameID, WorldName: "plog-test"})
	if err != nil {
		t.Fatalf("no world in the frame: %v", err)
	}
	return frameWorld{b, world.ExecutionContextID}
}

// evalIn evaluates an expression in the frame's document.
func evalIn[T any](t *testing.T, w frameWorld, expression string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(w.b.ctx, 20*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expression, func(p *runtime.EvaluateParams) { p.ContextID = w.id }))
	if err != nil {
		t.Fatalf("in the frame, %s: %v", expression, err)
	}
	return v
}

// waitFor waits until an expression is true in the frame's document.
func (w frameWorld) waitFor(t *testing.T, expression string) {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	for {
		ctx, cancel := context.WithTimeout(w.b.ctx, 10*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expression, func(p *runtime.EvaluateParams) { p.ContextID = w.id }))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("in the frame, still not true after %s: %s (last error: %v)", readyTimeout, expression, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// startSnippetCoursePage serves, on an origin of its own, a course page
// that holds an HTML snippet as the Share dialog wrote it and keeps every
// message plog posts (with its origin) in window.plogMessages.
func startSnippetCoursePage(t *testing.T, snippet string) string {
	t.Helper()
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>A course on Kafka</title>
<script>window.plogMessages = []; addEventListener("message", e => {
  if (e.data && e.data.source === "plog") plogMessages.push(Object.assign({origin: e.origin}, e.data)) });</script>
</head><body><h1>Consumer groups</h1>
%s
</body></html>`, snippet)
	}))
	t.Cleanup(course.Close)
	return course.URL
}

// outsideTheFrame lists what of the picture is not wholly inside the
// frame's window at its first scroll, or hidden by a region's scroll: the
// step bar, every lane, every member's card and every assignment mark.
const outsideTheFrame = `(() => {
	const out = [];
	if (scrollX !== 0 || scrollY !== 0) out.push("the frame is scrolled to " + scrollX + "," + scrollY);
	if (document.documentElement.scrollWidth > innerWidth) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
	const name = el => el.tagName.toLowerCase() + "." + el.classList[0] + ["topic", "partition", "group", "member"]
		.filter(a => el.hasAttribute("data-" + a)).map(a => "[" + a + "=" + el.getAttribute("data-" + a) + "]").join("");
	for (const el of document.querySelectorAll(".embed-bar, .lane[data-topic][data-partition], li[data-member], [data-assignment][data-member]")) {
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
			out.push(name(el) + " at " + Math.round(r.left) + "," + Math.round(r.top) + "–" + Math.round(r.right) + "," + Math.round(r.bottom));
			continue;
		}
		for (let up = el.parentElement; up; up = up.parentElement) {
			if (!/(auto|scroll|hidden)/.test(getComputedStyle(up).overflowY + getComputedStyle(up).overflowX)) continue;
			const box = up.getBoundingClientRect();
			if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5 || r.left < box.left - 0.5 || r.right > box.right + 0.5) {
				out.push(name(el) + " scrolled out of its region " + name(up));
				break;
			}
		}
	}
	return out })()`

// A teacher shares a scenario of a topic of four partitions and a group of
// two members: the Share dialog's choices rewrite its snippet, and the
// snippet, pasted into a course page on another site, shows in its 640x400
// frame the page's picture whole: the step bar, every lane, beside them
// every member with its marks on the lanes, nothing scrolled out of view;
// the frame tells the course page its height. Read-only, it shows no
// command line and is no taller than the frame; the editable one has the
// command line below the picture. Play and loop play, the theme is taken.
// heardHeight waits until the course page's last height message fits
// what the frame measures now, and returns it: the body's height, and at
// most what its regions that scroll inside themselves (the lanes, the
// groups) hide besides, which the frame asks room for too
// (embed-height.js). The frame may still be laying out when first
// measured, and tells the page again once it has.
func heardHeight(t *testing.T, b *browser, w frameWorld) int {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	for {
		measured := evalIn[[]int](t, w, `(() => {
			const body = Math.ceil(Math.max(document.body.scrollHeight, document.body.getBoundingClientRect().height));
			let hidden = 0;
			for (const r of document.querySelectorAll("main .stage, main .groups-column"))
				if (r.offsetParent !== null) hidden = Math.max(hidden, r.scrollHeight - r.clientHeight);
			return [body, hidden] })()`)
		heard := eval[int](t, b, `plogMessages.filter(m => m.type === "height").pop()?.height ?? -1`)
		if heard >= measured[0] && heard <= measured[0]+measured[1]+1 {
			return heard
		}
		if time.Now().After(deadline) {
			t.Fatalf("the frame's body measures %d px and its regions hide %d more; the course page last heard %d", measured[0], measured[1], heard)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestUIEmbedPictureFromTheShareDialog(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	origin := strings.TrimSuffix(srv.URL, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, embedPictureScenario))
	b.waitCount(t, `.lane[data-topic][data-partition]`, 4)
	b.openShareDialog(t)
	snippetOf := func() string { return eval[string](t, b, `document.getElementById("embed-snippet").value`) }
	waitSnippet := func(has, hasNot string) string {
		t.Helper()
		b.waitFor(t, fmt.Sprintf(`(v => v.includes(%s) && (%s === "" || !v.includes(%s)))(document.getElementById("embed-snippet").value)`,
			js(has), js(hasNot), js(hasNot)))
		return snippetOf()
	}

	editable := snippetOf()
	if !strings.Contains(editable, `&amp;embed=1"`) || !strings.Contains(editable, `width="640" height="400"`) {
		t.Fatalf("the dialog's first snippet is %q, want a 640x400 frame of the scenario with embed=1 alone", editable)
	}
	b.click(t, "#embed-readonly")
	readOnly := waitSnippet("&amp;embed=1&amp;readonly=1\"", "")
	b.click(t, "#embed-readonly")
	waitSnippet("&amp;embed=1\"", "readonly=1")

	// Play, a loop and a theme, each written as it is chosen.
	b.click(t, "#embed-play")
	waitSnippet("&amp;embed=1&amp;play=1\"", "")
	b.click(t, "#embed-loop")
	waitSnippet("&amp;play=1&amp;loop=0-10\"", "") // the whole scenario, to begin with
	b.fill(t, "#embed-loop-from", "2")
	b.fill(t, "#embed-loop-to", "12")
	b.waitText(t, "#embed-loop-status[role=alert]", "steps 0 to 10")
	waitSnippet("&amp;play=1\"", "loop=")
	b.fill(t, "#embed-loop-to", "4")
	waitSnippet("&amp;play=1&amp;loop=2-4\"", "")
	if n := b.count(t, "#embed-loop-status"); n != 0 {
		t.Error("the loop's problem stays once the loop fits")
	}
	b.fill(t, "#embed-theme", "dark")
	looping := waitSnippet("&amp;play=1&amp;loop=2-4&amp;theme=dark\"", "")
	b.click(t, "#embed-loop")
	waitSnippet("&amp;play=1&amp;theme=dark\"", "loop=")

	// The editable snippet in a course page.
	b.do(t, chromedp.EmulateViewport(1000, 700))
	b.do(t, chromedp.Navigate(startSnippetCoursePage(t, editable)))
	w := b.openFrame(t)
	w.waitFor(t, `innerWidth === 640 && innerHeight === 400`)
	w.waitFor(t, `document.querySelectorAll(".lane[data-topic][data-partition]").length === 4 && document.querySelectorAll("li[data-member]").length === 2`)
	if n := evalIn[int](t, w, `document.querySelectorAll("[data-assignment][data-member]").length`); n != 4 {
		t.Errorf("the frame draws %d assignment marks, want one a partition", n)
	}
	if out := evalIn[[]string](t, w, outsideTheFrame); len(out) > 0 {
		t.Errorf("editable, outside the 640x400 frame: %s", strings.Join(out, "; "))
	}
	if !evalIn[bool](t, w, `(() => {
		const lanes = Array.from(document.querySelectorAll(".lane[data-topic]")).map(el => el.getBoundingClientRect().right);
		const members = Array.from(document.querySelectorAll("li[data-member]")).map(el => el.getBoundingClientRect().left);
		return Math.min(...members) >= Math.max(...lanes) })()`) {
		t.Error("the members are not beside the lanes, as in the page's picture")
	}
	below := evalIn[float64](t, w, `(el => el && el.getClientRects().length ? el.getBoundingClientRect().top : -1)(document.querySelector("[data-command-line]"))`)
	if pictureBottom := evalIn[float64](t, w, `Math.max(...Array.from(document.querySelectorAll(".lane[data-topic], li[data-member]")).map(el => el.getBoundingClientRect().bottom))`); below < pictureBottom {
		t.Errorf("the editable frame's command line is at %.0f px, want it below the picture (ending at %.0f)", below, pictureBottom)
	}
	// The course page hears the frame's height, from the frame's origin,
	// as the frame measures it.
	heardHeight(t, b, w)
	if got := eval[string](t, b, `plogMessages.find(m => m.type === "height").origin`); got != origin {
		t.Errorf("the height message came from %q, want the frame's origin %q", got, origin)
	}

	// Read-only: the same picture, no command line, nothing below it.
	b.do(t, chromedp.Navigate(startSnippetCoursePage(t, readOnly)))
	w = b.openFrame(t)
	w.waitFor(t, `innerWidth === 640 && innerHeight === 400 && document.querySelectorAll("li[data-member]").length === 2`)
	if out := evalIn[[]string](t, w, outsideTheFrame); len(out) > 0 {
		t.Errorf("read-only, outside the 640x400 frame: %s", strings.Join(out, "; "))
	}
	if evalIn[bool](t, w, `!!document.querySelector("[data-command-line]")`) {
		t.Error("the read-only frame has a command line")
	}
	if height := heardHeight(t, b, w); height > 400 {
		t.Errorf("the read-only frame's content is %d px tall, more than its 400", height)
	}

	// Play, loop and theme as chosen: steps 2 to 4 over and over, dark.
	b.do(t, chromedp.Navigate(startSnippetCoursePage(t, looping)))
	w = b.openFrame(t)
	w.waitFor(t, `document.documentElement.dataset.theme === "dark"`)
	b.waitFor(t, `/3 4 2 3/.test(plogMessages.filter(m => m.type === "step").map(m => m.step).join(" "))`)
	if bad := eval[[]int](t, b, `plogMessages.filter(m => m.type === "step" && (m.step < 2 || m.step > 4)).map(m => m.step)`); len(bad) != 0 {
		t.Errorf("the loop 2-4 went to steps %v", bad)
	}
	b.noErrors(t)
}
