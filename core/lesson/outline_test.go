package lesson

import (
	"io/fs"
	"strings"
	"testing"
)

// Every built-in lesson file and the example come back byte for byte from
// their outline, and its parts' values are what the full parse reads.
func TestOutlineReadsEveryFileWhole(t *testing.T) {
	texts := map[string]string{"example": readExample(t)}
	err := fs.WalkDir(files, "files", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := files.ReadFile(path)
		texts[path] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range texts {
		o := ReadOutline(text)
		if got := o.Text(); got != text {
			t.Errorf("%s: the outline's text differs from the file's", name)
			continue
		}
		l, err := Parse(name+".lesson", text)
		if err != nil {
			t.Fatal(err)
		}
		value := func(kind PartKind, part string, index int) string {
			p, ok := o.Find(kind, part, index)
			if !ok {
				t.Errorf("%s: no %s %d", name, part, index)
			}
			return o.Value(p)
		}
		if value(PartHeader, "title", 0) != l.Title || value(PartHeader, "goal", 0) != l.Goal {
			t.Errorf("%s: title %q, goal %q", name, value(PartHeader, "title", 0), value(PartHeader, "goal", 0))
		}
		if value(PartSection, "start", 0)+"\n" != l.Script || value(PartSection, "solution", 0)+"\n" != l.Solution {
			t.Errorf("%s: start or solution differs from the parse's", name)
		}
		if o.Count("wrong") != len(l.WrongAttempts) || value(PartSection, "wrong", 0)+"\n" != l.WrongAttempts[0] {
			t.Errorf("%s: wrong attempts differ from the parse's", name)
		}
	}
}

// Setting a part rewrites its lines alone: a field changed, added or
// taken out leaves every other line of the file as it was.
func TestOutlineSetsOnePart(t *testing.T) {
	example := readExample(t)
	o := ReadOutline(example)

	retitled := o.Set(PartHeader, "title", 0, "Payments, in order")
	if want := strings.Replace(example, "title: Keep a customer's payments in order", "title: Payments, in order", 1); retitled != want {
		t.Errorf("a new title:\n%s", retitled)
	}
	regoaled := o.Set(PartHeader, "goal", 0, "Read them\nall.")
	if l, err := Parse("x.lesson", regoaled); err != nil || l.Goal != "Read them all." || l.Title != "Keep a customer's payments in order" {
		t.Errorf("a goal over two lines: %v %q", err, l.Goal)
	}
	solved := o.Set(PartHeader, "solved", 0, "Paid, in order.")
	if l, err := Parse("x.lesson", solved); err != nil || l.SolvedText != "Paid, in order." {
		t.Errorf("a solved: line added: %v\n%s", err, solved)
	}
	if back := ReadOutline(solved).Set(PartHeader, "solved", 0, " "); back != example {
		t.Errorf("the solved: line taken out again:\n%s", back)
	}

	// A check typed with a newline at its end, as a teacher presses Enter.
	checked := o.Set(PartSection, "check", 0, "read-all billing payments\n")
	l, err := Parse("x.lesson", checked)
	if err != nil || len(l.checks) != 1 || !strings.Contains(checked, "read-all billing payments\n\n## hints\n") {
		t.Errorf("one check: %v\n%s", err, checked)
	}

	// A second wrong attempt goes at the end; taking the first out leaves
	// the second, and the file ends in one newline.
	second := "produce payments key=cust-7 value=authorised\n"
	two := o.Set(PartSection, "wrong", 1, second)
	if l, err := Parse("x.lesson", two); err != nil || len(l.WrongAttempts) != 2 || l.WrongAttempts[1] != second {
		t.Fatalf("a second wrong attempt: %v\n%s", err, two)
	}
	one := ReadOutline(two).Set(PartSection, "wrong", 0, "")
	if l, err := Parse("x.lesson", one); err != nil || len(l.WrongAttempts) != 1 || l.WrongAttempts[0] != second || !strings.HasSuffix(one, "cust-7 value=authorised\n") {
		t.Errorf("the first taken out: %v\n%s", err, one)
	}
	if strings.Contains(one, "\n\n\n") {
		t.Errorf("taking a section out leaves blank lines:\n%s", one)
	}

	// The explanation keeps its blank lines around it.
	retold := o.Set(PartText, "", 0, "One paragraph.")
	if l, err := Parse("x.lesson", retold); err != nil || len(l.Text) != 1 || !strings.Contains(retold, "  order, and let group billing read them all and commit.\n\nOne paragraph.\n\n## start\n") {
		t.Errorf("a new explanation: %v\n%s", err, retold)
	}
}

// A parse error's line falls in the part the teacher wrote it in, at its
// line within the part's value.
func TestOutlinePlacesALine(t *testing.T) {
	text := strings.Replace(readExample(t), "read-all billing payments", "read-al billing payments", 1)
	_, err := Parse("x.lesson", text)
	if err == nil {
		t.Fatal("no error")
	}
	line := 24 // as TestParseErrors has it
	p, n, ok := ReadOutline(text).LineOf(line)
	if !ok || p.Kind != PartSection || p.Name != "check" || n != 2 {
		t.Errorf("line %d: %+v, line %d of it, %v", line, p, n, ok)
	}
	if p, n, ok := ReadOutline(text).LineOf(3); !ok || p.Name != "goal" || n != 1 {
		t.Errorf("the goal's second line: %+v %d %v", p, n, ok)
	}
}
