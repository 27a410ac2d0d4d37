package scenario

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"plog/core/scenario/hostile"

	"pgregory.net/rapid"
)

// TestHostileScriptsStayWithinTheBudget: each hostile script loads to a
// step with its memory within MaxMemoryBytes, or stops early with the
// budget's, the work's or a workload limit's error; and the Go heap it
// holds is within what the count says.
func TestHostileScriptsStayWithinTheBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("half a minute of hostile scripts: make test runs them")
	}
	warmUp(t)
	for _, h := range hostile.Scripts() {
		t.Run(h.Name, func(t *testing.T) {
			if runtime.GOOS == "js" && h.Heavy {
				// Seconds natively, up to a minute under Node on the same
				// code (hostile.Script.Heavy); the browser test opens
				// them in the page's wasm.
				t.Skip("natively and in the browser tests only")
			}
			before := liveHeap()
			start := time.Now()
			s, err := Load(h.Text)
			took := time.Since(start)
			held := s.cur.memory()
			heap := liveHeap() - before
			t.Logf("%d records, counted %s, heap %s, in %v, error: %v", s.cur.produced, formatBytes(held), formatBytes(heap), took.Round(time.Millisecond), err)
			if held > MaxMemoryBytes {
				t.Fatalf("the scenario holds %s, past the budget", formatBytes(held))
			}
			if heap > heapBound(s) {
				t.Errorf("the heap grew %s for %s counted, more than %s", formatBytes(heap), formatBytes(held), formatBytes(heapBound(s)))
			}
			var limit *Error
			if err != nil && !errors.As(err, &limit) {
				t.Fatalf("error %v is not a line's", err)
			}
			if err != nil && !slices.ContainsFunc(hostile.Refusals, func(p string) bool { return strings.Contains(err.Error(), p) }) {
				t.Fatalf("stopped early for another reason: %v", err)
			}
			runtime.KeepAlive(s)
		})
	}
}

// The heap a session holds is at most heapFactor times its count with what
// its checkpoints hold on their own (within checkpointBudget), plus
// heapSlack for what is bounded whatever the scenario (the events of the
// last command, at most 65,536 of some 170 bytes; the lag samples; the
// history). Measured on random scenarios the heap was 0.4 to 1.4 times the
// count past a few MiB; a count of a quarter of what the records take fails.
const (
	heapFactor = 1.5
	heapSlack  = 8 << 20
)

func heapBound(s *Session) int64 {
	counted := s.cur.memory()
	for _, c := range s.checkpoints {
		counted += c.cost
	}
	return int64(heapFactor*float64(counted)) + heapSlack
}

// warmUp makes what the first scenario of a process makes once (tables
// built when first asked for), so that a heap measured after it is the
// scenario's.
func warmUp(t testing.TB) {
	if _, err := Load("topic t cleanup.policy=compact,delete\nproducer-config p retries=1\nproduce t producer=p key=a value=b\nproducer w t rate=1/s keys=zipf keyspace=2 exponent=1\nadvance 2s\ncompact t\ntruncate t/0 before=1\n"); err != nil {
		t.Fatal(err)
	}
}

// liveHeap is the bytes the heap holds after a full collection.
func liveHeap() int64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// TestMemoryCountBoundsTheHeap: over random scenarios of records of every
// size, repeated and not, by produce, named producers and workloads, with
// compaction, retention, truncation and going back and forth in the
// history, the count never falls short of what the heap holds by more than
// heapFactor and heapSlack.
func TestMemoryCountBoundsTheHeap(t *testing.T) {
	warmUp(t)
	rapid.Check(t, func(t *rapid.T) {
		text := func(label string) string {
			n := rapid.SampledFrom([]int{0, 1, 8, 300, 2000, 4000}).Draw(t, label+" size")
			fill := rapid.SampledFrom([]string{"a", "b"}).Draw(t, label+" fill")
			if n == 0 {
				return `""`
			}
			return rapid.StringMatching(`[a-z]{0,3}`).Draw(t, label+" prefix") + strings.Repeat(fill, n-min(n, 3))
		}
		script := []string{"topic t partitions=3 cleanup.policy=compact,delete retention.ms=60000 segment.ms=10000",
			"producer-config p retries=3", "wire p lose-response count=50"}
		for range rapid.IntRange(1, 30).Draw(t, "commands") {
			switch rapid.IntRange(0, 8).Draw(t, "command") {
			case 8: // records that all differ, as a script of many lines writes them
				size := rapid.IntRange(1, 4000).Draw(t, "distinct size")
				for i := range rapid.IntRange(1, 3000).Draw(t, "distinct lines") {
					script = append(script, fmt.Sprintf("produce t key=k%d value=%d%s count=%d", i, len(script), strings.Repeat("d", size), rapid.IntRange(1, 5).Draw(t, "distinct count")))
				}
			case 0, 1:
				script = append(script, fmt.Sprintf("produce t key=%s value=%s count=%d", text("key"), text("value"), rapid.IntRange(1, 10000).Draw(t, "count")))
			case 2:
				script = append(script, fmt.Sprintf("produce t producer=p key=%s value=%s count=%d", text("key"), text("value"), rapid.IntRange(1, 2000).Draw(t, "count")))
			case 3:
				keys := rapid.SampledFrom([]string{"none", "sequence", "uniform keyspace=50", "zipf keyspace=5000 exponent=1.2"}).Draw(t, "keys")
				if keys == "none" {
					keys = "sequence"
				}
				script = append(script, fmt.Sprintf("producer w%d t rate=%d/s keys=%s value=%s", rapid.IntRange(0, 3).Draw(t, "workload"), rapid.IntRange(1, 500).Draw(t, "rate"), keys, text("workload value")))
			case 4:
				script = append(script, fmt.Sprintf("advance %ds", rapid.IntRange(1, 120).Draw(t, "seconds")))
			case 5:
				script = append(script, "compact t")
			case 6:
				script = append(script, fmt.Sprintf("truncate t/%d before=%d", rapid.IntRange(0, 2).Draw(t, "partition"), rapid.IntRange(0, 5000).Draw(t, "offset")))
			case 7:
				script = append(script, "undo")
			}
		}
		before := liveHeap()
		s := NewSession()
		for _, line := range script {
			if line == "undo" {
				_ = s.Undo()
				continue
			}
			_, _ = s.Apply(line) // a refused line changes nothing
		}
		counted := s.cur.memory()
		heap := liveHeap() - before
		if counted > MaxMemoryBytes {
			t.Fatalf("counted %s, past the budget", formatBytes(counted))
		}
		if heap > heapBound(s) {
			t.Fatalf("the heap grew %s for %s counted, more than %s\n%s", formatBytes(heap), formatBytes(counted), formatBytes(heapBound(s)), strings.Join(script, "\n"))
		}
		// The count is the commands', whatever checkpoints a replay
		// starts from: going back and forth gives it again, so a step
		// that was within the budget always replays.
		end := s.Position()
		if err := s.Seek(rapid.IntRange(0, end).Draw(t, "back to")); err != nil {
			t.Fatal(err)
		}
		if err := s.Seek(end); err != nil {
			t.Fatal(err)
		}
		if again := s.cur.memory(); again != counted {
			t.Fatalf("counted %d, and %d after going back and forth", counted, again)
		}
		runtime.KeepAlive(s)
	})
}
