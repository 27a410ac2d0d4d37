package lesson

import (
	"errors"
	"strings"
	"testing"

	"plog/core/scenario"
)

// A hint's control reference is read into its control and thing, drawn
// with its label; a wrong one is an error at its line and column.
func TestHintControlReferences(t *testing.T) {
	example := readExample(t)
	l, err := Parse("x.lesson", example)
	if err != nil {
		t.Fatal(err)
	}
	var refs []ControlRef
	var labels []string
	for _, h := range l.HintDocs {
		for _, in := range h {
			if in.Kind == InlineControl {
				refs = append(refs, ControlRef{Name: in.Control.Name, Thing: in.Control.Thing})
				labels = append(labels, in.Text)
			}
		}
	}
	want := []ControlRef{{Name: "produce-key"}, {Name: "produce"}, {Name: "poll", Thing: "b1"}, {Name: "commit", Thing: "b1"}}
	if len(refs) != len(want) {
		t.Fatalf("references %v, want %v", refs, want)
	}
	for i := range want {
		if refs[i] != want[i] {
			t.Errorf("reference %d is %+v, want %+v", i, refs[i], want[i])
		}
	}
	if strings.Join(labels, "|") != "Key|Produce|Poll|Commit" {
		t.Errorf("labels %q", labels)
	}
	if got := Plain(l.HintDocs[1]); got != "Then press Poll on b1 in billing, and Commit on b1." {
		t.Errorf("the hint as plain text is %q", got)
	}

	for _, tc := range []struct {
		name, to string
		col      int
		want     string
	}{
		{"unknown", "[Poll](control:pol b1)", 14, `unknown control "pol"; did you mean "poll"?`},
		{"no thing", "[Poll](control:poll)", 14, "control poll needs its member: write control:poll MEMBER"},
		{"a thing too many", "[Produce](control:produce b1)", 14, "control produce belongs to nothing"},
		{"empty", "[Poll](control:)", 14, "control: names no control"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(example, "[Poll](control:poll b1)", tc.to, 1)
			_, err := Parse("x.lesson", text)
			var perr *scenario.Error
			if !errors.As(err, &perr) || perr.Line != 30 || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.want) {
				t.Fatalf("error %v, want line 30 column %d: %q", err, tc.col, tc.want)
			}
		})
	}
}

// A hint that points at a control of a thing no step of the solution has
// is a typo the fairness check finds at the reference.
func TestFairnessFindsAHintsUnknownThing(t *testing.T) {
	text := strings.Replace(readExample(t), "[Commit](control:commit b1)", "[Commit](control:commit b9)", 1)
	l, err := Parse("x.lesson", text)
	if err != nil {
		t.Fatal(err)
	}
	var found *scenario.Error
	for _, err := range l.Fairness() {
		var perr *scenario.Error
		if errors.As(err, &perr) && strings.Contains(perr.Msg, "points at commit of member b9") {
			found = perr
		}
	}
	if found == nil || found.Line != 30 || found.Col != 60 {
		t.Fatalf("found %v, want the reference at line 30 column 60", found)
	}
	for _, thing := range []struct{ ref, want string }{
		{"[Commit](control:stop web)", "workload web"},
		{"[Commit](control:crash-broker 7)", "broker 7"},
		{"[Commit](control:begin shop)", "producer shop"},
		{"[Commit](control:add-partitions views)", "topic views"},
		{"[Commit](control:reset-offsets audit)", "group audit"},
	} {
		l, err := Parse("x.lesson", strings.Replace(readExample(t), "[Commit](control:commit b1)", thing.ref, 1))
		if err != nil {
			t.Fatal(err)
		}
		errs := l.Fairness()
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), thing.want) {
			t.Errorf("%s: errors %v, want one naming %s", thing.ref, errs, thing.want)
		}
	}
}
