package e2e

import (
	"fmt"
	"strings"
	"testing"

	"plog/core/scenario"

	"github.com/chromedp/chromedp"
)

// The page's URL is its scenario: these tests read it back, reopen it, and
// check the state against the engine run natively.

// lanesAtStep runs the first at commands of a script natively, for the
// state a page opened with at= must show.
func lanesAtStep(t *testing.T, script string, at int) []lane {
	t.Helper()
	cmds, err := scenario.Parse(script)
	if err != nil {
		t.Fatal(err)
	}
	return lanesOfScript(t, scenario.Format(cmds[:at]))
}

// checkLanesAt fails the test unless the page shows the state after the
// first at commands of the script.
func checkLanesAt(t *testing.T, b *browser, script string, at int) {
	t.Helper()
	want := lanesAtStep(t, script, at)
	got := lanesOnPage(t, b)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("lanes on the page:\n%+v\nwant (the first %d commands run natively):\n%+v", got, at, want)
	}
}

// fragment is the page's URL fragment, without '#'.
func (b *browser) fragment(t *testing.T) string {
	t.Helper()
	return strings.TrimPrefix(eval[string](t, b, `location.hash`), "#")
}

// position is the timeline's position and length, as "3/9".
func (b *browser) position(t *testing.T) string {
	t.Helper()
	return b.attr(t, ".timeline", "data-position") + "/" + b.steps(t)
}

// reopen loads url in the same browser as a fresh page: through a blank
// page, so that a fragment alone does not make a mere hash change.
func (b *browser) reopen(t *testing.T, url string) {
	t.Helper()
	b.do(t, chromedp.Navigate("about:blank"))
	b.open(t, url)
}

func TestShareURLKeepsHistoryPositionAndOptions(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario))
	steps := len(strings.Split(strings.TrimSpace(ordersScenario), "\n"))

	// Going back in the timeline: the URL says at=3, and still holds every step.
	b.click(t, `.script-line[data-step="3"]`)
	b.waitFor(t, `location.hash.endsWith("&at=3")`)
	f, err := scenario.ParseFragment(b.fragment(t))
	if err != nil {
		t.Fatal(err)
	}
	script, err := scenario.DecodeLink(f.Link)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(strings.Split(withoutRules(script), "\n")); n != steps {
		t.Errorf("the link holds %d steps, want all %d", n, steps)
	}
	if got := eval[int](t, b, `history.length`); got != 2 {
		t.Errorf("history.length = %d: the URL updates must replace the history entry, not add one", got)
	}

	// The link reopens the same state and the same history.
	url := eval[string](t, b, `location.href`)
	b.reopen(t, url)
	entries := eval[int](t, b, `history.length`)
	if got, want := b.position(t), fmt.Sprintf("3/%d", steps); got != want {
		t.Errorf("reopened at %s, want %s", got, want)
	}
	checkLanesAt(t, b, ordersScenario, 3)
	b.click(t, "#redo")
	b.waitFor(t, `document.querySelector(".timeline").dataset.position === "4"`)
	checkLanesAt(t, b, ordersScenario, 4)

	// A command after going back writes the new history.
	b.fill(t, "#topic-name", "later")
	b.fill(t, "#topic-partitions", "1")
	b.click(t, "#topic-create")
	b.waitCount(t, `[data-topic=later][data-partition]`, 1)
	b.waitFor(t, `!location.hash.includes("&at=")`)
	if got := eval[int](t, b, `history.length`); got != entries {
		t.Errorf("history.length = %d after commands, want %d: they must replace the page's entry", got, entries)
	}
	b.noErrors(t)
}

func TestShareURLOpensEmbeddedReadOnly(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+linkOf(t, ordersScenario)+"&at=2&embed=1&readonly=1")

	if got := b.attr(t, "main", "data-readonly"); got != "true" {
		t.Fatalf("main[data-readonly] = %q, want true", got)
	}
	if n := eval[int](t, b, `Array.from(document.querySelectorAll("input:not([type=range]), select, textarea, form button")).filter(el => el.offsetParent !== null).length`); n != 0 {
		t.Errorf("a read-only page shows %d editing controls", n)
	}
	checkLanesAt(t, b, ordersScenario, 2)
	b.click(t, "#embed-step")
	b.waitFor(t, `document.querySelector(".embed-position").dataset.position === "3"`)
	checkLanesAt(t, b, ordersScenario, 3)
	b.waitFor(t, `location.hash.endsWith("&at=3&embed=1&readonly=1")`)

	// The shortcut that would add a step is refused, and says why.
	b.press(t, "s")
	b.waitText(t, `[data-control=shortcuts][role=alert]`, "read-only")
	if got := b.attr(t, ".embed-position", "data-length"); got != "9" {
		t.Errorf("the read-only page has %s steps after a refused edit, want 9", got)
	}

	// Play walks the rest of the script, replacing nothing.
	b.click(t, "#embed-play")
	b.waitFor(t, `document.querySelector(".embed-position").dataset.position === "9"`)
	// At the end it stops: a read-only page adds no step.
	b.waitFor(t, `document.querySelector("#embed-play").getAttribute("aria-pressed") === "false"`)
	if got := b.attr(t, ".embed-position", "data-length"); got != "9" {
		t.Errorf("after playing to the end the script has %s steps, want its 9", got)
	}
	for b.attr(t, ".embed-position", "data-position") != "3" {
		before := b.attr(t, ".embed-position", "data-position")
		b.click(t, "#embed-back")
		b.waitFor(t, `document.querySelector(".embed-position").dataset.position !== `+js(before))
	}
	b.waitFor(t, `location.hash.endsWith("&at=3&embed=1&readonly=1")`)

	full := b.attr(t, "#open-full", "data-href")
	if !strings.HasPrefix(full, srv.URL+"#v1.") || !strings.HasSuffix(full, "&at=3") {
		t.Errorf("the full playground link is %q, want this scenario at step 3 without embed options", full)
	}
	b.noErrors(t)
}
