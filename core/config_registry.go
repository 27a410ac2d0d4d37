package core

import (
	"strconv"

	"plog/core/units"
)

// This file is the registry of every config the playground has: its name,
// where Kafka keeps it, its kind and unit, Kafka's default and the
// playground's where it differs, its bounds and a line of help. It is data
// only: the engine's rules stay with the engine (config.go, group_config.go,
// broker.go), which take their names, defaults and bounds from here, as do
// the scenario language's config tables (core/scenario/schema.go), the
// page's config forms and help (app/), and the bridge to real clusters
// (kafkarun/).
//
// Kafka's names and defaults are Apache Kafka 4.0's (and 4.4's: the
// conformance suite checks them against the 4.4.0 release's ConfigDefs,
// conformance/config_defaults_test.go): the topic configs'
// from TopicConfig and LogConfig (storage/.../log/LogConfig.java) with
// ServerLogConfigs, replica.lag.time.max.ms and default.replication.factor
// from ReplicationConfigs, the session timeout's bounds from
// GroupCoordinatorConfig (group.min.session.timeout.ms,
// group.max.session.timeout.ms), the consumer's from ConsumerConfig and
// CommonClientConfigs, acks from ProducerConfig.

// ConfigScope is who holds a config in Kafka.
type ConfigScope string

// The scopes of configs.
const (
	ScopeBroker   ConfigScope = "broker"
	ScopeTopic    ConfigScope = "topic"
	ScopeProducer ConfigScope = "producer"
	ScopeConsumer ConfigScope = "consumer"
	ScopeGroup    ConfigScope = "group"
	// ScopePlayground is a config of the playground's own, which Kafka
	// does not have.
	ScopePlayground ConfigScope = "playground"
)

// ConfigTarget is what a config is set on in the playground.
type ConfigTarget string

// The targets of configs: a topic (topic, config topic), a consumer group
// (config group), the cluster (brokers) and a produce (produce, producer);
// share groups' are OnShareGroup and OnShareMember (share_config.go).
const (
	OnTopic   ConfigTarget = "topic"
	OnGroup   ConfigTarget = "group"
	OnCluster ConfigTarget = "cluster"
	OnProduce ConfigTarget = "produce"
)

// ConfigKind is the type of a config's value.
type ConfigKind string

// The kinds of config values.
const (
	KindDuration ConfigKind = "duration" // milliseconds, written 500ms 10s 5m 2h 7d
	KindSize     ConfigKind = "size"     // bytes, written 512B 4KB 1MB 1GB
	KindCount    ConfigKind = "count"    // a whole number
	KindChoice   ConfigKind = "choice"   // one of Choices
	KindList     ConfigKind = "list"     // one of Choices, each a comma-separated list of words
	KindBool     ConfigKind = "bool"     // true or false
	KindRatio    ConfigKind = "ratio"    // a decimal between 0 and 1
)

// ConfigDef is one config. Defaults are written as scripts write them.
type ConfigDef struct {
	Name string // as scripts write it
	// KafkaName is Kafka's name where it differs from Name; "" when it is
	// the same, or when the config is the playground's own.
	KafkaName string
	Target    ConfigTarget
	Scope     ConfigScope
	Kind      ConfigKind
	Unit      string // what a number counts: ms, bytes, records, replicas; "" for words
	// Alias is an older name the language still reads, so that links
	// written with it keep opening; "" when there is none.
	Alias string
	// KafkaDefault is Kafka's default; "" for the playground's own configs.
	KafkaDefault string
	// Default is the playground's default under the latest rules where it
	// differs from Kafka's, and the default of the playground's own
	// configs; "" when it is Kafka's.
	Default string
	// Earlier holds the playground's defaults under older rules where they
	// were others (rules.go), so that old links replay as they were made:
	// each rules version's default is held here once, and DefaultUnder
	// reads it.
	Earlier  []EarlierDefault
	Min, Max int64 // bounds of a duration (ms), size (bytes) or count
	// KafkaMin is Kafka's least value where the playground's (Min, or -1
	// with MinusOne) is another; nil when they agree. The conformance
	// suite checks both against Kafka's ConfigDef.
	KafkaMin *int64
	MinusOne bool // -1 is allowed too: unlimited, or off
	// Since is the rule change that brought the config, none for one
	// every version has; Until the change that took it away, none for
	// none (rules.go).
	Since, Until RuleChange
	Choices      []string // the values of a choice or a list
	Help         string   // one line
	// ConsumerProtocol marks a group config of consumer groups only
	// (group.protocol=consumer): a classic group's listings leave it out.
	ConsumerProtocol bool
}

// Kafka returns the name Kafka knows the config by, "" when it has none.
func (d ConfigDef) Kafka() string {
	switch {
	case d.Scope == ScopePlayground:
		return ""
	case d.KafkaName != "":
		return d.KafkaName
	}
	return d.Name
}

// EarlierDefault is a config's default under the rules before Before.
type EarlierDefault struct {
	Before RuleChange // the change that brought the next default
	Value  string
}

// DefaultValue is the playground's default under the latest rules.
func (d ConfigDef) DefaultValue() string {
	if d.Default != "" {
		return d.Default
	}
	return d.KafkaDefault
}

// DefaultUnder is the playground's default under the given rules version.
func (d ConfigDef) DefaultUnder(rules int) string {
	for _, e := range d.Earlier {
		if !Follows(rules, e.Before) {
			return e.Value
		}
	}
	return d.DefaultValue()
}

// Under reports whether the config exists under a rules version.
func (d ConfigDef) Under(rules int) bool {
	return Follows(rules, d.Since) && (d.Until == noRuleChange || !Follows(rules, d.Until))
}

// Named reports whether name is the config's: its name, Kafka's, or its
// alias.
func (d ConfigDef) Named(name string) bool {
	return name != "" && (d.Name == name || d.KafkaName == name || d.Alias == name)
}

// DiffersFromKafka reports whether the playground departs from Kafka on
// this config under the latest rules: Kafka has no such config, or its
// default is another. (Defaults that were others under older rules, for old
// links, are Earlier's.)
func (d ConfigDef) DiffersFromKafka() bool {
	return d.Scope == ScopePlayground || d.Default != "" && d.Default != d.KafkaDefault || d.KafkaMin != nil
}

// kafkaMin is a KafkaMin value.
func kafkaMin(n int64) *int64 { return &n }

const (
	// minSegmentBytes is the playground's lower bound for segment.bytes,
	// Kafka's before 4.0 (LegacyRecord.RECORD_OVERHEAD_V0, in LogConfig),
	// so that a segment can hold a single small record.
	minSegmentBytes = 14
	// kafkaMinSegmentBytes is Kafka's lower bound for segment.bytes since
	// 4.0 (KIP-1030; LogConfig's atLeast(1024 * 1024) in Kafka 4.4).
	kafkaMinSegmentBytes = 1 << 20
	// maxSegmentBytes is Kafka's upper bound for segment.bytes (an int).
	maxSegmentBytes = 1<<31 - 1
	// maxSegmentRecords bounds segment.records.
	maxSegmentRecords = 1 << 40
	// maxIntMs is the most a Java int of milliseconds holds.
	maxIntMs = 1<<31 - 1
	// maxLagAlertRecords bounds lag.alert.records.
	maxLagAlertRecords = 1 << 62
)

// configRegistry holds every config, by target, each target's sorted by
// name: configs are processed and listed in that order, so that errors and
// output are deterministic.
var configRegistry = []ConfigDef{
	{Name: "cleanup.policy", Target: OnTopic, Scope: ScopeTopic, Kind: KindList,
		KafkaDefault: PolicyDelete, Choices: []string{PolicyDelete, PolicyCompact, PolicyCompactDelete},
		Help: "delete removes old segments by retention; compact keeps the latest record of each key; both do both."},
	{Name: "delete.retention.ms", Target: OnTopic, Scope: ScopeTopic, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "1d", Default: "10m", Min: 0, Max: maxDurationMs,
		Help: "How long a tombstone stays after the first cleaning that saw it."},
	{Name: "message.timestamp.type", Target: OnTopic, Scope: ScopeTopic, Kind: KindChoice,
		KafkaDefault: TimestampCreateTime, Choices: []string{TimestampCreateTime, TimestampLogAppendTime},
		Help: "Which clock a record's timestamp comes from: CreateTime, the producer's when it sent the record; LogAppendTime, the broker's when it appended it."},
	{Name: "min.compaction.lag.ms", Target: OnTopic, Scope: ScopeTopic, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "0", Min: 0, Max: maxDurationMs,
		Help: "A segment whose newest record is younger than this is not compacted."},
	{Name: "min.insync.replicas", Target: OnTopic, Scope: ScopeTopic, Kind: KindCount, Unit: "replicas",
		KafkaDefault: "1", Min: 1, Max: MaxBrokers,
		Help: "With acks=all, a write is refused (NOT_ENOUGH_REPLICAS) while fewer replicas than this are in sync; then the high watermark waits too (Kafka 3.7+), so acks=0 and acks=1 records stay uncommitted. Above the replication factor, every replica is needed."},
	{Name: "partitioner", Target: OnTopic, Scope: ScopePlayground, Kind: KindChoice,
		Default: PartitionerRoundRobin, Choices: []string{PartitionerRoundRobin, PartitionerSticky},
		Help: "Under rules 1 only: how records without a key are spread; under rules 2 the producer chooses, as in Kafka (partitioner.class)."},
	{Name: "replication.factor", Target: OnTopic, Scope: ScopeTopic, Kind: KindCount, Unit: "replicas",
		KafkaDefault: "1", Min: 1, Max: MaxBrokers,
		Help: "How many brokers hold a copy of each partition; set at creation (the broker's default.replication.factor is 1)."},
	{Name: "retention.bytes", Target: OnTopic, Scope: ScopeTopic, Kind: KindSize, Unit: "bytes",
		KafkaDefault: "-1", Min: 0, Max: maxSizeBytes, MinusOne: true,
		Help: "Oldest segments are deleted while the partition would still hold this much without them; -1 is unlimited."},
	{Name: "retention.ms", Target: OnTopic, Scope: ScopeTopic, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "7d", Default: "1h", Min: 0, Max: maxDurationMs, MinusOne: true,
		Help: "A segment is deleted once its newest record is older than this; -1 keeps records forever."},
	{Name: "segment.bytes", Target: OnTopic, Scope: ScopeTopic, Kind: KindSize, Unit: "bytes",
		KafkaDefault: "1GB", Default: "1KB", Min: minSegmentBytes, Max: maxSegmentBytes, KafkaMin: kafkaMin(kafkaMinSegmentBytes),
		Help: "The active segment rolls when the next record would take it past this size (Kafka accepts 1MB or more; the playground, less)."},
	{Name: "segment.ms", Target: OnTopic, Scope: ScopeTopic, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "7d", Default: "10m", Min: 1, Max: maxDurationMs,
		Help: "The active segment rolls when its first record is older than this."},
	{Name: "segment.records", Target: OnTopic, Scope: ScopePlayground, Kind: KindCount, Unit: "records",
		Default: "10", Min: 1, Max: maxSegmentRecords, MinusOne: true,
		Help: "The active segment rolls once it holds this many records, so that segments show with a few records; -1 turns it off."},
	{Name: "unclean.leader.election.enable", Target: OnTopic, Scope: ScopeTopic, Kind: KindBool,
		KafkaDefault: "false",
		Help:         "When no in-sync replica is alive, let an out-of-sync one lead, losing the records it lacks."},

	{Name: "auto.commit.interval.ms", Target: OnGroup, Scope: ScopeConsumer, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "5s", Min: 1, Max: maxDurationMs, KafkaMin: kafkaMin(0),
		Help: "How often auto-commit commits (Kafka accepts 0, commit at every poll; the playground, 1ms or more)."},
	{Name: "auto.offset.reset", Target: OnGroup, Scope: ScopeConsumer, Kind: KindChoice,
		KafkaDefault: "latest", Earlier: []EarlierDefault{{Before: KafkaConsumerDefaults, Value: "earliest"}}, Choices: []string{"earliest", "latest", "none"},
		Help: "Where a member starts on a partition with no committed offset, or one below the log start: latest at the end (only new records), earliest at the log start; none fails the poll."},
	{Name: "consumer.heartbeat.interval.ms", KafkaName: "group.consumer.heartbeat.interval.ms", Target: OnGroup, Scope: ScopeBroker, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "5s", Min: 1, Max: maxIntMs, Since: ConsumerGroupProtocol, ConsumerProtocol: true,
		Help: "How often a consumer group's members heartbeat, and so how soon each learns of a new target assignment (the brokers' group.consumer.heartbeat.interval.ms, per group consumer.heartbeat.interval.ms; brokers accept 5s to 15s)."},
	{Name: "consumer.session.timeout.ms", KafkaName: "group.consumer.session.timeout.ms", Target: OnGroup, Scope: ScopeBroker, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "45s", Min: 1, Max: maxIntMs, Since: ConsumerGroupProtocol, ConsumerProtocol: true,
		Help: "How long the coordinator waits for a consumer group member's heartbeat before it fences the member (the brokers' group.consumer.session.timeout.ms, per group consumer.session.timeout.ms; brokers accept 45s to 60s)."},
	{Name: "delivery", Target: OnGroup, Scope: ScopePlayground, Kind: KindChoice,
		Default: AtLeastOnce, Choices: []string{AtLeastOnce, AtMostOnce},
		Help: "Whether the members' code processes what a poll returned before it commits (at-least-once) or after (at-most-once)."},
	{Name: "enable.auto.commit", Alias: "auto.commit", Target: OnGroup, Scope: ScopeConsumer, Kind: KindBool,
		KafkaDefault: "true", Earlier: []EarlierDefault{{Before: KafkaConsumerDefaults, Value: "false"}},
		Help: "Commit positions in poll every auto.commit.interval.ms, before a rebalance revokes partitions, and on leaving."},
	{Name: "group.initial.rebalance.delay.ms", Target: OnGroup, Scope: ScopeBroker, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "3s", Min: 0, Max: maxDurationMs, Since: ClassicProtocolTiming,
		Help: "How long an empty group's first rebalance waits for more members, longer by this much for each one that joins in it, up to the rebalance timeout (a broker config in Kafka; the playground sets it per group)."},
	{Name: "isolation.level", Target: OnGroup, Scope: ScopeConsumer, Kind: KindChoice,
		KafkaDefault: ReadUncommitted, Choices: []string{ReadCommitted, ReadUncommitted},
		Help: "read_uncommitted reads up to the high watermark, aborted records too; read_committed reads up to the last stable offset and skips aborted records. Neither is given transaction markers."},
	{Name: "lag.alert.ms", Target: OnGroup, Scope: ScopePlayground, Kind: KindDuration, Unit: "ms",
		Default: "0", Min: 0, Max: maxDurationMs,
		Help: "The group's lag alert lights when its largest time lag reaches this; 0 turns it off."},
	{Name: "lag.alert.records", Target: OnGroup, Scope: ScopePlayground, Kind: KindCount, Unit: "records",
		Default: "0", Min: 0, Max: maxLagAlertRecords,
		Help: "The group's lag alert lights when its total lag reaches this many records; 0 turns it off."},
	{Name: "max.poll.interval.ms", Target: OnGroup, Scope: ScopeConsumer, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "5m", Min: 1, Max: maxDurationMs, Since: ClassicProtocolTiming,
		Help: "A member that does not poll within this long leaves the group, which rebalances; it is also the rebalance timeout, after which members that did not rejoin are removed."},
	{Name: "metadata.max.age.ms", Target: OnGroup, Scope: ScopeConsumer, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "5m", Min: 0, Max: maxDurationMs, Since: ClassicProtocolTiming,
		Help: "How often the consumers refresh their metadata: the group's leader sees partitions added to a topic at its next refresh, and only then rebalances."},
	{Name: "rebalance.ms", Target: OnGroup, Scope: ScopePlayground, Kind: KindDuration, Unit: "ms",
		Default: "3s", Min: 1, Max: 10 * secondMs, Until: ClassicProtocolTiming,
		Help: "Under rules 1 to 3, how long every rebalance round took in virtual time; from rules 4 a rebalance ends when every member has rejoined (by polling) instead."},
	{Name: "session.timeout.ms", Target: OnGroup, Scope: ScopeConsumer, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "45s", Min: 6 * secondMs, Max: 30 * minuteMs,
		Help: "How long the coordinator waits for a member that stopped heartbeating before it removes it (brokers accept 6s to 30m)."},

	{Name: "group.consumer.migration.policy", Target: OnCluster, Scope: ScopeBroker, Kind: KindChoice,
		KafkaDefault: MigrationBidirectional, Choices: MigrationPolicies(),
		Help: "Whether a classic group with members converts to a consumer group when a member joins with group.protocol=consumer (upgrade), and back when its last consumer-protocol member leaves (downgrade); bidirectional allows both, disabled neither (GroupCoordinatorConfig, Kafka 4.4)."},
	{Name: "log.cleaner.backoff.ms", Target: OnCluster, Scope: ScopeBroker, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "15s", Min: 0, Max: maxDurationMs,
		Help: "Under rules 3, how long the log cleaner sleeps when it finds no partition to clean before it looks again."},
	{Name: "log.cleaner.min.cleanable.ratio", Target: OnCluster, Scope: ScopeBroker, Kind: KindRatio,
		KafkaDefault: "0.5",
		Help:         "Under rules 3 the cleaner cleans a partition once more than this share of its cleanable bytes is dirty (not cleaned yet); a topic's min.cleanable.dirty.ratio, the broker's default."},
	{Name: "log.initial.task.delay.ms", Target: OnCluster, Scope: ScopeBroker, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "30s", Min: 0, Max: maxDurationMs,
		Help: "Under rules 3, when the first retention check runs after the broker starts; the next ones follow every log.retention.check.interval.ms."},
	{Name: "log.retention.check.interval.ms", Target: OnCluster, Scope: ScopeBroker, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "5m", Earlier: []EarlierDefault{{Before: ScheduledRetentionAndCleaner, Value: "30s"}}, Min: 1, Max: maxDurationMs,
		Help: "How often retention deletes expired segments (under rules 1 and 2 the playground checked every 30s, from 0)."},
	{Name: "replica.lag.time.max.ms", Target: OnCluster, Scope: ScopeBroker, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "30s", Min: 1, Max: maxDurationMs,
		Help: "A follower that has not caught up with the leader's log end for this long leaves the ISR."},

	{Name: "acks", Target: OnProduce, Scope: ScopeProducer, Kind: KindChoice,
		KafkaDefault: "all", Choices: []string{"0", "1", "all"},
		Help: "When a write counts as done: 0 no answer, 1 the leader's, all every in-sync replica's (Kafka's default since 3.0)."},
	// A named producer's (producer-config; core/producer.go), from
	// ProducerConfig of kafka-clients 4.4.
	{Name: "batch.size", Target: OnProduce, Scope: ScopeProducer, Kind: KindSize, Unit: "bytes",
		KafkaDefault: "16KB", Min: 0, Max: maxIntMs,
		Help: "The most bytes of records one batch to a partition holds (the playground sends one record a batch)."},
	{Name: "delivery.timeout.ms", Target: OnProduce, Scope: ScopeProducer, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "2m", Min: 0, Max: maxIntMs,
		Help: "How long a record may take, retries included, before the producer gives up on it; at least linger.ms + request.timeout.ms."},
	{Name: "enable.idempotence", Target: OnProduce, Scope: ScopeProducer, Kind: KindBool,
		KafkaDefault: "true",
		Help:         "The broker drops a retried batch it already holds (by producer id and sequence) and refuses one out of order, so retries neither duplicate nor reorder."},
	{Name: "linger.ms", Target: OnProduce, Scope: ScopeProducer, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "5ms", Min: 0, Max: maxIntMs,
		Help: "How long the producer waits for more records to fill a batch (5ms since Kafka 4.0)."},
	{Name: "max.in.flight.requests.per.connection", Target: OnProduce, Scope: ScopeProducer, Kind: KindCount, Unit: "requests",
		KafkaDefault: "5", Min: 1, Max: maxIntMs,
		Help: "How many requests the producer sends before it waits for an answer; above 1 without idempotence, a retried batch can land after a later one."},
	{Name: "partitioner", KafkaName: "partitioner.class", Target: OnProduce, Scope: ScopeProducer, Kind: KindChoice,
		KafkaDefault: PartitionerDefault, Choices: []string{PartitionerDefault, PartitionerRoundRobin},
		Help: "Where records go when no partition is given (rules 2): default is Kafka's built-in partitioner (keys by murmur2, keyless records stick to a partition until batch.size fills); round-robin is RoundRobinPartitioner, which ignores keys."},
	{Name: "request.timeout.ms", Target: OnProduce, Scope: ScopeProducer, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "30s", Min: 0, Max: maxIntMs,
		Help: "How long the producer waits for an answer before it counts the request lost and retries."},
	{Name: "retries", Target: OnProduce, Scope: ScopeProducer, Kind: KindCount, Unit: "retries",
		KafkaDefault: "2147483647", Min: 0, Max: maxIntMs,
		Help: "How often a failed batch is sent again, within delivery.timeout.ms; 0 gives up at the first failure."},
	{Name: "transaction.timeout.ms", Target: OnProduce, Scope: ScopeProducer, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "1m", Min: 1, Max: maxIntMs,
		Help: "How long a transaction may stay open before the transaction coordinator aborts it."},

	// A share group's (config group NAME on a share group; share.go), by
	// Kafka 4.4's GroupConfig names. The bounds are the brokers'
	// (ShareGroupConfig and GroupCoordinatorConfig of Kafka 4.4): a group
	// config outside them is refused as GroupConfig refuses it.
	{Name: "share.auto.offset.reset", Target: OnShareGroup, Scope: ScopeGroup, Kind: KindChoice,
		KafkaDefault: ShareResetLatest, Choices: []string{ShareResetEarliest, ShareResetLatest},
		Help: "Where a share-partition's start offset (SPSO) begins when the group first reads the partition: latest at the high watermark (only new records), earliest at the log start (Kafka also takes by_duration:, which the playground does not)."},
	{Name: "share.delivery.count.limit", Target: OnShareGroup, Scope: ScopeGroup, Kind: KindCount, Unit: "deliveries",
		KafkaDefault: "5", Min: 2, Max: 10,
		Help: "How many times a record may be acquired; released (or its lock expired) after the last, it is archived and never delivered again (brokers' group.share.delivery.count.limit; they accept 2 to 10)."},
	{Name: "share.heartbeat.interval.ms", Target: OnShareGroup, Scope: ScopeGroup, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "5s", Min: 5 * secondMs, Max: 15 * secondMs,
		Help: "How often the group's members heartbeat (brokers' group.share.heartbeat.interval.ms; they accept 5s to 15s)."},
	{Name: "share.partition.max.record.locks", Target: OnShareGroup, Scope: ScopeGroup, Kind: KindCount, Unit: "records",
		KafkaDefault: "2000", Min: 100, Max: 4000,
		Help: "The most records in flight in one share-partition, from its start offset to its end offset: a poll acquires no new records past it (brokers' group.share.partition.max.record.locks; they accept 100 to 4000)."},
	{Name: "share.record.lock.duration.ms", Target: OnShareGroup, Scope: ScopeGroup, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "30s", Min: 15 * secondMs, Max: 60 * secondMs,
		Help: "How long a member holds a record it acquired before the lock expires and the record is available again (brokers' group.share.record.lock.duration.ms; they accept 15s to 60s)."},
	{Name: "share.renew.acknowledge.enable", Target: OnShareGroup, Scope: ScopeGroup, Kind: KindBool,
		KafkaDefault: "true",
		Help:         "Whether members may renew the locks of the records they hold (acknowledge type RENEW, KIP-1222)."},
	{Name: "share.session.timeout.ms", Target: OnShareGroup, Scope: ScopeGroup, Kind: KindDuration, Unit: "ms",
		KafkaDefault: "45s", Min: 45 * secondMs, Max: 60 * secondMs,
		Help: "How long the coordinator waits for a member that stopped heartbeating before it removes it (brokers' group.share.session.timeout.ms; they accept 45s to 60s)."},

	// A share consumer's (share-join; ShareConsumerConfig of
	// kafka-clients 4.4).
	{Name: "max.poll.records", Target: OnShareMember, Scope: ScopeConsumer, Kind: KindCount, Unit: "records",
		KafkaDefault: "500", Min: 1, Max: 10_000,
		Help: "The most records one poll returns: the member's share fetch asks for no more."},
	{Name: "share.acknowledgement.mode", Target: OnShareMember, Scope: ScopeConsumer, Kind: KindChoice,
		KafkaDefault: AckModeImplicit, Choices: []string{AckModeExplicit, AckModeImplicit},
		Help: "implicit: the next poll accepts every record the last one returned; explicit: the member acknowledges each record (accept, release, reject or renew) before it polls again."},
}

// Configs lists the configs set on target, sorted by name.
func Configs(target ConfigTarget) []ConfigDef { return configsOn(configRegistry, target) }

// LookupConfig returns the config of target named name (the playground's
// name, Kafka's, or its alias).
func LookupConfig(target ConfigTarget, name string) (ConfigDef, bool) {
	return lookupConfigIn(configRegistry, target, name)
}

// DifferencesFromKafka lists, in registry order, the configs where the
// playground departs from Kafka: its own configs, and those whose default
// is not Kafka's.
func DifferencesFromKafka() []ConfigDef {
	var defs []ConfigDef
	for _, d := range configRegistry {
		if d.DiffersFromKafka() {
			defs = append(defs, d)
		}
	}
	return defs
}

// durationDefault reads the default of a duration config of the registry.
// The registry's tests check every default reads back.
func durationDefault(target ConfigTarget, name string) int64 {
	return durationDefaultUnder(target, name, LatestRules)
}

// durationDefaultUnder reads the default of a duration config of the
// registry under a rules version.
func durationDefaultUnder(target ConfigTarget, name string, rules int) int64 {
	d, _ := LookupConfig(target, name)
	ms, _, _ := units.Parse(d.DefaultUnder(rules), units.Durations, maxDurationMs)
	return ms
}

// ratioDefault reads the default of a ratio config of the registry.
func ratioDefault(target ConfigTarget, name string) float64 {
	d, _ := LookupConfig(target, name)
	r, _ := strconv.ParseFloat(d.DefaultValue(), 64)
	return r
}
