package e2e

import (
	"strings"
	"testing"

	"plog/core/scenario"
)

// A teacher makes a lesson in the page: a scenario built with the page's
// forms, then Make a lesson, the fields typed in, a preview that first
// shows an error in its field and then the lesson as the learner will see
// it, a reload that keeps the draft, and the lesson's link. A learner opens
// the link in a fresh browser and solves the lesson with the page's
// controls.
func TestTeacherWritesALessonAndALearnerSolvesItsLink(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL)
	b.startEmpty(t)
	b.createTopic(t, "orders", 2)

	b.click(t, "#share-open") // the Share dialog offers it
	b.waitCount(t, "#lesson-editor-open", 1)
	b.click(t, "#lesson-editor-open")
	b.waitCount(t, "[data-lesson-editor]", 1)
	b.waitFor(t, `document.querySelector("#lesson-editor-start").value.includes("topic orders partitions=2")`)
	const title = "Two orders <b>now</b>"
	b.fill(t, "#lesson-editor-title", title)
	b.fill(t, "#lesson-editor-goal", "Produce two records to `orders`.")
	b.fill(t, "#lesson-editor-text", "A *topic* keeps records.\n\nRead [the docs](https://kafka.apache.org/documentation/).")
	b.fill(t, "#lesson-editor-check", "records-at-least orders")
	b.fill(t, "#lesson-editor-hints", "Use the Produce form.\nPress Produce twice.")
	b.click(t, "#lesson-editor-preview")
	b.waitCount(t, `[data-lesson-preview][data-state="error"]`, 1)
	if msg := b.text(t, `[data-field-error="check"]`); !strings.HasPrefix(msg, "Check, line 1: records-at-least needs 2 arguments") ||
		!strings.Contains(msg, "of the lesson file") {
		t.Errorf("the check's error says %q", msg)
	}
	b.fill(t, "#lesson-editor-check", "records-at-least orders 2")

	// The draft outlives a reload.
	b.reload(t)
	b.click(t, "#lesson-editor-open-list") // and the list of lessons
	b.waitFor(t, `document.querySelector("#lesson-editor-title") && document.querySelector("#lesson-editor-title").value === `+js(title)+
		` && document.querySelector("#lesson-editor-check").value === "records-at-least orders 2"`)

	b.click(t, "#lesson-editor-preview")
	b.waitCount(t, `[data-lesson-preview][data-state="ok"]`, 1)
	preview := "[data-lesson-preview] [data-lesson-preview-panel]"
	if got := b.text(t, preview+" h2"); got != title {
		t.Errorf("the preview's title is %q", got)
	}
	if b.count(t, preview+" em") != 1 || b.count(t, preview+" b") != 0 || b.count(t, preview+" [data-hint]") != 2 {
		t.Errorf("the preview does not show the lesson as written: %s", b.text(t, preview))
	}
	if got := b.attr(t, preview+" a[data-lesson-link]", "rel"); got != "noopener noreferrer" ||
		b.attr(t, preview+" a[data-lesson-link]", "target") != "_blank" {
		t.Errorf("the lesson's link has rel %q", got)
	}
	// A click on it is the browser's, which honours target and rel: the
	// page does not take it for a navigation of its own (which would open
	// the tab with window.open, handing it this page).
	if !eval[bool](t, b, `(() => {
		const a = document.querySelector("[data-lesson-preview] a[data-lesson-link]");
		let opened = false;
		const open = window.open;
		window.open = () => { opened = true; return null };
		a.addEventListener("click", (e) => e.preventDefault(), {once: true}); // no tab in the test
		const before = location.href;
		a.click();
		window.open = open;
		return !opened && location.href === before })()`) {
		t.Error("the page took the click on the lesson's link for its own navigation")
	}
	if b.attr(t, "[data-lesson-preview-state]", "data-solved") != "false" {
		t.Errorf("the page's state solves the lesson at its start: %s", b.text(t, "[data-lesson-preview-state]"))
	}
	for _, v := range runAxe(t, b) {
		t.Errorf("the editor and its preview: %s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}
	b.click(t, "#lesson-editor-copy")
	b.waitFor(t, `document.querySelector("#lesson-editor-link-status").textContent !== ""`)
	link := eval[string](t, b, `document.querySelector("#lesson-editor-link").value`)
	if !strings.HasPrefix(link, s.URL+"#lesson=v1.") {
		t.Fatalf("the lesson's link is %q", link)
	}
	if snippet := eval[string](t, b, `document.querySelector("#lesson-editor-snippet").value`); !strings.Contains(snippet, "&amp;embed=1") {
		t.Errorf("the snippet %q does not embed the lesson", snippet)
	}

	// A learner opens the link and solves it with the produce form.
	l := newBrowser(t)
	l.open(t, link)
	l.waitCount(t, panel("lesson")+`[data-solved="false"]`, 1)
	if got := l.text(t, panel("lesson")+" h2"); got != title {
		t.Errorf("the learner's lesson is titled %q", got)
	}
	for _, value := range []string{"first", "second"} {
		l.fill(t, "#produce-topic", "orders")
		l.fill(t, "#produce-value", value)
		l.click(t, "#produce-send")
		l.waitText(t, ".timeline", "value="+value)
	}
	l.waitCount(t, panel("lesson")+`[data-solved="true"]`, 1)
	l.waitText(t, "[data-lesson-status]", "Solved!")
	// The URL keeps the learner's progress in the lesson: once it holds
	// every line, a reload opens the lesson solved.
	lines := eval[[]string](t, l, `Array.from(document.querySelectorAll("#timeline-script .script-line")).map(el => el.textContent)`)
	withRules, _ := scenario.WithRulesLine(lines, 0)
	progress, err := scenario.EncodeLink(strings.Join(withRules, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	l.waitFor(t, `location.hash === `+js("#"+progress+"&lesson="+strings.TrimPrefix(link, s.URL+"#lesson=")))
	l.reload(t)
	l.waitCount(t, panel("lesson")+`[data-solved="true"]`, 1)
}
