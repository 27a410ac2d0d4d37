package lesson

import (
	"errors"
	"strings"
	"testing"

	"plog/core/scenario"
)

// expectStart is a state with something for every function to read.
const expectStart = `seed 3
topic orders partitions=2
produce orders key=a value=created partition=0
produce orders key=a value=paid partition=0
produce orders key=b value=created partition=1
config group billing auto.offset.reset=earliest enable.auto.commit=false
join billing c1 topics=orders
advance 3s
poll billing c1
commit billing c1
produce orders key=c value=late partition=1
topic jobs partitions=1
share-join work w1 topics=jobs share.acknowledgement.mode=explicit
share-poll work w1
produce jobs key=j value=v count=2
share-poll work w1
producer-config t transactional.id=tx
txn t init
txn t begin
produce orders key=k value=v producer=t partition=0
`

// expectLesson is a lesson of one expect line on expectStart.
func expectLesson(t *testing.T, line string) Lesson {
	t.Helper()
	text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\n" + expectStart + "\n## check\n" + line + "\n\n## hints\n- None.\n"
	l, err := Parse("e.lesson", text)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return l
}

// expectCase is a goal line, whether it holds, and words of what the
// learner then reads.
type expectCase struct {
	line   string
	solved bool
	want   string
}

// checkExpectCases checks each case's line, alone in a lesson, after the
// lesson's start and the steps after ("" for the start alone).
func checkExpectCases(t *testing.T, after string, cases []expectCase) {
	t.Helper()
	for _, tc := range cases {
		l := expectLesson(t, tc.line)
		s, err := l.Attempt(after)
		if err != nil {
			t.Fatal(err)
		}
		if r := l.Check(s); r.Solved != tc.solved || !strings.Contains(r.Progress, tc.want) {
			t.Errorf("%s: %+v, want %v %q", tc.line, r, tc.solved, tc.want)
		}
	}
}

// Every function, holding and not, and what the learner reads.
func TestExpectFunctions(t *testing.T) {
	checkExpectCases(t, "", []expectCase{
		{"expect records(orders) is 5", true, "records(orders) is 5"},
		{"expect records(orders/1) at-least 3", false, "records(orders/1) is 2; it must be at-least 3"},
		{"expect partitions(orders) is 2", true, "partitions(orders) is 2"},
		{"expect hw(orders/1) is 2", true, "hw(orders/1) is 2"},
		{"expect leo(orders/0) is hw(orders/0)", true, "leo(orders/0) is 3 and hw(orders/0) is 3"},
		{"expect hw(orders/0) above lso(orders/0)", true, "hw(orders/0) is 3 and lso(orders/0) is 2"},
		{"expect log-start(orders/0) is 0", true, "log-start(orders/0) is 0"},
		{"expect lso(orders/0) below 3", true, "lso(orders/0) is 2"},
		{"expect committed(billing,orders/0) is 2", true, "committed(billing,orders/0) is 2"},
		{"expect committed(billing,orders/1) is 2", false, "committed(billing,orders/1) is 1; it must be is 2"},
		{"expect lag(billing) at-most 0", false, "lag(billing) is 2; it must be at-most 0"},
		{"expect lag(billing,orders/0) is 1", true, "lag(billing,orders/0) is 1"},
		{"expect lag(work) is 2", true, "lag(work) is 2"},
		{"expect time-lag(billing) at-least 0", true, "time-lag(billing) is"},
		{"expect members(billing) is 1", true, "members(billing) is 1"},
		{"expect members(work) is 1", true, "members(work) is 1"},
		{"expect epoch(billing) is 1", true, "epoch(billing) is 1"},
		{"expect state(billing) is stable", true, "state(billing) is stable"},
		{"expect state(work) is-not empty", true, "state(work) is stable"},
		{"expect owner(billing,orders/1) is C1", true, "owner(billing,orders/1) is c1"},
		{"expect record-state(work,jobs/0@0) is acquired", true, "record-state(work,jobs/0@0) is acquired"},
		{"expect delivery-count(work,jobs/0@1) is 1", true, "delivery-count(work,jobs/0@1) is 1"},
		{"expect key(orders/1@1) is c", true, "key(orders/1@1) is c"},
		{"expect value(orders/0@1) is created", false, "value(orders/0@1) is paid; it must be is created"},
		{"expect producer-epoch(t) is 0", true, "producer-epoch(t) is 0"},
		{"expect txn-state(t) is-not ready", true, "txn-state(t) is"},
		{"expect leader(orders/0) is 1", true, "leader(orders/0) is 1"},
		{"expect isr(orders/0) is 1", true, "isr(orders/0) is 1"},
		// A name the state has not is said, not a silent false.
		{"expect lag(biling) is 0", false, "there is no group biling yet"},
		{"expect hw(orders/7) is 0", false, "topic orders has no partition 7: it has 2"},
		{"expect owner(work,jobs/0) is w1", false, "work is a share group"},
		{"expect producer-epoch(nobody) is 0", false, "there is no producer nobody yet"},
		{"not expect state(billing) is empty", true, "as it must be, not so"},
	})
}

// A line is read once: an unknown function or comparison, a wrong
// argument, a number compared with a word are errors at the file's line
// and column.
func TestExpectErrors(t *testing.T) {
	for _, tc := range []struct {
		line string
		col  int
		want string
	}{
		{"expect hv(orders/0) is 2", 8, `unknown function "hv"; did you mean "hw"?`},
		{"expect hw(orders/0) atleast 2", 21, `unknown comparison "atleast"; did you mean "at-least"?`},
		{"expect hw(orders) is 2", 11, `hw: "orders" is not a partition: write TOPIC/PARTITION (hw(TOPIC/PARTITION))`},
		{"expect hw(orders/0,x) is 2", 8, "hw takes 1 argument"},
		{"expect state(billing) at-least 2", 8, "state(billing) is a word; at-least compares numbers"},
		{"expect hw(orders/0) is stable", 24, "hw(orders/0) is a number and stable is a word"},
		{"expect 2 is 2", 8, "both constants"},
		{"expect key(orders/0) is a", 12, `key: "orders/0" names no record`},
		{"expect hw(orders/0 is 2", 8, "a function's arguments end with )"},
	} {
		text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\ntopic orders partitions=1\n\n## check\n" + tc.line + "\n\n## hints\n- None.\n"
		_, err := Parse("e.lesson", text)
		var perr *scenario.Error
		if !errors.As(err, &perr) || perr.Line != 10 || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.want) {
			t.Errorf("%s: %v, want 10:%d %q", tc.line, err, tc.col, tc.want)
		}
	}
}

// Fairness reads the names expect's functions are given.
func TestExpectNamesAreChecked(t *testing.T) {
	text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\ntopic orders partitions=1\n\n## check\nexpect lag(biling) is 0\n\n## hints\n- None.\n\n## solution\nproduce orders key=a value=b\n"
	l, err := Parse("e.lesson", text)
	if err != nil {
		t.Fatal(err)
	}
	errs := l.Fairness()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "lag(biling) names group biling, which no step of the solution has") {
		t.Errorf("fairness: %v", errs)
	}
}

// events and first-step read the timeline since the lesson's start: how
// many of a kind, and in what order.
func TestExpectEvents(t *testing.T) {
	after := "join billing c2 topics=orders\nadvance 5s\nleave billing c2\nadvance 5s\n"
	checkExpectCases(t, after, []expectCase{
		{"expect events(member-joined,billing) is 1", true, "events(member-joined,billing) is 1"},
		{"expect events(rebalance-started) at-least 1", true, "events(rebalance-started) is "},
		{"expect events(member-left,audit) is 0", true, "events(member-left,audit) is 0"},
		{"expect first-step(member-joined,billing) below first-step(member-left,billing)", true, "is 21 and first-step(member-left,billing) is 23"},
		{"expect first-step(member-left,billing) below first-step(member-joined,billing)", false, "it must be below first-step(member-joined,billing)"},
		{"expect first-step(records-lost) at-least 0", false, "no records-lost event since the lesson's start yet"},
	})
	// An event kind that is none is an error, with the nearest.
	text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\ntopic orders partitions=1\n\n## check\nexpect events(member-join) is 1\n\n## hints\n- None.\n"
	if _, err := Parse("e.lesson", text); err == nil || !strings.Contains(err.Error(), `unknown event "member-join"; did you mean "member-joined"?`) {
		t.Errorf("an unknown kind: %v", err)
	}
}

// events and first-step count only the events whose fields have the
// values given, each typed by its field.
func TestExpectEventFields(t *testing.T) {
	after := "join billing c2 topics=orders\nadvance 5s\ncrash billing c2\nadvance 1m\njoin billing c3 topics=orders\nadvance 5s\nleave billing c3\nadvance 5s\n"
	checkExpectCases(t, after, []expectCase{
		{"expect events(member-left,billing) is 2", true, "events(member-left,billing) is 2"},
		{"expect events(member-left,billing,cause=session-timeout) is 1", true, "is 1"},
		{"expect events(member-left,cause=session-timeout,member=c2) is 1", true, "is 1"},
		{"expect events(member-left,member=c3,cause=session-timeout) is 0", true, "is 0"},
		{"expect events(member-left,member=c3,cause=none) is 1", true, "is 1"},
		{"expect events(member-left,group=audit) is 0", true, "is 0"},
		{"expect events(rebalance-started,billing,generation=2) is 1", true, "is 1"},
		{"expect events(rebalance-started,billing,generation=99) is 0", true, "is 0"},
		{"expect events(delivered,billing,partition=1) at-least 1", false, "is 0"},
		{"expect first-step(member-left,member=c2) below first-step(member-left,member=c3)", true, ""},
		{"expect first-step(member-left,member=c3) below first-step(member-left,member=c2)", false, "must be below"},
		{"expect first-step(member-left,billing,cause=fenced) is 1", false, "no member-left of billing with cause=fenced event since the lesson's start yet"},
	})
	// A field that is none, or a value of the wrong type, is an error at
	// its column.
	for _, tc := range []struct {
		line string
		col  int
		want string
	}{
		{"expect events(member-left,billing,membr=c1) is 1", 35, `unknown event field "membr"; did you mean "member"?`},
		{"expect events(member-left,generation=two) is 1", 27, "generation=two: generation is a number"},
		{"expect events(member-left,cause=timeout) is 1", 27, `unknown cause "timeout"`},
		{"expect events(member-left,group=) is 1", 27, "group= has no value"},
		{"expect events(member-left,group=a,billing) is 1", 35, `"billing" comes after a FIELD=VALUE`},
		{"expect 1 is first-step(member-left,broker=x)", 36, "broker=x: broker is a number"},
	} {
		text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\ntopic orders partitions=1\n\n## check\n" + tc.line + "\n\n## hints\n- None.\n"
		_, err := Parse("e.lesson", text)
		var perr *scenario.Error
		if !errors.As(err, &perr) || perr.Line != 10 || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.want) {
			t.Errorf("%s: %v, want 10:%d %q", tc.line, err, tc.col, tc.want)
		}
	}
	// Fairness reads the names the fields give.
	text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\ntopic orders partitions=1\n\n## check\nexpect events(member-left,group=biling,member=c9) is 0\n\n## hints\n- None.\n\n## solution\njoin billing c1 topics=orders\n"
	l, err := Parse("e.lesson", text)
	if err != nil {
		t.Fatal(err)
	}
	errs := l.Fairness()
	if len(errs) != 2 || !strings.Contains(errs[0].Error(), "names group biling, which no step") || !strings.Contains(errs[1].Error(), "names member c9, which no step") {
		t.Errorf("fairness: %v", errs)
	}
}

// quoteLesson is a lesson on expectStart whose else: and solved:
// sentences are given.
func quoteLesson(solvedText, check string) (Lesson, error) {
	text := "title: Quote\ngoal: Check.\nsolved: " + solvedText + "\n\nA check.\n\n## start\n" + expectStart +
		"\n## check\n" + check + "\n\n## hints\n- None.\n\n## solution\njoin audit a1 topics=orders\n"
	return Parse("q.lesson", text)
}

// A sentence quotes the value one of expect's functions has now, read
// once with the lesson; a [part] that quotes one without a value is left
// out.
func TestSentencesQuoteFunctions(t *testing.T) {
	for _, tc := range []struct {
		solvedText, check, after string
		solved                   bool
		want                     string
	}{
		{"done", "expect lag(billing) is 0\n  else: billing is {lag(billing)} behind, {hw(orders/1)} the end of orders/1", "", false,
			"billing is 2 behind, 2 the end of orders/1"},
		{"done", "expect lag(billing) is 0\n  else: {records(orders):record} in {partitions(orders):partition}, {config(orders,retention.ms)} kept", "", false,
			"5 records in 2 partitions, 1h kept"},
		{"done", "expect lag(billing) is 0\n  else: {state(billing)}[, audit {state(audit)}]", "", false, "stable"},
		{"done", "expect lag(billing) is 0\n  else: {state(billing)}[, audit {state(audit)}]", "join audit a1 topics=orders", false, "stable, audit rebalancing"},
		{"billing read {committed(billing,orders/0)} of orders/0[; audit {lag(audit)} behind]", "expect lag(billing,orders/0) is 1", "", true,
			"billing read 2 of orders/0"},
		{"{events(member-joined,billing)} joined since, {lag(billing)} behind", "expect members(billing) is 1", "poll billing c1\ncommit billing c1", true,
			"0 joined since, 0 behind"},
		// A quote may sit beside a line's own values.
		{"done", "expect lag(billing) at-most lag(billing,orders/1)\n  else: {value} over all, {other} of one, {lag(billing,orders/0)} of the other", "", false,
			"2 over all, 1 of one, 1 of the other"},
	} {
		l, err := quoteLesson(tc.solvedText, tc.check)
		if err != nil {
			t.Fatalf("%s: %v", tc.check, err)
		}
		s, err := l.Attempt(tc.after)
		if err != nil {
			t.Fatal(err)
		}
		if r := l.Check(s); r.Solved != tc.solved || r.Progress != tc.want {
			t.Errorf("%s after %q: %+v, want %v %q", tc.check, tc.after, r, tc.solved, tc.want)
		}
	}
	// A function that is none, or a wrong argument, is an error when the
	// lesson is read, at its placeholder.
	for _, tc := range []struct {
		solvedText, check string
		line, col         int
		want              string
	}{
		{"done", "expect lag(billing) is 0\n  else: billing is {lga(billing)} behind", 31, 20, `unknown function "lga"; did you mean "lag"?`},
		{"done", "expect lag(billing) is 0\n  else: {hw(orders)}", 31, 9, `hw: "orders" is not a partition`},
		{"done", "expect lag(billing) is 0\n  else: {events(member-left,cause=late)}", 31, 9, `unknown cause "late"`},
		{"at {lag(billing,orders/0,x)}", "expect lag(billing) is 0", 3, 12, "lag takes 1 to 2 arguments"},
	} {
		_, err := quoteLesson(tc.solvedText, tc.check)
		var perr *scenario.Error
		if !errors.As(err, &perr) || perr.Line != tc.line || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.want) {
			t.Errorf("%s / %s: %v, want %d:%d %q", tc.solvedText, tc.check, err, tc.line, tc.col, tc.want)
		}
	}
}

// The fairness check finds a quoted function without a value where its
// sentence shows, and says why; inside [ ] it is left out instead.
func TestFairnessReadsQuotedFunctions(t *testing.T) {
	for _, tc := range []struct {
		solvedText, check, want string
	}{
		{"done", "expect lag(billing) is 0\n  else: audit is {lag(audit)} behind",
			"else: quotes {lag(audit)}, which has no value at the start (there is no group audit yet)"},
		// The goal holds at the start, before audit is.
		{"audit is {lag(audit)} behind", "expect members(billing) is 1",
			"3:18: solved: quotes {lag(audit)}, which has no value at the start (there is no group audit yet)"},
		{"billing {lag(billing)}, {committed(billing,orders/1)}", "expect members(billing) is 1",
			""},
		{"done", "expect lag(billing) is 0\n  else: audit is[ {lag(audit)}] behind", ""},
		{"done", "expect lag(billing) is 0\n  else: {first-step(member-left)}",
			"else: quotes {first-step(member-left)}, which has no value at the start (no member-left event since the lesson's start yet)"},
	} {
		l, err := quoteLesson(tc.solvedText, tc.check)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range l.Fairness() {
			got = append(got, e.Error())
		}
		if all := strings.Join(got, "\n"); tc.want == "" && all != "" || !strings.Contains(all, tc.want) {
			t.Errorf("%s / %s: %s, want %q", tc.solvedText, tc.check, all, tc.want)
		}
	}
}
