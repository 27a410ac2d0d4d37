package core

import "slices"

// ReplicaInfo describes one replica of a partition.
type ReplicaInfo struct {
	Broker int
	Leader bool
	InSync bool
	// LogEndOffset is the end of this replica's own log. MatchOffset is
	// where it parts from the leader's log: below it the two hold the same
	// records; a replica that led or followed an earlier leader may hold
	// others above it until it truncates.
	LogEndOffset int64
	MatchOffset  int64
}

// AckRange gives what the producers of the records with offsets in
// [From, To) were told.
type AckRange struct {
	From, To int64
	Status   AckStatus
}

// PartitionReplication describes where a partition's replicas are and how
// far each got.
type PartitionReplication struct {
	Replicas    []ReplicaInfo // in assignment order: the first is the preferred leader
	Leader      int           // the leader's broker id; -1 when offline
	LeaderEpoch int
	ISR         []int // broker ids of the in-sync replicas, in assignment order
	// HighWatermark is the committed end: consumers read below it.
	// LogEndOffset is the leader's log end, where the next record goes.
	HighWatermark, LogEndOffset int64
	Offline                     bool
	OfflineReason               string
	MinInsyncReplicas           int64
	// EffectiveMinInsync is the fewest in-sync replicas acks=all needs:
	// under rules 3 min(min.insync.replicas, replication factor), as
	// Kafka's effectiveMinIsr; under rules 1 and 2 min.insync.replicas.
	EffectiveMinInsync int64
	// HighWatermarkHeld says why the high watermark does not move (under
	// rules 3, an ISR smaller than EffectiveMinInsync); "" when it is not
	// held.
	HighWatermarkHeld string
	// Acks covers the retained records, oldest first; AckTally adds them up.
	Acks     []AckRange
	AckTally AckTally
}

// AckTally counts a partition's retained offsets by what their producers
// were told (AckStatus).
type AckTally struct {
	Acknowledged, Pending, Failed, Sent int64
}

// add counts the offsets of one range.
func (t *AckTally) add(a AckRange) {
	n := a.To - a.From
	switch a.Status {
	case AckAcknowledged:
		t.Acknowledged += n
	case AckPending:
		t.Pending += n
	case AckFailed:
		t.Failed += n
	case AckSent:
		t.Sent += n
	}
}

// Replication describes a partition's replicas.
func (l *PartitionedLog) Replication(topicName string, partition int) (PartitionReplication, error) {
	t, p, err := l.partition(topicName, partition)
	if err != nil {
		return PartitionReplication{}, err
	}
	rs := p.replicas
	v := PartitionReplication{
		Leader:             -1,
		LeaderEpoch:        rs.epoch,
		ISR:                rs.isr(),
		HighWatermark:      p.highWatermark(),
		LogEndOffset:       p.next,
		Offline:            p.offline(),
		OfflineReason:      rs.offline,
		MinInsyncReplicas:  t.config.MinInsyncReplicas,
		EffectiveMinInsync: l.minISR(t, rs),
		HighWatermarkHeld:  l.hwHeldReason(t, rs),
	}
	for i, r := range rs.replicas {
		v.Replicas = append(v.Replicas, ReplicaInfo{
			Broker:       r.broker,
			Leader:       i == rs.leader,
			InSync:       r.inSync,
			LogEndOffset: max(r.logEnd, p.logStart),
			MatchOffset:  max(r.match, p.logStart),
		})
		if i == rs.leader {
			v.Leader = r.broker
		}
	}
	for _, run := range rs.acks {
		if from := max(run.from, p.logStart); from < run.to {
			a := AckRange{From: from, To: run.to, Status: run.status}
			v.Acks = append(v.Acks, a)
			v.AckTally.add(a)
		}
	}
	return v, nil
}

// Offline says why a partition has no leader, and the brokers its replicas
// are on; "" and nil while it has a leader or has no replicas to speak of.
func (l *PartitionedLog) Offline(topicName string, partition int) (string, []int, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil || !p.offline() {
		return "", nil, err
	}
	brokers := make([]int, len(p.replicas.replicas))
	for i, r := range p.replicas.replicas {
		brokers[i] = r.broker
	}
	return p.replicas.offline, brokers, nil
}

// AckOf returns what the producer of the record at offset was told, and
// false for an offset the partition's log does not hold.
func (l *PartitionedLog) AckOf(topicName string, partition int, offset int64) (AckStatus, bool) {
	_, p, err := l.partition(topicName, partition)
	if err != nil || offset < p.logStart || offset >= p.next {
		return "", false
	}
	runs := p.replicas.acks
	i, found := slices.BinarySearchFunc(runs, offset, func(run ackRun, o int64) int {
		switch {
		case run.to <= o:
			return -1
		case run.from > o:
			return 1
		}
		return 0
	})
	if !found {
		return "", false
	}
	return runs[i].status, true
}
