package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// With -profile, pagebench records V8's CPU profile of each full page
// during the produce clicks of its first run, where the Go code compiled to
// wasm shows by its Go names. It writes the profiles where -profile says,
// with the page's size before the extension (click-1M.cpuprofile; Chrome's
// DevTools open them), and prints the functions that took the most time.

// profilePath is where the profile of a page of the given size goes; "" for
// none.
func profilePath(path, size string) string {
	if path == "" {
		return ""
	}
	ext := filepath.Ext(path)
	return strings.TrimSuffix(path, ext) + "-" + size + ext
}

// startProfile starts V8's sampling profiler in the page, every 100 µs.
func (t *tab) startProfile() error {
	if _, err := chromedp.Call(t.ctx, profiler.Enable, cdp.Empty{}); err != nil {
		return err
	}
	if _, err := chromedp.Call(t.ctx, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 100}); err != nil {
		return err
	}
	_, err := chromedp.Call(t.ctx, profiler.Start, cdp.Empty{})
	return err
}

// stopProfile stops the profiler, writes the profile to path and prints
// the top functions to w.
func (t *tab) stopProfile(path string, w io.Writer) error {
	res, err := chromedp.Call(t.ctx, profiler.Stop, cdp.Empty{})
	if err != nil {
		return err
	}
	if res.Profile == nil {
		return fmt.Errorf("the profiler returned no profile")
	}
	data, err := json.Marshal(res.Profile)
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return err
	}
	fmt.Fprintf(w, "profile: %s\n", path)
	printTop(res.Profile, w, 25)
	return nil
}

// functionTime is the time a function was on top of the stack (self) and
// on the stack at all (cumulative), in microseconds.
type functionTime struct {
	name      string
	self, cum float64
}

// printTop prints the functions with the most self time, and those with the
// most cumulative time, as pprof -top does.
func printTop(p *profiler.Profile, w io.Writer, n int) {
	var samples int64
	for _, node := range p.Nodes {
		samples += node.HitCount
	}
	if samples == 0 {
		fmt.Fprintln(w, "profile: no samples")
		return
	}
	perSample := (p.EndTime - p.StartTime) / float64(samples)
	nodes := map[int64]*profiler.ProfileNode{}
	for _, node := range p.Nodes {
		nodes[node.ID] = node
	}
	times := map[string]*functionTime{}
	timeOf := func(name string) *functionTime {
		if times[name] == nil {
			times[name] = &functionTime{name: name}
		}
		return times[name]
	}
	// Walk the call tree; a function counts once in the cumulative time of
	// a sample even when it recurses.
	var walk func(id int64, onStack map[string]int) float64
	walk = func(id int64, onStack map[string]int) float64 {
		node := nodes[id]
		name := node.CallFrame.FunctionName
		if name == "" {
			name = "(anonymous " + node.CallFrame.URL + ")"
		}
		self := float64(node.HitCount) * perSample
		timeOf(name).self += self
		onStack[name]++
		total := self
		for _, child := range node.Children {
			total += walk(child, onStack)
		}
		onStack[name]--
		if onStack[name] == 0 {
			timeOf(name).cum += total
		}
		return total
	}
	walk(p.Nodes[0].ID, map[string]int{})

	all := make([]functionTime, 0, len(times))
	for _, t := range times {
		all = append(all, *t)
	}
	total := p.EndTime - p.StartTime
	for _, by := range []struct {
		title string
		key   func(functionTime) float64
	}{{"self", func(t functionTime) float64 { return t.self }}, {"cumulative", func(t functionTime) float64 { return t.cum }}} {
		slices.SortFunc(all, func(a, b functionTime) int { return cmp.Compare(by.key(b), by.key(a)) })
		fmt.Fprintf(w, "profile: top %d by %s time, of %.0f ms sampled\n", n, by.title, total/1e3)
		for _, t := range all[:min(n, len(all))] {
			fmt.Fprintf(w, "  %8.1f ms self %5.1f%%  %8.1f ms cum %5.1f%%  %s\n", t.self/1e3, 100*t.self/total, t.cum/1e3, 100*t.cum/total, t.name)
		}
	}
}
