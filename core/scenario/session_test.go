package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"plog/core"

	"pgregory.net/rapid"
)

// fatalf is what the helpers need of *testing.T and *rapid.T.
type fatalf interface{ Fatalf(string, ...any) }

func stateJSON(t fatalf, s *Session) []byte {
	data, err := StateJSON(s.Log())
	if err != nil {
		t.Fatalf("%v", err)
	}
	return data
}

func mustLoad(t fatalf, script string) *Session {
	s, err := Load(script)
	if err != nil {
		t.Fatalf("%v", err)
	}
	return s
}

func TestFailedApplyChangesNothing(t *testing.T) {
	s := mustLoad(t, "seed 1\ntopic t partitions=2 cleanup.policy=compact\nproduce t key=a value=1\n")
	before, script := stateJSON(t, s), s.Script()
	for _, line := range []string{
		"produce t value=keyless",                         // refused by the engine
		"config topic t retention.ms=1h segment.bytes=1B", // second value refused: the first must not stick
		"prodce t key=a",                                  // does not parse
		"seed 3",                                          // not first
		"",                                                // nothing
		"advance 1s\nadvance 2s",                          // two lines
	} {
		t.Run(line, func(t *testing.T) {
			events, err := s.Apply(line)
			var perr *Error
			if !errors.As(err, &perr) || perr.Line != 3+1 {
				t.Fatalf("%q: want an *Error on line 4, got %v", line, err)
			}
			if len(events) != 1 || events[0].Kind != EventError || events[0].Detail != err.Error() {
				t.Fatalf("%q: events %+v", line, events)
			}
			if !bytes.Equal(stateJSON(t, s), before) || s.Script() != script || s.Len() != 3 || s.Position() != 3 {
				t.Fatalf("%q changed the session", line)
			}
		})
	}
	cfg, _ := s.Log().TopicConfig("t")
	if cfg.RetentionMs != core.DefaultTopicConfig().RetentionMs {
		t.Fatalf("a refused config command left retention.ms=%d", cfg.RetentionMs)
	}
}

func TestLoadStopsAtTheFailingLine(t *testing.T) {
	s, err := Load("seed 1\n# comment\ntopic t\nproduce nope key=a\nproduce t key=b\n")
	var perr *Error
	if !errors.As(err, &perr) || perr.Line != 4 || !strings.Contains(err.Error(), `unknown topic "nope"`) {
		t.Fatalf("got %v", err)
	}
	if s.Len() != 2 || s.Script() != "seed 1\ntopic t\n" {
		t.Fatalf("prefix not applied: %q", s.Script())
	}
}

// genStep draws a command line that usually applies to the small world the
// steps build (topics a and b), sometimes not.
func genStep(t *rapid.T) string {
	topic := rapid.SampledFrom([]string{"a", "b"}).Draw(t, "topic")
	member := rapid.SampledFrom([]string{"c1", "c2", "c3"}).Draw(t, "member")
	switch rapid.IntRange(0, 16).Draw(t, "kind") {
	case 10:
		return "join g " + member + " topics=" + topic + " strategy=" + rapid.SampledFrom(Strategies).Draw(t, "strategy")
	case 11:
		return "poll g " + member + " max=" + fmt.Sprint(rapid.IntRange(1, 5).Draw(t, "max"))
	case 12:
		return "commit g " + member
	case 13:
		return rapid.SampledFrom([]string{"leave", "crash"}).Draw(t, "how") + " g " + member
	case 14:
		return "consumer g " + member + " rate=2/s max=3 commit"
	case 15:
		return "reset g to-earliest"
	case 16:
		return "config group g auto.commit=true rebalance.ms=" + rapid.SampledFrom([]string{"1s", "5s"}).Draw(t, "reb")
	case 0:
		return "topic " + topic + " partitions=" + fmt.Sprint(rapid.IntRange(1, 4).Draw(t, "n")) + " segment.records=3 retention.ms=" + rapid.SampledFrom([]string{"1m", "10m"}).Draw(t, "ret")
	case 1, 2, 3:
		return fmt.Sprintf("produce %s key=k%d value=v count=%d", topic, rapid.IntRange(0, 9).Draw(t, "key"), rapid.IntRange(1, 5).Draw(t, "count"))
	case 4:
		return "produce " + topic + " value=anon"
	case 5:
		return "advance " + rapid.SampledFrom([]string{"10s", "1m", "5m"}).Draw(t, "d")
	case 6:
		return fmt.Sprintf("truncate %s/%d before=%d", topic, rapid.IntRange(0, 3).Draw(t, "p"), rapid.IntRange(0, 5).Draw(t, "off"))
	case 7:
		return "producer " + topic + "-load " + topic + " rate=" + rapid.SampledFrom([]string{"1/s", "7/m", "3/s"}).Draw(t, "rate") + " keys=zipf keyspace=5 exponent=1.1"
	case 8:
		return "stop " + topic + "-load"
	}
	return "partitions " + topic + " count=" + fmt.Sprint(rapid.IntRange(2, 6).Draw(t, "n"))
}

// Time travel: at every position reached by seek, undo and redo, the state
// equals that of a fresh session loading the script up to there.
func TestSeekMatchesReplay(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := NewSession()
		s.every = rapid.SampledFrom([]int{1, 2, 5}).Draw(t, "every")
		lines := rapid.SliceOfN(rapid.Custom(genStep), 1, 60).Draw(t, "lines")
		for _, l := range lines {
			s.Apply(l)
		}
		check := func(what string) {
			fresh := mustLoad(t, s.Script())
			if !bytes.Equal(stateJSON(t, s), stateJSON(t, fresh)) {
				t.Fatalf("after %s to %d: state differs from a fresh replay", what, s.Position())
			}
			if fmt.Sprint(s.Events()) != fmt.Sprint(fresh.Events()) {
				t.Fatalf("after %s to %d: events differ:\n%v\n%v", what, s.Position(), s.Events(), fresh.Events())
			}
		}
		check("apply")
		for range rapid.IntRange(1, 10).Draw(t, "moves") {
			switch rapid.IntRange(0, 3).Draw(t, "move") {
			case 0:
				if err := s.Seek(rapid.IntRange(0, s.Len()).Draw(t, "step")); err != nil {
					t.Fatal(err)
				}
				check("seek")
			case 1:
				if s.Undo() == nil {
					check("undo")
				}
			case 2:
				if s.Redo() == nil {
					check("redo")
				}
			case 3:
				s.Apply(genStep(t))
				check("apply")
			}
		}
	})
}

func TestApplyAfterSeekReplacesAndOffersBack(t *testing.T) {
	s := mustLoad(t, "seed 1\ntopic t\nproduce t key=a\nproduce t key=b\nproduce t key=c\n")
	if err := s.Seek(2); err != nil {
		t.Fatal(err)
	}
	if s.Len() != 5 || s.Script() != "seed 1\ntopic t\n" {
		t.Fatalf("seek changed the history: %d %q", s.Len(), s.Script())
	}
	if _, err := s.Apply("produce t key=z"); err != nil {
		t.Fatal(err)
	}
	want := []string{"produce t key=a", "produce t key=b", "produce t key=c"}
	if fmt.Sprint(s.Discarded()) != fmt.Sprint(want) || s.Len() != 3 {
		t.Fatalf("discarded %v, len %d", s.Discarded(), s.Len())
	}
	// Undo and redo keep the offer; restoring puts the old steps back ahead.
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := s.RestoreDiscarded(); err != nil {
		t.Fatal(err)
	}
	// The step it replaced is the branch now.
	if s.Len() != 5 || s.Position() != 2 || fmt.Sprint(s.Discarded()) != "[produce t key=z]" || s.DiscardedAt() != 2 {
		t.Fatalf("restore: len %d pos %d, branch %v after %d", s.Len(), s.Position(), s.Discarded(), s.DiscardedAt())
	}
	if err := s.Seek(5); err != nil {
		t.Fatal(err)
	}
	if hw, _ := s.Log().HighWatermark("t", 0); hw != 3 {
		t.Fatalf("high watermark %d after restoring three records", hw)
	}
	// The branch outlives later commands at the end; a command at an
	// earlier step makes the steps it replaces the branch.
	s.Seek(2)
	s.Apply("produce t key=y")
	s.Apply("produce t key=x")
	if fmt.Sprint(s.Discarded()) != fmt.Sprint(want) {
		t.Fatalf("branch %v after two more commands", s.Discarded())
	}
	if s.Superseded() != nil {
		t.Fatalf("commands at the end let go of %v", s.Superseded())
	}
	s.Seek(1)
	s.Apply("topic u")
	if fmt.Sprint(s.Discarded()) != "[topic t produce t key=y produce t key=x]" || s.DiscardedAt() != 1 {
		t.Fatalf("branch %v after %d", s.Discarded(), s.DiscardedAt())
	}
	// The branch it replaced is given out whole, for the page to keep.
	if got := strings.Join(s.Superseded(), "|"); got != "seed 1|topic t|produce t key=a|produce t key=b|produce t key=c" {
		t.Fatalf("superseded %q", got)
	}
	if _, err := s.ApplyLines([]string{"topic v", "topic w"}); err != nil || s.Superseded() != nil {
		t.Fatalf("the next gesture: %v, superseded %v", err, s.Superseded())
	}
	// A gesture that branches gives it out too, whatever its later lines.
	s.Seek(1)
	if _, err := s.ApplyLines([]string{"topic x", "topic y"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Superseded(), "|"); got != "seed 1|topic t|produce t key=y|produce t key=x" {
		t.Fatalf("superseded by a gesture %q", got)
	}
}

// A branch kept in a link comes back as it was replaced.
func TestKeepBranchFromALink(t *testing.T) {
	s := mustLoad(t, "seed 1\ntopic t\nproduce t key=z\n")
	if err := s.KeepBranch(4, "produce t key=a\n"); err == nil {
		t.Fatal("a branch after step 4 of 3 was kept")
	}
	if err := s.KeepBranch(2, "produce t key=a\nbogus\n"); err == nil || s.Discarded() != nil {
		t.Fatalf("a branch that does not parse: %v, kept %v", err, s.Discarded())
	}
	if err := s.KeepBranch(2, "produce t key=a\nproduce t key=b\n"); err != nil {
		t.Fatal(err)
	}
	if err := s.RestoreDiscarded(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Lines(), "|"); got != "seed 1|topic t|produce t key=a|produce t key=b" || s.Position() != 2 {
		t.Fatalf("restored %q at %d", got, s.Position())
	}
	// A branch that no longer replays (its topic is gone) changes nothing.
	if err := s.KeepBranch(1, "produce t key=c\n"); err != nil {
		t.Fatal(err)
	}
	if err := s.RestoreDiscarded(); err == nil {
		t.Fatal("a branch producing to a topic it never made was restored")
	}
	if got := strings.Join(s.Lines(), "|"); got != "seed 1|topic t|produce t key=a|produce t key=b" || s.Position() != 2 || s.DiscardedAt() != 1 {
		t.Fatalf("after a failed restore: %q at %d", got, s.Position())
	}
	if hw, _ := s.Log().HighWatermark("t", 0); hw != 0 {
		t.Fatalf("after a failed restore, the state at step 2 has %d records", hw)
	}
}

// A gesture of several lines refused part way changes nothing: the
// position, the steps ahead, the branch, the state.
func TestApplyLinesIsAllOrNothing(t *testing.T) {
	script := "seed 1\ntopic t\n" + strings.Repeat("produce t key=a\n", 100) + "advance 1s\nadvance 1s\nadvance 1s\n"
	s := mustLoad(t, script)
	if err := s.Seek(101); err != nil {
		t.Fatal(err)
	}
	lines, pos := s.Lines(), s.Position()
	if _, err := s.ApplyLines([]string{"produce t key=b", "produce t key=c count=2000000"}); err == nil {
		t.Fatal("a produce past the record limit was applied")
	}
	if !slices.Equal(s.Lines(), lines) || s.Position() != pos || s.Discarded() != nil {
		t.Fatalf("a refused gesture changed the history: %d of %d, branch %v", s.Position(), s.Len(), s.Discarded())
	}
	if hw, _ := s.Log().HighWatermark("t", 0); hw != 99 {
		t.Fatalf("after a refused gesture, high watermark %d, want 99", hw)
	}
	if err := s.Seek(s.Len()); err != nil {
		t.Fatal(err)
	}
	if s.Log().Now() != 3000 {
		t.Fatalf("the redo steps no longer replay: time %d", s.Log().Now())
	}
}

func TestUndoRedoBounds(t *testing.T) {
	s := NewSession()
	if s.Undo() == nil || s.Redo() == nil || s.Seek(1) == nil || s.Seek(-1) == nil {
		t.Fatal("moves past the ends must fail")
	}
}

// Checkpoints stay within their bounds however long the history grows.
func TestCheckpointsAreBounded(t *testing.T) {
	s := mustLoad(t, "topic t\n")
	for i := range 5000 {
		if _, err := s.Apply(fmt.Sprintf("produce t key=k%d", i%7)); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.checkpoints) > maxCheckpoints+1 {
		t.Fatalf("%d checkpoints", len(s.checkpoints))
	}
	if err := s.Seek(1234); err != nil {
		t.Fatal(err)
	}
	if hw, _ := s.Log().HighWatermark("t", 0); hw != 1233 {
		t.Fatalf("high watermark %d at step 1234", hw)
	}
}

func TestRecordLimit(t *testing.T) {
	full := "topic t\n" + strings.Repeat("produce t count=10000\n", MaxRecords/10000-1) + "produce t count=9990\n"
	s := mustLoad(t, full)
	script := s.Script()
	// A produce that would pass the limit is refused whole, not cut short,
	// and changes nothing.
	for _, line := range []string{"produce t count=11", "produce t count=10000"} {
		if _, err := s.Apply(line); err == nil || !strings.Contains(err.Error(), "take the scenario to") || !strings.Contains(err.Error(), "at most 1000000") {
			t.Fatalf("%s: got %v", line, err)
		}
		if hw, _ := s.Log().HighWatermark("t", 0); hw != MaxRecords-10 || s.Script() != script {
			t.Fatalf("%s: a refused produce changed the state: high watermark %d", line, hw)
		}
	}
	// Up to the limit, records are accepted.
	if _, err := s.Apply("produce t count=10"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("produce t"); err == nil || !strings.Contains(err.Error(), "take the scenario to 1000001 records") {
		t.Fatalf("got %v", err)
	}

	// Workloads are counted before they act: an advance that would pass
	// the limit is refused before any record is made.
	s = mustLoad(t, "topic t\nproduce t count=1000\nproducer p t rate=1000/s\n")
	if _, err := s.Apply("advance 999999ms"); err == nil || !strings.Contains(err.Error(), "take the scenario to 1000999 records") {
		t.Fatalf("got %v", err)
	}
	if hw, _ := s.Log().HighWatermark("t", 0); s.Log().Now() != 0 || hw != 1000 {
		t.Fatalf("a refused advance changed the state: clock %d, high watermark %d", s.Log().Now(), hw)
	}
	s = mustLoad(t, "topic t\nproduce t count=1000\nproducer p t rate=1000/s\nstop p\n")
	if _, err := s.Apply("advance 999999ms"); err != nil {
		t.Fatalf("a stopped producer still counts: %v", err)
	}
}

func TestPartitionLimit(t *testing.T) {
	script := ""
	for i := range MaxTotalPartitions / MaxPartitions {
		script += fmt.Sprintf("topic t%d partitions=1000\n", i)
	}
	s := mustLoad(t, script)
	if _, err := s.Apply("topic x"); err == nil || !strings.Contains(err.Error(), "at most 10000 partitions") {
		t.Fatalf("got %v", err)
	}
}

// The language writes topic configs canonically, and the engine reads the
// canonical values back as the values written.
func TestTopicConfigsCanonical(t *testing.T) {
	// Canonical values read back in the engine as the values written.
	s := mustLoad(t, "topic t segment.bytes=4096 retention.ms=604800000 retention.bytes=-1 segment.records=-1 min.compaction.lag.ms=0\n")
	cfg, _ := s.Log().TopicConfig("t")
	if cfg.SegmentBytes != 4096 || cfg.RetentionMs != 7*24*3600*1000 || cfg.RetentionBytes != -1 || cfg.SegmentRecords != -1 {
		t.Fatalf("%+v", cfg)
	}
	if !strings.Contains(s.Script(), "segment.bytes=4KB") || !strings.Contains(s.Script(), "retention.ms=7d") {
		t.Fatalf("not canonical: %s", s.Script())
	}
}

// A consumer workload polls at its rate and commits, so the lag it leaves
// depends on the rates; it stops when its member leaves.
func TestConsumerWorkload(t *testing.T) {
	s := mustLoad(t, `seed 1
topic t partitions=2 retention.ms=-1 segment.records=-1
producer p t rate=10/s keys=sequence
config group g auto.offset.reset=earliest enable.auto.commit=false
join g c1 topics=t
advance 3s
consumer g c1 rate=1/s max=5 commit
advance 10s
`)
	v, err := s.Log().Group("g")
	if err != nil {
		t.Fatal(err)
	}
	// 130 records produced; 10 polls of at most 5 committed at most 50.
	var committed int64
	for _, p := range v.Partitions {
		committed += p.Committed
	}
	if committed != 50 || v.TotalLag != 80 {
		t.Fatalf("committed %d, lag %d", committed, v.TotalLag)
	}
	if _, err := s.Apply("consumer g c1 rate=1/s"); err == nil {
		t.Fatal("a second consumer for one member was accepted")
	}
	if _, err := s.Apply("consumer g nobody rate=1/s"); err == nil || !strings.Contains(err.Error(), "no member") {
		t.Fatalf("a consumer for a stranger: %v", err)
	}
	s.Apply("leave g c1")
	if _, err := s.Apply("stop g c1"); err == nil {
		t.Fatal("leaving did not stop the consumer")
	}
}

// A workload that fails stops, with an error event, and the advance goes on.
func TestFailingWorkloadStops(t *testing.T) {
	s := mustLoad(t, "topic t\njoin g c1 topics=t\nadvance 3s\nconfig group g auto.offset.reset=none\nconsumer g c1 rate=1/s\n")
	events, err := s.Apply("advance 5s")
	if err != nil {
		t.Fatal(err)
	}
	var stopped []string
	for _, e := range events {
		if e.Kind == EventError {
			stopped = append(stopped, e.Detail)
		}
	}
	if len(stopped) != 1 || !strings.HasPrefix(stopped[0], "consumer g/c1 stopped: ") || s.Log().Now() != 8000 {
		t.Fatalf("events %v, clock %d", stopped, s.Log().Now())
	}
}

func TestWorkloadRates(t *testing.T) {
	s := mustLoad(t, "seed 5\ntopic t partitions=3\nproducer p t rate=20/s keys=sequence\nadvance 10s\nproducer q t rate=7/m keys=uniform keyspace=3\nadvance 1m\n")
	total := 0
	for p := range 3 {
		n, _ := s.Log().RecordCount("t", p)
		total += n
	}
	// p: 20/s for 70s; q: 7/m for 60s.
	if total != 20*70+7 {
		t.Fatalf("%d records", total)
	}
	// The k-th record of a 7/m producer is due at ceil(k*60000/7) ms after it started.
	r, _ := s.Log().Records("t", 0)
	for _, rec := range r {
		if strings.HasPrefix(rec.Value, "p-") && rec.Timestamp%50 != 0 {
			t.Fatalf("p record at %d", rec.Timestamp)
		}
	}
}

// Same script, same records; another seed, other keys.
func TestWorkloadsAreDeterministic(t *testing.T) {
	script := "seed %d\ntopic t partitions=4\nproducer p t rate=50/s keys=zipf keyspace=20 exponent=1.2\nproducer u t rate=10/s keys=uniform keyspace=5\nadvance 30s\n"
	a := stateJSON(t, mustLoad(t, fmt.Sprintf(script, 1)))
	b := stateJSON(t, mustLoad(t, fmt.Sprintf(script, 1)))
	c := stateJSON(t, mustLoad(t, fmt.Sprintf(script, 2)))
	if !bytes.Equal(a, b) {
		t.Fatal("one script gave two states")
	}
	if bytes.Equal(a, c) {
		t.Fatal("the seed changed nothing")
	}
}

// Zipf keys: the most frequent key is key-0, and frequencies fall with rank
// roughly as k^-s.
func TestZipfSkew(t *testing.T) {
	s := mustLoad(t, "seed 3\ntopic t partitions=1 retention.ms=-1 segment.records=-1\nproducer p t rate=1000/s keys=zipf keyspace=10 exponent=1\nadvance 20s\n")
	records, _ := s.Log().Records("t", 0)
	counts := map[string]int{}
	for _, r := range records {
		counts[r.Key]++
	}
	n := float64(len(records))
	h := 0.0
	for k := 1; k <= 10; k++ {
		h += 1 / float64(k)
	}
	for k := 1; k <= 10; k++ {
		want := n / float64(k) / h
		got := float64(counts[fmt.Sprintf("key-%d", k-1)])
		if math.Abs(got-want) > 4*math.Sqrt(want)+1 {
			t.Errorf("key-%d: %v records, expected about %.0f", k-1, got, want)
		}
	}
}

func TestDeterministicMath(t *testing.T) {
	for _, x := range []float64{1, 1.5, 2, 3, 10, 99, 1000, 12345, 100000} {
		if got, want := detLog(x), math.Log(x); math.Abs(got-want) > 1e-14*math.Max(1, want) {
			t.Errorf("detLog(%v) = %v, want %v", x, got, want)
		}
	}
	for _, y := range []float64{0, -0.1, -1, -2.5, -10, -50, -115} {
		if got, want := detExp(y), math.Exp(y); math.Abs(got-want) > 1e-14*want {
			t.Errorf("detExp(%v) = %v, want %v", y, got, want)
		}
	}
}

func TestMulDiv(t *testing.T) {
	for _, tc := range []struct {
		a, b, c int64
		up      bool
		want    int64
	}{
		{7, 60000, 7, true, 60000},
		{1, 60000, 7, true, 8572},
		{1, 60000, 7, false, 8571},
		{math.MaxInt64, math.MaxInt64, 1, false, math.MaxInt64},
		{3_000_000_000_000, 3_600_000, 3_600_000, false, 3_000_000_000_000},
	} {
		t.Run(fmt.Sprintf("mulDiv(%d, %d, %d, %v)", tc.a, tc.b, tc.c, tc.up), func(t *testing.T) {
			if got := mulDiv(tc.a, tc.b, tc.c, tc.up); got != tc.want {
				t.Errorf("mulDiv(%d, %d, %d, %v) = %d, want %d", tc.a, tc.b, tc.c, tc.up, got, tc.want)
			}
		})
	}
}

// FuzzLoad: no script makes the engine or the session panic (the session
// turns a panic into an "internal error", which this test reports), and a
// script that loads gives the same state when loaded again.
func FuzzLoad(f *testing.F) {
	f.Add("seed 1\ntopic t partitions=3\nproduce t key=a count=5\njoin g c topics=t\nadvance 3s\npoll g c\ncommit g c\n")
	f.Add("topic t cleanup.policy=compact segment.records=1\nproduce t key=a tombstone\ncompact t\nadvance 1h\ncompact t\n")
	f.Add("topic t\nproducer p t rate=9/s keys=zipf keyspace=4 exponent=2\njoin g c topics=t strategy=cooperative-sticky\nconsumer g c rate=3/s commit\nadvance 9s\ncrash g c\nadvance 1m\nreset g to-datetime=1s\n")
	for _, script := range flagWordScripts() {
		f.Add("topic x\ntopic \"tombstone\"\njoin x x topics=x\n" + script)
	}
	f.Fuzz(func(t *testing.T, script string) {
		s, err := Load(script)
		if err != nil && strings.Contains(err.Error(), "internal error") {
			t.Fatalf("panic while applying: %v", err)
		}
		again, _ := Load(s.Script())
		if !bytes.Equal(stateJSON(t, s), stateJSON(t, again)) {
			t.Fatal("the applied script does not give the same state twice")
		}
	})
}

// StepLine is the line of Lines that made a step, and "" where no command
// did: before the first step and past the history.
func TestStepLineIsTheLineThatMadeTheStep(t *testing.T) {
	s := mustLoad(t, "seed 1\ntopic t\nproduce t key=z\n")
	lines := s.Lines()
	for step := -1; step <= s.Len()+1; step++ {
		want := ""
		if step >= 1 && step <= len(lines) {
			want = lines[step-1]
		}
		if got := s.StepLine(step); got != want {
			t.Errorf("StepLine(%d) = %q, want %q", step, got, want)
		}
	}
}

// Lines keeps the lines it wrote: they must follow the history as it
// changes (a command replacing those ahead, a branch brought back, a
// failed gesture rolled back), and a slice handed out before must not
// change under its holder (the page compares the timeline's lines with the
// last ones it drew).
func TestLinesFollowTheHistory(t *testing.T) {
	s := mustLoad(t, "topic orders partitions=1\nproduce orders value=a\nproduce orders value=b\n")
	before := s.Lines()
	want := slices.Clone(before)
	if err := s.Seek(1); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("produce orders value=c"); err != nil {
		t.Fatal(err)
	}
	if got := s.Lines(); !slices.Equal(got, []string{"topic orders partitions=1", "produce orders value=c"}) {
		t.Errorf("after a command replaced two steps, Lines() = %q", got)
	}
	if !slices.Equal(before, want) {
		t.Errorf("the lines handed out before changed to %q, want %q", before, want)
	}
	if err := s.RestoreDiscarded(); err != nil {
		t.Fatal(err)
	}
	if got := s.Lines(); !slices.Equal(got, want) {
		t.Errorf("after the branch came back, Lines() = %q, want %q", got, want)
	}
	if _, err := s.ApplyLines([]string{"produce orders value=d", "produce nowhere value=e"}); err == nil {
		t.Fatal("a gesture with a produce to no topic was accepted")
	}
	if got := s.Lines(); !slices.Equal(got, want) {
		t.Errorf("after a gesture failed, Lines() = %q, want %q", got, want)
	}
	if got := s.ScriptLines(2); !slices.Equal(got, []string{"rules " + strconv.Itoa(core.LatestRules), "topic orders partitions=1", "produce orders value=a"}) {
		t.Errorf("ScriptLines(2) = %q", got)
	}
}
