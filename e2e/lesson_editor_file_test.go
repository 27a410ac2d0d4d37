package e2e

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"plog/core/lesson"

	"github.com/chromedp/chromedp"
)

// A teacher opens a lesson file in the lesson editor, saves it unchanged
// (the very bytes come back), adds a second wrong attempt in a field of its
// own, previews it, and saves it again: the file now has both wrong
// attempts, and the rest of it is as it was.
func TestTeacherEditsALessonFileInThePage(t *testing.T) {
	t.Parallel()
	example, err := os.ReadFile("../core/lesson/testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "payments.lesson")
	if err := os.WriteFile(path, example, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowserProcess(t) // downloads belong to the whole browser
	downloads := b.allowDownloads(t)
	b.open(t, srv.URL)
	b.openShareDialog(t)
	b.click(t, "#lesson-editor-open")
	b.waitCount(t, "[data-lesson-editor][data-loaded=true]", 1)
	// It opens in view, not under the Share panel, which closes.
	b.waitCount(t, "#share-dialog", 0)
	b.waitFor(t, `(() => { const r = document.querySelector("#lesson-editor-heading").getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight })()`)
	if problem := onScreen(t, b, "#lesson-editor-heading"); problem != "" {
		t.Errorf("the editor's heading is %s", problem)
	}

	b.do(t, chromedp.SetUploadFiles(chromedp.CSS("#lesson-editor-open-file"), []string{path}))
	b.waitFor(t, `document.querySelector("#lesson-editor-title").value === "Keep a customer's payments in order"`)
	b.waitText(t, "[data-lesson-file-status]", "Opened payments.lesson")
	if got := eval[string](t, b, `document.querySelector("#lesson-editor-name").value`); got != "payments-in-order" {
		t.Errorf("the name field shows %q", got)
	}

	if got := b.text(t, "#lesson-editor-save"); got != "Save as payments-in-order.lesson" {
		t.Errorf("the save button says %q", got)
	}
	saved := func() string {
		t.Helper()
		b.click(t, "#lesson-editor-save")
		select {
		case p := <-downloads:
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			return string(data)
		case <-time.After(readyTimeout):
			t.Fatal("the lesson file did not download")
			return ""
		}
	}
	if got := saved(); got != string(example) {
		t.Fatalf("saved unchanged, the file differs:\n%s", got)
	}

	b.click(t, "#lesson-editor-add-wrong")
	b.waitFor(t, `document.activeElement && document.activeElement.id === "lesson-editor-wrong-2"`)
	if problem := onScreen(t, b, `label[for="lesson-editor-wrong-2"]`); problem != "" {
		t.Errorf("the second wrong attempt's label is %s", problem)
	}
	const second = "produce payments key=cust-7 value=authorised\npoll billing b1\ncommit billing b1"
	b.fill(t, "#lesson-editor-wrong-2", second)
	b.click(t, "#lesson-editor-preview")
	b.waitCount(t, `[data-lesson-preview][data-state="ok"]`, 1)
	// Preview checks the lesson as plogsim lesson check does, in view.
	b.waitCount(t, `[data-lesson-check] [data-ok="true"], [data-lesson-check] [data-ok=""]`, 5)
	if problem := onScreenSoon(t, b, "[data-lesson-check] h3"); problem != "" {
		t.Errorf("the lesson's check, after Preview, is %s", problem)
	}

	text := saved()
	l, err := lesson.Parse("payments.lesson", text)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.WrongAttempts) != 2 || l.WrongAttempts[1] != second+"\n" || text[:len(example)] != string(example) {
		t.Errorf("saved with a second wrong attempt:\n%s", text)
	}
	b.noErrors(t)
}

// A teacher types quickly in the editor's fields: every space and line
// break stays, in the field and in the lesson file, though each keystroke
// rewrites the draft.
func TestTeacherTypesFastInTheLessonEditor(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)
	b.openShareDialog(t)
	b.click(t, "#lesson-editor-open")
	b.waitCount(t, "[data-lesson-editor][data-loaded=true]", 1)
	const typed = "records-at-least orders 2\nlag-at-most billing 0 topic=orders\nread-all billing orders"
	b.do(t, chromedp.SendKeys(chromedp.CSS("#lesson-editor-check"), typed))
	b.do(t, chromedp.SendKeys(chromedp.CSS("#lesson-editor-title"), "Two orders, read and committed"))
	b.waitFor(t, `document.querySelector("#lesson-editor-check").value === `+js(typed))
	b.waitFor(t, `document.querySelector("#lesson-editor-title").value === "Two orders, read and committed"`)
	b.waitFor(t, `document.querySelector("#lesson-editor-file").value.includes(`+js("## check\n"+typed+"\n")+`)`)

	// Under the check, every check and expect's functions, unfolded.
	b.mouseClick(t, "#lesson-editor-checks summary") // scrolled to, as a teacher does
	b.waitText(t, "#lesson-editor-checks", "expect VALUE COMPARISON VALUE")
	if problem := onScreen(t, b, "#lesson-editor-checks dt"); problem != "" {
		t.Errorf("the first check listed is %s", problem)
	}
}
