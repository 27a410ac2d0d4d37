package core

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core/units"
)

// This file holds the rules that read the configs of share groups
// (KIP-932), whose names, defaults, bounds and help are the registry's
// (config_registry.go, targets OnShareGroup and OnShareMember).
//
// A share group's configs are group configs in Kafka: set with
// kafka-configs --entity-type groups (Kafka 4.4's GroupConfig names them
// share.record.lock.duration.ms, share.delivery.count.limit, ...), each
// falling back to the brokers' default of the same name with group. in
// front (group.share.record.lock.duration.ms in ShareGroupConfig,
// group.share.session.timeout.ms in GroupCoordinatorConfig), and held
// within the brokers' bounds (group.share.min.* and group.share.max.*;
// GroupConfig.validateValues). A share consumer's own configs are
// ShareConsumerConfig's (ConsumerConfig of kafka-clients 4.4):
// share.acknowledgement.mode and max.poll.records.

// The targets of share configs: a share group (config group NAME on a
// share group) and a share group member (share-join).
const (
	OnShareGroup  ConfigTarget = "share-group"
	OnShareMember ConfigTarget = "share-member"
)

// The values of share.acknowledgement.mode (ShareAcknowledgementMode in
// kafka-clients 4.4) and share.auto.offset.reset
// (ShareGroupAutoOffsetResetStrategy in kafka-group-coordinator 4.4).
const (
	AckModeImplicit    = "implicit"
	AckModeExplicit    = "explicit"
	ShareResetLatest   = "latest"
	ShareResetEarliest = "earliest"
)

// ShareConfigs lists the share configs set on target (OnShareGroup or
// OnShareMember), sorted by name: the registry's (config_registry.go).
func ShareConfigs(target ConfigTarget) []ConfigDef { return Configs(target) }

// LookupShareConfig returns the share config of target named name, from
// the registry.
func LookupShareConfig(target ConfigTarget, name string) (ConfigDef, bool) {
	return LookupConfig(target, name)
}

// configsOn lists the configs of defs set on target, in their order.
func configsOn(defs []ConfigDef, target ConfigTarget) []ConfigDef {
	var out []ConfigDef
	for _, d := range defs {
		if d.Target == target {
			out = append(out, d)
		}
	}
	return out
}

// lookupConfigIn finds the config of defs set on target named name (its
// name, Kafka's, or its alias).
func lookupConfigIn(defs []ConfigDef, target ConfigTarget, name string) (ConfigDef, bool) {
	for _, d := range defs {
		if d.Target == target && d.Named(name) {
			return d, true
		}
	}
	return ConfigDef{}, false
}

// ShareGroupConfig is a share group's configs (GroupConfig's share.* of
// Kafka 4.4), each the brokers' default unless the group sets it.
type ShareGroupConfig struct {
	AutoOffsetReset         string
	DeliveryCountLimit      int
	HeartbeatIntervalMs     int64
	PartitionMaxRecordLocks int
	RecordLockDurationMs    int64
	RenewAcknowledgeEnable  bool
	SessionTimeoutMs        int64
	// set lists the configs the group sets, by name.
	set map[string]bool
}

// defaultShareGroupConfig is every share config at Kafka's default.
func defaultShareGroupConfig() ShareGroupConfig {
	var c ShareGroupConfig
	for _, d := range ShareConfigs(OnShareGroup) {
		_ = c.set1(d, d.KafkaDefault)
	}
	c.set = nil
	return c
}

// Entries lists the group's configs in name order, values in canonical
// text, and whether the group sets each.
func (c ShareGroupConfig) Entries() []ConfigEntry {
	var entries []ConfigEntry
	for _, d := range ShareConfigs(OnShareGroup) {
		entries = append(entries, ConfigEntry{Name: d.Name, Value: c.value(d.Name)})
	}
	return entries
}

// IsSet reports whether the group sets the config named (rather than
// taking the brokers' default).
func (c ShareGroupConfig) IsSet(name string) bool { return c.set[name] }

func (c ShareGroupConfig) value(name string) string {
	switch name {
	case "share.auto.offset.reset":
		return c.AutoOffsetReset
	case "share.delivery.count.limit":
		return strconv.Itoa(c.DeliveryCountLimit)
	case "share.heartbeat.interval.ms":
		return units.Duration(c.HeartbeatIntervalMs)
	case "share.partition.max.record.locks":
		return strconv.Itoa(c.PartitionMaxRecordLocks)
	case "share.record.lock.duration.ms":
		return units.Duration(c.RecordLockDurationMs)
	case "share.renew.acknowledge.enable":
		return strconv.FormatBool(c.RenewAcknowledgeEnable)
	case "share.session.timeout.ms":
		return units.Duration(c.SessionTimeoutMs)
	}
	return ""
}

// set1 sets one config from its text, within the brokers' bounds, with
// GroupConfig.validateIntRange's words (Kafka 4.4).
func (c *ShareGroupConfig) set1(d ConfigDef, text string) error {
	var n int64
	switch d.Kind {
	case KindDuration:
		ms, err := ParseDuration(text)
		if err != nil {
			return fmt.Errorf("%s: %v", d.Name, err)
		}
		n = ms
	case KindCount:
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil {
			return fmt.Errorf("%s: expected a whole number, got %q", d.Name, text)
		}
		n = v
	case KindChoice:
		ok := false
		for _, choice := range d.Choices {
			ok = ok || choice == text
		}
		if !ok {
			if strings.HasPrefix(text, "by_duration:") {
				return fmt.Errorf("%s: Kafka also takes by_duration:<ISO-8601 duration>; the playground takes %s", d.Name, strings.Join(d.Choices, " or "))
			}
			return fmt.Errorf("%s: expected one of %s, got %q", d.Name, strings.Join(d.Choices, ", "), text)
		}
	case KindBool:
		if text != "true" && text != "false" {
			return fmt.Errorf("%s: expected true or false, got %q", d.Name, text)
		}
	}
	if (d.Kind == KindDuration || d.Kind == KindCount) && (n < d.Min || n > d.Max) {
		lo, hi := strconv.FormatInt(d.Min, 10), strconv.FormatInt(d.Max, 10)
		return fmt.Errorf("%s must be in the range %s to %s inclusive. (Kafka's InvalidConfigurationException: the brokers' bounds)", d.Name, lo, hi)
	}
	switch d.Name {
	case "share.auto.offset.reset":
		c.AutoOffsetReset = text
	case "share.delivery.count.limit":
		c.DeliveryCountLimit = int(n)
	case "share.heartbeat.interval.ms":
		c.HeartbeatIntervalMs = n
	case "share.partition.max.record.locks":
		c.PartitionMaxRecordLocks = int(n)
	case "share.record.lock.duration.ms":
		c.RecordLockDurationMs = n
	case "share.renew.acknowledge.enable":
		c.RenewAcknowledgeEnable = text == "true"
	case "share.session.timeout.ms":
		c.SessionTimeoutMs = n
	}
	if c.set == nil {
		c.set = map[string]bool{}
	}
	c.set[d.Name] = true
	return nil
}

// clone copies the config.
func (c ShareGroupConfig) clone() ShareGroupConfig {
	if c.set != nil {
		set := make(map[string]bool, len(c.set))
		for k, v := range c.set {
			set[k] = v
		}
		c.set = set
	}
	return c
}

// SetShareGroupConfigs sets configs of a share group, all or none, as
// kafka-configs --alter --entity-type groups does. Kafka refuses a
// share.session.timeout.ms not above share.heartbeat.interval.ms
// (GroupConfig.validateSessionExceedsHeartbeat); the brokers' bounds keep
// them apart already (45s and more against 15s and less).
func (l *PartitionedLog) SetShareGroupConfigs(group string, configs [][2]string) error {
	g, err := l.shareGroup(group)
	if err != nil {
		return err
	}
	cfg := g.cfg.clone()
	for _, kv := range configs {
		d, ok := LookupShareConfig(OnShareGroup, kv[0])
		if !ok {
			var names []string
			for _, d := range ShareConfigs(OnShareGroup) {
				names = append(names, d.Name)
			}
			return fmt.Errorf("unknown share group config %q: the share group configs are %s", kv[0], strings.Join(names, ", "))
		}
		if err := cfg.set1(d, kv[1]); err != nil {
			return err
		}
	}
	g.cfg = cfg
	// A shorter lock or session applies from now on: locks already taken
	// keep their deadlines (Kafka schedules each lock's timer when the
	// record is acquired, SharePartition.scheduleAcquisitionLockTimeout).
	return nil
}
