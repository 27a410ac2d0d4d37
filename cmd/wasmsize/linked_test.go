package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"plog/internal/gowasm"
)

// The page's wasm links no regexp, read from its functions' names: go-app's
// copy imports regexp for its RouteWithRegexp, which plog never calls, so
// regexp stays out of the wasm (0.10 MB of brotli, BENCHMARKS.md), but for
// its package's init, only as long as nothing calls it. What the wasm must
// not even import (net/http, Go's crypto, the bridge) wasm/deps_test.go
// checks with go list.
func TestWasmLinksNoRegexp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm")
	}
	out := filepath.Join(t.TempDir(), "app.wasm")
	if err := gowasm.Build("../../wasm", out, ""); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	m, err := parseModule(data)
	if err != nil {
		t.Fatal(err)
	}
	deps, err := exec.Command("go", "list", "-deps", "std").Output()
	if err != nil {
		t.Fatal(err)
	}
	names := newPackageNames(append(strings.Fields(string(deps)), "github.com/maxence-charriere/go-app/v9/pkg/app", "plog/app"))
	// A package that is imported runs its inits (init, init.0, ...),
	// which the wasm keeps whether or not anything else of the package is
	// called: only its other functions count as linked.
	var linked []string
	seen := map[string]bool{}
	for _, f := range m.functions {
		p := names.of(f.name)
		seen[p] = true
		rest, isInit := strings.CutPrefix(f.name, linkerSpelling(p)+".init")
		if isInit && strings.Trim(rest, ".0123456789") == "" {
			continue
		}
		if p == "regexp" || strings.HasPrefix(p, "regexp/") {
			linked = append(linked, f.name)
		}
	}
	if !seen["plog/app"] || !seen["fmt"] {
		t.Fatalf("the wasm's functions name no plog/app or fmt: %d functions read", len(m.functions))
	}
	if len(linked) > 0 {
		t.Errorf("the wasm links regexp: %s", strings.Join(linked, ", "))
	}
}
