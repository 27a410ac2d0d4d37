package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// A teacher opens a lesson file from Scenarios, as a scenario file opens:
// the lesson is in the dock, its title and goal where a learner reads
// them, its start on the picture, and the address holds the lesson's link
// to hand out. A lesson file with a mistake says its line and changes
// nothing.
func TestTeacherOpensALessonFile(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../core/lesson/testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.lesson")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(data), "read-all billing payments", "read-all billing", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "payments.lesson")
	if err := os.WriteFile(good, data, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)

	b.openScenarios(t)
	if accept := b.attr(t, "#open-file", "accept"); !slices.Contains(strings.Split(accept, ","), ".lesson") {
		t.Errorf("the file picker offers %q, not .lesson files", accept)
	}
	b.do(t, chromedp.SetUploadFiles(chromedp.CSS("#open-file"), []string{bad}))
	b.waitText(t, "p.alert[role=alert]", "bad.lesson is not a lesson the page can open: line 24:17: read-all needs 2 arguments")
	if b.count(t, ".lane[data-topic=orders]") != 3 {
		t.Error("a refused lesson file changed the picture")
	}

	b.do(t, chromedp.SetUploadFiles(chromedp.CSS("#open-file"), []string{good}))
	b.waitCount(t, `[data-lesson-panel][data-lesson="payments-in-order"]`, 1)
	b.waitCount(t, ".lane[data-topic=payments]", 3)
	b.click(t, "#scenarios-open") // the learner closes the panel
	b.waitCount(t, "#scenarios-panel", 0)
	for _, selector := range []string{"#lesson-title", "[data-lesson-panel] .lesson-goal"} {
		if problem := onScreen(t, b, selector); problem != "" {
			t.Errorf("the lesson's %s is %s", selector, problem)
		}
	}
	b.waitFor(t, `location.hash.includes("lesson=v1.")`)
}
