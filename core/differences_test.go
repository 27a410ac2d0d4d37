package core

import (
	"strings"
	"testing"
)

// Every deliberate simplification has its words: what Kafka does, what plog
// does, why, and the Kafka version; every config that departs from Kafka
// is among them, with a reason of its own.
func TestDifferences(t *testing.T) {
	seen := map[string]bool{}
	for _, d := range Differences() {
		if seen[d.Name] {
			t.Errorf("two entries named %s", d.Name)
		}
		seen[d.Name] = true
		if d.Name == "" || d.Title == "" || d.Kafka == "" || d.Plog == "" || d.Why == "" || d.Version != KafkaVersion {
			t.Errorf("entry %s lacks words: %+v", d.Name, d)
		}
	}
	for _, def := range DifferencesFromKafka() {
		if !seen[def.Name] {
			t.Errorf("config %s departs from Kafka but has no entry", def.Name)
		}
		if _, ok := configWhy[def.Name]; !ok {
			t.Errorf("config %s departs from Kafka but configWhy does not say why", def.Name)
		}
	}
	for name := range configWhy {
		if def, ok := LookupConfig(OnTopic, name); ok && !def.DiffersFromKafka() {
			t.Errorf("configWhy explains %s, which does not depart from Kafka", name)
		}
		if _, ok := LookupDifference(name); !ok {
			t.Errorf("configWhy explains %s, which is no entry", name)
		}
	}
	// Under rules 3 the consumer's defaults are Kafka's: no entry.
	for _, name := range []string{"enable.auto.commit", "auto.commit", "auto.offset.reset"} {
		if d, ok := LookupDifference(name); ok {
			t.Errorf("%s matches Kafka under the latest rules, yet has an entry: %+v", name, d)
		}
	}
	d, ok := LookupDifference("retention.ms")
	if !ok || !strings.HasPrefix(d.Kafka, "Default 7d.") || !strings.HasPrefix(d.Plog, "Default 1h: ") {
		t.Errorf("retention.ms's entry %+v", d)
	}
	d, ok = LookupDifference("segment.records")
	if !ok || !strings.HasPrefix(d.Kafka, "Kafka has no such config.") || !strings.HasSuffix(d.Plog, "Default 10.") {
		t.Errorf("segment.records' entry %+v", d)
	}
	if _, ok := LookupDifference("no such entry"); ok {
		t.Error("an unknown entry was found")
	}
}
