package lesson

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"plog/core/scenario"
)

// An else: sentence names controls as a hint does: read with the hints'
// reader when the file is, wrong ones errors at their [, and shown as
// their labels in the plain progress and as controls in its doc, values
// filled in beside them and inside them.
func TestElseSentenceControls(t *testing.T) {
	control := func(label, name, thing string) Inline {
		return Inline{Kind: InlineControl, Text: label, Control: ControlRef{Name: name, Thing: thing}}
	}
	text := func(s string) Inline { return Inline{Kind: InlineText, Text: s} }
	for _, tc := range []struct {
		name, sentence string
		// progress and doc are what the start reads; col and err the
		// error at line 24 instead.
		progress string
		doc      []Inline
		col      int
		err      string
	}{
		{name: "a control", sentence: "nothing produced: press [Produce](control:produce) with key cust-7",
			progress: "nothing produced: press Produce with key cust-7",
			doc:      []Inline{text("nothing produced: press "), control("Produce", "produce", ""), text(" with key cust-7")}},
		{name: "two, one of a member", sentence: "[poll](control:poll b1), then [+1 s](control:advance-1s)",
			progress: "poll, then +1 s",
			doc:      []Inline{control("poll", "poll", "b1"), text(", then "), control("+1 s", "advance-1s", "")}},
		{name: "a value beside and inside", sentence: "payments/0 ends at {hw(payments/0)}: [Poll the {hw(payments/0)} there](control:poll b1)",
			progress: "payments/0 ends at 0: Poll the 0 there",
			doc:      []Inline{text("payments/0 ends at 0: "), control("Poll the 0 there", "poll", "b1")}},
		{name: "a [part] that shows, holding one", sentence: "[at {hw(payments/0)}: [Poll](control:poll b1) on b1]",
			progress: "at 0: Poll on b1",
			doc:      []Inline{text("at 0: "), control("Poll", "poll", "b1"), text(" on b1")}},
		{name: "a [part] that does not", sentence: "none yet[ in {partition}: [Poll](control:poll b1)]; [produce](control:produce)",
			progress: "none yet; produce",
			doc:      []Inline{text("none yet; "), control("produce", "produce", "")}},
		{name: "a [part] and no control", sentence: "none yet[ in {partition}]",
			progress: "none yet"},
		{name: "unknown control", sentence: "press [Poll](control:pol b1) now",
			col: 15, err: `unknown control "pol"; did you mean "poll"?`},
		{name: "no thing", sentence: "then [Poll](control:poll)",
			col: 14, err: "control poll needs its member: write control:poll MEMBER"},
		{name: "a thing too many", sentence: "{hw(payments/0)} [Produce](control:produce b1)",
			col: 26, err: "control produce belongs to nothing: write control:produce alone"},
		{name: "an address", sentence: "see [the docs](https://kafka.apache.org)",
			col: 13, err: "a sentence's link names a control of the page"},
		{name: "no closing", sentence: "[Poll](control:poll b1",
			col: 9, err: "this link's address has no closing )"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := strings.Replace(readExample(t), "# one partition, in this order\n",
				"# one partition, in this order\n  else: "+tc.sentence+"\n", 1)
			l, err := Parse("x.lesson", file)
			if tc.err != "" {
				var perr *scenario.Error
				if !errors.As(err, &perr) || perr.Line != 24 || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.err) {
					t.Fatalf("error %v, want line 24 column %d: %q", err, tc.col, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s, err := l.Attempt("")
			if err != nil {
				t.Fatal(err)
			}
			r := l.Check(s)
			if r.Progress != tc.progress || !reflect.DeepEqual(r.ProgressDoc, tc.doc) {
				t.Errorf("progress %q %+v, want %q %+v", r.Progress, r.ProgressDoc, tc.progress, tc.doc)
			}
		})
	}
}

// The solved: sentence names controls too, and a control a sentence
// names of a thing no step of the solution has is a typo the fairness
// check finds where it is written.
func TestSolvedSentenceControlsAndFairness(t *testing.T) {
	file := strings.Replace(readExample(t), "\n\nEvery payment",
		"\nsolved: billing is done; [produce](control:produce) more, or [Poll](control:poll b1) again\n\nEvery payment", 1)
	l, err := Parse("x.lesson", file)
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Attempt(l.Solution)
	if err != nil {
		t.Fatal(err)
	}
	r := l.Check(s)
	if !r.Solved || r.Progress != "billing is done; produce more, or Poll again" || len(r.ProgressDoc) != 5 || r.ProgressDoc[3].Control.Thing != "b1" {
		t.Errorf("solved reads %+v", r)
	}
	if errs := l.Fairness(); len(errs) != 0 {
		t.Errorf("fairness: %v", errs)
	}

	for _, tc := range []struct {
		file      string
		line, col int
		want      string
	}{
		{strings.Replace(file, "control:poll b1) again", "control:poll b9) again", 1),
			5, 62, "the solved: sentence points at poll of member b9"},
		{strings.Replace(file, "# one partition, in this order\n", "# one partition, in this order\n  else: [Poll](control:commit b7)\n", 1),
			25, 9, "the else: sentence points at commit of member b7"},
	} {
		l, err := Parse("x.lesson", tc.file)
		if err != nil {
			t.Fatal(err)
		}
		errs := l.Fairness()
		var perr *scenario.Error
		if len(errs) != 1 || !errors.As(errs[0], &perr) || perr.Line != tc.line || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.want) {
			t.Errorf("fairness %v, want one error at %d:%d %q", errs, tc.line, tc.col, tc.want)
		}
	}
}
