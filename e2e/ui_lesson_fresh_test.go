package e2e

import (
	"fmt"
	"testing"
)

// Each lesson starts clean: what a learner typed in one lesson's produce
// form, and the topic form beside it, is not in the next lesson's, which
// offers the form's own defaults again, and a form opened is closed (a key and a value typed in one
// lesson came back in the next, against its own words).
func TestUILessonFormsStartClean(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerFromList(t, s, "key-order")
	b := x.b
	defaults := eval[[]string](t, b, `[document.querySelector("#produce-key").value, document.querySelector("#produce-value").value]`)
	if defaults[0] == "" || defaults[1] == "" {
		t.Fatalf("the produce form opens with key %q and value %q, want a record worth sending", defaults[0], defaults[1])
	}
	b.fill(t, "#produce-key", "pay-2")
	b.fill(t, "#produce-value", "refund")
	b.click(t, "#dock-tab-topics")
	b.waitCount(t, "#topic-name", 1)
	b.fill(t, "#topic-name", "typed-in-lesson-one")
	b.click(t, "[data-action=new-share-group]")
	b.waitFor(t, `!document.querySelector(".share-new").hidden`)

	b.click(t, "#lessons-open")
	b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)
	b.click(t, `[data-lesson-list] [data-lesson=offsets] a`)
	b.waitCount(t, panel("offsets"), 1)
	// The list folds away once another lesson is picked in it.
	b.waitFor(t, `!document.querySelector("[data-lesson-list] details").open`)

	b.click(t, "#dock-tab-produce")
	b.waitFor(t, fmt.Sprintf(`document.querySelector("#produce-key").value === %s && document.querySelector("#produce-value").value === %s`,
		js(defaults[0]), js(defaults[1])))
	b.waitFor(t, `document.querySelector("#produce-key").getBoundingClientRect().height > 0`)
	eval[bool](t, b, `(document.querySelector("#produce-key").scrollIntoView({block: "center"}), true)`)
	if problem := onScreen(t, b, "#produce-key"); problem != "" {
		t.Errorf("the produce form's key box in the next lesson is %s", problem)
	}
	b.click(t, "#dock-tab-topics")
	if got := eval[string](t, b, `document.querySelector("#topic-name").value`); got == "typed-in-lesson-one" {
		t.Errorf("the topic form keeps %q from the last lesson", got)
	}
	if !eval[bool](t, b, `document.querySelector(".share-new").hidden`) {
		t.Error("the share group's join form opened in the last lesson is still open")
	}
	// The forms drawn anew work: a topic made with the topic form.
	b.fill(t, "#topic-name", "fresh")
	b.fill(t, "#topic-partitions", "1")
	b.click(t, "#topic-create")
	b.waitCount(t, `[data-topic=fresh][data-partition]`, 1)
	b.noErrors(t)
}

// The join forms a learner opened in one lesson's groups close when the
// next lesson opens, though it has groups of the same names (billing and
// audit in both): they belonged to the last lesson's groups.
func TestUILessonJoinFormsClose(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerFromList(t, s, "commit-resume")
	b := x.b
	b.mouseClick(t, "[data-action=new-group]")
	b.waitFor(t, `!document.querySelector(".group-new").hidden`)
	b.mouseClick(t, `[data-group="billing"] [data-action=join-member]`)
	b.waitCount(t, `[data-group="billing"] form.member-join`, 1)

	b.click(t, "#lessons-open")
	b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)
	b.click(t, `[data-lesson-list] [data-lesson=exactly-once] a`)
	b.waitCount(t, panel("exactly-once"), 1)
	b.waitCount(t, `[data-group="billing"] li[data-member="b2"]`, 1)
	if !eval[bool](t, b, `document.querySelector(".group-new").hidden`) {
		t.Error("the new group's join form opened in the last lesson is still open")
	}
	if n := b.count(t, `form.member-join`); n != 0 {
		t.Errorf("%d groups' join forms opened in the last lesson are still open", n)
	}
	b.noErrors(t)
}
