// Command slimexec runs a Go wasm slimmed as the site serves the page's
// (internal/gowasm), with the toolchain's go_js_wasm_exec: make test-wasm
// runs the engine's tests through it, so that they run on what the page
// runs.
//
//	go build -o bin/slimexec ./cmd/slimexec
//	GOOS=js GOARCH=wasm go test -exec=$PWD/bin/slimexec ./core/...
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"plog/internal/gowasm"
)

func main() {
	code, err := run(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "slimexec:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func run(args []string) (int, error) {
	if len(args) == 0 {
		return 0, errors.New("usage: slimexec program.wasm [arguments]")
	}
	built, err := os.ReadFile(args[0])
	if err != nil {
		return 0, err
	}
	slim, warning, err := gowasm.SlimOrBuilt(built)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", args[0], err)
	}
	if warning != nil {
		fmt.Fprintf(os.Stderr, "slimexec: warning: %s: %v\n", args[0], warning)
	}
	dir, err := os.MkdirTemp("", "plog-slimexec-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	// go_js_wasm_exec takes the program's name from the file: keep it.
	program := filepath.Join(dir, filepath.Base(args[0]))
	if err := os.WriteFile(program, slim, 0o755); err != nil {
		return 0, err
	}
	exe, err := gowasm.ToolchainFile("go_js_wasm_exec")
	if err != nil {
		return 0, err
	}
	cmd := exec.Command(exe, append([]string{program}, args[1:]...)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	var exit *exec.ExitError
	if err := cmd.Run(); errors.As(err, &exit) {
		return exit.ExitCode(), nil
	} else if err != nil {
		return 0, err
	}
	return 0, nil
}
