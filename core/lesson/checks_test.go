package lesson

import (
	"strings"
	"testing"
)

// withChecks returns a built-in lesson with its goal said in the check
// language's general checks instead of its own.
func withChecks(t *testing.T, name, goal string) Lesson {
	t.Helper()
	l, err := Find(name)
	if err != nil {
		t.Fatal(err)
	}
	checks, err := parseChecks(strings.Split(goal, "\n"), 1)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	l.checks, l.SolvedText = checks, ""
	return l
}

// A few plain checks, without the lessons' own words, reach the same
// verdicts as several lessons' goals on each lesson's start, wrong attempt
// and solution: the language says what those goals need in more than one
// way.
func TestGeneralChecksMeetBuiltinGoals(t *testing.T) {
	goals := map[string]string{
		"offsets":       "read-all audit events\nread-all search events\ndelivered-twice audit topic=events",
		"at-least-once": "delivered-twice safe\nnot lost-unprocessed safe\nread-all safe payments\nlost-unprocessed risky",
		"compaction":    "tombstone balances acct-3\ncompacted balances\nread-all rebuild balances",
		"commit-resume": "not delivered-twice billing\nrebalanced billing\nread-all audit orders",
		"repartition":   "read-all ledger accounts\nread-all ledger accounts-v2\nrecords-at-least accounts-v2 3",
	}
	for name, goal := range goals {
		builtin, _ := Find(name)
		general := withChecks(t, name, goal)
		trials := []struct{ what, lines string }{{"start", ""}, {"solution", builtin.Solution}}
		for _, w := range builtin.WrongAttempts {
			trials = append(trials, struct{ what, lines string }{"wrong attempt", w})
		}
		for _, trial := range trials {
			s, err := builtin.Attempt(trial.lines)
			if err != nil {
				t.Fatal(err)
			}
			want, got := builtin.Check(s), general.Check(s)
			if want.Solved != got.Solved {
				t.Errorf("%s, %s: the lesson's goal says %v (%s), the plain checks %v (%s)", name, trial.what, want.Solved, want.Progress, got.Solved, got.Progress)
			}
		}
	}
}

// not turns a check over, and says why in the check's own words.
func TestNot(t *testing.T) {
	l := withChecks(t, "time-lag", "not alert analytics")
	s, err := l.Attempt("config group analytics lag.alert.records=1000")
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); r.Solved || !strings.HasPrefix(r.Progress, "it must not be so, and it is: group analytics alerts: ") {
		t.Errorf("%+v", r)
	}
	s, _ = l.Attempt("")
	if r := l.Check(s); !r.Solved || !strings.HasPrefix(r.Progress, "as it must be, not so: group analytics does not alert") {
		t.Errorf("%+v", r)
	}
	// A check's name may quote a labelled line above.
	checks, err := parseChecks([]string{"p: pick-group t", "members {p.group} 1", "strategy {p.group} range"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	quoting := Lesson{Name: "t", Script: "seed 1\ntopic t partitions=1\njoin g m1 topics=t\nadvance 3s\n", checks: checks}
	if s, err := quoting.Attempt(""); err != nil || !quoting.Check(s).Solved {
		t.Errorf("quoting a label: %v %+v", err, quoting.Check(s))
	}
	for _, bad := range []string{"not", "not not alert x", "members {q.group} 1", "a: exists g\nmembers {a.nothing} 1"} {
		if _, err := parseChecks(strings.Split(bad, "\n"), 1); err == nil {
			t.Errorf("%q parses", bad)
		}
	}
}

// Each general check, on a small scenario: what it says while it does not
// hold, and once it does.
func TestGeneralChecks(t *testing.T) {
	const start = `seed 5
brokers 3
topic t partitions=2 replication.factor=3 retention.ms=1h
config group g auto.offset.reset=earliest enable.auto.commit=false
join g m1 topics=t
advance 3s
`
	cases := []struct{ check, lines, want string }{
		{"records-at-least t 2 key=k", "produce t key=k value=a", "t holds 1 record with key k; it must hold at least 2"},
		{"records-at-least t 2 key=k", "produce t key=k value=a count=2", "solved: t holds 2 records with key k"},
		{"tombstone t k", "produce t key=k value=\"\"", "k's latest record in t has an empty value"},
		{"tombstone t k", "produce t key=k value=a\nproduce t key=k tombstone", "solved: k's latest record in t is a tombstone"},
		{"log-start-at-least t/0 2", "produce t value=a count=3 partition=0", "the log start offset of t/0 is 0; it must reach 2"},
		{"log-start-at-least t/0 2", "produce t value=a count=3 partition=0\nadvance 1s\ntruncate t/0 before=2", "solved: the log start offset of t/0 is 2"},
		{"config t retention.ms=7d", "", "t's retention.ms is 1h; set it to 7d"},
		{"config t retention.ms=168h", "config topic t retention.ms=7d", "solved: t's retention.ms is 7d"},
		{"owned t g", "leave g m1", "t/0 has no owner in group g"},
		{"owned t g", "", "solved: every partition of t has an owner in group g"},
		{"lag-at-most g 0", "produce t value=a count=3", "group g has committed no offset yet"},
		{"lag-at-most g 0 topic=t", "produce t value=a count=3 partition=1\nadvance 1s\npoll g m1 max=1\ncommit g m1", "group g is 2 records behind on t/1; at most 0 may be"},
		{"lag-at-most g 0", "produce t value=a count=3\nadvance 1s\npoll g m1\ncommit g m1", "solved: group g is at most 0 records behind on every partition."},
		{"delivered-twice g", "produce t value=a\nadvance 1s\npoll g m1", "nothing has reached g twice yet: poll with a member of g, and crash it before it commits"},
		{"delivered-twice g topic=t", "produce t value=a\nadvance 1s\npoll g m1", "group g has received no record of t twice yet"},
		{"received g t/0 2", "produce t value=a count=2 partition=0\nadvance 1s\npoll g m1 max=1", "group g has received 1 record of t/0; it needs 2"},
		{"committed-at-least g t/0 1", "produce t value=a partition=0\nadvance 1s\npoll g m1", "group g's committed offset on t/0 is none; it must reach 1"},
		{"restarted g t/0", "produce t value=a count=2 partition=0\nadvance 1s\npoll g m1 max=1\nleave g m1\njoin g m1 topics=t\nadvance 3s\npoll g m1", "solved: group g went on reading t/0 at offset 0 after a rebalance"},
		{"delivered-twice g topic=t/0", "produce t value=a count=2 partition=0\nadvance 1s\npoll g m1 max=1\nleave g m1\njoin g m1 topics=t\nadvance 3s\npoll g m1", "solved: group g received offsets 0 of t/0 a second time"},
		{"read-by-another g t/0", "produce t value=a partition=0\nadvance 1s\npoll g m1", "no group but g has read the records of t/0 that g read first"},
		{"kept t/0", "produce t value=a partition=0\nadvance 1s", "solved: t/0 still holds its records at the same offsets"},
		{"groups-read-all t/0 2", "produce t value=a partition=0\nadvance 1s\npoll g m1", "g read offsets 0 to 0; 2 groups must"},
		{"reread t/0", "produce t value=a partition=0\nadvance 1s\npoll g m1", "no group that read all of t/0 has read it twice"},
		{"records-at-least t 5 or records-at-least t 1", "produce t value=a", "solved: t holds 1 record"},
		{"records-at-least t 5 or records-at-least t 3", "produce t value=a", "t holds 1 record; it must hold at least 5"},
		{"aged-out t or not truncated t", "produce t value=a partition=0\nadvance 1s\ntruncate t/0 before=1", "retention has not deleted a segment of t yet: a segment goes once its newest record is more than 1h old"},
		{"truncated t", "produce t value=a partition=0\nadvance 1s\ntruncate t/0 before=1", "solved: records of t were deleted by DeleteRecords (truncate)"},
		{"outlived t/0", "produce t value=a partition=0\nadvance 2h", "every record left in t/0 is younger than retention.ms=1h"},
		{"spread t 1.5 100", "produce t value=a\nadvance 1s", "t got 1 record in the last minute: keep a producer running so that the spread shows"},
		{"spread-ahead t 1.5 100", "producer p t rate=10/s keys=uniform keyspace=1000", "solved: the producers running now keep t's skew at"},
		{"spread-ahead t 1.5 100", "producer p t rate=10/s keys=zipf keyspace=50 exponent=3", "a producer with skewed keys still runs: in the next minute t/"},
		{"restarted-all g", "crash g m1", "group g has not restarted m1 yet"},
		{"restarted-all g", "leave g m1\njoin g m1 topics=t", "solved: every member of group g restarted"},
		{"deploy-began g", "", "no member of group g has stopped or left yet"},
		{"running-at-least g 2", "join g m2 topics=t", "solved: group g has 2 members running"},
		{"exists h", "", "there is no group h yet"},
		{"pick-group t not=g", "", "no group but g reads t yet"},
		{"pick-group t not=g", "join h n1 topics=t\njoin k n2 topics=t strategy=roundrobin", "solved: group h reads t"},
		{"pick-group t not=g strategy=roundrobin", "join h n1 topics=t\njoin k n2 topics=t strategy=roundrobin", "solved: group k reads t"},
		{"topic u", "", "there is no topic u yet"},
		{"member g m2", "", "group g has no member m2"},
		{"keys-together", "produce t key=k value=a partition=0\nproduce t key=k value=b partition=1", "in t, k's records are split over partitions 0 and 1"},
		{"pick-topic not=t partitions=3", "topic u partitions=2", "no topic but t with at least 3 partitions yet"},
		{"switched t u", "topic u partitions=1\nproduce u value=a\nadvance 1s\nproduce t value=b", "t got a record at 4s, after the first record went to u at 3s"},
		{"drained g t u", "produce t value=a\nadvance 1s\ntopic u partitions=1\nproduce u value=b", "when the first record went to u at 4s, group g had not yet read 1 record of t"},
		{"processed-all g t", "produce t value=a count=2 partition=0\nadvance 1s\npoll g m1 max=1", "group g has not processed offsets 1 of t/0 yet"},
		{"online t/0", "broker crash 1\nbroker crash 2\nbroker crash 3", "t/0 is offline"},
		{"online t/0", "", "solved: t/0 is online, led by broker"},
		{"in-sync-at-least t/0 3", "broker crash 2\nadvance 1m", "t/0 has 2 replicas in sync; it needs 3"},
		{"members g 2", "", "group g has 1 member running; it needs 2"},
		{"strategy g cooperative-sticky", "", "group g uses range, not cooperative-sticky"},
		{"in-order t k a b", "produce t value=a\nproduce t value=b", "the a and b records have no key, so the partitioner chose partitions"},
		{"in-order t k a b", "produce t key=k value=b\nproduce t key=k value=a", "in partition 0, k's b (offset 0) comes before its a (offset 1)"},
		{"read-all g t", "produce t value=a count=2 partition=0\nadvance 1s\npoll g m1 max=1", "group g has not received 1 record of t/0 yet"},
		{"new-entities t 1 a b", "", "t holds the events of 0 new entities; at least 1 must be there"},
		{"new-entities t 2 a b", "produce t key=e value=a partition=0\nproduce t value=f:a partition=1", "solved: t holds the events of 2 new entities (e in partition 0 and f in partition 1)"},
		{"entities-in-order t a b", "produce t key=e value=b partition=0\nproduce t key=e value=a partition=0", "in partition 0, e's b (offset 0) comes before its a (offset 1)"},
		{"entities-one-key t a b", "produce t key=k1 value=e:a partition=0\nproduce t key=k2 value=e:b partition=0", "e's events carry the keys k1 and k2, not one"},
		{"entities-own-key t a b", "produce t key=k value=e:a\nproduce t key=k value=f:a", "e and f share the key k"},
		{"read-in-order g t a b", "produce t key=e value=a\nproduce t key=e value=b", "g has not read e's a event yet"},
		{"read-in-order g t a b", "produce t key=e value=a\nproduce t key=e value=b\nadvance 1s\npoll g m1", "solved: g read each new entity of t as a, b"},
		{"replicated t 4", "", "t has replication.factor=3; it needs 4"},
		{"leader-changed t/0", "", "has led t/0 since it was created"},
		{"leader-changed t/0", "broker crash 1\nbroker crash 2\nbroker crash 3", "solved: the leader of t/0 has changed"},
		{"lost-acked t", "", "no leader of t has crashed yet"},
		{"survived-acked t", "", "min.insync.replicas is 1: write to t with acks=all"},
		{"unclean-loss t", "", "lost no acknowledged record to an unclean election"},
		{"failed-by-crash t", "", "answered no waiting acks=all record with an error"},
		{"writable t/0", "", "solved: t/0 has brokers"},
		{"none-waiting t/0", "", "solved: no acks=all record of t/0 waits for the in-sync replicas"},
		{"not read-all g t", "produce t value=a count=2 partition=0\nadvance 1s\npoll g m1", "it must not be so, and it is: group g received every record of t"},
	}
	for _, tc := range cases {
		t.Run(tc.check, func(t *testing.T) {
			checks, err := parseChecks([]string{tc.check}, 1)
			if err != nil {
				t.Fatal(err)
			}
			l := Lesson{Name: "t", Script: start, checks: checks}
			s, err := l.Attempt(tc.lines)
			if err != nil {
				t.Fatal(err)
			}
			if got := said(l.Check(s)); !strings.Contains(got, tc.want) {
				t.Errorf("after %q:\n  got  %s\n  want %s", tc.lines, got, tc.want)
			}
		})
	}
}

// The generic group checks read a share group where they can (exists,
// lag-at-most as share lag), and where they cannot they say it is a
// share group rather than that there is no group.
func TestGenericChecksOnAShareGroup(t *testing.T) {
	text := "title: A queue\ngoal: Drain the queue.\n\nA share group.\n\n## start\ntopic jobs partitions=1\n" +
		"share-join work a topics=jobs\nshare-poll work a\nproduce jobs key=k value=v count=3\n\n## check\nexists work\n\n## hints\n- Poll.\n"
	l, err := Parse("q.lesson", text)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		check, after string
		solved       bool
		want         string
	}{
		{"exists work", "", true, "share group work exists"},
		{"lag-at-most work 0", "", false, "share group work is 3 records behind on jobs/0; at most 0 may be"},
		{"lag-at-most work 0 topic=jobs", "share-poll work a\nshare-poll work a\n", true, "share group work is at most 0 records behind on every partition of jobs"},
		{"lag-at-most work 0 topic=other", "", false, "share group work reads no partition of other yet"},
		{"read-all work jobs", "", false, "work is a share group: this check reads a consumer group's members and offsets"},
		{"owned jobs work", "", false, "work is a share group"},
	} {
		checks, err := parseChecks([]string{tc.check}, 1)
		if err != nil {
			t.Fatal(err)
		}
		l.checks = checks
		s, err := l.Attempt(tc.after)
		if err != nil {
			t.Fatal(err)
		}
		if r := l.Check(s); r.Solved != tc.solved || !strings.Contains(r.Progress, tc.want) {
			t.Errorf("%s after %q: %+v, want %v %q", tc.check, tc.after, r, tc.solved, tc.want)
		}
	}
}

// share-lock-expired sees the everyday case too: a live member too slow
// to acknowledge, whose lock runs out, and another member that takes the
// record.
func TestShareLockExpiredOfASlowLiveMember(t *testing.T) {
	text := "title: A slow worker\ngoal: Let another worker take a slow one's job.\n\nLocks expire.\n\n## start\ntopic jobs partitions=1\n" +
		"share-join work a topics=jobs share.acknowledgement.mode=explicit\nshare-join work b topics=jobs\nshare-poll work a\nshare-poll work b\nproduce jobs key=k value=v\n\n" +
		"## check\nshare-lock-expired work\n\n## hints\n- Wait.\n"
	l, err := Parse("q.lesson", text)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		after  string
		solved bool
		want   string
	}{
		{"", false, "no record of share group work has had its lock expire"},
		{"share-poll work a\n", false, "a holds jobs/0@0: its lock expires at 30s unless it acknowledges the record"},
		{"share-poll work a\nadvance 31s\n", false, "a's lock on jobs/0@0 expired before it acknowledged the record: the record is available again"},
		{"share-poll work a\nadvance 31s\nshare-poll work b\n", true, "a's lock on jobs/0@0 expired before it acknowledged the record, and b acquired the record, its delivery 2"},
	} {
		s, err := l.Attempt(tc.after)
		if err != nil {
			t.Fatal(err)
		}
		if r := l.Check(s); r.Solved != tc.solved || !strings.Contains(r.Progress, tc.want) {
			t.Errorf("after %q: %+v, want %v %q", tc.after, r, tc.solved, tc.want)
		}
	}
}
