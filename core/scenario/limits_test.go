package scenario

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"plog/core/scenario/hostile"
)

// The compact commands of a scenario read at most MaxCompactedRecords
// records in all; past that a compact is refused and changes nothing.
func TestCompactionLimit(t *testing.T) {
	s := mustLoad(t, "topic t partitions=2 cleanup.policy=compact\nproduce t key=a value=1 count=6\nproduce t key=b value=2 count=4\ncompact t\n")
	if s.cur.compacted != 10 {
		t.Fatalf("a compaction of 10 records counted %d", s.cur.compacted)
	}
	if _, err := s.Apply("produce t key=c value=3 count=8"); err != nil {
		t.Fatal(err)
	}
	// A compaction reads what the topic holds now.
	counts, _ := s.Log().PartitionRecordCounts("t")
	held := int64(counts[0] + counts[1])
	w := s.cur.clone(nil)
	w.compacted = MaxCompactedRecords - held + 1
	state := StateText(w.log)
	if err := w.compact("t"); err == nil || !strings.Contains(err.Error(), "at most 10000000 records") {
		t.Fatalf("got %v", err)
	}
	if StateText(w.log) != state || w.compacted != MaxCompactedRecords-held+1 {
		t.Fatal("a refused compaction changed the state")
	}
	w.compacted = MaxCompactedRecords - held
	if err := w.compact("t"); err != nil {
		t.Fatalf("a compaction up to the limit: %v", err)
	}
	if w.compacted != MaxCompactedRecords {
		t.Fatalf("compacted %d, want the limit", w.compacted)
	}
	if err := w.compact("nosuch"); err == nil || w.compacted != MaxCompactedRecords {
		t.Fatalf("compacting a missing topic: %v, compacted %d", err, w.compacted)
	}

	// The count is part of the state: going back and forth keeps it.
	s = mustLoad(t, "topic t cleanup.policy=compact\nproduce t key=a value=1 count=5\ncompact t\ncompact t\n")
	if err := s.Seek(3); err != nil {
		t.Fatal(err)
	}
	if s.cur.compacted != 5 {
		t.Fatalf("after going back a step, compacted %d, want 5", s.cur.compacted)
	}
	if err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if s.cur.compacted != 10 {
		t.Fatalf("after redo, compacted %d, want 10: the active segment is never cleaned", s.cur.compacted)
	}
}

// workScript produces the most records a scenario may, then lets groups
// read them all, one after another, until the reading crosses MaxWork.
func workScript() string {
	var b strings.Builder
	b.WriteString("topic t\n")
	for range MaxRecords / MaxProduceCount {
		fmt.Fprintf(&b, "produce t value=v count=%d\n", MaxProduceCount)
	}
	for g := range MaxWork / MaxRecords {
		// Each group reads from the log start; its first join waits
		// group.initial.rebalance.delay.ms.
		fmt.Fprintf(&b, "config group g%d auto.offset.reset=earliest\njoin g%d m topics=t\nadvance 3s\n", g, g)
		for range MaxRecords / MaxPollRecords {
			fmt.Fprintf(&b, "poll g%d m max=%d\n", g, MaxPollRecords)
		}
	}
	return b.String()
}

// A scenario does at most MaxWork units of work over all its commands. The
// command that would cross the limit is refused with an error that names
// its line and the limit, and the session stays after the command before
// it, as if the script had ended there.
func TestWorkLimitStopsTheScenarioAtTheLineThatCrossesIt(t *testing.T) {
	script := workScript()
	s, err := Load(script)
	var serr *Error
	if !errors.As(err, &serr) {
		t.Fatalf("a scenario of %d units of work loaded: %v", MaxWork, err)
	}
	if !strings.Contains(serr.Msg, fmt.Sprintf("limit of %d units of work", MaxWork)) {
		t.Errorf("the error does not name the limit: %v", err)
	}
	lines := strings.Split(script, "\n")
	if serr.Line < 2 || serr.Line > len(lines) || !strings.HasPrefix(lines[serr.Line-1], "poll ") {
		t.Fatalf("the error names line %d, not a poll of the script: %v", serr.Line, err)
	}
	before, err := Parse(strings.Join(lines[:serr.Line-1], "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if s.Position() != serr.Line-1 || s.Len() != serr.Line-1 || s.Script() != Format(before) {
		t.Errorf("after the refusal the session is at step %d of %d, want %d", s.Position(), s.Len(), serr.Line-1)
	}
	// A poll command costs itself, PollWork, each record and each record's
	// delivered event.
	if s.cur.work > MaxWork || s.cur.work+1+PollWork+2*MaxPollRecords <= MaxWork {
		t.Errorf("the lines before the refused one did %d units of work: the poll of %d records would not cross %d",
			s.cur.work, MaxPollRecords, MaxWork)
	}
	// The session is the last good step: going back one step and forth
	// again replays to the same state, and the refused line, applied again
	// by hand, is refused again and changes nothing.
	state, work := StateText(s.Log()), s.cur.work
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if StateText(s.Log()) != state || s.cur.work != work {
		t.Error("the state after the refusal is not the one its steps replay to")
	}
	if _, err := s.Apply(lines[serr.Line-1]); err == nil || !strings.Contains(err.Error(), "units of work") {
		t.Errorf("applying the refused line again: %v", err)
	}
	if StateText(s.Log()) != state || s.Len() != serr.Line-1 || s.cur.work != work {
		t.Error("the line refused by Apply changed the state")
	}
}

// Each kind of work counts, and a command that would pass MaxWork is
// refused before it does the work where it can tell (a produce, the
// workloads' actions in an advance), or as soon as it passes (the records
// a poll delivers, the events). Either way the state is the last good one.
func TestWorkLimitCountsEveryKindOfWork(t *testing.T) {
	s := mustLoad(t, "topic t partitions=2\nproduce t value=v count=10\nconfig group g auto.offset.reset=earliest\njoin g m topics=t\nadvance 3s\n")
	base := s.cur.work
	if _, err := s.Apply("poll g m max=4"); err != nil {
		t.Fatal(err)
	}
	if got := s.cur.work - base; got < 1+PollWork+4 {
		t.Errorf("a poll of 4 records counted %d units of work, want the command, the poll and each record", got)
	}
	if _, err := s.Apply("consumer g m rate=10/s max=1"); err != nil {
		t.Fatal(err)
	}
	base = s.cur.work
	if _, err := s.Apply("advance 1s"); err != nil {
		t.Fatal(err)
	}
	if got := s.cur.work - base; got < 1+10*PollWork+6 {
		t.Errorf("10 polls delivering 6 records counted %d units of work", got)
	}

	// A command that goes through the whole cluster costs its replicas.
	s = mustLoad(t, "brokers 3\ntopic t partitions=16 replication.factor=3\ntopic u partitions=8\n")
	for _, tc := range []struct {
		line string
		want int64
	}{
		{"advance 1s", 1 + (16*3+8)/ReplicasPerAdvanceWork},
		{"broker isolate 2", 1 + 16*3 + 8},
		{"config topic u retention.ms=1h", 1 + 16*3 + 8},
	} {
		t.Run(tc.line, func(t *testing.T) {
			base := s.cur.work
			events, err := s.Apply(tc.line)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.cur.work - base - int64(len(events)); got != tc.want {
				t.Errorf("%s counted %d units of work besides its events, want %d", tc.line, got, tc.want)
			}
		})
	}

	for _, tc := range []struct {
		line, script string
		partWay      bool // refused once it passes the limit: the session restores the state
	}{
		{"produce t value=v count=100", "topic t\n", false},
		{"advance 1s", "topic t partitions=1000\n", false},
		{"broker crash 1", "brokers 3\ntopic t partitions=30 replication.factor=3\n", false},
		{"config topic t retention.ms=1h", "topic t partitions=100\n", false},
		{"advance 1s", "topic t\njoin g m topics=t\nconsumer g m rate=100/s\n", false},
		{"poll g m max=100", "topic t\nproduce t value=v count=100\nconfig group g auto.offset.reset=earliest\njoin g m topics=t\nadvance 3s\n", true},
		{"advance 1s", "topic t\nproduce t value=v count=100\nconfig group g auto.offset.reset=earliest\njoin g m topics=t\nadvance 3s\nconsumer g m rate=1/s max=100\n", true},
	} {
		t.Run(tc.line, func(t *testing.T) {
			s := mustLoad(t, tc.script)
			w := s.cur.clone(nil)
			w.work = MaxWork - 50
			state, before := StateText(w.log), w.work
			c, _, err := ParseLine(tc.line, 1)
			if err != nil {
				t.Fatal(err)
			}
			err = w.apply(c, 1)
			var limit workLimitError
			if !errors.As(err, &limit) || limit.before != before {
				t.Errorf("%s after %q: %v, want the work limit", tc.line, tc.script, err)
			}
			if tc.partWay {
				return
			}
			if StateText(w.log) != state {
				t.Errorf("%s after %q: refused, but the state changed", tc.line, tc.script)
			}
		})
	}
}

// A transaction's send-offsets reads every member's position: it costs a
// unit of work a partition of the scenario, so that thousands of them over
// thousands of partitions are refused, not seconds of the page's time.
func TestSendOffsetsCountsItsPartitions(t *testing.T) {
	s := mustLoad(t, "topic in partitions=1000\ntopic out\njoin g c topics=in\nproduce in key=a value=1\nadvance 5s\npoll g c\nproducer-config p transactional.id=tx\ntxn p init\ntxn p begin\nproduce out key=a value=x producer=p\n")
	before := s.cur.work
	if _, err := s.Apply("txn p send-offsets group=g"); err != nil {
		t.Fatal(err)
	}
	if spent := s.cur.work - before; spent < 1001 {
		t.Fatalf("send-offsets over 1,001 partitions spent %d units of work", spent)
	}
	// TestLongScriptsAreRefusedAndPause sends offsets until MaxWork.
}

// longScripts are the hostile scripts of a few hundred characters whose
// commands made the engine work far past what MaxWork counted: a named
// producer's retries and its sorting of the batches, transactions sending
// offsets over a thousand partitions, members moving a group between its
// protocols over two thousand; and ten times each.
var longScripts = []string{"retries", "retries x10", "send-offsets", "send-offsets x10", "protocol flips", "protocol flips x10"}

// Each long script is refused at MaxWork, and while it runs the session
// lets the browser run (its pause) every pauseEvery units of work or so:
// the work between two pauses, counted as the engine tells of it, stays
// under twice that, whatever the machine's speed.
func TestLongScriptsAreRefusedAndPause(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of scripts at MaxWork: make test runs them")
	}
	for _, h := range hostile.Scripts() {
		if !slices.Contains(longScripts, h.Name) {
			continue
		}
		t.Run(h.Name, func(t *testing.T) {
			if runtime.GOOS == "js" && !strings.HasPrefix(h.Name, "retries") {
				// Five million units of work: seconds natively, over a
				// minute under Node, on the same code.
				t.Skip("natively only")
			}
			s := NewSession()
			var lastWork, lastTicks, most int64
			s.pause = func() {
				// One piece of work the engine counted at once (an
				// assignment over 10,000 partitions) cannot pause inside:
				// the meter pauses before and after it instead.
				if s.cur.ticks-lastTicks > 1 {
					most = max(most, s.cur.work-lastWork)
				}
				lastWork, lastTicks = s.cur.work, s.cur.ticks
			}
			err := eachCommand(h.Text, func(c Command) error {
				if err := s.applyCommand(c); err != nil {
					return err
				}
				s.pause()
				return nil
			})
			if err == nil || !strings.Contains(err.Error(), "units of work") {
				t.Fatalf("the script loaded to its end (%d units of work): %v", s.cur.work, err)
			}
			if most > 2*pauseEvery {
				t.Errorf("%d units of work passed between two pauses", most)
			}
		})
	}
}
