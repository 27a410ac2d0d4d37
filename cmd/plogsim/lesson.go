package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"plog/core/lesson"
	"plog/core/scenario"
)

const lessonUsage = `usage:
  plogsim lesson                     list the lessons
  plogsim lesson LESSON              show a lesson: its text, goal, starting
                                     scenario and first hint
  plogsim lesson LESSON --hint N     show hint N as well (hints unlock in order)
  plogsim lesson LESSON --check FILE check a solution (FILE "-" reads standard
                                     input); exit status 0 when it solves the
                                     lesson, 1 when not
  plogsim lesson check FILE          check a lesson file: its start and its
                                     wrong attempts must not solve its goal,
                                     its solution (which it must have) must;
                                     exit status 0 when all is so, 1 when not
  plogsim lesson grade LESSON LINK...
                                     grade learners' links (page addresses
                                     copied once solved, or CSV files of
                                     who,link rows): each replayed from the
                                     lesson's start, solved or not and why;
                                     exit status 0 when all solve it
LESSON is a built-in lesson's name or a lesson file's path
(plogsim link FILE.lesson prints the link that opens it on the page).
FILE holds the commands added after the lesson's start. A FILE that begins
with seed is taken as the whole scenario, start included, as a share link
holds it. A lesson file is described in docs/lessons.md, "Writing a lesson".
`

// runLesson is `plogsim lesson`.
func runLesson(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("plogsim lesson", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, lessonUsage) }
	check := fs.String("check", "", "check the solution in FILE")
	hint := fs.Int("hint", 1, "show hints up to N")
	names, err := parseFlags(fs, args)
	if err != nil {
		return 2
	}
	switch {
	case len(names) == 0 && *check == "":
		listLessons(stdout)
		return 0
	case len(names) == 2 && names[0] == "check" && *check == "":
		return checkLessonFile(names[1], stdin, stdout, stderr)
	case len(names) >= 2 && names[0] == "grade" && *check == "":
		return gradeLessonLinks(names[1], names[2:], stdin, stdout, stderr)
	case len(names) != 1:
		fmt.Fprintf(stderr, "plogsim lesson: give one lesson NAME\n%s", lessonUsage)
		return 2
	}
	l, err := findLesson(names[0], stdin)
	if err != nil {
		fmt.Fprintf(stderr, "plogsim lesson: %v\n", err)
		return 2
	}
	if *check == "" {
		if *hint < 1 || *hint > len(l.Hints) {
			fmt.Fprintf(stderr, "plogsim lesson: lesson %s has hints 1 to %d\n", l.Name, len(l.Hints))
			return 2
		}
		showLesson(stdout, l, names[0], *hint)
		return 0
	}
	src, err := readSource(*check, stdin)
	if err != nil {
		return report(stderr, "", err)
	}
	s, err := l.Attempt(src.text)
	if err != nil {
		return report(stderr, src.name, err)
	}
	r := l.Check(s)
	if !r.Solved {
		fmt.Fprintf(stdout, "not solved: %s\n", r.Progress)
		return 1
	}
	fmt.Fprintf(stdout, "solved: %s\n", r.Progress)
	return 0
}

func listLessons(w io.Writer) {
	all := lesson.All()
	width := 0
	for _, l := range all {
		width = max(width, len(l.Name))
	}
	for i, l := range all {
		fmt.Fprintf(w, "%2d  %-*s  %s\n", i+1, width, l.Name, l.Title)
	}
	fmt.Fprintln(w, "\nplogsim lesson NAME shows one.")
}

// findLesson is the lesson ref names: a built-in lesson's name, or else
// the path of a lesson file, read and parsed whole (errors at its line and
// column).
func findLesson(ref string, stdin io.Reader) (lesson.Lesson, error) {
	l, err := lesson.Find(ref)
	if err == nil {
		return l, nil
	}
	if _, statErr := os.Stat(ref); statErr != nil && !strings.HasSuffix(ref, ".lesson") {
		return lesson.Lesson{}, err // no such lesson, and no such file
	}
	src, readErr := readSource(ref, stdin)
	if readErr != nil {
		return lesson.Lesson{}, readErr
	}
	l, err = lesson.Parse(src.name, src.text)
	if err != nil {
		var perr *scenario.Error
		if errors.As(err, &perr) {
			return lesson.Lesson{}, fmt.Errorf("%s:%d:%d: %s", src.name, perr.Line, perr.Col, perr.Msg)
		}
		return lesson.Lesson{}, fmt.Errorf("%s: %w", src.name, err)
	}
	return l, nil
}

// showLesson prints a lesson and its first hints; ref is how the command
// line named it.
func showLesson(w io.Writer, l lesson.Lesson, ref string, hints int) {
	number := 0
	for i, other := range lesson.All() {
		if other.Name == l.Name && ref == l.Name {
			number = i + 1
		}
	}
	if number > 0 {
		fmt.Fprintf(w, "Lesson %d: %s (%s)\n\n", number, l.Title, l.Name)
	} else {
		fmt.Fprintf(w, "Lesson: %s (%s)\n\n", l.Title, l.Name)
	}
	for _, p := range l.Text {
		fmt.Fprintf(w, "%s\n\n", wrap(p, 78, ""))
	}
	fmt.Fprintf(w, "%s\n\nStarting scenario:\n", wrap("Goal: "+l.Goal, 78, "      "))
	for _, line := range strings.Split(strings.TrimRight(l.Script, "\n"), "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
	for _, q := range l.Questions() {
		choices := ""
		if len(q.Choices) > 0 {
			choices = " (one of " + strings.Join(q.Choices, ", ") + ")"
		}
		fmt.Fprintf(w, "\n%s\n  answer with: answer %s TEXT\n", wrap("Question: "+q.Text+choices, 78, "  "), q.Name)
	}
	for i := range hints {
		fmt.Fprintf(w, "\n%s\n", wrap(fmt.Sprintf("Hint %d of %d: %s", i+1, len(l.Hints), lesson.Plain(l.HintDocs[i])), 78, "  "))
	}
	fmt.Fprintf(w, "\nWrite the commands you add after the start in a file, then:\n  plogsim lesson %s --check FILE\n", ref)
	if hints < len(l.Hints) {
		fmt.Fprintf(w, "Next hint: plogsim lesson %s --hint %d\n", ref, hints+1)
	}
}

// wrap breaks text into lines of at most width characters at spaces,
// starting every line after the first with indent.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	line := 0
	for i, word := range strings.Fields(text) {
		n := len([]rune(word))
		switch {
		case i == 0:
		case line+1+n > width:
			b.WriteString("\n" + indent)
			line = len(indent)
		default:
			b.WriteByte(' ')
			line++
		}
		b.WriteString(word)
		line += n
	}
	return b.String()
}

// checkLessonFile is `plogsim lesson check FILE`: it reads a lesson file
// and runs its own scripts against its goal (lesson.Lesson.Verify).
func checkLessonFile(path string, stdin io.Reader, stdout, stderr io.Writer) int {
	src, err := readSource(path, stdin)
	if err != nil {
		return report(stderr, "", err)
	}
	l, err := lesson.Parse(src.name, src.text)
	if err != nil {
		return report(stderr, src.name, err)
	}
	fmt.Fprintf(stdout, "lesson %s: %s\n", l.Name, l.Title)
	failed := false
	for _, t := range l.Verify() {
		status := "ok  "
		if !t.OK() {
			status, failed = "FAIL", true
		}
		var perr *scenario.Error
		switch {
		case errors.As(t.Err, &perr):
			fmt.Fprintf(stdout, "%s %s: %s:%d:%d: %s\n", status, t.Name, src.name, perr.Line, perr.Col, perr.Msg)
		case t.Err != nil:
			fmt.Fprintf(stdout, "%s %s: %v\n", status, t.Name, t.Err)
		case t.Result.Solved && !t.Want:
			fmt.Fprintf(stdout, "%s %s: solves the goal, which it must not: %s\n", status, t.Name, t.Result.Progress)
		case t.Result.Solved:
			fmt.Fprintf(stdout, "%s %s: solved: %s\n", status, t.Name, t.Result.Progress)
		case t.FailedLine > 0:
			fmt.Fprintf(stdout, "%s %s: not solved: %s:%d: %s: %s\n", status, t.Name, src.name, t.FailedLine, t.FailedCheck, t.Result.Progress)
		default:
			fmt.Fprintf(stdout, "%s %s: not solved: %s\n", status, t.Name, t.Result.Progress)
		}
	}
	if len(l.WrongAttempts) == 0 {
		fmt.Fprintf(stdout, "-    wrong attempt: the file has none\n")
	}
	unfair := l.Fairness()
	for _, err := range unfair {
		var perr *scenario.Error
		if errors.As(err, &perr) {
			fmt.Fprintf(stdout, "FAIL fairness: %s:%d:%d: %s\n", src.name, perr.Line, perr.Col, perr.Msg)
		} else {
			fmt.Fprintf(stdout, "FAIL fairness: %v\n", err)
		}
	}
	if len(unfair) > 0 {
		failed = true
	} else {
		fmt.Fprintf(stdout, "ok   fairness: every name the check refers to is in the solution, and every value its sentences quote is there where they show\n")
	}
	if failed {
		fmt.Fprintf(stdout, "lesson %s fails its check\n", l.Name)
		return 1
	}
	fmt.Fprintf(stdout, "lesson %s passes its check\n", l.Name)
	return 0
}
