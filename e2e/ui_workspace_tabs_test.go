package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// secondTab opens another tab in the same browser context as b, which
// shares its storage, as a learner's second tab does. Closing it is
// cancelling its context.
func (b *browser) secondTab(t *testing.T) (*browser, context.CancelFunc) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil { // opens the tab
		t.Fatalf("opening a second tab: %v", err)
	}
	return watchBrowser(t, ctx), cancel
}

// tabWorkspace is the workspace id the tab keeps in its own storage.
func (b *browser) tabWorkspace(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `(JSON.parse(sessionStorage.getItem("plog.tab") || "{}").id || "")`)
}

// onScreen says whether the element a selector finds is where a learner
// reads it: inside the window, clipped by no ancestor that scrolls or
// hides what overflows it, and on top at its middle; "" when it is, or
// what is wrong.
func onScreen(t *testing.T, b *browser, selector string) string {
	t.Helper()
	return eval[string](t, b, fmt.Sprintf(`(() => {
  const el = document.querySelector(%s);
  if (!el) return "absent";
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return "not drawn";
  if (r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
    return "outside the " + innerWidth + "x" + innerHeight + " window at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
  for (let up = el.parentElement; up; up = up.parentElement) {
    const style = getComputedStyle(up);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const box = up.getBoundingClientRect();
    if (r.left < box.left - 0.5 || r.top < box.top - 0.5 || r.right > box.right + 0.5 || r.bottom > box.bottom + 0.5)
      return "clipped by " + up.tagName.toLowerCase() + "." + up.className;
  }
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top && (el.contains(top) || top.contains(el)) ? "" : "under " + (top ? top.tagName.toLowerCase() + "." + top.className : "nothing");
})()`, js(selector)))
}

// onScreenSoon is onScreen after up to two seconds for a smooth scroll
// still running: "" once what selector finds is on screen, else why not.
func onScreenSoon(t *testing.T, b *browser, selector string) string {
	t.Helper()
	problem := onScreen(t, b, selector)
	for i := 0; problem != "" && i < 20; i++ {
		time.Sleep(100 * time.Millisecond)
		problem = onScreen(t, b, selector)
	}
	return problem
}

// readableAtBothSizes checks that what a selector finds is on screen at
// 1280x800 and at a 390x844 phone, and keeps a screenshot of each, named
// after what, in $PLOG_SCREENSHOTS when set.
func readableAtBothSizes(t *testing.T, b *browser, selector, what string) {
	t.Helper()
	dir := os.Getenv("PLOG_SCREENSHOTS")
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		b.do(t, chromedp.EmulateViewport(size[0], size[1]))
		b.waitFor(t, fmt.Sprintf(`innerWidth === %d && innerHeight === %d`, size[0], size[1]))
		if problem := onScreen(t, b, selector); problem != "" {
			t.Errorf("at %dx%d, %s (%s) is %s", size[0], size[1], what, selector, problem)
		}
		if dir == "" {
			continue
		}
		png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, fmt.Sprintf("%s-%d.png", what, size[0]))
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot: %s", path)
	}
}

// openSavedTopic opens the playground with no link in a browser of its
// own, makes a topic with the page's controls, and waits until Recent
// lists it.
func openSavedTopic(t *testing.T, name string, partitions int) (*server, *browser) {
	t.Helper()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL)
	b.startEmpty(t)
	b.createTopic(t, name, partitions)
	b.waitRecent(t, 1)
	return s, b
}

// accessible fails the test for each serious or critical accessibility
// violation of the page as it is.
func accessible(t *testing.T, b *browser, what string) {
	t.Helper()
	for _, v := range runAxe(t, b) {
		t.Errorf("%s: %s (%s): %s at %s", what, v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}
}

// Two tabs of one browser, each acted in with the page's controls: the
// second, opened on the bare site while the first is open, shows the
// scenario saved last but works in a workspace of its own, and says so;
// the first keeps its own through a reload. Once the second is closed,
// the first's Recent lists both, each with its steps.
func TestUIWorkspaceOfItsOwnInEachTab(t *testing.T) {
	t.Parallel()
	s, first := openSavedTopic(t, "first", 1)
	mine := first.tabWorkspace(t)

	second, closeSecond := first.secondTab(t)
	second.open(t, s.URL)
	second.waitText(t, ".notice", "open in another tab too")
	second.waitCount(t, "[data-topic=first][data-partition]", 1)
	second.createTopic(t, "second", 2)
	first.waitRecent(t, 2)
	theirs := second.tabWorkspace(t)
	if theirs == "" || theirs == mine {
		t.Fatalf("the second tab works in %q, the first in %q", theirs, mine)
	}

	// The first tab acts, and saves after the second: the second's entry stays.
	first.createTopic(t, "more", 1)
	first.waitFor(t, `JSON.parse(localStorage.getItem("plog.recent")).some(r => r.title === "first, more")`)
	// The second acts again, and saves last.
	second.fill(t, "#produce-topic", "second")
	second.fill(t, "#produce-key", "k")
	second.click(t, "#produce-send")
	second.waitCount(t, "[data-topic=second] [data-offset]", 1)
	second.waitFor(t, `JSON.parse(localStorage.getItem("plog.recent"))[0].steps === 3`)
	closeSecond()

	first.openScenarios(t)
	first.waitText(t, ".recent li:first-child .hint", "3 steps")
	if got := first.recentTitles(t); fmt.Sprint(got) != "[first, second:3 steps first, more:2 steps]" {
		t.Errorf("Recent lists %q, want the second tab's scenario (3 steps) and the first's (2 steps)", got)
	}
	for _, id := range []string{mine, theirs} {
		if first.count(t, fmt.Sprintf(`.recent li[data-recent=%q]`, id)) != 1 {
			t.Errorf("Recent does not list the workspace %s", id)
		}
	}

	// The first tab, reloaded, is still its own workspace: a change there
	// adds no entry to Recent.
	first.reload(t)
	if got := first.tabWorkspace(t); got != mine {
		t.Errorf("after a reload the first tab works in %q, want its own %q", got, mine)
	}
	first.waitCount(t, "[data-topic=more][data-partition]", 1)
	first.createTopic(t, "again", 1)
	first.waitFor(t, `JSON.parse(localStorage.getItem("plog.recent"))[0].steps === 3`)
	if n := eval[int](t, first, `JSON.parse(localStorage.getItem("plog.recent")).length`); n != 2 {
		t.Errorf("after a reload and a change Recent holds %d scenarios, want the 2", n)
	}
	first.noErrors(t)
}

// A saved workspace and a recent list the page cannot read: the page
// opens with what it can, says so where the learner looks, and the
// values as they were are still in storage, apart, after the learner's
// next change is saved.
func TestUIUnreadableSavedWorkspaceIsSaidAndKept(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowserProcess(t) // a Chromium of its own: downloads belong to the whole browser
	link := strings.TrimPrefix(linkOf(t, "topic kept partitions=2\n"), "#")
	workspace := `{"id":"w1","fragment":"` + link[:len(link)/2] // cut short
	recent := `[{"id":"r1","fragment":"` + link + `","title":"kept","steps":1,"saved":1700000000000},{"id":7,"fragment":[]}]`
	b.beforeEachPage(t, fmt.Sprintf(`if (!sessionStorage.getItem("planted")) {
  sessionStorage.setItem("planted", "1");
  localStorage.setItem("plog.workspace", %s);
  localStorage.setItem("plog.recent", %s);
}`, js(workspace), js(recent)))
	b.open(t, s.URL)
	b.startEmpty(t)
	notice := `.notice.unreadable[role=alert]`
	b.waitText(t, notice+` [data-unreadable="plog.workspace"]`, "The scenario you were working on could not be opened")
	b.waitText(t, notice+` [data-unreadable="plog.recent"]`, "Scenarios → Recent shows the 1 scenario it could read")
	readableAtBothSizes(t, b, notice, "unreadable-notice")
	b.do(t, chromedp.EmulateViewport(1280, 800))
	accessible(t, b, "the notice of unreadable values")

	// The learner works on; the values as they were stay, apart.
	b.createTopic(t, "after", 1)
	b.waitFor(t, `(localStorage.getItem("plog.workspace") || "").includes(JSON.parse(sessionStorage.getItem("plog.tab")).id)`)
	for key, raw := range map[string]string{"plog.workspace": workspace, "plog.recent": recent} {
		if got := eval[string](t, b, fmt.Sprintf(`localStorage.getItem(%s) || ""`, js(key+".unreadable"))); got != raw {
			t.Errorf("%s.unreadable holds %q, want the value as it was, %q", key, got, raw)
		}
	}
	b.openScenarios(t)
	b.waitCount(t, ".recent li", 2)
	if got := b.recentTitles(t); fmt.Sprint(got) != "[after:1 step kept:1 step]" {
		t.Errorf("Recent lists %q, want the new scenario and the one entry it could read", got)
	}

	// Download it: the file holds the value as it was. (The panel, over
	// the page, is closed first, as the learner would.)
	b.click(t, "#scenarios-open")
	b.waitCount(t, "#scenarios-panel", 0)
	downloads := b.allowDownloads(t)
	b.mouseClick(t, `[data-download-unreadable="plog.workspace"]`)
	select {
	case file := <-downloads:
		if got, err := os.ReadFile(file); err != nil || string(got) != workspace {
			t.Errorf("the download holds %q (%v), want %q", got, err, workspace)
		}
	case <-time.After(readyTimeout):
		t.Errorf("no download within %s", readyTimeout)
	}
	b.waitText(t, notice+` [data-unreadable="plog.workspace"]`, "It was downloaded as plog-workspace-unreadable.txt.")
	b.noErrors(t)
}

// stopTheRuntime makes the page's Go program exit as it does on a fatal
// error such as running out of memory: it calls the runtime's own exit,
// runtime.wasmExit of wasm_exec.js, with exit code 2, on the page's Go
// object, which it finds among the page's objects as DevTools does. The
// page has no way in for this: the test goes through the DevTools
// protocol.
func (b *browser) stopTheRuntime(t *testing.T) {
	t.Helper()
	b.allowConsole("plog: the page stopped", "the test stops the page's program")
	ctx, cancel := context.WithTimeout(b.ctx, readyTimeout)
	defer cancel()
	proto, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "Go.prototype"})
	if err != nil || proto.ExceptionDetails != nil {
		t.Fatalf("no Go class in the page: %v %v", err, proto.ExceptionDetails)
	}
	programs, err := chromedp.Call(ctx, runtime.QueryObjects, runtime.QueryObjectsParams{PrototypeObjectID: proto.Result.ObjectID})
	if err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Call(ctx, runtime.CallFunctionOn, runtime.CallFunctionOnParams{
		ObjectID:      programs.Objects.ObjectID,
		ReturnByValue: new(true),
		FunctionDeclaration: `function () {
  if (this.length !== 1) return "the page has " + this.length + " Go programs";
  const go = this[0];
  const sp = go._inst.exports.getsp() >>> 0;
  go.mem = new DataView(go._inst.exports.mem.buffer);
  go.mem.setInt32(sp + 8, 2, true);
  go.importObject.gojs["runtime.wasmExit"](sp);
  return "";
}`})
	if err != nil || res.ExceptionDetails != nil {
		t.Fatalf("stopping the program: %v %v", err, res.ExceptionDetails)
	}
	if problem := strings.Trim(string(res.Result.Value), `"`); problem != "" {
		t.Fatalf("stopping the program: %s", problem)
	}
}

// stopAndPress stops the page's program, and presses the stopped page's
// button for action once it says so; it returns when the new page is ready.
func (b *browser) stopAndPress(t *testing.T, action string) {
	t.Helper()
	b.stopTheRuntime(t)
	b.waitText(t, `.runtime-stopped [role=alert]`, "The playground stopped")
	eval[bool](t, b, `(window.plogPageBefore = true)`)
	b.mouseClick(t, fmt.Sprintf(`[data-runtime-action=%s]`, action))
	b.waitNewPage(t)
}

// waitNewPage waits until the page has been loaded anew (by the page
// itself, or a click) and is ready: the page before it was marked.
func (b *browser) waitNewPage(t *testing.T) {
	t.Helper()
	b.waitFor(t, `!window.plogPageBefore && !!document.querySelector('main[data-ready="true"]')`)
	b.waitReady(t)
}

// The page's program stops as it would out of memory: the page says so in
// plain words over what is left of it, which no longer answers; a link
// opened in the same tab opens, on a new program; stopped again, the
// button opens the scenario saved last.
func TestUIStoppedRuntimeIsSaidAndRecovers(t *testing.T) {
	t.Parallel()
	_, b := openSavedTopic(t, "kept", 2)

	b.stopTheRuntime(t)
	alert := `.runtime-stopped [role=alert]`
	b.waitText(t, alert, "The playground stopped")
	b.waitText(t, alert, "nothing saved in this browser is lost")
	readableAtBothSizes(t, b, alert, "runtime-stopped")
	b.do(t, chromedp.EmulateViewport(1280, 800))
	accessible(t, b, "the stopped page")
	if !eval[bool](t, b, `document.querySelector("main").closest("[inert]") !== null`) {
		t.Error("what is left of the page still answers")
	}
	if problem := onScreen(t, b, "#produce-send"); !strings.HasPrefix(problem, "under ") {
		t.Errorf("a control of the stopped page is %q: want it under the notice", problem)
	}
	if got := eval[string](t, b, `document.activeElement.dataset.runtimeAction || ""`); got != "reopen" {
		t.Errorf("the focus is on %q, want the button that opens the scenario saved last", got)
	}

	// A link opened in the same tab opens.
	other := "topic other partitions=1\nproduce other key=k value=v count=3\n"
	eval[bool](t, b, `(window.plogPageBefore = true)`)
	eval[bool](t, b, fmt.Sprintf(`(location.hash = %s, true)`, js(linkOf(t, other))))
	b.waitNewPage(t)
	b.waitCount(t, "[data-topic=other] [data-offset]", 3)
	if problem := onScreen(t, b, `[data-topic=other] [data-offset="2"]`); problem != "" {
		t.Errorf("the link's last record is %s", problem)
	}
	if n := b.count(t, ".runtime-stopped"); n != 0 {
		t.Errorf("the new page says it stopped (%d notices)", n)
	}

	// Stopped on a link, pasting the same link changes no fragment: a
	// button opens it again.
	b.stopAndPress(t, "reload")
	b.waitCount(t, "[data-topic=other] [data-offset]", 3)

	// Stopped again, the button opens the scenario saved last.
	b.stopAndPress(t, "reopen")
	b.waitCount(t, "[data-topic=kept][data-partition]", 2)
	b.waitText(t, ".notice", "Welcome back")
	b.noErrors(t)
}
