package app

import (
	"errors"

	"plog/core"
)

// PartitionTxn is what transactions made of one partition, for its lane:
// its last stable offset, and what each record of the drawn window is to a
// transaction. The zero value (InUse false) draws nothing of transactions.
type PartitionTxn struct {
	// InUse is set while the scenario has named producers: the lane then
	// draws its last stable offset beside the high watermark.
	InUse            bool
	LastStableOffset int64
	// States are, index for index with PartitionSnapshot.Records, what a
	// transaction made of each record: open, committed or aborted, "" for
	// a record no transaction wrote (and for a marker, which the record's
	// Control says).
	States []string
}

// state is what a transaction made of the i-th record drawn.
func (t PartitionTxn) state(i int) string {
	if i < 0 || i >= len(t.States) {
		return ""
	}
	return t.States[i]
}

// addTransactions copies the transactions' part of the engine into the
// snapshot, while named producers are in use: each lane's last stable
// offset and its drawn records' transactions, and what each group reads
// under its isolation.level.
func addTransactions(l core.ReadOnlyLog, snap *LogSnapshot) error {
	if !l.TransactionsInUse() {
		return nil
	}
	var errs []error
	for ti := range snap.Topics {
		for pi := range snap.Topics[ti].Partitions {
			p := &snap.Topics[ti].Partitions[pi]
			lso, err := l.LastStableOffset(p.Topic, p.Partition)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			p.Txn = PartitionTxn{InUse: true, LastStableOffset: lso}
			var states []string
			for i, r := range p.Records {
				if _, state := l.RecordTransaction(p.Topic, p.Partition, r.Offset); state != "" {
					if states == nil {
						states = make([]string, len(p.Records))
					}
					states[i] = state
				}
			}
			p.Txn.States = states
		}
	}
	for _, g := range snap.Groups {
		v, err := l.GroupIsolation(g.Name)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		snap.Isolation = append(snap.Isolation, v)
	}
	return errors.Join(errs...)
}
