package e2e

import (
	"testing"

	"plog/core/lesson"
)

// A learner opens a teacher's lesson that hides the skew and asks which
// partition is hot: the question is under the goal, the skew is hidden;
// a wrong choice says so, the right one solves the lesson and shows the
// skew, and undo takes the answer back.
func TestLearnerAnswersALessonsQuestion(t *testing.T) {
	t.Parallel()
	const text = `title: Find the hot partition
goal: Say which partition holds the hot key.
hide: skew

One key sends every record to one partition: that partition is hot.

## start
seed 1
topic t partitions=4
produce t key=hot value=v count=8
produce t key=a value=v
produce t key=b value=v

## check
question hot "Which partition holds the hot key?" answer=2 choices=0,1,2,3

## hints
- Count the records in each lane.
`
	link, err := lesson.EncodeLink(text)
	if err != nil {
		t.Fatal(err)
	}
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL+"#lesson="+link)
	b.waitCount(t, `[data-lesson-panel][data-solved="false"]`, 1)
	for _, selector := range []string{`[data-question="hot"] .lesson-question-text`, `[data-question="hot"] [data-choice="2"]`, ".skew-hidden"} {
		if problem := onScreen(t, b, selector); problem != "" {
			t.Errorf("%s is %s", selector, problem)
		}
	}
	if b.count(t, ".lane [class~=hot], .count.hot") != 0 {
		t.Error("a lane is flagged hot before the lesson is solved")
	}
	b.click(t, `[data-question="hot"] [data-choice="1"]`)
	b.waitText(t, "[data-lesson-progress]", `"1" is not the answer`)
	b.waitText(t, `[data-answered="hot"]`, "Your answer: 1")

	b.click(t, `[data-question="hot"] [data-choice="2"]`)
	b.waitCount(t, `[data-lesson-panel][data-solved="true"]`, 1)
	b.waitText(t, "[data-lesson-status]", "Solved!")
	// The lesson's box is short: Solved! comes into view.
	b.waitFor(t, `(() => { const el = document.querySelector("[data-lesson-status]"); const r = el.getBoundingClientRect(); let a = el.parentElement; while (a) { const s = getComputedStyle(a); if (/(auto|scroll|hidden)/.test(s.overflowY)) { const q = a.getBoundingClientRect(); if (r.top < q.top || r.bottom > q.bottom) return false } a = a.parentElement } return r.top >= 0 && r.bottom <= innerHeight })()`)
	if problem := onScreen(t, b, "[data-lesson-status]"); problem != "" {
		t.Errorf("Solved! is %s", problem)
	}
	b.waitCount(t, ".skew-hidden", 0)
	if problem := onScreen(t, b, ".topic-head .skew"); problem != "" {
		t.Errorf("the skew, once solved, is %s", problem)
	}
	b.click(t, "#undo")
	b.waitCount(t, `[data-lesson-panel][data-solved="false"]`, 1)
	b.waitText(t, `[data-answered="hot"]`, "Your answer: 1")
	b.noErrors(t)
}
