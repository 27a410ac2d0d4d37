package core

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core/units"
)

// TopicConfig is a topic's configuration with typed values. The names in the
// comments are the config names CreateTopic and SetTopicConfig accept; all but
// segment.records and partitioner are Kafka's own.
type TopicConfig struct {
	// retention.ms: a segment is deleted once its newest record is older
	// than this. -1 keeps records forever.
	RetentionMs int64
	// retention.bytes: oldest segments are deleted while the partition would
	// still hold at least this many bytes without them. -1 is unlimited.
	RetentionBytes int64
	// segment.bytes: the active segment rolls when the next record would take
	// it past this size.
	SegmentBytes int64
	// segment.ms: the active segment rolls when its first record is older
	// than this.
	SegmentMs int64
	// segment.records (playground only, not a Kafka config): the active
	// segment rolls once it holds this many records, so that segments show
	// with a handful of records. -1 turns it off, as in Kafka.
	SegmentRecords int64
	// cleanup.policy: "delete", "compact" or "compact,delete".
	CleanupPolicy string
	// delete.retention.ms: how long a tombstone stays after the first
	// cleaning that saw it.
	DeleteRetentionMs int64
	// min.compaction.lag.ms: a segment whose newest record is younger than
	// this is not cleaned.
	MinCompactionLagMs int64
	// message.timestamp.type: which clock a record's timestamp comes from,
	// TimestampCreateTime or TimestampLogAppendTime (timestamps.go).
	TimestampType string
	// partitioner (playground only; Kafka chooses it in the producer with
	// partitioner.class): how records without a key are spread,
	// "round-robin" or "sticky"; "" under rules 2, where the producer chooses.
	Partitioner string
	// replication.factor: how many brokers hold a copy of each partition.
	// Set when the topic is created (Kafka's --replication-factor); it
	// cannot be changed afterwards.
	ReplicationFactor int64
	// min.insync.replicas: with acks=all, a write is refused
	// (NOT_ENOUGH_REPLICAS) while fewer replicas than this are in sync.
	MinInsyncReplicas int64
	// unclean.leader.election.enable: when no in-sync replica is alive, let
	// an out-of-sync one lead, losing the records it lacks.
	UncleanLeaderElection bool
}

// Values of TopicConfig.CleanupPolicy and TopicConfig.Partitioner.
const (
	PolicyDelete        = "delete"
	PolicyCompact       = "compact"
	PolicyCompactDelete = "compact,delete"

	PartitionerRoundRobin = "round-robin"
	PartitionerSticky     = "sticky"
	// PartitionerDefault is a producer's partitioner.class left unset:
	// Kafka's built-in partitioner (rules 2 and later).
	PartitionerDefault = "default"
)

// Compacts reports whether the cleaner compacts the topic.
func (c TopicConfig) Compacts() bool {
	return c.CleanupPolicy == PolicyCompact || c.CleanupPolicy == PolicyCompactDelete
}

// Deletes reports whether retention deletes old segments of the topic.
func (c TopicConfig) Deletes() bool {
	return c.CleanupPolicy == PolicyDelete || c.CleanupPolicy == PolicyCompactDelete
}

// DefaultTopicConfig returns the playground's defaults, from the config
// registry (config_registry.go). Several are smaller than Kafka's so that
// segments, retention and compaction show with a few dozen records and a few
// minutes of virtual time; DifferencesFromKafka lists them.
func DefaultTopicConfig() TopicConfig { return defaultTopicConfig }

// defaultTopicConfig is read once from the registry's defaults; the
// registry's tests check that each reads back.
var defaultTopicConfig = func() TopicConfig {
	var c TopicConfig
	for i := range configSpecs {
		_ = configSpecs[i].set(&c, configSpecs[i].DefaultValue())
	}
	return c
}()

// ConfigEntry is one config in canonical text form, e.g. {"retention.ms", "7d"}.
type ConfigEntry struct {
	Name, Value string
}

// Entries lists every config in name order, values in canonical text form
// (largest exact unit: 7d, 90s, 4KB), as a script would write them.
func (c TopicConfig) Entries() []ConfigEntry {
	entries := make([]ConfigEntry, 0, len(configSpecs))
	for _, spec := range configSpecs {
		if spec.Name == "partitioner" && c.Partitioner == "" {
			continue // rules 2: the producer's, not the topic's
		}
		entries = append(entries, ConfigEntry{Name: spec.Name, Value: spec.format(&c)})
	}
	return entries
}

// KafkaValue writes a topic config's value as Kafka's admin API takes it:
// milliseconds and bytes as plain numbers, counts, the policy's words, true
// or false. ok is false for a name that is not a topic config.
func (c TopicConfig) KafkaValue(name string) (value string, ok bool) {
	spec, err := findConfigSpec(name)
	if err != nil {
		return "", false
	}
	switch {
	case spec.flag != nil:
		return strconv.FormatBool(*spec.flag(&c)), true
	case spec.choice != nil:
		return *spec.choice(&c), true
	}
	return strconv.FormatInt(*spec.field(&c), 10), true
}

const (
	secondMs = units.Second
	minuteMs = units.Minute
	hourMs   = units.Hour
	dayMs    = units.Day
	yearMs   = units.Year

	// maxDurationMs bounds every duration so that time arithmetic never
	// overflows.
	maxDurationMs = units.MaxDurationMs
	// maxSizeBytes bounds every size (1 PB).
	maxSizeBytes = units.MaxSizeBytes
)

// configSpec is one topic config of the registry and the field of
// TopicConfig that holds it.
type configSpec struct {
	ConfigDef
	topicField
}

// topicField points at the field of TopicConfig that holds a config: a
// number, a word or a flag.
type topicField struct {
	field  func(c *TopicConfig) *int64
	choice func(c *TopicConfig) *string
	flag   func(c *TopicConfig) *bool
}

// topicFields says which field holds each topic config of the registry.
var topicFields = map[string]topicField{
	"cleanup.policy":                 {choice: func(c *TopicConfig) *string { return &c.CleanupPolicy }},
	"delete.retention.ms":            {field: func(c *TopicConfig) *int64 { return &c.DeleteRetentionMs }},
	"message.timestamp.type":         {choice: func(c *TopicConfig) *string { return &c.TimestampType }},
	"min.compaction.lag.ms":          {field: func(c *TopicConfig) *int64 { return &c.MinCompactionLagMs }},
	"min.insync.replicas":            {field: func(c *TopicConfig) *int64 { return &c.MinInsyncReplicas }},
	"partitioner":                    {choice: func(c *TopicConfig) *string { return &c.Partitioner }},
	"replication.factor":             {field: func(c *TopicConfig) *int64 { return &c.ReplicationFactor }},
	"retention.bytes":                {field: func(c *TopicConfig) *int64 { return &c.RetentionBytes }},
	"retention.ms":                   {field: func(c *TopicConfig) *int64 { return &c.RetentionMs }},
	"segment.bytes":                  {field: func(c *TopicConfig) *int64 { return &c.SegmentBytes }},
	"segment.ms":                     {field: func(c *TopicConfig) *int64 { return &c.SegmentMs }},
	"segment.records":                {field: func(c *TopicConfig) *int64 { return &c.SegmentRecords }},
	"unclean.leader.election.enable": {flag: func(c *TopicConfig) *bool { return &c.UncleanLeaderElection }},
}

// configSpecs are the registry's topic configs, sorted by name: configs
// are processed and listed in that order so that errors and output are
// deterministic. A config without a field is left out (the registry's
// tests check there is none).
var configSpecs = func() []configSpec {
	var specs []configSpec
	for _, def := range Configs(OnTopic) {
		f := topicFields[def.Name]
		if f.field == nil && f.choice == nil && f.flag == nil {
			continue
		}
		specs = append(specs, configSpec{def, f})
	}
	return specs
}()

func findConfigSpec(name string) (*configSpec, error) {
	for i := range configSpecs {
		if configSpecs[i].Name == name {
			return &configSpecs[i], nil
		}
	}
	names := make([]string, len(configSpecs))
	for i, spec := range configSpecs {
		names[i] = spec.Name
	}
	return nil, fmt.Errorf("unknown topic config name %q (known: %s)", name, strings.Join(names, ", "))
}

// set parses value and stores it in c.
func (spec *configSpec) set(c *TopicConfig, value string) error {
	if spec.Kind == KindBool {
		switch strings.ToLower(value) {
		case "true":
			*spec.flag(c) = true
		case "false":
			*spec.flag(c) = false
		default:
			return fmt.Errorf("invalid value %q for %s: want true or false", value, spec.Name)
		}
		return nil
	}
	if spec.Kind == KindChoice || spec.Kind == KindList {
		canonical, ok := spec.parseChoice(value)
		if !ok {
			return fmt.Errorf("invalid value %q for %s: want one of %s", value, spec.Name, strings.Join(spec.Choices, ", "))
		}
		*spec.choice(c) = canonical
		return nil
	}
	n, err := spec.parseNumber(value)
	if err != nil {
		return fmt.Errorf("invalid value %q for %s: %v", value, spec.Name, err)
	}
	*spec.field(c) = n
	return nil
}

func (spec *configSpec) parseChoice(value string) (string, bool) {
	v := strings.ToLower(strings.ReplaceAll(value, " ", ""))
	if spec.Name == "cleanup.policy" && v == "delete,compact" {
		v = PolicyCompactDelete
	}
	if spec.Name == "partitioner" && v == "roundrobin" {
		v = PartitionerRoundRobin
	}
	for _, choice := range spec.Choices {
		// Kafka's own values may be capitalised (CreateTime): any case
		// reads as the value, written back as Kafka spells it.
		if strings.EqualFold(v, choice) {
			return choice, true
		}
	}
	return "", false
}

func (spec *configSpec) parseNumber(value string) (int64, error) {
	if value == "-1" {
		if spec.MinusOne {
			return -1, nil
		}
		return 0, fmt.Errorf("-1 is not allowed here (minimum %s)", spec.formatNumber(spec.Min))
	}
	digits, unit := units.Split(value)
	if digits == "" {
		return 0, fmt.Errorf("want a number%s", spec.unitHint())
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a whole number", digits)
	}
	scale, ok := spec.unitScale(unit)
	if !ok {
		return 0, fmt.Errorf("unknown unit %q%s", unit, spec.unitHint())
	}
	if n > spec.Max/scale {
		return 0, fmt.Errorf("above the maximum %s", spec.formatNumber(spec.Max))
	}
	n *= scale
	if n < spec.Min {
		return 0, fmt.Errorf("below the minimum %s", spec.formatNumber(spec.Min))
	}
	if n > spec.Max {
		return 0, fmt.Errorf("above the maximum %s", spec.formatNumber(spec.Max))
	}
	return n, nil
}

func (spec *configSpec) unitScale(unit string) (int64, bool) {
	if unit == "" {
		return 1, true
	}
	switch spec.Kind {
	case KindDuration:
		return units.Lookup(units.Durations, unit)
	case KindSize:
		return units.Lookup(units.Sizes, strings.ToUpper(unit))
	}
	return 0, false
}

func (spec *configSpec) unitHint() string {
	switch spec.Kind {
	case KindDuration:
		return " of milliseconds, or with a unit: 500ms 10s 5m 2h 7d"
	case KindSize:
		return " of bytes, or with a unit: 512B 4KB 1MB 1GB"
	}
	return ""
}

func (spec *configSpec) format(c *TopicConfig) string {
	if spec.Kind == KindBool {
		return strconv.FormatBool(*spec.flag(c))
	}
	if spec.choice != nil {
		return *spec.choice(c)
	}
	return spec.formatNumber(*spec.field(c))
}

// formatNumber writes n with the largest unit that divides it exactly.
func (spec *configSpec) formatNumber(n int64) string {
	switch spec.Kind {
	case KindDuration:
		return units.Duration(n)
	case KindSize:
		return units.Size(n)
	}
	return strconv.FormatInt(n, 10)
}

// ParseDuration reads a duration the way configs and scripts write it: a
// whole number of milliseconds, or with a unit (500ms 10s 5m 2h 7d). It
// accepts 0 up to 100 years.
func ParseDuration(text string) (int64, error) {
	spec := configSpec{ConfigDef: ConfigDef{Name: "duration", Kind: KindDuration, Max: maxDurationMs}}
	n, err := spec.parseNumber(text)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: %v", text, err)
	}
	return n, nil
}
