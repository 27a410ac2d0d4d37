package core

import "fmt"

// Produce appends one record to a partition and says where it went and why.
// The partition is, in order of precedence: req.Partition when it is not
// negative; for a keyed record, Kafka's murmur2 partitioner (PartitionFor);
// for a keyless record, under rules 2 (rules.go) Kafka's built-in
// partitioner or, with req.Partitioner round-robin, Java's
// RoundRobinPartitioner (which takes keyed records round-robin too); under
// rules 1 round-robin across the partitions or, with the topic's
// partitioner=sticky, a partition chosen at random every
// StickyBatchRecords records.
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
	if err := l.checkPartitioner(req.Partitioner); err != nil {
		return ProduceResult{}, err
	}
	p, reason := l.choosePartition(t, &req)
	saved := l.savePartitioner(t)
	p = l.commitPartitionChoice(t, &req, p, &reason)
	if err := l.checkWritable(t, p, acks); err != nil {
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
	l.stored += part.append(&Record{
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

// checkPartitioner checks a producer's partitioner.class: the producer
// chooses it under rules 2 and later, the topic's partitioner config under
// rules 1.
func (l *PartitionedLog) checkPartitioner(p string) error {
	switch {
	case p == "":
		return nil
	case !l.follows(BuiltInPartitioner):
		return fmt.Errorf("a producer's partitioner (partitioner.class) comes with rules 2: under rules %d the topic's partitioner config chooses", l.rules)
	case p != PartitionerDefault && p != PartitionerRoundRobin:
		return fmt.Errorf("partitioner must be %s or %s, got %q", PartitionerDefault, PartitionerRoundRobin, p)
	}
	return nil
}

// checkTopicPartitioner refuses the topic's partitioner config under rules
// 2 and later: in Kafka the producer chooses (partitioner.class).
func (l *PartitionedLog) checkTopicPartitioner(topic, config string) error {
	if config == "partitioner" && l.follows(BuiltInPartitioner) {
		return fmt.Errorf("topic %q: under rules %d the partitioner is the producer's, as Kafka's partitioner.class: give partitioner=%s|%s to produce or producer", topic, l.rules, PartitionerDefault, PartitionerRoundRobin)
	}
	return nil
}
