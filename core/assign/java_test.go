package assign

import (
	"slices"
	"testing"
)

// Java's hash codes and orders, as a JVM 17 with kafka-clients 4.4.0 gave
// them: String.hashCode, TopicPartition.hashCode, and the order a HashMap
// iterates keys in.
func TestJavaHashes(t *testing.T) {
	for s, want := range map[string]int32{"": 0, "a": 97, "hello": 99162322, "Aa": 2112, "BB": 2112, "consumer-1": -166239206, "é": 233, "😀": 1772899} {
		if got := JavaStringHash(s); got != want {
			t.Errorf("JavaStringHash(%q) = %d, want %d", s, got, want)
		}
	}
	if got := javaPartitionHash(TopicPartition{"t", 3}); got != 1170 {
		t.Errorf("javaPartitionHash(t/3) = %d", got)
	}
	spread := func(keys ...string) []uint32 {
		var h []uint32
		for _, k := range keys {
			h = append(h, javaSpread(JavaStringHash(k)))
		}
		return h
	}
	// Put b, BB, a, Aa: Java iterates [BB, Aa, a, b]. "Aa" and "BB" share
	// bucket 0 and keep the order they were put in.
	if got := javaHashOrder(spread("b", "BB", "a", "Aa")); !slices.Equal(got, []int{1, 3, 2, 0}) {
		t.Errorf("iteration order %v, want [1 3 2 0] (BB Aa a b)", got)
	}
	// Twelve keys fit 16 buckets; the thirteenth passes 0.75 of them.
	if got := javaIteratedCapacity([]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}); got != 16 {
		t.Errorf("12 keys in their own buckets: capacity %d, want 16", got)
	}
	if got := javaIteratedCapacity([]uint32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}); got != 32 {
		t.Errorf("13 keys: capacity %d, want 32", got)
	}
	// A ninth key in one bucket of fewer than 64 doubles the table
	// (treeifyBin): 0, 16, ..., 128 share bucket 0 of 16.
	var keys []uint32
	for i := range 9 {
		keys = append(keys, uint32(i*16))
	}
	if got := javaIteratedCapacity(keys); got != 32 {
		t.Errorf("nine keys in one bucket: capacity %d, want 32", got)
	}
}

// The first element of a HashSet<TopicPartition>, as Java gave it: the
// lowest bucket, and within one the earliest added (t/0 and t/16 share one).
func TestJavaPartitionSetFirst(t *testing.T) {
	s := newJavaPartitionSet()
	for _, p := range []int{16, 5, 0} {
		s.add(TopicPartition{"t", p})
	}
	if got := s.first(); got != (TopicPartition{"t", 5}) {
		t.Errorf("first = %v, want t/5 (bucket 0)", got)
	}
	s.remove(TopicPartition{"t", 5})
	if got := s.first(); got != (TopicPartition{"t", 16}) {
		t.Errorf("first = %v, want t/16 (bucket 5, added before t/0)", got)
	}
}

// Where Java's GeneralAssignmentBuilder would fail (a member of an older
// generation claims a partition outside its subscription and its own
// topics need no rebalancing: performReassignments reads the size of an
// assignment set aside, a NullPointerException), the port ignores the
// stale claim and still assigns every partition once.
func TestKafkaStickyIgnoresStaleClaimOfAFixedMember(t *testing.T) {
	tp := func(topic string, p int) TopicPartition { return TopicPartition{topic, p} }
	members := []Member{
		{ID: "c18", Topics: []string{"t1"}, Owned: []TopicPartition{tp("t1", 0), tp("t1", 1), tp("t1", 2), tp("t1", 3), tp("t1", 4), tp("t0", 2)}, Generation: 2},
		{ID: "c7", Topics: []string{"t0"}, Owned: []TopicPartition{tp("t0", 2), tp("t0", 3), tp("t0", 4)}, Generation: 3},
		{ID: "nc10", Topics: []string{"t0"}, Owned: []TopicPartition{tp("t0", 0), tp("t0", 1)}, Generation: 3},
		{ID: "nc9", Topics: []string{"t0"}, Generation: -1},
	}
	counts := map[string]int{"t0": 5, "t1": 5, "t2": 4}
	for _, strategy := range []string{Sticky, CooperativeSticky} {
		a := mustAssign(t, strategy, members, counts)
		if strategy == Sticky {
			checkComplete(t, members, counts, a)
		}
		if got := a["c18"]; len(got) != 5 {
			t.Errorf("%s: c18 has %v, want all of t1", strategy, got)
		}
	}
}
