package core

import (
	"fmt"
	"sort"
)

// A partition of a full scenario holds hundreds of thousands of records in
// tens of thousands of segments (segment.records defaults to 10). A page
// that draws a window of them after every command must not pay for the
// rest: these reads cost the logarithm of the partition's size plus what
// they return.

// SegmentCount returns how many segments a partition has, the active one
// included.
func (l *PartitionedLog) SegmentCount(topicName string, partition int) (int, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return 0, err
	}
	return len(p.segments), nil
}

// SegmentsBetween describes the segments of a partition that may hold
// offsets in [from, to), oldest first: those whose range ends after from
// and starts before to. It is empty when from >= to.
func (l *PartitionedLog) SegmentsBetween(topicName string, partition int, from, to int64) ([]SegmentInfo, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return nil, err
	}
	if from >= to {
		return nil, nil
	}
	// The first segment whose range ends after from.
	first := sort.Search(len(p.segments), func(i int) bool { return p.segmentEnd(i) > from })
	var infos []SegmentInfo
	for i := first; i < len(p.segments) && p.segments[i].base < to; i++ {
		infos = append(infos, p.segmentInfo(i))
	}
	return infos, nil
}

// CountBetween returns how many records a partition retains with offsets
// in [from, to).
func (l *PartitionedLog) CountBetween(topicName string, partition int, from, to int64) (int, error) {
	_, p, err := l.partition(topicName, partition)
	if err != nil {
		return 0, err
	}
	if from > to {
		return 0, fmt.Errorf("%s/%d: offsets from %d to %d are not a range", topicName, partition, from, to)
	}
	return p.records.countBetween(from, to), nil
}

// segmentInfo describes segment i.
func (p *partition) segmentInfo(i int) SegmentInfo {
	s := p.segments[i]
	return SegmentInfo{
		BaseOffset:   s.base,
		EndOffset:    p.segmentEnd(i),
		Records:      p.segmentCount(i),
		Bytes:        s.bytes,
		MaxTimestamp: s.maxTimestamp,
		CreatedAt:    s.createdAt,
		Active:       i == len(p.segments)-1,
	}
}
