package core

import (
	"fmt"
	"maps"
	"slices"
	"strconv"

	"plog/core/units"
)

// Named producers: a producer the scenario configures once and produces
// through (ProduceAs), with Kafka's producer configs and the state the
// broker gives it (its producer id and epoch, from InitProducerId) and
// keeps for it (its sequence numbers per partition). An anonymous produce
// (Produce) is a producer with Kafka's defaults that never retries, which
// is what it always was: it takes no producer id, and nothing here changes
// it.

// ProducerConfig is a named producer's configuration: ProducerConfig of
// kafka-clients 4.4, as postProcessAndValidateIdempotenceConfigs leaves it.
type ProducerConfig struct {
	Acks string // "0", "1" or "all"
	// Idempotence is enable.idempotence as it applies: Kafka's default
	// (true) turns off, with a line in the client's log, when acks is not
	// all, retries is 0 or max.in.flight.requests.per.connection is above 5
	// and the learner did not set it; set explicitly, those combinations
	// are refused (ConfigException).
	Idempotence          bool
	MaxInFlight          int   // max.in.flight.requests.per.connection
	Retries              int64 // retries
	DeliveryTimeoutMs    int64 // delivery.timeout.ms
	RequestTimeoutMs     int64 // request.timeout.ms
	LingerMs             int64 // linger.ms (kept; the playground sends one record a batch)
	BatchSize            int64 // batch.size (kept; likewise)
	Partitioner          string
	TransactionalID      string // transactional.id; "" for none
	TransactionTimeoutMs int64  // transaction.timeout.ms
}

// TransactionalIDConfig is the producer config that names a transactional
// producer; it is not in the config registry, as it is a name, not a
// setting with a default.
const TransactionalIDConfig = "transactional.id"

// producerConfigNames are the configs NewProducer reads, in the order it
// reads them.
var producerConfigNames = []string{"acks", "batch.size", "delivery.timeout.ms", "enable.idempotence", "linger.ms",
	"max.in.flight.requests.per.connection", "partitioner", "request.timeout.ms", "retries",
	"transaction.timeout.ms", TransactionalIDConfig}

// parseProducerConfig reads configs over Kafka's defaults and checks them
// as ProducerConfig of kafka-clients 4.4 does (its
// postProcessAndValidateIdempotenceConfigs, and KafkaProducer's
// configureDeliveryTimeout), with its words.
func parseProducerConfig(configs map[string]string) (ProducerConfig, error) {
	c := ProducerConfig{Acks: AcksAll, Idempotence: true}
	for name := range configs {
		if !slices.Contains(producerConfigNames, name) {
			return c, fmt.Errorf("unknown producer config %q: a producer takes %v", name, producerConfigNames)
		}
	}
	value := func(name string) string {
		if v, ok := configs[name]; ok {
			return v
		}
		d, _ := LookupConfig(OnProduce, name)
		return d.DefaultValue()
	}
	var err error
	number := func(name string) int64 {
		if err != nil {
			return 0
		}
		d, _ := LookupConfig(OnProduce, name)
		spec := configSpec{ConfigDef: d}
		n, perr := spec.parseNumber(value(name))
		if perr != nil {
			err = fmt.Errorf("%s: %v", name, perr)
		}
		return n
	}
	c.BatchSize = number("batch.size")
	c.DeliveryTimeoutMs = number("delivery.timeout.ms")
	c.LingerMs = number("linger.ms")
	c.MaxInFlight = int(number("max.in.flight.requests.per.connection"))
	c.RequestTimeoutMs = number("request.timeout.ms")
	c.Retries = number("retries")
	c.TransactionTimeoutMs = number("transaction.timeout.ms")
	if err != nil {
		return c, err
	}
	switch a := value("acks"); a {
	case AcksAll, "-1":
		c.Acks = AcksAll
	case Acks0, Acks1:
		c.Acks = a
	default:
		return c, fmt.Errorf("acks must be 0, 1 or all, got %q", a)
	}
	c.Partitioner = configs["partitioner"]
	c.TransactionalID = configs[TransactionalIDConfig]
	if _, set := configs[TransactionalIDConfig]; set && c.TransactionalID == "" {
		return c, fmt.Errorf("transactional.id cannot be empty")
	}
	// postProcessAndValidateIdempotenceConfigs (ProducerConfig, Kafka 4.4).
	explicit := false
	if v, ok := configs["enable.idempotence"]; ok {
		b, perr := strconv.ParseBool(v)
		if perr != nil {
			return c, fmt.Errorf("enable.idempotence must be true or false, got %q", v)
		}
		explicit, c.Idempotence = b, b
	}
	if c.Idempotence {
		conflict := ""
		switch {
		case c.Retries == 0:
			conflict = "Must set retries to non-zero when using the idempotent producer."
		case c.Acks != AcksAll:
			conflict = "Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence."
		case c.MaxInFlight > 5:
			conflict = fmt.Sprintf("To use the idempotent producer, max.in.flight.requests.per.connection must be set to at most 5. Current value is %d.", c.MaxInFlight)
		}
		if conflict != "" && explicit {
			return c, fmt.Errorf("ConfigException: %s", conflict)
		}
		if conflict != "" {
			c.Idempotence = false // "Idempotence will be disabled because ..."
		}
	}
	if c.TransactionalID != "" && !c.Idempotence {
		//lint:ignore ST1005 Kafka's own words (ProducerConfig's ConfigException)
		return c, fmt.Errorf("ConfigException: Cannot set a transactional.id without also enabling idempotence.")
	}
	// KafkaProducer.configureDeliveryTimeout (Kafka 4.4) refuses a
	// delivery.timeout.ms the learner set below the other two; left at its
	// default it is raised to their sum instead.
	if c.DeliveryTimeoutMs < c.LingerMs+c.RequestTimeoutMs {
		if _, set := configs["delivery.timeout.ms"]; set {
			return c, fmt.Errorf("ConfigException: delivery.timeout.ms should be equal to or larger than linger.ms + request.timeout.ms")
		}
		c.DeliveryTimeoutMs = c.LingerMs + c.RequestTimeoutMs
	}
	return c, nil
}

// Entries lists the configuration in canonical text, by name.
func (c ProducerConfig) Entries() []ConfigEntry {
	entries := []ConfigEntry{
		{Name: "acks", Value: c.Acks},
		{Name: "batch.size", Value: units.Size(c.BatchSize)},
		{Name: "delivery.timeout.ms", Value: units.Duration(c.DeliveryTimeoutMs)},
		{Name: "enable.idempotence", Value: strconv.FormatBool(c.Idempotence)},
		{Name: "linger.ms", Value: units.Duration(c.LingerMs)},
		{Name: "max.in.flight.requests.per.connection", Value: strconv.Itoa(c.MaxInFlight)},
		{Name: "partitioner", Value: cmpOr(c.Partitioner, PartitionerDefault)},
		{Name: "request.timeout.ms", Value: units.Duration(c.RequestTimeoutMs)},
		{Name: "retries", Value: strconv.FormatInt(c.Retries, 10)},
		{Name: "transaction.timeout.ms", Value: units.Duration(c.TransactionTimeoutMs)},
	}
	if c.TransactionalID != "" {
		entries = append(entries, ConfigEntry{Name: TransactionalIDConfig, Value: c.TransactionalID})
	}
	return entries
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// noProducerID is a producer id not yet given (Kafka's
// RecordBatch.NO_PRODUCER_ID).
const noProducerID = -1

// producer is one named producer: the client's state.
type producer struct {
	name   string
	config ProducerConfig
	id     int64 // from InitProducerId; noProducerID before
	epoch  int
	// seq is the next sequence number per partition (Kafka's
	// TransactionManager.sequenceNumber), from 0 for each producer id and
	// epoch.
	seq map[TopicPartition]int32
	// requests counts the produce requests sent, retries included: the
	// wire faults name the requests they hit by this count.
	requests int64
	faults   []wireFault
	txn      producerTxn // the transactional producer's state (txn.go)
	fenced   string      // why a fenced producer can do nothing more; "" otherwise
}

func (p *producer) clone() *producer {
	c := *p
	c.seq = maps.Clone(p.seq)
	c.faults = slices.Clone(p.faults)
	c.txn = p.txn.clone()
	return &c
}

// producerState is the engine's producers, and the brokers' state about
// them: the next producer id, the transaction coordinator's entries.
type producerState struct {
	byName map[string]*producer
	names  []string // sorted
	// nextID is the next producer id the brokers give out (Kafka's
	// ProducerIdManager hands out blocks from 0; the playground counts).
	nextID int64
	// coordinator holds the transaction coordinator's state, by
	// transactional.id (txn.go).
	coordinator map[string]*txnMetadata
	txnIDs      []string // sorted
}

func (s producerState) clone() producerState {
	c := producerState{names: slices.Clone(s.names), nextID: s.nextID, txnIDs: slices.Clone(s.txnIDs)}
	if s.byName != nil {
		c.byName = make(map[string]*producer, len(s.byName))
		for n, p := range s.byName {
			c.byName[n] = p.clone()
		}
	}
	if s.coordinator != nil {
		c.coordinator = make(map[string]*txnMetadata, len(s.coordinator))
		for id, m := range s.coordinator {
			c.coordinator[id] = m.clone()
		}
	}
	return c
}

// MaxProducers is the most named producers a scenario may have.
const MaxProducers = 100

// NewProducer creates a named producer with the given configs (Kafka's
// names; unset ones take Kafka 4.4's defaults), or reconfigures one that
// has sent nothing yet. An idempotent producer that is not transactional
// gets its producer id from the brokers at once, as KafkaProducer's
// constructor asks for it (InitProducerId); a transactional one gets it
// from InitTransactions.
func (l *PartitionedLog) NewProducer(name string, configs map[string]string) error {
	if err := validTopicName(name); err != nil {
		return fmt.Errorf("producer name: %v", err)
	}
	c, err := parseProducerConfig(configs)
	if err != nil {
		return fmt.Errorf("producer %s: %v", name, err)
	}
	if err := l.checkPartitioner(c.Partitioner); err != nil {
		return fmt.Errorf("producer %s: %v", name, err)
	}
	s := &l.producers
	if old, ok := s.byName[name]; ok {
		if old.requests > 0 || old.txn.state != txnUninitialized {
			return fmt.Errorf("producer %s has already sent requests: its configs are fixed (Kafka reads a producer's configs once, when it is made)", name)
		}
	} else if len(s.names) >= MaxProducers {
		return fmt.Errorf("a scenario may have at most %d producers", MaxProducers)
	}
	p := &producer{name: name, config: c, id: noProducerID, seq: map[TopicPartition]int32{}}
	if c.Idempotence && c.TransactionalID == "" {
		p.id, p.epoch = s.nextID, 0
		s.nextID++
	}
	if s.byName == nil {
		s.byName = map[string]*producer{}
	}
	if _, ok := s.byName[name]; !ok {
		i, _ := slices.BinarySearch(s.names, name)
		s.names = slices.Insert(s.names, i, name)
	}
	s.byName[name] = p
	return nil
}

func (l *PartitionedLog) producer(name string) (*producer, error) {
	p, ok := l.producers.byName[name]
	if !ok {
		return nil, fmt.Errorf("unknown producer %q: make it with producer-config first", name)
	}
	return p, nil
}

// ProducerView is what the page and the CLI show of a named producer.
type ProducerView struct {
	Name   string
	Config ProducerConfig
	// ID and Epoch are its producer id and epoch; ID is -1 for a producer
	// that has none (idempotence off, or a transactional producer before
	// InitTransactions).
	ID    int64
	Epoch int
	// Sequences are the next sequence number per partition, sorted.
	Sequences []PartitionSequence
	// TransactionState is a transactional producer's state (uninitialized,
	// ready, in-transaction, fenced), "" for another producer.
	TransactionState string
	// Partitions are the partitions of its open transaction, sorted.
	Partitions []TopicPartition
	Fenced     string // why it is fenced, "" when it is not
	Requests   int64  // produce requests sent, retries included
	// Faults are the wire faults still to hit its requests, in the order
	// they were added, at most MaxFaultsShown of them.
	Faults []PendingFault
}

// PendingFault is a wire fault still to hit a producer's requests: Count
// requests after the next After.
type PendingFault struct {
	Fault        WireFault
	After, Count int64
}

// MaxFaultsShown bounds the pending faults a ProducerView lists: a view
// is drawn at every step, and 1,000 pending faults say no more than three.
const MaxFaultsShown = 3

// PartitionSequence is a producer's next sequence number on a partition.
type PartitionSequence struct {
	TopicPartition
	Next int32
}

// Producers returns the named producers, sorted by name.
func (l *PartitionedLog) Producers() []ProducerView {
	views := make([]ProducerView, 0, len(l.producers.names))
	for _, name := range l.producers.names {
		p := l.producers.byName[name]
		v := ProducerView{Name: name, Config: p.config, ID: p.id, Epoch: p.epoch, Fenced: p.fenced, Requests: p.requests}
		for tp, n := range p.seq {
			v.Sequences = append(v.Sequences, PartitionSequence{tp, n})
		}
		for _, f := range p.faults {
			if f.to <= p.requests || len(v.Faults) == MaxFaultsShown {
				continue
			}
			from := max(f.from, p.requests)
			v.Faults = append(v.Faults, PendingFault{Fault: f.kind, After: from - p.requests, Count: f.to - from})
		}
		slices.SortFunc(v.Sequences, func(a, b PartitionSequence) int { return compareTP(a.TopicPartition, b.TopicPartition) })
		if p.config.TransactionalID != "" {
			v.TransactionState = p.txn.state.String()
			if m := l.txnOf(p); p.fenced != "" || m != nil && p.txn.state != txnUninitialized && (m.producerID != p.id || m.epoch > p.epoch) {
				// Fenced, though it learns so only at its next call
				// (checkFenced).
				v.TransactionState = "fenced"
			}
			if m := l.txnOf(p); m != nil && m.owner == name && m.state == txnOngoing {
				v.Partitions = slices.Clone(m.partitions)
			}
		}
		views = append(views, v)
	}
	return views
}

func compareTP(a, b TopicPartition) int {
	if a.Topic != b.Topic {
		if a.Topic < b.Topic {
			return -1
		}
		return 1
	}
	return a.Partition - b.Partition
}
