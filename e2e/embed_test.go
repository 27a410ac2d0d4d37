package e2e

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// startCoursePage serves, on an origin of its own, a course page that embeds
// src in an iframe with the given extra attributes.
func startCoursePage(t *testing.T, src, attrs string) string {
	t.Helper()
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>A course on Kafka</title></head><body>
<h1>Keys and partitions</h1>
<iframe src="%s" %s width="1000" height="700" title="plog"></iframe>
</body></html>`, html.EscapeString(src), attrs)
	}))
	t.Cleanup(course.Close)
	return course.URL
}

func TestEmbeddedInAnotherSitesPage(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	course := startCoursePage(t, srv.URL+linkOf(t, ordersScenario), "")
	b := newBrowser(t)
	b.do(t, chromedp.Navigate(course))

	frames, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSS("iframe")))
	if err != nil || len(frames) != 1 {
		t.Fatalf("want the course page's iframe, got %d (%v)", len(frames), err)
	}
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(ready), chromedp.FromNode(frames[0]))); err != nil {
		t.Fatalf("the embedded page never became ready: %v", err)
	}
	lanes, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSSAll("[data-topic][data-partition]"), chromedp.FromNode(frames[0])))
	if err != nil {
		t.Fatal(err)
	}
	if want := len(lanesOfScript(t, ordersScenario)); len(lanes) != want {
		t.Errorf("the embedded page shows %d lanes, want %d", len(lanes), want)
	}
}

// TestRunsWhereStorageIsForbidden loads the page as a sandbox without
// allow-same-origin makes it: an opaque origin, where merely reading
// localStorage throws. go-app reads it as it starts; without the page's
// storage guard it panics and the page never starts.
func TestRunsWhereStorageIsForbidden(t *testing.T) {
	t.Parallel()
	files := http.FileServer(http.Dir(build.rootSite))
	sandboxed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The same restrictions as <iframe sandbox="allow-scripts">.
		w.Header().Set("Content-Security-Policy", "sandbox allow-scripts")
		// An opaque origin's fetch of app.wasm is cross-origin.
		w.Header().Set("Access-Control-Allow-Origin", "*")
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(sandboxed.Close)

	b := newBrowser(t)
	b.open(t, sandboxed.URL+"/"+linkOf(t, ordersScenario))
	if origin := eval[string](t, b, `self.origin`); origin != "null" {
		t.Fatalf("the page's origin is %q: the sandbox is not in force, the test proves nothing", origin)
	}
	checkLanes(t, b, ordersScenario)
	if got := eval[string](t, b, `localStorage.setItem("k", "v"), localStorage.getItem("k")`); got != "v" {
		t.Errorf("the stand-in storage gave back %q, want v", got)
	}
	// The theme changes all the same, kept in the stand-in storage.
	b.click(t, "[data-theme-toggle]")
	b.waitFor(t, `document.documentElement.dataset.theme === "light"`)
	// The page says once that it keeps nothing, and works on.
	b.waitText(t, ".notice", "Autosave is off")
	b.createTopic(t, "later", 1)
	if n := b.count(t, ".notice"); n != 1 {
		t.Errorf("%d notices after a command, want the one", n)
	}
	b.noErrors(t)
}

// inFrame evaluates a JavaScript expression in the document of a
// same-origin iframe of the page, named by its id: `doc` is that document.
func inFrame[T any](t *testing.T, b *browser, frame, expression string) T {
	t.Helper()
	return eval[T](t, b, fmt.Sprintf(`(() => { const doc = document.getElementById(%s).contentDocument; return %s })()`, js(frame), expression))
}

// waitInFrame waits until an expression is true in a same-origin iframe.
func (b *browser) waitInFrame(t *testing.T, frame, expression string) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`(() => { const f = document.getElementById(%s); const doc = f && f.contentDocument; return !!doc && !!(%s) })()`, js(frame), expression))
}

// The sample course page served with the site embeds five scenarios: two
// from links, three lessons. Each of the first two fits its 640×400 frame,
// the read-only one steps but does not edit, and the page hears their
// messages; each lesson's frame opens its lesson.
func TestEmbedSampleCoursePage(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+"web/static/embed.html"))
	// It scrolls as a course page does, under the wheel.
	b.waitFor(t, `document.readyState === "complete"`)
	b.wheel(t, 20, 300, 400)
	if !b.eventually(`scrollY > 100`) {
		t.Errorf("the wheel left the sample course page at %v px", eval[float64](t, b, `scrollY`))
	}
	for _, frame := range []string{"scenario-keys", "scenario-groups"} {
		// The frames load lazily: bring each into view.
		eval[bool](t, b, `(document.getElementById(`+js(frame)+`).scrollIntoView(), true)`)
		b.waitInFrame(t, frame, `doc.querySelector('main[data-ready="true"]')`)
	}
	b.waitText(t, `[data-messages-of=scenario-keys]`, "ready: step 8 of 8")
	b.waitText(t, `[data-messages-of=scenario-groups]`, "ready: step 2 of 13")
	for _, f := range []struct{ frame, lesson string }{
		{"scenario-offsets", "offsets"}, {"scenario-commits", "commit-resume"}, {"scenario-compaction", "compaction"},
	} {
		eval[bool](t, b, `(document.getElementById(`+js(f.frame)+`).scrollIntoView(), true)`)
		b.waitInFrame(t, f.frame, `doc.querySelector('main[data-ready="true"] [data-lesson-panel][data-lesson=`+js(f.lesson)+`]')`)
		b.waitText(t, `[data-messages-of=`+f.frame+`]`, "(lesson "+f.lesson+")")
		// The lesson's goal right under the picture, before the tools.
		if !inFrame[bool](t, b, f.frame, `doc.querySelector("[data-lesson-panel]").getBoundingClientRect().bottom <= doc.querySelector(".command-line").getBoundingClientRect().top`) {
			t.Errorf("%s: the lesson's goal comes after the command line", f.frame)
		}
	}

	// Compact: nothing wider than the frame; the bar and the first lane in
	// its 400 pixels.
	for _, frame := range []string{"scenario-keys", "scenario-groups"} {
		if w := inFrame[int](t, b, frame, `doc.documentElement.scrollWidth`); w > 640 {
			t.Errorf("%s: the page is %d px wide in a 640 px frame", frame, w)
		}
		if bottom := inFrame[float64](t, b, frame, `doc.getElementById("open-full").getBoundingClientRect().bottom`); bottom > 400 {
			t.Errorf("%s: the link to the full playground ends at %.0f px, below the frame", frame, bottom)
		}
		if top := inFrame[float64](t, b, frame, `doc.querySelector("[data-topic][data-partition]").getBoundingClientRect().top`); top > 300 {
			t.Errorf("%s: the first lane starts at %.0f px: the frame shows little of the log", frame, top)
		}
		if n := inFrame[int](t, b, frame, `doc.querySelectorAll(".masthead h1, .colophon").length - Array.from(doc.querySelectorAll(".masthead h1, .colophon")).filter(el => el.offsetParent === null).length`); n != 0 {
			t.Errorf("%s: the masthead or footer shows in embed mode", frame)
		}
	}

	// The read-only scenario steps, and the course page hears it.
	if n := inFrame[int](t, b, "scenario-groups", `Array.from(doc.querySelectorAll("input:not([type=range]), select, textarea, form button")).filter(el => el.offsetParent !== null).length`); n != 0 {
		t.Errorf("the read-only frame shows %d editing controls", n)
	}
	inFrame[bool](t, b, "scenario-groups", `(doc.getElementById("embed-step").click(), true)`)
	b.waitText(t, `[data-messages-of=scenario-groups]`, "step: step 3 of 13")
	// The link follows once the URL has (it is written a moment after a change).
	b.waitInFrame(t, "scenario-groups", `doc.getElementById("open-full").dataset.href.endsWith("&at=3")`)
	if href := inFrame[string](t, b, "scenario-groups", `doc.getElementById("open-full").dataset.href`); strings.Contains(href, "embed=") {
		t.Errorf("open in the full playground goes to %q, want no embed options", href)
	}

	// Each frame reports its content's height, and the course page sizes
	// the frame to it: the frame then shows all of its page, with no
	// scroll of its own, and its lanes need none either.
	sized := `(() => { const f = document.getElementById("scenario-keys"); const doc = f.contentDocument;
		const told = Number(f.dataset.contentHeight);
		const stage = doc.querySelector(".stage");
		return told > 0 && f.style.height === Math.min(told, 2000) + "px" && f.clientHeight === Math.min(told, 2000) &&
			doc.documentElement.scrollHeight <= f.clientHeight + 1 && stage.scrollHeight <= stage.clientHeight + 1 })()`
	b.waitFor(t, sized)
	before := eval[int](t, b, `Number(document.getElementById("scenario-keys").dataset.contentHeight)`)

	// The other one edits: a topic made in the frame, and the page hears it.
	inFrame[bool](t, b, "scenario-keys", `(() => {
		const set = (id, v) => { const el = doc.getElementById(id); el.value = v; el.dispatchEvent(new Event("input", {bubbles: true})); el.dispatchEvent(new Event("change", {bubbles: true})) };
		set("topic-name", "audit"); set("topic-partitions", "16"); doc.getElementById("topic-create").click(); return true })()`)
	b.waitInFrame(t, "scenario-keys", `doc.querySelectorAll(".lane[data-topic=audit][data-partition]").length === 16`)
	b.waitText(t, `[data-messages-of=scenario-keys]`, "step: step 9 of 9")
	// Sixteen lanes more, longer than the groups' column beside them: the
	// content grew, and the frame with it.
	b.waitFor(t, `Number(document.getElementById("scenario-keys").dataset.contentHeight) > `+fmt.Sprint(before))
	b.waitFor(t, sized)

	// On a phone the frames are no wider than the screen.
	b.do(t, chromedp.EmulateViewport(390, 844))
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("on a phone the sample course page is %d px wide", w)
	}
	b.noErrors(t)
}

// startListeningCoursePage serves, on an origin of its own, a course page
// that embeds src in a 640×400 frame and keeps every message plog posts
// (with its origin) in window.plogMessages.
func startListeningCoursePage(t *testing.T, src string) string {
	t.Helper()
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>A course</title>
<script>window.plogMessages = []; addEventListener("message", e => {
  if (e.data && e.data.source === "plog") plogMessages.push(Object.assign({origin: e.origin}, e.data)) });</script>
</head><body><iframe src="%s" width="640" height="400" title="plog"></iframe></body></html>`, html.EscapeString(src))
	}))
	t.Cleanup(course.Close)
	return course.URL
}

// A frame on another site's page: its height messages reach the parent,
// from the frame's origin; play=1 plays as it opens; loop=FROM-TO wraps
// from TO back to FROM; a bad loop is told in the frame, which opens all
// the same.
func TestEmbedHeightPlayAndLoop(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	link := linkOf(t, ordersScenario)
	origin := strings.TrimSuffix(srv.URL, "/")
	b := newBrowser(t)

	b.do(t, chromedp.Navigate(startListeningCoursePage(t, srv.URL+link+"&at=0&embed=1&readonly=1&play=1")))
	b.waitFor(t, `plogMessages.some(m => m.type === "ready" && m.step === 0)`)
	b.waitFor(t, `plogMessages.some(m => m.type === "height" && m.height > 0)`)
	if got := eval[string](t, b, `plogMessages.find(m => m.type === "height").origin`); got != origin {
		t.Errorf("the height message came from %q, want the frame's origin %q", got, origin)
	}
	if n := eval[int](t, b, `plogMessages.filter((m, i, all) => m.type === "height" && all.slice(0, i).filter(p => p.type === "height").pop()?.height === m.height).length`); n != 0 {
		t.Errorf("%d height messages repeat the height before them", n)
	}
	// Nobody clicks: play walks the steps.
	b.waitFor(t, `plogMessages.some(m => m.type === "step" && m.step === 2)`)

	b.do(t, chromedp.Navigate(startListeningCoursePage(t, srv.URL+link+"&embed=1&readonly=1&loop=2-4")))
	b.waitFor(t, `plogMessages.some(m => m.type === "ready")`)
	// Steps 3 and 4, then back to 2, then on to 3 again.
	b.waitFor(t, `(() => { const s = plogMessages.filter(m => m.type === "step").map(m => m.step).join(" ");
		return /3 4 2 3/.test(s) })()`)
	if bad := eval[[]int](t, b, `plogMessages.filter(m => m.type === "step" && (m.step < 2 || m.step > 4)).map(m => m.step)`); len(bad) != 0 {
		t.Errorf("the loop 2-4 went to steps %v", bad)
	}

	b.do(t, chromedp.Navigate(startListeningCoursePage(t, srv.URL+link+"&embed=1&loop=7-3")))
	b.waitFor(t, `plogMessages.some(m => m.type === "ready" && m.step === 9)`)
	frames, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSS("iframe")))
	if err != nil || len(frames) != 1 {
		t.Fatalf("want the course page's iframe, got %d (%v)", len(frames), err)
	}
	text, err := chromedp.Run(b.ctx, chromedp.Text(chromedp.CSS(".embed-loop-problem[role=alert]"), chromedp.FromNode(frames[0])))
	if err != nil || !strings.Contains(text, "loop") || !strings.Contains(text, "later one") {
		t.Errorf("a bad loop says %q (%v), want why it was ignored", text, err)
	}
	lanes, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSSAll("[data-topic][data-partition]"), chromedp.FromNode(frames[0])))
	if err != nil || len(lanes) != len(lanesOfScript(t, ordersScenario)) {
		t.Errorf("with a bad loop the frame shows %d lanes (%v)", len(lanes), err)
	}
}

// In an iframe sandboxed with allow-scripts alone the page has an opaque
// origin: no storage, no service worker. It must load, work, and tell its
// parent, all the same. The test acts in the frame through DOM queries and
// input events, and reads it through the messages it posts. Chromium would
// run the sandboxed frame in a process of its own, out of reach of the
// page's queries; the flag keeps it in the page's process.
func TestWorksInASandboxedIframe(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	src := srv.URL + linkOf(t, ordersScenario) + "&embed=1"
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>A course</title>
<script>window.plogMessages = []; addEventListener("message", e => {
  if (e.data && e.data.source === "plog") plogMessages.push(Object.assign({origin: e.origin}, e.data)) });</script>
</head><body><iframe sandbox="allow-scripts" src="%s" width="640" height="400" title="plog"></iframe></body></html>`, html.EscapeString(src))
	}))
	t.Cleanup(course.Close)

	b := newBrowser(t, chromedp.Flag("disable-features", "IsolateSandboxedIframes"))
	b.do(t, chromedp.Navigate(course.URL))
	b.waitFor(t, `plogMessages.some(m => m.type === "ready" && m.step === 9 && m.steps === 9)`)
	if origin := eval[string](t, b, `plogMessages[0].origin`); origin != "null" {
		t.Fatalf("the frame's origin is %q: the sandbox is not in force, the test proves nothing", origin)
	}
	frames, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSS("iframe")))
	if err != nil || len(frames) != 1 {
		t.Fatalf("want the course page's iframe, got %d (%v)", len(frames), err)
	}
	inFrame := chromedp.FromNode(frames[0])

	nodes, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSSAll("[data-topic][data-partition]"), inFrame))
	if err != nil {
		t.Fatal(err)
	}
	want := lanesOfScript(t, ordersScenario)
	if len(nodes) != len(want) {
		t.Fatalf("the sandboxed page shows %d lanes, want %d", len(nodes), len(want))
	}
	for i, n := range nodes {
		got := fmt.Sprintf("%s/%s %s-%s", n.AttributeValue("data-topic"), n.AttributeValue("data-partition"),
			n.AttributeValue("data-log-start"), n.AttributeValue("data-high-watermark"))
		if w := fmt.Sprintf("%s/%s %s-%s", want[i].Topic, want[i].Partition, want[i].LogStart, want[i].HighWater); got != w {
			t.Errorf("lane %d is %s, want %s", i, got, w)
		}
	}

	// A command in the frame: the topic form, typed and sent with Enter. A
	// sandbox without allow-forms drops form submissions;
	// web/static/sandbox-forms.js must make the form work all the same.
	// (Keys go to the focused element; a mouse click would need the frame's
	// offset and scroll.)
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#dock-tab-topics"), kb.Enter, inFrame), // the dock's Topics tab holds the form
		chromedp.WaitVisible(chromedp.CSS("#topic-name"), inFrame),
		chromedp.SendKeys(chromedp.CSS("#topic-name"), "sandboxed"+kb.Enter, inFrame),
		chromedp.WaitReady(chromedp.CSS(`[data-topic=sandboxed][data-partition="2"]`), inFrame),
	); err != nil {
		t.Fatalf("creating a topic in the sandboxed frame: %v; it posted %v", err, eval[any](t, b, `plogMessages`))
	}
	b.waitFor(t, `plogMessages.some(m => m.type === "step" && m.step === 10 && m.steps === 10)`)
	b.do(t, chromedp.SendKeys(chromedp.CSS("#embed-back"), kb.Enter, inFrame))
	b.waitFor(t, `plogMessages.some(m => m.type === "step" && m.step === 9 && m.steps === 10)`)

	// "Open in the full playground": the sandbox opens no tab, so the bar
	// offers the link, selected, to copy.
	b.allowConsole("Blocked opening", "the frame is sandboxed without allow-popups, and the page tries to open a tab")
	if err := chromedp.Do(ctx,
		chromedp.SendKeys(chromedp.CSS("#open-full"), kb.Enter, inFrame),
		chromedp.WaitReady(chromedp.CSS("#open-full-link"), inFrame),
	); err != nil {
		t.Fatalf("no link offered to copy after open in the full playground: %v", err)
	}
	offered, err := chromedp.Run(ctx, chromedp.Value(chromedp.CSS("#open-full-link"), inFrame))
	if err != nil {
		t.Fatal(err)
	}
	attr, err := chromedp.Run(ctx, chromedp.AttributeValue(chromedp.CSS("#open-full"), "data-href", inFrame))
	if err != nil {
		t.Fatal(err)
	}
	href := attr.Value
	if !strings.HasPrefix(offered, srv.URL+"#v1.") || strings.Contains(offered, "embed=") || offered != href {
		t.Errorf("the bar offers %q, want the full playground's link %q", offered, href)
	}
	if pages := pageTargets(t, b); len(pages) != 1 {
		t.Errorf("the sandboxed frame opened a tab: %v", pages)
	}
}

// pageTargets lists the URLs of the browser's pages (tabs).
func pageTargets(t *testing.T, b *browser) []string {
	t.Helper()
	targets, err := chromedp.Targets(b.ctx)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, target := range targets {
		if target.Type == "page" {
			urls = append(urls, target.URL)
		}
	}
	return urls
}

// In a frame that may open tabs, "Open in the full playground" opens the
// scenario in a new top-level tab, without the embed options, and the frame
// stays the embedded page it was.
func TestEmbedOpensTheFullPlaygroundInATab(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	link := linkOf(t, ordersScenario)
	course := startCoursePage(t, srv.URL+link+"&embed=1", "")
	// A Chromium of its own: the test watches the browser's tabs.
	b := newBrowserProcess(t)
	b.do(t, chromedp.Navigate(course))
	frames, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSS("iframe")))
	if err != nil || len(frames) != 1 {
		t.Fatalf("want the course page's iframe, got %d (%v)", len(frames), err)
	}
	inFrame := chromedp.FromNode(frames[0])
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(`main[data-ready="true"][data-embed="true"]`), inFrame)); err != nil {
		t.Fatalf("the embedded page never became ready: %v", err)
	}
	// Enter on the button: a key the learner presses, which lets the page
	// open a window as a click does.
	tab := chromedp.WaitNewTarget(ctx, func(info *target.Info) bool { return info.Type == "page" })
	b.do(t, chromedp.SendKeys(chromedp.CSS("#open-full"), kb.Enter, inFrame))
	var id target.ID
	select {
	case id = <-tab:
	case <-ctx.Done():
		t.Fatalf("no tab opened; the browser has %v", pageTargets(t, b))
	}
	tabCtx, cancelTab := chromedp.NewContext(b.ctx, chromedp.WithTargetID(id))
	defer cancelTab()
	waitCtx, cancelWait := context.WithTimeout(tabCtx, readyTimeout)
	defer cancelWait()
	if err := chromedp.Do(waitCtx, chromedp.WaitReady(chromedp.CSS(ready))); err != nil {
		t.Fatalf("the new tab never showed the playground: %v", err)
	}
	url, err := chromedp.Run(waitCtx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if url != srv.URL+link {
		t.Errorf("the new tab is at %q, want %q", url, srv.URL+link)
	}
	if opener, err := chromedp.Run(waitCtx, chromedp.Evaluate[bool](`window.opener === null`)); err != nil || !opener {
		t.Errorf("the new tab has a handle on the embedding page (window.opener), %v", err)
	}
	embedded, err := chromedp.Run(b.ctx, chromedp.Nodes(chromedp.CSSAll(`main[data-embed="true"]`), inFrame))
	if err != nil || len(embedded) != 1 {
		t.Errorf("the frame no longer shows the embedded page (%d, %v)", len(embedded), err)
	}
}
