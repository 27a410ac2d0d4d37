package app

import (
	"plog/core"
	"plog/core/scenario"
)

// ReplicaSnapshot is what the page shows of the cluster: the brokers, for
// the broker strip, and the replicas of the partitions whose lanes may be
// drawn, by laneKey, for the lanes. It is empty (InUse false) while every
// topic has one replica and no broker command was given, so the page shows
// nothing of brokers until they matter.
type ReplicaSnapshot struct {
	InUse    bool
	Brokers  []core.BrokerInfo
	LagMaxMs int64 // replica.lag.time.max.ms
	// Lanes holds the replicas of each topic's first lanesShown partitions,
	// topics in name order, until laneReplicasShown replicas: a hundred
	// brokers and ten thousand partitions make a million replicas, which
	// no page can draw. A lane missing here draws no replicas.
	Lanes map[string]ReplicaPartition
}

// laneReplicasShown bounds the replicas the lanes draw, over all topics:
// each lane's replicas are a dozen elements of the page.
const laneReplicasShown = 300

// ReplicaPartition is one partition's replication, with how many of its
// retained offsets each ack status covers (core.AckTally).
type ReplicaPartition struct {
	Topic     string
	Partition int
	core.PartitionReplication
}

// snapshotReplicas copies the cluster's state out of the engine.
func snapshotReplicas(l core.ReadOnlyLog) ReplicaSnapshot {
	if l == nil || !l.ReplicationInUse() {
		return ReplicaSnapshot{}
	}
	snap := ReplicaSnapshot{InUse: true, Brokers: l.Brokers(), LagMaxMs: l.ReplicaLagTimeMaxMs(), Lanes: map[string]ReplicaPartition{}}
	drawn := 0
	for _, name := range l.TopicNames() {
		n, _ := l.Partitions(name)
		for p := 0; p < min(n, lanesShown) && drawn < laneReplicasShown; p++ {
			v, err := l.Replication(name, p)
			if err != nil {
				continue
			}
			snap.Lanes[laneKey(name, p)] = ReplicaPartition{Topic: name, Partition: p, PartitionReplication: v}
			drawn += max(len(v.Replicas), 1)
		}
	}
	return snap
}

// replicaSnapshotOf is the cluster of a session, empty before one exists.
func replicaSnapshotOf(s *scenario.Session) ReplicaSnapshot {
	if s == nil {
		return ReplicaSnapshot{}
	}
	return snapshotReplicas(s.Log())
}
