package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// What the page's wasm links, read from its functions' names, not from
// its imports (wasm/deps_test.go checks those): go-app's copy imports
// regexp for its RouteWithRegexp, which plog never calls, so regexp stays
// out of the wasm (0.10 MB of brotli, BENCHMARKS.md), but for its
// package's init, only as long as nothing calls it; the same goes for the
// server's packages and Go's crypto.
func TestWasmLinksNoRegexpNorServerNorCrypto(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the wasm")
	}
	out := filepath.Join(t.TempDir(), "app.wasm")
	cmd := exec.Command("go", "build", "-o", out, "../../wasm")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
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
	linked := map[string]bool{}
	for _, f := range m.functions {
		p := names.of(f.name)
		rest, isInit := strings.CutPrefix(f.name, linkerSpelling(p)+".init")
		if !isInit || rest != "" && strings.Trim(rest, ".0123456789") != "" {
			linked[p] = true
		}
	}
	if !linked["plog/app"] || !linked["fmt"] {
		t.Fatalf("the wasm's functions name no plog/app or fmt: %d functions read", len(m.functions))
	}
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range linked {
			if !yield(p) {
				return
			}
		}
	}) {
		for _, banned := range []string{"regexp", "net/http", "crypto"} {
			if p == banned || strings.HasPrefix(p, banned+"/") {
				var fs []string
				for _, f := range m.functions {
					if names.of(f.name) == p {
						fs = append(fs, f.name)
					}
				}
				t.Errorf("the wasm links %s: %s", p, strings.Join(fs, ", "))
			}
		}
	}
}
