package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// .ci/install-go is how a fresh Debian machine, whose go is missing or too
// old to switch toolchains (Debian 12's is 1.19), ends with the Go that
// go.mod asks for. Run as it runs there: with no go on PATH at all, it
// unpacks Debian's golang-go and fetches the toolchain with it.
func TestInstallGoWithoutGoOnPath(t *testing.T) {
	if os.Getenv("PLOG_TEST_INSTALL") == "" {
		// It downloads a toolchain and may run apt-get: make test (and
		// so CI) sets PLOG_TEST_INSTALL, a contributor's go test does not.
		t.Skip("set PLOG_TEST_INSTALL=1 to install Go as .ci/install-go does (make test does)")
	}
	mod, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, line := range strings.Split(string(mod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			want = "go" + strings.TrimSpace(v)
		}
	}
	if want == "" {
		t.Fatal("go.mod has no go line")
	}

	// A PATH with every command of this one but go: a directory of links to
	// them. (Leaving out the directories that hold a go would leave out
	// apt-get too where Debian's go is installed in /usr/bin.)
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Name() == "go" || e.Name() == "gofmt" {
				continue
			}
			os.Symlink(filepath.Join(dir, e.Name()), filepath.Join(bin, e.Name())) // the first of a name wins
		}
	}
	path := bin
	if _, err := exec.Command("bash", "-c", "PATH="+path+"; command -v go").Output(); err == nil {
		t.Fatalf("a go is still on PATH=%s", path)
	}

	dest := filepath.Join(tmp, "goroot")
	install := func() string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "bash", ".ci/install-go", dest)
		cmd.Env = []string{"PATH=" + path, "HOME=" + tmp, "TMPDIR=" + tmp}
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf(".ci/install-go: %v\n%s", err, out)
		}
		return string(out)
	}
	out := install()
	if !strings.Contains(out, "no go on PATH: unpacking Debian's golang-") {
		t.Errorf("install-go did not bootstrap from Debian's go:\n%s", out)
	}
	cmd := exec.Command(filepath.Join(dest, "bin", "go"), "version")
	cmd.Env = []string{"PATH=" + path, "HOME=" + tmp, "GOTOOLCHAIN=local"}
	version, err := cmd.CombinedOutput()
	if err != nil || !strings.HasPrefix(string(version), "go version "+want+" ") {
		t.Fatalf("go version: %v %s, want %s", err, version, want)
	}
	// Its tools run: the module zip kept no file modes.
	cmd = exec.Command(filepath.Join(dest, "bin", "go"), "tool", "compile", "-V")
	cmd.Env = []string{"PATH=" + path, "HOME=" + tmp, "GOTOOLCHAIN=local"}
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), want) {
		t.Fatalf("go tool compile -V: %v\n%s", err, out)
	}
	// And the wasm runner the engine's tests use under wasm (make test-wasm).
	if info, err := os.Stat(filepath.Join(dest, "lib", "wasm", "go_js_wasm_exec")); err != nil || info.Mode()&0o111 == 0 {
		t.Errorf("lib/wasm/go_js_wasm_exec is not executable: %v %v", info, err)
	}
	// A second run finds it and fetches nothing.
	if out := install(); !strings.Contains(out, want+" is already in") {
		t.Errorf("second run:\n%s", out)
	}
}
