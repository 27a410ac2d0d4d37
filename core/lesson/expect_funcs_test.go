package lesson

import (
	"errors"
	"strings"
	"testing"

	"plog/core/scenario"
)

// moreStart is a state for the functions of expect_funcs.go: a group
// that read, restarted and read again, a compacted topic, configs and an
// alert.
const moreStart = `seed 5
topic orders partitions=2 retention.ms=1h
produce orders key=a value=v partition=0 count=3
config group billing auto.offset.reset=earliest enable.auto.commit=false lag.alert.records=2
join billing c1 topics=orders strategy=roundrobin
advance 3s
poll billing c1 max=2
commit billing c1
poll billing c1
leave billing c1
join billing c1 topics=orders strategy=roundrobin
advance 3s
poll billing c1
produce orders key=a value=w partition=1 count=4
topic balances partitions=1 cleanup.policy=compact segment.records=2
produce balances key=k1 value=1
produce balances key=k1 value=2
produce balances key=k2 value=3
produce balances key=k2 tombstone
produce balances key=k3 value=""
produce balances key=k4 value=4
compact balances
config group idle auto.offset.reset=earliest
`

// moreLesson is a lesson of one line on moreStart.
func moreLesson(t *testing.T, line string) Lesson {
	t.Helper()
	text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\n" + moreStart + "\n## check\n" + line + "\n\n## hints\n- None.\n"
	l, err := Parse("e.lesson", text)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return l
}

// Each added function holding, not holding, and a name the state has
// not, said as such.
func TestExpectMoreFunctions(t *testing.T) {
	for _, tc := range []struct {
		line   string
		solved bool
		want   string
	}{
		{"expect received(billing,orders/0) is 3", true, "received(billing,orders/0) is 3"},
		{"expect received(billing,orders) at-least 4", false, "received(billing,orders) is 3; it must be at-least 4"},
		{"expect received(nobody,orders) is 0", false, "there is no group nobody yet"},
		{"expect received(billing,order) is 0", false, "there is no topic order yet"},
		{"expect unread(billing,orders/0) is 0", true, "unread(billing,orders/0) is 0"},
		{"expect unread(billing,orders) is 0", false, "unread(billing,orders) is 4; it must be is 0"},
		{"expect read-twice(billing,orders/0) is 2", true, "read-twice(billing,orders/0) is 2"},
		{"expect read-twice(billing,orders/1) is none", true, "read-twice(billing,orders/1) is none"},
		{"expect read-twice(billing,orders) is none", false, "read-twice(billing,orders) is 2; it must be is none"},
		{"expect generations(billing,orders/0) is 2", true, "generations(billing,orders/0) is 2"},
		{"expect generations(billing,orders/1) at-least 1", false, "generations(billing,orders/1) is 0"},
		{"expect resumed-at(billing,orders/0) is committed(billing,orders/0)", true, "resumed-at(billing,orders/0) is 2 and committed(billing,orders/0) is 2"},
		{"expect resumed-at(billing,orders/1) is 0", false, "group billing has read orders/1 in one generation"},
		{"expect config(orders,retention.ms) is 1h", true, "config(orders,retention.ms) is 1h"},
		{"expect config(balances,cleanup.policy) is-not compact", false, "config(balances,cleanup.policy) is compact; it must be is-not compact"},
		{"expect config(orders,min.insync.replicas) is 1", true, "config(orders,min.insync.replicas) is 1"},
		{"expect config(orders,no.such) is 1", false, "topic orders has no config no.such under these rules"},
		{"expect config(nothing,retention.ms) is 1h", false, "there is no topic nothing yet"},
		{"expect replicas(orders) is 1", true, "replicas(orders) is 1"},
		{"expect replicas(orders) at-least 2", false, "replicas(orders) is 1; it must be at-least 2"},
		{"expect replicas(nothing) is 1", false, "there is no topic nothing yet"},
		{"expect table(balances,k1) is 2", true, "table(balances,k1) is 2"},
		{"expect table(balances,k2) is none", true, "table(balances,k2) is none"},
		{`expect table(balances,k3) is ""`, true, "table(balances,k3) is "},
		{"expect table(balances,k9) is none", true, "table(balances,k9) is none"},
		{"expect table(balances,k4) is none", false, "table(balances,k4) is 4; it must be is none"},
		{"expect table(nothing,k1) is none", false, "there is no topic nothing yet"},
		{"expect compacted(balances) above 0", true, "compacted(balances) is 2"},
		{"expect compacted(orders/0) above 0", false, "compacted(orders/0) is 0"},
		{"expect compacted(orders/5) is 0", false, "topic orders has no partition 5"},
		{"expect strategy(billing) is roundrobin", true, "strategy(billing) is roundrobin"},
		{"expect strategy(billing) is range", false, "strategy(billing) is roundrobin; it must be is range"},
		{"expect strategy(nobody) is range", false, "there is no group nobody yet"},
		{"expect alert-rule(billing) is lag.alert.records=2", true, "alert-rule(billing) is lag.alert.records=2"},
		{"expect alert-rule(idle) is-not none", false, "alert-rule(idle) is none"},
		{"expect alert-rule(idle) is alert-rule(billing)", false, "alert-rule(idle) is none and alert-rule(billing) is lag.alert.records=2"},
		{"expect alert(billing) is on", true, "alert(billing) is on"},
		{"expect alert(idle) is on", false, "alert(idle) is off; it must be is on"},
		{"expect alert(nobody) is off", false, "there is no group nobody yet"},
		{"expect lost-unprocessed(billing) is 0", true, "lost-unprocessed(billing) is 0"},
		{"expect lost-unprocessed(billing) above 0", false, "lost-unprocessed(billing) is 0; it must be above 0"},
		{"expect lost-unprocessed(nobody) is 0", false, "there is no group nobody yet"},
	} {
		l := moreLesson(t, tc.line)
		s, err := l.Start()
		if err != nil {
			t.Fatal(err)
		}
		if r := l.Check(s); r.Solved != tc.solved || !strings.Contains(r.Progress, tc.want) {
			t.Errorf("%s: %+v, want %v %q", tc.line, r, tc.solved, tc.want)
		}
	}
}

// A wrong type or argument of an added function is an error where it is
// written.
func TestExpectMoreErrors(t *testing.T) {
	for _, tc := range []struct {
		line string
		col  int
		want string
	}{
		{"expect received(billing) is 2", 8, "received takes 2 arguments"},
		{"expect generations(billing,orders) is 2", 28, `generations: "orders" is not a partition`},
		{"expect resumed-at(billing,orders/0@1) is 2", 27, `"orders/0@1" names a record, not a partition`},
		{"expect read-twice(billing,orders) at-least 1", 8, "is a word; at-least compares numbers"},
		{"expect unread(billing,orders) is none", 34, "is a number and none is a word"},
		{"expect config(orders/0,retention.ms) is 1h", 15, `config: "orders/0" is not a name`},
		{"expect replicas(orders) is three", 28, "is a number and three is a word"},
		{"expect table(orders) is none", 8, "table takes 2 arguments"},
		{"expect compacted(orders) is none", 29, "is a number and none is a word"},
		{"expect strategy(billing) above 1", 8, "is a word; above compares numbers"},
		{"expect alert(billing/0) is on", 14, `alert: "billing/0" is not a name`},
		{"expect alert-rule(billing) at-most 2", 8, "is a word; at-most compares numbers"},
		{"expect lost-unprocessed(billing,orders) is 0", 8, "lost-unprocessed takes 1 argument"},
	} {
		text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\ntopic orders partitions=1\n\n## check\n" + tc.line + "\n\n## hints\n- None.\n"
		_, err := Parse("e.lesson", text)
		var perr *scenario.Error
		if !errors.As(err, &perr) || perr.Line != 10 || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.want) {
			t.Errorf("%s: %v, want 10:%d %q", tc.line, err, tc.col, tc.want)
		}
	}
}

// An argument may quote a labelled line above: the line is read again
// with it filled in.
func TestExpectQuotesALabel(t *testing.T) {
	l := moreLesson(t, "g: pick-group orders\nexpect strategy({g.group}) is roundrobin\nexpect received({g.group},orders/0) is 4")
	s, err := l.Start()
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); r.Solved || !strings.Contains(r.Progress, "received(billing,orders/0) is 3; it must be is 4") {
		t.Errorf("%+v", r)
	}
}

// groupStart is a state for assignment, stopped and acks-waiting: an
// eager group and a cooperative one on six partitions, and a replicated
// topic whose followers are cut off.
const groupStart = `seed 10
topic jobs partitions=6
join eager e1 topics=jobs strategy=range
join eager e2 topics=jobs
join eager e3 topics=jobs
join coop c1 topics=jobs strategy=cooperative-sticky
join coop c2 topics=jobs
join coop c3 topics=jobs
topic one partitions=1
join solo s1 topics=one
join solo s2 topics=one
advance 6s
brokers 3
topic orders replication.factor=3
broker isolate 2
broker isolate 3
produce orders key=a value=v acks=all partition=0 count=2
`

// A member's partitions, what a group's rebalances stopped since the
// lesson's start and the acks=all records waiting: holding, not
// holding, and a name the state has not, said as such.
func TestExpectGroupAndReplicaFunctions(t *testing.T) {
	after := "leave eager e1\nleave coop c1\npoll eager e2\npoll eager e3\npoll coop c2\npoll coop c3\nadvance 10s\n"
	for _, tc := range []struct {
		line   string
		solved bool
		want   string
	}{
		{"expect assignment(solo,s2) is none", true, "assignment(solo,s2) is none"},
		{"expect assignment(eager,e2) is none", false, "assignment(eager,e2) is jobs/0 jobs/1 jobs/2; it must be is none"},
		{"expect assignment(eager,e9) is none", false, "group eager has no member e9 yet"},
		{"expect assignment(nobody,e1) is none", false, "there is no group nobody yet"},
		{"expect stopped(coop) below stopped(eager)", true, "stopped(coop) is 2 and stopped(eager) is 6"},
		{"expect stopped(eager) below stopped(coop)", false, "stopped(eager) is 6 and stopped(coop) is 2; it must be below stopped(coop)"},
		{"expect stopped(nobody) is 0", false, "there is no group nobody yet"},
		{"expect acks-waiting(orders/0) is 2", true, "acks-waiting(orders/0) is 2"},
		{"expect acks-waiting(orders/0) is 0", false, "acks-waiting(orders/0) is 2; it must be is 0"},
		{"expect acks-waiting(orders/3) is 0", false, "topic orders has no partition 3"},
		{"expect acks-waiting(nothing/0) is 0", false, "there is no topic nothing yet"},
	} {
		text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\n" + groupStart + "\n## check\n" + tc.line + "\n\n## hints\n- None.\n"
		l, err := Parse("e.lesson", text)
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		s, err := l.Attempt(after)
		if err != nil {
			t.Fatal(err)
		}
		if r := l.Check(s); r.Solved != tc.solved || !strings.Contains(r.Progress, tc.want) {
			t.Errorf("%s: %+v, want %v %q", tc.line, r, tc.solved, tc.want)
		}
	}
	// At the start nothing has rebalanced since it, and nothing stopped.
	text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\n" + groupStart + "\n## check\nexpect stopped(eager) is 0\n\n## hints\n- None.\n"
	l, err := Parse("e.lesson", text)
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Start()
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); !r.Solved {
		t.Errorf("stopped at the start: %+v", r)
	}
}

// A wrong type or argument of assignment, stopped and acks-waiting is an
// error where it is written.
func TestExpectGroupAndReplicaErrors(t *testing.T) {
	for _, tc := range []struct {
		line string
		col  int
		want string
	}{
		{"expect assignment(billing) is none", 8, "assignment takes 2 arguments"},
		{"expect assignment(billing,c1/0) is none", 27, `assignment: "c1/0" is not a name`},
		{"expect assignment(billing,c1) at-least 1", 8, "is a word; at-least compares numbers"},
		{"expect stopped(billing) is none", 28, "is a number and none is a word"},
		{"expect stopped(billing,orders) is 0", 8, "stopped takes 1 argument"},
		{"expect acks-waiting(orders) is 0", 21, `acks-waiting: "orders" is not a partition`},
		{"expect acks-waiting(orders/0) is none", 34, "is a number and none is a word"},
	} {
		text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\ntopic orders partitions=1\n\n## check\n" + tc.line + "\n\n## hints\n- None.\n"
		_, err := Parse("e.lesson", text)
		var perr *scenario.Error
		if !errors.As(err, &perr) || perr.Line != 10 || perr.Col != tc.col || !strings.Contains(perr.Msg, tc.want) {
			t.Errorf("%s: %v, want 10:%d %q", tc.line, err, tc.col, tc.want)
		}
	}
}

// A member expect names that no step of the solution has is a typo, found
// in its group.
func TestExpectMemberNamesAreChecked(t *testing.T) {
	text := "title: Expect\ngoal: Check.\n\nA check.\n\n## start\ntopic orders partitions=1\njoin billing c1 topics=orders\n\n## check\nexpect assignment(billing,c2) is none\n\n## hints\n- None.\n\n## solution\njoin billing c3 topics=orders\n"
	l, err := Parse("e.lesson", text)
	if err != nil {
		t.Fatal(err)
	}
	errs := l.Fairness()
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "assignment(billing,c2) names member c2, which no step of the solution has") {
		t.Errorf("fairness: %v", errs)
	}
}
