package kafkarun

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
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
	return st, nil
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
	opts := append([]kgo.Opt{
		kgo.SeedBrokers(r.opts.Brokers...),
		kgo.DialTimeout(r.opts.DialTimeout),
		kgo.ConsumePartitions(from),
		kgo.FetchMaxWait(100 * time.Millisecond),
	}, r.opts.ClientOpts...)
	reader, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	defer reader.Close()
	start := r.start.UnixMilli()
	err = r.waitFor(ctx, "the records to be read back", func() (bool, error) {
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
		fetches.EachRecord(func(rec *kgo.Record) {
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
			out[t] = append(out[t], rs)
			if rec.Offset+1 >= ends[t] {
				delete(left, t)
			}
		})
		return len(left) == 0, nil
	})
	return out, err
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
	for _, name := range slices.Sorted(slices.Values(r.groupNames)) {
		g := r.groups[name]
		d := described[g.id]
		committed, err := r.committed(ctx, g)
		if err != nil {
			return nil, err
		}
		gs := scenario.GroupState{
			Name: name, Generation: int(g.generation), Strategy: d.Protocol, State: clusterGroupState(d.State),
			Members: []scenario.MemberState{}, Offsets: []scenario.OffsetState{},
		}
		owners := map[tp]string{}
		read := map[tp]bool{}
		for t := range committed {
			read[t] = true
		}
		for _, dm := range d.Members {
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
