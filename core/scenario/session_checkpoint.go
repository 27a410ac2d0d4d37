package scenario

import (
	"runtime/metrics"
	"slices"

	"plog/core"
)

// checkpoint is a frozen state: it is only ever cloned, never changed.
type checkpoint struct {
	step   int
	state  *world
	events []core.Event // events of the step that led to it
	cost   int64        // bytes it holds on its own (allocatedBytes) and its events
}

// When the session takes a checkpoint: at every checkpointEvery steps, and
// after a step that takes the work since the previous checkpoint to
// checkpointWork or more. Undo, seek and the restore after a failed command
// thus replay at most checkpointEvery commands, or checkpointWork work plus
// that of the target step: a produce of ten thousand records is one step,
// and undoing it must not replay the produces before it.
//
// Checkpoints are bounded: at most maxCheckpoints of them, holding at most
// checkpointBudget bytes together. Past either bound the checkpoints off
// the spacings go (a step is on the work spacing if its work crosses a
// multiple of the spacing), except the keptBeforePosition newest at or
// before the position, where undo starts; while still past a bound, both
// spacings double and the checkpoints off them go. Seeking far back then
// replays more, up to the doubled amounts; undo near the position stays
// cheap. A checkpoint costs what the engine's clone holds on its own
// (core's CloneBytes: the lists of segments and chunks, the last chunks)
// and its events: for a million records at the default segment.records
// about 5 MB (3 MB of segment list, 2 MB for the events of a produce of
// 10,000), so the budget keeps about ten of them; records of a few KB each
// fill a segment of the default segment.bytes alone, and a checkpoint of a
// million of them, 32 MB of segment list, is kept alone.
const (
	checkpointEvery    = 32
	checkpointWork     = 4096
	maxCheckpoints     = 64
	checkpointBudget   = 48 << 20
	keptBeforePosition = 3
)

// allocatedBytes is how many bytes the program has allocated since it
// began. What a clone allocates is what a checkpoint holds on its own: the
// engine's estimate (core's CloneBytes) counts records only, and a clone
// of a scenario of 10,000 partitions and a group over them took ten times
// more, so that 64 checkpoints held gigabytes the budget did not see. It
// may count more than the clone, when another goroutine allocates at the
// same time, never less. The log's next appends to its last chunks copy
// them (CloneBytes counts those), so a checkpoint costs both.
func allocatedBytes() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// eventBytes is what a core.Event holds, for a checkpoint's cost.
const eventBytes = 168

// stepWork estimates what replaying the command just applied costs, in
// records: one for the command, then the records it produced or the events
// it made, whichever is more (a record produced or delivered is an event,
// and the engine keeps a bounded number of events), and the records a
// compaction reads.
func (s *Session) stepWork(c Command, producedBefore int64) int64 {
	work := 1 + max(int64(len(s.events)), s.cur.produced-producedBefore)
	if c.Name == CmdCompact {
		counts, _ := s.cur.log.PartitionRecordCounts(c.Positional(0))
		for _, n := range counts {
			work += int64(n)
		}
		for _, e := range s.events {
			if e.Kind == core.EventCompacted {
				work += int64(e.Count)
			}
		}
	}
	return work
}

// workAfter is the replay work of history[:step].
func (s *Session) workAfter(step int) int64 {
	if step == 0 {
		return 0
	}
	return s.work[step-1]
}

// onSpacing says whether step is where the spacings keep a checkpoint.
func (s *Session) onSpacing(step int) bool {
	if step%s.every == 0 {
		return true
	}
	return s.workAfter(step)/s.workEvery > s.workAfter(step-1)/s.workEvery
}

// maybeCheckpoint keeps a clone of the current state when the position is
// on the step spacing or checkpointWork past the previous checkpoint, and
// not yet saved, then thins the checkpoints if they exceed their bounds.
func (s *Session) maybeCheckpoint() {
	i, found := slices.BinarySearchFunc(s.checkpoints, s.pos, func(c checkpoint, step int) int { return c.step - step })
	if found {
		return
	}
	previous := s.checkpoints[i-1].step // step 0 is always there
	if s.pos%s.every != 0 && s.workAfter(s.pos)-s.workAfter(previous) < checkpointWork {
		return
	}
	// The events are shared, not copied: the session only ever replaces
	// its events, never changes them (stateAt shares a checkpoint's too).
	before := allocatedBytes()
	ck := checkpoint{step: s.pos, state: s.cur.clone(s.pause), events: s.events}
	ck.cost = int64(allocatedBytes()-before) + s.cur.log.CloneBytes() + int64(len(ck.events))*eventBytes
	s.checkpoints = slices.Insert(s.checkpoints, i, ck)
	if !s.overBudget() {
		return
	}
	s.dropOffSpacing()
	for s.overBudget() {
		s.every *= 2
		s.workEvery *= 2
		s.dropOffSpacing()
	}
}

// dropOffSpacing forgets the checkpoints off the spacings but those kept
// near the position.
func (s *Session) dropOffSpacing() {
	kept := s.keptSteps()
	s.checkpoints = slices.DeleteFunc(s.checkpoints, func(c checkpoint) bool {
		return c.step > 0 && !s.onSpacing(c.step) && !slices.Contains(kept, c.step)
	})
}

// keptSteps lists the checkpoints that thinning leaves: the
// keptBeforePosition newest at or before the position.
func (s *Session) keptSteps() []int {
	var kept []int
	for i := len(s.checkpoints) - 1; i > 0 && len(kept) < keptBeforePosition; i-- {
		if c := s.checkpoints[i]; c.step <= s.pos {
			kept = append(kept, c.step)
		}
	}
	return kept
}

// overBudget says whether the checkpoints exceed a bound and some could
// go.
func (s *Session) overBudget() bool {
	if len(s.checkpoints) <= 1+len(s.keptSteps()) {
		return false
	}
	if len(s.checkpoints) > maxCheckpoints {
		return true
	}
	var cost int64
	for _, c := range s.checkpoints[1:] {
		cost += c.cost
	}
	return cost > checkpointBudget
}

// dropCheckpointsAfter forgets checkpoints of steps beyond step, whose
// commands have been replaced.
func (s *Session) dropCheckpointsAfter(step int) {
	s.checkpoints = slices.DeleteFunc(s.checkpoints, func(c checkpoint) bool { return c.step > step })
}
