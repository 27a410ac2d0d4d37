package lesson

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"
)

// This file holds what several goals read from the state: records with
// their partitions, where an entity's events sit, what a group received.

// placed is a record and the partition it sits in.
type placed struct {
	partition int
	core.Record
}

// allRecords returns every record a topic retains, partition by partition,
// each partition in offset order.
func (c *ctx) allRecords(topic string) []placed {
	var out []placed
	for p := range c.partitions(topic) {
		for _, r := range c.records(topic, p) {
			out = append(out, placed{p, r})
		}
	}
	return out
}

// recordsSince returns the records a partition holds below its high
// watermark with timestamps after since, in offset order. A record's
// timestamp is the virtual time it was produced at, which never goes back,
// so along a partition timestamps never decrease: a binary search over the
// offsets finds the first, and only the window is read.
func recordsSince(l core.ReadOnlyLog, topic string, partition int, since int64) []core.Record {
	lo, err := l.LogStartOffset(topic, partition)
	if err != nil {
		return nil
	}
	hw, _ := l.HighWatermark(topic, partition)
	hi := hw
	for lo < hi {
		mid := lo + (hi-lo)/2
		r, ok := l.FirstRecordAtOrAfter(topic, partition, mid)
		if !ok || r.Offset >= hw || r.Timestamp > since {
			hi = mid
		} else {
			lo = r.Offset + 1
		}
	}
	if lo >= hw {
		return nil
	}
	recs, _ := l.Consume(topic, partition, lo, int(min(hw-lo, core.MaxConsume)))
	return recs
}

// partitionsOf lists, sorted and without repeats, the partitions the
// records sit in.
func partitionsOf(recs []placed) []int {
	var ps []int
	for _, r := range recs {
		if !slices.Contains(ps, r.partition) {
			ps = append(ps, r.partition)
		}
	}
	slices.Sort(ps)
	return ps
}

// inOrder checks that an entity's records sit in one partition with its
// events in the order of steps (the first record of each step counts).
// event names the step a record is. It returns "" when all is well, or a
// sentence saying what is wrong, naming the entity as who.
func inOrder(who string, recs []placed, event func(placed) string, steps []string) string {
	if ps := partitionsOf(recs); len(ps) > 1 {
		return fmt.Sprintf("%s's events are split over partitions %s: a consumer may read a later one first, since nothing orders one partition against another",
			who, joinInts(ps))
	}
	first := map[string]int64{}
	for _, r := range recs {
		if e := event(r); slices.Contains(steps, e) {
			if _, seen := first[e]; !seen {
				first[e] = r.Offset
			}
		}
	}
	for _, step := range steps {
		if _, ok := first[step]; !ok {
			return fmt.Sprintf("%s has no %s event yet", who, step)
		}
	}
	for i := 1; i < len(steps); i++ {
		a, b := steps[i-1], steps[i]
		if first[b] < first[a] {
			return fmt.Sprintf("in partition %d, %s's %s (offset %d) comes before its %s (offset %d): the log keeps the order in which records were sent",
				recs[0].partition, who, b, first[b], a, first[a])
		}
	}
	return ""
}

// deliveredOffsets returns, for one partition, the offsets a group's
// deliveries log shows it received, and when it first received each.
func deliveredOffsets(v core.GroupView, topic string, partition int) map[int64]int64 {
	got := map[int64]int64{}
	for _, d := range v.Deliveries {
		if d.Topic == topic && d.Partition == partition {
			if _, seen := got[d.Record.Offset]; !seen {
				got[d.Record.Offset] = d.Time
			}
		}
	}
	return got
}

// missingOffsets lists the records of a partition a group has not received.
func missingOffsets(recs []core.Record, got map[int64]int64) []int64 {
	var missing []int64
	for _, r := range recs {
		if _, ok := got[r.Offset]; !ok {
			missing = append(missing, r.Offset)
		}
	}
	return missing
}

// partitionView returns a group's view of one partition.
func partitionView(v core.GroupView, topic string, partition int) (core.PartitionView, bool) {
	for _, p := range v.Partitions {
		if p.Topic == topic && p.Partition == partition {
			return p, true
		}
	}
	return core.PartitionView{}, false
}

// member returns a group's member by id.
func member(v core.GroupView, id string) (core.MemberView, bool) {
	for _, m := range v.Members {
		if m.ID == id {
			return m, true
		}
	}
	return core.MemberView{}, false
}

// liveMembers counts the members that are running.
func liveMembers(v core.GroupView) int {
	n := 0
	for _, m := range v.Members {
		if m.Down == "" {
			n++
		}
	}
	return n
}

// downMember returns a member that stopped and the group still waits for.
func downMember(v core.GroupView) (core.MemberView, bool) {
	for _, m := range v.Members {
		if m.Down != "" {
			return m, true
		}
	}
	return core.MemberView{}, false
}

// waiting describes why a group is not stable yet, or "" when it is; now
// is the scenario's clock, to say how far to advance it.
func waiting(v core.GroupView, now int64) string {
	if m, ok := downMember(v); ok {
		return fmt.Sprintf("group %s waits for %s, which %s, until its session times out at %s (%s)",
			v.Name, m.ID, downWords(m.Down), units.SpanToSecond(m.SessionExpiresAt), sessionTimeoutWords(v, m))
	}
	if r := v.Rebalance; r != nil && len(r.NotRejoined) > 0 {
		// From rules 4 a rebalance ends once every member has rejoined,
		// which a consumer does in its poll (core/group_timing.go).
		press := "press Poll on " + units.Join(r.NotRejoined)
		if len(r.NotRejoined) == 1 {
			press = fmt.Sprintf("press [Poll](control:poll %[1]s) on %[1]s", r.NotRejoined[0])
		}
		return fmt.Sprintf("group %s is rebalancing: it waits for %s to rejoin, which a consumer does in its next poll: %s",
			v.Name, units.Join(r.NotRejoined), press)
	}
	if r := v.Rebalance; r != nil && r.DoneAt > now {
		// How long it waits, not "a few seconds": a walk advanced three
		// where a new group's first rebalance with two members joining
		// waits six (group.initial.rebalance.delay.ms, longer for each
		// member joining in the wait; core/group_timing.go). Rounded up
		// to whole seconds, so that advancing by it is enough.
		left := (r.DoneAt - now + units.Second - 1) / units.Second * units.Second
		if n := left / units.Second; n <= 10 {
			// +1 s, pressed n times: the Advance box holds 10m, which a
			// walk pressed and saw the group's members time out.
			return fmt.Sprintf("group %s is still rebalancing, until %s: press [+1 s](control:advance-1s) %s", v.Name, units.SpanToSecond(r.DoneAt), units.Noun(n, "once", strconv.FormatInt(n, 10)+" times"))
		}
		return fmt.Sprintf("group %s is still rebalancing, until %s: [advance the clock](control:advance) by %s", v.Name, units.SpanToSecond(r.DoneAt), units.Span(left, 4))
	}
	if v.State == core.GroupRebalancing {
		return fmt.Sprintf("group %s is still rebalancing: [advance the clock](control:advance) a few seconds", v.Name)
	}
	return ""
}

// sessionTimeoutWords names the session timeout that ends a member's
// session, with its value: a classic member's own session.timeout.ms; a
// consumer-protocol member's is the coordinator's (Kafka 4.4
// GroupMetadataManager: the group's consumer.session.timeout.ms, else the
// brokers' group.consumer.session.timeout.ms).
func sessionTimeoutWords(v core.GroupView, m core.MemberView) string {
	if m.Protocol != core.ProtocolConsumer {
		return "session.timeout.ms=" + units.Duration(v.Config.SessionTimeoutMs)
	}
	name := "the brokers' group.consumer.session.timeout.ms="
	if v.Config.ConsumerSessionTimeoutMs != core.DefaultGroupConfig().ConsumerSessionTimeoutMs {
		name = "the group's consumer.session.timeout.ms="
	}
	return name + units.Duration(v.Config.ConsumerSessionTimeoutMs)
}

func downWords(down string) string {
	if down == "left" {
		return "shut down without leaving (a static member)"
	}
	return down
}

// assignmentText writes a member's partitions as "orders/0 orders/2", or
// "nothing".
func assignmentText(tps []core.TopicPartition) string {
	if len(tps) == 0 {
		return "nothing"
	}
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.String()
	}
	return strings.Join(parts, " ")
}

// joinInts writes numbers as "0, 1 and 2".
func joinInts[T int | int64](ns []T) string {
	words := make([]string, len(ns))
	for i, n := range ns {
		words[i] = strconv.FormatInt(int64(n), 10)
	}
	return units.Join(words)
}

// table folds records into the state they describe: the latest value of
// each key, without the keys whose latest record is a tombstone.
func table(recs []core.Record) map[string]string {
	t := map[string]string{}
	for _, r := range recs {
		switch {
		case !r.HasKey:
		case r.Tombstone:
			delete(t, r.Key)
		default:
			t[r.Key] = r.Value
		}
	}
	return t
}

// tableText writes a table as "acct-1=80 acct-2=45", keys sorted.
func tableText(t map[string]string) string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + t[k]
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, " ")
}

// alertRule writes a group's lag alert settings.
func alertRule(cfg core.GroupConfig) string {
	var rules []string
	if cfg.LagAlertRecords > 0 {
		rules = append(rules, fmt.Sprintf("lag.alert.records=%d", cfg.LagAlertRecords))
	}
	if cfg.LagAlertMs > 0 {
		rules = append(rules, "lag.alert.ms="+units.Duration(cfg.LagAlertMs))
	}
	if len(rules) == 0 {
		return "no alert"
	}
	return strings.Join(rules, " and ")
}
