package main

import (
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
	for _, want := range []string{"Lesson 13: " + l.Title, "Goal: Close account acct-3", "  topic balances partitions=1", "Hint 1 of 4:", "--check FILE", "--hint 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if strings.Contains(out, "Hint 2 of") {
		t.Errorf("the second hint shows before it is asked for:\n%s", out)
	}
	_, out, _ = plogsim(t, "", "lesson", "compaction", "--hint", "2")
	if !strings.Contains(out, "Hint 2 of 4:") || strings.Contains(out, "Hint 3 of") {
		t.Errorf("--hint 2 shows hints 1 and 2 only:\n%s", out)
	}
}

func TestLessonCheck(t *testing.T) {
	for _, l := range lesson.All() {
		code, out, errOut := plogsim(t, "", "lesson", l.Name, "--check", writeFile(t, l.Solution))
		if code != 0 || !strings.HasPrefix(out, "solved: ") || errOut != "" {
			t.Errorf("%s solution: exit %d, %q %q", l.Name, code, out, errOut)
		}
		code, out, _ = plogsim(t, "", "lesson", l.Name, "--check", writeFile(t, l.WrongAttempt))
		if code != 1 || !strings.HasPrefix(out, "not solved: ") {
			t.Errorf("%s wrong attempt: exit %d, %q", l.Name, code, out)
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
