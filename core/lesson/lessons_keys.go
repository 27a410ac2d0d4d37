package lesson

import (
	"slices"

	"plog/core"
)

// The goals of the lessons about keys: where a record goes, what that does to order and to
// load, and what changing keys or partition counts breaks.

// spread is how a topic's records of one minute fall over its partitions.
type spread struct {
	counts     []int
	total      int
	top        int           // the partition with the most records
	skew       float64       // the top partition's count over the mean; 1 is even
	topRecords []core.Record // the top partition's records of the minute
}

// spreadOf counts the records of a topic produced after since.
func spreadOf(l core.ReadOnlyLog, topic string, since int64) spread {
	n, _ := l.Partitions(topic)
	s := spread{counts: make([]int, n)}
	for p := range n {
		recs := recordsSince(l, topic, p, since)
		s.counts[p] = len(recs)
		s.total += len(recs)
		if len(recs) > s.counts[s.top] || p == 0 {
			s.top, s.topRecords = p, recs
		}
	}
	if s.total > 0 {
		s.skew = float64(s.counts[s.top]) * float64(n) / float64(s.total)
	}
	return s
}

// hottestKey returns the key with the most records, and how many it has;
// ties go to the smaller key.
func hottestKey(recs []core.Record) (string, int) {
	counts := map[string]int{}
	var keys []string
	for _, r := range recs {
		if r.HasKey {
			if counts[r.Key] == 0 {
				keys = append(keys, r.Key)
			}
			counts[r.Key]++
		}
	}
	slices.Sort(keys)
	best := ""
	for _, k := range keys {
		if best == "" || counts[k] > counts[best] {
			best = k
		}
	}
	if best == "" {
		return "(none)", 0
	}
	return best, counts[best]
}

// splitKey returns the first key, in key order, whose records sit in more
// than one partition of a topic, and those partitions; "" when there is
// none.
func splitKey(c *ctx, topic string) (string, []int) {
	byKey := map[string][]placed{}
	var keys []string
	for _, r := range c.allRecords(topic) {
		if !r.HasKey {
			continue
		}
		if _, seen := byKey[r.Key]; !seen {
			keys = append(keys, r.Key)
		}
		byKey[r.Key] = append(byKey[r.Key], r)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if ps := partitionsOf(byKey[k]); len(ps) > 1 {
			return k, ps
		}
	}
	return "", nil
}
