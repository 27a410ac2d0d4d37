package main

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The page's wasm must not carry what only a server or the cluster bridge
// needs: net/http (with crypto/tls and x509 behind it, about 0.4 MB of
// brotli), and the bridge to real clusters (kafkarun, franz-go), which
// could not run in a browser anyway. go-app's copy in third_party/go-app
// builds its HTTP handler only outside wasm for this. Nor any of Go's
// crypto: the page keeps no secret, and crypto/sha256 alone links Go's
// FIPS 140 module (core/digest does SHA-256 instead; go-app's copy has no
// encryption and draws its ids without github.com/google/uuid).
func TestWasmLeavesOutServerPackages(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", ".")
	cmd.Env = append(cmd.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 || !slices.Contains(deps, "plog/app") {
		t.Fatalf("go list -deps lists %d packages, without plog/app: %q", len(deps), deps)
	}
	for _, dep := range deps {
		for _, banned := range []string{"net/http", "crypto/tls", "crypto/x509", "text/template", "plog/kafkarun", "github.com/twmb/franz-go", "crypto", "github.com/google/uuid"} {
			if dep == banned || strings.HasPrefix(dep, banned+"/") {
				t.Errorf("the wasm links %s", dep)
			}
		}
	}
}
