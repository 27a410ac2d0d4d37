package lesson

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// checkRow is the README's table row of one check.
func checkRow(usage, help string) string {
	return fmt.Sprintf("| `%s` | %s |", usage, help)
}

// The README's "Writing a lesson" shows the example file whole, and a row
// for every check of the language, in the language's own words.
func TestReadmeDocumentsLessonFiles(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(readme)
	if !strings.Contains(text, "```\n"+readExample(t)+"```\n") {
		t.Error("the README does not show testdata/example.lesson as it is")
	}
	for _, c := range CheckNames() {
		if row := checkRow(c[1], c[2]); !strings.Contains(text, row+"\n") {
			t.Errorf("the README has no row\n%s", row)
		}
	}
}
