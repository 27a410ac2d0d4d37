package main

import (
	"fmt"
	"strings"
)

// writeProduceNote says where a keyed produce's time goes natively, from
// the figures of the same run: the kernel's share (the page faults of the
// memory a growing log first writes, which the bare baseline takes before
// its clock starts) and the ratio to the bare append without it.
func (r *runner) writeProduceNote(w *strings.Builder) {
	kernel, ok := spreadOf(r.results.values(native, "ProduceKeyed", "kernel-ns/record"))
	if !ok {
		return
	}
	faults, _ := spreadOf(r.results.values(native, "ProduceKeyed", "faults/1k-records"))
	baseFaults, _ := spreadOf(r.results.values(native, "BaselineAppendKeyed", "faults/1k-records"))
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("Where a keyed produce's time goes, natively. Inside its timed loop the kernel worked %s per record (%s page faults per 1,000 records, median): ",
		formatSpread(kernel, "ns/op"), threeDigits(faults.median))
	p("a growing log writes memory the kernel must first supply, page by page, and on this virtual machine a fault costs microseconds. ")
	p("The bare baseline took %s faults per 1,000 records inside its loop: it touches its preallocated slice before its clock starts. ", threeDigits(baseFaults.median))
	// A single-record run (-quick) can show more kernel time than the
	// whole produce took by the clock: no ratio then.
	if without, ok := spreadOf(r.withoutKernel()); ok && without.min > 0 {
		p("Without the kernel's share, a produce is %s slower than the bare append (%s–%s). ", ratio(without.median), ratio(without.min), ratio(without.max))
	}
	p("The rest is the engine's own work per record: the murmur2 hash, the checks, the segment's accounting, the produced event and the acknowledgement. ")
	p("`BenchmarkProduceKeyed` in `core/` reports `faults/1k-records` and `kernel-ns/record` from `getrusage`.\n\n")
}

// withoutKernel is, round by round, keyed produce's time per record less
// the kernel's, over the bare append's.
func (r *runner) withoutKernel() []float64 {
	base := map[int]float64{}
	for _, s := range r.results.samples[sampleKey{native, "BaselineAppendKeyed"}] {
		if v := s.values["ns/op"]; v > 0 {
			base[s.round] = v
		}
	}
	var out []float64
	for _, s := range r.results.samples[sampleKey{native, "ProduceKeyed"}] {
		kernel, ok := s.values["kernel-ns/record"]
		if b, found := base[s.round]; ok && found {
			out = append(out, (s.values["ns/op"]-kernel)/b)
		}
	}
	return out
}

// produceSection is the engine section whose table has keyed produce.
const produceSection = "Produce and read"
