package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestKeptSectionCarriesTheNetworkSectionOver(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "BENCHMARKS.md")
	if got := keptSection(name); got != "" {
		t.Errorf("no report yet: kept %q, want nothing", got)
	}
	network := "\n## On a real network\n\nmeasured by hand\n"
	if err := os.WriteFile(name, []byte("# Benchmarks\n\n## Page\n\nold figures\n"+network), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := keptSection(name); got != network {
		t.Errorf("kept %q, want %q", got, network)
	}
	if err := os.WriteFile(name, []byte("# Benchmarks\n\n## Page\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := keptSection(name); got != "" {
		t.Errorf("a report without the section: kept %q, want nothing", got)
	}
}
