package app

import (
	"plog/core"
	"plog/core/scenario"
)

// ReplicaSnapshot is what the page shows of the cluster: the brokers and,
// for each partition, where its replicas are and how far each got. It is
// empty (InUse false) while every topic has one replica and no broker
// command was given, so the page shows nothing of brokers until they
// matter.
type ReplicaSnapshot struct {
	InUse      bool
	Brokers    []core.BrokerInfo
	LagMaxMs   int64 // replica.lag.time.max.ms
	Partitions []ReplicaPartition
}

// ReplicaPartition is one partition's replication, with how many of its
// retained offsets each ack status covers.
type ReplicaPartition struct {
	Topic     string
	Partition int
	core.PartitionReplication
	Acked, Pending, Failed, Sent int64
}

// snapshotReplicas copies the cluster's state out of the engine.
func snapshotReplicas(l *core.PartitionedLog) ReplicaSnapshot {
	if l == nil || !l.ReplicationInUse() {
		return ReplicaSnapshot{}
	}
	snap := ReplicaSnapshot{InUse: true, Brokers: l.Brokers(), LagMaxMs: l.ReplicaLagTimeMaxMs()}
	for _, name := range l.TopicNames() {
		n, _ := l.Partitions(name)
		for p := range n {
			v, err := l.Replication(name, p)
			if err != nil {
				continue
			}
			rp := ReplicaPartition{Topic: name, Partition: p, PartitionReplication: v}
			for _, a := range v.Acks {
				count := a.To - a.From
				switch a.Status {
				case core.AckAcknowledged:
					rp.Acked += count
				case core.AckPending:
					rp.Pending += count
				case core.AckFailed:
					rp.Failed += count
				case core.AckSent:
					rp.Sent += count
				}
			}
			snap.Partitions = append(snap.Partitions, rp)
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
