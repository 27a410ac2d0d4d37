package app

import (
	"fmt"

	"plog/core"
)

// LogSnapshot is what the page shows of the engine: a read-only copy taken
// after each command. Components render from it and never reach into the
// engine, so a render can never change state.
type LogSnapshot struct {
	Topics []TopicSnapshot
}

// TopicSnapshot is one topic and its partitions in partition order.
type TopicSnapshot struct {
	Name       string
	Partitions []PartitionSnapshot
}

// PartitionSnapshot is one partition's retained records and the two offsets
// that bound them: the log start offset (first retained offset) and the high
// watermark (the offset the next record will get).
type PartitionSnapshot struct {
	Topic         string
	Partition     int
	LogStart      int64
	HighWatermark int64
	Records       []core.Record
}

// snapshotLog copies what the page shows out of the engine. The engine only
// fails these reads for a topic or partition that does not exist, which
// would mean the engine contradicts its own TopicNames: that is reported,
// not hidden.
func snapshotLog(l *core.PartitionedLog) (LogSnapshot, error) {
	var snap LogSnapshot
	for _, name := range l.TopicNames() {
		n, err := l.Partitions(name)
		if err != nil {
			return LogSnapshot{}, err
		}
		topic := TopicSnapshot{Name: name, Partitions: make([]PartitionSnapshot, n)}
		for p := range n {
			part := PartitionSnapshot{Topic: name, Partition: p}
			var errs [3]error
			part.LogStart, errs[0] = l.LogStartOffset(name, p)
			part.HighWatermark, errs[1] = l.HighWatermark(name, p)
			part.Records, errs[2] = l.Records(name, p)
			for _, err := range errs {
				if err != nil {
					return LogSnapshot{}, fmt.Errorf("reading %s/%d: %w", name, p, err)
				}
			}
			topic.Partitions[p] = part
		}
		snap.Topics = append(snap.Topics, topic)
	}
	return snap, nil
}
