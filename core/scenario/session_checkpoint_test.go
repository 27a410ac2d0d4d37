package scenario

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// bigProduces is a topic and n produces of count records each, after a
// few small commands.
func bigProduces(n, count int) string {
	var b strings.Builder
	b.WriteString("seed 1\ntopic orders partitions=4\nproduce orders key=a value=v\nadvance 1s\n")
	for i := range n {
		fmt.Fprintf(&b, "produce orders value=v%d count=%d\n", i, count)
	}
	return b.String()
}

func highWatermarks(t *testing.T, s *Session) string {
	t.Helper()
	var hws []string
	for p := range 4 {
		hw, err := s.Log().HighWatermark("orders", p)
		if err != nil {
			t.Fatal(err)
		}
		hws = append(hws, fmt.Sprint(hw))
	}
	return strings.Join(hws, " ")
}

func TestUndoAfterABigProduceDoesNotReplayIt(t *testing.T) {
	script := bigProduces(10, MaxProduceCount)
	s := mustLoad(t, script)
	lines := strings.Split(strings.TrimSpace(script), "\n")
	want := mustLoad(t, strings.Join(lines[:len(lines)-1], "\n"))

	s.replayed = 0
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if s.replayed != 0 {
		t.Errorf("undo replayed %d records of work, want none: the step before is a checkpoint", s.replayed)
	}
	if got, want := highWatermarks(t, s), highWatermarks(t, want); got != want {
		t.Fatalf("after undo, high watermarks %s, want %s", got, want)
	}
	// Undoing again, and seeking back to before every big produce, replays
	// only small commands.
	for s.Position() > 0 {
		s.replayed = 0
		if err := s.Undo(); err != nil {
			t.Fatal(err)
		}
		if s.replayed >= checkpointWork {
			t.Fatalf("undo to step %d replayed %d records of work", s.Position(), s.replayed)
		}
	}
	// A new produce after small commands: undoing it replays the small
	// commands, not the produce.
	s = mustLoad(t, bigProduces(1, 10)+strings.Repeat("advance 1s\n", 20)+"produce orders value=v count=10000\n")
	s.replayed = 0
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if s.replayed >= checkpointWork {
		t.Errorf("undo replayed %d records of work", s.replayed)
	}
}

// mixedScript has small commands and produces of every size, so that
// checkpoints fall by step count and by work.
func mixedScript(n int) string {
	var b strings.Builder
	b.WriteString("seed 1\ntopic orders partitions=8 retention.ms=1h segment.records=20\ntopic users partitions=4 cleanup.policy=compact segment.records=20\n")
	for i := 3; i < n; i++ {
		switch {
		case i%97 == 0:
			fmt.Fprintf(&b, "produce orders value=big%d count=%d\n", i, 1000+(i*37)%9000)
		case i%41 == 0:
			b.WriteString("compact users\n")
		case i%10 == 0:
			fmt.Fprintf(&b, "advance %ds\n", 5+i%30)
		case i%3 == 0:
			fmt.Fprintf(&b, "produce users key=u%d value=v%d count=%d\n", i%97, i, 1+i%50)
		default:
			fmt.Fprintf(&b, "produce orders key=acct-%d value=v%d\n", i%101, i)
		}
	}
	return b.String()
}

// TestSeekReplaysBoundedWork seeks to every step of a mixed history, in a
// scattered order, and checks each seek against the spacings: it replays
// fewer than every steps' commands and less than workEvery work plus that
// of the target step.
func TestSeekReplaysBoundedWork(t *testing.T) {
	s := mustLoad(t, mixedScript(2000))
	n := s.Len()
	step := 0
	for range n + 1 {
		step = (step + 787) % (n + 1)
		from := s.Position()
		s.replayed = 0
		if err := s.Seek(step); err != nil {
			t.Fatal(err)
		}
		if step == from {
			continue
		}
		var last int64
		if step > 0 {
			last = s.workAfter(step) - s.workAfter(step-1)
		}
		if s.replayed > s.workEvery+last {
			t.Fatalf("seek from %d to %d replayed %d work; spacing %d, the step's own %d", from, step, s.replayed, s.workEvery, last)
		}
	}
	if len(s.checkpoints) > maxCheckpoints {
		t.Errorf("%d checkpoints", len(s.checkpoints))
	}
}

// TestCheckpointsOfAFullScenarioStayWithinBudget fills a scenario to
// MaxRecords with the largest produces, and checks that the checkpoints
// stay within their bounds, that undoing the last produce still replays
// nothing, and that the state after seeks is the one a fresh load makes.
func TestCheckpointsOfAFullScenarioStayWithinBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("produces MaxRecords records")
	}
	s := mustLoad(t, fullScenario())
	if cost := checkpointCost(s); len(s.checkpoints) > maxCheckpoints || cost > checkpointBudget {
		t.Errorf("%d checkpoints holding %d bytes", len(s.checkpoints), cost)
	}
	if len(s.checkpoints) < 1+keptBeforePosition {
		t.Errorf("only %d checkpoints: thinning took too many", len(s.checkpoints))
	}
	s.replayed = 0
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if s.replayed != 0 {
		t.Errorf("undo replayed %d records of work", s.replayed)
	}
	// Seek back to the middle and compare with a load of the same steps.
	mid := s.Len() / 2
	if err := s.Seek(mid); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(fullScenario()), "\n")
	if got, want := highWatermarks(t, s), highWatermarks(t, mustLoad(t, strings.Join(lines[:mid], "\n"))); got != want {
		t.Fatalf("at step %d, high watermarks %s, want %s", mid, got, want)
	}
}

// fullScenario produces MaxRecords records in produces of MaxProduceCount.
func fullScenario() string {
	return bigProduces(MaxRecords/MaxProduceCount-1, MaxProduceCount) + fmt.Sprintf("produce orders value=v count=%d\n", MaxProduceCount-1)
}

// BenchmarkUndoOnMillionRecords undoes the last produce of a scenario
// holding MaxRecords records, and reports the memory the checkpoints hold.
func BenchmarkUndoOnMillionRecords(b *testing.B) {
	s := benchUndo(b, fullScenario())
	b.ReportMetric(float64(len(s.checkpoints)), "checkpoints")
	b.ReportMetric(float64(checkpointCost(s))/1e6, "estimated-MB")
	b.ReportMetric(float64(checkpointBytes(s))/1e6, "checkpoint-MB")
}

// benchUndo loads a script and times undoing its last command, as the
// page's undo button does, then redoing it (untimed).
func benchUndo(b *testing.B, script string) *Session {
	s, err := Load(script)
	if err != nil {
		b.Fatal(err)
	}
	last := s.Len()
	for b.Loop() {
		if err := s.Seek(last - 1); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if err := s.Seek(last); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	return s
}

// BenchmarkSeekOnMillionRecords seeks back and forth over the steps of a
// scenario holding MaxRecords records.
func BenchmarkSeekOnMillionRecords(b *testing.B) {
	s, err := Load(fullScenario())
	if err != nil {
		b.Fatal(err)
	}
	step := 0
	for b.Loop() {
		step = (step + 37) % (s.Len() + 1)
		if err := s.Seek(step); err != nil {
			b.Fatal(err)
		}
	}
}

// checkpointCost is what the session estimates its checkpoints hold.
func checkpointCost(s *Session) int64 {
	var cost int64
	for _, c := range s.checkpoints[1:] {
		cost += c.cost
	}
	return cost
}

// checkpointBytes measures the heap the checkpoints other than step 0's
// hold, by dropping them: the session keeps working, with fewer.
func checkpointBytes(s *Session) int64 {
	heap := func() int64 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(m.HeapAlloc)
	}
	with := heap()
	s.checkpoints = []checkpoint{s.checkpoints[0]}
	without := heap()
	runtime.KeepAlive(s)
	return with - without
}
