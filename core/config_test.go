package core

import (
	"strings"
	"testing"

	"plog/core/units"
)

func TestConfigUnits(t *testing.T) {
	cases := []struct {
		name, value string
		field       func(c TopicConfig) int64
		want        int64
	}{
		{"retention.ms", "7d", func(c TopicConfig) int64 { return c.RetentionMs }, 7 * 24 * 3600 * 1000},
		{"retention.ms", "500ms", func(c TopicConfig) int64 { return c.RetentionMs }, 500},
		{"retention.ms", "90000", func(c TopicConfig) int64 { return c.RetentionMs }, 90000},
		{"retention.ms", "-1", func(c TopicConfig) int64 { return c.RetentionMs }, -1},
		{"segment.ms", "10s", func(c TopicConfig) int64 { return c.SegmentMs }, 10000},
		{"delete.retention.ms", "2h", func(c TopicConfig) int64 { return c.DeleteRetentionMs }, 7200000},
		{"min.compaction.lag.ms", "5m", func(c TopicConfig) int64 { return c.MinCompactionLagMs }, 300000},
		{"segment.bytes", "4KB", func(c TopicConfig) int64 { return c.SegmentBytes }, 4096},
		{"segment.bytes", "1MB", func(c TopicConfig) int64 { return c.SegmentBytes }, 1 << 20},
		{"segment.bytes", "512B", func(c TopicConfig) int64 { return c.SegmentBytes }, 512},
		{"segment.bytes", "1GB", func(c TopicConfig) int64 { return c.SegmentBytes }, 1 << 30},
		{"retention.bytes", "-1", func(c TopicConfig) int64 { return c.RetentionBytes }, -1},
		{"retention.bytes", "0", func(c TopicConfig) int64 { return c.RetentionBytes }, 0},
		{"segment.records", "25", func(c TopicConfig) int64 { return c.SegmentRecords }, 25},
		{"segment.records", "-1", func(c TopicConfig) int64 { return c.SegmentRecords }, -1},
	}
	for _, c := range cases {
		t.Run(c.name+"="+c.value, func(t *testing.T) {
			l := NewPartitionedLog(1)
			if err := l.CreateTopic("t", 1, map[string]string{c.name: c.value}); err != nil {
				t.Fatal(err)
			}
			config, _ := l.TopicConfig("t")
			if got := c.field(config); got != c.want {
				t.Errorf("gives %d, want %d", got, c.want)
			}
		})
	}
}

func TestConfigRefusals(t *testing.T) {
	cases := []struct{ name, value, why string }{
		{"retention.ms", "7x", "unknown unit"},
		{"retention.ms", "1.5h", "unknown unit"},
		{"retention.ms", "-2", "want a number"},
		{"retention.ms", "", "want a number"},
		{"retention.ms", "99999999999999999999", "not a whole number"},
		{"retention.ms", "200000d", "above the maximum"},
		{"segment.ms", "0", "below the minimum"},
		{"segment.ms", "-1", "not allowed"},
		{"segment.bytes", "13", "below the minimum"},
		{"segment.bytes", "2GB", "above the maximum"},
		{"segment.bytes", "4kg", "unknown unit"},
		{"segment.bytes", "7d", "unknown unit"},
		{"retention.ms", "4KB", "unknown unit"},
		{"segment.records", "0", "below the minimum"},
		{"cleanup.policy", "shred", "want one of"},
		{"partitioner", "random", "want one of"},
		{"retention.hours", "1", "unknown topic config name"},
	}
	for _, c := range cases {
		t.Run(c.name+"="+c.value, func(t *testing.T) {
			l := NewPartitionedLog(1)
			err := l.CreateTopic("t", 1, map[string]string{c.name: c.value})
			if err == nil || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), `"t"`) {
				t.Errorf("error %v, want one saying %q and naming the topic", err, c.why)
			}
			if len(l.TopicNames()) != 0 {
				t.Error("the topic was created anyway")
			}
			if err := newTestLog(t, "u", 1, nil).SetTopicConfig("u", c.name, c.value); err == nil {
				t.Error("SetTopicConfig accepted it")
			}
		})
	}
}

func TestDefaultEntries(t *testing.T) {
	var got []string
	for _, e := range DefaultTopicConfig().Entries() {
		got = append(got, e.Name+"="+e.Value)
	}
	want := "cleanup.policy=delete delete.retention.ms=10m message.timestamp.type=CreateTime min.compaction.lag.ms=0 min.insync.replicas=1 partitioner=round-robin " +
		"replication.factor=1 retention.bytes=-1 retention.ms=1h segment.bytes=1KB segment.ms=10m segment.records=10 " +
		"unclean.leader.election.enable=false"
	if strings.Join(got, " ") != want {
		t.Fatalf("defaults\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

func TestEntriesRoundTrip(t *testing.T) {
	configs := map[string]string{
		"cleanup.policy": "delete,compact", "retention.ms": "90000", "segment.bytes": "4096",
		"segment.ms": "3600000", "retention.bytes": "1500", "partitioner": "sticky",
		"delete.retention.ms": "1500", "min.compaction.lag.ms": "60s", "segment.records": "-1",
	}
	l := newTestLogUnder(t, RulesV1, "t", 1, configs)
	config, _ := l.TopicConfig("t")
	canonical := map[string]string{}
	for _, e := range config.Entries() {
		canonical[e.Name] = e.Value
	}
	want := map[string]string{
		"cleanup.policy": "compact,delete", "retention.ms": "90s", "segment.bytes": "4KB", "segment.ms": "1h",
		"retention.bytes": "1500B", "partitioner": "sticky", "delete.retention.ms": "1500ms",
		"min.compaction.lag.ms": "1m", "segment.records": "-1",
	}
	for name, value := range want {
		if canonical[name] != value {
			t.Errorf("%s: canonical %q, want %q", name, canonical[name], value)
		}
	}
	again := newTestLogUnder(t, RulesV1, "t", 1, canonical)
	if config2, _ := again.TopicConfig("t"); config2 != config {
		t.Fatalf("round trip: %+v vs %+v", config2, config)
	}
}

func TestTopicNames(t *testing.T) {
	l := NewPartitionedLog(1)
	for _, name := range []string{"payments", "audit.log", "orders_v2", "A-1"} {
		if err := l.CreateTopic(name, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(l.TopicNames(), " "); got != "A-1 audit.log orders_v2 payments" {
		t.Fatalf("names %s", got)
	}
	for _, bad := range []string{"", ".", "..", "has space", "ü", strings.Repeat("x", 250)} {
		if err := l.CreateTopic(bad, 1, nil); err == nil {
			t.Errorf("topic name %q accepted", bad)
		}
	}
	if err := l.CreateTopic("audit_log", 1, nil); err == nil || !strings.Contains(err.Error(), "collides") {
		t.Errorf("audit_log beside audit.log: %v", err)
	}
	if err := l.CreateTopic(strings.Repeat("x", 249), 1000, nil); err != nil {
		t.Errorf("249 characters and 1000 partitions: %v", err)
	}
}

func TestDurationHelpers(t *testing.T) {
	for _, c := range []struct {
		text string
		ms   int64
	}{{"500ms", 500}, {"10s", 10000}, {"5m", 300000}, {"2h", 7200000}, {"7d", 604800000}, {"0", 0}} {
		t.Run(c.text, func(t *testing.T) {
			got, err := ParseDuration(c.text)
			if err != nil || got != c.ms {
				t.Errorf("ParseDuration(%q) = %d, %v", c.text, got, err)
			}
			if c.ms > 0 && units.Duration(c.ms) != c.text {
				t.Errorf("units.Duration(%d) = %q", c.ms, units.Duration(c.ms))
			}
		})
	}
	if _, err := ParseDuration("-1"); err == nil {
		t.Error("ParseDuration(-1) accepted")
	}
}

// message.timestamp.type takes Kafka's two values, in any case, and says
// whose clock a record's timestamp is.
func TestMessageTimestampType(t *testing.T) {
	l := newTestLog(t, "t", 1, map[string]string{"message.timestamp.type": "logappendtime"})
	cfg, err := l.TopicConfig("t")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.TimestampType != TimestampLogAppendTime || !strings.HasPrefix(cfg.TimestampClock(), "LogAppendTime: the broker's clock") {
		t.Fatalf("message.timestamp.type=logappendtime read as %q (%s)", cfg.TimestampType, cfg.TimestampClock())
	}
	if v, _ := cfg.KafkaValue("message.timestamp.type"); v != "LogAppendTime" {
		t.Errorf("sent to Kafka as %q, want LogAppendTime", v)
	}
	if d := DefaultTopicConfig(); d.TimestampType != TimestampCreateTime || !strings.HasPrefix(d.TimestampClock(), "CreateTime: the producer's clock") {
		t.Errorf("default %q (%s), want CreateTime", d.TimestampType, d.TimestampClock())
	}
	if err := l.SetTopicConfig("t", "message.timestamp.type", "BrokerTime"); err == nil || !strings.Contains(err.Error(), "CreateTime, LogAppendTime") {
		t.Errorf("an unknown timestamp type: %v", err)
	}
	if cfg, _ := l.TopicConfig("t"); cfg.TimestampType != TimestampLogAppendTime {
		t.Errorf("a refused value changed the config to %q", cfg.TimestampType)
	}
}
