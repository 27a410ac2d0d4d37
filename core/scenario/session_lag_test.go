package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// lagFromGroups is the sample the engine's group views give: what the
// session's own samples must say.
func lagFromGroups(t *testing.T, s *Session) string {
	t.Helper()
	l := s.Log()
	var b strings.Builder
	fmt.Fprintf(&b, "step %d at %d:", s.Position(), l.Now())
	for _, name := range l.GroupNames() {
		g, err := l.Group(name)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, " %s total=%d", name, g.TotalLag)
		for _, p := range g.Partitions {
			if p.HasCommitted {
				fmt.Fprintf(&b, " %s/%d=%d", p.Topic, p.Partition, p.Lag)
			}
		}
	}
	return b.String()
}

func (ls LagSample) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "step %d at %d:", ls.Step, ls.TimeMs)
	for _, g := range ls.Groups {
		fmt.Fprintf(&b, " %s total=%d", g.Group, g.Total)
		for _, p := range g.Partitions {
			fmt.Fprintf(&b, " %s/%d=%d", p.Topic, p.Partition, p.Lag)
		}
	}
	return b.String()
}

// consumingWorkload has a consumer workload that commits as it falls
// behind a producer, then an explicit commit and a reset.
const consumingWorkload = `seed 3
topic clicks partitions=3
producer p clicks rate=5/s
join g c1 topics=clicks
advance 3s
consumer g c1 rate=1/s max=2 commit
advance 10s
stop g c1
leave g c1
advance 5s
reset g to-offset=4 topic=clicks/1
advance 1s
`

// TestLagHistoryIsTheGroupsLagAfterEveryStep walks scenarios with groups
// step by step and compares each sample with the lag the engine's group
// views report at that step.
func TestLagHistoryIsTheGroupsLagAfterEveryStep(t *testing.T) {
	for _, name := range []string{"groups.plog", "replication.plog", "workload"} {
		script, err := os.ReadFile(filepath.Join("testdata", "golden", name))
		if name == "workload" {
			script, err = []byte(consumingWorkload), nil
		}
		if err != nil {
			t.Fatal(err)
		}
		s := mustLoad(t, string(script))
		history := s.LagHistory()
		if len(history) != s.Len() {
			t.Fatalf("%s: %d samples for %d steps", name, len(history), s.Len())
		}
		committed := 0
		for step := s.Len(); step >= 1; step-- {
			if err := s.Seek(step); err != nil {
				t.Fatal(err)
			}
			if got, want := history[step-1].String(), lagFromGroups(t, s); got != want {
				t.Fatalf("%s step %d:\n sampled %s\n engine  %s", name, step, got, want)
			}
			for _, g := range history[step-1].Groups {
				if g.HasCommitted() {
					committed++
				}
			}
		}
		if name != "replication.plog" && committed == 0 {
			t.Errorf("%s: no sample has a commit, the test compares nothing", name)
		}
	}
}

func TestLagHistoryFollowsUndoAndReplacedCommands(t *testing.T) {
	s := mustLoad(t, "topic orders partitions=2\njoin g c1 topics=orders\nadvance 5s\npoll g c1\ncommit g c1\n")
	for _, line := range []string{"produce orders value=v count=3", "advance 1s", "produce orders value=v count=2"} {
		if _, err := s.Apply(line); err != nil {
			t.Fatal(err)
		}
	}
	totals := func() string {
		var out []string
		for _, ls := range s.LagHistory() {
			v := "-"
			if len(ls.Groups) == 1 && ls.Groups[0].HasCommitted() {
				v = fmt.Sprint(ls.Groups[0].Total)
			}
			out = append(out, v)
		}
		return strings.Join(out, " ")
	}
	if got, want := totals(), "- - - - 0 3 3 5"; got != want {
		t.Fatalf("lag = %s, want %s", got, want)
	}
	kept := s.LagHistory()
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if got := totals(); got != "- - - - 0 3 3" {
		t.Fatalf("after undo, lag = %s", got)
	}
	if _, err := s.Apply("produce orders value=v count=7"); err != nil {
		t.Fatal(err)
	}
	if got := totals(); got != "- - - - 0 3 3 10" {
		t.Fatalf("after a different command, lag = %s", got)
	}
	if got := kept[7].Groups[0].Total; got != 5 {
		t.Errorf("a history given out before the change now says %d, want 5", got)
	}
	if err := s.RestoreDiscarded(); err != nil {
		t.Fatal(err)
	}
	if got := totals(); got != "- - - - 0 3 3" {
		t.Fatalf("after restoring the replaced command, lag = %s", got)
	}
	if err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if got := totals(); got != "- - - - 0 3 3 5" {
		t.Fatalf("after redo, lag = %s", got)
	}
	// A failed command adds no sample.
	if _, err := s.Apply("poll nosuch c1"); err == nil {
		t.Fatal("polling an unknown group worked")
	}
	if got := totals(); got != "- - - - 0 3 3 5" {
		t.Fatalf("after a failed command, lag = %s", got)
	}
	last := s.LagHistory()[7]
	if last.Step != 8 || last.TimeMs != 6000 || len(last.Groups[0].Partitions) != 2 {
		t.Errorf("last sample %v", last)
	}
}

// TestLagSamplesShareUnchangedLag checks that a command that leaves a
// group's lag alone costs its sample no new list.
func TestLagSamplesShareUnchangedLag(t *testing.T) {
	s := mustLoad(t, "topic orders partitions=4\njoin g c1 topics=orders\nadvance 5s\npoll g c1\ncommit g c1\nadvance 1s\nproduce orders value=v\n")
	h := s.LagHistory()
	same := func(a, b []PartitionLag) bool {
		return len(a) > 0 && len(b) > 0 && &a[0] == &b[0]
	}
	if !same(h[4].Groups[0].Partitions, h[5].Groups[0].Partitions) {
		t.Error("advance left the lag alone but its sample has a list of its own")
	}
	if same(h[5].Groups[0].Partitions, h[6].Groups[0].Partitions) || !slices.ContainsFunc(h[6].Groups[0].Partitions, func(p PartitionLag) bool { return p.Lag == 1 }) {
		t.Errorf("produce changed the lag but its sample says %v", h[6])
	}
}

// BenchmarkLagSample measures what sampling lag adds to every command: three
// groups committed on every partition of an 8-partition topic.
func BenchmarkLagSample(b *testing.B) {
	script := "topic orders partitions=8\nproduce orders value=v count=1000\n"
	for _, g := range []string{"audit", "billing", "search"} {
		script += "join " + g + " c1 topics=orders\n"
	}
	script += "advance 5s\n"
	for _, g := range []string{"audit", "billing", "search"} {
		script += "poll " + g + " c1 max=300\ncommit " + g + " c1\n"
	}
	s := mustLoad(b, script)
	prev := s.LagHistory()[s.Len()-1]
	for b.Loop() {
		prev = sampleLag(s.cur.log, s.Len(), prev)
	}
	if len(prev.Groups) != 3 || len(prev.Groups[0].Partitions) != 8 {
		b.Fatalf("sample %v", prev)
	}
}

// An advance samples the lag over virtual time: a lag that grows one record
// a minute through ten minutes is a slope of samples, not a jump at the
// end, and the samples of an advance are bounded however many stops it has.
func TestLagIsSampledOverVirtualTime(t *testing.T) {
	s := mustLoad(t, `topic t partitions=1
join g c1 topics=t
advance 3s
commit g t/0 offset=0
producer p t rate=1/m
advance 10m
`)
	last := s.LagHistory()[s.Position()-1]
	if last.Groups[0].Total != 10 {
		t.Fatalf("lag after 10m: %d, want 10", last.Groups[0].Total)
	}
	var got []string
	for _, d := range last.During {
		got = append(got, fmt.Sprintf("%d@%d", d.Groups[0].Total, d.TimeMs))
		if d.Step != last.Step || len(d.During) != 0 {
			t.Errorf("a sample during step %d says step %d, with %d samples of its own", last.Step, d.Step, len(d.During))
		}
	}
	want := []string{}
	for m := int64(1); m <= 9; m++ {
		want = append(want, fmt.Sprintf("%d@%d", m, 3000+m*60_000))
	}
	if !slices.Equal(got, want) {
		t.Errorf("samples during the advance %v, want %v", got, want)
	}
	for _, sample := range s.LagHistory()[:s.Position()-1] {
		if len(sample.During) != 0 {
			t.Errorf("step %d, which advances with no workload, has samples during it: %v", sample.Step, sample.During)
		}
	}

	// A fast workload stops the advance 36 000 times: with the step's own,
	// the samples stay maxLagPointsPerStep, evenly spread.
	if _, err := s.Apply("producer q t rate=10/s"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("advance 1h"); err != nil {
		t.Fatal(err)
	}
	during := s.LagHistory()[s.Position()-1].During
	if len(during) != maxLagPointsPerStep-1 {
		t.Fatalf("%d samples during an advance of an hour, want %d", len(during), maxLagPointsPerStep-1)
	}
	for i := 1; i < len(during); i++ {
		if gap := during[i].TimeMs - during[i-1].TimeMs; gap < 3_600_000/maxLagPointsPerStep || during[i].Groups[0].Total <= during[i-1].Groups[0].Total {
			t.Errorf("samples %d and %d: %d ms apart, lag %d then %d", i-1, i, gap, during[i-1].Groups[0].Total, during[i].Groups[0].Total)
		}
	}
}
