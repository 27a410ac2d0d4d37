package lesson

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"
)

// The goals of the lessons about keys: where a record goes, what that does to order and to
// load, and what changing keys or partition counts breaks.

var lifecycle = []string{"created", "updated", "shipped"}

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

// orderEvent reads which order a record is an event of, and which event:
// a value that names its order, such as "order-8:created" (the start's
// records), or a lifecycle event as the value with the order as the key
// (key=order-8 value=created). Either way of writing it is an order's event.
func orderEvent(r core.Record) (order, event string, ok bool) {
	if order, event, ok = strings.Cut(r.Value, ":"); ok && order != "" && event != "" {
		return order, event, true
	}
	if r.HasKey && r.Key != "" && slices.Contains(lifecycle, r.Value) {
		return r.Key, r.Value, true
	}
	return "", "", false
}

// ordersIn groups a topic's records by the order they are events of.
func ordersIn(recs []placed) (map[string][]placed, []string) {
	byOrder := map[string][]placed{}
	var names []string
	for _, r := range recs {
		if order, _, ok := orderEvent(r.Record); ok {
			if _, seen := byOrder[order]; !seen {
				names = append(names, order)
			}
			byOrder[order] = append(byOrder[order], r)
		}
	}
	slices.Sort(names)
	return byOrder, names
}

func checkOutOfOrder(c *ctx) Result {
	base := &ctx{log: c.baseline()}
	_, old := ordersIn(base.allRecords("orders"))
	byOrder, names := ordersIn(c.allRecords("orders"))
	var fresh []string
	for _, name := range names {
		if !slices.Contains(old, name) {
			fresh = append(fresh, name)
		}
	}
	if len(fresh) == 0 {
		return pending("no new order yet: produce the created, updated and shipped events of order-8")
	}
	event := func(r placed) string { _, e, _ := orderEvent(r.Record); return e }
	keyOf := map[string]string{}
	for _, name := range fresh {
		recs := byOrder[name]
		if msg := inOrder(name, recs, event, lifecycle); msg != "" {
			return pending("%s", msg)
		}
		var keys []string
		for _, r := range recs {
			if !slices.Contains(keys, r.Key) {
				keys = append(keys, r.Key)
			}
		}
		if len(keys) != 1 {
			return pending("%s's events carry the keys %s: they share a partition only by chance; give them all one key, the order id", name, joinWords(keys))
		}
		for _, other := range fresh {
			if key, ok := keyOf[other]; ok && key == keys[0] {
				return pending("%s and %s share the key %s: one key for every order puts them all in one partition, the hot partition again; key each order by its own id",
					other, name, key)
			}
		}
		keyOf[name] = keys[0]
	}
	if len(fresh) < 2 {
		return pending("%s's events are in order in partition %d; produce a second order the same way", fresh[0], byOrder[fresh[0]][0].partition)
	}
	v, ok := c.group("shipping")
	if !ok {
		return pending("group shipping is gone: reload the lesson")
	}
	for _, name := range fresh {
		if msg := readInOrder(v, name); msg != "" {
			return pending("%s", msg)
		}
	}
	var where []string
	for _, name := range fresh {
		where = append(where, fmt.Sprintf("%s in partition %d", name, byOrder[name][0].partition))
	}
	return solved("each new order's events share its id as key and one partition (%s), and shipping read each order as created, updated, shipped.", joinWords(where))
}

// readInOrder checks that shipping received an order's events, in the
// lifecycle's order; it returns "" when it did.
func readInOrder(v core.GroupView, order string) string {
	first := map[string]int{}
	for i, d := range v.Deliveries {
		if o, e, ok := orderEvent(d.Record); ok && o == order {
			if _, seen := first[e]; !seen {
				first[e] = i
			}
		}
	}
	for _, e := range lifecycle {
		if _, ok := first[e]; !ok {
			return fmt.Sprintf("shipping has not read %s's %s event yet: poll shipping s1", order, e)
		}
	}
	for i := 1; i < len(lifecycle); i++ {
		if first[lifecycle[i]] < first[lifecycle[i-1]] {
			return fmt.Sprintf("shipping read %s's %s before its %s", order, lifecycle[i], lifecycle[i-1])
		}
	}
	return ""
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
