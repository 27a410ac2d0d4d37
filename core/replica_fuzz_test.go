package core

import (
	"fmt"
	"testing"
)

// FuzzReplicationOperations decodes the input into broker operations
// (crash, restart, isolate, slow, heal), produces with every acks setting,
// advances, DeleteRecords, retention and config changes on a replicated
// topic. No input may panic the engine; a refused operation must leave the
// state exactly as it was; the replication invariants must hold after each
// step.
func FuzzReplicationOperations(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 1, 0, 2, 5, 0, 3, 4, 1, 6, 0, 3})
	f.Add([]byte("produce; crash the leader; restart; isolate; advance; heal; unclean on"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 2048 {
			data = data[:2048]
		}
		configs := map[string]string{"replication.factor": "3", "min.insync.replicas": "2", "segment.records": "2"}
		o, err := newReplicaOps(int64(len(data)), Acks1, configs)
		if err != nil {
			t.Fatal(err)
		}
		o.l.DrainEvents() // the dumps compare states, pending events included
		c := &bytesChooser{data: data}
		for i := 0; !c.done(); i++ {
			before := dumpLog(o.l) + dumpReplication(o.l)
			what, err := fuzzReplicationStep(o, c)
			o.l.DrainEvents()
			if err != nil && dumpLog(o.l)+dumpReplication(o.l) != before {
				t.Fatalf("step %d, %s: refused (%v) but changed the state", i, what, err)
			}
			if broken := checkReplicationInvariants(o.l); broken != nil {
				t.Fatalf("step %d, %s: %v", i, what, broken)
			}
		}
	})
}

// fuzzReplicationStep runs one operation: most often one of replicaOps,
// with a random acks, else an operation of the log under replication.
func fuzzReplicationStep(o *replicaOps, c chooser) (string, error) {
	o.acks = pick(c, "acks", Acks0, Acks1, AcksAll, "", "2")
	partition := pick(c, "partition", 0, 1, 2)
	switch c.choose(8, "kind") {
	case 0:
		hw, _ := o.l.HighWatermark(replicaOpsTopic, partition)
		before := pick(c, "before", hw, hw+1, hw/2)
		return fmt.Sprintf("truncate %d before %d", partition, before), o.l.Truncate(replicaOpsTopic, partition, before)
	case 1:
		name := pick(c, "config", "unclean.leader.election.enable", "min.insync.replicas", "retention.ms", "replication.factor", "cleanup.policy")
		value := pick(c, "value", "true", "false", "1", "2", "3", "4", "1s", "compact,delete")
		return fmt.Sprintf("set %s=%s", name, value), o.l.SetTopicConfig(replicaOpsTopic, name, value)
	case 2:
		offset := pick(c, "offset", int64(0), 1, 3, 100)
		_, err := o.l.Consume(replicaOpsTopic, partition, offset, 5)
		return fmt.Sprintf("consume %d at %d", partition, offset), err
	case 3:
		return "compact", o.l.Compact(replicaOpsTopic)
	case 4:
		n := pick(c, "brokers", 3, 4, 2, 0)
		return fmt.Sprintf("brokers %d", n), o.l.SetBrokers(n)
	}
	err := o.step(c)
	return o.trace[len(o.trace)-1], err
}
