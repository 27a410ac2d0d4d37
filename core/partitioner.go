package core

import (
	"fmt"
	"strconv"
)

// Murmur2 is the 32-bit murmur2 hash exactly as Kafka's Java client computes
// it (org.apache.kafka.common.utils.Utils.murmur2, seed 0x9747b28c), the hash
// its default partitioner applies to a record's key bytes.
func Murmur2(data []byte) int32 {
	return murmur2(data)
}

func murmur2[T string | []byte](data T) int32 {
	const (
		seed = 0x9747b28c
		m    = 0x5bd1e995
		r    = 24
	)
	length := len(data)
	h := uint32(seed) ^ uint32(length)
	for i := 0; i+4 <= length; i += 4 {
		k := uint32(data[i]) | uint32(data[i+1])<<8 | uint32(data[i+2])<<16 | uint32(data[i+3])<<24
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
	}
	tail := length &^ 3
	switch length % 4 {
	case 3:
		h ^= uint32(data[tail+2]) << 16
		fallthrough
	case 2:
		h ^= uint32(data[tail+1]) << 8
		fallthrough
	case 1:
		h ^= uint32(data[tail])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return int32(h)
}

// PartitionFor returns the partition Kafka's Java client picks for a keyed
// record: (murmur2(key) & 0x7fffffff) % numPartitions. An empty key is a key
// and is hashed like any other. numPartitions below 1 gives 0.
func PartitionFor(key string, numPartitions int) int {
	if numPartitions < 1 {
		return 0
	}
	return int(uint32(murmur2(key))&0x7fffffff) % numPartitions
}

// StickyBatchRecords is how many keyless records the sticky partitioner sends
// to one partition before it moves to another, chosen at random from the
// seed. Kafka's client moves when a batch of batch.size bytes (16KB by
// default) is full; the playground counts records so the switch shows.
const StickyBatchRecords = 5

// partitionReason is why a record went to its partition, kept as its parts
// so that a produce writes no text: String writes it when someone reads it.
type partitionReason struct {
	key        string // a keyed record's key; the topic, for the built-in partitioner
	partitions int32  // the topic's partition count when a keyed record was produced
	from, to   int32  // the built-in partitioner's partition before a switch, and its partition
	how        reasonKind
}

type reasonKind uint8

const (
	reasonNone reasonKind = iota
	reasonExplicit
	reasonKeyed
	reasonRoundRobin
	reasonRoundRobinAvailable // round-robin over the partitions with a leader
	reasonSticky
	reasonBuiltIn       // the built-in partitioner sticks to its partition
	reasonBuiltInSwitch // it moved on: batch.size bytes went to the one before
)

func (r partitionReason) String() string {
	switch r.how {
	case reasonExplicit:
		return "explicit"
	case reasonKeyed:
		n := int(r.partitions)
		return keyedReason(r.key, n, PartitionFor(r.key, n))
	case reasonRoundRobin:
		return "round-robin"
	case reasonRoundRobinAvailable:
		return "round-robin over the partitions with a leader"
	case reasonSticky:
		return "sticky"
	case reasonBuiltIn:
		return fmt.Sprintf("built-in partitioner: keyless records stick to %s/%d, chosen at random, until batch.size (%d bytes) have gone there",
			r.key, r.to, BatchSizeBytes)
	case reasonBuiltInSwitch:
		return fmt.Sprintf("batch.size %d bytes reached on %s/%d: the built-in partitioner moved to %s/%d",
			BatchSizeBytes, r.key, r.from, r.key, r.to)
	}
	return ""
}

// choosePartition picks the partition for a record and says why. It
// changes no state: commitPartitionChoice does once the produce succeeds.
// -1 is a choice still open, made at random by commitPartitionChoice.
func (l *PartitionedLog) choosePartition(t *topic, req *ProduceRequest) (int, partitionReason) {
	n := len(t.partitions)
	switch {
	case req.Partition >= 0:
		return req.Partition, partitionReason{how: reasonExplicit}
	case l.follows(BuiltInPartitioner) && req.Partitioner == PartitionerRoundRobin:
		// Java's RoundRobinPartitioner ignores keys: keyed records go
		// round-robin too (kafka-clients 4.x).
		return l.roundRobinPartition(t)
	case req.HasKey:
		return PartitionFor(req.Key, n), partitionReason{key: req.Key, partitions: int32(n), how: reasonKeyed}
	case l.follows(BuiltInPartitioner):
		return l.builtInPartition(t)
	case t.config.Partitioner == PartitionerSticky:
		if t.sticky >= 0 && t.sticky < n && t.stickyCount < StickyBatchRecords && !t.partitions[t.sticky].offline() {
			return t.sticky, partitionReason{how: reasonSticky}
		}
		return -1, partitionReason{how: reasonSticky}
	default:
		return l.roundRobinPartition(t)
	}
}

// roundRobinPartition is Java's RoundRobinPartitioner (kafka-clients 4.x):
// a counter per topic, over the partitions with a leader when some have
// none.
func (l *PartitionedLog) roundRobinPartition(t *topic) (int, partitionReason) {
	if available := t.availablePartitions(); available != nil {
		return available[int(t.roundRobin%int64(len(available)))], partitionReason{how: reasonRoundRobinAvailable}
	}
	return int(t.roundRobin % int64(len(t.partitions))), partitionReason{how: reasonRoundRobin}
}

// commitPartitionChoice advances the keyless partitioners' state after a
// successful produce and resolves a choice still open (-1).
func (l *PartitionedLog) commitPartitionChoice(t *topic, req *ProduceRequest, p int, reason *partitionReason) int {
	if req.Partition >= 0 {
		return p
	}
	if reason.how == reasonRoundRobin || reason.how == reasonRoundRobinAvailable {
		t.roundRobin++
		return p
	}
	if reason.how == reasonBuiltIn || reason.how == reasonBuiltInSwitch {
		return l.commitBuiltIn(t, req, p, reason)
	}
	if req.HasKey {
		return p
	}
	if available := t.availablePartitions(); p < 0 && available != nil {
		p = available[l.randomIntn(len(available))]
		t.sticky, t.stickyCount = p, 0
	}
	if p < 0 {
		n := len(t.partitions)
		if previous := t.sticky; n > 1 && previous >= 0 && previous < n {
			// Like the Java client, a new batch goes to a different
			// partition than the one just filled.
			p = (previous + 1 + l.randomIntn(n-1)) % n
		} else {
			p = l.randomIntn(n)
		}
		t.sticky, t.stickyCount = p, 0
	}
	t.stickyCount++
	return p
}

// keyedReason writes `murmur2("acct-1") % 4 = 2` with one allocation.
func keyedReason(key string, n, p int) string {
	var room [64]byte
	buf := room[:0]
	buf = append(buf, "murmur2("...)
	buf = appendQuoted(buf, key)
	buf = append(buf, ") % "...)
	buf = strconv.AppendInt(buf, int64(n), 10)
	buf = append(buf, " = "...)
	buf = strconv.AppendInt(buf, int64(p), 10)
	return string(buf)
}

// appendQuoted appends key in Go's double-quoted form (strconv.Quote), fast
// for the common key of printable ASCII.
func appendQuoted(buf []byte, key string) []byte {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < ' ' || c > '~' || c == '"' || c == '\\' {
			return strconv.AppendQuote(buf, key)
		}
	}
	buf = append(buf, '"')
	buf = append(buf, key...)
	return append(buf, '"')
}
