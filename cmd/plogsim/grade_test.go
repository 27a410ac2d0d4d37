package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"plog/core/lesson"
	"plog/core/scenario"
)

// learnerLink is the address a learner's page shows after a script, with its
// rules line, as the page writes it.
func learnerLink(t *testing.T, script, lessonRef string) string {
	t.Helper()
	lines, _ := scenario.WithRulesLine(strings.Split(strings.TrimSpace(script), "\n"), 0)
	link, err := scenario.EncodeLink(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	return "https://example.org/plog/#" + link + "&lesson=" + lessonRef
}

// A teacher grades a class's links, on the command line and from a CSV
// file: each says solved or not and why, from the link alone.
func TestLessonGrade(t *testing.T) {
	l, err := lesson.Find("key-order")
	if err != nil {
		t.Fatal(err)
	}
	solved := learnerLink(t, l.Script+l.Solution, l.Name)
	wrong := learnerLink(t, l.Script+l.WrongAttempts[0], l.Name)
	other := learnerLink(t, l.Script+l.Solution, "compaction")

	code, out, errOut := plogsim(t, "", "lesson", "grade", "key-order", solved)
	if code != 0 || errOut != "" || !strings.Contains(out, "link 1: solved: ") || !strings.HasSuffix(out, "1 of 1 solved\n") ||
		!strings.Contains(out, "(id "+l.ID+")") {
		t.Errorf("one solved link: exit %d, %q %q", code, out, errOut)
	}

	csvPath := filepath.Join(t.TempDir(), "class.csv")
	csv := "student,link\nada," + solved + "\nbob," + wrong + "\ncy," + other + "\ndee,\n"
	if err := os.WriteFile(csvPath, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ = plogsim(t, "", "lesson", "grade", "key-order", csvPath)
	for _, want := range []string{"ada: solved: ", "bob: not solved: ", "cy: cannot be graded: the link is of another lesson", "1 of 3 solved\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("the class's CSV: no %q in\n%s", want, out)
		}
	}
	if code != 1 {
		t.Errorf("a class with an unsolved link exits %d", code)
	}

	// A lesson file grades as its name does.
	data, err := os.ReadFile("../../core/lesson/testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "payments.lesson")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ex, err := lesson.Parse(file, string(data))
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ = plogsim(t, "", "lesson", "grade", file, learnerLink(t, ex.Script+ex.Solution, ex.Name))
	if code != 0 || !strings.Contains(out, "link 1: solved: ") {
		t.Errorf("a lesson file's link: exit %d, %q", code, out)
	}
	if code, _, errOut := plogsim(t, "", "lesson", "grade", "key-order"); code != 2 || !strings.Contains(errOut, "give the learners' links") {
		t.Errorf("no links: exit %d, %q", code, errOut)
	}
}
