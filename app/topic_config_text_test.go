package app

import (
	"testing"

	"plog/core"
)

// A topic's header lists only the configs that shape its lanes and are
// not at Kafka's default: the playground's retention.ms and its own
// segment.records; compaction once set; Kafka's defaults said once.
func TestTopicHeaderListsOnlyConfigsNotAtKafkasDefault(t *testing.T) {
	entries := func(pairs ...string) []core.ConfigEntry {
		var out []core.ConfigEntry
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, core.ConfigEntry{Name: pairs[i], Value: pairs[i+1]})
		}
		return out
	}
	for _, c := range []struct {
		configs []core.ConfigEntry
		want    string
	}{
		{entries("cleanup.policy", "delete", "retention.bytes", "-1", "retention.ms", "1h", "segment.records", "10"), "retention.ms=1h · segment.records=10"},
		{entries("cleanup.policy", "compact", "retention.bytes", "-1", "retention.ms", "7d"), "cleanup.policy=compact"},
		{entries("cleanup.policy", "delete", "retention.ms", "7d", "min.insync.replicas", "2"), "Kafka's default configs"},
	} {
		if got := configText(TopicSnapshot{Configs: c.configs}); got != c.want {
			t.Errorf("configText(%v) = %q, want %q", c.configs, got, c.want)
		}
	}
}
