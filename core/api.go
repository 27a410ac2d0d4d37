package core

// This file is the engine's shared vocabulary: the types every other part of
// plog (the scenario language, the UI, the CLI) reads. Behaviour lives in the
// files named after what it does (log.go, retention.go, groups.go, ...).

// Record is one record stored in a partition. Records are values: the engine
// never changes a stored record, it only removes records (retention,
// truncation, compaction).
type Record struct {
	Offset    int64
	Timestamp int64 // virtual milliseconds since the scenario began
	Key       string
	Value     string
	HasKey    bool // false for a keyless record; an empty Key with HasKey is a key
	Tombstone bool // a keyed record with no value (compaction deletes its key)
	// Control is set on a transaction's commit or abort marker, a control
	// record no consumer is given (txn.go); 0 on every other record.
	Control ControlType
}

// ProduceRequest is what a producer sends. Partition < 0 lets the partitioner
// choose.
type ProduceRequest struct {
	Topic     string
	Key       string
	HasKey    bool
	Value     string
	Tombstone bool
	Partition int
	// Acks is the producer's acks: "0", "1" or "all"; "" is all, Kafka's
	// default since 3.0.
	Acks string
	// Partitioner is the producer's partitioner.class under rules 2 and
	// later: PartitionerDefault (also ""), Kafka's built-in partitioner,
	// or PartitionerRoundRobin, Java's RoundRobinPartitioner. Under rules
	// 1 it must be "": the topic's partitioner config chooses.
	Partitioner string
}

// ProduceResult says where a record landed and why.
type ProduceResult struct {
	Topic     string
	Partition int
	Offset    int64
	// Ack says what the producer was told: acknowledged, sent (acks=0), or
	// pending until the high watermark passes the record (acks=all).
	Ack AckStatus

	reason partitionReason
}

// Reason explains the partition choice in words a learner can check, e.g.
// `murmur2("acct-1") % 4 = 2`, "round-robin", "sticky", "explicit". The
// text is written when asked for, so that producing builds none.
func (r ProduceResult) Reason() string { return r.reason.String() }

// EventKind names what happened. The values are stable strings: the CLI prints
// them and tests read them.
type EventKind string

const (
	EventProduced         EventKind = "produced"          // Topic, Partition, From..To, Count: records produced one after another at one instant; Offset is From; Reason(), Reasons()
	EventTruncated        EventKind = "truncated"         // Topic, Partition, From..To (removed offsets [From,To))
	EventSegmentDeleted   EventKind = "segment-deleted"   // Topic, Partition, From..To, Count, Detail (why: retention.ms / retention.bytes), RolledActive
	EventCompacted        EventKind = "compacted"         // Topic, Partition, Count removed below offset To (the first not cleaned)
	EventPartitionsAdded  EventKind = "partitions-added"  // Topic, Count = new partition count
	EventTopicCreated     EventKind = "topic-created"     // Topic, Count = partitions
	EventDelivered        EventKind = "delivered"         // Group, Member, Topic, Partition, Offset (one per record delivered)
	EventCommitted        EventKind = "committed"         // Group, Member, Topic, Partition, Offset (the committed next offset)
	EventRebalanceStarted EventKind = "rebalance-started" // Group, Generation, Detail (cause)
	EventRebalanceDone    EventKind = "rebalance-done"    // Group, Generation, Count = partitions moved
	EventMemberJoined     EventKind = "member-joined"     // Group, Member
	EventMemberLeft       EventKind = "member-left"       // Group, Member, Detail (left / crashed / session timeout)
	EventMemberStopped    EventKind = "member-stopped"    // Group, Member, Detail: crashed, or a static member shut down; the group waits for its session timeout
	EventLostUnprocessed  EventKind = "lost-unprocessed"  // Group, Member, Topic, Partition, From..To, Count: committed but never processed (at-most-once)
	EventLostToReset      EventKind = "lost-to-reset"     // Group, Topic, Partition, From..To, Count: records skipped by auto.offset.reset
	EventOffsetsReset     EventKind = "offsets-reset"     // Group, Topic, Partition, Offset
	EventClockAdvanced    EventKind = "clock-advanced"    // Offset = new time in ms
	EventPolledNothing    EventKind = "polled-nothing"    // Group, Member, Detail: why a poll got no record (the first poll of a streak of empty polls for one reason)
	// The consumer group protocol's (group.protocol=consumer; group_consumer.go):
	EventGroupEpoch       EventKind = "group-epoch"       // Group, Generation = the new group epoch, Detail (cause)
	EventTargetAssignment EventKind = "target-assignment" // Group, Generation = the target assignment's epoch, Count = partitions whose target owner changed, Detail (assignor)
	EventMemberReconciled EventKind = "member-reconciled" // Group, Member, Generation = the member's epoch, Detail: what it revokes or was assigned
	EventGroupConverted   EventKind = "group-converted"   // Group, Generation = its group epoch or generation, Detail: classic to consumer or back (group_migration.go)
	EventGroupDeleted     EventKind = "group-deleted"     // Group, Count = committed offsets deleted: the group is Dead
)

// Cause is why an event happened, for the kinds whose readers (lesson
// checks, the page's notes, the comparison with a cluster) act on why.
type Cause uint8

const (
	CauseNone Cause = iota
	// CauseSessionTimeout: a classic group removed a stopped member whose
	// session.timeout.ms passed (member-left).
	CauseSessionTimeout
	// CauseFenced: the coordinator fenced the member (member-left): a
	// static member came back with its group.instance.id, or, under the
	// consumer protocol, its session timed out
	// (GroupMetadataManager.consumerGroupFenceMembers of Kafka 4.4).
	CauseFenced
	// CausePollTimeout: the member did not poll within
	// max.poll.interval.ms (member-left, member-stopped).
	CausePollTimeout
	// CauseStaticReturn: a static member came back with its
	// group.instance.id (member-joined).
	CauseStaticReturn
	// CauseRetentionTime: retention.ms deleted the segment
	// (segment-deleted).
	CauseRetentionTime
	// CauseRetentionSize: retention.bytes deleted the segment
	// (segment-deleted).
	CauseRetentionSize
	// CauseMetadataRefresh: the leader's metadata refresh saw new
	// partitions (rebalance-started).
	CauseMetadataRefresh
	// CauseCommit and CauseAbort: how a transaction ended (txn-ended,
	// txn-marker).
	CauseCommit
	CauseAbort
	// CauseLockExpired: a share-partition's acquisition lock on a record
	// expired (share-released, or share-archived at the delivery count
	// limit), its holder crashed or too slow to acknowledge it
	// (Kafka 4.4's SharePartition.releaseAcquisitionLockOnTimeout).
	CauseLockExpired
	// CauseRejoin: a member of the group rejoined the rebalance running,
	// in its poll (member-joined): not a new member (group_timing.go).
	CauseRejoin
)

// Event is one thing that happened in the engine. Fields that do not apply to
// a kind are zero.
type Event struct {
	Kind       EventKind
	Time       int64
	Topic      string
	Partition  int
	Offset     int64
	From, To   int64
	Count      int
	Group      string
	Member     string
	Generation int
	Detail     string
	// Broker is the broker of the replication events (broker.go).
	Broker int
	// RolledActive is set on a segment-deleted event whose segment was the
	// active one: the log rolled a new, empty active segment at From..To's
	// end first, as Kafka does when retention deletes every segment
	// (retention.go). It is false on every other event, so readers that
	// do not know it read the event as before.
	RolledActive bool
	// Cause says which of the causes a reader acts on brought the event
	// about (CauseNone for the rest): Detail is the learner's sentence,
	// never to be matched.
	Cause Cause

	// reasons are a produced event's distinct reasons, the first one's
	// first, at most maxRunReasons of them.
	reasons []partitionReason
}

// Reason says, for a produced event, why its first record went to its
// partition (ProduceResult.Reason), so the page can say it; "" for other
// kinds.
func (e Event) Reason() string {
	if len(e.reasons) == 0 {
		return ""
	}
	return e.reasons[0].String()
}

// Reasons says, for a produced event, why its records went to their
// partition: the distinct reasons, up to three, in the order they came.
// Records with keys drawn at random have many; three say how the partition
// was chosen.
func (e Event) Reasons() []string {
	texts := make([]string, len(e.reasons))
	for i, r := range e.reasons {
		texts[i] = r.String()
	}
	return texts
}
