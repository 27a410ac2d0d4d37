package main

import (
	"fmt"
	"strings"
	"testing"
)

// runnerWith is a runner holding the samples of the given go test -bench
// output, one text per round, for one platform.
func runnerWith(platform string, rounds ...string) *runner {
	r := &runner{rounds: len(rounds), results: newResults()}
	for i, text := range rounds {
		r.results.parse(platform, i+1, text)
	}
	return r
}

// produceRound is one round's keyed produce and its two baselines, at the
// given records per second.
func produceRound(produce, growingStore, touched float64) string {
	return fmt.Sprintf("BenchmarkProduceKeyed-2 300000 %g ns/op %g records/s\n", 1e9/produce, produce) +
		fmt.Sprintf("BenchmarkBaselineGrowingStoreKeyed-2 300000 %g ns/op %g records/s\n", 1e9/growingStore, growingStore) +
		fmt.Sprintf("BenchmarkBaselineAppendKeyed-2 300000 %g ns/op %g records/s\n", 1e9/touched, touched)
}

func TestVerdict(t *testing.T) {
	for _, c := range []struct {
		name     string
		b        budget
		rounds   []string
		measured string
		mark     string
	}{
		{"a rate at its floor passes",
			budget{platform: native, bench: "ProduceKeyed", unit: "records/s", limit: 5e6, atLeast: true},
			[]string{produceRound(5e6, 1e7, 9e7)}, "5.00 M/s", "pass"},
		{"a rate below its floor misses",
			budget{platform: native, bench: "ProduceKeyed", unit: "records/s", limit: 5e6, atLeast: true},
			[]string{produceRound(4.9e6, 1e7, 9e7)}, "4.90 M/s", "**miss**"},
		{"a time over its limit misses",
			budget{platform: native, bench: "Replay", unit: "ns/op", limit: 50e6},
			[]string{"BenchmarkReplay-2 30 51000000 ns/op\n"}, "51.0 ms", "**miss**"},
		{"a time at its limit passes",
			budget{platform: native, bench: "Replay", unit: "ns/op", limit: 50e6},
			[]string{"BenchmarkReplay-2 30 50000000 ns/op\n"}, "50.0 ms", "pass"},
		{"the median decides, not the worst round",
			budget{platform: native, bench: "Replay", unit: "ns/op", limit: 50e6},
			[]string{"BenchmarkReplay-2 30 40000000 ns/op\n", "BenchmarkReplay-2 30 90000000 ns/op\n", "BenchmarkReplay-2 30 45000000 ns/op\n"},
			"45.0 ms (40.0 ms–90.0 ms)", "pass"},
		{"a ratio within its limit passes",
			budget{platform: native, bench: "ProduceKeyed", unit: "records/s", baseline: produceBaseline, limit: 3},
			[]string{produceRound(6e6, 15e6, 90e6), produceRound(5e6, 14e6, 90e6)}, "2.65× slower than bare (2.50×–2.80×)", "pass"},
		{"a ratio beyond its limit misses",
			budget{platform: native, bench: "ProduceKeyed", unit: "records/s", baseline: "BaselineAppendKeyed", limit: 3},
			[]string{produceRound(6e6, 15e6, 90e6)}, "15.0× slower than bare", "**miss**"},
		{"a figure on another platform is not measured",
			budget{platform: wasm, bench: "ProduceKeyed", unit: "records/s", limit: 1e6, atLeast: true},
			[]string{produceRound(6e6, 15e6, 90e6)}, "not measured", "**not measured**"},
		{"a ratio without its baseline is not measured",
			budget{platform: native, bench: "Replay", unit: "ns/op", baseline: "BaselineParse", limit: 3},
			[]string{"BenchmarkReplay-2 30 40000000 ns/op\n"}, "not measured", "**not measured**"},
	} {
		t.Run(c.name, func(t *testing.T) {
			measured, mark := runnerWith(native, c.rounds...).verdict(c.b)
			if measured != c.measured || mark != c.mark {
				t.Errorf("verdict %q, %q; want %q, %q", measured, mark, c.measured, c.mark)
			}
		})
	}
}

// The produce budgets hold keyed produce to the growing store, whatever its
// ratio to the slice touched before the clock starts.
func TestProduceBudgetsHoldTheGrowingStore(t *testing.T) {
	var produce []budget
	for _, b := range budgets {
		if b.bench == "ProduceKeyed" && b.baseline != "" {
			produce = append(produce, b)
		}
	}
	if len(produce) != 2 {
		t.Fatalf("%d ratio budgets on keyed produce, want one natively and one in wasm", len(produce))
	}
	for _, c := range []struct {
		name                           string
		produce, growingStore, touched float64
		mark                           string
	}{
		{"within 3x of the store, 15x of the slice", 6e6, 15e6, 90e6, "pass"},
		{"beyond 3x of the store", 4e6, 15e6, 90e6, "**miss**"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &runner{rounds: 1, results: newResults()}
			for _, platform := range []string{native, wasm} {
				r.results.parse(platform, 1, produceRound(c.produce, c.growingStore, c.touched))
			}
			for _, b := range produce {
				if _, mark := r.verdict(b); mark != c.mark {
					t.Errorf("%s: %s, want %s", b.what, mark, c.mark)
				}
			}
		})
	}
}

func TestRatiosPairTheRounds(t *testing.T) {
	r := runnerWith(native,
		"BenchmarkA-2 10 300 ns/op\nBenchmarkBase-2 10 100 ns/op\n",
		"BenchmarkA-2 10 800 ns/op\n", // the baseline's run failed: no ratio
		"BenchmarkA-2 10 500 ns/op\nBenchmarkBase-2 10 250 ns/op\n",
	)
	if got := fmt.Sprint(r.results.ratios(native, "A", "Base", "ns/op")); got != "[3 2]" {
		t.Errorf("ratios %s, want [3 2]: each round over its own baseline", got)
	}
	// For a rate, more is better: the ratio is still how many times slower.
	r = runnerWith(native, "BenchmarkA-2 10 1 ns/op 2e6 records/s\nBenchmarkBase-2 10 1 ns/op 8e6 records/s\n")
	if got := fmt.Sprint(r.results.ratios(native, "A", "Base", "records/s")); got != "[4]" {
		t.Errorf("rate ratios %s, want [4]", got)
	}
}

func TestParseReadsBenchmarkLinesAndHeaders(t *testing.T) {
	res := newResults()
	res.parse(native, 1, "goos: linux\ncpu: AMD EPYC\n"+
		"BenchmarkProduceKeyed-2   \t  300000\t       134.0 ns/op\t   7.777 faults/1k-records\t 49 B/op\t 0 allocs/op\n"+
		"BenchmarkAssign/equal/range-2 100 155000 ns/op\n"+
		"BenchmarkNotALine words here\nPASS\n")
	if got := res.values(native, "ProduceKeyed", "faults/1k-records"); fmt.Sprint(got) != "[7.777]" {
		t.Errorf("faults %v", got)
	}
	if got := res.values(native, "Assign/equal/range", "ns/op"); fmt.Sprint(got) != "[155000]" {
		t.Errorf("a sub-benchmark's name loses only its -GOMAXPROCS suffix: %v", got)
	}
	if res.meta[native]["cpu"] != "AMD EPYC" {
		t.Errorf("meta %v", res.meta[native])
	}
	if len(res.samples) != 2 {
		t.Errorf("%d benchmarks read, want 2: %v", len(res.samples), res.samples)
	}
}

// The note under the produce table says, from the rounds, what stands
// between a produce and the growing store.
func TestProduceNoteSaysWhatStandsBetween(t *testing.T) {
	r := runnerWith(native, produceRound(5e6, 20e6, 90e6), produceRound(4e6, 20e6, 90e6))
	var w strings.Builder
	r.writeProduceNote(&w)
	// 200 - 50 ns and 250 - 50 ns a record.
	if want := "What stands between a keyed produce and the growing store: 175 ns (150 ns–200 ns) natively per record"; !strings.Contains(w.String(), want) {
		t.Errorf("the note says:\n%s\nwant %q", w.String(), want)
	}
}

// plog's page beside its peers: each ratio pairs the samples of one run
// (pagebench prints plog's, then each peer's, run after run), a peer not
// measured has none, and a static page's few KB are written as such.
func TestPeersAreComparedRunByRun(t *testing.T) {
	var out strings.Builder
	for _, run := range []struct{ plog, hello, static float64 }{{3e9, 1e9, 0.5e9}, {9e9, 3e9, 1e9}} {
		fmt.Fprintf(&out, "BenchmarkPagePeerColdLoopbackPlog\t1\t%g ns/op\t2000000 transferred-bytes\n", run.plog)
		fmt.Fprintf(&out, "BenchmarkPagePeerColdLoopbackHello\t1\t%g ns/op\t700000 transferred-bytes\n", run.hello)
		fmt.Fprintf(&out, "BenchmarkPagePeerColdLoopbackStatic\t1\t%g ns/op\t3400 transferred-bytes\n", run.static)
		fmt.Fprintf(&out, "BenchmarkPagePeerRepeatLoopbackPlog\t1\t%g ns/op\t0 transferred-bytes\n", run.plog/2)
		fmt.Fprintf(&out, "BenchmarkPagePeerRepeatLoopbackHello\t1\t%g ns/op\t0 transferred-bytes\n", run.hello/2)
	}
	r := runnerWith(chromium, out.String())
	var w strings.Builder
	r.writePeers(&w)
	for _, want := range []string{
		// 3/1 and 9/3: the run that was three times slower says the same.
		"| interactive, loopback | 6.00 s (3.00 s–9.00 s) | 2.00 s (1.00 s–3.00 s) | 750 ms (500 ms–1.00 s) | 3.00× | 7.50× (6.00×–9.00×) |",
		"| first visit, bytes transferred, loopback | 2.00 MB | 0.70 MB | 3.4 KB | 2.86× | 588× |",
		"| repeat visit, interactive, loopback | 3.00 s (1.50 s–4.50 s) | 1.00 s (500 ms–1.50 s) | – | 3.00× | – |",
	} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("the peers' table lacks\n%s\nin\n%s", want, w.String())
		}
	}
}
