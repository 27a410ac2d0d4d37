package app

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The page keeps no engine rule and cannot change the engine: it reads the
// engine only in its snapshot files (snapshot*.go), through the read-only
// core.ReadOnlyLog a Session hands out, and renders from the snapshot. No
// other file of the page asks the session for its engine, and none names
// the engine's mutable type, so none can assert its way back to it.
func TestThePageReadsTheEngineOnlyInItsSnapshot(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) < 10 {
		t.Fatalf("the page's files: %v, %v", files, err)
	}
	engine := regexp.MustCompile(`\.Log\(\)|core\.ReadOnlyLog`)
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(src), "PartitionedLog") {
			t.Errorf("%s names core.PartitionedLog, the mutable engine", file)
		}
		if !strings.HasPrefix(file, "snapshot") && engine.Match(src) {
			t.Errorf("%s reads the engine (%s): only the snapshot files may", file, engine.Find(src))
		}
	}
}
