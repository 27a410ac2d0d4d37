package kafkarun

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestFranzGoStaysOutOfTheWasm checks that the page never links franz-go
// nor this package: the wasm must stay small, and a browser cannot open a
// TCP connection to a broker anyway. It lists what the browser's main, the
// UI and the engine depend on when built for js/wasm.
func TestFranzGoStaysOutOfTheWasm(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to list dependencies with")
	}
	cmd := exec.Command(goTool, "list", "-deps", "./wasm", "./app/...", "./core/...")
	cmd.Dir = ".." // the module's root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list gave %d packages, too few to be the wasm's: %q", len(deps), out)
	}
	for _, dep := range deps {
		if strings.HasPrefix(dep, "github.com/twmb/franz-go") || dep == "plog/kafkarun" {
			t.Errorf("the wasm depends on %s", dep)
		}
	}
}
