package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"
)

// BrokerState is one broker of the cluster.
type BrokerState struct {
	ID       int    `json:"id"`
	Down     bool   `json:"down,omitempty"`
	Isolated bool   `json:"isolated,omitempty"`
	Pace     string `json:"pace,omitempty"` // a slowed broker's copy rate, e.g. 5/s
	Leads    int    `json:"leads"`          // partitions it leads
	Follows  int    `json:"follows"`        // other replicas it holds
}

// PartitionReplicationState is where a partition's replicas are and how far
// each got; every field is left out when replication is not in use.
type PartitionReplicationState struct {
	// LogEndOffset is the leader's log end: records from the high
	// watermark up to it are not committed yet.
	LogEndOffset *int64 `json:"log_end_offset,omitempty"`
	// Leader is the leader's broker id; absent when the partition is
	// offline, which Offline and OfflineReason say.
	Leader        *int           `json:"leader,omitempty"`
	LeaderEpoch   *int           `json:"leader_epoch,omitempty"`
	ISR           []int          `json:"isr,omitempty"`
	Replicas      []ReplicaState `json:"replicas,omitempty"`
	Offline       bool           `json:"offline,omitempty"`
	OfflineReason string         `json:"offline_reason,omitempty"`
	// HighWatermarkHeld says why the high watermark does not move (under
	// rules 3, an ISR smaller than min.insync.replicas); "" when it is not
	// held.
	HighWatermarkHeld string `json:"high_watermark_held,omitempty"`
}

// ReplicaState is one replica of a partition, in assignment order.
type ReplicaState struct {
	Broker       int   `json:"broker"`
	Leader       bool  `json:"leader,omitempty"`
	InSync       bool  `json:"in_sync"`
	LogEndOffset int64 `json:"log_end_offset"`
	// MatchOffset is where its log parts from the leader's: records it
	// holds from there on (from an earlier leader) go when it truncates.
	MatchOffset int64 `json:"match_offset"`
}

// addReplication fills the replication fields when replication is in use.
func addReplication(l core.ReadOnlyLog, st *State) {
	if !l.ReplicationInUse() {
		return
	}
	st.ReplicaLagTimeMaxMs = l.ReplicaLagTimeMaxMs()
	for _, b := range l.Brokers() {
		bs := BrokerState{ID: b.ID, Down: b.Down, Isolated: b.Isolated, Leads: b.Leads, Follows: b.Follows}
		if b.PaceRecords > 0 {
			bs.Pace = units.Rate(b.PaceRecords, b.PaceMs)
		}
		st.Brokers = append(st.Brokers, bs)
	}
	eachPartition(st, func(topic string, ps *PartitionState) {
		v, err := l.Replication(topic, ps.Partition)
		if err != nil {
			return
		}
		ps.LogEndOffset = &v.LogEndOffset
		if !v.Offline {
			ps.Leader = &v.Leader
		}
		ps.LeaderEpoch = &v.LeaderEpoch
		ps.ISR = v.ISR
		ps.Offline, ps.OfflineReason = v.Offline, v.OfflineReason
		ps.HighWatermarkHeld = v.HighWatermarkHeld
		for _, r := range v.Replicas {
			ps.Replicas = append(ps.Replicas, ReplicaState{Broker: r.Broker, Leader: r.Leader, InSync: r.InSync, LogEndOffset: r.LogEndOffset, MatchOffset: r.MatchOffset})
		}
		run := 0
		for ri := range ps.Records {
			rec := &ps.Records[ri]
			for run < len(v.Acks) && v.Acks[run].To <= rec.Offset {
				run++
			}
			if run < len(v.Acks) && v.Acks[run].From <= rec.Offset {
				rec.Ack = string(v.Acks[run].Status)
			}
		}
	})
}

// writeReplicationText writes the brokers and, like kafka-topics --describe,
// each partition's leader, replicas and ISR, with the high watermark, each
// replica's log end offset and what the producers were told.
func writeReplicationText(b *strings.Builder, st State) {
	if len(st.Brokers) == 0 {
		return
	}
	tw := newTable(b, "BROKER", "STATUS", "LEADS", "FOLLOWS")
	for _, br := range st.Brokers {
		status := "up"
		switch {
		case br.Down:
			status = "down"
		case br.Isolated && br.Pace != "":
			status = "isolated, slowed to " + br.Pace
		case br.Isolated:
			status = "isolated"
		case br.Pace != "":
			status = "slowed to " + br.Pace
		}
		fmt.Fprintf(tw, "%d\t%s\t%d\t%d\n", br.ID, status, br.Leads, br.Follows)
	}
	tw.Flush()
	writePartitionTable(b, st, []string{"LEADER", "EPOCH", "REPLICAS", "ISR", "HIGH-WATERMARK", "LOG-END-OFFSETS"}, func(p PartitionState) []string {
		leader := "none (offline)"
		if p.Leader != nil {
			leader = strconv.Itoa(*p.Leader)
		}
		var replicas, ends []string
		for _, r := range p.Replicas {
			replicas = append(replicas, strconv.Itoa(r.Broker))
			end := fmt.Sprintf("%d:%d", r.Broker, r.LogEndOffset)
			if r.MatchOffset < r.LogEndOffset {
				end += fmt.Sprintf("(diverges@%d)", r.MatchOffset)
			}
			ends = append(ends, end)
		}
		var isr []string
		for _, id := range p.ISR {
			isr = append(isr, strconv.Itoa(id))
		}
		return []string{leader, strconv.Itoa(deref(p.LeaderEpoch)), strings.Join(replicas, ","),
			strings.Join(isr, ","), strconv.FormatInt(p.HighWatermark, 10), strings.Join(ends, " ")}
	})
	for _, t := range st.Topics {
		for _, p := range t.Partitions {
			if p.Offline {
				fmt.Fprintf(b, "%s/%d offline: %s\n", t.Name, p.Partition, p.OfflineReason)
			}
			if p.HighWatermarkHeld != "" {
				fmt.Fprintf(b, "%s/%d high watermark held: %s\n", t.Name, p.Partition, p.HighWatermarkHeld)
			}
			if acks := acksText(p.Records); acks != "" {
				fmt.Fprintf(b, "%s/%d acks:%s\n", t.Name, p.Partition, acks)
			}
		}
	}
}

// acksText writes runs of records with one ack status as " 0..3 acknowledged
// 3..5 pending", by offset.
func acksText(records []RecordState) string {
	var b strings.Builder
	for i := 0; i < len(records); {
		j := i
		for j < len(records) && records[j].Ack == records[i].Ack {
			j++
		}
		if records[i].Ack != "" {
			fmt.Fprintf(&b, " %d..%d %s", records[i].Offset, records[j-1].Offset+1, records[i].Ack)
		}
		i = j
	}
	return b.String()
}
