package app

import "plog/core"

// readRange is the offsets a command's polls read from one partition, From
// up to End (not included): the lane highlights them as the records carried
// to the member (motion.css, [data-read]), and flights.js flies them to
// the card of the member that read them first, Group's Member. The zero
// value reads nothing.
type readRange struct {
	From, End     int64
	Group, Member string
}

// readsOf gathers the records a command delivered, by laneKey. A poll reads
// a partition's records in offset order from the member's position, so the
// first and last offset bound what it read there.
func readsOf(events []core.Event) map[string]readRange {
	var reads map[string]readRange
	for _, e := range events {
		if e.Kind != core.EventDelivered {
			continue
		}
		if reads == nil {
			reads = map[string]readRange{}
		}
		k := laneKey(e.Topic, e.Partition)
		r, ok := reads[k]
		if !ok {
			r = readRange{From: e.Offset, End: e.Offset + 1, Group: e.Group, Member: e.Member}
		}
		r.From, r.End = min(r.From, e.Offset), max(r.End, e.Offset+1)
		reads[k] = r
	}
	return reads
}

// holds says whether offset is among the records read.
func (r readRange) holds(offset int64) bool {
	return offset >= r.From && offset < r.End
}
