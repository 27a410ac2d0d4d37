package app

import (
	"strings"
	"testing"

	"plog/core/scenario"
)

func TestClusterCommandCarriesTheAppliedSteps(t *testing.T) {
	lines := []string{"seed 1", "topic orders partitions=2", "produce orders key=a", "produce orders key=b"}
	for _, position := range []int{0, 2, 4, 9} {
		command, err := clusterCommand(lines, position, 0)
		if err != nil {
			t.Fatal(err)
		}
		link, ok := strings.CutPrefix(command, "plogsim kafka --brokers localhost:9092 --link '#")
		if !ok {
			t.Fatalf("command %q", command)
		}
		script, err := scenario.DecodeLink(strings.TrimSuffix(link, "'"))
		if err != nil {
			t.Fatal(err)
		}
		applied, _ := scenario.WithRulesLine(lines[:min(position, len(lines))], 0) // the link says its rules
		if got := strings.TrimSpace(script); got != strings.Join(applied, "\n") {
			t.Errorf("at %d the command runs %q, want %q", position, got, applied)
		}
	}
}
