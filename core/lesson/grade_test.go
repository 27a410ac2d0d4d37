package lesson

import (
	"strings"
	"testing"

	"plog/core/scenario"
)

// pageFragment is the address a learner's page shows after a script:
// the scenario's link with its rules line, and the lesson it runs.
func pageFragment(t *testing.T, script, lessonRef string) scenario.Fragment {
	t.Helper()
	lines, _ := scenario.WithRulesLine(strings.Split(strings.TrimSpace(script), "\n"), 0)
	link, err := scenario.EncodeLink(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	fragment := "#" + link
	if lessonRef != "" {
		fragment += "&lesson=" + lessonRef
	}
	f, err := scenario.ParseFragment(fragment)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Every built-in lesson grades its solution's link solved and each wrong
// attempt's not, from the link alone.
func TestGradeBuiltinLinks(t *testing.T) {
	for _, l := range All() {
		r, err := l.Grade(pageFragment(t, l.Script+l.Solution, l.Name))
		if err != nil || !r.Solved {
			t.Errorf("%s: the solution's link grades %+v, %v", l.Name, r, err)
		}
		for _, w := range l.WrongAttempts {
			if r, err := l.Grade(pageFragment(t, l.Script+w, l.Name)); err != nil || r.Solved || r.Progress == "" {
				t.Errorf("%s: a wrong attempt's link grades %+v, %v", l.Name, r, err)
			}
		}
	}
}

// A link is graded for its own lesson, from the lesson's start, at the
// step it shows.
func TestGradeRefusesWhatIsNotTheLesson(t *testing.T) {
	l, err := Parse("x.lesson", readExample(t))
	if err != nil {
		t.Fatal(err)
	}
	solved := pageFragment(t, l.Script+l.Solution, "")
	if r, err := l.Grade(solved); err != nil || !r.Solved {
		t.Fatalf("the solution: %+v, %v", r, err)
	}
	// The lesson's own link names it; an edited file is another lesson.
	own, err := EncodeLink(readExample(t))
	if err != nil {
		t.Fatal(err)
	}
	edited, err := EncodeLink(strings.Replace(readExample(t), "title: Keep", "title: Still keep", 1))
	if err != nil {
		t.Fatal(err)
	}
	if !l.Is(own) || l.Is(edited) || l.Is("key-order") || !l.Is(l.Name) {
		t.Errorf("Is: own %v, edited %v, key-order %v, its name %v", l.Is(own), l.Is(edited), l.Is("key-order"), l.Is(l.Name))
	}
	if _, err := l.Grade(pageFragment(t, l.Script+l.Solution, edited)); err == nil || !strings.Contains(err.Error(), "another lesson") {
		t.Errorf("another lesson's link: %v", err)
	}
	// A script made from scratch, not from the lesson's start.
	forged := "seed 4\ntopic payments partitions=1\n" + l.Solution
	if _, err := l.Grade(pageFragment(t, forged, "")); err == nil || !strings.Contains(err.Error(), "the lesson's start has") {
		t.Errorf("a script without the lesson's start: %v", err)
	}
	// The step the link shows: before the commit, not solved.
	back := solved
	back.At = strings.Count(l.Script+l.Solution, "\n") - 1
	if r, err := l.Grade(back); err != nil || r.Solved {
		t.Errorf("at %d: %+v, %v", back.At, r, err)
	}
	if _, err := l.Grade(scenario.Fragment{At: -1, Lesson: l.Name}); err == nil {
		t.Error("a link with no steps grades")
	}
}
