package assign

import (
	"cmp"
	"slices"
)

// The group coordinator keeps a member's target assignment as
// Assignment.fromRecord (Kafka 4.4) reads it from the member's
// target-assignment record, and writes that record
// (GroupCoordinatorRecordHelpers.newConsumerGroupTargetAssignmentRecord)
// in the order the assignor's answer iterates: its Map<Uuid, Set<Integer>>
// and sets are java.util.HashMap and HashSet (or RangeSet). Where two keys
// share a bucket, the order they were put in decides which the uniform
// assignor meets first, so plog follows those tables: javaTable is one,
// javaAssignment a member's map of them.

// javaTable is a java.util.HashMap or HashSet (OpenJDK 17) as far as its
// iteration order goes: keys by bucket, and within a bucket in the order
// of its list, where put appends and computeIfAbsent prepends (a resize
// keeps the order; a removal never shrinks the table).
type javaTable[K comparable] struct {
	capacity int // 0 until the first insertion allocates initial buckets
	initial  int
	entries  []javaEntry[K]
	// first and last are the least and greatest place yet given: a key
	// prepended goes before every other, one appended after.
	first, last int
}

type javaEntry[K comparable] struct {
	key   K
	hash  uint32 // spread (HashMap.hash)
	place int    // the order within a bucket
}

// newJavaTable is new HashMap<>() or new HashSet<>(): 16 buckets.
func newJavaTable[K comparable]() *javaTable[K] {
	return &javaTable[K]{initial: javaInitialCapacity}
}

// newJavaTableFor is new HashMap<>(n) or new HashSet<>(n): the power of
// two at or above n buckets (HashMap.tableSizeFor), one for 0.
func newJavaTableFor[K comparable](n int) *javaTable[K] {
	capacity := 1
	for capacity < n {
		capacity *= 2
	}
	return &javaTable[K]{initial: capacity}
}

// newJavaSetOf is new HashSet<>(collection) of n elements:
// new HashMap<>(max(n/0.75+1, 16)).
func newJavaSetOf[K comparable](n int) *javaTable[K] {
	return newJavaTableFor[K](max(int(float32(n)/0.75)+1, javaInitialCapacity))
}

func (t *javaTable[K]) has(k K) bool {
	return slices.ContainsFunc(t.entries, func(e javaEntry[K]) bool { return e.key == k })
}

// put adds a key (a no-op for one it holds), growing the table as
// HashMap.putVal does: when a bucket of fewer than 64 would take a ninth
// key (treeifyBin), and when the size passes 0.75 of the buckets.
func (t *javaTable[K]) put(k K, hash uint32) {
	if t.has(k) {
		return
	}
	if t.capacity == 0 {
		t.capacity = t.initial
	}
	if t.load(hash) >= javaTreeifyBin && t.capacity < javaTreeifyCapacity {
		t.capacity *= 2
	}
	t.last++
	t.entries = append(t.entries, javaEntry[K]{k, hash, t.last})
	if len(t.entries) > t.capacity*3/4 {
		t.capacity *= 2
	}
}

// computeIfAbsent adds a key as HashMap.computeIfAbsent does: first it
// grows the table if the size already passes 0.75 of the buckets, even
// when the key is there; then it puts a new key at the head of its bucket
// (growing the table when a bucket of fewer than 64 takes an eighth key).
func (t *javaTable[K]) computeIfAbsent(k K, hash uint32) {
	switch {
	case t.capacity == 0:
		t.capacity = t.initial
	case len(t.entries) > t.capacity*3/4:
		t.capacity *= 2
	}
	if t.has(k) {
		return
	}
	if t.load(hash) >= javaTreeifyBin-1 && t.capacity < javaTreeifyCapacity {
		t.capacity *= 2
	}
	t.first--
	t.entries = append(t.entries, javaEntry[K]{k, hash, t.first})
}

// load is how many keys share the bucket of hash.
func (t *javaTable[K]) load(hash uint32) int {
	n := 0
	for _, e := range t.entries {
		if e.hash&uint32(t.capacity-1) == hash&uint32(t.capacity-1) {
			n++
		}
	}
	return n
}

func (t *javaTable[K]) remove(k K) {
	t.entries = slices.DeleteFunc(t.entries, func(e javaEntry[K]) bool { return e.key == k })
}

// keys in iteration order.
func (t *javaTable[K]) keys() []K {
	mask := uint32(max(t.capacity, 1) - 1)
	sorted := slices.SortedFunc(slices.Values(t.entries), func(a, b javaEntry[K]) int {
		if c := cmp.Compare(a.hash&mask, b.hash&mask); c != 0 {
			return c
		}
		return cmp.Compare(a.place, b.place)
	})
	out := make([]K, len(sorted))
	for i, e := range sorted {
		out[i] = e.key
	}
	return out
}

// javaAssignment is a member's Map<Uuid, Set<Integer>>. fromRecord marks
// the coordinator's own (an unmodifiable map the assignor copies before it
// changes it: AssignorHelpers.isImmutableMap).
type javaAssignment struct {
	topics     *javaTable[string]
	partitions map[string]*javaTable[int]
	fromRecord bool
}

func partitionHash(p int) uint32 { return javaSpread(int32(p)) } // Integer.hashCode is the value

// javaFromRecord is Assignment.fromRecord over a record listing target's
// partitions in the order given: Collectors.toMap into a HashMap, each
// topic's partitions into new HashSet<>(list).
func (g serverGroup) javaFromRecord(target []TopicPartition) *javaAssignment {
	a := &javaAssignment{topics: newJavaTable[string](), partitions: map[string]*javaTable[int]{}, fromRecord: true}
	var order []string
	lists := map[string][]int{}
	for _, tp := range target {
		if _, ok := lists[tp.Topic]; !ok {
			order = append(order, tp.Topic)
		}
		lists[tp.Topic] = append(lists[tp.Topic], tp.Partition)
	}
	for _, t := range order {
		a.topics.put(t, javaSpread(g.ids[t].javaHash()))
		set := newJavaSetOf[int](len(lists[t]))
		for _, p := range lists[t] {
			set.put(p, partitionHash(p))
		}
		a.partitions[t] = set
	}
	return a
}

// deepCopy is AssignorHelpers.deepCopyAssignment: new HashMap<>(size),
// each set new HashSet<>(set), in the original's iteration order.
func (a *javaAssignment) deepCopy() *javaAssignment {
	out := &javaAssignment{topics: newJavaTableFor[string](len(a.topics.entries)), partitions: map[string]*javaTable[int]{}}
	for _, t := range a.topics.keys() {
		e := a.topics.entries[slices.IndexFunc(a.topics.entries, func(e javaEntry[string]) bool { return e.key == t })]
		out.topics.put(t, e.hash)
		ps := a.partitions[t].keys()
		set := newJavaSetOf[int](len(ps))
		for _, p := range ps {
			set.put(p, partitionHash(p))
		}
		out.partitions[t] = set
	}
	return out
}

// mutable is the assignment itself, or its copy if it is the
// coordinator's.
func (a *javaAssignment) mutable() *javaAssignment {
	if a.fromRecord {
		return a.deepCopy()
	}
	return a
}

// add is computeIfAbsent(topic, newSet).add(p).
func (a *javaAssignment) add(g serverGroup, t string, p int, newSet func() *javaTable[int]) {
	a.topics.computeIfAbsent(t, javaSpread(g.ids[t].javaHash()))
	if a.partitions[t] == nil {
		a.partitions[t] = newSet()
	}
	a.partitions[t].put(p, partitionHash(p))
}

// removePartition takes a partition out, and the topic once it has none.
func (a *javaAssignment) removePartition(t string, p int) {
	set := a.partitions[t]
	if set == nil {
		return
	}
	set.remove(p)
	if len(set.entries) == 0 {
		a.removeTopic(t)
	}
}

func (a *javaAssignment) removeTopic(t string) {
	a.topics.remove(t)
	delete(a.partitions, t)
}

// record is the assignment as its record lists it: topics, and each
// topic's partitions, in iteration order.
func (a *javaAssignment) record() []TopicPartition {
	var out []TopicPartition
	for _, t := range a.topics.keys() {
		for _, p := range a.partitions[t].keys() {
			out = append(out, TopicPartition{t, p})
		}
	}
	return out
}
