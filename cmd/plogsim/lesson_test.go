package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"plog/core/lesson"
)

func TestLessonList(t *testing.T) {
	code, out, _ := plogsim(t, "", "lesson")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for i, l := range lesson.All() {
		if !strings.Contains(out, l.Name) || !strings.Contains(out, l.Title) {
			t.Errorf("lesson %d (%s) missing from\n%s", i+1, l.Name, out)
		}
	}
}

func TestLessonShow(t *testing.T) {
	l, _ := lesson.Find("compaction")
	code, out, errOut := plogsim(t, "", "lesson", "compaction")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Lesson 13: " + l.Title, "Goal: Close account acct-3", "  topic balances partitions=1", fmt.Sprintf("Hint 1 of %d:", len(l.Hints)), "--check FILE", "--hint 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "Hint 2 of") {
		t.Errorf("the second hint shows before it is asked for:\n%s", out)
	}
	_, out, _ = plogsim(t, "", "lesson", "compaction", "--hint", "2")
	if !strings.Contains(out, fmt.Sprintf("Hint 2 of %d:", len(l.Hints))) || strings.Contains(out, "Hint 3 of") {
		t.Errorf("--hint 2 shows hints 1 and 2 only:\n%s", out)
	}
}

func TestLessonCheck(t *testing.T) {
	for _, l := range lesson.All() {
		code, out, errOut := plogsim(t, "", "lesson", l.Name, "--check", writeFile(t, l.Solution))
		if code != 0 || !strings.HasPrefix(out, "solved: ") || errOut != "" {
			t.Errorf("%s solution: exit %d, %q %q", l.Name, code, out, errOut)
		}
		for _, w := range l.WrongAttempts {
			code, out, _ = plogsim(t, "", "lesson", l.Name, "--check", writeFile(t, w))
			if code != 1 || !strings.HasPrefix(out, "not solved: ") {
				t.Errorf("%s wrong attempt: exit %d, %q", l.Name, code, out)
			}
		}
	}
	l, _ := lesson.Find("key-order")
	// The whole script, start included, from standard input.
	code, out, _ := plogsim(t, l.Script+l.Solution, "lesson", "key-order", "--check", "-")
	if code != 0 || !strings.Contains(out, "solved: acct-1's events sit in partition 2") {
		t.Errorf("whole script: exit %d, %q", code, out)
	}
	// Nothing added: the start alone does not solve it.
	code, out, _ = plogsim(t, "", "lesson", "key-order", "--check", "-")
	if code != 1 || !strings.Contains(out, "not solved: no record with key acct-1 yet") {
		t.Errorf("empty: exit %d, %q", code, out)
	}
}

func TestLessonErrors(t *testing.T) {
	path := writeFile(t, "produce orders key=acct-1 value=created\nproduce nowhere value=x\n")
	code, _, errOut := plogsim(t, "", "lesson", "key-order", "--check", path)
	if code != 1 || !strings.Contains(errOut, path+":2:1: ") || !strings.Contains(errOut, "nowhere") {
		t.Errorf("bad line: exit %d, %q", code, errOut)
	}
	code, _, errOut = plogsim(t, "", "lesson", "key-ordr")
	if code != 2 || !strings.Contains(errOut, `did you mean "key-order"?`) {
		t.Errorf("unknown lesson: exit %d, %q", code, errOut)
	}
	code, _, errOut = plogsim(t, "", "lesson", "key-order", "--hint", "9")
	if code != 2 || !strings.Contains(errOut, "hints 1 to 3") {
		t.Errorf("--hint 9: exit %d, %q", code, errOut)
	}
	code, _, _ = plogsim(t, "", "lesson", "a", "b")
	if code != 2 {
		t.Errorf("two names: exit %d", code)
	}
}

// plogsim lesson check FILE runs a lesson file's start, wrong attempt and
// solution against its goal, and checks its fairness: every built-in
// lesson's file passes, and so does the example of docs/lessons.md.
func TestLessonCheckFile(t *testing.T) {
	paths, err := filepath.Glob("../../core/lesson/files/*.lesson")
	if err != nil || len(paths) != len(lesson.All()) {
		t.Fatalf("%d lesson files: %v", len(paths), err)
	}
	paths = append(paths, "../../core/lesson/testdata/example.lesson")
	for _, path := range paths {
		code, out, errOut := plogsim(t, "", "lesson", "check", path)
		if code != 0 || errOut != "" || strings.Count(out, "\nok   ") != 4 || !strings.HasSuffix(out, " passes its check\n") {
			t.Errorf("%s: exit %d\n%s%s", path, code, out, errOut)
		}
	}
	data, err := os.ReadFile("../../core/lesson/testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	example := string(data)
	code, out, _ := plogsim(t, example, "lesson", "check", "-")
	for _, want := range []string{
		"lesson payments-in-order: Keep a customer's payments in order\n",
		"ok   start: not solved: <stdin>:23: in-order payments cust-7 authorised captured refunded: no record with key cust-7 yet",
		"ok   wrong attempt: not solved: <stdin>:23: in-order payments cust-7 authorised captured refunded: cust-7's events are split over partitions 0, 1 and 2",
		"ok   solution: solved: cust-7's records sit in payments/",
	} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("exit %d: missing %q in\n%s", code, want, out)
		}
	}

	// A solution that forgets to commit: the goal line that fails, and why.
	broken := writeFile(t, strings.Replace(example, "poll billing b1\ncommit billing b1\n\n## wrong", "poll billing b1\n\n## wrong", 1))
	code, out, _ = plogsim(t, "", "lesson", "check", broken)
	if code != 1 || !strings.Contains(out, "FAIL solution: not solved: "+broken+":25: lag-at-most billing 0 topic=payments: group billing has committed no offset of payments yet") ||
		!strings.HasSuffix(out, "lesson payments-in-order fails its check\n") {
		t.Errorf("forgotten commit: exit %d\n%s", code, out)
	}
	// A start that already solves it.
	solvedStart := writeFile(t, strings.Replace(example, "in-order payments cust-7 authorised captured refunded  # one partition, in this order\nread-all billing payments\nlag-at-most billing 0 topic=payments", "read-all billing payments", 1))
	code, out, _ = plogsim(t, "", "lesson", "check", solvedStart)
	if code != 1 || !strings.Contains(out, "FAIL start: solves the goal, which it must not: group billing received every record of payments") {
		t.Errorf("solved start: exit %d\n%s", code, out)
	}
	// A typo in a group's name, which no step of the solution has.
	typo := writeFile(t, strings.Replace(example, "read-all billing payments", "read-all biling payments", 1))
	code, out, _ = plogsim(t, "", "lesson", "check", typo)
	if code != 1 || !strings.Contains(out, "FAIL fairness: "+typo+":24:10: read-all names group biling, which no step of the solution has: a typo?") {
		t.Errorf("a typo: exit %d\n%s", code, out)
	}
	// A wrong attempt that does not apply names its line in the file.
	badWrong := writeFile(t, strings.Replace(example, "value=captured partition=1", "value=captured partition=7", 1))
	code, out, _ = plogsim(t, "", "lesson", "check", badWrong)
	if code != 1 || !strings.Contains(out, "FAIL wrong attempt: "+badWrong+":43:") {
		t.Errorf("bad wrong attempt: exit %d\n%s", code, out)
	}
	// No wrong attempt: said, not failed. No solution: failed, since
	// nothing shows the goal can be reached.
	noWrong := example[:strings.Index(example, "## wrong")] // the last section
	code, out, _ = plogsim(t, "", "lesson", "check", writeFile(t, noWrong))
	if code != 0 || !strings.Contains(out, "-    wrong attempt: the file has none\n") {
		t.Errorf("lesson without a wrong attempt: exit %d\n%s", code, out)
	}
	bare := writeFile(t, example[:strings.Index(example, "## solution")])
	code, out, _ = plogsim(t, "", "lesson", "check", bare)
	if code != 1 || !strings.Contains(out, "FAIL solution: the file has none: add a ## solution section") {
		t.Errorf("lesson without a solution: exit %d\n%s", code, out)
	}
	// A file that does not read: FILE:LINE:COLUMN on standard error.
	bad := writeFile(t, strings.Replace(example, "read-all billing payments", "read-all billing", 1))
	code, out, errOut := plogsim(t, "", "lesson", "check", bad)
	if code != 1 || out != "" || errOut != bad+":24:17: read-all needs 2 arguments here, not 1 (usage: read-all GROUP TOPIC)\n" {
		t.Errorf("bad file: exit %d %q %q", code, out, errOut)
	}
	code, _, errOut = plogsim(t, "", "lesson", "check", filepath.Join(t.TempDir(), "none.lesson"))
	if code != 1 || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing file: exit %d %q", code, errOut)
	}
}

// A teacher's lesson file goes wherever a built-in lesson does: plogsim
// link prints the link that opens it on the page, plogsim lesson FILE
// shows it, and --check checks a solution against it.
func TestLessonFileOpensAsALessonDoes(t *testing.T) {
	data, err := os.ReadFile("../../core/lesson/testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "payments.lesson")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := plogsim(t, "", "link", path)
	link := strings.TrimSpace(out)
	if code != 0 || errOut != "" || !strings.HasPrefix(link, "#lesson=v1.") {
		t.Fatalf("plogsim link FILE.lesson: exit %d %q %q", code, out, errOut)
	}
	l, text, err := lesson.DecodeLink(strings.TrimPrefix(link, "#lesson="))
	if err != nil || text != string(data) || l.Name != "payments-in-order" {
		t.Errorf("the link carries %q (%v), not the file", l.Name, err)
	}
	// Its link opens the lesson's start, as the page does.
	code, out, _ = plogsim(t, "", "run", "--link", link)
	if code != 0 || !strings.Contains(out, "payments") {
		t.Errorf("plogsim run --link of the lesson's link: exit %d\n%s", code, out)
	}

	code, out, errOut = plogsim(t, "", "lesson", path)
	if code != 0 || !strings.HasPrefix(out, "Lesson: Keep a customer's payments in order (payments-in-order)\n") ||
		!strings.Contains(out, "plogsim lesson "+path+" --check FILE") {
		t.Errorf("plogsim lesson FILE: exit %d %q\n%s", code, errOut, out)
	}
	solution := "produce payments key=cust-7 value=authorised\nproduce payments key=cust-7 value=captured\nproduce payments key=cust-7 value=refunded\npoll billing b1\ncommit billing b1\n"
	code, out, _ = plogsim(t, solution, "lesson", path, "--check", "-")
	if code != 0 || !strings.HasPrefix(out, "solved: ") {
		t.Errorf("plogsim lesson FILE --check: exit %d\n%s", code, out)
	}
	code, out, _ = plogsim(t, "poll billing b1\n", "lesson", path, "--check", "-")
	if code != 1 || !strings.HasPrefix(out, "not solved: ") {
		t.Errorf("plogsim lesson FILE --check of a wrong attempt: exit %d\n%s", code, out)
	}

	// A lesson file with a mistake is refused at its line, link and all.
	bad := filepath.Join(t.TempDir(), "bad.lesson")
	if err := os.WriteFile(bad, []byte(strings.Replace(string(data), "read-all billing payments", "read-all billing", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := plogsim(t, "", "link", bad); code == 0 || !strings.HasPrefix(errOut, bad+":24:17: ") {
		t.Errorf("plogsim link of a bad lesson file: exit %d %q", code, errOut)
	}
	if code, _, errOut := plogsim(t, "", "lesson", bad); code != 2 || !strings.Contains(errOut, bad+":24:17: ") {
		t.Errorf("plogsim lesson of a bad lesson file: exit %d %q", code, errOut)
	}
	if code, _, errOut := plogsim(t, "", "lesson", "no-such-lesson"); code != 2 || !strings.Contains(errOut, "no lesson named") {
		t.Errorf("plogsim lesson of an unknown name: exit %d %q", code, errOut)
	}
}
