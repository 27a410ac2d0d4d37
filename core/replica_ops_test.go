package core

import (
	"fmt"
	"slices"
	"strconv"
)

// replicaOps drives a cluster with random operations: produces with the
// chosen acks, advances, crashes, restarts, isolations, slowdowns and
// heals. It remembers every value whose producer was told it was
// acknowledged, so that a test can look for one that went missing.
type replicaOps struct {
	l     *PartitionedLog
	acks  string
	seq   int
	acked map[string]int // value → partition
	trace []string
}

const replicaOpsTopic = "r"

func newReplicaOps(seed int64, acks string, configs map[string]string) (*replicaOps, error) {
	l := NewPartitionedLog(seed)
	if err := l.CreateTopic(replicaOpsTopic, 2, configs); err != nil {
		return nil, err
	}
	return &replicaOps{l: l, acks: acks, acked: map[string]int{}}, nil
}

// step runs one random operation and returns its error (refusals are
// expected: producing to an offline partition, restarting a live broker).
func (o *replicaOps) step(c chooser) error {
	broker := 1 + c.choose(3, "broker")
	var what string
	var err error
	switch c.choose(10, "op") {
	case 0, 1, 2:
		value := "v" + strconv.Itoa(o.seq)
		o.seq++
		partition := c.choose(2, "partition")
		what = fmt.Sprintf("produce %s to %d acks=%s", value, partition, o.acks)
		var res ProduceResult
		res, err = o.l.Produce(ProduceRequest{Topic: replicaOpsTopic, Partition: partition, Value: value, Acks: o.acks})
		if err == nil && res.Ack == AckAcknowledged {
			o.acked[value] = partition
		}
	case 3, 4:
		ms := pick(c, "ms", int64(100), ReplicaFetchIntervalMs, secondMs, 5*secondMs, defaultReplicaLagTimeMaxMs+secondMs)
		what = fmt.Sprintf("advance %dms", ms)
		err = o.l.Advance(ms)
	case 5:
		what = fmt.Sprintf("crash %d", broker)
		err = o.l.CrashBroker(broker)
	case 6:
		what = fmt.Sprintf("restart %d", broker)
		err = o.l.RestartBroker(broker)
	case 7:
		what = fmt.Sprintf("isolate %d", broker)
		err = o.l.IsolateBroker(broker)
	case 8:
		what = fmt.Sprintf("slow %d", broker)
		err = o.l.SlowBroker(broker, 1, secondMs)
	case 9:
		what = fmt.Sprintf("heal %d", broker)
		err = o.l.HealBroker(broker)
	}
	if err != nil {
		what += " (refused)"
	}
	o.trace = append(o.trace, what)
	o.noteAcknowledged()
	return err
}

// noteAcknowledged reads the acknowledged events: the records they name
// are in the log now, since nothing after the event in one operation
// removes records (retention is off in these tests).
func (o *replicaOps) noteAcknowledged() {
	for _, e := range o.l.DrainEvents() {
		if e.Kind != EventAcknowledged {
			continue
		}
		records, _ := o.l.Records(e.Topic, e.Partition)
		for _, r := range records {
			if r.Offset >= e.From && r.Offset < e.To {
				o.acked[r.Value] = e.Partition
			}
		}
	}
}

// lost returns an acknowledged value no longer in its partition's log, in
// value order, or "".
func (o *replicaOps) lost() string {
	var missing []string
	for value, partition := range o.acked {
		records, _ := o.l.Records(replicaOpsTopic, partition)
		if !slices.ContainsFunc(records, func(r Record) bool { return r.Value == value }) {
			missing = append(missing, value)
		}
	}
	slices.Sort(missing)
	if len(missing) == 0 {
		return ""
	}
	return missing[0]
}

// checkReplicationInvariants checks what must hold of every partition's
// replicas after any operation.
func checkReplicationInvariants(l *PartitionedLog) error {
	for _, name := range l.topicNames {
		t := l.topics[name]
		for i, p := range t.partitions {
			if err := checkReplicaSet(t, p); err != nil {
				return fmt.Errorf("%s/%d: %v", name, i, err)
			}
			if err := checkSegments(p); err != nil {
				return fmt.Errorf("%s/%d: %v", name, i, err)
			}
		}
	}
	return nil
}

func checkReplicaSet(t *topic, p *partition) error {
	rs := p.replicas
	if rs == nil {
		return fmt.Errorf("no replicas")
	}
	if int64(len(rs.replicas)) != t.config.ReplicationFactor {
		return fmt.Errorf("%d replicas for replication.factor=%d", len(rs.replicas), t.config.ReplicationFactor)
	}
	if rs.hw < p.logStart || rs.hw > p.next {
		return fmt.Errorf("high watermark %d outside [%d, %d]", rs.hw, p.logStart, p.next)
	}
	if rs.isrSize() == 0 {
		return fmt.Errorf("empty ISR")
	}
	if (rs.leader < 0) != (rs.offline != "") {
		return fmt.Errorf("leader %d but offline %q", rs.leader, rs.offline)
	}
	for j, r := range rs.replicas {
		if j == rs.leader && (r.match != p.next || r.logEnd != p.next || !r.inSync || len(r.tail) > 0) {
			return fmt.Errorf("leader %+v, log end %d", r, p.next)
		}
		if r.match > r.logEnd || r.match > p.next {
			return fmt.Errorf("replica %+v: match above its log end or the leader's %d", r, p.next)
		}
		if rs.leader >= 0 && r.inSync && max(r.match, p.logStart) < rs.hw {
			return fmt.Errorf("in-sync replica %d at %d below the high watermark %d", r.broker, r.match, rs.hw)
		}
		for k, rec := range r.tail {
			if rec.Offset < r.match || rec.Offset >= r.logEnd || k > 0 && rec.Offset <= r.tail[k-1].Offset {
				return fmt.Errorf("replica %d: tail record %d outside [%d, %d) or out of order", r.broker, rec.Offset, r.match, r.logEnd)
			}
		}
	}
	for k, run := range rs.acks {
		if run.from >= run.to || k > 0 && run.from < rs.acks[k-1].to || run.to > p.next {
			return fmt.Errorf("ack runs %v with log end %d", rs.acks, p.next)
		}
	}
	records := p.records.all()
	for j, r := range records {
		if r.Offset < p.logStart || r.Offset >= p.next || j > 0 && r.Offset <= records[j-1].Offset {
			return fmt.Errorf("record %d outside [%d, %d) or out of order", r.Offset, p.logStart, p.next)
		}
	}
	return nil
}
