package app

import "plog/core"

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
