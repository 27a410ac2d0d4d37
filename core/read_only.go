package core

// ReadOnlyLog is what may be asked of a PartitionedLog without changing it:
// its reading methods, and none of those that change state. A scenario's
// Session hands its engine out as one, so that nothing but a command changes
// state (docs/ARCHITECTURE.md): the page, the CLI and the lessons read it.
type ReadOnlyLog interface {
	Seed() int64
	Now() int64

	TopicNames() []string
	Partitions(topicName string) (int, error)
	TopicConfig(topicName string) (TopicConfig, error)
	Skew(topicName string) (float64, error)
	PartitionRecordCounts(topicName string) ([]int, error)

	LogStartOffset(topicName string, partition int) (int64, error)
	HighWatermark(topicName string, partition int) (int64, error)
	HighWatermarkHeld(topicName string, partition int) (string, error)
	LogEndOffset(topicName string, partition int) (int64, error)
	RecordCount(topicName string, partition int) (int, error)
	CountBetween(topicName string, partition int, from, to int64) (int, error)
	Records(topicName string, partition int) ([]Record, error)
	LogRecords(topicName string, partition int, offset int64, max int) ([]Record, error)
	Consume(topicName string, partition int, offset int64, max int) ([]Record, error)
	FirstRecordAtOrAfter(topicName string, partition int, offset int64) (Record, bool)
	Segments(topicName string, partition int) ([]SegmentInfo, error)
	SegmentCount(topicName string, partition int) (int, error)
	SegmentsBetween(topicName string, partition int, from, to int64) ([]SegmentInfo, error)
	RetentionCliff(topicName string, partition int) (RetentionCliff, error)

	GroupNames() []string
	Group(name string) (GroupView, error)
	GroupOffsets(groupName string) (map[TopicPartition]int64, error)
	CompareMovement(groupName string, change MembershipChange) ([]StrategyMovement, error)
	CompareProtocols(groupName string, change ProtocolChange) (ProtocolComparison, error)

	ShareGroupNames() []string
	ShareGroup(name string) (ShareGroupView, error)
	CompareShareConsumer(shareGroup string, w ShareWorkload) (ShareComparison, error)

	ReplicationInUse() bool
	Brokers() []BrokerInfo
	ReplicaLagTimeMaxMs() int64
	Replication(topicName string, partition int) (PartitionReplication, error)
	Offline(topicName string, partition int) (string, []int, error)
	AckOf(topicName string, partition int, offset int64) (AckStatus, bool)

	TransactionsInUse() bool
	Producers() []ProducerView
	LastStableOffset(topicName string, partition int) (int64, error)
	RecordTransaction(topicName string, partition int, offset int64) (int64, string)
	GroupIsolation(groupName string) (GroupIsolation, error)
}

// A PartitionedLog is read through ReadOnlyLog.
var _ ReadOnlyLog = (*PartitionedLog)(nil)
