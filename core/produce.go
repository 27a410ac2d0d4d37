package core

import "fmt"

// Produce appends one record to a partition and says where it went and why.
// The partition is, in order of precedence: req.Partition when it is not
// negative; for a keyed record, Kafka's murmur2 partitioner (PartitionFor);
// for a keyless record, round-robin across the partitions or, with the
// topic's partitioner=sticky, the sticky behaviour of newer Java clients.
// The record's offset is the leader's log end offset and its timestamp the
// virtual clock. With replicas, req.Acks decides when the producer is
// answered (see replica.go).
//
// Refused, with nothing changed: an unknown topic, an explicit partition out
// of range, a tombstone without a key or with a value, a keyless record on a
// compacted topic (Kafka refuses those too), a record larger than Kafka's
// default message.max.bytes, a partition that is offline, and acks=all
// while fewer replicas than min.insync.replicas are in sync.
func (l *PartitionedLog) Produce(req ProduceRequest) (ProduceResult, error) {
	t, err := l.topic(req.Topic)
	if err != nil {
		return ProduceResult{}, err
	}
	if err := checkProduce(t, &req); err != nil {
		return ProduceResult{}, err
	}
	acks, err := checkAcks(req.Acks)
	if err != nil {
		return ProduceResult{}, err
	}
	p, reason := l.choosePartition(t, &req)
	saved := l.savePartitioner(t)
	p = l.commitPartitionChoice(t, &req, p)
	if err := checkWritable(t, p, acks); err != nil {
		l.restorePartitioner(t, saved)
		return ProduceResult{}, err
	}
	part := t.partitions[p]
	offset := part.next
	value := req.Value
	if req.Tombstone {
		value = ""
	}
	key := req.Key
	if !req.HasKey {
		key = ""
	}
	part.append(&Record{
		Offset:    offset,
		Timestamp: l.now,
		Key:       key,
		Value:     value,
		HasKey:    req.HasKey,
		Tombstone: req.Tombstone,
	}, recordSize(key, value), &t.config)
	l.events.addProduced(l.now, req.Topic, p, offset, reason)
	ack := l.afterAppend(t, p, part, offset, acks)
	return ProduceResult{Topic: req.Topic, Partition: p, Offset: offset, Ack: ack, reason: reason}, nil
}

func checkProduce(t *topic, req *ProduceRequest) error {
	if req.Partition >= len(t.partitions) {
		return fmt.Errorf("partition %d does not exist: topic %q has partitions 0..%d", req.Partition, t.name, len(t.partitions)-1)
	}
	if req.Tombstone && !req.HasKey {
		return fmt.Errorf("topic %q: a tombstone needs a key: it deletes that key when the topic is compacted", t.name)
	}
	if req.Tombstone && req.Value != "" {
		return fmt.Errorf("topic %q: a tombstone has no value, got %q", t.name, req.Value)
	}
	if !req.HasKey && t.config.Compacts() {
		return fmt.Errorf("topic %q: a compacted topic (cleanup.policy=%s) cannot accept a record without a key", t.name, t.config.CleanupPolicy)
	}
	if size := recordSize(req.Key, req.Value); size > maxRecordBytes {
		return fmt.Errorf("topic %q: the record is %d bytes, larger than the %d bytes allowed (message.max.bytes)", t.name, size, maxRecordBytes)
	}
	return nil
}
