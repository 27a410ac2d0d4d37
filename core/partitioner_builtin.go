package core

// Kafka's built-in partitioner, the default for keyless records under
// rules 2 (rules.go): Kafka 3.3's KIP-794, as
// org.apache.kafka.clients.producer.internals.BuiltInPartitioner and
// RecordAccumulator.append do it in kafka-clients 4.x. Keyless records
// stick to one partition; every record appended there adds its bytes to
// the partition's produced bytes (updatePartitionInfo), and once they reach
// batch.size with the batch being filled full, or twice batch.size
// whatever the batch, the partitioner moves to a partition chosen at
// random (nextPartition: uniformly among the partitions with a leader,
// since the playground has no load statistics for the adaptive choice),
// which may be the same one. The playground's seed draws where Kafka draws
// at random.
//
// Where plog approximates Java's accounting:
//   - Records go into one batch while they are produced at the same instant
//     of the virtual clock (linger.ms, 5 ms in Kafka 4.0, never passes
//     between them) and fit in batch.size; a record produced at a later
//     instant starts a new batch, as if the sender had sent the last one.
//   - Only the keyless records' batch is counted: keyed records sent to the
//     same partition in Java share its batches.
//   - A partition that loses its leader is left at once for another chosen
//     at random; Java keeps the records for it until a leader returns.

// BatchSizeBytes is the producer's batch.size, Kafka's default (16384):
// the bytes the built-in partitioner sends to a partition before it moves.
const BatchSizeBytes = 16384

// recordBatchOverhead is the header of a record batch
// (DefaultRecordBatch.RECORD_BATCH_OVERHEAD): a new batch's first record
// adds it to the bytes appended.
const recordBatchOverhead = 61

// builtInState is the built-in partitioner's state for one topic.
type builtInState struct {
	partition int   // the partition it sticks to; -1 before the first record and after a switch
	filled    int   // the partition it left at its last switch; -1 for none
	produced  int64 // bytes appended to the partition since it was chosen (StickyPartitionInfo.producedBytes)
	batch     int64 // bytes of the open batch, header included; 0 for none
	records   int   // records in the open batch
	batchTime int64 // when the open batch's first record was produced
}

// builtInPartition says where the built-in partitioner puts the next
// keyless record: its partition, or -1 for one chosen at random.
func (l *PartitionedLog) builtInPartition(t *topic) (int, partitionReason) {
	b := &t.builtIn
	reason := partitionReason{key: t.name, how: reasonBuiltIn, from: -1}
	if b.partition >= 0 && b.partition < len(t.partitions) && !t.partitions[b.partition].offline() {
		reason.to = int32(b.partition)
		return b.partition, reason
	}
	if b.filled >= 0 {
		reason.how, reason.from = reasonBuiltInSwitch, int32(b.filled)
	}
	return -1, reason
}

// commitBuiltIn resolves the built-in partitioner's choice for a record
// just accepted, adds the record's bytes, and moves on when they are enough
// (BuiltInPartitioner.updatePartitionInfo).
func (l *PartitionedLog) commitBuiltIn(t *topic, req *ProduceRequest, p int, reason *partitionReason) int {
	b := &t.builtIn
	if p < 0 {
		// BuiltInPartitioner.nextPartition, without load statistics.
		if available := t.availablePartitions(); available != nil {
			p = available[l.randomIntn(len(available))]
		} else {
			p = l.randomIntn(len(t.partitions))
		}
		*b = builtInState{partition: p, filled: -1}
	}
	reason.to = int32(p)
	value := req.Value
	if req.Tombstone {
		value = ""
	}
	// RecordAccumulator.tryAppend: the record joins the open batch if it
	// fits (MemoryRecordsBuilder.hasRoomFor), else a new batch starts.
	size := int64(defaultRecordSize(b.records, l.now-b.batchTime, req.HasKey, len(req.Key), len(value)))
	appended := size
	if b.batch == 0 || b.batchTime != l.now || b.batch+size > BatchSizeBytes {
		size = int64(defaultRecordSize(0, 0, req.HasKey, len(req.Key), len(value)))
		appended = recordBatchOverhead + size
		b.batch, b.records, b.batchTime = recordBatchOverhead, 0, l.now
	}
	b.batch += size
	b.records++
	b.produced += appended
	// RecordAccumulator.allBatchesFull: the switch waits for the batch to
	// be full (MemoryRecordsBuilder.isFull), up to twice batch.size.
	if b.produced >= BatchSizeBytes && b.batch >= BatchSizeBytes || b.produced >= 2*BatchSizeBytes {
		*b = builtInState{partition: -1, filled: p}
	}
	return p
}

// defaultRecordSize is DefaultRecord.sizeInBytes (kafka-clients 4.x) of a
// record with no headers: its offset and timestamp deltas in its batch, a
// key (or none) and a value. A value of "" is counted as empty; null (a
// tombstone) takes the same one byte.
func defaultRecordSize(offsetDelta int, timestampDelta int64, hasKey bool, keyLen, valueLen int) int {
	body := 1 + varlongSize(timestampDelta) + varintSize(int64(offsetDelta)) // attributes, deltas
	if hasKey {
		body += varintSize(int64(keyLen)) + keyLen
	} else {
		body++ // a null key: varint -1
	}
	body += varintSize(int64(valueLen)) + valueLen
	body++ // no headers: varint 0
	return body + varintSize(int64(body))
}

// varintSize is ByteUtils.sizeOfVarint: the bytes of a zigzag varint.
func varintSize(v int64) int { return varlongSize(v) }

// varlongSize is ByteUtils.sizeOfVarlong.
func varlongSize(v int64) int {
	u := uint64(v<<1) ^ uint64(v>>63)
	n := 1
	for u >= 0x80 {
		u >>= 7
		n++
	}
	return n
}
