package main

import (
	"fmt"
	"strings"
)

// writeProduceNote says where a keyed produce's time goes, from the figures
// of the same run: the kernel's share natively (the page faults of the
// memory a growing log first writes), which the growing store of the
// budget's baseline pays too and the append into a slice touched before the
// clock starts does not, and the engine's own work per record beyond the
// growing store's.
func (r *runner) writeProduceNote(w *strings.Builder) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	kernel, ok := spreadOf(r.results.values(native, "ProduceKeyed", "kernel-ns/record"))
	if ok {
		faults, _ := spreadOf(r.results.values(native, "ProduceKeyed", "faults/1k-records"))
		p("Where a keyed produce's time goes, natively. Inside its timed loop the kernel worked %s per record (%s page faults per 1,000 records, median): ",
			formatSpread(kernel, "ns/op"), threeDigits(faults.median))
		p("a growing log writes memory the kernel must first supply, page by page, and on this virtual machine a fault costs microseconds. ")
		if storeKernel, ok := spreadOf(r.results.values(native, produceBaseline, "kernel-ns/record")); ok {
			storeFaults, _ := spreadOf(r.results.values(native, produceBaseline, "faults/1k-records"))
			p("The growing store of the budget's baseline pays that too: %s per record (%s faults per 1,000 records). ",
				formatSpread(storeKernel, "ns/op"), threeDigits(storeFaults.median))
		}
		baseFaults, _ := spreadOf(r.results.values(native, "BaselineAppendKeyed", "faults/1k-records"))
		p("The append into a slice touched before the clock starts took %s faults per 1,000 records inside its loop", threeDigits(baseFaults.median))
		// A single-record run (-quick) can show more kernel time than the
		// whole produce took by the clock: no ratio then.
		if without, ok := spreadOf(r.withoutKernel()); ok && without.min > 0 {
			p("; without the kernel's share, a produce is %s slower than it (%s–%s)", ratio(without.median), ratio(without.min), ratio(without.max))
		}
		p(". `BenchmarkProduceKeyed` in `core/` reports `faults/1k-records` and `kernel-ns/record` from `getrusage`.\n\n")
	}
	var beyond []string
	for _, platform := range []string{native, wasm} {
		if s, ok := spreadOf(r.differences(platform, "ProduceKeyed", produceBaseline, "ns/op")); ok {
			beyond = append(beyond, fmt.Sprintf("%s %s", formatSpread(s, "ns/op"), map[string]string{native: "natively", wasm: "in wasm"}[platform]))
		}
	}
	if len(beyond) > 0 {
		p("What stands between a keyed produce and the growing store: %s per record, round by round. ", strings.Join(beyond, " and "))
		p("That is the engine's own work per record: the murmur2 hash, the topic and partition lookup, the checks, the segment's accounting, the produced event and the acknowledgement (`docs/performance.md`).\n\n")
	}
}

// withoutKernel is, round by round, keyed produce's time per record less
// the kernel's, over the bare append's into a slice touched before the
// clock starts.
func (r *runner) withoutKernel() []float64 {
	base := r.results.byRound(native, "BaselineAppendKeyed", "ns/op")
	var out []float64
	for _, s := range r.results.samples[sampleKey{native, "ProduceKeyed"}] {
		kernel, ok := s.values["kernel-ns/record"]
		if b, found := base[s.round]; ok && found && b > 0 {
			out = append(out, (s.values["ns/op"]-kernel)/b)
		}
	}
	return out
}

// differences is, round by round, a figure less its baseline's, in unit.
func (r *runner) differences(platform, name, baseline, unit string) []float64 {
	base := r.results.byRound(platform, baseline, unit)
	var out []float64
	for _, s := range r.results.samples[sampleKey{platform, name}] {
		v, ok := s.values[unit]
		if b, found := base[s.round]; ok && found {
			out = append(out, v-b)
		}
	}
	return out
}

// produceSection is the engine section whose table has keyed produce.
const produceSection = "Produce and read"
