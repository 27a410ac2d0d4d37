package core

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core/units"
)

// GroupConfig is a consumer group's configuration. In Kafka most of these
// are consumer configs, set alike on every member; the playground sets them
// once per group. Each field's default and bounds are its config's in the
// registry (config_registry.go).
type GroupConfig struct {
	// SessionTimeoutMs (session.timeout.ms) is how long the coordinator
	// waits for a member that stopped heartbeating before removing it.
	SessionTimeoutMs int64
	// RebalanceMs (rebalance.ms, playground only, rules 1 to 3) is how
	// long one rebalance round takes in virtual time. Rules 4 have no such
	// config: a rebalance ends when its members have rejoined (groups.go).
	RebalanceMs int64
	// InitialRebalanceDelayMs (group.initial.rebalance.delay.ms, rules 4 on)
	// is how long an empty group's first rebalance waits for more members
	// (a broker config in Kafka 4.x's GroupCoordinatorConfig; the
	// playground sets it per group).
	InitialRebalanceDelayMs int64
	// MaxPollIntervalMs (max.poll.interval.ms, rules 4 on) is how long a
	// member may go without polling before it leaves the group; the
	// members send it as their rebalance timeout (ConsumerConfig and
	// ConsumerCoordinator of kafka-clients 4.x).
	MaxPollIntervalMs int64
	// MetadataMaxAgeMs (metadata.max.age.ms, rules 4 on) is how often the
	// consumers refresh their metadata, and so how late the group's leader
	// sees partitions added to a topic.
	MetadataMaxAgeMs int64
	// AutoCommit (enable.auto.commit; auto.commit in links made before
	// rules 3) commits positions in poll once AutoCommitIntervalMs has
	// passed, before a rebalance revokes partitions, and on leaving. On by
	// default, as in Kafka (ConsumerConfig of kafka-clients 4.4); off under
	// rules 1 and 2, where commits were the learner's to make.
	AutoCommit           bool
	AutoCommitIntervalMs int64 // auto.commit.interval.ms
	// AutoOffsetReset (auto.offset.reset) decides where a member starts on
	// a partition with no committed offset, or one below the log start:
	// earliest, latest, or none (poll fails). latest by default, as in
	// Kafka (ConsumerConfig of kafka-clients 4.4): a new group reads only
	// what is produced after it joins; earliest under rules 1 and 2.
	AutoOffsetReset string
	// IsolationLevel (isolation.level) is read_uncommitted, Kafka's
	// default, or read_committed (txn_read.go).
	IsolationLevel string
	// LagAlertRecords and LagAlertMs (playground only) light the group's
	// lag alert when its total lag in records, or its largest time lag,
	// reaches them. 0 turns an alert off.
	LagAlertRecords int64
	LagAlertMs      int64
	// Delivery (playground only) says how the members' code orders
	// processing and commits. at-least-once: a member processes what a
	// poll returned before it commits, so a crash before the commit makes
	// the next owner receive those records again. at-most-once: a member
	// commits what a poll returned first and processes it until its next
	// poll, so a crash in between loses those records.
	Delivery string

	// ConsumerHeartbeatIntervalMs (consumer.heartbeat.interval.ms) and
	// ConsumerSessionTimeoutMs (consumer.session.timeout.ms) are a
	// consumer group's heartbeat interval and session timeout, the
	// brokers' group.consumer.heartbeat.interval.ms and
	// group.consumer.session.timeout.ms set for the group (Kafka 4.4's
	// GroupConfig; group_consumer.go).
	ConsumerHeartbeatIntervalMs int64
	ConsumerSessionTimeoutMs    int64

	// rules is the rules version the config is under: it decides which
	// configs there are (ConfigDef.Under).
	rules int
	// protocol is "consumer" for a consumer group's config, whose
	// listings hold the consumer protocol's configs too.
	protocol string
}

// Delivery semantics, for GroupConfig.Delivery.
const (
	AtLeastOnce = "at-least-once"
	AtMostOnce  = "at-most-once"
)

// DefaultGroupConfig returns the configuration a new group starts with
// under the latest rules, the registry's defaults (config_registry.go).
func DefaultGroupConfig() GroupConfig { return DefaultGroupConfigUnder(LatestRules) }

// DefaultGroupConfigUnder returns the configuration a new group starts with
// under a rules version: the registry's defaults for that version.
func DefaultGroupConfigUnder(rules int) GroupConfig {
	if rules < RulesV1 || rules > LatestRules {
		rules = LatestRules
	}
	return defaultGroupConfigs[rules]
}

// defaultGroupConfigs are read once from the registry's defaults, one for
// each rules version; the registry's tests check that each reads back.
var defaultGroupConfigs = func() map[int]GroupConfig {
	configs := map[int]GroupConfig{}
	for rules := RulesV1; rules <= LatestRules; rules++ {
		var c GroupConfig
		for _, spec := range groupConfigSpecs {
			_ = spec.set(&c, spec.def, spec.def.DefaultUnder(rules))
		}
		c.rules = rules
		configs[rules] = c
	}
	return configs
}()

// groupConfigSpec is one group config of the registry and how to set it
// from text and write it back.
type groupConfigSpec struct {
	def ConfigDef
	groupField
}

// groupField sets one field of GroupConfig from text, within the bounds of
// its config, and writes it back.
type groupField struct {
	set    func(c *GroupConfig, def ConfigDef, value string) error
	format func(c GroupConfig) string
}

// durationIn parses a duration and checks it lies in the config's bounds.
func durationIn(value string, def ConfigDef, why string) (int64, error) {
	ms, err := ParseDuration(value)
	if err != nil {
		return 0, err
	}
	if ms < def.Min || ms > def.Max {
		return 0, fmt.Errorf("must be between %s and %s%s, got %s", units.Duration(def.Min), units.Duration(def.Max), why, units.Duration(ms))
	}
	return ms, nil
}

func choiceOf(value string, choices ...string) (string, error) {
	for _, c := range choices {
		if value == c {
			return c, nil
		}
	}
	return "", fmt.Errorf("%q is not one of %s", value, strings.Join(choices, ", "))
}

// groupFields says which field holds each group config of the registry.
var groupFields = map[string]groupField{
	"enable.auto.commit": {func(c *GroupConfig, def ConfigDef, v string) error {
		b, err := choiceOf(v, "true", "false")
		c.AutoCommit = b == "true"
		return err
	}, func(c GroupConfig) string { return strconv.FormatBool(c.AutoCommit) }},
	"auto.commit.interval.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.AutoCommitIntervalMs, err = durationIn(v, def, "")
		return err
	}, func(c GroupConfig) string { return units.Duration(c.AutoCommitIntervalMs) }},
	"auto.offset.reset": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.AutoOffsetReset, err = choiceOf(v, def.Choices...)
		return err
	}, func(c GroupConfig) string { return c.AutoOffsetReset }},
	"isolation.level": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.IsolationLevel, err = choiceOf(v, def.Choices...)
		return err
	}, func(c GroupConfig) string { return c.IsolationLevel }},
	"consumer.heartbeat.interval.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.ConsumerHeartbeatIntervalMs, err = brokerBounded(v, def, consumerHeartbeatBounds)
		return err
	}, func(c GroupConfig) string { return units.Duration(c.ConsumerHeartbeatIntervalMs) }},
	"consumer.session.timeout.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.ConsumerSessionTimeoutMs, err = brokerBounded(v, def, consumerSessionBounds)
		return err
	}, func(c GroupConfig) string { return units.Duration(c.ConsumerSessionTimeoutMs) }},
	"delivery": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.Delivery, err = choiceOf(v, def.Choices...)
		return err
	}, func(c GroupConfig) string { return c.Delivery }},
	"lag.alert.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.LagAlertMs, err = durationIn(v, def, " (0 turns it off)")
		return err
	}, func(c GroupConfig) string { return units.Duration(c.LagAlertMs) }},
	"lag.alert.records": {func(c *GroupConfig, def ConfigDef, v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < def.Min || n > def.Max {
			return fmt.Errorf("want a whole number of records, 0 or more (0 turns it off), got %q", v)
		}
		c.LagAlertRecords = n
		return nil
	}, func(c GroupConfig) string { return strconv.FormatInt(c.LagAlertRecords, 10) }},
	"group.initial.rebalance.delay.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.InitialRebalanceDelayMs, err = durationIn(v, def, "")
		return err
	}, func(c GroupConfig) string { return units.Duration(c.InitialRebalanceDelayMs) }},
	"max.poll.interval.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.MaxPollIntervalMs, err = durationIn(v, def, "")
		return err
	}, func(c GroupConfig) string { return units.Duration(c.MaxPollIntervalMs) }},
	"metadata.max.age.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.MetadataMaxAgeMs, err = durationIn(v, def, "")
		return err
	}, func(c GroupConfig) string { return units.Duration(c.MetadataMaxAgeMs) }},
	"rebalance.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.RebalanceMs, err = durationIn(v, def, "")
		return err
	}, func(c GroupConfig) string { return units.Duration(c.RebalanceMs) }},
	"session.timeout.ms": {func(c *GroupConfig, def ConfigDef, v string) (err error) {
		c.SessionTimeoutMs, err = durationIn(v, def,
			" (Kafka brokers' group.min.session.timeout.ms and group.max.session.timeout.ms)")
		return err
	}, func(c GroupConfig) string { return units.Duration(c.SessionTimeoutMs) }},
}

// brokerBounds are the brokers' least and most values of a consumer group
// config (GroupCoordinatorConfig of Kafka 4.4), which a group's own value
// must lie within (GroupConfig.validate).
type brokerBounds struct {
	minName, maxName string
	min, max         int64
}

var (
	consumerHeartbeatBounds = brokerBounds{"group.consumer.min.heartbeat.interval.ms", "group.consumer.max.heartbeat.interval.ms", 5 * secondMs, 15 * secondMs}
	consumerSessionBounds   = brokerBounds{"group.consumer.min.session.timeout.ms", "group.consumer.max.session.timeout.ms", 45 * secondMs, 60 * secondMs}
)

// brokerBounded parses a duration of a consumer group config and checks it
// lies within the brokers' bounds.
func brokerBounded(value string, def ConfigDef, b brokerBounds) (int64, error) {
	ms, err := durationIn(value, def, "")
	if err != nil {
		return 0, err
	}
	if ms < b.min || ms > b.max {
		return 0, fmt.Errorf("must be between the brokers' %s (%s) and %s (%s), got %s", b.minName, units.Duration(b.min), b.maxName, units.Duration(b.max), units.Duration(ms))
	}
	return ms, nil
}

// groupConfigSpecs are the registry's group configs, sorted by name. A
// config without a field is left out (the registry's tests check there is
// none).
var groupConfigSpecs = func() []groupConfigSpec {
	var specs []groupConfigSpec
	for _, def := range Configs(OnGroup) {
		if f, ok := groupFields[def.Name]; ok {
			specs = append(specs, groupConfigSpec{def, f})
		}
	}
	return specs
}()

// findGroupConfigSpec finds a group config by its name, Kafka's or its
// alias (auto.commit, of links made before rules 3, sets
// enable.auto.commit).
func findGroupConfigSpec(name string) (*groupConfigSpec, error) {
	var names []string
	for i := range groupConfigSpecs {
		if groupConfigSpecs[i].def.Named(name) {
			return &groupConfigSpecs[i], nil
		}
		names = append(names, groupConfigSpecs[i].def.Name)
	}
	return nil, fmt.Errorf("unknown group config %q: the group configs are %s", name, strings.Join(names, ", "))
}

// notUnderRules says why a config the scenario's rules do not have is
// refused.
func notUnderRules(def ConfigDef, rules int) string {
	if def.Until != noRuleChange && Follows(rules, def.Until) {
		if def.Name == "rebalance.ms" {
			return fmt.Sprintf("rebalance.ms is gone from rules %d, as Kafka has no such config: a rebalance now ends when every member has rejoined by polling, "+
				"an empty group's first one after group.initial.rebalance.delay.ms, and members that do not rejoin are removed after max.poll.interval.ms (write rules 3 first to keep rebalance.ms)", def.Until.Since())
		}
		return fmt.Sprintf("%s is gone from rules %d", def.Name, def.Until.Since())
	}
	return fmt.Sprintf("%s comes with rules %d; this scenario runs under rules %d", def.Name, def.Since.Since(), rules)
}

// Has reports whether the config's rules version has the group config
// named, and its group's protocol: a classic group has none of the
// consumer protocol's configs.
func (c GroupConfig) Has(name string) bool {
	spec, err := findGroupConfigSpec(name)
	return err == nil && spec.def.Under(c.rules) && (!spec.def.ConsumerProtocol || c.protocol == ProtocolConsumer)
}

// Entries lists the configs of the config's rules version in name order,
// values in canonical text.
func (c GroupConfig) Entries() []ConfigEntry {
	entries := make([]ConfigEntry, 0, len(groupConfigSpecs))
	for _, spec := range groupConfigSpecs {
		if !spec.def.Under(c.rules) || spec.def.ConsumerProtocol && c.protocol != ProtocolConsumer {
			continue
		}
		entries = append(entries, ConfigEntry{Name: spec.def.Name, Value: spec.format(c)})
	}
	return entries
}

// SetGroupConfig sets one config of a group: session.timeout.ms,
// rebalance.ms, enable.auto.commit (or auto.commit),
// auto.commit.interval.ms, auto.offset.reset, lag.alert.records,
// lag.alert.ms, delivery. Setting a config of a group that does not exist
// creates it, empty, so a script can configure a group before anyone joins.
// A new session timeout applies to members that stop from now on; a new
// rebalance.ms to the next rebalance.
func (l *PartitionedLog) SetGroupConfig(groupName, name, value string) error {
	spec, err := findGroupConfigSpec(name)
	if err != nil {
		return fmt.Errorf("group %q: %v", groupName, err)
	}
	g, exists := l.groups.groups[groupName]
	config := DefaultGroupConfigUnder(l.rules)
	if exists {
		config = g.config
	}
	if !spec.def.Under(l.rules) {
		return fmt.Errorf("group %q: %s", groupName, notUnderRules(spec.def, l.rules))
	}
	if config.protocol == ProtocolConsumer && spec.def.Name == "session.timeout.ms" {
		return fmt.Errorf("group %q: session.timeout.ms cannot be set when group.protocol=CONSUMER (Kafka's ConfigException): a consumer group's members are fenced after consumer.session.timeout.ms, the coordinator's", groupName)
	}
	if err := spec.set(&config, spec.def, value); err != nil {
		return fmt.Errorf("group %q: %s: %v", groupName, spec.def.Name, err)
	}
	if !exists {
		if g, err = l.newGroup(groupName); err != nil {
			return err
		}
	}
	g.config = config
	return nil
}
