package main

import (
	"os"
	"path/filepath"
	"testing"

	"plog/core/scenario"
)

// The seek measured must cross the history it names, whole: a scenario
// that stopped at an error part way would measure a shorter seek.
func TestSeekScenarioLoadsWhole(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", seekScenario))
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Load(string(script))
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != seekSteps {
		t.Fatalf("the seek's scenario has %d steps, want %d", s.Len(), seekSteps)
	}
}
