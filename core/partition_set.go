package core

import "slices"

// partitionSet answers "is tp in these lists?" in constant time, where
// slices.Contains over a member's partitions inside a loop over another
// member's made a rebalance of a group over thousands of partitions take
// seconds in the browser (n² comparisons for n partitions). A few
// partitions, the usual case, are scanned: a map would cost more.
//
// Past the few, a bitmap of the partitions' numbers answers most "no"s
// before the map hashes a topic's name: a member's reconciliation asks,
// for each of the others' partitions (10,000 in a large group), whether
// its own fifty hold it, and 200 members asked two million times.
type partitionSet struct {
	few     []TopicPartition
	many    map[TopicPartition]struct{}
	numbers []uint64 // bit n: a partition numbered n is in many
}

// partitionSetScanned is the most partitions a set scans.
const partitionSetScanned = 16

// setOf is the set of the partitions in lists.
func setOf(lists ...[]TopicPartition) partitionSet {
	n := 0
	for _, l := range lists {
		n += len(l)
	}
	var s partitionSet
	for _, l := range lists {
		for _, tp := range l {
			s.add(tp, n)
		}
	}
	return s
}

// add puts tp in the set; size is how many the set will hold, if known.
func (s *partitionSet) add(tp TopicPartition, size int) {
	if s.has(tp) {
		return
	}
	if s.many == nil && len(s.few) < partitionSetScanned {
		s.few = append(s.few, tp)
		return
	}
	if s.many == nil {
		s.many = make(map[TopicPartition]struct{}, max(size, 2*partitionSetScanned))
		for _, had := range s.few {
			s.putMany(had)
		}
		s.few = nil
	}
	s.putMany(tp)
}

func (s *partitionSet) putMany(tp TopicPartition) {
	s.many[tp] = struct{}{}
	if tp.Partition < 0 {
		return // never asked of the bitmap (has)
	}
	word := tp.Partition / 64
	if word >= len(s.numbers) {
		s.numbers = append(s.numbers, make([]uint64, word+1-len(s.numbers))...)
	}
	s.numbers[word] |= 1 << (tp.Partition % 64)
}

func (s partitionSet) has(tp TopicPartition) bool {
	if s.many == nil {
		return slices.Contains(s.few, tp)
	}
	if n := tp.Partition; n >= 0 && (n/64 >= len(s.numbers) || s.numbers[n/64]&(1<<(n%64)) == 0) {
		return false
	}
	_, ok := s.many[tp]
	return ok
}

// len is how many partitions the set holds.
func (s partitionSet) len() int {
	if s.many == nil {
		return len(s.few)
	}
	return len(s.many)
}
