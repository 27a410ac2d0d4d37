package kafkarun

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
	"plog/core/scenario"
)

// kafkaConfig turns a topic config the script set into the raw value Kafka
// takes (milliseconds, bytes), reading the typed value the playground
// parsed. ok is false for configs not sent to the broker: the playground's
// own (the registry's scope playground: segment.records, partitioner), and
// segment.bytes and segment.ms, whose values in the playground are far below
// what brokers accept (segments only shape retention and compaction, which
// are not compared).
func kafkaConfig(name string, cfg core.TopicConfig) (value string, ok bool) {
	def, known := core.LookupConfig(core.OnTopic, name)
	if !known || def.Kafka() == "" || segmentConfig(name) {
		return "", false
	}
	return cfg.KafkaValue(name)
}

// segmentConfig reports whether a config only shapes segments.
func segmentConfig(name string) bool { return name == "segment.bytes" || name == "segment.ms" }

// topicConfigs returns the Kafka configs a topic or config command sets,
// and notes the ones it does not send.
func (r *runner) topicConfigs(c scenario.Command, topic string) (map[string]*string, error) {
	cfg, err := r.session.Log().TopicConfig(topic)
	if err != nil {
		return nil, err
	}
	configs := map[string]*string{}
	for _, a := range c.Args {
		if a.Name == "" || a.Flag || a.Name == "partitions" || a.Name == "replication.factor" {
			continue
		}
		if v, ok := kafkaConfig(a.Name, cfg); ok {
			configs[a.Name] = &v
		} else {
			r.marks.note(fmt.Sprintf("topic %s: %s=%s is not sent to the broker (%s)", topic, a.Name, a.Value, notSentWhy(a.Name)))
		}
	}
	return configs, nil
}

// defaultConfigs adds to a new topic's configs those the command left at
// the playground's default where that default is not Kafka's (retention.ms's
// 1h, delete.retention.ms's 10m, as the config registry says): the broker
// gets the playground's values, not its own. The rest are Kafka's defaults
// on both sides (conformance/config_defaults_test.go checks the registry's
// against Kafka's own). Segments' configs stay the broker's (kafkaConfig).
func (r *runner) defaultConfigs(topic string, configs map[string]*string) error {
	cfg, err := r.session.Log().TopicConfig(topic)
	if err != nil {
		return err
	}
	for _, e := range cfg.Entries() {
		def, _ := core.LookupConfig(core.OnTopic, e.Name)
		if _, set := configs[e.Name]; set || def.Kafka() == "" || e.Name == "replication.factor" || e.Value == def.KafkaDefault {
			continue
		}
		if v, ok := kafkaConfig(e.Name, cfg); ok {
			configs[e.Name] = &v
		}
	}
	return nil
}

func notSentWhy(name string) string {
	if def, ok := core.LookupConfig(core.OnTopic, name); ok && def.Kafka() == "" {
		return "a playground-only config"
	}
	if segmentConfig(name) {
		return "brokers refuse segments as small as the playground's; segments only shape retention and compaction, which are not compared"
	}
	return "not a config the run sends"
}

func (r *runner) createTopic(ctx context.Context, c scenario.Command) error {
	topic := c.Positional(0)
	partitions, err := c.CountOr("partitions", 1)
	if err != nil {
		return err
	}
	configs, err := r.topicConfigs(c, topic)
	if err != nil {
		return err
	}
	if err := r.defaultConfigs(topic, configs); err != nil {
		return err
	}
	replicas := -1 // the broker's default.replication.factor
	if c.Has("replication.factor") {
		if replicas, err = r.fitReplicas(ctx, c, configs); err != nil {
			return err
		}
	}
	resp, err := r.admin.CreateTopic(ctx, int32(partitions), int16(replicas), configs, r.opts.Prefix+topic)
	if err == nil {
		err = resp.Err
		if err != nil && resp.ErrMessage != "" {
			err = fmt.Errorf("%w: %s", err, resp.ErrMessage)
		}
	}
	if errors.Is(err, kerr.InvalidReplicationFactor) {
		return fmt.Errorf("creating topic %s: the cluster has fewer brokers than replication.factor=%d (%w)", r.opts.Prefix+topic, replicas, err)
	}
	if errors.Is(err, kerr.TopicAlreadyExists) {
		return fmt.Errorf("topic %s already exists on the cluster; run with another --prefix", r.opts.Prefix+topic)
	}
	if err != nil {
		return fmt.Errorf("creating topic %s: %w", r.opts.Prefix+topic, err)
	}
	r.created = append(r.created, topic)
	r.partitions[topic] = int(partitions)
	return r.waitForPartitions(ctx, topic, int(partitions))
}

// fitReplicas lowers a replication factor the cluster has too few brokers
// for (a playground scenario may have three brokers, a learner's machine
// one), and min.insync.replicas with it, so that the topic can be created
// and written with acks=all. The comparison is of the log, which does not
// depend on how many copies it has. configs are the topic command's, as
// they go to the broker.
func (r *runner) fitReplicas(ctx context.Context, c scenario.Command, configs map[string]*string) (int, error) {
	topic := c.Positional(0)
	want, err := c.Count("replication.factor")
	if err != nil {
		return 0, err
	}
	brokers, err := r.admin.ListBrokers(ctx)
	if err != nil {
		return 0, err
	}
	have := int64(len(brokers))
	if have == 0 || want <= have {
		return int(want), nil
	}
	r.marks.note(fmt.Sprintf("topic %s: replication.factor=%d lowered to %d, the cluster's number of brokers", topic, want, have))
	if c.Has("min.insync.replicas") {
		n, err := c.Count("min.insync.replicas")
		if err != nil {
			return 0, err
		}
		if n > have {
			lowered := strconv.FormatInt(have, 10)
			configs["min.insync.replicas"] = &lowered
			r.marks.note(fmt.Sprintf("topic %s: min.insync.replicas=%d lowered to %d with it", topic, n, have))
		}
	}
	return int(have), nil
}

// waitForPartitions waits until the topic has n partitions whose leaders
// serve them: creating topics and partitions is asynchronous in Kafka.
//
// Metadata shows a partition's leader a moment before that broker leads it:
// Kafka 4.4's BrokerMetadataPublisher.onMetadataUpdate sets the metadata
// cache, which answers Metadata, before ReplicaManager.applyDelta makes the
// broker the partition's leader and creates its log, and until then the
// broker answers a produce to it NOT_LEADER_OR_FOLLOWER without writing it
// (ReplicaManager.getPartitionOrError). The client retries, which hides
// that, but a wire fault that loses the answer to the first produce would
// lose that refusal instead of an append's (producer_wire.go). So the run
// also waits until each partition's leader answers ListOffsets for it,
// which it does from the partition it leads
// (ReplicaManager.fetchOffsetForTimestamp).
func (r *runner) waitForPartitions(ctx context.Context, topic string, n int) error {
	name := r.opts.Prefix + topic
	return r.waitFor(ctx, fmt.Sprintf("topic %s to have %d partitions whose leaders serve them", name, n), func() (bool, error) {
		md, err := r.admin.Metadata(ctx, name)
		if err != nil {
			return false, err
		}
		t, ok := md.Topics[name]
		if !ok || t.Err != nil || len(t.Partitions) != n {
			return false, nil
		}
		for _, p := range t.Partitions {
			if p.Err != nil || p.Leader < 0 {
				return false, nil
			}
		}
		ends, err := r.admin.ListEndOffsets(ctx, name)
		var shards *kadm.ShardErrors
		if errors.As(err, &shards) {
			return false, nil // a leader that did not answer: ask again
		} else if err != nil {
			return false, err
		}
		served := 0
		var refused error
		ends.Each(func(o kadm.ListedOffset) {
			switch {
			case o.Err == nil:
				served++
			case !kerr.IsRetriable(o.Err):
				refused = o.Err // a missing permission, say
			}
		})
		return served == n, refused
	})
}

// waitFor calls done until it says true, fails, or WaitTimeout passes.
func (r *runner) waitFor(ctx context.Context, what string, done func() (bool, error)) error {
	return pollUntil(ctx, r.opts.WaitTimeout, what, done)
}

// How a record's partition is chosen, in its Context: placedKey for a
// record the script placed (partition=), keylessKey with the partitioner
// (keylessPartitioner) for a keyless one, and for a keyed one that
// partitioner=round-robin places; any other keyed record has neither and
// is hashed.
type (
	placedKey  struct{}
	keylessKey struct{}
)

// scriptPartitioner is the producer's partitioner as the scenario
// configures it, topic by topic: franz-go's partitioners, which are Kafka's
// Java client's. A keyed record goes by murmur2 of its key
// (StickyKeyPartitioner, Kafka's DefaultPartitioner and BuiltInPartitioner
// alike); a keyless one as its topic's partitioner config says when it was
// produced:
//
//   - round-robin: Kafka's Java client's RoundRobinPartitioner, a
//     counter per topic from 0 modulo the partition count (franz-go's
//     RoundRobinPartitioner starts over at 0 when the counter reaches the
//     count, which parts from Java's once partitions are added);
//   - sticky: one partition for a whole batch, another for the next
//     (StickyKeyPartitioner, Kafka 2.4 to 3.2's DefaultPartitioner,
//     KIP-480);
//   - anything else, Kafka 3.3 and later's built-in partitioner: one
//     partition until batch.size bytes (16 KB by default) went to it
//     (UniformBytesPartitioner, KIP-794's BuiltInPartitioner, with
//     partitioner.adaptive.partitioning.enable's default, true).
type scriptPartitioner struct{}

// batchSize is the Java producer's batch.size default (Kafka 4.x
// ProducerConfig), the bytes KIP-794's partitioner sends to a partition
// before it moves on.
const batchSize = 16384

func (scriptPartitioner) ForTopic(topic string) kgo.TopicPartitioner {
	return &scriptTopicPartitioner{
		keyed:      kgo.StickyKeyPartitioner(nil).ForTopic(topic),
		roundRobin: new(roundRobinPartitioner),
		sticky:     kgo.StickyKeyPartitioner(nil).ForTopic(topic),
		uniform:    kgo.UniformBytesPartitioner(batchSize, true, true, nil).ForTopic(topic),
	}
}

// scriptTopicPartitioner is one topic's. The client calls it for one
// record at a time (franz-go partitions under a lock), so last, the
// partitioner that placed the latest record, is the one a new batch
// concerns.
type scriptTopicPartitioner struct {
	keyed, roundRobin, sticky, uniform kgo.TopicPartitioner
	last                               kgo.TopicPartitioner
	// The client asks again for a record that starts a new batch, after
	// OnNewBatch (KIP-480): only the sticky partitioner moves then; the
	// others' answer is the one they gave, lastPick.
	lastPick int
	again    bool
}

func (p *scriptTopicPartitioner) pick(r *kgo.Record) kgo.TopicPartitioner {
	how, _ := r.Context.Value(keylessKey{}).(string)
	switch {
	case how == core.PartitionerRoundRobin: // keyed records too, as Java's RoundRobinPartitioner
		return p.roundRobin
	case r.Key != nil:
		return p.keyed
	case how == core.PartitionerSticky:
		return p.sticky
	}
	return p.uniform
}

func (p *scriptTopicPartitioner) RequiresConsistency(r *kgo.Record) bool {
	return isPlaced(r) || p.pick(r).RequiresConsistency(r)
}

func (p *scriptTopicPartitioner) Partition(r *kgo.Record, n int) int {
	panic("unreachable: the client calls PartitionByBackup")
}

func (p *scriptTopicPartitioner) PartitionByBackup(r *kgo.Record, n int, backup kgo.TopicBackupIter) int {
	if isPlaced(r) {
		p.again = false
		return int(r.Partition)
	}
	if p.again {
		p.again = false
		return p.lastPick
	}
	p.last = p.pick(r)
	if b, ok := p.last.(kgo.TopicBackupPartitioner); ok {
		p.lastPick = b.PartitionByBackup(r, n, backup)
	} else {
		p.lastPick = p.last.Partition(r, n)
	}
	return p.lastPick
}

// OnNewBatch tells the sticky partitioner that its partition's batch is
// done, so that it moves on, as the Java client's onNewBatch did; the
// others keep their choice.
func (p *scriptTopicPartitioner) OnNewBatch() {
	if b, ok := p.last.(kgo.TopicPartitionerOnNewBatch); ok && p.last == p.sticky {
		b.OnNewBatch()
		return
	}
	p.again = true
}

// roundRobinPartitioner is one topic's Java RoundRobinPartitioner (Kafka
// 4.x org.apache.kafka.clients.producer.RoundRobinPartitioner): the next
// value of a counter from 0, modulo the partitions.
type roundRobinPartitioner struct{ counter int }

func (*roundRobinPartitioner) RequiresConsistency(*kgo.Record) bool { return false }

func (p *roundRobinPartitioner) Partition(_ *kgo.Record, n int) int {
	p.counter++
	return (p.counter - 1) % n
}

func isPlaced(r *kgo.Record) bool {
	return r.Context != nil && r.Context.Value(placedKey{}) != nil
}

// keylessPartitioner is the partitioner that placed a produce command's
// keyless records in the playground (core/partitioner.go): under rules 1
// the topic's partitioner config; from rules 2 the producer's
// partitioner=, Kafka's built-in partitioner by default. all reports that
// it places keyed records too: Java's RoundRobinPartitioner ignores keys.
func keylessPartitioner(rules int, c scenario.Command, cfg core.TopicConfig) (partitioner string, all bool) {
	if !core.Follows(rules, core.BuiltInPartitioner) {
		return cfg.Partitioner, false
	}
	partitioner, _ = c.Value("partitioner")
	if partitioner == "" {
		partitioner = core.PartitionerDefault
	}
	return partitioner, partitioner == core.PartitionerRoundRobin
}

// flushEvery is how many records a produce command sends in one flush: a
// command's records go together, as one batch per partition, up to the
// client's buffer (franz-go's MaxBufferedRecords, 10,000 by default).
const flushEvery = 1000

func (r *runner) produce(ctx context.Context, c scenario.Command) error {
	topic := c.Positional(0)
	count, err := c.CountOr("count", 1)
	if err != nil {
		return err
	}
	partition, err := c.CountOr("partition", -1) // -1: no partition= in the script
	if err != nil {
		return err
	}
	key, hasKey := c.Value("key")
	value, _ := c.Value("value")
	// The partitioner the topic had when the playground produced: the
	// session has applied the command already.
	cfg, err := r.session.Log().TopicConfig(topic)
	if err != nil {
		return err
	}
	// A record's context is the command's, so that its deadline fails
	// the records that were not sent.
	partitioner, roundRobinAll := keylessPartitioner(r.session.Rules(), c, cfg)
	recCtx := ctx
	switch {
	case partition >= 0:
		recCtx = context.WithValue(ctx, placedKey{}, true)
	case !hasKey || roundRobinAll:
		recCtx = context.WithValue(ctx, keylessKey{}, partitioner)
	}
	var sent []*kgo.Record
	for from := int64(0); from < count; from += flushEvery {
		records := make([]*kgo.Record, min(flushEvery, count-from))
		for i := range records {
			rec := &kgo.Record{Topic: r.opts.Prefix + topic, Partition: int32(partition), Context: recCtx}
			if hasKey {
				rec.Key = []byte(key) // non-nil even when empty: "" is a key
			}
			if !c.HasFlag("tombstone") {
				rec.Value = []byte(value)
			}
			records[i] = rec
		}
		if err := r.send(ctx, records); err != nil {
			return fmt.Errorf("producing to %s: %w", r.opts.Prefix+topic, err)
		}
		sent = append(sent, records...)
	}
	if partition < 0 && (!hasKey || roundRobinAll) {
		r.marks.keyless(c.Line, topic, partitioner, r.partitions[topic], sent)
	}
	return nil
}

// send produces records together: buffered, then flushed at once, so that
// the records of one partition go in one batch.
func (r *runner) send(ctx context.Context, records []*kgo.Record) error {
	errs := make([]error, len(records))
	var wg sync.WaitGroup
	wg.Add(len(records))
	for i, rec := range records {
		r.base.Produce(ctx, rec, func(_ *kgo.Record, err error) {
			errs[i] = err
			wg.Done()
		})
	}
	// Flush waits for the answer to a batch it has sent, which a frozen
	// broker never gives.
	if err := within(ctx, func() error { return r.base.Flush(ctx) }); err != nil {
		return err
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func (r *runner) addPartitions(ctx context.Context, c scenario.Command) error {
	topic := c.Positional(0)
	n, err := c.Count("count")
	if err != nil {
		return err
	}
	count := int(n)
	resp, err := r.admin.UpdatePartitions(ctx, count, r.opts.Prefix+topic)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return fmt.Errorf("adding partitions to %s: %w", r.opts.Prefix+topic, err)
	}
	r.partitions[topic] = count
	if err := r.waitForPartitions(ctx, topic, count); err != nil {
		return err
	}
	if err := r.sharePartitionsAdded(ctx, topic); err != nil {
		return err
	}
	name := r.opts.Prefix + topic
	// Clients learn of new partitions from metadata; ask now rather than
	// at the next periodic refresh, minutes away. Under rules 1 to 3 the
	// playground's groups see them at once (from rules 4 at their
	// leader's refresh, which marks.go's ReasonMetadataRefresh explains),
	// so the run waits until every member that reads the topic has
	// them: a member that learns of them later, as a group's leader
	// (Kafka 4.x ConsumerCoordinator, franz-go alike) rejoins then, after
	// a rebalance that was to take them in, one more generation.
	for _, gname := range r.groupNames {
		for _, m := range r.groups[gname].members {
			m.client.ForceMetadataRefresh()
			if !slices.Contains(m.topics, topic) {
				continue
			}
			if err := r.waitFor(ctx, fmt.Sprintf("member %s of group %s to see %s's new partitions", m.name, gname, name), func() (bool, error) {
				leader, _, _ := m.client.PartitionLeader(name, int32(count-1))
				if leader < 0 {
					m.client.ForceMetadataRefresh()
				}
				return leader >= 0, nil
			}); err != nil {
				return err
			}
		}
	}
	if leader, _, _ := r.base.PartitionLeader(name, 0); leader < 0 {
		return nil // not produced to yet: the first produce loads fresh metadata
	}
	// Keyed records must be hashed over the new count, as the playground
	// does from now on.
	r.base.ForceMetadataRefresh()
	return r.waitFor(ctx, "the producer to see "+name+"'s new partitions", func() (bool, error) {
		leader, _, _ := r.base.PartitionLeader(name, int32(count-1))
		if leader < 0 {
			r.base.ForceMetadataRefresh()
		}
		return leader >= 0, nil
	})
}

func (r *runner) truncate(ctx context.Context, c scenario.Command) error {
	topic, partition, before, err := c.PartitionOffset(0, "before")
	if err != nil {
		return err
	}
	if r.marks.sticky[topic] {
		// The partitioners put keyless records elsewhere on each side:
		// an offset within the playground's partition may be past the
		// cluster's end, where DeleteRecords fails (OFFSET_OUT_OF_RANGE).
		// Truncating at the end deletes all there is, as the playground
		// does at its own.
		_, ends, err := r.offsets(ctx, topic)
		if err != nil {
			return err
		}
		if end := ends[tp{topic, partition}]; before > end {
			r.marks.note(fmt.Sprintf("line %d: %s: at %d on the cluster, the end of its partition, which the sticky partitioner filled otherwise", c.Line, c, end))
			before = end
		}
	}
	var os kadm.Offsets
	os.AddOffset(r.opts.Prefix+topic, int32(partition), before, -1)
	resp, err := r.admin.DeleteRecords(ctx, os)
	if err != nil {
		return fmt.Errorf("DeleteRecords on %s/%d: %w", r.opts.Prefix+topic, partition, err)
	}
	if d, ok := resp.Lookup(r.opts.Prefix+topic, int32(partition)); ok && d.Err != nil {
		return fmt.Errorf("DeleteRecords on %s/%d: %w", r.opts.Prefix+topic, partition, d.Err)
	}
	return nil
}

func (r *runner) alterTopicConfigs(ctx context.Context, c scenario.Command) error {
	topic := c.Positional(1)
	configs, err := r.topicConfigs(c, topic)
	if err != nil || len(configs) == 0 {
		return err
	}
	var alter []kadm.AlterConfig
	for name, v := range configs {
		alter = append(alter, kadm.AlterConfig{Op: kadm.SetConfig, Name: name, Value: v})
	}
	resp, err := r.admin.AlterTopicConfigs(ctx, alter, r.opts.Prefix+topic)
	if err == nil {
		for _, a := range resp {
			if a.Err != nil {
				err = fmt.Errorf("%w %s", a.Err, a.ErrMessage)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("altering the configs of %s: %w", r.opts.Prefix+topic, err)
	}
	return nil
}
