package lesson

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// A check's own sentence may name the control to press, as an else:
// sentence does: Progress keeps the label, ProgressDoc the control.
func TestPendingSentenceNamesItsControl(t *testing.T) {
	r := pending("no transaction of %[1]s has ended yet: [Begin](control:begin %[1]s) one", "shop")
	if r.Progress != "no transaction of shop has ended yet: Begin one" {
		t.Errorf("progress %q", r.Progress)
	}
	want := []Inline{
		{Kind: InlineText, Text: "no transaction of shop has ended yet: "},
		{Kind: InlineControl, Text: "Begin", Control: ControlRef{Name: "begin", Thing: "shop"}},
		{Kind: InlineText, Text: " one"},
	}
	if !reflect.DeepEqual(r.ProgressDoc, want) {
		t.Errorf("progress doc %+v, want %+v", r.ProgressDoc, want)
	}
	if r := pending("%s has no control", "shop"); r.ProgressDoc != nil || r.Progress != "shop has no control" {
		t.Errorf("a sentence without a control: %+v", r)
	}
}

// Every control a check's sentence names in this package's code is one
// the lessons know: a name the page does not know would draw its label as
// plain text, silently.
func TestChecksNameKnownControls(t *testing.T) {
	known := map[string]bool{}
	for _, c := range Controls() {
		known[c.Name] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(control:([a-z0-9-]+)`)
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllSubmatch(src, -1) {
			found++
			if !known[string(m[1])] {
				t.Errorf("%s names control %q, which no lesson knows", f, m[1])
			}
		}
	}
	if found == 0 {
		t.Error("no check names a control: the pattern reads nothing")
	}
}
