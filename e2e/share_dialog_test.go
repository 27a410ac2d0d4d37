package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"plog/core"
	"plog/core/scenario"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The share dialog, files, and autosave, as a learner uses them.

// beforeEachPage runs a script in every page the browser opens from now
// on, before the page's own scripts.
func (b *browser) beforeEachPage(t *testing.T, script string) {
	t.Helper()
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		t.Fatal(err)
	}
}

// mouseClick clicks with the mouse, as a learner does: the page gets a user
// gesture, which the clipboard asks for.
func (b *browser) mouseClick(t *testing.T, selector string) {
	t.Helper()
	b.do(t, chromedp.Click(chromedp.CSS(selector)))
}

// openShareDialog opens the share dialog and waits for it.
func (b *browser) openShareDialog(t *testing.T) {
	t.Helper()
	b.click(t, "#share-open")
	b.waitCount(t, "#share-dialog", 1)
}

// openScenarios opens the Scenarios panel, unless it is open, and waits
// for it. (Opening a scenario from it closes it.)
func (b *browser) openScenarios(t *testing.T) {
	t.Helper()
	if b.count(t, "#scenarios-panel") == 0 {
		b.click(t, "#scenarios-open")
	}
	b.waitCount(t, "#scenarios-panel", 1)
}

func TestShareCopiesTheLink(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	// A Chromium of its own: permissions belong to the whole browser.
	b := newBrowserProcess(t)
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
			Permission: &cdpbrowser.PermissionDescriptor{Name: name},
			Setting:    cdpbrowser.PermissionSettingGranted,
		}); err != nil {
			t.Fatal(err)
		}
	}
	// A link as the page writes it today, its rules line out: the
	// scenario was made under rules 1.
	b.open(t, srv.URL+latestLinkOf(t, strings.Replace(ordersScenario, "seed 42\n", "seed 42\nrules 1\n", 1)))
	b.openShareDialog(t)

	link := eval[string](t, b, `document.getElementById("share-link").value`)
	if want := eval[string](t, b, `location.href`); link != want {
		t.Errorf("the dialog offers %q, want the page's URL %q", link, want)
	}
	if b.attr(t, "#share-dialog", "data-too-long") != "false" {
		t.Error("a short link is called too long")
	}
	b.mouseClick(t, "#copy-link")
	b.waitText(t, "#share-link-status", "Copied.")
	if got := eval[string](t, b, `navigator.clipboard.readText()`); got != link {
		t.Errorf("the clipboard holds %q, want %q", got, link)
	}

	// The iframe snippet, and its read-only variant.
	snippet := eval[string](t, b, `document.getElementById("embed-snippet").value`)
	if !strings.HasPrefix(snippet, `<iframe src="`+strings.ReplaceAll(link, "&", "&amp;")+`&amp;embed=1"`) || !strings.Contains(snippet, `width="640" height="400"`) ||
		!strings.Contains(snippet, `allow="clipboard-write"`) {
		t.Errorf("snippet %q, want an iframe of the link with embed=1, 640×400, allowed to write the clipboard", snippet)
	}
	b.click(t, "#embed-readonly")
	b.waitFor(t, `document.getElementById("embed-snippet").value.includes("&amp;embed=1&amp;readonly=1")`)
	b.noErrors(t)
}

func TestShareWithoutClipboardSelectsTheLink(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	// As on an insecure address: no clipboard at all.
	b.beforeEachPage(t, `Object.defineProperty(Navigator.prototype, "clipboard", {get: () => undefined, configurable: true})`)
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	b.openShareDialog(t)
	b.mouseClick(t, "#copy-link")
	b.waitText(t, "#share-link-status", "press Ctrl+C")
	selected := eval[bool](t, b, `(() => { const f = document.getElementById("share-link");
		return document.activeElement === f && f.selectionStart === 0 && f.selectionEnd === f.value.length && f.value.length > 0 })()`)
	if !selected {
		t.Error("the link is not selected for copying by hand")
	}
	b.noErrors(t)
}

// longScenario makes a scenario whose link is well above 8 KB: keys that
// do not compress.
func longScenario() string {
	var s strings.Builder
	s.WriteString("topic hashes partitions=2\n")
	for i := range 400 {
		sum := sha256.Sum256([]byte(fmt.Sprint(i)))
		fmt.Fprintf(&s, "produce hashes key=%s value=v\n", hex.EncodeToString(sum[:]))
	}
	return s.String()
}

// allowDownloads saves the page's downloads into a directory and returns a
// channel of each completed download's path.
func (b *browser) allowDownloads(t *testing.T) <-chan string {
	t.Helper()
	dir := t.TempDir()
	if _, err := chromedp.CallBrowser(b.ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
		Behavior:      cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName,
		DownloadPath:  dir,
		EventsEnabled: new(true),
	}); err != nil {
		t.Fatal(err)
	}
	done := make(chan string, 4)
	go func() {
		for ev, err := range chromedp.BrowserEvents(b.ctx, cdpbrowser.DownloadProgress) {
			if err != nil {
				return
			}
			if ev.State == cdpbrowser.DownloadProgressStateCompleted {
				done <- filepath.Join(dir, ev.GUID)
			}
		}
	}()
	return done
}

func TestShareTooLongOffersAFileThatOpensAgain(t *testing.T) {
	t.Parallel()
	script := longScenario()
	srv := startPlogServer(t, build.rootSite, "/")
	// A Chromium of its own: downloads belong to the whole browser.
	b := newBrowserProcess(t)
	downloads := b.allowDownloads(t)
	b.open(t, srv.URL+linkOf(t, script))
	b.openShareDialog(t)
	if b.attr(t, "#share-dialog", "data-too-long") != "true" {
		t.Fatalf("a %s-byte fragment is not called too long", b.attr(t, "#share-dialog", "data-fragment-bytes"))
	}
	b.waitText(t, ".too-long", "above 8 KB")

	b.click(t, "#download-plog")
	var path string
	select {
	case path = <-downloads:
	case <-time.After(readyTimeout):
		t.Fatal("no download completed")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	file := string(data)
	if !strings.HasPrefix(file, "# A plog scenario") {
		t.Errorf("the file starts %.60q, want the plog comment", file)
	}
	s, err := scenario.Load(file)
	if err != nil {
		t.Fatalf("the downloaded file does not load: %v", err)
	}
	native, _ := scenario.Load(script)
	if fmt.Sprint(s.Lines()) != fmt.Sprint(native.Lines()) || s.Rules() != core.RulesV1 {
		t.Errorf("the downloaded file holds another scenario, or other rules than the old link's 1: rules %d", s.Rules())
	}

	// A new scenario, then the file picked: the scenario is back.
	b.startEmpty(t)
	b.openScenarios(t)
	b.do(t, chromedp.SetUploadFiles(chromedp.CSS("#open-file"), []string{path}))
	b.waitCount(t, "[data-topic=hashes][data-partition]", 2)
	sameLanes(t, "picked file", lanesOnPage(t, b), lanesOfScript(t, script))
	b.waitFor(t, `location.hash.startsWith("#v1.")`)

	// A file dropped on the page opens too.
	dropped := "topic dropped partitions=3\nproduce dropped key=k value=v count=2\n"
	b.dropFile(t, "dropped.plog", dropped)
	b.waitCount(t, "[data-topic=dropped][data-partition]", 3)
	checkLanes(t, b, dropped)

	// A file that is no scenario says so and changes nothing: the page's
	// alert takes its own place, and the workspace stays the element it
	// was (go-app would have made it anew had the alert shifted it).
	eval[bool](t, b, `(document.getElementById("workspace").plogKept = true)`)
	eval[bool](t, b, `(() => {
		const dt = new DataTransfer();
		dt.items.add(new File(["<b>not</b> a scenario\n"], "notes.plog"));
		document.body.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
		return true })()`)
	b.waitText(t, "main > [role=alert]", "notes.plog")
	if !eval[bool](t, b, `document.getElementById("workspace").plogKept === true`) {
		t.Error("the page's alert made the workspace anew")
	}
	b.noErrors(t)
}

func TestAutosaveReopensTheWorkspaceAndListsRecentOnes(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)
	b.startEmpty(t)
	b.createTopic(t, "orders", 2)
	b.waitFor(t, `(localStorage.getItem("plog.workspace") || "").includes("v1.")`)

	// Opened with no link, the page reopens where the learner was.
	b.reopen(t, srv.URL)
	b.waitCount(t, "[data-topic=orders][data-partition]", 2)
	b.waitText(t, ".notice", "Welcome back")
	if !strings.HasPrefix(eval[string](t, b, `location.hash`), "#v1.") {
		t.Error("the reopened workspace is not in the URL")
	}

	// A new scenario; both are in the recent list, and the first opens again.
	b.startEmpty(t)
	b.createTopic(t, "payments", 1)
	b.openScenarios(t)
	b.waitCount(t, ".recent li", 2)
	if got := eval[string](t, b, `Array.from(document.querySelectorAll(".recent-open")).map(el => el.textContent).join(",")`); got != "payments,orders" {
		t.Errorf("recent list %q, want payments,orders", got)
	}
	b.click(t, `.recent li:nth-child(2) .recent-open`)
	b.waitCount(t, "[data-topic=orders][data-partition]", 2)
	b.waitCount(t, "[data-topic=payments]", 0)
	b.noErrors(t)
}

func TestFullStorageIsToldOnce(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	// Every save fails, and counts itself in plogSaves.
	b.beforeEachPage(t, `window.plogSaves = 0; Storage.prototype.setItem = function () {
		window.plogSaves++;
		throw new DOMException("Setting the value exceeded the quota.", "QuotaExceededError") }`)
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	b.createTopic(t, "first", 1)
	b.waitText(t, ".notice", "full")
	b.click(t, "#notice-dismiss")
	b.waitCount(t, ".notice", 0)
	// Each topic's debounced save is tried, and fails again.
	for _, topic := range []string{"second", "third"} {
		saves := eval[int](t, b, `window.plogSaves`)
		b.createTopic(t, topic, 1)
		b.waitFor(t, fmt.Sprintf(`window.plogSaves > %d`, saves))
	}
	// A click the page handles after the failed save: once it shows, the
	// page has drawn whatever the save's failure made it say.
	b.click(t, `[data-help] button[aria-expanded=false]`)
	b.waitCount(t, `[data-help] button[aria-expanded=true]`, 1)
	if n := b.count(t, ".notice"); n != 0 {
		t.Errorf("the page told again that storage is full: %q", b.text(t, ".notice"))
	}
	if alert := b.text(t, "main > [role=alert]"); alert != "" {
		t.Errorf("a full storage raised an alert: %q", alert)
	}
}

// The share dialog, the scenarios panel and the embedded page have no
// serious or critical accessibility violation.
func TestShareAndEmbedAreAccessible(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	b.createTopic(t, "recent", 1) // something in the recent list
	b.waitFor(t, `(localStorage.getItem("plog.recent") || "").includes("recent")`)
	check := func(what string) {
		t.Helper()
		for _, v := range runAxe(t, b) {
			t.Errorf("%s: %s (%s): %s at %s", what, v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
		}
	}
	b.openShareDialog(t)
	b.mouseClick(t, "#copy-link") // shows a status, whatever the clipboard does
	b.waitFor(t, `document.getElementById("share-link-status").textContent !== ""`)
	check("share dialog")
	b.openScenarios(t)
	b.waitCount(t, ".recent li", 1)
	check("scenarios panel")
	b.reopen(t, srv.URL+linkOf(t, ordersScenario)+"&at=3&embed=1&readonly=1")
	check("embedded read-only page")
}

// Share and Scenarios each close with a ✕ of their own, which stays in
// sight as the panel scrolls: on a phone the Share panel is taller than
// the screen, and the button that opened it scrolls away.
func TestPanelsCloseWithTheirOwnButton(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
		b.do(t, chromedp.EmulateViewport(size[0], size[1]))
		for _, panel := range []struct{ open, id, close string }{
			{"#share-open", "#share-dialog", "#share-close"},
			{"#scenarios-open", "#scenarios-panel", "#scenarios-close"},
		} {
			b.click(t, panel.open)
			b.waitCount(t, panel.id, 1)
			// Scrolled to its end, as a learner reads it through.
			eval[bool](t, b, `(() => { const p = document.querySelector(`+js(panel.id)+`); p.scrollTop = p.scrollHeight; return true })()`)
			if where := onScreen(t, b, panel.close); where != "" {
				t.Errorf("%dx%d: %s's close button is %s", size[0], size[1], panel.id, where)
				continue
			}
			// Its last control is in reach at the end of its scroll.
			if bottom := eval[float64](t, b, `(() => { const all = document.querySelectorAll(`+js(panel.id+" :is(button, input, select, textarea)")+`);
				return all[all.length - 1].getBoundingClientRect().bottom })()`); bottom > float64(size[1]) {
				t.Errorf("%dx%d: %s scrolled to its end, its last control ends at %.0f px, below the window", size[0], size[1], panel.id, bottom)
			}
			b.mouseClick(t, panel.close)
			b.waitCount(t, panel.id, 0)
			if got := b.attr(t, panel.open, "aria-expanded"); got != "false" {
				t.Errorf("%dx%d: closed, %s still says aria-expanded=%s", size[0], size[1], panel.open, got)
			}
		}
	}
}
