package assign

import (
	"slices"
	"strings"
	"unicode/utf16"
)

// Kafka's sticky assignors iterate java.util.HashMap and HashSet in places
// where the order decides the answer (see sticky_kafka.go). A HashMap's
// order is not random: it is the order of its buckets, and within a bucket
// the order of insertion. This file computes it, as OpenJDK 17's
// java.util.HashMap does (the JVM kafka-clients 4.4.0 runs on in the
// conformance suite):
//
//   - String.hashCode is s[0]·31^(n-1) + … + s[n-1] over the UTF-16 code
//     units, in 32-bit arithmetic; TopicPartition.hashCode (kafka-clients
//     4.4.0) is 31·(31+partition) + topic.hashCode().
//   - HashMap.hash spreads it: h ^ (h >>> 16); the bucket is hash & (n-1).
//   - the table starts at 16 buckets and doubles when the size passes 0.75
//     of it, and also (treeifyBin) when a bucket below 64 buckets would
//     hold a ninth entry. Resizing keeps the order within a bucket.
//
// One case is not followed: from 64 buckets on, a bucket of nine entries
// becomes a red-black tree (TREEIFY_THRESHOLD), whose order is the tree's.
// It takes nine keys of one bucket in a table of 64 or more: nine member
// ids in one bucket of a group of more than 24 members, or nine partitions
// of one topic moving between the same two members in one rebalance, which
// spread over buckets by partition number (a topic of more than 512
// partitions).

// JavaStringHash is java.lang.String.hashCode (over the string's UTF-16
// code units), as Java 17 computes it.
func JavaStringHash(s string) int32 {
	var h int32
	for _, u := range utf16.Encode([]rune(s)) {
		h = 31*h + int32(u)
	}
	return h
}

// javaPartitionHash is org.apache.kafka.common.TopicPartition.hashCode.
func javaPartitionHash(tp TopicPartition) int32 {
	return 31*(31+int32(tp.Partition)) + JavaStringHash(tp.Topic)
}

// javaSpread is java.util.HashMap.hash.
func javaSpread(h int32) uint32 {
	u := uint32(h)
	return u ^ u>>16
}

// javaCompareStrings is java.lang.String.compareTo: UTF-16 code units in
// order (Go's < compares UTF-8 bytes, which differs above U+FFFF).
func javaCompareStrings(a, b string) int {
	if isASCII(a) && isASCII(b) {
		return strings.Compare(a, b)
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

const (
	javaInitialCapacity = 16
	javaTreeifyCapacity = 64 // MIN_TREEIFY_CAPACITY
	javaTreeifyBin      = 8  // TREEIFY_THRESHOLD: a bucket with 8 takes a 9th by treeifying
)

// javaHashOrder returns the order in which a java.util.HashMap, created
// empty and given the keys with these spread hashes by put in the order
// given (no key twice), iterates them: indices into hashes.
func javaHashOrder(hashes []uint32) []int {
	return javaBucketOrder(hashes, javaIteratedCapacity(hashes))
}

// javaBucketOrder is the order of keys with these spread hashes, put in
// in the order given, in a table of capacity buckets: by bucket, and in a
// bucket by insertion.
func javaBucketOrder(hashes []uint32, capacity int) []int {
	order := make([]int, len(hashes))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return int(hashes[a]&uint32(capacity-1)) - int(hashes[b]&uint32(capacity-1))
	})
	return order
}

// javaIteratedCapacity is the table size of a HashMap after these puts.
func javaIteratedCapacity(hashes []uint32) int {
	capacity := javaInitialCapacity
	load := make([]int, capacity) // keys in each bucket
	grow := func(size int) {
		capacity *= 2
		load = make([]int, capacity)
		for _, h := range hashes[:size] {
			load[h&uint32(capacity-1)]++
		}
	}
	for size, h := range hashes {
		if load[h&uint32(capacity-1)] >= javaTreeifyBin && capacity < javaTreeifyCapacity {
			grow(size)
		}
		load[h&uint32(capacity-1)]++
		if size+1 > capacity*3/4 {
			grow(size + 1)
		}
	}
	return capacity
}

// javaPartitionSet is a java.util.HashSet<TopicPartition> as far as Kafka's
// sticky assignor uses one: add, remove, and the first element its
// iterator gives.
type javaPartitionSet struct {
	capacity int
	entries  []javaSetEntry // in insertion order
}

type javaSetEntry struct {
	tp   TopicPartition
	hash uint32
}

func newJavaPartitionSet() *javaPartitionSet {
	return &javaPartitionSet{capacity: javaInitialCapacity}
}

func (s *javaPartitionSet) indexOf(tp TopicPartition) int {
	return slices.IndexFunc(s.entries, func(e javaSetEntry) bool { return e.tp == tp })
}

func (s *javaPartitionSet) add(tp TopicPartition) {
	if s.indexOf(tp) >= 0 {
		return
	}
	h := javaSpread(javaPartitionHash(tp))
	load := 0
	for _, e := range s.entries {
		if e.hash&uint32(s.capacity-1) == h&uint32(s.capacity-1) {
			load++
		}
	}
	if load >= javaTreeifyBin && s.capacity < javaTreeifyCapacity {
		s.capacity *= 2
	}
	s.entries = append(s.entries, javaSetEntry{tp, h})
	if len(s.entries) > s.capacity*3/4 {
		s.capacity *= 2
	}
}

func (s *javaPartitionSet) remove(tp TopicPartition) {
	if i := s.indexOf(tp); i >= 0 {
		s.entries = slices.Delete(s.entries, i, i+1)
	}
}

func (s *javaPartitionSet) empty() bool { return len(s.entries) == 0 }

// first is what iterator().next() returns: the lowest bucket, and in it the
// earliest added.
func (s *javaPartitionSet) first() TopicPartition {
	best := 0
	for i, e := range s.entries {
		if e.hash&uint32(s.capacity-1) < s.entries[best].hash&uint32(s.capacity-1) {
			best = i
		}
	}
	return s.entries[best].tp
}
