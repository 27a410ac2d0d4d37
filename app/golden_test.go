package app

import (
	goflag "flag"
	"os"
	"path/filepath"
	"testing"
)

// rewrite rewrites the golden files the page's tests compare with, when a
// change to them is meant: go test ./app/ -rewrite, the same flag as core's
// (docs/ARCHITECTURE.md).
var rewrite = goflag.Bool("rewrite", false, "rewrite the golden files: testdata/lag_charts.html, cmd/plogsim/testdata/downloaded.plog, web/static/preview.png")

// golden returns what the golden file at path holds, after writing got to
// it under -rewrite.
func golden(t *testing.T, path string, got []byte) []byte {
	t.Helper()
	if *rewrite {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./app/ -rewrite writes it)", err)
	}
	return want
}
