package scenario

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoldenJSON loads every testdata/golden/*.plog and compares its state
// as JSON with the .json file beside it, byte for byte. It runs natively
// and under WebAssembly:
//
//	GOOS=js GOARCH=wasm go test -exec="$(go env GOROOT)/lib/wasm/go_js_wasm_exec" ./core/scenario/
//
// so one script is seen to give the same bytes on both. Rewrite the files
// with -rewrite (natively).
func TestGoldenJSON(t *testing.T) {
	scripts, err := filepath.Glob("testdata/golden/*.plog")
	if err != nil || len(scripts) == 0 {
		t.Fatalf("no golden scripts: %v", err)
	}
	for _, path := range scripts {
		t.Run(filepath.Base(path), func(t *testing.T) {
			script, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := Load(string(script))
			if err != nil {
				t.Fatal(err)
			}
			got, err := StateJSON(s.Log())
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(path, ".plog") + ".json"
			if rewriting() {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: state differs from %s (rewrite with -rewrite if the change is meant)", path, golden)
			}
		})
	}
}

// rewriting reports whether the datadriven -rewrite flag is set.
func rewriting() bool {
	f := flag.Lookup("rewrite")
	return f != nil && f.Value.String() == "true"
}
