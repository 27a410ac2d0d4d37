package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// results holds every sample read from benchmark output, and the header
// lines (cpu:, browser:, records:) each platform printed.
type results struct {
	samples map[sampleKey][]sample
	meta    map[string]map[string]string
}

type sampleKey struct{ platform, name string }

// sample is one benchmark line: its values by unit (ns/op, records/s, ...).
type sample struct {
	round  int
	values map[string]float64
}

func newResults() results {
	return results{samples: map[sampleKey][]sample{}, meta: map[string]map[string]string{}}
}

// procsSuffix is the -GOMAXPROCS suffix go test adds to names natively.
var procsSuffix = regexp.MustCompile(`-\d+$`)

// parse reads the lines of `go test -bench` output (and cmd/pagebench's,
// which has the same form): "BenchmarkName-2  1000  1234 ns/op  5 B/op".
func (r results) parse(platform string, round int, text string) {
	for line := range strings.SplitSeq(text, "\n") {
		fields := strings.Fields(line)
		if len(fields) >= 4 && strings.HasPrefix(fields[0], "Benchmark") {
			if _, err := strconv.Atoi(fields[1]); err != nil {
				continue
			}
			name := procsSuffix.ReplaceAllString(strings.TrimPrefix(fields[0], "Benchmark"), "")
			s := sample{round: round, values: map[string]float64{}}
			for i := 2; i+1 < len(fields); i += 2 {
				if v, err := strconv.ParseFloat(fields[i], 64); err == nil {
					s.values[fields[i+1]] = v
				}
			}
			k := sampleKey{platform, name}
			r.samples[k] = append(r.samples[k], s)
			continue
		}
		if k, v, ok := strings.Cut(line, ": "); ok && k != "" && !strings.ContainsAny(k, " \t") {
			if r.meta[platform] == nil {
				r.meta[platform] = map[string]string{}
			}
			r.meta[platform][k] = strings.TrimSpace(v)
		}
	}
}

// values returns every sample of one unit of a benchmark.
func (r results) values(platform, name, unit string) []float64 {
	var out []float64
	for _, s := range r.samples[sampleKey{platform, name}] {
		if v, ok := s.values[unit]; ok {
			out = append(out, v)
		}
	}
	return out
}

// ratios divides each round's figure by its baseline's from the same round
// (or the baseline by the figure, for rates, where more is better), so
// that the result always reads "times slower" or "times bigger".
func (r results) ratios(platform, name, baseline, unit string) []float64 {
	base := r.byRound(platform, baseline, unit)
	var out []float64
	for _, s := range r.samples[sampleKey{platform, name}] {
		v, ok := s.values[unit]
		b, found := base[s.round]
		if !ok || !found || v == 0 || b == 0 {
			continue
		}
		if higherIsBetter(unit) {
			out = append(out, b/v)
		} else {
			out = append(out, v/b)
		}
	}
	return out
}

// pairedRatios divides each sample of a benchmark by the sample of base
// printed in the same place of the output: pagebench measures plog's page
// and its peers one after the other in each run, so the i-th samples of
// each are of one run. A pair holding a zero (nothing transferred, a
// repeat visit served by the service worker) has no ratio.
func (r results) pairedRatios(platform, name, base, unit string) []float64 {
	of, by := r.values(platform, name, unit), r.values(platform, base, unit)
	var out []float64
	for i := range min(len(of), len(by)) {
		if of[i] != 0 && by[i] != 0 {
			out = append(out, of[i]/by[i])
		}
	}
	return out
}

// byRound is a benchmark's figure in unit, by the round it was measured in.
func (r results) byRound(platform, name, unit string) map[int]float64 {
	out := map[int]float64{}
	for _, s := range r.samples[sampleKey{platform, name}] {
		if v, ok := s.values[unit]; ok {
			out[s.round] = v
		}
	}
	return out
}

func higherIsBetter(unit string) bool { return strings.HasSuffix(unit, "/s") }

// spread is the median of some samples with their least and greatest.
type spread struct {
	median, min, max float64
	n                int
}

func spreadOf(values []float64) (spread, bool) {
	if len(values) == 0 {
		return spread{}, false
	}
	v := slices.Clone(values)
	slices.Sort(v)
	median := v[len(v)/2]
	if len(v)%2 == 0 {
		median = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return spread{median: median, min: v[0], max: v[len(v)-1], n: len(v)}, true
}
