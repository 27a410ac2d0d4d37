//go:build !js

package assign

import (
	"os/exec"
	"strings"
	"testing"
)

// TestImportsOnlyTheStandardLibrary keeps the assignors apart from the
// engine: core imports this package, and this package imports nothing but
// the standard library and core/digest (SHA-256, which imports only the
// standard library itself), so that it can be read, tested and checked
// against Kafka's assignors on its own.
func TestImportsOnlyTheStandardLibrary(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list dependencies with")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{.ImportPath}} {{.Standard}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) < 5 {
		t.Fatalf("go list gave %d packages, too few: %q", len(lines), out)
	}
	for _, line := range lines {
		path, standard, _ := strings.Cut(line, " ")
		if standard != "true" && path != "plog/core/assign" && path != "plog/core/digest" {
			t.Errorf("core/assign depends on %s", path)
		}
	}
}
