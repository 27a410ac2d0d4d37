package main

import (
	"strings"
	"testing"

	"plog/core"
	"plog/internal/kafkabroker"
)

// plogsim differences prints every simplification with what Kafka does,
// what plog does and why, and names the Kafka version plog follows: the
// broker the conformance suite runs.
func TestDifferencesCommand(t *testing.T) {
	code, out, errOut := plogsim(t, "", "differences")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "plog follows Apache Kafka "+core.KafkaVersion+".") {
		t.Errorf("the output does not name the Kafka version:\n%s", out)
	}
	for _, d := range core.Differences() {
		want := "\n" + d.Title + " [" + d.Name + "]\n  Kafka " + d.Version + ": " + d.Kafka + "\n  plog: " + d.Plog + "\n  why: " + d.Why + "\n"
		if !strings.Contains(out, want) {
			t.Errorf("the output lacks %s:\n%s", d.Name, want)
		}
	}
	if !strings.Contains(out, "segment.records (the playground's own) [segment.records]\n  Kafka 4.4: Kafka has no such config.") {
		t.Errorf("segment.records is not printed as the playground's own:\n%s", out)
	}
	if code, _, errOut := plogsim(t, "", "differences", "extra"); code != 2 || !strings.Contains(errOut, "takes no arguments") {
		t.Errorf("an argument: exit %d, %q", code, errOut)
	}
}

// The version the page and the CLI name is the broker the conformance
// suite runs.
func TestKafkaVersionIsTheConformanceBroker(t *testing.T) {
	if !strings.HasPrefix(kafkabroker.Version, core.KafkaVersion+".") {
		t.Errorf("core.KafkaVersion %s, but the conformance suite runs Kafka %s", core.KafkaVersion, kafkabroker.Version)
	}
}
