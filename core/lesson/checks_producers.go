package lesson

import (
	"fmt"
	"slices"
	"strconv"

	"plog/core"
	"plog/core/units"
)

// The checks about named producers and transactions (core/producer.go,
// core/producer_send.go, core/txn.go): what a retry wrote, what the broker
// dropped by producer id and sequence, how a transaction ended, which
// producer is fenced, and what a read_committed consumer read.

var producerChecks = []*checkSpec{
	{name: "duplicated", usage: "duplicated PRODUCER", min: 1, max: 1,
		help:   "the answer to a produce request of PRODUCER was lost after the broker wrote it, and the retry wrote the record again at a second offset, as a replay of the script shows",
		values: []string{"partition", "offset", "other-offset", "value"}, run: checkDuplicated},
	{name: "deduplicated", usage: "deduplicated PRODUCER", min: 1, max: 1,
		help:   "the answer to a produce request of PRODUCER was lost after the broker wrote it, and the broker dropped the retry as a duplicate by its producer id and sequence number, as a replay of the script shows",
		values: []string{"partition", "offset", "sequence", "producer-id"}, run: checkDeduplicated},
	{name: "transaction", usage: "transaction PRODUCER OUTCOME [topics=N]", min: 2, max: 2, named: []string{"topics"},
		help:     "a transaction of PRODUCER ended as OUTCOME says, committed or aborted (by the producer, by a newer producer with its transactional.id, or by the coordinator's timeout), with its markers in partitions of at least N topics (1 when not given), as a replay of the script shows",
		validate: both(outcomeAt(1), namedCount("topics")), values: []string{"partitions", "markers", "epoch", "why"}, run: checkTransaction},
	{name: "fenced", usage: "fenced PRODUCER", min: 1, max: 1,
		help:   "the transactional producer PRODUCER is fenced: a newer producer with its transactional.id initialized (or the coordinator aborted its transaction), so its writes and commits are refused",
		values: []string{"by", "epoch", "why"}, run: checkFenced},
	{name: "read-committed", usage: "read-committed GROUP TOPIC", min: 2, max: 2,
		help:   "group GROUP reads with isolation.level=read_committed and received every record of TOPIC below the last stable offset that a committed transaction (or no transaction) wrote, and none that an aborted one wrote",
		values: []string{"records", "skipped"}, run: checkReadCommitted},
	{name: "read-aborted", usage: "read-aborted GROUP TOPIC", min: 2, max: 2,
		help:   "group GROUP received a record of TOPIC that an aborted transaction wrote (it reads with isolation.level=read_uncommitted, Kafka's default)",
		values: []string{"offsets"}, run: checkReadAborted},
	{name: "committed-once", usage: "committed-once TOPIC", min: 1, max: 1,
		help:   "TOPIC holds a record a read_committed consumer reads (committed, or written by no transaction), and no two of them have the same key and value",
		values: []string{"records", "value", "offsets"}, run: checkCommittedOnce},
}

// outcomeAt validates committed or aborted at positional i.
func outcomeAt(i int) func(c *check) (string, int) {
	return func(c *check) (string, int) {
		if c.args[i] != "committed" && c.args[i] != "aborted" {
			return fmt.Sprintf("%q is not committed or aborted (usage: %s)", c.args[i], c.spec.usage), i
		}
		return "", -1
	}
}

// producerEvents are the named producers' events of a replay of the
// script, made once for a goal however many lines ask.
func (x *ctx) producerEvents() []core.Event {
	if x.producerLog == nil {
		x.producerLog = []core.Event{}
		x.replay(func(_ int, _ core.ReadOnlyLog, events []core.Event) {
			for _, e := range events {
				switch e.Kind {
				case core.EventRequestLost, core.EventResponseLost, core.EventDuplicateDropped, core.EventSendFailed, core.EventTxnMarker, core.EventTxnEnded:
					x.producerLog = append(x.producerLog, e)
				}
			}
		})
	}
	return x.producerLog
}

// producerView returns the named producer, and a Result for a name that
// names none.
func producerView(x *ctx, name string) (core.ProducerView, *Result) {
	for _, v := range x.log.Producers() {
		if v.Name == name {
			return v, nil
		}
	}
	r := pending("there is no producer %s yet: make it in the Producers panel (producer-config)", name)
	return core.ProducerView{}, &r
}

func checkDuplicated(x *ctx, c *check) Result {
	v, missing := producerView(x, c.args[0])
	if missing != nil {
		return *missing
	}
	lost, lostRequest := false, false
	for _, e := range x.producerEvents() {
		if e.Kind == core.EventRequestLost && e.Member == v.Name {
			lostRequest = true
		}
		if e.Kind != core.EventResponseLost || e.Member != v.Name {
			continue
		}
		lost = true
		first, ok := recordAt(x, e.Topic, e.Partition, e.Offset)
		if !ok {
			continue
		}
		tp := fmt.Sprintf("%s/%d", e.Topic, e.Partition)
		for _, r := range x.records(e.Topic, e.Partition) {
			if r.Offset > e.Offset && r.Control == core.ControlNone && r.HasKey == first.HasKey && r.Key == first.Key && r.Value == first.Value {
				x.keep(c, "partition", tp)
				x.keep(c, "offset", strconv.FormatInt(e.Offset, 10))
				x.keep(c, "other-offset", strconv.FormatInt(r.Offset, 10))
				x.keep(c, "value", first.Value)
				return solved("%s's answer for offset %d of %s was lost, and its retry wrote %s again at offset %d", v.Name, e.Offset, tp, first.Value, r.Offset)
			}
		}
	}
	switch {
	case !lost && lostRequest:
		return pending("%s's request was lost before the broker saw it: its retry was the first write. Lose an answer instead ([Lose the next answer](control:lose-answer %s)), then produce through %s", v.Name, v.Name, v.Name)
	case !lost:
		return pending("no answer to %s has been lost yet: press [Lose the next answer](control:lose-answer %s) on %s, then produce through it", v.Name, v.Name, v.Name)
	case v.Config.Idempotence:
		return pending("%s is idempotent: the broker knew its retry by producer id and sequence and dropped it", v.Name)
	}
	return pending("%s's answer was lost, but no retry wrote the record a second time", v.Name)
}

func checkDeduplicated(x *ctx, c *check) Result {
	v, missing := producerView(x, c.args[0])
	if missing != nil {
		return *missing
	}
	lost := false
	for _, e := range x.producerEvents() {
		if e.Member != v.Name {
			continue
		}
		switch e.Kind {
		case core.EventResponseLost:
			lost = true
		case core.EventDuplicateDropped:
			tp := fmt.Sprintf("%s/%d", e.Topic, e.Partition)
			x.keep(c, "partition", tp)
			x.keep(c, "offset", strconv.FormatInt(e.Offset, 10))
			x.keep(c, "sequence", strconv.Itoa(e.Count))
			x.keep(c, "producer-id", strconv.FormatInt(v.ID, 10))
			return solved("the broker dropped %s's retry of sequence %d: it held it at offset %d of %s already", v.Name, e.Count, e.Offset, tp)
		}
	}
	switch {
	case !v.Config.Idempotence:
		return pending("%s is not idempotent (enable.idempotence=false): its retries carry no sequence number the broker could know them by", v.Name)
	case !lost:
		return pending("no answer to %s has been lost yet: press [Lose the next answer](control:lose-answer %s) on %s, then produce through it", v.Name, v.Name, v.Name)
	}
	return pending("%s's answer was lost, but the broker has dropped no retry of it", v.Name)
}

// recordAt returns the record at an offset of a partition.
func recordAt(x *ctx, topic string, partition int, offset int64) (core.Record, bool) {
	recs := x.records(topic, partition)
	i, found := slices.BinarySearchFunc(recs, offset, func(r core.Record, o int64) int { return int(r.Offset - o) })
	if !found {
		return core.Record{}, false
	}
	return recs[i], true
}

func checkTransaction(x *ctx, c *check) Result {
	v, missing := producerView(x, c.args[0])
	if missing != nil {
		return *missing
	}
	want := c.args[1]
	least := int64(1)
	if n, ok := c.named["topics"]; ok {
		least, _ = strconv.ParseInt(n, 10, 64)
	}
	if v.Config.TransactionalID == "" {
		return pending("%s is not transactional: make a producer with a transactional.id", v.Name)
	}
	var markers []string
	var partitions []string
	topics := map[string]bool{}
	ended, widest := 0, -1 // widest: the most topics of a transaction that ended as wanted
	other := ""            // how the latest transaction that did not end as wanted ended
	for _, e := range x.producerEvents() {
		if e.Member != v.Name {
			continue
		}
		switch e.Kind {
		case core.EventTxnMarker:
			tp := fmt.Sprintf("%s/%d", e.Topic, e.Partition)
			markers = append(markers, fmt.Sprintf("%s at %s offset %d", e.Detail, tp, e.Offset))
			partitions = append(partitions, tp)
			topics[e.Topic] = true
		case core.EventTxnEnded:
			ended++
			committed := e.Cause == core.CauseCommit
			if committed == (want == "committed") && int64(len(topics)) >= least {
				x.keep(c, "partitions", units.Join(partitions))
				x.keep(c, "markers", units.Join(markers))
				x.keep(c, "epoch", strconv.Itoa(e.Generation))
				x.keep(c, "why", e.Detail)
				return solved("a transaction of %s ended %s, with its markers %s", v.Name, e.Detail, units.Join(markers))
			}
			if committed == (want == "committed") {
				widest = max(widest, len(topics))
			} else {
				other = e.Detail
			}
			markers, partitions, topics = nil, nil, map[string]bool{}
		}
	}
	if v.TransactionState == "in-transaction" && len(v.Partitions) > 0 {
		written := map[string]bool{}
		for _, tp := range v.Partitions {
			written[tp.Topic] = true
		}
		if int64(len(written)) < least {
			return pending("%s's open transaction has written to %s: it should reach %s before it ends", v.Name, units.Plural(int64(len(written)), "topic"), units.Plural(least, "topic"))
		}
		end := map[string]string{"committed": "[Commit](control:txn-commit %s)", "aborted": "[Abort](control:abort %s)"}[want]
		return pending("%s's transaction is open, over %s: end it ("+end+")", v.Name, units.Plural(int64(len(written)), "topic"), v.Name)
	}
	if widest < 0 && other != "" {
		return pending("%s's transactions so far ended %s; the goal wants one that ends %s", v.Name, other, want)
	}
	if ended == 0 {
		return pending("no transaction of %[1]s has ended yet: [Begin](control:begin %[1]s) one, produce through %[1]s, then [Commit](control:txn-commit %[1]s) or [Abort](control:abort %[1]s) it", v.Name)
	}
	if widest >= 0 {
		return pending("the transactions of %s that ended %s wrote to %s at most: write to %s before you end one", v.Name, want, units.Plural(int64(widest), "topic"), units.Plural(least, "topic"))
	}
	return pending("no transaction of %s has ended %s yet", v.Name, want)
}

func checkFenced(x *ctx, c *check) Result {
	v, missing := producerView(x, c.args[0])
	if missing != nil {
		return *missing
	}
	if v.Config.TransactionalID == "" {
		return pending("%s is not transactional: only a producer with a transactional.id can be fenced", v.Name)
	}
	x.keep(c, "epoch", strconv.Itoa(v.Epoch))
	if v.TransactionState != "fenced" {
		for _, o := range x.log.Producers() {
			if o.Name != v.Name && o.Config.TransactionalID == v.Config.TransactionalID {
				return pending("%s is not fenced: it is %s, with epoch %d of transactional.id %s; %s has that transactional.id too: press [Init](control:init %s) on %s",
					v.Name, v.TransactionState, v.Epoch, v.Config.TransactionalID, o.Name, o.Name, o.Name)
			}
		}
		return pending("%s is not fenced: it is %s, with epoch %d of transactional.id %s", v.Name, v.TransactionState, v.Epoch, v.Config.TransactionalID)
	}
	by := ""
	for _, o := range x.log.Producers() {
		if o.Name != v.Name && o.Config.TransactionalID == v.Config.TransactionalID && o.TransactionState != "fenced" && o.ID >= 0 {
			by = o.Name
		}
	}
	x.keep(c, "by", by)
	x.keep(c, "why", v.Fenced)
	if by != "" {
		return solved("%s is fenced: %s took transactional.id %s with a newer epoch", v.Name, by, v.Config.TransactionalID)
	}
	return solved("%s is fenced: its epoch of transactional.id %s is old", v.Name, v.Config.TransactionalID)
}

// readable sorts a partition's records below its last stable offset into
// those a read_committed consumer is given and those it skips (aborted).
func readable(x *ctx, topic string, p int) (given, aborted []core.Record) {
	lso, err := x.log.LastStableOffset(topic, p)
	if err != nil {
		return nil, nil
	}
	for _, r := range x.records(topic, p) {
		if r.Offset >= lso || r.Control != core.ControlNone {
			continue
		}
		if _, txn := x.log.RecordTransaction(topic, p, r.Offset); txn == "aborted" {
			aborted = append(aborted, r)
		} else {
			given = append(given, r)
		}
	}
	return given, aborted
}

func checkReadCommitted(x *ctx, c *check) Result {
	v, n, missing := groupAndTopic(x, c)
	if missing != nil {
		return *missing
	}
	topic := c.args[1]
	if v.Config.IsolationLevel != core.ReadCommitted {
		return pending("group %s reads with isolation.level=%s: it is given aborted records too; set read_committed", v.Name, v.Config.IsolationLevel)
	}
	records, skipped := 0, 0
	for p := range n {
		got := deliveredOffsets(v, topic, p)
		given, aborted := readable(x, topic, p)
		for _, r := range aborted {
			if _, ok := got[r.Offset]; ok {
				return pending("group %s received offset %d of %s/%d, which an aborted transaction wrote", v.Name, r.Offset, topic, p)
			}
		}
		if unread := missingOffsets(given, got); len(unread) > 0 {
			return pending("group %s has not received %s of %s/%d yet (%s %s): %s", v.Name, units.Plural(int64(len(unread)), "committed record"), topic, p,
				units.Noun(int64(len(unread)), "offset", "offsets"), joinInts(unread), pollWords(v, topic, p))
		}
		records += len(given)
		skipped += len(aborted)
	}
	x.keep(c, "records", units.Plural(int64(records), "record"))
	x.keep(c, "skipped", units.Plural(int64(skipped), "aborted record"))
	if records == 0 {
		return pending("%s holds no record a read_committed consumer is given yet: commit a transaction that writes to it", topic)
	}
	return solved("group %s (read_committed) received the %s of %s and skipped %s", v.Name, units.Plural(int64(records), "committed record"), topic, units.Plural(int64(skipped), "aborted one"))
}

// pollWords says how to read a group's partition of topic (any of its
// partitions for -1): press Poll on the member that owns it, named, or
// poll with its member while none does.
func pollWords(v core.GroupView, topic string, partition int) string {
	for _, m := range v.Members {
		for _, tp := range m.Assignment {
			if tp.Topic == topic && (partition < 0 || tp.Partition == partition) {
				return fmt.Sprintf("press [Poll](control:poll %[1]s) on %[1]s", m.ID)
			}
		}
	}
	return "poll with its member"
}

func checkReadAborted(x *ctx, c *check) Result {
	v, n, missing := groupAndTopic(x, c)
	if missing != nil {
		return *missing
	}
	topic := c.args[1]
	var offsets []string
	for p := range n {
		got := deliveredOffsets(v, topic, p)
		_, aborted := readable(x, topic, p)
		for _, r := range aborted {
			if _, ok := got[r.Offset]; ok {
				offsets = append(offsets, fmt.Sprintf("%s/%d@%d", topic, p, r.Offset))
			}
		}
	}
	x.keep(c, "offsets", units.Join(offsets))
	if len(offsets) == 0 {
		if v.Config.IsolationLevel == core.ReadCommitted {
			return pending("group %s reads with isolation.level=read_committed: it is never given an aborted record", v.Name)
		}
		if waiting := abortedRecords(x, topic, n); waiting > 0 {
			return pending("group %s has not read what an aborted transaction wrote to %s yet (%s): %s", v.Name, topic, units.Plural(int64(waiting), "record"), pollWords(v, topic, -1))
		}
		return pending("group %s has received no record of %s that an aborted transaction wrote: abort a transaction that writes to it, then poll", v.Name, topic)
	}
	return solved("group %s (%s) received %s, written by an aborted transaction", v.Name, v.Config.IsolationLevel, units.Join(offsets))
}

// abortedRecords counts the records aborted transactions left in a topic's
// partitions, below their last stable offsets.
func abortedRecords(x *ctx, topic string, partitions int) int {
	n := 0
	for p := range partitions {
		_, aborted := readable(x, topic, p)
		n += len(aborted)
	}
	return n
}

func checkCommittedOnce(x *ctx, c *check) Result {
	topic := c.args[0]
	n := x.partitions(topic)
	if n == 0 {
		return pending("there is no topic %s yet", topic)
	}
	type content struct {
		hasKey     bool
		key, value string
	}
	seen := map[content]string{}
	total := 0
	for p := range n {
		given, _ := readable(x, topic, p)
		for _, r := range given {
			at := fmt.Sprintf("%s/%d@%d", topic, p, r.Offset)
			k := content{r.HasKey, r.Key, r.Value}
			if first, dup := seen[k]; dup {
				x.keep(c, "value", r.Value)
				x.keep(c, "offsets", first+" and "+at)
				return pending("%s holds %s twice for read_committed readers, at %s and %s: it was written and committed twice", topic, recordWords(r), first, at)
			}
			seen[k] = at
			total++
		}
	}
	x.keep(c, "records", units.Plural(int64(total), "record"))
	if total == 0 {
		return pending("%s holds no committed record yet", topic)
	}
	return solved("%s holds %s for read_committed readers, each once", topic, units.Plural(int64(total), "record"))
}

// recordWords names a record by its key and value.
func recordWords(r core.Record) string {
	if !r.HasKey {
		return "value " + r.Value
	}
	return fmt.Sprintf("%s=%s", r.Key, r.Value)
}
