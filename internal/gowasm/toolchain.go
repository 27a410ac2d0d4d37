package gowasm

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ToolchainFile is the path of a file of the Go toolchain's lib/wasm
// (wasm_exec.js, the page's glue, which must match the toolchain that built
// the wasm; go_js_wasm_exec, which runs a wasm under Node).
func ToolchainFile(name string) (string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return "", fmt.Errorf("finding the Go toolchain (go env GOROOT): %w", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "lib", "wasm", name), nil
}

// Build builds the main package pkg (a path as go build takes it, from the
// working directory) for GOOS=js GOARCH=wasm into out, with the linker
// flags ldflags: "-s -w" as make wasm builds the page's.
func Build(pkg, out, ldflags string) error {
	cmd := exec.Command("go", "build", "-ldflags", ldflags, "-o", out, pkg)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build -ldflags %q %s for js/wasm: %v\n%s", ldflags, pkg, err, b)
	}
	return nil
}

// AppendSection appends a section of the binary format: its id, its
// payload's size and the payload.
func AppendSection(b []byte, id byte, payload []byte) []byte {
	b = append(b, id)
	b = binary.AppendUvarint(b, uint64(len(payload)))
	return append(b, payload...)
}
