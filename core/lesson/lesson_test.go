package lesson

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"plog/core/scenario"
)

var update = flag.Bool("update", false, "rewrite testdata/progress.golden")

// attempt applies lines to the lesson's start one at a time, as the page
// does, checking the goal after each, and returns the last result.
func attempt(t *testing.T, l Lesson, lines string) Result {
	t.Helper()
	s, err := l.Start()
	if err != nil {
		t.Fatal(err)
	}
	r := l.Check(s)
	for _, line := range strings.Split(strings.TrimSpace(lines), "\n") {
		if _, err := s.Apply(line); err != nil {
			t.Fatalf("%s: %q: %v", l.Name, line, err)
		}
		r = l.Check(s)
	}
	return r
}

// Every lesson's golden test: the start does not solve it, the reference
// solution does, the wrong attempt its hints name does not. The progress
// sentences are kept in testdata/progress.golden (go test -update rewrites
// it) so that a change in what the learner reads shows in review.
func TestLessonsGolden(t *testing.T) {
	var golden strings.Builder
	for _, l := range All() {
		s, err := l.Start()
		if err != nil {
			t.Fatal(err)
		}
		start := l.Check(s)
		if start.Solved {
			t.Errorf("%s: the start solves it: %s", l.Name, start.Progress)
		}
		wrong := attempt(t, l, l.WrongAttempt)
		if wrong.Solved {
			t.Errorf("%s: the wrong attempt solves it: %s", l.Name, wrong.Progress)
		}
		right := attempt(t, l, l.Solution)
		if !right.Solved {
			t.Errorf("%s: the solution does not solve it: %s", l.Name, right.Progress)
		}
		for _, r := range []Result{start, wrong, right} {
			if r.Progress == "" || strings.Contains(r.Progress, "%!") {
				t.Errorf("%s: bad progress sentence %q", l.Name, r.Progress)
			}
		}
		fmt.Fprintf(&golden, "== %s\nstart:  %s\nwrong:  %s\nsolved: %s\n\n", l.Name, start.Progress, wrong.Progress, right.Progress)
	}
	const path = "testdata/progress.golden"
	if *update {
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got := golden.String(); got != string(want) {
		t.Errorf("progress sentences differ from %s (go test -update rewrites it):\n%s", path, lineDiff(string(want), got))
	}
}

// lineDiff lists the lines that differ between two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out strings.Builder
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			fmt.Fprintf(&out, "line %d\n  want: %s\n  got:  %s\n", i+1, a, b)
		}
	}
	return out.String()
}

// Every start, solution and wrong attempt parses and applies whole, and a
// whole script (start plus solution, as a share link holds it) checks the
// same as the lines appended.
func TestScriptsApply(t *testing.T) {
	for _, l := range All() {
		for what, text := range map[string]string{"start": l.Script, "solution": l.Solution, "wrong attempt": l.WrongAttempt} {
			if _, err := scenario.Parse(text); err != nil {
				t.Errorf("%s: %s does not parse: %v", l.Name, what, err)
			}
		}
		if _, err := scenario.Load(l.Script + l.Solution); err != nil {
			t.Errorf("%s: start and solution: %v", l.Name, err)
		}
		if _, err := scenario.Load(l.Script + l.WrongAttempt); err != nil {
			t.Errorf("%s: start and wrong attempt: %v", l.Name, err)
		}
		s, err := l.Attempt(l.Script + l.Solution)
		if err != nil {
			t.Fatalf("%s: whole script: %v", l.Name, err)
		}
		if r := l.Check(s); !r.Solved {
			t.Errorf("%s: the whole script does not solve it: %s", l.Name, r.Progress)
		}
		if s.Len() != strings.Count(strings.TrimSpace(stripComments(l.Script+l.Solution)), "\n")+1 {
			t.Errorf("%s: the whole script applied %d commands", l.Name, s.Len())
		}
	}
}

func stripComments(script string) string {
	var lines []string
	for _, line := range strings.Split(script, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

var slug = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func TestLessonTexts(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range All() {
		if !slug.MatchString(l.Name) || seen[l.Name] {
			t.Errorf("name %q is not a unique slug", l.Name)
		}
		seen[l.Name] = true
		if l.Title == "" || l.Goal == "" || len(l.Text) == 0 || len(l.Hints) < 2 || l.check == nil {
			t.Errorf("%s: title, goal, text, at least two hints and a check are needed", l.Name)
		}
		for _, p := range append(slices.Clone(l.Text), l.Hints...) {
			if strings.Count(p, "`")%2 != 0 {
				t.Errorf("%s: unbalanced backquotes in %q", l.Name, p)
			}
		}
		// A hint names the wrong attempt: it quotes one of its lines.
		wrongLines := strings.Split(strings.TrimSpace(l.WrongAttempt), "\n")
		named := slices.ContainsFunc(l.Hints, func(h string) bool {
			return slices.ContainsFunc(wrongLines, func(w string) bool { return strings.Contains(h, "`"+w+"`") })
		})
		if !named {
			t.Errorf("%s: no hint quotes a line of the wrong attempt", l.Name)
		}
		// Every command a hint quotes is valid in the language.
		for _, h := range l.Hints {
			parts := strings.Split(h, "`")
			for i := 1; i < len(parts); i += 2 {
				if _, ok, err := scenario.ParseLine(parts[i], 1); ok && err != nil {
					t.Errorf("%s: hint quotes %q: %v", l.Name, parts[i], err)
				}
			}
		}
	}
	if len(All()) != 14 {
		t.Errorf("%d lessons, want 14", len(All()))
	}
}

func TestFind(t *testing.T) {
	l, err := Find("compaction")
	if err != nil || l.Name != "compaction" {
		t.Fatalf("Find(compaction) = %q, %v", l.Name, err)
	}
	if l, err := Find(" Key-Order "); err != nil || l.Name != "key-order" {
		t.Errorf("Find ignores case and spaces: %q, %v", l.Name, err)
	}
	_, err = Find("ofsets")
	if err == nil || !strings.Contains(err.Error(), `did you mean "offsets"?`) {
		t.Errorf("Find(ofsets): %v", err)
	}
	_, err = Find("zzzzzzzzzzzzzzzzzz")
	if err == nil || !strings.Contains(err.Error(), "the lessons are key-order, offsets,") {
		t.Errorf("Find(zzz): %v", err)
	}
}

// The goal holds only on top of the lesson's own start.
func TestCheckNeedsTheStart(t *testing.T) {
	l, _ := Find("key-order")
	changed := strings.Replace(l.Script, "key=acct-2 value=paid", "key=acct-2 value=refunded", 1)
	s, err := scenario.Load(changed + l.Solution)
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); r.Solved || !strings.Contains(r.Progress, "differs from the lesson's start") {
		t.Errorf("changed start: %+v", r)
	}
	s, _ = l.Attempt(l.Solution)
	if err := s.Seek(2); err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); r.Solved || !strings.Contains(r.Progress, "only 2 of the 6 commands") {
		t.Errorf("seek into the start: %+v", r)
	}
	if err := s.Seek(s.Len()); err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); !r.Solved {
		t.Errorf("back at the end: %+v", r)
	}
	if r := l.Check(nil); r.Solved {
		t.Errorf("nil session solved it")
	}
	if r := (Lesson{}).Check(s); r.Solved {
		t.Errorf("the zero lesson solved it")
	}
}

func TestAttemptErrors(t *testing.T) {
	l, _ := Find("offsets")
	_, err := l.Attempt("seed 3\ntopic events partitions=1\n")
	var perr *scenario.Error
	if err == nil || !strings.Contains(err.Error(), `the lesson's start has "seed 2" here`) {
		t.Errorf("whole script with another start: %v", err)
	}
	_, err = l.Attempt("join audit a1 topics=events\npoll audit a9\n")
	if err == nil || !errors.As(err, &perr) || perr.Line != 2 {
		t.Errorf("error in the learner's line 2: %v", err)
	}
	_, err = l.Attempt("seed 2\ntopic events partitions=1\n")
	if err == nil || !strings.Contains(err.Error(), "ends inside the lesson's start") {
		t.Errorf("truncated start: %v", err)
	}
}
