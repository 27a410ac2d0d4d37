package scenario

import (
	"cmp"
	"slices"
	"strings"

	"plog/core"
)

// LagSample is every consumer group's lag in records after one step of a
// session's history. The engine keeps no history of lag, so the session
// samples it after each command it applies, for charts of lag over time.
type LagSample struct {
	Step   int        // 1 for the first command
	TimeMs int64      // the virtual clock after the step
	Groups []GroupLag // by group name
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
