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
	// entries are the keys in no particular order (keys sorts them): a
	// removal moves the last into the gap. Past javaIndexed keys, at
	// finds a key's entry, and loads counts the keys of each bucket at the
	// current capacity (nil after a resize, until load asks again): a
	// table of thousands of partitions, built and emptied one key at a
	// time, took n² steps when each asked the whole list. A smaller table
	// is scanned, which costs less than the maps.
	entries []javaEntry[K]
	at      map[K]int
	loads   map[uint32]int
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

// javaIndexed is the most keys a table scans rather than indexes.
const javaIndexed = 32

// find is where k's entry is, -1 if the table does not hold it.
func (t *javaTable[K]) find(k K) int {
	if t.at == nil {
		return slices.IndexFunc(t.entries, func(e javaEntry[K]) bool { return e.key == k })
	}
	if i, ok := t.at[k]; ok {
		return i
	}
	return -1
}

func (t *javaTable[K]) has(k K) bool { return t.find(k) >= 0 }

// hashOf is the spread hash the table holds k with.
func (t *javaTable[K]) hashOf(k K) uint32 { return t.entries[t.find(k)].hash }

// resize sets the number of buckets; the counts of the old ones go.
func (t *javaTable[K]) resize(capacity int) {
	t.capacity, t.loads = capacity, nil
}

// put adds a key (a no-op for one it holds), growing the table as
// HashMap.putVal does: when a bucket of fewer than 64 would take a ninth
// key (treeifyBin), and when the size passes 0.75 of the buckets.
func (t *javaTable[K]) put(k K, hash uint32) {
	if t.has(k) {
		return
	}
	if t.capacity == 0 {
		t.resize(t.initial)
	}
	if t.load(hash) >= javaTreeifyBin && t.capacity < javaTreeifyCapacity {
		t.resize(t.capacity * 2)
	}
	t.last++
	t.insert(javaEntry[K]{k, hash, t.last})
	if len(t.entries) > t.capacity*3/4 {
		t.resize(t.capacity * 2)
	}
}

// computeIfAbsent adds a key as HashMap.computeIfAbsent does: first it
// grows the table if the size already passes 0.75 of the buckets, even
// when the key is there; then it puts a new key at the head of its bucket
// (growing the table when a bucket of fewer than 64 takes an eighth key).
func (t *javaTable[K]) computeIfAbsent(k K, hash uint32) {
	switch {
	case t.capacity == 0:
		t.resize(t.initial)
	case len(t.entries) > t.capacity*3/4:
		t.resize(t.capacity * 2)
	}
	if t.has(k) {
		return
	}
	if t.load(hash) >= javaTreeifyBin-1 && t.capacity < javaTreeifyCapacity {
		t.resize(t.capacity * 2)
	}
	t.first--
	t.insert(javaEntry[K]{k, hash, t.first})
}

func (t *javaTable[K]) insert(e javaEntry[K]) {
	t.entries = append(t.entries, e)
	switch {
	case t.at != nil:
		t.at[e.key] = len(t.entries) - 1
	case len(t.entries) > javaIndexed:
		t.at = make(map[K]int, 2*len(t.entries))
		for i, e := range t.entries {
			t.at[e.key] = i
		}
	}
	if t.loads != nil {
		t.loads[t.bucket(e.hash)]++
	}
}

func (t *javaTable[K]) bucket(hash uint32) uint32 { return hash & uint32(t.capacity-1) }

// load is how many keys share the bucket of hash.
func (t *javaTable[K]) load(hash uint32) int {
	if t.at == nil {
		n := 0
		for _, e := range t.entries {
			if t.bucket(e.hash) == t.bucket(hash) {
				n++
			}
		}
		return n
	}
	if t.loads == nil {
		t.loads = make(map[uint32]int, len(t.entries))
		for _, e := range t.entries {
			t.loads[t.bucket(e.hash)]++
		}
	}
	return t.loads[t.bucket(hash)]
}

func (t *javaTable[K]) remove(k K) {
	i := t.find(k)
	if i < 0 {
		return
	}
	if t.loads != nil {
		t.loads[t.bucket(t.entries[i].hash)]--
	}
	last := len(t.entries) - 1
	t.entries[i] = t.entries[last]
	t.entries = t.entries[:last]
	if t.at != nil {
		if i < last {
			t.at[t.entries[i].key] = i
		}
		delete(t.at, k)
	}
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
		out.topics.put(t, a.topics.hashOf(t))
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
