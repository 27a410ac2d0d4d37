// Command benchreport runs plog's benchmarks and writes BENCHMARKS.md: the
// engine's benchmarks natively and in wasm under Node, each beside its
// baseline from the same run, the page's figures from cmd/pagebench in
// Chromium, and the budgets they are held to.
//
//	go run ./cmd/benchreport              # what make bench runs
//	go run ./cmd/benchreport -quick       # one short round, to try the tool
//
// It compiles each package's test binary once per platform, then runs the
// suites in rounds: every round runs every suite once on each platform, so
// an engine figure and its baseline are measured back to back and their
// ratio holds up on a machine busy with other work.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"plog/internal/gowasm"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("benchreport: ")
	out := flag.String("out", "BENCHMARKS.md", "the report to write")
	rounds := flag.Int("rounds", 5, "how many times each benchmark runs")
	page := flag.Bool("page", true, "measure the page in Chromium too (cmd/pagebench)")
	quick := flag.Bool("quick", false, "one round of single iterations, to try the tool")
	commit := flag.String("commit", "", "the commit measured, for a tree that is no git checkout (default: git describe --always --dirty)")
	flag.Parse()
	if *quick {
		*rounds = 1
	}
	if *commit == "" {
		*commit = strings.TrimSpace(output("git", "describe", "--always", "--dirty"))
	}
	r := &runner{rounds: *rounds, quick: *quick, commit: *commit, results: newResults()}
	if err := r.run(*page); err != nil {
		log.Fatal(err)
	}
	report := r.report() + keptSection(*out)
	if err := os.WriteFile(*out, []byte(report), 0o644); err != nil {
		log.Fatal(err)
	}
	log.Printf("wrote %s", *out)
	if len(r.failures) > 0 {
		log.Fatalf("%d runs failed; see %s", len(r.failures), *out)
	}
}

// networkHeading starts the section of BENCHMARKS.md that make bench does
// not measure: the wasm's size by package (cmd/wasmsize) and the page on
// throttled networks (cmd/pagebench -network), each run by hand on its own
// because the throttled runs take minutes. The report keeps it as it was.
const networkHeading = "\n## On a real network\n"

// keptSection is the network section of the report at name, or "".
func keptSection(name string) string {
	old, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	if i := strings.Index(string(old), networkHeading); i >= 0 {
		return string(old[i:])
	}
	return ""
}

// suite is one `go test -bench` run over a set of benchmarks that share a
// -benchtime.
type suite struct {
	pkg        string // package directory, e.g. ./core/
	bench      string // -bench pattern
	benchtime  string
	nativeOnly bool // go-app's browser code does not run under Node
}

// suites splits the benchmarks by how long one iteration takes: those that
// hold 1M records run one iteration per round (their setup alone fills the
// log); the rest run long enough to average over many.
var suites = []suite{
	{"./core/", "^(BenchmarkProduceKeyed|BenchmarkBaselineAppendKeyed|BenchmarkBaselineGrowingStoreKeyed)$", "300000x", false},
	{"./core/", "^(BenchmarkConsume|BenchmarkBaselineConsume|BenchmarkPoll|BenchmarkBaselinePoll|BenchmarkCommit|BenchmarkBaselineCommit)$", "2000x", false},
	{"./core/", "^(BenchmarkAssign1000PartitionsTo100Members|BenchmarkAssignTarget1000PartitionsTo100Members|BenchmarkBaselineAssign)$", "300ms", false},
	{"./core/", "^(BenchmarkRetention1M|BenchmarkBaselineRetention1M|BenchmarkCompact1M|BenchmarkBaselineCompact1M|BenchmarkBytesPerRecord|BenchmarkBaselineBytesPerRecord)$", "1x", false},
	{"./core/scenario/", "^(BenchmarkReplay10000Commands|BenchmarkBaselineParse10000Commands|BenchmarkSeekIn10000Steps|BenchmarkEncodeLink500Lines|BenchmarkBaselineDeflate500Lines|BenchmarkDecodeLink500Lines|BenchmarkBaselineInflate500Lines)$", "300ms", false},
	{"./core/scenario/", "^(BenchmarkUndoOnFullTopic|BenchmarkBaselineReplayFullTopic)$", "3x", false},
	{"./app/", "^(BenchmarkProduceClickOnFullTopic|BenchmarkLoadFullLink)$", "300ms", true},
}

// platform is where test binaries run: natively, or compiled to wasm and
// run by Go's Node wrapper.
type platform struct {
	name string
	env  []string // for go test -c
	exec string   // the program that runs a test binary; "" to run it directly
}

func platforms() []platform {
	exe, err := gowasm.ToolchainFile("go_js_wasm_exec")
	if err != nil {
		log.Fatal(err)
	}
	return []platform{
		{name: native},
		{name: wasm, env: []string{"GOOS=js", "GOARCH=wasm"}, exec: exe},
	}
}

// The platforms' names, as the report and results know them.
const (
	native   = "native"
	wasm     = "wasm"
	chromium = "chromium"
)

type runner struct {
	rounds   int
	quick    bool
	commit   string // what was measured; "" when unknown
	results  results
	commands []string // every command, in the order it ran
	failures []string
	started  time.Time
	took     time.Duration
	loadAvg  [2]string // /proc/loadavg before and after
	repo     string
}

func (r *runner) run(page bool) error {
	r.started = time.Now()
	r.loadAvg[0] = loadAverage()
	repo, err := os.Getwd()
	if err != nil {
		return err
	}
	r.repo = repo
	dir, err := os.MkdirTemp("", "plog-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	// One test binary per package and platform.
	binaries := map[string]string{}
	for _, p := range platforms() {
		for _, s := range suites {
			if s.nativeOnly && p.name != native {
				continue
			}
			key := p.name + " " + s.pkg
			if _, ok := binaries[key]; ok {
				continue
			}
			bin := filepath.Join(dir, p.name+"-"+strings.Trim(strings.ReplaceAll(s.pkg, "/", "-"), ".-")+".test")
			if err := r.command(p.env, "", nil, "go", "test", "-c", "-o", bin, s.pkg); err != nil {
				return err
			}
			binaries[key] = bin
		}
	}

	for round := 1; round <= r.rounds; round++ {
		log.Printf("round %d of %d", round, r.rounds)
		for _, p := range platforms() {
			for _, s := range suites {
				if s.nativeOnly && p.name != native {
					continue
				}
				benchtime := s.benchtime
				if r.quick {
					benchtime = "1x"
				}
				args := []string{binaries[p.name+" "+s.pkg], "-test.run", "^$", "-test.bench", s.bench,
					"-test.benchmem", "-test.count", "1", "-test.benchtime", benchtime}
				if p.exec != "" {
					args = append([]string{p.exec}, args...)
				}
				var out bytes.Buffer
				if err := r.command(nil, s.pkg, &out, args...); err != nil {
					r.failures = append(r.failures, fmt.Sprintf("%s %s: %v\n%s", p.name, s.pkg, err, tail(out.String())))
				}
				r.results.parse(p.name, round, out.String())
			}
		}
	}

	if page {
		runs := "5"
		if r.quick {
			runs = "1"
		}
		var out bytes.Buffer
		if err := r.command(nil, "", &out, "go", "run", "./cmd/pagebench", "-runs", runs); err != nil {
			r.failures = append(r.failures, fmt.Sprintf("pagebench: %v\n%s", err, tail(out.String())))
		}
		r.results.parse(chromium, 0, out.String())
	}
	r.loadAvg[1] = loadAverage()
	r.took = time.Since(r.started)
	return nil
}

// command runs a program in the repository (or in one of its package
// directories), echoing its output to stderr and, when out is set, keeping
// it there too. Each distinct command is noted for the report.
func (r *runner) command(env []string, dir string, out io.Writer, args ...string) error {
	shown := strings.Join(append(append([]string{}, env...), quoteAll(r.relative(args))...), " ")
	if dir != "" {
		shown = fmt.Sprintf("(cd %s && %s)", dir, shown)
	}
	r.note(shown)
	log.Print(shown)
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir = filepath.Join(r.repo, dir)
	cmd.Env = append(os.Environ(), env...)
	var w io.Writer = os.Stderr
	if out != nil {
		w = io.MultiWriter(os.Stderr, out)
	}
	cmd.Stdout, cmd.Stderr = w, os.Stderr
	return cmd.Run()
}

// note keeps a command for the report, once.
func (r *runner) note(command string) {
	for _, c := range r.commands {
		if c == command {
			return
		}
	}
	r.commands = append(r.commands, command)
}

// relative shows paths in temporary directories by their base name, so the
// report does not name this run's directories.
func (r *runner) relative(args []string) []string {
	shown := make([]string, len(args))
	for i, a := range args {
		shown[i] = a
		switch {
		case strings.HasPrefix(a, os.TempDir()) && strings.HasSuffix(a, ".test"):
			shown[i] = "$BIN/" + filepath.Base(a)
		case strings.HasSuffix(a, "go_js_wasm_exec"):
			shown[i] = `"$(go env GOROOT)/lib/wasm/go_js_wasm_exec"`
		}
	}
	return shown
}

func quoteAll(args []string) []string {
	quoted := make([]string, len(args))
	for i, a := range args {
		quoted[i] = a
		if strings.ContainsAny(a, " ^$|()*?\"'") && !strings.HasPrefix(a, "$BIN/") && !strings.HasPrefix(a, `"$(`) {
			quoted[i] = "'" + a + "'"
		}
	}
	return quoted
}

// output runs a command and returns its standard output, "" on failure.
func output(args ...string) string {
	out, err := exec.Command(args[0], args[1:]...).Output()
	if err != nil {
		return ""
	}
	return string(out)
}

// tail keeps the last lines of a failed run's output for the report.
func tail(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 20 {
		lines = lines[len(lines)-20:]
	}
	return strings.Join(lines, "\n")
}

func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	fields := strings.Fields(string(b))
	if len(fields) < 3 {
		return "unknown"
	}
	return strings.Join(fields[:3], " ")
}
