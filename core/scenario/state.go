package scenario

import (
	"encoding/json"

	"plog/core"
)

// State is the snapshot of an engine that `plogsim run --json` prints and
// the page may read. Its JSON form is a contract: fields may be added, the
// ones here may not change. Lists are sorted (topics, groups and members by
// name, partitions by number); a null key is a keyless record, a null value
// a tombstone; committed, lag and lag_ms are null where the group has no
// commit.
type State struct {
	TimeMs int64        `json:"time_ms"`
	Seed   int64        `json:"seed"`
	Topics []TopicState `json:"topics"`
	Groups []GroupState `json:"groups"`
	// Brokers and ReplicaLagTimeMaxMs are set only when replication is in
	// use (core.PartitionedLog.ReplicationInUse), as are the replication
	// fields of partitions and records.
	Brokers             []BrokerState `json:"brokers,omitempty"`
	ReplicaLagTimeMaxMs int64         `json:"replica_lag_time_max_ms,omitempty"`
	// Producers and the transactional fields of partitions, records and
	// groups are set only when named producers are in use
	// (core.PartitionedLog.TransactionsInUse; state_producers.go).
	Producers []ProducerState `json:"producers,omitempty"`
	// ShareGroups are the share groups (state_share.go), absent when
	// there is none.
	ShareGroups []ShareGroupState `json:"share_groups,omitempty"`
}

// TopicState is one topic.
type TopicState struct {
	Name string `json:"name"`
	// Configs holds every config in canonical text, by name.
	Configs    map[string]string `json:"configs"`
	Partitions []PartitionState  `json:"partitions"`
}

// PartitionState is one partition and the records it retains.
type PartitionState struct {
	Partition      int           `json:"partition"`
	LogStartOffset int64         `json:"log_start_offset"`
	HighWatermark  int64         `json:"high_watermark"`
	Records        []RecordState `json:"records"`
	PartitionReplicationState
	PartitionTxnState
}

// RecordState is one record.
type RecordState struct {
	Offset      int64   `json:"offset"`
	Key         *string `json:"key"`
	Value       *string `json:"value"`
	TimestampMs int64   `json:"timestamp_ms"`
	// Ack is what its producer was told (acknowledged, pending, failed, or
	// sent for acks=0); set only when replication is in use.
	Ack string `json:"ack,omitempty"`
	RecordTxnState
}

// GroupState is one consumer group.
type GroupState struct {
	Name       string        `json:"name"`
	Generation int           `json:"generation"`
	Strategy   string        `json:"strategy"`
	State      string        `json:"state"` // empty, rebalancing or stable
	Members    []MemberState `json:"members"`
	Offsets    []OffsetState `json:"offsets"`
	// TotalLag sums the lag of the partitions with a commit; Alert is set
	// when a lag.alert threshold is reached.
	TotalLag int64 `json:"total_lag"`
	Alert    bool  `json:"alert"`
	// A consumer group's (group.protocol=consumer, KIP-848; absent for a
	// classic group): its protocol, its group epoch (Generation too), the
	// epoch of its target assignment and the server-side assignor that
	// computed it (core/group_consumer.go). Its State is empty,
	// assigning, reconciling or stable.
	Protocol        string `json:"protocol,omitempty"`
	GroupEpoch      *int   `json:"group_epoch,omitempty"`
	AssignmentEpoch *int   `json:"assignment_epoch,omitempty"`
	Assignor        string `json:"assignor,omitempty"`
	// IsolationLevel is the group's isolation.level, set when named
	// producers are in use (state_producers.go).
	IsolationLevel string `json:"isolation_level,omitempty"`
}

// MemberState is one member and the partitions it owns.
type MemberState struct {
	// ID is the member's name, its client.id: what the scenario's commands
	// name it by, and what a cluster's members are matched by.
	ID string `json:"id"`
	// MemberID is Kafka's member id, from rules 3 on: the client.id (a
	// static member's group.instance.id), a dash and a UUID from the seed
	// (core/member_ids.go). A cluster makes its own UUIDs at random.
	MemberID   string            `json:"member_id,omitempty"`
	Assignment []AssignmentState `json:"assignment"`
	// Instance is the group.instance.id of a static member; Down says
	// why a member stopped (crashed, ...) while the group waits for its
	// session to time out.
	Instance string `json:"instance,omitempty"`
	Down     string `json:"down,omitempty"`
	// EmptyPoll is the member's last poll when it got no record: when, and
	// why.
	EmptyPoll *EmptyPollState `json:"empty_poll,omitempty"`
	// A consumer group member's (absent in a classic group): its member
	// epoch and state, its target assignment, what it must revoke before
	// its next epoch and what its target holds that others still own.
	Epoch         *int              `json:"epoch,omitempty"`
	MemberState   string            `json:"member_state,omitempty"`
	Target        []AssignmentState `json:"target_assignment,omitempty"`
	PendingRevoke []AssignmentState `json:"pending_revocation,omitempty"`
	PendingAssign []AssignmentState `json:"pending_assignment,omitempty"`
	// Protocol is the group protocol a consumer group's member runs:
	// consumer, or classic for a classic member during an online upgrade
	// or downgrade (core/group_migration.go); absent in a classic group.
	Protocol string `json:"protocol,omitempty"`
}

// EmptyPollState is a poll that got no record.
type EmptyPollState struct {
	TimeMs int64  `json:"time_ms"`
	Why    string `json:"why"`
}

// AssignmentState is the partitions of one topic a member owns.
type AssignmentState struct {
	Topic      string `json:"topic"`
	Partitions []int  `json:"partitions"`
}

// OffsetState is a group's committed offset and lag on one partition.
type OffsetState struct {
	Topic     string `json:"topic"`
	Partition int    `json:"partition"`
	Committed *int64 `json:"committed"`
	// LogEndOffset is the partition's high watermark.
	LogEndOffset int64  `json:"log_end_offset"`
	Lag          *int64 `json:"lag"`
	LagMs        *int64 `json:"lag_ms"`
	// Owner is the member that owns the partition, "" for none.
	Owner string `json:"owner"`
	// For a read_committed group: the partition's last stable offset and
	// the lag against it, what the consumer's records-lag metric measures
	// (SubscriptionState.partitionLag, kafka-clients 4.4). LogEndOffset
	// and Lag stay what kafka-consumer-groups shows, which lists offsets
	// with OffsetSpec.latest() and read_uncommitted (GroupOffsetsResetter.
	// getLogEndOffsets, kafka-tools 4.4): the high watermark, whatever the
	// group's isolation.level.
	LastStableOffset *int64 `json:"last_stable_offset,omitempty"`
	LagToLastStable  *int64 `json:"lag_to_last_stable_offset,omitempty"`
}

// Snapshot reads the state of an engine.
func Snapshot(l core.ReadOnlyLog) State {
	st := State{TimeMs: l.Now(), Seed: l.Seed(), Topics: []TopicState{}, Groups: groupStates(l), ShareGroups: shareGroupStates(l)}
	for _, name := range l.TopicNames() {
		t := TopicState{Name: name, Configs: map[string]string{}, Partitions: []PartitionState{}}
		cfg, _ := l.TopicConfig(name)
		for _, e := range cfg.Entries() {
			t.Configs[e.Name] = e.Value
		}
		n, _ := l.Partitions(name)
		for p := range n {
			ps := PartitionState{Partition: p, Records: []RecordState{}}
			ps.LogStartOffset, _ = l.LogStartOffset(name, p)
			ps.HighWatermark, _ = l.HighWatermark(name, p)
			records, _ := l.Records(name, p)
			for _, r := range records {
				rs := RecordState{Offset: r.Offset, TimestampMs: r.Timestamp}
				if r.HasKey {
					rs.Key = &r.Key
				}
				if !r.Tombstone {
					rs.Value = &r.Value
				}
				ps.Records = append(ps.Records, rs)
			}
			t.Partitions = append(t.Partitions, ps)
		}
		st.Topics = append(st.Topics, t)
	}
	addReplication(l, &st)
	addProducers(l, &st)
	return st
}

// StateJSON returns the snapshot of an engine as indented JSON ending in a
// newline. The same engine state gives the same bytes on every platform.
func StateJSON(l core.ReadOnlyLog) ([]byte, error) {
	data, err := json.MarshalIndent(Snapshot(l), "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}
