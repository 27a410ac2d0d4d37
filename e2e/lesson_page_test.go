package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/chromedp/chromedp"
)

// The lessons' browser tests open lessons as a learner does, from a deep
// link and from the lesson list, act through the page's controls, and read
// the lesson panel back through its data attributes.

// panel is the selector of a lesson's panel.
func panel(name string) string {
	return fmt.Sprintf(`[data-lesson-panel][data-lesson=%s]`, js(name))
}

// lessonResult is what Check says after the lesson's start and lines.
func lessonResult(t *testing.T, l lesson.Lesson, lines ...string) lesson.Result {
	t.Helper()
	s, err := l.Attempt(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatalf("lesson %s: attempt %q: %v", l.Name, lines, err)
	}
	return l.Check(s)
}

// waitProgress waits until the lesson panel shows a progress sentence (its
// backquoted spans are shown as code, without the backquotes).
func (b *browser) waitProgress(t *testing.T, name, progress string) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`%s === %s`, progressText(name), js(strings.ReplaceAll(progress, "`", ""))))
}

// progressText is a script for the text of a lesson's progress line as
// its words read: a control it names is its label, without the button's
// mark.
func progressText(name string) string {
	return fmt.Sprintf(`(() => { const el = document.querySelector(%s);
		if (!el) return undefined;
		const words = el.cloneNode(true);
		words.querySelectorAll(".control-ref-mark").forEach(mark => mark.remove());
		return words.textContent })()`, js(panel(name)+" [data-lesson-progress]"))
}

// A learner opens key-order from its link, reads it, asks for hints, and
// solves it through the produce form; the page checks the goal after every
// action, announces the solution, keeps the lesson in the URL and
// remembers the solved lesson after a reload.
func TestLessonSolvedThroughTheControls(t *testing.T) {
	t.Parallel()
	l, err := lesson.Find("key-order")
	if err != nil {
		t.Fatal(err)
	}
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL+"#lesson=key-order")

	b.waitCount(t, panel("key-order"), 1)
	if got := b.attr(t, panel("key-order"), "data-solved"); got != "false" {
		t.Errorf("data-solved = %q at the start, want false", got)
	}
	checkLessonLanes(t, b, l.Script)
	if text := b.text(t, panel("key-order")); !strings.Contains(text, l.Title) || !strings.Contains(text, l.Goal) {
		t.Errorf("the panel shows %q: want the title and goal", text)
	}
	if n := b.count(t, panel("key-order")+" .lesson-text p"); n != len(l.Text) {
		t.Errorf("%d paragraphs shown, want %d", n, len(l.Text))
	}
	b.waitProgress(t, "key-order", lessonResult(t, l).Progress)

	// Hints unlock one at a time.
	for i := range l.Hints {
		if n := b.count(t, "[data-hint]"); n != i {
			t.Fatalf("%d hints shown before asking for hint %d", n, i)
		}
		b.click(t, "#lesson-hint")
		b.waitCount(t, fmt.Sprintf(`[data-hint="%d"]`, i), 1)
	}
	if b.count(t, "#lesson-hint") != 0 {
		t.Error("the button offers another hint after the last one")
	}
	if n := b.count(t, panel("key-order")+" [data-hint] code"); n == 0 {
		t.Error("the hints' commands are not shown as code")
	}

	// The reference solution through the produce form, checked after
	// every line.
	values := []string{"created", "updated", "shipped"}
	for i, v := range values {
		b.fill(t, "#produce-key", "acct-1")
		b.fill(t, "#produce-value", v)
		b.click(t, "#produce-send")
		var done []string
		for _, w := range values[:i+1] {
			done = append(done, "produce orders key=acct-1 value="+w)
		}
		want := lessonResult(t, l, done...)
		b.waitProgress(t, "key-order", want.Progress)
		if solved := b.attr(t, panel("key-order"), "data-solved"); solved != fmt.Sprint(want.Solved) {
			t.Errorf("after %s, data-solved = %s, want %v", v, solved, want.Solved)
		}
	}
	b.waitText(t, panel("key-order")+" [role=status][aria-live]", "Solved!")
	b.waitFor(t, `location.hash.endsWith("&lesson=key-order") && location.hash.startsWith("#v1.")`)
	b.waitFor(t, `document.querySelector('[data-lesson-list] [data-lesson="key-order"]').dataset.solved === "true"`)

	// Undo takes the solution back.
	b.click(t, "#undo")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.solved === "false"`, js(panel("key-order"))))
	if got := b.text(t, panel("key-order")+" [role=status]"); got != "" {
		t.Errorf("the announcement still says %q after undo", got)
	}
	b.click(t, "#redo")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.solved === "true"`, js(panel("key-order"))))

	// A reload keeps the lesson (from the URL), the hints shown and the
	// solved mark (from storage). The URL is written a moment after the
	// redo: until then it holds the undone position (at=).
	b.waitFor(t, `location.hash.endsWith("&lesson=key-order") && !location.hash.includes("&at=")`)
	// The URL follows a moment after each step: on a busy machine the hash
	// above could still be the one written after the first produce, never
	// replaced before the undo. Wait until it holds every step.
	steps := func() int {
		f, err := scenario.ParseFragment(b.fragment(t))
		if err != nil || f.Link == "" {
			return -1
		}
		script, err := scenario.DecodeLink(f.Link)
		if err != nil {
			return -1
		}
		cmds, err := scenario.Parse(script)
		if err != nil {
			return -1
		}
		return len(cmds)
	}
	startCmds, err := scenario.Parse(l.Script)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(readyTimeout)
	for steps() < len(startCmds)+len(values) {
		if time.Now().After(deadline) {
			t.Fatalf("the URL never held the %d steps: %s", len(startCmds)+len(values), b.fragment(t))
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.reload(t)
	if !b.eventually(fmt.Sprintf(`document.querySelectorAll(%s).length === 1`, js(panel("key-order")+`[data-solved="true"]`))) {
		t.Fatalf("after a reload the lesson is not solved: the page is at %s, its progress says %q, its timeline is at %s",
			eval[string](t, b, `location.hash`), b.text(t, panel("key-order")+" [data-lesson-progress]"),
			eval[string](t, b, `(d => d ? d.position + "/" + d.length : "none")((document.querySelector("[data-timeline]") || {}).dataset)`))
	}
	if n := b.count(t, "[data-hint]"); n != len(l.Hints) {
		t.Errorf("after a reload %d hints are shown, want the %d unlocked", n, len(l.Hints))
	}
	if got := b.attr(t, `[data-lesson-list] [data-lesson="key-order"]`, "data-solved"); got != "true" {
		t.Errorf("after a reload the list marks key-order solved = %q", got)
	}
	b.noErrors(t)
}

// Every lesson opened from a link holding its reference solution is solved
// at once; from a link holding its wrong attempt it is not. The links are
// pasted into one open page, as a learner following links does.
func TestLessonLinksOfSolutionsAndWrongAttempts(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL)
	for _, l := range lesson.All() {
		for _, c := range []struct {
			lines  string
			solved bool
		}{{l.Solution, true}, {l.WrongAttempts[0], false}} {
			// The link the page makes, with its rules line: a lesson runs
			// under the latest rules, and a link without one opens under
			// rules 1.
			link, err := scenario.EncodeLink(l.Script + c.lines)
			if err != nil {
				t.Fatal(err)
			}
			fragment := "#" + link + "&lesson=" + l.Name
			eval[bool](t, b, fmt.Sprintf(`(location.hash = %s, true)`, js(fragment)))
			b.waitFor(t, fmt.Sprintf(`location.hash === %s && !!document.querySelector(%s)`,
				js(fragment), js(panel(l.Name)+fmt.Sprintf(`[data-solved="%v"]`, c.solved))))
			want := lessonResult(t, l, c.lines)
			if want.Solved != c.solved {
				t.Fatalf("%s: Check says %+v", l.Name, want)
			}
			b.waitProgress(t, l.Name, want.Progress)
			announced := strings.Contains(b.text(t, "[role=status]"), "Solved!")
			if announced != c.solved {
				t.Errorf("%s (solved %v): announced %v", l.Name, c.solved, announced)
			}
		}
	}
	if n := b.count(t, "[role=alert]:not(:empty)"); n != 0 {
		t.Errorf("%d alerts: %s", n, b.text(t, "[role=alert]"))
	}
	b.noErrors(t)
}

// The lesson list links to every lesson; following a link opens the lesson
// at its start. An unknown lesson's link says so in an alert and leaves the
// page working; embed=1 opens a lesson too.
func TestLessonListUnknownLessonAndEmbed(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL)

	var hrefs []string
	for _, name := range lesson.Names() {
		hrefs = append(hrefs, "#lesson="+name)
	}
	got := eval[[]string](t, b, `[...document.querySelectorAll("[data-lesson-list] [data-lesson] a")].map(a => a.getAttribute("href"))`)
	if strings.Join(got, " ") != strings.Join(hrefs, " ") {
		t.Errorf("the list links to %v, want %v", got, hrefs)
	}

	// The learner scrolls down the stage to the list, and picks a lesson:
	// its picture shows from the top.
	third := lesson.All()[2]
	eval[bool](t, b, fmt.Sprintf(`(document.querySelector(%s).scrollIntoView({block: "end"}), true)`, js(fmt.Sprintf(`[data-lesson-list] [data-lesson=%s] a`, js(third.Name)))))
	b.click(t, fmt.Sprintf(`[data-lesson-list] [data-lesson=%s] a`, js(third.Name)))
	b.waitCount(t, panel(third.Name), 1)
	b.waitFor(t, fmt.Sprintf(`location.hash === %s`, js("#lesson="+third.Name)))
	checkLessonLanes(t, b, third.Script)
	b.waitProgress(t, third.Name, lessonResult(t, third).Progress)
	b.waitFor(t, `document.querySelector(".stage").scrollTop === 0`)
	if where := onScreen(t, b, ".lane[data-topic]"); where != "" {
		t.Errorf("the lesson opened from the list, its first lane is %s", where)
	}

	// In a lesson the list is folded; the masthead's button unfolds it.
	if eval[bool](t, b, `document.querySelector("[data-lesson-list] details").open`) {
		t.Error("the lesson list stays unfolded in a lesson")
	}
	b.click(t, "#lessons-open")
	b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)

	// An unknown lesson: Find's error, and a page that still works.
	_, findErr := lesson.Find("key-ordr")
	eval[bool](t, b, `(location.hash = "#lesson=key-ordr", true)`)
	b.waitText(t, "[role=alert]", findErr.Error())
	if b.count(t, "[data-lesson-panel]") != 0 {
		t.Error("a lesson panel is shown for an unknown lesson")
	}
	b.fill(t, "#topic-name", "orders")
	b.fill(t, "#topic-partitions", "2")
	b.click(t, "#topic-create")
	b.waitCount(t, `[data-topic=orders][data-partition]`, 2)

	// Embedded: the lesson opens from its start, in a page loaded afresh.
	b.do(t, chromedp.Navigate("about:blank"))
	b.open(t, s.URL+"#lesson=key-order&embed=1")
	b.waitCount(t, panel("key-order"), 1)
	checkLessonLanes(t, b, lesson.All()[0].Script)
	if b.count(t, "[data-lesson-list], #lessons-open") != 0 || b.count(t, panel("key-order")+" details.lesson-text") != 1 {
		t.Error("embedded, want the explanation folded and no lesson list")
	}
	b.noErrors(t)
}
