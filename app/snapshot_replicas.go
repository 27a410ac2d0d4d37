package app

import (
	"plog/core"
	"plog/core/scenario"
)

// ReplicaSnapshot is what the page shows of the cluster: the brokers and,
// for a window of the partitions, where their replicas are and how far each
// got. It is empty (InUse false) while every topic has one replica and no
// broker command was given, so the page shows nothing of brokers until they
// matter.
type ReplicaSnapshot struct {
	InUse    bool
	Brokers  []core.BrokerInfo
	LagMaxMs int64 // replica.lag.time.max.ms
	// Partitions are the partitions from the Start-th (0-based, topics in
	// name order) of the Total over all topics: a hundred brokers and ten
	// thousand partitions make a million replicas, which no page can draw.
	Partitions   []ReplicaPartition
	Start, Total int
}

// replicaPartitionsShown is how many partitions the replicas view draws at
// once (list_window.go), fewer when each has many replicas: it draws at most
// about replicaBarsShown replicas.
const (
	replicaPartitionsShown = 16
	replicaBarsShown       = 400
)

// partitionsShown is how many partitions the view draws at once in a
// cluster of brokers, the most replicas a partition may have.
func partitionsShown(brokers int) int {
	return max(1, min(replicaPartitionsShown, replicaBarsShown/max(brokers, 1)))
}

// ReplicaPartition is one partition's replication, with how many of its
// retained offsets each ack status covers (core.AckTally).
type ReplicaPartition struct {
	Topic     string
	Partition int
	core.PartitionReplication
}

// window is the window of partitions the snapshot holds.
func (s ReplicaSnapshot) window() listWindow {
	return windowAt(s.Start, partitionsShown(len(s.Brokers)), s.Total)
}

// snapshotReplicas copies the cluster's state out of the engine, for the
// partitionsShown partitions from the start-th.
func snapshotReplicas(l core.ReadOnlyLog, start int) ReplicaSnapshot {
	if l == nil || !l.ReplicationInUse() {
		return ReplicaSnapshot{}
	}
	snap := ReplicaSnapshot{InUse: true, Brokers: l.Brokers(), LagMaxMs: l.ReplicaLagTimeMaxMs()}
	names := l.TopicNames()
	counts := make([]int, len(names))
	for i, name := range names {
		counts[i], _ = l.Partitions(name)
		snap.Total += counts[i]
	}
	snap.Start = start
	w := snap.window()
	snap.Start = w.start
	first := 0 // the index of the topic's first partition
	for i, name := range names {
		for p := max(w.start-first, 0); p < counts[i] && first+p < w.end(); p++ {
			v, err := l.Replication(name, p)
			if err != nil {
				continue
			}
			snap.Partitions = append(snap.Partitions, ReplicaPartition{Topic: name, Partition: p, PartitionReplication: v})
		}
		first += counts[i]
	}
	return snap
}

// replicaSnapshotOf is the cluster of a session from the start-th
// partition, empty before one exists.
func replicaSnapshotOf(s *scenario.Session, start int) ReplicaSnapshot {
	if s == nil {
		return ReplicaSnapshot{}
	}
	return snapshotReplicas(s.Log(), start)
}
