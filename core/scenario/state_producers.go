package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
)

// ProducerState is one named producer (core.ProducerView).
type ProducerState struct {
	Name string `json:"name"`
	// Configs holds its configs in canonical text, by name.
	Configs map[string]string `json:"configs"`
	// ProducerID and Epoch are from InitProducerId; -1 for none.
	ProducerID int64 `json:"producer_id"`
	Epoch      int   `json:"epoch"`
	// Sequences are its next sequence number per partition.
	Sequences       []SequenceState `json:"sequences"`
	TransactionalID string          `json:"transactional_id,omitempty"`
	// TransactionState is a transactional producer's: uninitialized,
	// ready, in-transaction or fenced; Partitions its open transaction's.
	TransactionState string           `json:"transaction_state,omitempty"`
	Partitions       []PartitionOfTxn `json:"transaction_partitions,omitempty"`
	Requests         int64            `json:"requests"`
}

// SequenceState is a producer's next sequence number on a partition.
type SequenceState struct {
	Topic     string `json:"topic"`
	Partition int    `json:"partition"`
	Next      int32  `json:"next"`
}

// PartitionOfTxn is a partition an open transaction wrote to.
type PartitionOfTxn struct {
	Topic     string `json:"topic"`
	Partition int    `json:"partition"`
}

// PartitionTxnState is a partition's last stable offset, set when named
// producers are in use.
type PartitionTxnState struct {
	LastStableOffset *int64 `json:"last_stable_offset,omitempty"`
}

// RecordTxnState is what a transaction made of a record: Control is
// COMMIT or ABORT for a marker; Transaction is open, committed or aborted
// for a record a transaction wrote, with its producer id.
type RecordTxnState struct {
	Control     string `json:"control,omitempty"`
	Transaction string `json:"transaction,omitempty"`
	ProducerID  *int64 `json:"producer_id,omitempty"`
}

// addProducers fills the producers' part of a state.
func addProducers(l core.ReadOnlyLog, st *State) {
	if !l.TransactionsInUse() {
		return
	}
	for _, v := range l.Producers() {
		ps := ProducerState{Name: v.Name, Configs: map[string]string{}, ProducerID: v.ID, Epoch: v.Epoch, Sequences: []SequenceState{},
			TransactionalID: v.Config.TransactionalID, TransactionState: v.TransactionState, Requests: v.Requests}
		for _, e := range v.Config.Entries() {
			ps.Configs[e.Name] = e.Value
		}
		for _, s := range v.Sequences {
			ps.Sequences = append(ps.Sequences, SequenceState{s.Topic, s.Partition, s.Next})
		}
		for _, tp := range v.Partitions {
			ps.Partitions = append(ps.Partitions, PartitionOfTxn{tp.Topic, tp.Partition})
		}
		st.Producers = append(st.Producers, ps)
	}
	eachPartition(st, func(topic string, p *PartitionState) {
		lso, _ := l.LastStableOffset(topic, p.Partition)
		p.LastStableOffset = &lso
		records, _ := l.Records(topic, p.Partition)
		for ri := range p.Records {
			r := &p.Records[ri]
			if id, txn := l.RecordTransaction(topic, p.Partition, r.Offset); txn != "" {
				r.Transaction, r.ProducerID = txn, &id
			}
			if ri < len(records) && records[ri].Control != core.ControlNone {
				r.Control = records[ri].Control.String()
				r.Key, r.Value = nil, nil
			}
		}
	})
	for gi := range st.Groups {
		g := &st.Groups[gi]
		view, err := l.Group(g.Name)
		if err != nil {
			continue
		}
		g.IsolationLevel = view.Config.IsolationLevel
		if g.IsolationLevel != core.ReadCommitted {
			continue
		}
		for oi := range g.Offsets {
			o := &g.Offsets[oi]
			lso, err := l.LastStableOffset(o.Topic, o.Partition)
			if err != nil {
				continue
			}
			o.LastStableOffset = &lso
			if o.Committed != nil {
				lag := max(0, lso-*o.Committed)
				o.LagToLastStable = &lag
			}
		}
	}
}

// writeProducersText writes the producers, each partition's high
// watermark and last stable offset, the markers, and the read_committed
// groups' lag against the last stable offset.
func writeProducersText(b *strings.Builder, st State) {
	if len(st.Producers) == 0 {
		return
	}
	tw := newTable(b, "PRODUCER", "PRODUCER-ID", "EPOCH", "IDEMPOTENT", "ACKS", "TRANSACTIONAL-ID", "STATE", "SEQUENCES")
	for _, p := range st.Producers {
		var seqs []string
		for _, s := range p.Sequences {
			seqs = append(seqs, fmt.Sprintf("%s/%d:%d", s.Topic, s.Partition, s.Next))
		}
		tableRow(tw, p.Name, strconv.FormatInt(p.ProducerID, 10), strconv.Itoa(p.Epoch), p.Configs["enable.idempotence"], p.Configs["acks"],
			orDash(p.TransactionalID), orDash(p.TransactionState), orDash(strings.Join(seqs, " ")))
	}
	tw.Flush()
	writePartitionTable(b, st, []string{"HIGH-WATERMARK", "LAST-STABLE-OFFSET", "MARKERS", "TRANSACTIONAL-RECORDS"}, func(p PartitionState) []string {
		var markers, txns []string
		for _, r := range p.Records {
			switch {
			case r.Control != "":
				markers = append(markers, fmt.Sprintf("%d:%s", r.Offset, r.Control))
			case r.Transaction != "":
				txns = append(txns, fmt.Sprintf("%d:%s", r.Offset, r.Transaction))
			}
		}
		return []string{strconv.FormatInt(p.HighWatermark, 10), strconv.FormatInt(deref(p.LastStableOffset), 10),
			orDash(strings.Join(markers, " ")), orDash(strings.Join(txns, " "))}
	})
	for _, g := range st.Groups {
		fmt.Fprintf(b, "\ngroup %s isolation.level=%s\n", g.Name, g.IsolationLevel)
		if g.IsolationLevel != core.ReadCommitted {
			continue
		}
		for _, o := range g.Offsets {
			fmt.Fprintf(b, "  %s/%d last-stable-offset=%d lag-to-last-stable=%s\n", o.Topic, o.Partition, deref(o.LastStableOffset), dash(o.LagToLastStable))
		}
	}
}
