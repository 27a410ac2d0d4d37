package lesson

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"plog/core/scenario"
)

// rewrite rewrites testdata/progress.golden when a change to it is meant,
// as -rewrite does for every golden file (docs/ARCHITECTURE.md).
var rewrite = flag.Bool("rewrite", false, "rewrite testdata/progress.golden")

// attempt applies lines to the lesson's start one at a time, as the page
// does, checking the goal after each, and returns the last result.
func attempt(t *testing.T, l Lesson, lines string) Result {
	t.Helper()
	s, err := l.Start()
	if err != nil {
		t.Fatal(err)
	}
	r := l.Check(s)
	for _, line := range strings.Split(strings.TrimSpace(lines), "\n") {
		if _, err := s.Apply(line); err != nil {
			t.Fatalf("%s: %q: %v", l.Name, line, err)
		}
		r = l.Check(s)
	}
	return r
}

// Every lesson's golden test: the start does not solve it, the reference
// solution does, the wrong attempt its hints name does not. The progress
// sentences are kept in testdata/progress.golden (go test -rewrite rewrites
// it) so that a change in what the learner reads shows in review.
func TestLessonsGolden(t *testing.T) {
	var golden strings.Builder
	for _, l := range All() {
		s, err := l.Start()
		if err != nil {
			t.Fatal(err)
		}
		start := l.Check(s)
		if start.Solved {
			t.Errorf("%s: the start solves it: %s", l.Name, start.Progress)
		}
		var wrongs []Result
		for i, w := range l.WrongAttempts {
			wrong := attempt(t, l, w)
			if wrong.Solved {
				t.Errorf("%s: wrong attempt %d solves it: %s", l.Name, i+1, wrong.Progress)
			}
			wrongs = append(wrongs, wrong)
		}
		right := attempt(t, l, l.Solution)
		if !right.Solved {
			t.Errorf("%s: the solution does not solve it: %s", l.Name, right.Progress)
		}
		for _, r := range append([]Result{start, right}, wrongs...) {
			if r.Progress == "" || strings.Contains(r.Progress, "%!") {
				t.Errorf("%s: bad progress sentence %q", l.Name, r.Progress)
			}
		}
		fmt.Fprintf(&golden, "== %s\nstart:  %s\n", l.Name, start.Progress)
		for _, w := range wrongs {
			fmt.Fprintf(&golden, "wrong:  %s\n", w.Progress)
		}
		fmt.Fprintf(&golden, "solved: %s\n\n", right.Progress)
	}
	const path = "testdata/progress.golden"
	if *rewrite {
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./core/lesson/ -rewrite writes it)", err)
	}
	if got := golden.String(); got != string(want) {
		t.Errorf("progress sentences differ from %s (go test -rewrite rewrites it):\n%s", path, lineDiff(string(want), got))
	}
}

// said is what a result tells the learner, "solved: " first when solved.
func said(r Result) string {
	if r.Solved {
		return "solved: " + r.Progress
	}
	return r.Progress
}

// lineDiff lists the lines that differ between two texts.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var out strings.Builder
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			fmt.Fprintf(&out, "line %d\n  want: %s\n  got:  %s\n", i+1, a, b)
		}
	}
	return out.String()
}

// Every start, solution and wrong attempt parses and applies whole, and a
// whole script (start plus solution, as a share link holds it) checks the
// same as the lines appended.
func TestScriptsApply(t *testing.T) {
	for _, l := range All() {
		scripts := map[string]string{"start": l.Script, "solution": l.Solution}
		for i, w := range l.WrongAttempts {
			scripts[fmt.Sprintf("wrong attempt %d", i+1)] = w
		}
		for what, text := range scripts {
			if _, err := scenario.Parse(text); err != nil {
				t.Errorf("%s: %s does not parse: %v", l.Name, what, err)
			}
			if what == "start" {
				continue
			}
			if _, err := scenario.Load(l.Script + text); err != nil {
				t.Errorf("%s: start and %s: %v", l.Name, what, err)
			}
		}
		s, err := l.Attempt(l.Script + l.Solution)
		if err != nil {
			t.Fatalf("%s: whole script: %v", l.Name, err)
		}
		if r := l.Check(s); !r.Solved {
			t.Errorf("%s: the whole script does not solve it: %s", l.Name, r.Progress)
		}
		if s.Len() != strings.Count(strings.TrimSpace(stripComments(l.Script+l.Solution)), "\n")+1 {
			t.Errorf("%s: the whole script applied %d commands", l.Name, s.Len())
		}
	}
}

func stripComments(script string) string {
	var lines []string
	for _, line := range strings.Split(script, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	return strings.Join(lines, "\n")
}

var slug = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)

func TestLessonTexts(t *testing.T) {
	seen := map[string]bool{}
	for _, l := range All() {
		if !slug.MatchString(l.Name) || seen[l.Name] {
			t.Errorf("name %q is not a unique slug", l.Name)
		}
		seen[l.Name] = true
		if l.Title == "" || l.Goal == "" || len(l.Text) == 0 || len(l.Hints) < 2 || len(l.checks) == 0 {
			t.Errorf("%s: title, goal, text, at least two hints and a check are needed", l.Name)
		}
		for _, p := range append(slices.Clone(l.Text), l.Hints...) {
			if strings.Count(p, "`")%2 != 0 {
				t.Errorf("%s: unbalanced backquotes in %q", l.Name, p)
			}
		}
		// Hints name the page's controls, not lines of the scenario
		// language: a learner acts on the page. What they quote is what
		// to type, never a command.
		commands := scenario.CommandNames()
		for _, h := range l.Hints {
			parts := strings.Split(h, "`")
			for i := 1; i < len(parts); i += 2 {
				if first, _, _ := strings.Cut(strings.TrimSpace(parts[i]), " "); slices.Contains(commands, first) {
					t.Errorf("%s: hint quotes the command %q: name the control that sends it instead", l.Name, parts[i])
				}
			}
		}
	}
	if len(All()) != 21 {
		t.Errorf("%d lessons, want 21", len(All()))
	}
}

func TestFind(t *testing.T) {
	l, err := Find("compaction")
	if err != nil || l.Name != "compaction" {
		t.Fatalf("Find(compaction) = %q, %v", l.Name, err)
	}
	if l, err := Find(" Key-Order "); err != nil || l.Name != "key-order" {
		t.Errorf("Find ignores case and spaces: %q, %v", l.Name, err)
	}
	_, err = Find("ofsets")
	if err == nil || !strings.Contains(err.Error(), `did you mean "offsets"?`) {
		t.Errorf("Find(ofsets): %v", err)
	}
	_, err = Find("zzzzzzzzzzzzzzzzzz")
	if err == nil || !strings.Contains(err.Error(), "the lessons are key-order, offsets,") {
		t.Errorf("Find(zzz): %v", err)
	}
}

// The goal holds only on top of the lesson's own start.
func TestCheckNeedsTheStart(t *testing.T) {
	l, _ := Find("key-order")
	changed := strings.Replace(l.Script, "key=acct-2 value=paid", "key=acct-2 value=refunded", 1)
	s, err := scenario.Load(changed + l.Solution)
	if err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); r.Solved || !strings.Contains(r.Progress, "differs from the lesson's start") {
		t.Errorf("changed start: %+v", r)
	}
	s, _ = l.Attempt(l.Solution)
	if err := s.Seek(2); err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); r.Solved || !strings.Contains(r.Progress, "only 2 of the 6 commands") {
		t.Errorf("seek into the start: %+v", r)
	}
	if err := s.Seek(s.Len()); err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); !r.Solved {
		t.Errorf("back at the end: %+v", r)
	}
	if r := l.Check(nil); r.Solved {
		t.Errorf("nil session solved it")
	}
	if r := (Lesson{}).Check(s); r.Solved {
		t.Errorf("the zero lesson solved it")
	}
}

func TestAttemptErrors(t *testing.T) {
	l, _ := Find("offsets")
	_, err := l.Attempt("seed 3\ntopic events partitions=1\n")
	var perr *scenario.Error
	if err == nil || !strings.Contains(err.Error(), `the lesson's start has "seed 2" here`) {
		t.Errorf("whole script with another start: %v", err)
	}
	_, err = l.Attempt("join audit a1 topics=events\npoll audit a9\n")
	if err == nil || !errors.As(err, &perr) || perr.Line != 2 {
		t.Errorf("error in the learner's line 2: %v", err)
	}
	_, err = l.Attempt("seed 2\ntopic events partitions=1\n")
	if err == nil || !strings.Contains(err.Error(), "ends inside the lesson's start") {
		t.Errorf("truncated start: %v", err)
	}
}

// The page checks the goal after every action: this measures one check of
// each lesson, solved, including any replay of the script it needs.
func BenchmarkCheck(b *testing.B) {
	for _, l := range All() {
		s, err := l.Attempt(l.Solution)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(l.Name, func(b *testing.B) {
			for b.Loop() {
				if !l.Check(s).Solved {
					b.Fatal("not solved")
				}
			}
		})
	}
}

// What the learner reads on the way: each case is a partial or mistaken
// attempt and a phrase its progress sentence must hold.
func TestProgressOnTheWay(t *testing.T) {
	cases := []struct{ lesson, lines, want string }{
		{"key-order", "produce orders value=created\nproduce orders value=updated\nproduce orders value=shipped", "have no key, so the partitioner chose partitions"},
		{"key-order", "produce orders key=acct-1 value=created\nproduce orders key=acct-1 value=shipped", "acct-1 has no updated event yet"},
		{"key-order", "produce orders key=acct-1 value=created\nproduce orders key=acct-1 value=shipped\nproduce orders key=acct-1 value=updated", "acct-1's shipped (offset 1) comes before its updated (offset 2)"},
		{"offsets", "join audit a1 topics=events\nadvance 3s\npoll audit a1", "group audit has read offsets 2 to 5; let a second group"},
		{"offsets", "join audit a1 topics=events\nadvance 3s\npoll audit a1 max=2", "group audit has read part of events/0"},
		{"commit-resume", "poll billing b1 max=5", "billing has read orders/2 in one run"},
		{"commit-resume", "poll billing b1 max=5\ncommit billing b1\nleave billing b1\njoin billing b1 topics=orders\nadvance 3s\npoll billing b1", "now let a second group read orders/2"},
		{"commit-resume", "poll billing b1 max=3\ncommit billing b1\nleave billing b1\njoin billing b1 topics=orders\nadvance 3s\npoll billing b1", "billing's committed offset on orders/2 is 3"},
		{"assignors", "join robin c1 topics=orders strategy=roundrobin\njoin robin c2 topics=orders", "group robin is still rebalancing"},
		{"assignors", "join robin c1 topics=orders strategy=roundrobin\njoin robin c2 topics=orders\nadvance 6s", "robin deals orders out in turn (c1 orders/0 orders/2 orders/4, c2 orders/1 orders/3); now add a fifth consumer"},
		{"retention-cliff", "config group slow lag.alert.ms=2m\nadvance 5m", "slow's alert is on (time lag of"},
		{"retention-cliff", "config group slow lag.alert.ms=2m\nadvance 15m", "before you saw its alert fire"},
		{"retention-cliff", "config group slow lag.alert.records=100\nadvance 5m\nadvance 10m", "solved"},
		{"time-lag", "config group analytics lag.alert.ms=10m\nconfig group ledger lag.alert.ms=20m", "use one rule for both"},
		{"time-lag", "config group analytics lag.alert.ms=1h\nconfig group ledger lag.alert.ms=1h", "ledger is 39m behind (40 records) and does not alert"},
		{"hot-partition", "stop web\nadvance 2m", "views got 0 records in the last minute"},
		{"hot-partition", "stop web\nproducer web views rate=40/s keys=uniform keyspace=10000\nadvance 1m", "stats is still"},
		// Bursts of random keys and faster consumers even out the last
		// minute while the skewed producer still runs: not the fix.
		{"hot-partition", "producer b0 views rate=1000/s keys=uniform keyspace=1000\nadvance 1s\nstop b0\nproducer b1 views rate=1000/s keys=uniform keyspace=1000\nadvance 1s\nstop b1\nproducer b2 views rate=1000/s keys=uniform keyspace=1000\nadvance 1s\nstop b2\nproducer b3 views rate=1000/s keys=uniform keyspace=1000\nadvance 1s\nstop b3\nproducer b4 views rate=1000/s keys=uniform keyspace=1000\nadvance 1s\nstop b4\nproducer b5 views rate=1000/s keys=uniform keyspace=1000\nadvance 1s\nstop b5\nproducer b6 views rate=1000/s keys=uniform keyspace=1000\nadvance 1s\nstop b6\nproducer b7 views rate=1000/s keys=uniform keyspace=1000\nadvance 1s\nstop b7\nstop stats s1\nconsumer stats s1 rate=100/s max=100 commit\nstop stats s2\nconsumer stats s2 rate=100/s max=100 commit\nstop stats s3\nconsumer stats s3 rate=100/s max=100 commit\nstop stats s4\nconsumer stats s4 rate=100/s max=100 commit\nadvance 20s", "a producer with skewed keys still runs: in the next minute views/1 would get"},
		{"hot-partition", "stop web\nproducer web views rate=40/s keys=uniform keyspace=10000\nadvance 5m\nproducer hot views rate=40/s keys=zipf keyspace=50 exponent=2", "a producer with skewed keys still runs"},
		{"hot-partition", "stop web\nproducer web views rate=40/s keys=uniform keyspace=10000\nadvance 5m\nadvance 1m", "solved"},
		{"hot-partition", "stop web\nproducer web views rate=40/s keys=uniform keyspace=10000\nadvance 5m\nstop web", "views would get 0 records in the next minute"},
		{"out-of-order", "produce orders key=order-8 value=order-8:created\nproduce orders key=order-8 value=order-8:updated\nproduce orders key=order-8 value=order-8:shipped", "produce a second order the same way"},
		// The order is the key when the value is the event alone.
		{"out-of-order", "produce orders key=order-8 value=created\nproduce orders key=order-8 value=updated\nproduce orders key=order-8 value=shipped\nproduce orders key=order-9 value=created\nproduce orders key=order-9 value=updated\nproduce orders key=order-9 value=shipped\npoll shipping s1", "solved"},
		{"out-of-order", "produce orders key=order-8 value=order-8:created\nproduce orders key=order-8 value=order-8:updated\nproduce orders key=order-8 value=order-8:shipped\nproduce orders key=order-9 value=order-9:created\nproduce orders key=order-9 value=order-9:updated\nproduce orders key=order-9 value=order-9:shipped\npoll shipping s1", "solved"},
		{"out-of-order", "produce orders key=order-8 value=created\nproduce orders key=order-8 value=shipped\nproduce orders key=order-8 value=updated", "order-8's shipped (offset 5) comes before its updated"},
		{"out-of-order", "produce orders key=all value=order-8:created\nproduce orders key=all value=order-8:updated\nproduce orders key=all value=order-8:shipped\nproduce orders key=all value=order-9:created\nproduce orders key=all value=order-9:updated\nproduce orders key=all value=order-9:shipped", "order-8 and order-9 share the key all"},
		{"out-of-order", "produce orders key=order-8 value=order-8:created\nproduce orders key=order-8 value=order-8:updated\nproduce orders key=order-8 value=order-8:shipped\nproduce orders key=order-9 value=order-9:created\nproduce orders key=order-9 value=order-9:updated\nproduce orders key=order-9 value=order-9:shipped", "shipping has not read order-8's created event yet"},
		{"repartition", "topic accounts-v2 partitions=3\nproduce accounts-v2 key=alice value=withdrawal", "ledger had not yet read 3 records of accounts"},
		{"repartition", "poll ledger l1\ntopic accounts-v2 partitions=3\nadvance 1s\nproduce accounts-v2 key=alice value=withdrawal", "ledger has not read 1 record of accounts-v2 yet"},
		{"repartition", "poll ledger l1\ntopic accounts-v2 partitions=3\nadvance 1s\nproduce accounts-v2 key=alice value=withdrawal\nadvance 1s\nproduce accounts key=bob value=deposit", "accounts got bob's deposit at 5s"},
		{"rebalance-moves", "leave eager e1\nadvance 10s", "group eager is rebalancing: it waits for e2 and e3 to rejoin, which a consumer does in its next poll: press Poll on e2 and e3"},
		{"rebalance-moves", "leave eager e1\npoll eager e2\npoll eager e3\nadvance 10s", "group coop has not rebalanced since the start"},
		{"rebalance-moves", "leave eager e1\njoin coop c4 topics=jobs\npoll eager e2\npoll eager e3\npoll coop c1\npoll coop c2\npoll coop c3\npoll coop c4\npoll coop c1\npoll coop c2\nadvance 10s", "eager has 2 consumers running and coop 4, and both began with three"},
		{"rebalance-moves", "join eager e4 topics=jobs\njoin coop c4 topics=jobs\npoll eager e1\npoll eager e2\npoll eager e3\npoll coop c1\npoll coop c2\npoll coop c3\npoll coop c4\npoll coop c1\npoll coop c2\npoll coop c3\nadvance 10s", "solved"},
		{"rolling-deploy", "join calm k1 topics=events instance=k1\njoin calm k2 topics=events instance=k2\njoin calm k3 topics=events instance=k3\nadvance 6s", "now restart its consumers one at a time"},
		{"rolling-deploy", "join calm k1 topics=events instance=k1\njoin calm k2 topics=events instance=k2\njoin calm k3 topics=events instance=k3\nadvance 6s\nleave calm k1\nadvance 5s\njoin calm k1 topics=events instance=k1", "restart k2 and k3 too"},
		{"rolling-deploy", "join calm k1 topics=events strategy=cooperative-sticky\njoin calm k2 topics=events\njoin calm k3 topics=events\nadvance 6s\nleave calm k1\npoll calm k2\npoll calm k3\nadvance 5s\njoin calm k1 topics=events\npoll calm k2\npoll calm k3\npoll calm k1\npoll calm k2\npoll calm k3\nadvance 10s\nleave calm k2\npoll calm k1\npoll calm k3\nadvance 5s\njoin calm k2 topics=events\npoll calm k1\npoll calm k3\npoll calm k1\npoll calm k2\npoll calm k3\nadvance 10s\nleave calm k3\npoll calm k1\npoll calm k2\nadvance 5s\njoin calm k3 topics=events\npoll calm k1\npoll calm k2\npoll calm k1\npoll calm k2\npoll calm k3\nadvance 10s", "solved"},
		{"at-least-once", "poll safe a1 max=3\ncrash safe a1", "safe's crashed member left records unprocessed"},
		{"at-least-once", "poll safe a1 max=3\ncrash safe a1\nadvance 1m\npoll safe a2", "risky has lost nothing yet"},
		{"compaction", "produce balances key=acct-3 tombstone", "balances still holds every record written to it"},
		{"compaction", "produce balances key=acct-3 tombstone\nproduce balances key=acct-2 value=45\nproduce balances key=acct-1 value=80\ncompact balances", "now rebuild the table"},
		{"compaction", "join rebuild r1 topics=balances\nadvance 3s\npoll rebuild r1\nproduce balances key=acct-3 tombstone\nproduce balances key=acct-2 value=45\nproduce balances key=acct-1 value=80\ncompact balances\npoll rebuild r1", "rebuild read balances before it was compacted"},
		{"time-retention", "truncate logs/0 before=4", "moved by DeleteRecords (truncate), not by retention"},
		{"time-retention", "advance 6m", "every record left is younger than retention.ms=10m"},
		{"replication", "produce orders key=order-3 value=created acks=1\nadvance 1s\nbroker crash 1", "broker 1's crash lost no acknowledged record"},
		{"replication", "produce orders key=order-3 value=created acks=0\nbroker crash 1", "broker 1's crash lost 1 record, but none acknowledged"},
		{"replication", "produce orders key=order-3 value=created acks=1\nbroker crash 1", "now set min.insync.replicas=2 on orders"},
		{"replication", "produce orders key=order-3 value=created acks=1\nbroker crash 1\nconfig topic orders min.insync.replicas=2", "orders/0 has broker 2 alone in sync, fewer than min.insync.replicas=2, so acks=all writes are refused (NOT_ENOUGH_REPLICAS): restart broker 1 or heal broker 3"},
		{"replication", "produce orders key=order-3 value=created acks=1\nbroker crash 1\nconfig topic orders min.insync.replicas=2\nbroker restart 1\nadvance 1s\nproduce orders key=order-4 value=created acks=all", "the in-sync replicas of orders/0 have yet to copy 1 record written with acks=all"},
		{"replication", "produce orders key=order-3 value=created acks=1\nbroker crash 1\nconfig topic orders min.insync.replicas=2\nbroker restart 1\nadvance 1s\nproduce orders key=order-4 value=created acks=all\nadvance 1s", "1 acks=all record acknowledged by brokers 1 and 2; now crash the leader, broker 2"},
		{"replication", "produce orders key=order-3 value=created acks=1\nbroker crash 1\nconfig topic orders min.insync.replicas=2\nbroker restart 1\nadvance 1s\nproduce orders key=order-4 value=created acks=all\nbroker crash 2", "broker 2 crashed before its followers copied the acks=all record, so the producer was told it failed"},
		{"replication", "config topic orders min.insync.replicas=2\nproduce orders key=order-3 value=created acks=all\nadvance 1s\nbroker crash 1", "survived broker 1's crash; now show what acks=1 risks"},
		{"replication", "config topic orders unclean.leader.election.enable=false\nproduce orders key=order-3 value=created acks=1\nbroker crash 1\nbroker crash 2", "orders/0 is offline: no live in-sync replica (ISR 2) and unclean.leader.election.enable=false. Restart a broker"},
		{"replication", "config topic orders min.insync.replicas=2\nproduce orders key=order-3 value=created acks=all\nadvance 1s\nbroker crash 1\nproduce orders key=order-4 value=created acks=1\nbroker crash 2", "an unclean election), and 3 acknowledged records were lost: every in-sync replica had crashed"},
	}
	for _, tc := range cases {
		t.Run(tc.lesson, func(t *testing.T) {
			l, err := Find(tc.lesson)
			if err != nil {
				t.Fatal(err)
			}
			r := attempt(t, l, tc.lines)
			got := said(r)
			if !strings.Contains(got, tc.want) || tc.want != "solved" && r.Solved {
				t.Errorf("%s after %q:\n  got  %s\n  want %s", tc.lesson, tc.lines, got, tc.want)
			}
		})
	}
}
