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
	// partitioner (playground only; Kafka chooses it in the producer with
	// partitioner.class): how records without a key are spread,
	// "round-robin" or "sticky".
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
)

// Compacts reports whether the cleaner compacts the topic.
func (c TopicConfig) Compacts() bool {
	return c.CleanupPolicy == PolicyCompact || c.CleanupPolicy == PolicyCompactDelete
}

// Deletes reports whether retention deletes old segments of the topic.
func (c TopicConfig) Deletes() bool {
	return c.CleanupPolicy == PolicyDelete || c.CleanupPolicy == PolicyCompactDelete
}

// DefaultTopicConfig returns the playground's defaults. They are smaller than
// Kafka's so that segments, retention and compaction show with a few dozen
// records and a few minutes of virtual time:
//
//	name                   playground  Kafka
//	retention.ms           1h          7d
//	retention.bytes        -1          -1
//	segment.bytes          1KB         1GB
//	segment.ms             10m         7d
//	segment.records        10          (none: playground only)
//	cleanup.policy         delete      delete
//	delete.retention.ms    10m         1d
//	min.compaction.lag.ms  0           0
//	partitioner            round-robin (producer side: the Java client's default is sticky)
//	replication.factor     1           1 (default.replication.factor)
//	min.insync.replicas    1           1
//	unclean.leader.election.enable  false  false
func DefaultTopicConfig() TopicConfig {
	return TopicConfig{
		RetentionMs:        hourMs,
		RetentionBytes:     -1,
		SegmentBytes:       1 << 10,
		SegmentMs:          10 * minuteMs,
		SegmentRecords:     10,
		CleanupPolicy:      PolicyDelete,
		DeleteRetentionMs:  10 * minuteMs,
		MinCompactionLagMs: 0,
		Partitioner:        PartitionerRoundRobin,
		ReplicationFactor:  1,
		MinInsyncReplicas:  1,
	}
}

// ConfigEntry is one config in canonical text form, e.g. {"retention.ms", "7d"}.
type ConfigEntry struct {
	Name, Value string
}

// Entries lists every config in name order, values in canonical text form
// (largest exact unit: 7d, 90s, 4KB), as a script would write them.
func (c TopicConfig) Entries() []ConfigEntry {
	entries := make([]ConfigEntry, 0, len(configSpecs))
	for _, spec := range configSpecs {
		entries = append(entries, ConfigEntry{Name: spec.name, Value: spec.format(&c)})
	}
	return entries
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
	// minSegmentBytes is Kafka's lower bound for segment.bytes (the overhead
	// of one record in the oldest record format).
	minSegmentBytes = 14
	// maxSegmentBytes is Kafka's upper bound for segment.bytes (an int).
	maxSegmentBytes = 1<<31 - 1
	// maxSegmentRecords bounds segment.records.
	maxSegmentRecords = 1 << 40
)

type valueKind int

const (
	kindDuration valueKind = iota // milliseconds, units ms s m h d
	kindSize                      // bytes, units B KB MB GB (powers of 1024)
	kindCount                     // a plain integer
	kindChoice                    // one of a fixed set of words
	kindBool                      // true or false
)

// configSpec describes one topic config: its name, how its value is written,
// its range and which field holds it.
type configSpec struct {
	name     string
	kind     valueKind
	min, max int64
	minusOne bool     // -1 is also allowed (unlimited / off)
	choices  []string // kindChoice: canonical values
	field    func(c *TopicConfig) *int64
	choice   func(c *TopicConfig) *string
	flag     func(c *TopicConfig) *bool
}

// configSpecs is sorted by name: configs are processed and listed in that
// order so that errors and output are deterministic.
var configSpecs = []configSpec{
	{name: "cleanup.policy", kind: kindChoice, choices: []string{PolicyDelete, PolicyCompact, PolicyCompactDelete},
		choice: func(c *TopicConfig) *string { return &c.CleanupPolicy }},
	{name: "delete.retention.ms", kind: kindDuration, min: 0, max: maxDurationMs,
		field: func(c *TopicConfig) *int64 { return &c.DeleteRetentionMs }},
	{name: "min.compaction.lag.ms", kind: kindDuration, min: 0, max: maxDurationMs,
		field: func(c *TopicConfig) *int64 { return &c.MinCompactionLagMs }},
	{name: "min.insync.replicas", kind: kindCount, min: 1, max: MaxBrokers,
		field: func(c *TopicConfig) *int64 { return &c.MinInsyncReplicas }},
	{name: "partitioner", kind: kindChoice, choices: []string{PartitionerRoundRobin, PartitionerSticky},
		choice: func(c *TopicConfig) *string { return &c.Partitioner }},
	{name: "replication.factor", kind: kindCount, min: 1, max: MaxBrokers,
		field: func(c *TopicConfig) *int64 { return &c.ReplicationFactor }},
	{name: "retention.bytes", kind: kindSize, min: 0, max: maxSizeBytes, minusOne: true,
		field: func(c *TopicConfig) *int64 { return &c.RetentionBytes }},
	{name: "retention.ms", kind: kindDuration, min: 0, max: maxDurationMs, minusOne: true,
		field: func(c *TopicConfig) *int64 { return &c.RetentionMs }},
	{name: "segment.bytes", kind: kindSize, min: minSegmentBytes, max: maxSegmentBytes,
		field: func(c *TopicConfig) *int64 { return &c.SegmentBytes }},
	{name: "segment.ms", kind: kindDuration, min: 1, max: maxDurationMs,
		field: func(c *TopicConfig) *int64 { return &c.SegmentMs }},
	{name: "segment.records", kind: kindCount, min: 1, max: maxSegmentRecords, minusOne: true,
		field: func(c *TopicConfig) *int64 { return &c.SegmentRecords }},
	{name: "unclean.leader.election.enable", kind: kindBool,
		flag: func(c *TopicConfig) *bool { return &c.UncleanLeaderElection }},
}

func findConfigSpec(name string) (*configSpec, error) {
	for i := range configSpecs {
		if configSpecs[i].name == name {
			return &configSpecs[i], nil
		}
	}
	names := make([]string, len(configSpecs))
	for i, spec := range configSpecs {
		names[i] = spec.name
	}
	return nil, fmt.Errorf("unknown topic config name %q (known: %s)", name, strings.Join(names, ", "))
}

// set parses value and stores it in c.
func (spec *configSpec) set(c *TopicConfig, value string) error {
	if spec.kind == kindBool {
		switch strings.ToLower(value) {
		case "true":
			*spec.flag(c) = true
		case "false":
			*spec.flag(c) = false
		default:
			return fmt.Errorf("invalid value %q for %s: want true or false", value, spec.name)
		}
		return nil
	}
	if spec.kind == kindChoice {
		canonical, ok := spec.parseChoice(value)
		if !ok {
			return fmt.Errorf("invalid value %q for %s: want one of %s", value, spec.name, strings.Join(spec.choices, ", "))
		}
		*spec.choice(c) = canonical
		return nil
	}
	n, err := spec.parseNumber(value)
	if err != nil {
		return fmt.Errorf("invalid value %q for %s: %v", value, spec.name, err)
	}
	*spec.field(c) = n
	return nil
}

func (spec *configSpec) parseChoice(value string) (string, bool) {
	v := strings.ToLower(strings.ReplaceAll(value, " ", ""))
	if spec.name == "cleanup.policy" && v == "delete,compact" {
		v = PolicyCompactDelete
	}
	if spec.name == "partitioner" && v == "roundrobin" {
		v = PartitionerRoundRobin
	}
	for _, choice := range spec.choices {
		if v == choice {
			return choice, true
		}
	}
	return "", false
}

func (spec *configSpec) parseNumber(value string) (int64, error) {
	if value == "-1" {
		if spec.minusOne {
			return -1, nil
		}
		return 0, fmt.Errorf("-1 is not allowed here (minimum %s)", spec.formatNumber(spec.min))
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
	if n > spec.max/scale {
		return 0, fmt.Errorf("above the maximum %s", spec.formatNumber(spec.max))
	}
	n *= scale
	if n < spec.min {
		return 0, fmt.Errorf("below the minimum %s", spec.formatNumber(spec.min))
	}
	if n > spec.max {
		return 0, fmt.Errorf("above the maximum %s", spec.formatNumber(spec.max))
	}
	return n, nil
}

func (spec *configSpec) unitScale(unit string) (int64, bool) {
	if unit == "" {
		return 1, true
	}
	switch spec.kind {
	case kindDuration:
		return units.Lookup(units.Durations, unit)
	case kindSize:
		return units.Lookup(units.Sizes, strings.ToUpper(unit))
	}
	return 0, false
}

func (spec *configSpec) unitHint() string {
	switch spec.kind {
	case kindDuration:
		return " of milliseconds, or with a unit: 500ms 10s 5m 2h 7d"
	case kindSize:
		return " of bytes, or with a unit: 512B 4KB 1MB 1GB"
	}
	return ""
}

func (spec *configSpec) format(c *TopicConfig) string {
	if spec.kind == kindBool {
		return strconv.FormatBool(*spec.flag(c))
	}
	if spec.kind == kindChoice {
		return *spec.choice(c)
	}
	return spec.formatNumber(*spec.field(c))
}

// formatNumber writes n with the largest unit that divides it exactly.
func (spec *configSpec) formatNumber(n int64) string {
	switch spec.kind {
	case kindDuration:
		return units.Duration(n)
	case kindSize:
		return units.Size(n)
	}
	return strconv.FormatInt(n, 10)
}

// ParseDuration reads a duration the way configs and scripts write it: a
// whole number of milliseconds, or with a unit (500ms 10s 5m 2h 7d). It
// accepts 0 up to 100 years.
func ParseDuration(text string) (int64, error) {
	spec := configSpec{name: "duration", kind: kindDuration, min: 0, max: maxDurationMs}
	n, err := spec.parseNumber(text)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: %v", text, err)
	}
	return n, nil
}
