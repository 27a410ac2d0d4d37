package kafkarun

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
	"plog/core/scenario"
)

// Named producers on the cluster: each producer-config is a franz-go client
// of its own, made with the producer's configs as the playground applied
// them (core.ProducerConfig, Kafka 4.4's ProducerConfig after
// postProcessAndValidateIdempotenceConfigs), and a produce with producer=
// goes through it.

// producerRun is one named producer of the script on the cluster.
type producerRun struct {
	name   string
	config core.ProducerConfig
	client *kgo.Client
	// id and epoch are the producer id and epoch the client last held
	// (kgo.Client.ProducerID), read after init, commit and abort; known
	// says it has them (a transactional producer before init has none).
	id     int64
	epoch  int16
	known  bool
	faults *wireFaults // what its connections lose (producer_wire.go)
	inTxn  bool        // a transaction begun and not ended
	// wrote and sentOffsets say what the open transaction holds: records,
	// a group's offsets.
	wrote, sentOffsets bool
}

// txnTimeout is the least transaction.timeout.ms a transactional producer
// has on the cluster: 5 minutes, below the brokers' transaction.max.timeout.ms
// (15 minutes, Kafka 4.4 TransactionStateManagerConfig).
const txnTimeout = 5 * time.Minute

// producerOpts are the franz-go options of a named producer's client.
// franz-go's defaults are Kafka's where it has them (acks all, idempotent
// writes); the rest are set from the playground's config.
func (r *runner) producerOpts(cfg core.ProducerConfig, faults *wireFaults) []kgo.Opt {
	opts := []kgo.Opt{
		kgo.SeedBrokers(r.opts.Brokers...),
		r.wireDialer(faults),
		// A batch whose connection was cut waits for fresh metadata
		// before it goes again: a short minimum age and backoff keep
		// the retries of a wire fault quick.
		kgo.RetryBackoffFn(func(int) time.Duration { return wireRetryBackoff }),
		kgo.MetadataMinAge(wireRetryBackoff),
		kgo.DialTimeout(r.opts.DialTimeout),
		kgo.RetryTimeout(r.opts.WaitTimeout),
		kgo.RecordPartitioner(scriptPartitioner{}),
		// A command's records are flushed together, one batch per
		// partition, as the run's own producer sends them (topics.go).
		kgo.ManualFlushing(),
		kgo.RecordRetries(int(min(cfg.Retries, math.MaxInt32))),
		// franz-go takes request timeouts from 100ms and batches of 512
		// bytes to its largest write (100 MB); linger.ms does not apply
		// to flushed records.
		kgo.ProduceRequestTimeout(max(time.Duration(cfg.RequestTimeoutMs)*time.Millisecond, 100*time.Millisecond)),
		kgo.RecordDeliveryTimeout(time.Duration(cfg.DeliveryTimeoutMs) * time.Millisecond),
		kgo.ProducerBatchMaxBytes(int32(min(max(cfg.BatchSize, 512), 100<<20))),
	}
	switch cfg.Acks {
	case core.Acks0:
		opts = append(opts, kgo.RequiredAcks(kgo.NoAck()))
	case core.Acks1:
		opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()))
	default:
		opts = append(opts, kgo.RequiredAcks(kgo.AllISRAcks()))
	}
	if !cfg.Idempotence {
		// franz-go takes max in flight only without idempotence; with it
		// the client keeps 5, as Kafka's does.
		opts = append(opts, kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(cfg.MaxInFlight))
	}
	if cfg.TransactionalID != "" {
		// Prefixed, as topics and groups are, so that runs side by side
		// never fence each other.
		// The playground's transaction.timeout.ms runs in virtual time
		// (markProducerEvents explains the transactions it aborted): a
		// timeout as long as txnTimeout keeps the wall clock from
		// aborting others on the cluster while the run goes on.
		timeout := max(time.Duration(cfg.TransactionTimeoutMs)*time.Millisecond, txnTimeout)
		opts = append(opts, kgo.TransactionalID(r.opts.Prefix+cfg.TransactionalID), kgo.TransactionTimeout(timeout))
	}
	return append(opts, r.opts.ClientOpts...)
}

// producerView is the playground's named producer as it is now.
func (r *runner) producerView(name string) (core.ProducerView, bool) {
	for _, v := range r.session.Log().Producers() {
		if v.Name == name {
			return v, true
		}
	}
	return core.ProducerView{}, false
}

// applyProducerCommand runs producer-config, wire and txn on the cluster.
func (r *runner) applyProducerCommand(ctx context.Context, c scenario.Command) error {
	name := c.Positional(0)
	switch c.Name {
	case scenario.CmdProducerConfig:
		return r.configureProducer(name)
	case scenario.CmdWire:
		// The produce the fault hits makes it on the cluster, where it
		// can (producer_wire.go).
		return nil
	case scenario.CmdTxn:
		return r.txn(ctx, c)
	}
	return nil
}

// configureProducer makes a named producer's client, or makes it anew for
// a producer reconfigured before it sent anything (as the playground
// allows: Kafka reads a producer's configs once, when it is made).
func (r *runner) configureProducer(name string) error {
	v, ok := r.producerView(name)
	if !ok {
		return fmt.Errorf("the playground has no producer %s", name)
	}
	if old := r.txns.producers[name]; old != nil {
		old.client.Close()
	}
	faults := new(wireFaults)
	client, err := kgo.NewClient(r.producerOpts(v.Config, faults)...)
	if err != nil {
		return fmt.Errorf("producer %s: %v", name, err)
	}
	if _, ok := r.txns.producers[name]; !ok {
		r.txns.producerNames = append(r.txns.producerNames, name)
	}
	r.txns.producers[name] = &producerRun{name: name, config: v.Config, client: client, faults: faults}
	return nil
}

// produceAs is produce with producer=NAME: count copies of each of values=
// (or of value=), through the named producer's client, placed by its
// partitioner, inside its transaction when it is transactional.
func (r *runner) produceAs(ctx context.Context, c scenario.Command, name string) error {
	p := r.txns.producers[name]
	if p == nil {
		return fmt.Errorf("producer %s was not made on the cluster", name)
	}
	topic := c.Positional(0)
	count, err := c.CountOr("count", 1)
	if err != nil {
		return err
	}
	partition, err := c.CountOr("partition", -1)
	if err != nil {
		return err
	}
	key, hasKey := c.Value("key")
	value, _ := c.Value("value")
	values := []string{value}
	if list, ok := c.Value("values"); ok {
		values, count = strings.Split(list, ","), 1
	}
	partitioner := p.config.Partitioner
	if partitioner == "" {
		partitioner = core.PartitionerDefault
	}
	recCtx := ctx
	switch {
	case partition >= 0:
		recCtx = context.WithValue(ctx, placedKey{}, true)
	case !hasKey || partitioner == core.PartitionerRoundRobin:
		recCtx = context.WithValue(ctx, keylessKey{}, partitioner)
	}
	var records []*kgo.Record
	for _, v := range values {
		for range count {
			rec := &kgo.Record{Topic: r.opts.Prefix + topic, Partition: int32(partition), Context: recCtx}
			if hasKey {
				rec.Key = []byte(key)
			}
			if !c.HasFlag("tombstone") {
				rec.Value = []byte(v)
			}
			records = append(records, rec)
		}
	}
	p.wrote = p.wrote || p.inTxn
	defer r.armWireFaults(c, p)()
	var before kadm.ListedOffsets
	if p.config.Acks == core.Acks0 {
		if before, err = r.admin.ListEndOffsets(ctx, r.opts.Prefix+topic); err != nil {
			return fmt.Errorf("producer %s: the end offsets of %s: %w", name, r.opts.Prefix+topic, err)
		}
	}
	if err := sendThrough(ctx, p.client, records); err != nil {
		return fmt.Errorf("producer %s producing to %s: %w", name, r.opts.Prefix+topic, err)
	}
	if before != nil {
		if err := r.awaitUnacknowledged(ctx, before, records); err != nil {
			return fmt.Errorf("producer %s (acks=0): %w", name, err)
		}
	}
	if partition < 0 && (!hasKey || partitioner == core.PartitionerRoundRobin) {
		r.marks.keyless(c.Line, topic, partitioner, r.partitions[topic], records)
	}
	return nil
}

// sendThrough produces records through a client and flushes them, so that
// the records of one partition go in one batch.
func sendThrough(ctx context.Context, client *kgo.Client, records []*kgo.Record) error {
	errs := make([]error, len(records))
	var wg sync.WaitGroup
	wg.Add(len(records))
	for i, rec := range records {
		client.Produce(ctx, rec, func(_ *kgo.Record, err error) {
			errs[i] = err
			wg.Done()
		})
	}
	if err := within(ctx, func() error { return client.Flush(ctx) }); err != nil {
		return err
	}
	wg.Wait()
	return errors.Join(errs...)
}

// awaitUnacknowledged waits until the broker has appended records sent
// with acks=0: the client's flush ends once they are written to the
// connection, before the broker has them, so the state read next could
// miss them (the playground appends at once). before holds the partitions'
// end offsets read before the records were sent.
func (r *runner) awaitUnacknowledged(ctx context.Context, before kadm.ListedOffsets, records []*kgo.Record) error {
	want := map[string]map[int32]int64{}
	for _, rec := range records {
		if want[rec.Topic] == nil {
			want[rec.Topic] = map[int32]int64{}
		}
		if _, ok := want[rec.Topic][rec.Partition]; !ok {
			base, _ := before.Lookup(rec.Topic, rec.Partition)
			want[rec.Topic][rec.Partition] = base.Offset
		}
		want[rec.Topic][rec.Partition]++
	}
	topics := slices.Collect(maps.Keys(want))
	return r.waitFor(ctx, "the broker to append records sent with acks=0", func() (bool, error) {
		ends, err := r.admin.ListEndOffsets(ctx, topics...)
		var shards *kadm.ShardErrors
		if errors.As(err, &shards) {
			return false, nil // a leader that did not answer: ask again
		} else if err != nil {
			return false, err
		}
		for topic, partitions := range want {
			for partition, end := range partitions {
				if o, ok := ends.Lookup(topic, partition); !ok || o.Err != nil || o.Offset < end {
					return false, nil
				}
			}
		}
		return true, nil
	})
}

// closeProducers aborts the transactions the script left open, so that
// they do not hold the partitions' last stable offsets until their
// timeouts, and closes the producers' clients, within ctx.
func (r *runner) closeProducers(ctx context.Context) {
	for _, name := range r.txns.producerNames {
		p := r.txns.producers[name]
		if p.inTxn {
			within(ctx, func() error { return p.client.EndTransaction(ctx, kgo.TryAbort) })
		}
		p.client.Close()
	}
}
