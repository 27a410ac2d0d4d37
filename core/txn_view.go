package core

import (
	"slices"
)

// GroupIsolation is what a consumer group's isolation.level lets it read,
// partition by partition: where its fetches stop (the last stable offset
// under read_committed, the high watermark under read_uncommitted, as
// UnifiedLog.read's FetchIsolation, Kafka 4.4), what its members were
// given, and the records of aborted transactions below its position,
// which a read_committed consumer's FetchCollector dropped and a
// read_uncommitted one was given. The page draws two groups side by side
// with it.
type GroupIsolation struct {
	Group          string
	IsolationLevel string
	Partitions     []IsolationRead // sorted, as GroupView.Partitions
}

// IsolationRead is one partition of a GroupIsolation.
type IsolationRead struct {
	TopicPartition
	HighWatermark    int64
	LastStableOffset int64
	// ReadsBelow is where the group's fetches stop: LastStableOffset
	// under read_committed, HighWatermark under read_uncommitted.
	ReadsBelow int64
	// Position is the owner's next offset to read, with HasPosition;
	// RecordsLag is then ReadsBelow - Position, the consumer's records-lag
	// (SubscriptionState.partitionLag, Kafka 4.4: against the last stable
	// offset under read_committed, the high watermark otherwise).
	Position    int64
	HasPosition bool
	RecordsLag  int64
	// Committed is the group's committed offset, with HasCommitted; Lag
	// is then ReadsBelow - Committed: a read_committed group's lag is
	// measured against the last stable offset, since it cannot read past
	// it (the CLI's lag-to-last-stable).
	Committed    int64
	HasCommitted bool
	Lag          int64
	// Read are the offsets the group's members were given here, from its
	// delivery log, ascending, the latest isolationOffsetsShown.
	Read []int64
	// Aborted are the offsets of aborted transactions' records below the
	// group's reach (its position, else its committed offset), the latest
	// isolationOffsetsShown: read_committed skipped them, read_uncommitted
	// was given them.
	Aborted []int64
	// Markers are the offsets of the commit and abort markers below its
	// reach, the latest isolationOffsetsShown: no consumer is given one.
	Markers []int64
}

// isolationOffsetsShown bounds each list of offsets a GroupIsolation
// holds: a page draws them as words.
const isolationOffsetsShown = 40

// GroupIsolation returns what the group reads under its isolation.level.
func (l *PartitionedLog) GroupIsolation(name string) (GroupIsolation, error) {
	g, err := l.group(name)
	if err != nil {
		return GroupIsolation{}, err
	}
	v := GroupIsolation{Group: g.name, IsolationLevel: g.config.IsolationLevel}
	if v.IsolationLevel == "" {
		v.IsolationLevel = ReadUncommitted
	}
	read := map[TopicPartition][]int64{}
	for _, d := range g.deliveries {
		tp := TopicPartition{Topic: d.Topic, Partition: d.Partition}
		read[tp] = append(read[tp], d.Record.Offset)
	}
	// The position of the member that owns a partition, the last in the
	// group's order should two: one pass over the members, not one a
	// partition (a member of 9,000 partitions made it 81 million steps).
	positions := map[TopicPartition]int64{}
	for _, m := range g.members {
		for _, tp := range m.assigned {
			if pos, ok := m.positions[tp]; ok {
				positions[tp] = pos
			}
		}
	}
	for _, tp := range l.groupPartitions(g) {
		p := l.topics[tp.Topic].partitions[tp.Partition]
		r := IsolationRead{TopicPartition: tp, HighWatermark: p.highWatermark(), LastStableOffset: p.lastStableOffset()}
		r.ReadsBelow = p.fetchEnd(v.IsolationLevel)
		if pos, ok := positions[tp]; ok {
			r.Position, r.HasPosition = pos, true
			r.RecordsLag = max(0, r.ReadsBelow-pos)
		}
		r.Committed, r.HasCommitted = g.committed[tp]
		if r.HasCommitted {
			r.Lag = max(0, r.ReadsBelow-r.Committed)
		}
		offsets := slices.Clone(read[tp])
		slices.Sort(offsets)
		r.Read = latest(slices.Compact(offsets))
		reach, ok := r.Position, r.HasPosition
		if !ok {
			reach, ok = r.Committed, r.HasCommitted
		}
		if ok && p.producers != nil {
			r.Aborted, r.Markers = p.producers.abortedAndMarkersBelow(reach)
		}
		v.Partitions = append(v.Partitions, r)
	}
	return v, nil
}

// abortedAndMarkersBelow lists the records of aborted transactions and the
// markers below offset, the latest isolationOffsetsShown of each.
func (pp *partitionProducers) abortedAndMarkersBelow(offset int64) (aborted, markers []int64) {
	for _, s := range pp.completed {
		if s.last < offset {
			markers = append(markers, s.last)
		}
		if s.committed || s.first >= offset {
			continue
		}
		i, _ := slices.BinarySearchFunc(pp.txnRecords, s.first, func(r txnRecord, o int64) int {
			return int(min(max(r.offset-o, -1), 1))
		})
		for ; i < len(pp.txnRecords) && pp.txnRecords[i].offset < min(s.last, offset); i++ {
			if pp.txnRecords[i].producerID == s.producerID {
				aborted = append(aborted, pp.txnRecords[i].offset)
			}
		}
	}
	slices.Sort(aborted)
	slices.Sort(markers)
	return latest(aborted), latest(markers)
}

// latest keeps the last isolationOffsetsShown offsets.
func latest(offsets []int64) []int64 {
	return offsets[max(0, len(offsets)-isolationOffsetsShown):]
}
