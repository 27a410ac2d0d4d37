package lesson

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"
)

// More functions of the state for expect: what a group read and when,
// a topic's configs and its table, a group's alert. They say the goals
// the built-in lessons used to say in checks of their own, so that those
// lessons are written in expect where it reads as well.

// readFuncs are what a consumer group read.
var readFuncs = []*valueFunc{
	{name: "received", args: []argKind{groupArg, topicOrPartArg}, result: numberValue, help: "how many records of a topic or a partition a consumer group has received (each offset once, however often it came)",
		eval: func(x *ctx, a []argument) (value, error) {
			v, ps, err := groupReads(x, a)
			if err != nil {
				return value{}, err
			}
			n := 0
			for _, p := range ps {
				n += len(deliveredOffsets(v, a[1].topic, p))
			}
			return value{n: int64(n)}, nil
		}},
	{name: "unread", args: []argKind{groupArg, topicOrPartArg}, result: numberValue, help: "how many records of a topic or a partition, of those it retains below the high watermark (what consumers may read), a consumer group has not received",
		eval: func(x *ctx, a []argument) (value, error) {
			v, ps, err := groupReads(x, a)
			if err != nil {
				return value{}, err
			}
			n := 0
			for _, p := range ps {
				hw, _ := x.log.HighWatermark(a[1].topic, p)
				recs := x.records(a[1].topic, p)
				for len(recs) > 0 && recs[len(recs)-1].Offset >= hw {
					recs = recs[:len(recs)-1]
				}
				n += len(missingOffsets(recs, deliveredOffsets(v, a[1].topic, p)))
			}
			return value{n: int64(n)}, nil
		}},
	{name: "read-twice", args: []argKind{groupArg, topicOrPartArg}, result: wordValue, help: "the offsets of a topic or a partition a consumer group received a second time, as a list (0, 1 and 2), none for none",
		eval: func(x *ctx, a []argument) (value, error) {
			v, ps, err := groupReads(x, a)
			if err != nil {
				return value{}, err
			}
			var again []int64
			for _, d := range v.Deliveries {
				if d.Redelivery && d.Topic == a[1].topic && slices.Contains(ps, d.Partition) {
					again = append(again, d.Record.Offset)
				}
			}
			if len(again) == 0 {
				return value{word: "none"}, nil
			}
			return value{word: joinInts(again)}, nil
		}},
	{name: "generations", args: []argKind{groupArg, partitionArg}, result: numberValue, help: "in how many generations a consumer group read a partition: more than one when a rebalance (a consumer restarting, say) came between its reads",
		eval: func(x *ctx, a []argument) (value, error) {
			v, _, err := groupReads(x, a)
			if err != nil {
				return value{}, err
			}
			var gens []int
			for _, d := range partitionReads(v, a[1].topic, a[1].partition) {
				if !slices.Contains(gens, d.Generation) {
					gens = append(gens, d.Generation)
				}
			}
			return value{n: int64(len(gens))}, nil
		}},
	{name: "resumed-at", args: []argKind{groupArg, partitionArg}, result: numberValue, help: "the offset at which a consumer group went on reading a partition after its first generation of reads (after a restart, say)",
		eval: func(x *ctx, a []argument) (value, error) {
			v, _, err := groupReads(x, a)
			if err != nil {
				return value{}, err
			}
			reads := partitionReads(v, a[1].topic, a[1].partition)
			if n := firstRun(reads); n < len(reads) {
				return value{n: reads[n].Record.Offset}, nil
			}
			return value{}, fmt.Errorf("group %s has read %s in one generation: no rebalance came between its reads", a[0].text, a[1].text)
		}},
}

// groupReads is the consumer group a[0] and the partitions a[1] names.
func groupReads(x *ctx, a []argument) (core.GroupView, []int, error) {
	v, err := consumerGroup(x, a[0].text)
	if err != nil {
		return v, nil, err
	}
	ps, err := namedPartitions(x, a[1])
	return v, ps, err
}

// topicFuncs are a topic's configs and what its log holds.
var topicFuncs = []*valueFunc{
	{name: "config", args: []argKind{topicArg, nameArg}, result: wordValue, help: "a topic's config NAME, as the scenario language writes it (7d, 1MB, compact, 2)",
		eval: func(x *ctx, a []argument) (value, error) {
			cfg, err := x.log.TopicConfig(a[0].topic)
			if err != nil {
				return value{}, fmt.Errorf("there is no topic %s yet", a[0].topic)
			}
			for _, e := range cfg.Entries() {
				if e.Name == a[1].text {
					return value{word: strings.ToLower(e.Value)}, nil
				}
			}
			return value{}, fmt.Errorf("topic %s has no config %s under these rules", a[0].topic, a[1].text)
		}},
	{name: "replicas", args: []argKind{topicArg}, result: numberValue, help: "a topic's replication factor",
		eval: func(x *ctx, a []argument) (value, error) {
			cfg, err := x.log.TopicConfig(a[0].topic)
			if err != nil {
				return value{}, fmt.Errorf("there is no topic %s yet", a[0].topic)
			}
			return value{n: cfg.ReplicationFactor}, nil
		}},
	{name: "table", args: []argKind{topicArg, nameArg}, result: wordValue, help: `the value key NAME has in a topic's table: its latest record's value ("" for an empty value), none when that record is a tombstone or the topic holds no record with the key`,
		eval: func(x *ctx, a []argument) (value, error) {
			if x.partitions(a[0].topic) == 0 {
				return value{}, fmt.Errorf("there is no topic %s yet", a[0].topic)
			}
			last := x.latest(a[0].topic, a[1].text)
			if last == nil || last.Tombstone {
				return value{word: "none"}, nil
			}
			return value{word: strings.ToLower(last.Value)}, nil
		}},
	{name: "compacted", args: []argKind{topicOrPartArg}, result: numberValue, help: "how many offsets of a topic or a partition, from its log start to its end, hold no record any more: what the cleaner removed",
		eval: func(x *ctx, a []argument) (value, error) {
			ps, err := namedPartitions(x, a[0])
			if err != nil {
				return value{}, err
			}
			var n int64
			for _, p := range ps {
				end, _ := x.log.LogEndOffset(a[0].topic, p)
				start, _ := x.log.LogStartOffset(a[0].topic, p)
				n += end - start - int64(len(x.records(a[0].topic, p)))
			}
			return value{n: n}, nil
		}},
}

// groupFuncs are a consumer group's settings and its alert.
var groupFuncs = []*valueFunc{
	{name: "strategy", args: []argKind{groupArg}, result: wordValue, help: "the strategy a consumer group assigns with (range, roundrobin, sticky, cooperative-sticky): its first member to join chose it",
		eval: func(x *ctx, a []argument) (value, error) {
			v, err := consumerGroup(x, a[0].text)
			return value{word: strings.ToLower(v.Strategy)}, err
		}},
	{name: "alert-rule", args: []argKind{groupArg}, result: wordValue, help: "a consumer group's lag alert rule (lag.alert.ms=10m, lag.alert.records=1000, or both with and), none for none",
		eval: func(x *ctx, a []argument) (value, error) {
			v, err := consumerGroup(x, a[0].text)
			if err != nil || v.Config.LagAlertMs == 0 && v.Config.LagAlertRecords == 0 {
				return value{word: "none"}, err
			}
			return value{word: strings.ToLower(alertRule(v.Config))}, nil
		}},
	{name: "alert", args: []argKind{groupArg}, result: wordValue, help: "a consumer group's lag alert: on once its lag reaches lag.alert.records or its time lag lag.alert.ms, else off",
		eval: func(x *ctx, a []argument) (value, error) {
			v, err := consumerGroup(x, a[0].text)
			if v.Alert {
				return value{word: "on"}, err
			}
			return value{word: "off"}, err
		}},
	{name: "lost-unprocessed", args: []argKind{groupArg}, result: numberValue, help: "how many records a consumer group committed that a member which stopped had not processed (at-most-once)",
		eval: func(x *ctx, a []argument) (value, error) {
			v, err := consumerGroup(x, a[0].text)
			return value{n: v.Totals.LostUnprocessed}, err
		}},
	// A member's partitions are those the group's last assignment gave
	// it: under the classic protocol the leader's assignor's
	// (ConsumerCoordinator.onJoinComplete in Kafka 4.4's clients), under
	// the consumer protocol those it reconciled to
	// (ConsumerMembershipManager).
	{name: "assignment", args: []argKind{groupArg, memberArg}, result: wordValue, help: "the partitions a member of a consumer group owns, as orders/0 orders/2, none for none (a member with none sits idle)",
		eval: func(x *ctx, a []argument) (value, error) {
			v, err := consumerGroup(x, a[0].text)
			if err != nil {
				return value{}, err
			}
			m, ok := member(v, a[1].text)
			switch {
			case !ok:
				return value{}, fmt.Errorf("group %s has no member %s yet", a[0].text, a[1].text)
			case len(m.Assignment) == 0:
				return value{word: "none"}, nil
			}
			return value{word: strings.ToLower(assignmentText(m.Assignment))}, nil
		}},
	// A partition stops in a rebalance while its owner gives it up and
	// nobody reads it: under the eager protocol every member revokes
	// every partition before it rejoins (ConsumerCoordinator.onJoinPrepare
	// in Kafka 4.4's clients), under the cooperative one only the
	// partitions that move (ConsumerCoordinator.onJoinComplete revokes
	// them, and the next rebalance gives them out).
	{name: "stopped", args: []argKind{groupArg}, result: numberValue, help: "how many partitions a consumer group's rebalances since the lesson's start stopped: a partition stops while its owner gives it up and nobody reads it (an eager rebalance stops every partition, a cooperative one those that move)",
		eval: func(x *ctx, a []argument) (value, error) {
			v, err := consumerGroup(x, a[0].text)
			if err != nil {
				return value{}, err
			}
			return value{n: int64(x.tally(v).stopped)}, nil
		}},
}

// replicaFuncs are what a partition's replicas hold.
var replicaFuncs = []*valueFunc{
	// An acks=all record waits until every in-sync replica has it and
	// the high watermark passes it (Kafka 4.4's DelayedProduce, completed
	// by Partition.checkEnoughReplicasReachOffset).
	{name: "acks-waiting", args: []argKind{partitionArg}, result: numberValue, help: "how many acks=all records of a partition wait for its in-sync replicas to copy them, not yet acknowledged",
		eval: func(x *ctx, a []argument) (value, error) {
			r, err := replicationOf(x, a[0])
			if err != nil {
				return value{}, err
			}
			var n int64
			for _, run := range r.Acks {
				if run.Status == core.AckPending {
					n += run.To - run.From
				}
			}
			return value{n: n}, nil
		}},
}
