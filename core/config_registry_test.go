package core

import (
	"slices"
	"strings"
	"testing"
)

// Every target's configs are sorted by name, once each, and each kind
// carries what it needs.
func TestRegistryShape(t *testing.T) {
	for _, target := range []ConfigTarget{OnTopic, OnGroup, OnCluster, OnProduce} {
		t.Run(string(target), func(t *testing.T) {
			defs := Configs(target)
			if len(defs) == 0 {
				t.Fatal("no configs")
			}
			for i, d := range defs {
				if i > 0 && defs[i-1].Name >= d.Name {
					t.Errorf("%s is listed after %s: keep each target's configs sorted, once each", d.Name, defs[i-1].Name)
				}
				if d.Help == "" || strings.Contains(d.Help, "\n") {
					t.Errorf("%s: help must be one line", d.Name)
				}
				if (d.Scope == ScopePlayground) != (d.KafkaDefault == "") {
					t.Errorf("%s: a Kafka default is given exactly for Kafka's own configs", d.Name)
				}
				if d.DefaultValue() == "" {
					t.Errorf("%s: no default", d.Name)
				}
				switch d.Kind {
				case KindChoice, KindList:
					if !slices.Contains(d.Choices, d.DefaultValue()) {
						t.Errorf("%s: default %q is not one of %v", d.Name, d.DefaultValue(), d.Choices)
					}
				case KindDuration, KindSize, KindCount:
					if d.Min > d.Max || d.Unit == "" {
						t.Errorf("%s: bounds %d..%d, unit %q", d.Name, d.Min, d.Max, d.Unit)
					}
				}
			}
		})
	}
}

// Each topic and group config of the registry has a field in the engine,
// and its default, and Kafka's, read back as written.
func TestRegistryDefaultsReadBack(t *testing.T) {
	if len(configSpecs) != len(Configs(OnTopic)) || len(topicFields) != len(configSpecs) {
		t.Fatalf("%d topic configs in the registry, %d with a field, %d fields", len(Configs(OnTopic)), len(configSpecs), len(topicFields))
	}
	if len(groupConfigSpecs) != len(Configs(OnGroup)) || len(groupFields) != len(groupConfigSpecs) {
		t.Fatalf("%d group configs in the registry, %d with a field, %d fields", len(Configs(OnGroup)), len(groupConfigSpecs), len(groupFields))
	}
	entries := map[string]string{}
	for _, e := range DefaultTopicConfig().Entries() {
		entries[e.Name] = e.Value
	}
	for _, e := range DefaultGroupConfigUnder(RulesV3).Entries() {
		entries[e.Name] = e.Value // rebalance.ms, gone from rules 4
	}
	consumer := DefaultGroupConfig()
	consumer.protocol = ProtocolConsumer // a consumer group lists the consumer protocol's configs too
	for _, e := range consumer.Entries() {
		entries[e.Name] = e.Value
	}
	for _, d := range append(Configs(OnTopic), Configs(OnGroup)...) {
		t.Run(d.Name, func(t *testing.T) {
			if got := entries[d.Name]; got != d.DefaultValue() {
				t.Errorf("the engine's default is %q, the registry's %q", got, d.DefaultValue())
			}
			if d.KafkaDefault == "" {
				return
			}
			if d.Target == OnTopic {
				var c TopicConfig
				if err := configSpecs[slices.IndexFunc(configSpecs, func(s configSpec) bool { return s.Name == d.Name })].set(&c, d.KafkaDefault); err != nil {
					t.Errorf("Kafka's default: %v", err)
				}
				return
			}
			l := NewPartitionedLog(1)
			if err := l.SetGroupConfig("g", d.Name, d.KafkaDefault); err != nil {
				t.Errorf("Kafka's default: %v", err)
			}
		})
	}
	if defaultReplicaLagTimeMaxMs != 30_000 {
		t.Errorf("replica.lag.time.max.ms defaults to %dms", defaultReplicaLagTimeMaxMs)
	}
}

// Kafka's defaults as its admin API writes them, from Apache Kafka 4.0's
// LogConfig, ServerLogConfigs, ReplicationConfigs, ConsumerConfig and
// ProducerConfig.
func TestRegistryKafkaDefaults(t *testing.T) {
	var kafka TopicConfig
	for i := range configSpecs {
		if d := configSpecs[i].ConfigDef; d.KafkaDefault != "" {
			if err := configSpecs[i].set(&kafka, d.KafkaDefault); err != nil {
				t.Fatal(err)
			}
		}
	}
	topic := map[string]string{
		"cleanup.policy": "delete", "delete.retention.ms": "86400000", "message.timestamp.type": "CreateTime",
		"min.compaction.lag.ms": "0",
		"min.insync.replicas":   "1", "replication.factor": "1", "retention.bytes": "-1",
		"retention.ms": "604800000", "segment.bytes": "1073741824", "segment.ms": "604800000",
		"unclean.leader.election.enable": "false",
	}
	for name, want := range topic {
		t.Run(name, func(t *testing.T) {
			if got, ok := kafka.KafkaValue(name); !ok || got != want {
				t.Errorf("Kafka's default %q, want %q", got, want)
			}
		})
	}
	others := map[string]string{
		"enable.auto.commit": "true", "auto.commit.interval.ms": "5s", "auto.offset.reset": "latest",
		"session.timeout.ms": "45s", "replica.lag.time.max.ms": "30s", "acks": "all",
	}
	for name, want := range others {
		t.Run(name, func(t *testing.T) {
			var got string
			for _, d := range configRegistry {
				if d.Kafka() == name {
					got = d.KafkaDefault
				}
			}
			if got != want {
				t.Errorf("Kafka's default %q, want %q", got, want)
			}
		})
	}
}

// The playground says where it departs from Kafka: its own configs and the
// defaults it changes.
func TestDifferencesFromKafka(t *testing.T) {
	var got []string
	for _, d := range DifferencesFromKafka() {
		got = append(got, d.Name)
	}
	want := "delete.retention.ms partitioner retention.ms segment.bytes segment.ms segment.records " +
		"auto.commit.interval.ms delivery lag.alert.ms lag.alert.records rebalance.ms"
	if strings.Join(got, " ") != want {
		t.Errorf("differences\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
	for _, d := range DifferencesFromKafka() {
		if d.Scope != ScopePlayground && d.Kafka() == "" {
			t.Errorf("%s differs from a Kafka config but names none", d.Name)
		}
	}
}

func TestLookupConfig(t *testing.T) {
	tests := []struct {
		name   string
		target ConfigTarget
		lookup string
		want   string
	}{
		{"the name of links before rules 3", OnGroup, "auto.commit", "enable.auto.commit"},
		{"Kafka's name", OnGroup, "enable.auto.commit", "enable.auto.commit"},
		{"topic config", OnTopic, "retention.ms", "retention.ms"},
		{"wrong target", OnGroup, "retention.ms", ""},
		{"unknown", OnTopic, "retention.hours", ""},
		{"empty name", OnTopic, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, ok := LookupConfig(tt.target, tt.lookup)
			if d.Name != tt.want || ok != (tt.want != "") {
				t.Errorf("LookupConfig(%s, %q) = %q, %v; want %q", tt.target, tt.lookup, d.Name, ok, tt.want)
			}
		})
	}
	if d, _ := LookupConfig(OnGroup, "auto.commit"); d.Kafka() != "enable.auto.commit" || d.Name != "enable.auto.commit" {
		t.Errorf("auto.commit is Kafka's %q", d.Kafka())
	}
	if d, _ := LookupConfig(OnTopic, "segment.records"); d.Kafka() != "" {
		t.Errorf("segment.records is Kafka's %q", d.Kafka())
	}
}
