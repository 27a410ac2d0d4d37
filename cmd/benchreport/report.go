package main

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"plog/core/units"
)

// figure is one row of the engine tables: a benchmark, its baseline, and
// the unit that says how it did.
type figure struct {
	what     string
	bench    string
	baseline string
	unit     string
}

// engineFigures are the engine figures, in the order of the report.
var engineFigures = []struct {
	section string
	figures []figure
}{
	{produceSection, []figure{
		{"keyed produce into 16 partitions (bare: append the same records to a freshly allocated, growing store of the engine's shape, the produce budget's baseline)", "ProduceKeyed", produceBaseline, "records/s"},
		{"keyed produce into 16 partitions (bare: append the same records to a slice touched before the clock starts)", "ProduceKeyed", "BaselineAppendKeyed", "records/s"},
		{"consume 500 records from a partition of 1M (bare: copy them from a slice)", "Consume", "BaselineConsume", "ns/op"},
		{"poll 500 records through a group, member holding 100 partitions (bare: wrap them in deliveries)", "Poll", "BaselinePoll", "ns/op"},
		{"commit the positions of 100 partitions (bare: 100 map writes)", "Commit", "BaselineCommit", "ns/op"},
	}},
	{"Assignment of 1,000 partitions to 100 members (bare: deal them in turn)", assignFigures()},
	{"Retention and compaction over 1,000,000 records", []figure{
		{"retention.ms deletes 490,000 of 1,000,000 records in segments of 1,000 (bare: find the cut in a slice, drop the head)", "Retention1M", "BaselineRetention1M", "ns/op"},
		{"compaction of 1,000,000 records over 10,000 keys (bare: latest offset per key in a map, then filter)", "Compact1M", "BaselineCompact1M", "ns/op"},
	}},
	{"Scenarios", []figure{
		{"replay a 10,000-command scenario (bare: parse it only)", "Replay10000Commands", "BaselineParse10000Commands", "ns/op"},
		{"seek in a 10,000-step history (bare: replay it all, as a seek without checkpoints would)", "SeekIn10000Steps", "Replay10000Commands", "ns/op"},
		{"undo the last step of a 12-step history holding 100,000 records, as the page's undo does (bare: replay it all)", "UndoOnFullTopic", "BaselineReplayFullTopic", "ns/op"},
		{"encode a 500-line script as a link (bare: DEFLATE and base64 of the text as it is)", "EncodeLink500Lines", "BaselineDeflate500Lines", "ns/op"},
		{"decode a 500-line link (bare: base64 and inflate)", "DecodeLink500Lines", "BaselineInflate500Lines", "ns/op"},
	}},
	{"Memory", []figure{
		{"heap per record beyond key and value, 1,048,576 records held (bare: a preallocated []Record)", "BytesPerRecord", "BaselineBytesPerRecord", "bytes/record"},
	}},
}

func assignFigures() []figure {
	var out []figure
	for _, subscriptions := range []string{"equal", "unequal"} {
		for _, strategy := range []string{"range", "roundrobin", "sticky", "cooperative-sticky"} {
			out = append(out, figure{
				what:     fmt.Sprintf("%s, %s subscriptions", strategy, subscriptions),
				bench:    "Assign1000PartitionsTo100Members/" + subscriptions + "/" + strategy,
				baseline: "BaselineAssign", unit: "ns/op",
			})
		}
		// The consumer protocol's server-side assignors, one member gone
		// from a group holding its target assignment.
		for _, assignor := range []string{"uniform", "range"} {
			out = append(out, figure{
				what:     fmt.Sprintf("server-side %s (consumer protocol), %s subscriptions", assignor, subscriptions),
				bench:    "AssignTarget1000PartitionsTo100Members/" + subscriptions + "/" + assignor,
				baseline: "BaselineAssign", unit: "ns/op",
			})
		}
	}
	return out
}

// budget is one of the budgets: a figure's median (or its ratio to
// a baseline) against a limit.
type budget struct {
	what     string
	platform string
	bench    string
	unit     string
	baseline string // set: the budget holds the ratio to this baseline
	limit    float64
	atLeast  bool // the figure must reach the limit, not stay under it
}

// produceBaseline is the keyed produce budget's baseline: a bare append of
// the same records into a freshly allocated, growing store of the same shape
// as the engine's record store, in the same run (core/baseline_bench_test.go).
// The append into a slice touched before the clock starts
// (BaselineAppendKeyed) stays in the engine table, as information: no
// engine whose storage grows as records arrive can come within 3x of it
// (docs/performance.md).
const produceBaseline = "BaselineGrowingStoreKeyed"

var budgets = []budget{
	{what: "keyed produce within 3x of a bare append into a freshly allocated, growing store of the same shape, natively", platform: native, bench: "ProduceKeyed", unit: "records/s", baseline: produceBaseline, limit: 3},
	{what: "keyed produce within 3x of a bare append into a freshly allocated, growing store of the same shape, in wasm", platform: wasm, bench: "ProduceKeyed", unit: "records/s", baseline: produceBaseline, limit: 3},
	{what: "keyed produce at least 5 M records/s natively", platform: native, bench: "ProduceKeyed", unit: "records/s", limit: 5e6, atLeast: true},
	{what: "keyed produce at least 1 M records/s in wasm", platform: wasm, bench: "ProduceKeyed", unit: "records/s", limit: 1e6, atLeast: true},
	{what: "replay of 10,000 commands under 50 ms natively", platform: native, bench: "Replay10000Commands", unit: "ns/op", limit: 50e6},
	{what: "seek in a 10,000-step history under 30 ms, natively", platform: native, bench: "SeekIn10000Steps", unit: "ns/op", limit: 30e6},
	{what: "seek in a 10,000-step history under 30 ms, in wasm (the page's engine)", platform: wasm, bench: "SeekIn10000Steps", unit: "ns/op", limit: 30e6},
	{what: "at most 64 bytes per record beyond key and value, natively", platform: native, bench: "BytesPerRecord", unit: "bytes/record", limit: 64},
	{what: "at most 64 bytes per record beyond key and value, in wasm", platform: wasm, bench: "BytesPerRecord", unit: "bytes/record", limit: 64},
	{what: "wasm at most 3.3 MB (3,300,000 bytes) with brotli", platform: chromium, bench: "PageWasmSize", unit: "brotli-bytes", limit: 3.3e6},
	{what: "page ready within 1.5 s cold on loopback", platform: chromium, bench: "PageReadyCold", unit: "ns/op", limit: 1.5e9},
	{what: "produce click to repaint under 50 ms at 100,000 records", platform: chromium, bench: "PageProduceToRepaint100k", unit: "ns/op", limit: 50e6},
	{what: "seek across 1,000 steps, back to step 1, within 50 ms (slider to the frame that shows it)", platform: chromium, bench: "PageSeek1000Back", unit: "ns/op", limit: 50e6},
	{what: "seek across 1,000 steps, forward from step 1, within 50 ms (slider to the frame that shows it)", platform: chromium, bench: "PageSeek1000Forward", unit: "ns/op", limit: 50e6},
}

// verdict says whether a budget holds, from the median: the figure shown,
// and pass, miss or not measured.
func (r *runner) verdict(b budget) (measured, mark string) {
	values := r.results.values(b.platform, b.bench, b.unit)
	if b.baseline != "" {
		values = r.results.ratios(b.platform, b.bench, b.baseline, b.unit)
	}
	s, ok := spreadOf(values)
	if !ok {
		return "not measured", "**not measured**"
	}
	if b.baseline != "" {
		measured = fmt.Sprintf("%s slower than bare", ratio(s.median))
		if s.n > 1 {
			measured += fmt.Sprintf(" (%s–%s)", ratio(s.min), ratio(s.max))
		}
	} else {
		measured = formatSpread(s, b.unit)
	}
	pass := s.median <= b.limit
	if b.atLeast {
		pass = s.median >= b.limit
	}
	if pass {
		return measured, "pass"
	}
	return measured, "**miss**"
}

func (r *runner) report() string {
	var w strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&w, format, args...) }
	p("# Benchmarks\n\n")
	p("Written by `make bench` (`go run ./cmd/benchreport`) on %s, in %s. Run it again to refresh; do not edit by hand.\n\n",
		r.started.UTC().Format("2006-01-02 15:04 MST"), r.took.Round(time.Second))
	p("Each figure is the median of its samples with the spread (least–greatest) beside it. ")
	p("Each engine figure has a baseline: the same work done by the simplest code on a plain slice or map, ")
	p("measured back to back with it in the same round, and the ratio is the median of the rounds' ratios. ")
	p("This machine is shared with other builds and tests, so absolute figures are noisy (load average %s at the start, %s at the end): ", r.loadAvg[0], r.loadAvg[1])
	p("compare the ratios, which come from one run, rather than absolute figures across runs.\n\n")

	r.writeMachine(&w)

	p("## Budgets\n\n| budget | measured (median, spread) | verdict |\n|---|---|---|\n")
	for _, b := range budgets {
		measured, mark := r.verdict(b)
		p("| %s | %s | %s |\n", b.what, measured, mark)
	}
	p("\n")

	p("## Engine\n\n")
	p("Natively and in wasm under Node, %s each. Ratio: how many times slower (or bigger) than the bare baseline.\n\n", units.Plural(int64(r.rounds), "round"))
	for _, section := range engineFigures {
		p("### %s\n\n", section.section)
		p("| figure | native | native bare | ratio | allocs/op | wasm | wasm bare | ratio |\n|---|---|---|---|---|---|---|---|\n")
		for _, f := range section.figures {
			p("| %s | %s | %s | %s | %s | %s | %s | %s |\n", f.what,
				r.cell(native, f.bench, f.unit), r.cell(native, f.baseline, f.unit), r.ratioCell(native, f),
				r.allocs(native, f.bench),
				r.cell(wasm, f.bench, f.unit), r.cell(wasm, f.baseline, f.unit), r.ratioCell(wasm, f))
		}
		p("\n")
		if section.section == produceSection {
			r.writeProduceNote(&w)
		}
	}

	r.writePage(&w)

	p("## Commands\n\n")
	p("Run from the repository's root; `$BIN` is a temporary directory. Each test binary is built once, then every round runs each benchmark line once per platform")
	p(" (`-test.count 1`), so that a figure and its baseline run back to back.\n\n```sh\n")
	for _, c := range r.commands {
		p("%s\n", c)
	}
	p("```\n")
	if len(r.failures) > 0 {
		p("\n## Failures\n\n")
		for _, f := range r.failures {
			p("```\n%s\n```\n\n", f)
		}
	}
	return w.String()
}

func (r *runner) writeMachine(w *strings.Builder) {
	cpu, cores := cpuInfo()
	fmt.Fprintf(w, "## Machine\n\n| | |\n|---|---|\n")
	fmt.Fprintf(w, "| CPU | %s |\n", cpu)
	fmt.Fprintf(w, "| cores | %d (Go sees %d) |\n", cores, runtime.NumCPU())
	fmt.Fprintf(w, "| memory | %s |\n", memTotal())
	fmt.Fprintf(w, "| OS | %s, Linux %s |\n", osName(), strings.TrimSpace(readFile("/proc/sys/kernel/osrelease")))
	if r.commit != "" {
		fmt.Fprintf(w, "| commit | %s |\n", r.commit)
	}
	fmt.Fprintf(w, "| Go | %s |\n", strings.TrimPrefix(strings.TrimSpace(output("go", "version")), "go version "))
	fmt.Fprintf(w, "| Node (wasm) | %s |\n", strings.TrimSpace(output("node", "--version")))
	if b := r.results.meta[chromium]["browser"]; b != "" {
		fmt.Fprintf(w, "| browser (page) | %s, headless |\n", b)
	}
	fmt.Fprintf(w, "\n")
}

// pageRow is one row of the page's table: a figure and the sample it reads.
type pageRow struct{ what, bench, unit string }

func (r *runner) writePage(w *strings.Builder) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	meta := r.results.meta[chromium]
	p("## Page\n\n")
	p("Measured by `go run ./cmd/pagebench` in headless Chromium against the generated site, served by plog's own server on loopback. ")
	p("Each run starts a fresh browser profile. Times are from the start of the navigation (or from the click) as the page's `performance.now()` reads them.\n\n")
	p("| figure | median (spread) | samples |\n|---|---|---|\n")
	rows := []pageRow{
		{"ready (`main[data-ready=\"true\"]`), cold: fresh profile, empty scenario", "PageReadyCold", "ns/op"},
		{"… of which the wasm had arrived", "PageReadyCold", "wasm-fetched-ns"},
		{"… and was compiled and instantiated", "PageReadyCold", "wasm-instantiated-ns"},
		{"… and its main began (the Go runtime started, the packages' inits run)", "PageReadyCold", "go-main-ns"},
		{"… and its first render was done (the playground mounted)", "PageReadyCold", "mounted-ns"},
		{"ready, second visit with the service worker warm", "PageReadyWarm", "ns/op"},
		{"… of which the wasm had arrived (from the service worker's cache)", "PageReadyWarm", "wasm-fetched-ns"},
		{"… and was compiled and instantiated", "PageReadyWarm", "wasm-instantiated-ns"},
		{"… and its main began", "PageReadyWarm", "go-main-ns"},
		{"… and its first render was done", "PageReadyWarm", "mounted-ns"},
	}
	for _, size := range []string{"100k", "1M"} {
		records := thousands(meta["records-"+size])
		rows = append(rows, []pageRow{
			{fmt.Sprintf("ready, cold, on a link of %s records", records), "PageReadyCold" + size, "ns/op"},
			{fmt.Sprintf("produce click to the frame that shows the record, topic of %s+ records", records), "PageProduceToRepaint" + size, "ns/op"},
			{"… of which the click to the DOM change", "PageProduceToRepaint" + size, "dom-ns"},
			{"a member's Poll click (on its card) to the frame that shows its new position, same page", "PagePollToRepaint" + size, "ns/op"},
			{"… of which the click to the DOM change", "PagePollToRepaint" + size, "dom-ns"},
		}...)
	}
	rows = append(rows, []pageRow{
		{"seek across 1,000 steps (`app/testdata/seek_1000_steps.plog`), back to step 1: the slider's change to the frame that shows it", "PageSeek1000Back", "ns/op"},
		{"… of which the change to the DOM change", "PageSeek1000Back", "dom-ns"},
		{"the same seek forward, from step 1 to the last", "PageSeek1000Forward", "ns/op"},
		{"… of which the change to the DOM change", "PageSeek1000Forward", "dom-ns"},
		{"wasm as built", "PageWasmSize", "raw-bytes"},
		{"wasm, brotli (`app.wasm.br`)", "PageWasmSize", "brotli-bytes"},
		{"wasm, gzip (`app.wasm.gz`)", "PageWasmSize", "gzip-bytes"},
		{"wasm as transferred on a cold visit, headers included", "PageWasmTransfer", "bytes"},
	}...)
	for _, memory := range []struct{ what, unit string }{
		{"wasm linear memory (the Go heap, never shrinks)", "wasm-bytes"},
		{"JavaScript heap in use after GC", "js-heap-bytes"},
		{"renderer processes' PSS", "renderer-pss-bytes"},
	} {
		rows = append(rows, pageRow{memory.what + ", empty scenario", "PageMemoryEmpty", memory.unit})
		for _, size := range []string{"100k", "1M"} {
			rows = append(rows, pageRow{
				fmt.Sprintf("%s, %s records", memory.what, thousands(meta["records-"+size])), "PageMemory" + size, memory.unit})
		}
	}
	for _, row := range rows {
		values := r.results.values(chromium, row.bench, row.unit)
		p("| %s | %s | %d |\n", row.what, r.cell(chromium, row.bench, row.unit), len(values))
	}
	p("\n")
	p("The page is measured with a topic of four partitions opened from a link, twice: at 100,000 records, where the repaint budget is set, ")
	p("and at a million, as many as a scenario may produce (`scenario.MaxRecords`, %s), ", thousands(meta["max-records"]))
	p("each read by a group of one member from the topic's start, whose card and marks on the lanes the page draws as in use. ")
	p("Each holds a few records fewer than its round size, so that the produce clicks measured on it are accepted. ")
	p("Memory is read once the page's service worker is installed; the clicks are timed after one unmeasured click of each button, as the browser's compiler warms up. ")
	p("A lane draws a window of 40 to 59 records and the page asks the engine only about that window, so a click costs about the same at either size; ")
	p("the time to ready and the memory grow with the records.\n\n")
	r.writePeers(w)
	if s, ok := spreadOf(r.results.values(native, "ProduceClickOnFullTopic", "ns/op")); ok {
		p("Of a produce click, the engine's share (the session applies the line, the page takes its snapshot) is %s natively ", formatSpread(s, "ns/op"))
		p("(`BenchmarkProduceClickOnFullTopic` in `app/`, 990,000 records and more); the rest is go-app's render and diff, and the browser's style, layout and paint. ")
		p("`go run ./cmd/pagebench -profile click.cpuprofile` records V8's profile of the clicks on each page (Go functions by name, in `click-100k.cpuprofile` and `click-1M.cpuprofile`) and prints where the time goes.\n\n")
	}
	if s, ok := spreadOf(r.results.values(native, "LoadFullLink", "ns/op")); ok {
		allocated, _ := spreadOf(r.results.values(native, "LoadFullLink", "B/op"))
		p("Opening the link of a million records costs the engine %s natively before the first render (decode, replay, snapshot; `BenchmarkLoadFullLink` in `app/`), allocating %s on the way; ", formatSpread(s, "ns/op"), format(allocated.median, "bytes"))
		p("the wasm's linear memory keeps the high-water mark of that garbage, which the page keeps down by letting the garbage collector run between the link's commands.\n\n")
	}
}

// peers are the pages cmd/pagebench measures plog's beside, by the names
// of their samples (cmd/pagebench/peers.go).
var peers = []struct{ name, what string }{{"Hello", "go-app hello"}, {"Static", "static JS page"}}

// writePeers writes plog's page beside its peers, measured in the same
// run, with the ratio of plog's figure to each peer's.
func (r *runner) writePeers(w *strings.Builder) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	if len(r.results.values(chromium, "PagePeerColdLoopbackPlog", "ns/op")) == 0 {
		return
	}
	p("### Beside its peers\n\n")
	p("The empty page beside a minimal go-app v9 hello, built from plog's copy of go-app and its wasm slimmed as plog's is (`cmd/pagebench/peers/hello`), ")
	p("and a small page of plain JavaScript (`cmd/pagebench/peers/static`), both built at bench time and served by plog's server, each measured right after plog's in each run, ")
	p("cold (a fresh profile) then again once any service worker is active (repeat). Interactive is `main[data-ready=\"true\"]` on each page; ")
	p("the hello sets it once mounted, the static page once its script ran. A ratio is the median of the runs' ratios, plog's figure over the peer's: ")
	p("on a busy machine the figures of one run move together, and the ratio moves less than they do.\n\n")
	p("| figure | plog | %s | %s | plog ÷ %s | plog ÷ %s |\n|---|---|---|---|---|---|\n", peers[0].what, peers[1].what, peers[0].what, peers[1].what)
	for _, network := range []struct{ name, what string }{{"Loopback", "loopback"}, {"10Mbit", "10 Mbit/s, 40 ms"}} {
		for _, row := range []struct{ what, visit, unit string }{
			{"first visit, bytes transferred", "Cold", "transferred-bytes"},
			{"first contentful paint", "Cold", "fcp-ns"},
			{"interactive", "Cold", "ns/op"},
			{"repeat visit, interactive", "Repeat", "ns/op"},
		} {
			name := "PagePeer" + row.visit + network.name
			p("| %s, %s | %s", row.what, network.what, r.cell(chromium, name+"Plog", row.unit))
			for _, peer := range peers {
				p(" | %s", r.cell(chromium, name+peer.name, row.unit))
			}
			for _, peer := range peers {
				p(" | %s", ratioSpread(r.results.pairedRatios(chromium, name+"Plog", name+peer.name, row.unit)))
			}
			p(" |\n")
		}
	}
	p("\n")
}

// ratioSpread writes the median of some ratios with their spread; "–" for
// none.
func ratioSpread(values []float64) string {
	s, ok := spreadOf(values)
	if !ok {
		return "–"
	}
	if s.n == 1 || ratio(s.min) == ratio(s.max) {
		return ratio(s.median)
	}
	return fmt.Sprintf("%s (%s–%s)", ratio(s.median), ratio(s.min), ratio(s.max))
}

// cell is a benchmark's median and spread in a unit, "–" when not measured.
func (r *runner) cell(platform, name, unit string) string {
	if name == "" {
		return "–"
	}
	s, ok := spreadOf(r.results.values(platform, name, unit))
	if !ok {
		return "–"
	}
	return formatSpread(s, unit)
}

func (r *runner) ratioCell(platform string, f figure) string {
	return ratioSpread(r.results.ratios(platform, f.bench, f.baseline, f.unit))
}

func (r *runner) allocs(platform, name string) string {
	s, ok := spreadOf(r.results.values(platform, name, "allocs/op"))
	if !ok {
		return "–"
	}
	return fmt.Sprintf("%.0f", s.median)
}

func formatSpread(s spread, unit string) string {
	if s.n == 1 || format(s.min, unit) == format(s.max, unit) {
		return format(s.median, unit)
	}
	return fmt.Sprintf("%s (%s–%s)", format(s.median, unit), format(s.min, unit), format(s.max, unit))
}

func ratio(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f×", v)
	}
	if v >= 10 {
		return fmt.Sprintf("%.1f×", v)
	}
	return fmt.Sprintf("%.2f×", v)
}

// format writes a value in its unit, scaled for reading.
func format(v float64, unit string) string {
	switch {
	case unit == "ns/op" || strings.HasSuffix(unit, "-ns"):
		return duration(v)
	case unit == "records/s" && v >= 1e6:
		return fmt.Sprintf("%.2f M/s", v/1e6)
	case unit == "records/s":
		return fmt.Sprintf("%s k/s", threeDigits(v/1e3))
	case unit == "bytes/record":
		return fmt.Sprintf("%.1f B", v)
	case strings.HasSuffix(unit, "bytes") && v < 100e3:
		// A static page's few KB, which MB would write as 0.00.
		return fmt.Sprintf("%.1f KB", v/1e3)
	case strings.HasSuffix(unit, "bytes"):
		return fmt.Sprintf("%.2f MB", v/1e6)
	}
	return fmt.Sprintf("%g %s", v, unit)
}

func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%s ms", threeDigits(ns/1e6))
	case ns >= 1e3:
		return fmt.Sprintf("%s µs", threeDigits(ns/1e3))
	}
	return fmt.Sprintf("%s ns", threeDigits(ns))
}

// threeDigits keeps about three significant digits.
func threeDigits(v float64) string {
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f", math.Round(v))
	case v >= 10:
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func readFile(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return ""
	}
	return string(b)
}

// cpuInfo returns the CPU's model name and how many processors Linux lists.
func cpuInfo() (model string, cores int) {
	model = "unknown"
	for line := range strings.SplitSeq(readFile("/proc/cpuinfo"), "\n") {
		k, v, ok := strings.Cut(line, ":")
		switch strings.TrimSpace(k) {
		case "model name":
			if ok && model == "unknown" {
				model = strings.TrimSpace(v)
			}
		case "processor":
			cores++
		}
	}
	return model, cores
}

func memTotal() string {
	for line := range strings.SplitSeq(readFile("/proc/meminfo"), "\n") {
		if v, ok := strings.CutPrefix(line, "MemTotal:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			return fmt.Sprintf("%.1f GB", kb*1024/1e9)
		}
	}
	return "unknown"
}

func osName() string {
	for line := range strings.SplitSeq(readFile("/etc/os-release"), "\n") {
		if v, ok := strings.CutPrefix(line, "PRETTY_NAME="); ok {
			return strings.Trim(v, `"`)
		}
	}
	return runtime.GOOS
}

// thousands writes a whole number with commas between groups of three
// digits, as the prose around it does; anything else as it is.
func thousands(n string) string {
	if _, err := strconv.Atoi(n); err != nil || len(n) <= 3 {
		return n
	}
	head := len(n) % 3
	if head == 0 {
		head = 3
	}
	groups := []string{n[:head]}
	for i := head; i < len(n); i += 3 {
		groups = append(groups, n[i:i+3])
	}
	return strings.Join(groups, ",")
}
