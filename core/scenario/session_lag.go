package scenario

import (
	"cmp"
	"slices"
	"strings"

	"plog/core"
)

// LagSample is every consumer group's lag in records after one step of a
// session's history. The engine keeps no history of lag, so the session
// samples it after each command it applies, for charts of lag over time,
// and while a command advances the clock, over virtual time (During): a
// lag that grows one record a minute through an advance of an hour is a
// slope, not a jump at the hour.
type LagSample struct {
	Step   int        // 1 for the first command
	TimeMs int64      // the virtual clock after the step
	Groups []GroupLag // by group name
	// During holds the samples taken while the step advanced the clock,
	// before its end, oldest first (their During is empty): with the
	// step's own, at most maxLagPointsPerStep, at least a
	// maxLagPointsPerStep-th of the advance apart.
	During []LagSample
}

// maxLagPointsPerStep bounds the samples of one advance, its end included:
// however long it is, its samples are at least a maxLagPointsPerStep-th of
// it apart.
const maxLagPointsPerStep = 24

// lagSampler takes the samples during one command's advance. An advance
// with workloads stops at every action anyway (advanceWithWorkloads); the
// sampler reads the lag at those stops once a maxLagPointsPerStep-th of the
// advance has passed since its last sample, so that sampling never changes how the clock moves.
// Between two stops nothing changes any committed offset, and the lag
// moves only with the high watermarks.
type lagSampler struct {
	step    int
	every   int64 // virtual ms between samples
	next    int64 // the earliest time of the next sample
	prev    LagSample
	samples []LagSample
}

// start sets the sampler for an advance of ms from now.
func (ls *lagSampler) start(now, ms int64) {
	ls.every = max(1, ms/maxLagPointsPerStep)
	ls.next = now + ls.every
}

// stop samples the lag at a stop of the advance at now, before target,
// when its time has come.
func (ls *lagSampler) stop(l *core.PartitionedLog, target int64) {
	now := l.Now()
	if ls.every == 0 || now < ls.next || now >= target || len(ls.samples) == maxLagPointsPerStep-1 {
		return
	}
	ls.prev = sampleLag(l, ls.step, ls.prev)
	ls.samples = append(ls.samples, ls.prev)
	ls.next = now + ls.every
}

// GroupLag is one group's lag at one step.
type GroupLag struct {
	Group string
	// Total sums the lag of Partitions.
	Total int64
	// Partitions lists the partitions where the group has a committed
	// offset, sorted. Elsewhere it has no lag, as Kafka's tools show "-".
	Partitions []PartitionLag
}

// HasCommitted says whether the group has a committed offset anywhere.
func (g GroupLag) HasCommitted() bool { return len(g.Partitions) > 0 }

// PartitionLag is a group's lag on one partition: the high watermark less
// the committed offset, never below zero.
type PartitionLag struct {
	Topic     string
	Partition int
	Lag       int64
}

// sampleLag reads every group's lag from the engine: the committed offsets
// and the high watermarks, O(groups × committed partitions). A group whose
// lag is what it was in prev shares prev's list, so that a long history of
// commands that leave lag alone costs little memory.
func sampleLag(l *core.PartitionedLog, step int, prev LagSample) LagSample {
	s := LagSample{Step: step, TimeMs: l.Now()}
	old := prev.Groups // sorted by name, as GroupNames is
	for _, name := range l.GroupNames() {
		committed, err := l.GroupOffsets(name)
		if err != nil {
			continue
		}
		g := GroupLag{Group: name, Partitions: make([]PartitionLag, 0, len(committed))}
		for tp, offset := range committed {
			hw, err := l.HighWatermark(tp.Topic, tp.Partition)
			if err != nil {
				continue
			}
			lag := max(0, hw-offset)
			g.Total += lag
			g.Partitions = append(g.Partitions, PartitionLag{Topic: tp.Topic, Partition: tp.Partition, Lag: lag})
		}
		slices.SortFunc(g.Partitions, comparePartitionLag)
		for len(old) > 0 && old[0].Group < name {
			old = old[1:]
		}
		if len(old) > 0 && old[0].Group == name && slices.Equal(old[0].Partitions, g.Partitions) {
			g.Partitions = old[0].Partitions
		}
		s.Groups = append(s.Groups, g)
	}
	return s
}

func comparePartitionLag(a, b PartitionLag) int {
	return cmp.Or(strings.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
}
