package lesson

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"
	"plog/core/units"
)

// Lessons about keys: where a record goes, what that does to order and to
// load, and what changing keys or partition counts breaks.

var keyOrder = Lesson{
	Name:  "key-order",
	Title: "Same key, same partition",
	Text: []string{
		"A Kafka topic is split into partitions, and each partition is a log: records are appended at its end and each gets the next offset. A consumer reads a partition from lower offsets to higher ones, so within one partition records are read in the order they were written.",
		"The producer chooses the partition. For a record with a key, Kafka's default partitioner hashes the key's bytes with murmur2 and takes the result modulo the number of partitions. Every record with the same key therefore lands in the same partition, and the events of one key stay in order. Records without a key carry no such promise: Kafka's built-in partitioner sends them to one partition until a batch (batch.size, 16 KB) has gone there, then moves to another chosen at random.",
		"Between partitions there is no order at all. Partitions are read independently, often by different consumers at different speeds, so a record in partition 3 may be processed before or after one written earlier to partition 0.",
		"In this topic acct-2's two events already sit together in one partition. Now it is acct-1's turn.",
	},
	Goal: "Produce the events created, updated and shipped with key acct-1 so that they sit in one partition, in that order.",
	Script: `seed 1
topic orders partitions=4
produce orders key=acct-2 value=created
produce orders key=acct-2 value=paid
produce orders value=promo
produce orders value=promo
`,
	Hints: []string{
		"In Produce, type `acct-1` as the key and `created` as the value, and press Produce; then the same key with the values `updated` and `shipped`.",
		"The page says why each record went where: murmur2 of the key, modulo 4 partitions. Try other keys and see them land elsewhere, always the same place for the same key.",
		"Spreading acct-1's events by hand to share the load, by choosing orders/0 in Produce's Partition for created, orders/1 for updated and orders/2 for shipped, splits acct-1 over three partitions: a partition named in the request overrides the key, and a consumer could see shipped before created.",
	},
	Solution: `produce orders key=acct-1 value=created
produce orders key=acct-1 value=updated
produce orders key=acct-1 value=shipped
`,
	WrongAttempt: `produce orders key=acct-1 value=created partition=0
produce orders key=acct-1 value=updated partition=1
produce orders key=acct-1 value=shipped partition=2
`,
	check: checkKeyOrder,
}

var lifecycle = []string{"created", "updated", "shipped"}

func checkKeyOrder(c *ctx) Result {
	var acct1, acct2, keyless []placed
	for _, r := range c.allRecords("orders") {
		switch {
		case r.HasKey && r.Key == "acct-1":
			acct1 = append(acct1, r)
		case r.HasKey && r.Key == "acct-2":
			acct2 = append(acct2, r)
		case !r.HasKey && slices.Contains(lifecycle, r.Value):
			keyless = append(keyless, r)
		}
	}
	if len(acct1) == 0 {
		if len(keyless) > 0 {
			return pending("the %s records have no key, so the partitioner chose partitions %s for them, with no promise of order: give them key=acct-1",
				joinWords(lifecycle), joinInts(partitionsOf(keyless)))
		}
		return pending("no record with key acct-1 yet: produce acct-1's created event first")
	}
	value := func(r placed) string { return r.Value }
	if msg := inOrder("acct-1", acct1, value, lifecycle); msg != "" {
		return pending("%s", msg)
	}
	other := ""
	if ps := partitionsOf(acct2); len(ps) == 1 && ps[0] != acct1[0].partition {
		other = fmt.Sprintf(", and acct-2's are in partition %d: each account is read in order, but nothing orders partition %d against partition %d",
			ps[0], acct1[0].partition, ps[0])
	}
	return solved("acct-1's events sit in partition %d in the order created, updated, shipped%s.", acct1[0].partition, other)
}

var hotPartition = Lesson{
	Name:  "hot-partition",
	Title: "A hot partition from skewed keys",
	Text: []string{
		"The key decides the partition, so the spread of keys decides the spread of load. Here the producer keys page views by a value a few keys dominate, like a country or a celebrity's page: key-0 alone makes most of the traffic.",
		"All of key-0's records go to one partition, and within a group one partition is read by one consumer. That consumer falls behind while the others have little to do: lag grows on one partition only. Per-partition record counts and per-partition lag show it; the group's total lag hides where it is.",
		"More partitions do not help: a key still maps to exactly one of them. More consumers do not help either: a partition is never shared within a group. The fix is the key. Choose one with many values spread evenly that still keeps together what must stay in order; page views only need order per user, so key them by user.",
	},
	Goal: "Find the hot partition and fix its cause: over the last minute, and over the next one with the producers running now, views must spread evenly (skew at most 1.5), and stats must be at most 50 records behind on every partition.",
	Script: `seed 7
topic views partitions=4 retention.ms=10m
join stats s1 topics=views
join stats s2 topics=views
join stats s3 topics=views
join stats s4 topics=views
advance 3s
producer web views rate=40/s keys=zipf keyspace=50 exponent=2
consumer stats s1 rate=3/s max=5 commit
consumer stats s2 rate=3/s max=5 commit
consumer stats s3 rate=3/s max=5 commit
consumer stats s4 rate=3/s max=5 commit
advance 2m
`,
	Hints: []string{
		"Compare the record counts and the lag of views' four partitions. Which partition is busy, and which key fills it?",
		"Adding partitions, typing 8 in views' Partitions (new total) and pressing Add partitions, moves keys around, but key-0 still maps to a single partition, now one of eight.",
		"In Workloads, press Stop beside web, then start a producer named `web` on views at `40/s` with Keys uniform and a Keyspace of `10000` (one key per user); filling the form first and pressing Replace producer web does both at once. Then type `5m` in Advance by and press Advance so that s2 works off its backlog.",
	},
	Solution: `stop web
producer web views rate=40/s keys=uniform keyspace=10000
advance 5m
`,
	WrongAttempt: `partitions views count=8
advance 5m
`,
	check: checkHotPartition,
}

// Thresholds of the hot partition lesson.
const (
	hotWindowMs   = 60_000
	hotMinRecords = 100
	hotMaxSkew    = 1.5
	hotMaxLag     = 50
)

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

// checkHotPartition reads the goal twice: over the last minute of the state,
// and over the next minute, as the workloads running now would make it
// (Session.ProducedAhead). A spread that is even only for now, because a burst of
// other keys dilutes a skewed producer that still runs, is not the fix.
func checkHotPartition(c *ctx) Result {
	n := c.partitions("views")
	now := c.log.Now()
	last := spreadOf(c.log, "views", now-hotWindowMs)
	if last.total < hotMinRecords {
		return pending("views got %s in the last minute: keep a producer running so that the spread shows", units.Plural(int64(last.total), "record"))
	}
	if last.skew > hotMaxSkew {
		key, keyCount := hottestKey(last.topRecords)
		return pending("in the last minute views/%d got %d%% of the records (skew %.1f; 1 is even), %d of them with key %s: every record of a key goes to the same partition",
			last.top, last.counts[last.top]*100/last.total, last.skew, keyCount, key)
	}
	ahead, err := c.s.ProducedAhead(hotWindowMs)
	if err != nil {
		return pending("the next minute of views cannot be foreseen: %v", err)
	}
	next := spreadOf(ahead, "views", now)
	if next.total < hotMinRecords {
		return pending("the last minute of views spreads evenly, but with the producers running now views would get %s in the next minute: keep a producer with well-spread keys running",
			units.Plural(int64(next.total), "record"))
	}
	if next.skew > hotMaxSkew {
		key, keyCount := hottestKey(next.topRecords)
		return pending("the last minute of views spreads evenly, but a producer with skewed keys still runs: in the next minute views/%d would get %d%% of the records (skew %.1f), %d of them with key %s. Stop it, or replace it with one keyed by user",
			next.top, next.counts[next.top]*100/next.total, next.skew, keyCount, key)
	}
	v, ok := c.group("stats")
	if !ok {
		return pending("group stats is gone: reload the lesson")
	}
	for _, p := range v.Partitions {
		if p.HasCommitted && p.Lag > hotMaxLag {
			return pending("views spreads evenly now, but stats is still %s behind on views/%d: advance the clock so that its consumer works off the backlog",
				units.Plural(p.Lag, "record"), p.Partition)
		}
	}
	return solved("over the last minute views spread %d records over %d partitions with skew %.2f, the producers running now keep the skew at %.2f over the next minute, and stats is at most %d records behind on every partition.",
		last.total, n, last.skew, next.skew, hotMaxLag)
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

var outOfOrder = Lesson{
	Name:  "out-of-order",
	Title: "Events out of order after a key change",
	Text: []string{
		"The orders topic was keyed by order id, so each order's events shared a partition and group shipping read them in order. To cure a hot partition, someone switched the key to a random id for every event.",
		"Now one order's events land in different partitions. A consumer fetches its partitions one after another, and in a group with several consumers each partition goes its own pace, so shipping can be handed OrderUpdated before OrderCreated. It just was, for order-7, whose events went out with the random keys r-1137, r-3603 and r-1411: find them in the lanes (a record shows its value on hover), and see in shipping's latest deliveries which it read first.",
		"Waiting between events does not help: once they are in different partitions, nothing orders them. Order is a property of one partition, so the events that must stay in order need one key. A random key buys spread by giving up order; the order id gives both, because there are many orders.",
	},
	Goal: "Produce the created, updated and shipped events of two new orders so that each order's events share a key and a partition, with a key per order so the load can spread, and let shipping read them in order.",
	Script: `seed 8
topic orders partitions=4
join shipping s1 topics=orders
advance 3s
produce orders key=order-5 value=order-5:created
produce orders key=order-5 value=order-5:updated
produce orders key=order-5 value=order-5:shipped
produce orders key=order-6 value=order-6:created
produce orders key=order-6 value=order-6:updated
produce orders key=order-6 value=order-6:shipped
poll shipping s1
commit shipping s1
# from here on each event gets a random key
produce orders key=r-1137 value=order-7:created
produce orders key=r-3603 value=order-7:updated
produce orders key=r-1411 value=order-7:shipped
poll shipping s1
commit shipping s1
`,
	Hints: []string{
		"Look at the partitions order-7's events went to (its records carry the keys r-1137, r-3603 and r-1411; a record shows its value on hover), and at the order of shipping's latest deliveries.",
		"Random keys with a pause between events, producing order-8's created with the key `r-4425`, pressing +1 s, then its updated with the key `r-4973`, still put order-8's events in different partitions.",
		"Key every event by its order: in Produce, type `order-8` as the key and `created` as the value and press Produce, then updated and shipped; then order-9 the same way; then press Poll on s1 in shipping.",
		"One fixed key for every order would keep each order in order too, but would put all orders in one partition: the hot partition again.",
	},
	Solution: `produce orders key=order-8 value=created
produce orders key=order-8 value=updated
produce orders key=order-8 value=shipped
produce orders key=order-9 value=created
produce orders key=order-9 value=updated
produce orders key=order-9 value=shipped
poll shipping s1
commit shipping s1
`,
	WrongAttempt: `produce orders key=r-4425 value=order-8:created
advance 1s
produce orders key=r-4973 value=order-8:updated
advance 1s
produce orders key=r-4562 value=order-8:shipped
advance 1s
produce orders key=r-1000 value=order-9:created
advance 1s
produce orders key=r-2096 value=order-9:updated
advance 1s
produce orders key=r-4288 value=order-9:shipped
poll shipping s1
commit shipping s1
`,
	check: checkOutOfOrder,
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

var repartition = Lesson{
	Name:  "repartition",
	Title: "More partitions move keys",
	Text: []string{
		"A key's partition is murmur2(key) modulo the partition count. Add partitions and the modulo changes: from then on many keys go to another partition. Kafka never moves the records already written, so a key's old events stay where they were and its new events go to the new place.",
		"A consumer reads the two partitions independently, so it can see a key's new event before the old ones. Kafka lets a topic grow (never shrink), but for keyed data whose order matters, growing it in place is a breaking change.",
		"The safe way is a migration: create a new topic with the partition count you want, stop writing to the old topic, let the consumers read it to the end (drain it), then produce to the new topic. Each key's history stays in order: all its old events first, then its new ones, in one partition of the new topic.",
		"ledger is set to auto.offset.reset=earliest (its card shows it): with Kafka's default, latest, it would begin the new topic at its end and skip what was produced there before its first poll.",
	},
	Goal: "Move accounts to a new topic with 3 partitions: ledger reads accounts to the end before the first record goes to the new topic, then reads the new topic too, and no account's events are ever split over two partitions of one topic.",
	Script: `seed 9
topic accounts partitions=2
produce accounts key=alice value=opened
produce accounts key=bob value=opened
produce accounts key=carol value=opened
produce accounts key=dave value=opened
produce accounts key=alice value=deposit
produce accounts key=carol value=deposit
config group ledger auto.offset.reset=earliest
join ledger l1 topics=accounts
advance 3s
poll ledger l1 max=3
commit ledger l1
`,
	Hints: []string{
		"Growing the topic in place, typing 3 in accounts' Partitions (new total) and pressing Add partitions, then producing alice's withdrawal, puts it in partition 0 while her older events are in partition 1.",
		"Drain first: press Poll and Commit on l1 until ledger's lag on accounts is 0.",
		"Then create the topic `accounts-v2` with 3 partitions in New topic, join ledger again as l1 with the topics `accounts,accounts-v2` (the member changes its subscription), press +1 s three times, produce the new events to accounts-v2, and poll ledger again.",
	},
	Solution: `poll ledger l1
commit ledger l1
topic accounts-v2 partitions=3
join ledger l1 topics=accounts,accounts-v2
advance 3s
produce accounts-v2 key=alice value=withdrawal
produce accounts-v2 key=carol value=withdrawal
produce accounts-v2 key=dave value=deposit
poll ledger l1
commit ledger l1
`,
	WrongAttempt: `partitions accounts count=3
advance 3s
produce accounts key=alice value=withdrawal
produce accounts key=carol value=withdrawal
produce accounts key=dave value=deposit
poll ledger l1
commit ledger l1
`,
	check: checkRepartition,
}

func checkRepartition(c *ctx) Result {
	for _, topic := range c.log.TopicNames() {
		if msg := splitKey(c, topic); msg != "" {
			return pending("%s", msg)
		}
	}
	next := ""
	for _, topic := range c.log.TopicNames() {
		if topic != "accounts" && c.partitions(topic) >= 3 {
			if next == "" || len(c.allRecords(next)) == 0 {
				next = topic
			}
		}
	}
	if next == "" {
		return pending("no new topic with 3 partitions yet: create one, say accounts-v2")
	}
	fresh := c.allRecords(next)
	if len(fresh) == 0 {
		return pending("%s is ready; drain accounts with ledger, then produce the new events to %s", next, next)
	}
	switchAt := fresh[0].Timestamp
	for _, r := range fresh {
		switchAt = min(switchAt, r.Timestamp)
	}
	old := c.allRecords("accounts")
	for _, r := range old {
		if r.Timestamp > switchAt {
			return pending("accounts got %s's %s at %s, after the first record went to %s at %s: stop writing to the old topic once you switch",
				r.Key, r.Value, units.SpanToSecond(r.Timestamp), next, units.SpanToSecond(switchAt))
		}
	}
	v, ok := c.group("ledger")
	if !ok {
		return pending("group ledger is gone: reload the lesson")
	}
	unread := 0
	for p := range c.partitions("accounts") {
		got := deliveredOffsets(v, "accounts", p)
		for _, r := range c.records("accounts", p) {
			if at, ok := got[r.Offset]; !ok || at > switchAt {
				unread++
			}
		}
	}
	if unread > 0 {
		return pending("when the first record went to %s at %s, ledger had not yet read %s of accounts: drain the old topic before you switch",
			next, units.SpanToSecond(switchAt), units.Plural(int64(unread), "record"))
	}
	for p := range c.partitions(next) {
		if missing := missingOffsets(c.records(next, p), deliveredOffsets(v, next, p)); len(missing) > 0 {
			return pending("ledger has not read %s/%d yet: subscribe l1 to both topics, advance the clock for the rebalance, and poll", next, p)
		}
	}
	return solved("ledger read all %s of accounts before the first record went to %s at %s, then read %s; every account's events sit in one partition of each topic, old before new.",
		units.Plural(int64(len(old)), "record"), next, units.SpanToSecond(switchAt), next)
}

// splitKey returns a sentence about the first key whose records sit in more
// than one partition of a topic, or "".
func splitKey(c *ctx, topic string) string {
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
			return fmt.Sprintf("in %s, %s's events are split over partitions %s: with more partitions the key maps elsewhere, and a consumer may read its new events before the old ones",
				topic, k, joinInts(ps))
		}
	}
	return ""
}
