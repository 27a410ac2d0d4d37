package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"plog/internal/gowasm"
)

// slimexec runs the program slimmed and passes on its exit code: 0 when it
// returns, 2 when it panics (the Go runtime's), and refuses a file that is
// not a Go wasm.
func TestRunsSlimmedAndPassesOnTheExitCode(t *testing.T) {
	program := filepath.Join(t.TempDir(), "program.wasm")
	if err := gowasm.Build("../../internal/gowasm/testdata/program", program, "-s -w"); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]int{"": 0, "panic": 2} {
		code, err := run(append([]string{program}, strings.Fields(args)...))
		if err != nil || code != want {
			t.Errorf("slimexec program %s = %d, %v; want exit code %d", args, code, err, want)
		}
	}
	notWasm := filepath.Join(t.TempDir(), "x.wasm")
	if err := os.WriteFile(notWasm, []byte("not a wasm"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := run([]string{notWasm}); err == nil || !strings.Contains(err.Error(), "not a WebAssembly binary") {
		t.Errorf("slimexec on a file that is not a wasm: %v", err)
	}
}
