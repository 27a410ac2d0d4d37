package lesson

import (
	"strings"
	"testing"
)

const questionLesson = `title: Find the hot partition
goal: Say which partition is hot.

One key sends every record to one partition.

## start
seed 1
topic t partitions=4
produce t key=hot value=v count=8

## check
question hot "Which partition holds the hot key?" answer=2 choices=0,1,2,3

## hints
- Look at the lanes.

## solution
answer hot 2

## wrong
answer hot 0
`

// A question is answered by the answer command, compared without case
// and extra spaces; the lesson's own check proves it fair.
func TestQuestionCheck(t *testing.T) {
	l, err := Parse("q.lesson", questionLesson)
	if err != nil {
		t.Fatal(err)
	}
	if qs := l.Questions(); len(qs) != 1 || qs[0].Name != "hot" || qs[0].Text != "Which partition holds the hot key?" || strings.Join(qs[0].Choices, ",") != "0,1,2,3" {
		t.Errorf("questions %+v", qs)
	}
	for _, tr := range l.Verify() {
		if !tr.OK() {
			t.Errorf("%s: %+v", tr.Name, tr)
		}
	}
	if errs := l.Fairness(); len(errs) != 0 {
		t.Errorf("unfair: %v", errs)
	}
	for _, tc := range []struct {
		after  string
		solved bool
		want   string
	}{
		{"", false, "answer the question: Which partition holds the hot key?"},
		{"answer hot 1\n", false, `"1" is not the answer to "Which partition holds the hot key?"`},
		{"answer hot 1\nanswer hot 2\n", true, "Which partition holds the hot key? 2"},
	} {
		s, err := l.Attempt(tc.after)
		if err != nil {
			t.Fatal(err)
		}
		if r := l.Check(s); r.Solved != tc.solved || !strings.Contains(r.Progress, tc.want) {
			t.Errorf("after %q: %+v, want %v %q", tc.after, r, tc.solved, tc.want)
		}
	}

	typed := strings.Replace(questionLesson, "answer=2 choices=0,1,2,3", `answer="one key;the key"`, 1)
	typed = strings.Replace(typed, "answer hot 2", `answer hot "  The   KEY "`, 1)
	l, err = Parse("q.lesson", typed)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := l.Attempt(`answer hot "  The   KEY "`); err != nil || !l.Check(s).Solved {
		t.Errorf("a typed answer with other case and spaces: %v, %+v", err, l.Check(s))
	}

	for _, bad := range []struct{ from, to, want string }{
		{"answer=2 choices=0,1,2,3", "answer=7 choices=0,1,2,3", "no answer= is one of the choices 0, 1, 2, 3"},
		{"answer=2 choices=0,1,2,3", "choices=0,1", "a question needs answer="},
		{"question hot ", "question Hot ", `the question's name "Hot" is not a slug`},
	} {
		if _, err := Parse("q.lesson", strings.Replace(questionLesson, bad.from, bad.to, 1)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v", bad.to, err)
		}
	}
}
