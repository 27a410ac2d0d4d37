package app

import (
	"plog/core"
	"plog/core/scenario"
)

// groupReplay is a second copy of the scenario, kept in step with the page's
// session by applying the same lines, for what the session cannot give:
// lag over virtual time. The engine keeps no history of lag, so the replay
// samples every group's lag after each command. The state is a fold over the
// lines, so the replay holds exactly the page's state after the same lines;
// stepping back in time truncates the samples, and a new line after it
// replays from the engine's nearest checkpoint.
type groupReplay struct {
	session *scenario.Session
	lines   []string    // the lines the replay has applied, canonical
	samples []LagSample // samples[i] is taken after lines[i]
}

// LagSample is every group's lag after one command.
type LagSample struct {
	Step   int   // 1 for the first command
	Time   int64 // virtual ms
	Groups []GroupLag
}

// GroupLag is one group's lag at one moment.
type GroupLag struct {
	Group        string
	Total        int64 // records, over the partitions with a commit
	MaxTimeMs    int64
	HasCommitted bool // some partition has a committed offset
	Partitions   []PartitionLag
}

// PartitionLag is one partition's lag for one group. Without a commit there
// is no lag, as Kafka's tools show "-".
type PartitionLag struct {
	Topic        string
	Partition    int
	Lag          int64
	TimeMs       int64
	HasCommitted bool
}

// sync brings the replay to the page's applied lines. Lines the replay has
// beyond them (a command being tried, or the page stepped back in time) are
// kept until the page's lines go another way, so stepping back and forth
// costs nothing; then the replay seeks back to where they part.
func (r *groupReplay) sync(lines []string) error {
	if r.session == nil {
		r.session = scenario.NewSession()
	}
	common := 0
	for common < len(lines) && common < len(r.lines) && lines[common] == r.lines[common] {
		common++
	}
	if common == len(lines) {
		return nil
	}
	if err := r.rewind(common); err != nil {
		return err
	}
	for _, line := range lines[common:] {
		if _, err := r.session.Apply(line); err != nil {
			return err
		}
		r.record(line)
	}
	return nil
}

// rewind moves the replay back to after its first n lines.
func (r *groupReplay) rewind(n int) error {
	if n >= len(r.lines) {
		return nil
	}
	if err := r.session.Seek(n); err != nil {
		return err
	}
	r.lines, r.samples = r.lines[:n], r.samples[:n]
	return nil
}

// record notes an applied line and samples the lag it leaves.
func (r *groupReplay) record(line string) {
	r.lines = append(r.lines, line)
	r.samples = append(r.samples, sampleLag(r.session.Log(), len(r.lines)))
}

// history returns the samples of the page's first n lines.
func (r *groupReplay) history(n int) []LagSample {
	if n > len(r.samples) {
		n = len(r.samples)
	}
	return r.samples[:n]
}

// sampleLag reads every group's lag from the engine.
func sampleLag(l *core.PartitionedLog, step int) LagSample {
	s := LagSample{Step: step, Time: l.Now()}
	for _, name := range l.GroupNames() {
		g, err := l.Group(name)
		if err != nil {
			continue
		}
		gl := GroupLag{Group: name, Total: g.TotalLag, MaxTimeMs: g.MaxTimeLagMs}
		for _, p := range g.Partitions {
			gl.HasCommitted = gl.HasCommitted || p.HasCommitted
			gl.Partitions = append(gl.Partitions, PartitionLag{
				Topic: p.Topic, Partition: p.Partition,
				Lag: p.Lag, TimeMs: p.TimeLagMs, HasCommitted: p.HasCommitted,
			})
		}
		s.Groups = append(s.Groups, gl)
	}
	return s
}
