package kafkarun

import (
	"context"
	"encoding/binary"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
	"plog/core/assign"
	"plog/core/scenario"
	"plog/core/units"
)

// readState reads the cluster's topics and groups into the playground's
// State, with the prefix taken off the names. Times are milliseconds since
// the run began, as the playground's are since the scenario began.
func (r *runner) readState(ctx context.Context) (scenario.State, error) {
	st := scenario.State{
		TimeMs: time.Since(r.start).Milliseconds(),
		Seed:   r.session.Log().Seed(),
		Topics: []scenario.TopicState{},
		Groups: []scenario.GroupState{},
	}
	topics := slices.Sorted(slices.Values(r.created))
	starts, ends := map[tp]int64{}, map[tp]int64{}
	records := map[tp][]scenario.RecordState{}
	if len(topics) > 0 {
		var err error
		if starts, ends, err = r.offsets(ctx, topics...); err != nil {
			return st, err
		}
		if records, err = r.readRecords(ctx, starts, ends); err != nil {
			return st, err
		}
	}
	configs := r.readConfigs(ctx, topics)
	for _, topic := range topics {
		t := scenario.TopicState{Name: topic, Configs: configs[topic], Partitions: []scenario.PartitionState{}}
		for p := 0; ; p++ {
			end, ok := ends[tp{topic, p}]
			if !ok {
				break
			}
			ps := scenario.PartitionState{Partition: p, LogStartOffset: starts[tp{topic, p}], HighWatermark: end, Records: records[tp{topic, p}]}
			if ps.Records == nil {
				ps.Records = []scenario.RecordState{}
			}
			t.Partitions = append(t.Partitions, ps)
		}
		st.Topics = append(st.Topics, t)
	}
	groups, err := r.readGroups(ctx, st.TimeMs, ends, records)
	if err != nil {
		return st, err
	}
	st.Groups = groups
	return st, r.readTransactions(ctx, &st)
}

// readRecords reads every partition from its log start to its end with a
// plain (groupless) consumer.
func (r *runner) readRecords(ctx context.Context, starts, ends map[tp]int64) (map[tp][]scenario.RecordState, error) {
	out := map[tp][]scenario.RecordState{}
	from := map[string]map[int32]kgo.Offset{}
	left := map[tp]bool{}
	for t, end := range ends {
		if end > starts[t] {
			topic := r.opts.Prefix + t.topic
			if from[topic] == nil {
				from[topic] = map[int32]kgo.Offset{}
			}
			from[topic][int32(t.partition)] = kgo.NewOffset().At(starts[t])
			left[t] = true
		}
	}
	if len(left) == 0 {
		return out, nil
	}
	start := r.start.UnixMilli()
	err := r.readBack(ctx, "the records to be read back", from, func(rec *kgo.Record) {
		t := tp{r.unprefix(rec.Topic), int(rec.Partition)}
		rs := scenario.RecordState{Offset: rec.Offset, TimestampMs: rec.Timestamp.UnixMilli() - start}
		if rec.Key != nil {
			key := string(rec.Key)
			rs.Key = &key
		}
		if rec.Value != nil {
			value := string(rec.Value)
			rs.Value = &value
		}
		readRecordTxn(rec, &rs)
		out[t] = append(out[t], rs)
		if rec.Offset+1 >= ends[t] {
			delete(left, t)
		}
	}, func() bool { return len(left) == 0 })
	return out, err
}

// readBack reads partitions from the given offsets with a plain
// (groupless) consumer, handing each record to each, until done says all
// has been read, or WaitTimeout passes.
func (r *runner) readBack(ctx context.Context, what string, from map[string]map[int32]kgo.Offset, each func(*kgo.Record), done func() bool) error {
	opts := append([]kgo.Opt{
		kgo.SeedBrokers(r.opts.Brokers...),
		kgo.DialTimeout(r.opts.DialTimeout),
		kgo.ConsumePartitions(from),
		kgo.FetchMaxWait(100 * time.Millisecond),
		// Markers take offsets: a partition whose last offset is a
		// marker is read to its end only with them (txn.go).
		kgo.KeepControlRecords(),
	}, r.opts.ClientOpts...)
	reader, err := kgo.NewClient(opts...)
	if err != nil {
		return err
	}
	defer reader.Close()
	return r.waitFor(ctx, what, func() (bool, error) {
		pollCtx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		fetches := reader.PollFetches(pollCtx)
		cancel()
		var fetchErr error
		fetches.EachError(func(_ string, _ int32, err error) {
			if ctx.Err() == nil && pollCtx.Err() == nil {
				fetchErr = err
			}
		})
		if fetchErr != nil {
			return false, fetchErr
		}
		fetches.EachRecord(each)
		return done(), nil
	})
}

// kafkaConfigNames are the topic configs read back: Kafka's among the
// playground's.
var kafkaConfigNames = map[string]bool{
	"retention.ms": true, "retention.bytes": true, "segment.bytes": true, "segment.ms": true,
	"cleanup.policy": true, "delete.retention.ms": true, "min.compaction.lag.ms": true,
}

// readConfigs reads the topics' configs in the playground's notation
// (durations and sizes with units). A broker that does not let us describe
// configs leaves them empty: they are shown, not compared.
func (r *runner) readConfigs(ctx context.Context, topics []string) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, t := range topics {
		out[t] = map[string]string{}
	}
	described, err := r.admin.DescribeTopicConfigs(ctx, r.prefixed(topics)...)
	if err != nil {
		return out
	}
	for _, rc := range described {
		configs, ok := out[r.unprefix(rc.Name)]
		if !ok || rc.Err != nil {
			continue
		}
		for _, c := range rc.Configs {
			if !kafkaConfigNames[c.Key] || c.Value == nil {
				continue
			}
			configs[c.Key] = playgroundNotation(c.Key, *c.Value)
		}
	}
	return out
}

// playgroundNotation writes a raw Kafka config value with the playground's
// units: 604800000 ms as 7d, 1073741824 bytes as 1GB.
func playgroundNotation(name, value string) string {
	n, err := strconv.ParseInt(value, 10, 64)
	if err != nil || n <= 0 {
		return value
	}
	def, _ := core.LookupConfig(core.OnTopic, name)
	switch def.Kind {
	case core.KindDuration:
		return units.Duration(n)
	case core.KindSize:
		return units.Size(n)
	}
	return value
}

// clusterGroupState maps Kafka's group states to the playground's three.
func clusterGroupState(state string) string {
	switch state {
	case "Stable":
		return core.GroupStable
	case "PreparingRebalance", "CompletingRebalance":
		return core.GroupRebalancing
	}
	return core.GroupEmpty
}

// readGroups reads the script's groups: members and assignments from
// DescribeGroups, committed offsets from OffsetFetch, lag against the
// partitions' ends.
func (r *runner) readGroups(ctx context.Context, nowMs int64, ends map[tp]int64, records map[tp][]scenario.RecordState) ([]scenario.GroupState, error) {
	out := []scenario.GroupState{}
	if len(r.groupNames) == 0 {
		return out, nil
	}
	ids := make([]string, len(r.groupNames))
	for i, name := range r.groupNames {
		ids[i] = r.groups[name].id
	}
	described, err := r.admin.DescribeGroups(ctx, ids...)
	if err != nil {
		return nil, err
	}
	generations, known, err := r.brokerGenerations(ctx, ids)
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(slices.Values(r.groupNames)) {
		g := r.groups[name]
		d := described[g.id]
		committed, err := r.committed(ctx, g)
		if err != nil {
			return nil, err
		}
		generation := -1 // unknown: the broker keeps no group coordinator's log to read
		if known {
			generation = generations[g.id]
		}
		gs := scenario.GroupState{
			Name: name, Generation: generation, Strategy: d.Protocol, State: clusterGroupState(d.State),
			Members: []scenario.MemberState{}, Offsets: []scenario.OffsetState{},
		}
		if g.deleted {
			gs.State = deletedState
		}
		owners := map[tp]string{}
		read := map[tp]bool{}
		if g.consumer {
			if owners, read, err = r.readConsumerGroup(ctx, g, &gs); err != nil {
				return nil, err
			}
			if err := r.readMemberProtocols(ctx, g, &gs); err != nil {
				return nil, err
			}
		}
		for t := range committed {
			read[t] = true
		}
		for _, dm := range d.Members {
			if g.consumer {
				break // read above
			}
			ms := scenario.MemberState{ID: dm.ClientID, Assignment: []scenario.AssignmentState{}}
			if dm.InstanceID != nil {
				ms.Instance = *dm.InstanceID
			}
			if _, gone := g.goneStatic[dm.ClientID]; gone {
				ms.Down = "left"
			}
			for _, t := range r.describedAssignment(dm) {
				owners[t] = dm.ClientID
				if n := len(ms.Assignment); n == 0 || ms.Assignment[n-1].Topic != t.topic {
					ms.Assignment = append(ms.Assignment, scenario.AssignmentState{Topic: t.topic})
				}
				a := &ms.Assignment[len(ms.Assignment)-1]
				a.Partitions = append(a.Partitions, t.partition)
			}
			if meta, ok := dm.Join.AsConsumer(); ok {
				for _, topic := range meta.Topics {
					for p := range r.partitions[r.unprefix(topic)] {
						read[tp{r.unprefix(topic), p}] = true
					}
				}
			}
			gs.Members = append(gs.Members, ms)
		}
		slices.SortFunc(gs.Members, func(a, b scenario.MemberState) int { return strings.Compare(a.ID, b.ID) })
		for _, t := range slices.SortedFunc(maps.Keys(read), compareTP) {
			o := scenario.OffsetState{Topic: t.topic, Partition: t.partition, LogEndOffset: ends[t], Owner: owners[t]}
			if c, ok := committed[t]; ok {
				lag := max64(0, ends[t]-c)
				lagMs := timeLag(nowMs, c, records[t])
				o.Committed, o.Lag, o.LagMs = &c, &lag, &lagMs
				gs.TotalLag += lag
			}
			gs.Offsets = append(gs.Offsets, o)
		}
		out = append(out, gs)
	}
	return out, nil
}

// timeLag is how long ago the first record at or after the committed
// offset was written, 0 when the group has read everything.
func timeLag(nowMs, committed int64, records []scenario.RecordState) int64 {
	for _, rec := range records {
		if rec.Offset >= committed {
			return max64(0, nowMs-rec.TimestampMs)
		}
	}
	return 0
}

// offsetsTopic is the group coordinator's log, where Kafka keeps each
// group's metadata, its generation among it, and committed offsets.
const offsetsTopic = "__consumer_offsets"

// brokerGenerations reads each group's generation as the broker's group
// coordinator keeps it: the latest GroupMetadataValue record of the group
// (key version 2, GroupMetadataKey) in __consumer_offsets, in the
// partition Kafka 4.x's GroupCoordinatorService.partitionFor picks,
// Utils.abs(groupId.hashCode()) % the topic's partition count; a
// tombstone, a group deleted, is generation 0. ok is false when the
// cluster has no such topic to read (kfake keeps none).
func (r *runner) brokerGenerations(ctx context.Context, ids []string) (generations map[string]int, ok bool, err error) {
	md, err := r.admin.Metadata(ctx, offsetsTopic)
	if err != nil {
		return nil, false, err
	}
	t, found := md.Topics[offsetsTopic]
	if !found || t.Err != nil || len(t.Partitions) == 0 {
		return nil, false, nil
	}
	want := map[string]bool{}
	from := map[int32]kgo.Offset{}
	for _, id := range ids {
		want[id] = true
		from[javaAbs(assign.JavaStringHash(id))%int32(len(t.Partitions))] = kgo.NewOffset().AtStart()
	}
	var parts []int32
	for p := range from {
		parts = append(parts, p)
	}
	ends, err := r.admin.ListEndOffsets(ctx, offsetsTopic)
	if err == nil {
		err = ends.Error()
	}
	if err != nil {
		return nil, false, err
	}
	left := map[int32]int64{}
	for _, p := range parts {
		if end, ok := ends.Lookup(offsetsTopic, p); ok && end.Offset > 0 {
			left[p] = end.Offset
		}
	}
	generations = map[string]int{}
	if len(left) == 0 {
		return generations, true, nil
	}
	err = r.readBack(ctx, "the group coordinator's records to be read back", map[string]map[int32]kgo.Offset{offsetsTopic: from}, func(rec *kgo.Record) {
		if rec.Offset+1 >= left[rec.Partition] {
			delete(left, rec.Partition)
		}
		var key kmsg.GroupMetadataKey
		if len(rec.Key) < 2 || binary.BigEndian.Uint16(rec.Key) != 2 || key.ReadFrom(rec.Key) != nil || !want[key.Group] {
			return // an offset commit's record, or another group's
		}
		if rec.Value == nil {
			generations[key.Group] = 0
			return
		}
		var value kmsg.GroupMetadataValue
		// The generation is the value's second field: newer versions'
		// later fields do not change it.
		_ = value.ReadFrom(rec.Value)
		generations[key.Group] = int(value.Generation)
	}, func() bool { return len(left) == 0 })
	return generations, err == nil, err
}

// javaAbs is Kafka's Utils.abs: the absolute value, 0 for the least int.
func javaAbs(n int32) int32 {
	if n == math.MinInt32 {
		return 0
	}
	if n < 0 {
		return -n
	}
	return n
}
