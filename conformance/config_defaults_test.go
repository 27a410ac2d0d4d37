package conformance

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"plog/core"
	"plog/core/units"
	"plog/internal/kafkabroker"
)

// The config registry (core/config_registry.go) against Kafka's own config
// definitions (kafkabroker.ConfigDefaults, from the release's LogConfig,
// AbstractKafkaConfig, ConsumerConfig and ProducerConfig): every config
// Kafka has carries Kafka's default, and the least value the playground
// accepts is Kafka's, or the registry names Kafka's own (KafkaMin) so that
// the page can say how the playground differs.
func TestConfigRegistryAgainstKafka(t *testing.T) {
	kafka, err := kafkabroker.ConfigDefaults()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, target := range []core.ConfigTarget{core.OnTopic, core.OnGroup, core.OnCluster, core.OnProduce} {
		for _, d := range core.Configs(target) {
			if d.Kafka() == "" {
				continue
			}
			t.Run(d.Name, func(t *testing.T) {
				scope, name := kafkaHome(d)
				k, ok := kafka[scope][name]
				if !ok {
					t.Fatalf("Kafka %s has no %s config %q", kafkabroker.Version, scope, name)
				}
				checked++
				want := normal(d, k.Default)
				if name == "partitioner.class" && want == "" {
					// Unset (null) is Kafka's built-in partitioner.
					want = core.PartitionerDefault
				}
				if got := rawValue(t, d, d.KafkaDefault); got != want {
					t.Errorf("the registry's Kafka default %q is %s; Kafka %s's %s %s default is %s", d.KafkaDefault, got, kafkabroker.Version, scope, name, want)
				}
				if k.Min == "" {
					return
				}
				least := d.Min
				if d.MinusOne {
					least = -1
				}
				if d.KafkaMin != nil {
					if *d.KafkaMin == least {
						t.Errorf("KafkaMin %d is the playground's own least value: drop it", least)
					}
					least = *d.KafkaMin
				}
				if strconv.FormatInt(least, 10) != k.Min {
					t.Errorf("Kafka's least %s is %s; the registry says %d", name, k.Min, least)
				}
			})
		}
	}
	// The bounds and delays the registry takes from the brokers' configs.
	broker := func(name string) string { return kafka["broker"][name].Default }
	session, _ := core.LookupConfig(core.OnGroup, "session.timeout.ms")
	if got := strconv.FormatInt(session.Min, 10); got != broker("group.min.session.timeout.ms") {
		t.Errorf("session.timeout.ms's least %s, the brokers' group.min.session.timeout.ms %s", got, broker("group.min.session.timeout.ms"))
	}
	if got := strconv.FormatInt(session.Max, 10); got != broker("group.max.session.timeout.ms") {
		t.Errorf("session.timeout.ms's most %s, the brokers' group.max.session.timeout.ms %s", got, broker("group.max.session.timeout.ms"))
	}
	// The cleaner's topic configs the playground has none of (core/
	// compaction.go): every topic takes the brokers' ratio, and no topic is
	// cleaned for its age alone (max.compaction.lag.ms is Long.MAX_VALUE).
	topic := func(name string) string { return kafka["topic"][name].Default }
	if got, want := topic("min.cleanable.dirty.ratio"), broker("log.cleaner.min.cleanable.ratio"); got == "" || got != want {
		t.Errorf("Kafka's topic min.cleanable.dirty.ratio %q, the brokers' log.cleaner.min.cleanable.ratio %q", got, want)
	}
	if got := topic("max.compaction.lag.ms"); got != strconv.FormatInt(math.MaxInt64, 10) {
		t.Errorf("Kafka's max.compaction.lag.ms default %q, the playground's cleaner assumes Long.MAX_VALUE", got)
	}
	if checked < 12 {
		t.Errorf("checked %d configs against Kafka's, want every config Kafka has (12 or more)", checked)
	}
}

// kafkaHome is where Kafka defines a config: replication.factor is the
// brokers' default.replication.factor, the rest are their scope's own.
func kafkaHome(d core.ConfigDef) (scope, name string) {
	if d.Name == "replication.factor" {
		return "broker", "default.replication.factor"
	}
	return string(d.Scope), d.Kafka()
}

// rawValue writes a registry value as Kafka's ConfigDef holds it: a
// duration in milliseconds, a size in bytes, a list sorted.
func rawValue(t *testing.T, d core.ConfigDef, value string) string {
	t.Helper()
	var table []units.Unit
	switch d.Kind {
	case core.KindDuration:
		table = units.Durations
	case core.KindSize:
		table = units.Sizes
	case core.KindList:
		return normal(d, value)
	default:
		return value
	}
	if _, err := strconv.ParseInt(value, 10, 64); err == nil { // -1, 0, or a bare number of ms or bytes
		return value
	}
	n, ok, _ := units.Parse(value, table, 1<<62)
	if !ok {
		t.Fatalf("the registry's value %q of %s does not read as a %s", value, d.Name, d.Kind)
	}
	return strconv.FormatInt(n, 10)
}

// normal sorts a list value, so that the order Kafka keeps it in does not
// count.
func normal(d core.ConfigDef, value string) string {
	if d.Kind != core.KindList {
		return value
	}
	words := strings.Split(value, ",")
	slices.Sort(words)
	return strings.Join(words, ",")
}
