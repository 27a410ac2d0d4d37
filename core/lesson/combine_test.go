package lesson

import (
	"errors"
	"strings"
	"testing"

	"plog/core/scenario"
)

// goalOn checks a goal, written in the check language, on a lesson that
// starts with one topic t of two partitions.
func goalOn(t *testing.T, goal string) Result {
	t.Helper()
	checks, err := parseChecks(strings.Split(goal, "\n"), 1)
	if err != nil {
		t.Fatalf("%q: %v", goal, err)
	}
	l := Lesson{Name: "t", Script: "seed 1\ntopic t partitions=2\n", checks: checks}
	s, err := l.Attempt("")
	if err != nil {
		t.Fatal(err)
	}
	return l.Check(s)
}

// and binds tighter than or, not tighter than both, and parentheses
// group; topic t holds and topic u does not.
func TestCombinedChecks(t *testing.T) {
	for _, tc := range []struct {
		goal  string
		holds bool
		says  string // a part of what the learner reads
	}{
		{"topic t", true, "topic t has 2 partitions"},
		{"topic u", false, "there is no topic u yet"},
		{"not topic u", true, "as it must be, not so: there is no topic u yet"},
		{"not topic t", false, "it must not be so, and it is: topic t has 2 partitions"},
		{"topic t and topic t", true, "topic t has 2 partitions; topic t has 2 partitions"},
		{"topic t and topic u", false, "there is no topic u yet"},
		{"topic u and topic t", false, "there is no topic u yet"},
		{"topic u or topic t", true, "topic t has 2 partitions"},
		{"topic u or topic v", false, "there is no topic u yet"},
		{"topic t or topic u or topic v", true, "topic t has 2 partitions"},
		{"topic t and topic t and topic v", false, "there is no topic v yet"},
		// u or (t and u)
		{"topic u or topic t and topic u", false, "there is no topic u yet"},
		// t or (u and u)
		{"topic t or topic u and topic u", true, "topic t has 2 partitions"},
		{"(topic t or topic u) and topic u", false, "there is no topic u yet"},
		{"(topic u or topic t) and topic t", true, "topic t has 2 partitions"},
		// (not u) and t
		{"not topic u and topic t", true, "as it must be, not so"},
		// (not t) or t
		{"not topic t or topic t", true, "topic t has 2 partitions"},
		{"not (topic u or topic t)", false, "it must not be so, and it is: topic t has 2 partitions"},
		{"not (topic u and topic t)", true, "as it must be, not so: there is no topic u yet"},
		{"not (topic t) and (not topic u)", false, "it must not be so"},
		{"((topic t))", true, "topic t has 2 partitions"},
		{"( topic u or ( topic v or topic t ) )", true, "topic t has 2 partitions"},
		{"maybe topic u and topic t", true, ""},
		{"expect partitions(t) is 2 and not expect partitions(t) above 2", true, "partitions(t) is 2"},
		{"(expect partitions(t) at-least 3 or topic t) and expect records(t) is 0", true, "records(t) is 0"},
		{"(expect partitions(t) at-least 3 or expect hw(t/1) is 1) and topic t", false, "partitions(t) is 2; it must be at-least 3"},
		{"expect hw(t/0) is 0 and(topic t)", true, "topic t has 2 partitions"},
		{"expect hw(t/0) is 0 and (topic t or(topic u))", true, "topic t has 2 partitions"},
		{"not(expect hw(t/0) above 0)", true, "as it must be, not so"},
	} {
		r := goalOn(t, tc.goal)
		if r.Solved != tc.holds || !strings.Contains(r.Progress, tc.says) {
			t.Errorf("%s: %v %q, want %v and %q", tc.goal, r.Solved, r.Progress, tc.holds, tc.says)
		}
	}
}

// A combined line's sentences quote the values of its checks: a name
// several find is the first's, and a check that did not run found none.
func TestCombinedValues(t *testing.T) {
	for _, tc := range []struct{ goal, says string }{
		{"expect partitions(t) is 3 and topic t\n  else: t has {value}, not {other}, partitions", "t has 2, not 3, partitions"},
		{"topic t and expect partitions(t) is 3\n  else: {partitions} and {value}", "2 and 2"},
		{"expect records(t) is 1 or expect partitions(t) is 3\n  else: {value} records", "0 records"},
		{"topic u or expect partitions(t) is 3\n  else: [{partitions}]{value}", "2"},
		// and stops at topic u, so the expect check after it never ran.
		{"topic u and expect partitions(t) is 3\n  else: u[ {value}]", "u"},
		{"a: expect records(t) at-least 5 and topic t\n  else: x\nexpect records(t) is 3\n  else: {a.value} {a.partitions}", "x"},
	} {
		if r := goalOn(t, tc.goal); r.Solved || r.Progress != tc.says {
			t.Errorf("%s: %v %q, want %q", tc.goal, r.Solved, r.Progress, tc.says)
		}
	}
	for _, tc := range []struct {
		goal, msg string
		col       int
	}{
		{"topic t and expect partitions(t) is 3\n  else: {nothing}", "no check of the line has a value {nothing}; they have {partitions}, {value}, {other}", 9},
		{"topic t and topic u\n  else: {value}", "no check of the line has a value {value}; they have {partitions}", 9},
		{"members g 1 and settled g\n  else: {value}", "no check of the line has a value {value}; they have {count}", 9},
		{"topic t\n  else: {value}", "topic has no value {value}; it has {partitions}", 9},
		{"a: topic t and members g 1\nexpect records(t) is 3\n  else: {a.value}", "no check of the line has a value {value}; they have {partitions}, {count}", 9},
	} {
		_, err := parseChecks(strings.Split(tc.goal, "\n"), 1)
		var perr *scenario.Error
		if !errors.As(err, &perr) || perr.Msg != tc.msg || perr.Col != tc.col {
			t.Errorf("%s: %v, want %d: %s", tc.goal, err, tc.col, tc.msg)
		}
	}
}

// A line that does not combine its checks well is an error at its
// column.
func TestCombinedCheckErrors(t *testing.T) {
	for _, tc := range []struct {
		line string
		col  int
		msg  string
	}{
		{"(topic t", 1, "this ( is never closed: write ) after the checks it groups"},
		{"topic t and (topic u or (topic v)", 13, "this ( is never closed"},
		{"topic t)", 8, "this ) closes no ("},
		{") topic t", 1, "this ) closes no ("},
		{"expect hw(t/0) is 2)", 20, "this ) closes no ("},
		{"a: (topic t or topic u))", 24, "this ) closes no ("},
		{"topic t and", 9, "and goes between two checks"},
		{"and topic t", 1, "and goes between two checks"},
		{"topic t or", 9, "or goes between two checks"},
		{"or topic t", 1, "or goes between two checks"},
		{"topic t and or topic u", 9, "and goes between two checks"},
		{"(topic t or) and topic u", 10, "or goes between two checks"},
		{"topic t and (and topic u)", 14, "and goes between two checks"},
		{"not", 1, "not what? write a check after not"},
		{"topic t and not", 13, "not what?"},
		{"(not) or topic t", 2, "not what?"},
		{"not not topic t", 5, "not not: write the check itself"},
		{"()", 1, "( ) groups no check"},
		{"topic t and ( )", 13, "( ) groups no check"},
		{"topic t and (", 13, "this ( is never closed"},
		{"topic (t)", 7, "( goes before a check, not among its arguments"},
		{"topic t or maybe topic u", 12, "maybe goes at the start of the line"},
		{"topic t and tpoic u", 13, `unknown check "tpoic"`},
		{"topic t and members g", 22, "members needs 2 arguments here, not 1"},
		{"a: topic t\nb: topic t and holds c", 16, "holds names c, which labels no line above"},
		{"a: topic t\nb: topic t or holds b", 15, "holds names b, which labels no line above"},
		{"topic t and members {q.group} 1", 13, "no line above has the label q"},
	} {
		_, err := parseChecks(strings.Split(tc.line, "\n"), 1)
		var perr *scenario.Error
		if !errors.As(err, &perr) || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.msg) {
			t.Errorf("%s: %v, want column %d: %s", tc.line, err, tc.col, tc.msg)
		}
	}
}

// A word in quotes is a word, though it holds a parenthesis or an
// operator's name.
func TestCombinedQuotedWords(t *testing.T) {
	toks, err := checkTokens(`question q "(why) or not" answer="a)" and topic t`, 1)
	if err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, tok := range toks {
		words = append(words, tok.text)
	}
	if got := strings.Join(words, "|"); got != "question|q|(why) or not|answer=a)|and|topic|t" {
		t.Errorf("%s", got)
	}
	if _, err := parseChecks([]string{`question q "(why)" answer="a)" and topic t`}, 1); err != nil {
		t.Error(err)
	}
	// A quoted operator is a word: the value and, or, not.
	checks, err := parseChecks([]string{`in-order t k "and" "or" "not" b or topic t`}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if g := checks[0]; len(g.terms) != 2 || strings.Join(g.terms[0].args, " ") != "t k and or not b" || g.expr.op != orOp {
		t.Errorf("%+v", g.terms[0])
	}
}
