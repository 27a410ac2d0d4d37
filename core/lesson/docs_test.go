package lesson

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// checkRow is docs/lessons.md's table row of one check.
func checkRow(c CheckDoc) string {
	values := ""
	if len(c.Values) > 0 {
		values = "`{" + strings.Join(c.Values, "}` `{") + "}`"
	}
	return fmt.Sprintf("| `%s` | %s | %s |", c.Usage, c.Help, values)
}

// docs/lessons.md, under "Writing a lesson", shows the example file whole,
// and a row for every check of the language, in the language's own words.
func TestDocsDocumentLessonFiles(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lessons.md")
	if err != nil {
		t.Fatal(err)
	}
	_, text, ok := strings.Cut(string(doc), "\n## Writing a lesson\n")
	if !ok {
		t.Fatal(`docs/lessons.md has no "## Writing a lesson"`)
	}
	if !strings.Contains(text, "```\n"+readExample(t)+"```\n") {
		t.Error("docs/lessons.md does not show testdata/example.lesson as it is")
	}
	// The excerpt of time-lag is the lesson's own.
	lesson, err := files.ReadFile("files/06-time-lag.lesson")
	if err != nil {
		t.Fatal(err)
	}
	check := string(lesson[strings.Index(string(lesson), "## check\n"):])
	check = check[:strings.Index(check, "\n\n")+1]
	solvedLines := string(lesson[strings.Index(string(lesson), "solved: "):])
	solvedLines = solvedLines[:strings.Index(solvedLines, "\n\n")+1]
	if !strings.Contains(text, "```\n"+solvedLines+"…\n"+check+"```\n") {
		t.Errorf("docs/lessons.md's excerpt of time-lag is not the lesson's:\n%s…\n%s", solvedLines, check)
	}
	for _, c := range Checks() {
		if row := checkRow(c); !strings.Contains(text, row+"\n") {
			t.Errorf("docs/lessons.md has no row\n%s", row)
		}
	}
}

// docs/lessons.md has a row for every function expect reads.
func TestDocsListEveryExpectFunction(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lessons.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range valueFuncs {
		row := fmt.Sprintf("| `%s` | %s | %s |", f.usage(), f.help, [...]string{"number", "word"}[f.result])
		if !strings.Contains(string(doc), row+"\n") {
			t.Errorf("docs/lessons.md has no row\n%s", row)
		}
	}
}

// docs/lessons.md has a row for every control a hint can point at.
func TestDocsListEveryHintControl(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lessons.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range Controls() {
		row := fmt.Sprintf("| `%s` | %s |", c.Usage(), c.Help)
		if !strings.Contains(string(doc), row+"\n") {
			t.Errorf("docs/lessons.md has no row\n%s", row)
		}
	}
}

// docs/lessons.md has a row for every field events and first-step match.
func TestDocsListEveryEventField(t *testing.T) {
	doc, err := os.ReadFile("../../docs/lessons.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range EventFields() {
		kind := "word"
		if f.Number {
			kind = "number"
		}
		row := fmt.Sprintf("| `%s=` | %s | %s |", f.Name, f.Help, kind)
		if !strings.Contains(string(doc), row+"\n") {
			t.Errorf("docs/lessons.md has no row\n%s", row)
		}
	}
}
