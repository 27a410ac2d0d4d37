//go:build !js

// go-app's client tester runs natively only, and the CPU time is read
// from the operating system.

package app

import (
	"fmt"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// pageOf100k is the page cmd/pagebench measures its gestures on: a topic
// of four partitions holding 99,990 keyless records, read by a group of one
// member from the topic's start.
func pageOf100k(b *testing.B) string {
	b.Helper()
	var script strings.Builder
	script.WriteString("seed 1\ntopic orders partitions=4\n")
	for left := 100_000 - 10; left > 0; left -= scenario.MaxProduceCount {
		fmt.Fprintf(&script, "produce orders value=v count=%d\n", min(left, scenario.MaxProduceCount))
	}
	script.WriteString("config group readers auto.offset.reset=earliest\njoin readers r1 topics=orders\nadvance 4s\n")
	link, err := scenario.EncodeLink(script.String())
	if err != nil {
		b.Fatal(err)
	}
	return link
}

// benchmarkGesture measures the Go side of a gesture on that page, from
// the action a click sends to go-app's render and diff of the page (no
// DOM: go-app's client tester): what cmd/pagebench's click to the DOM
// change holds besides the browser's own work.
func benchmarkGesture(b *testing.B, line string) {
	p := newTestPlayground()
	d := app.NewClientTester(p)
	b.Cleanup(d.Close)
	u, err := url.Parse("https://plog.test/#" + pageOf100k(b))
	if err != nil {
		b.Fatal(err)
	}
	d.Nav(u)
	d.Consume()
	if len(p.view.Groups) != 1 {
		b.Fatalf("the page has %d groups, want 1", len(p.view.Groups))
	}
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		d.Context().NewActionWithValue(applyAction, applyRequest{Lines: []string{line}})
		d.Consume()
		if p.err != "" {
			b.Fatal(p.err)
		}
	}
	// The process's CPU time, beside the wall time: on a machine that
	// others share, the wall time mostly measures them.
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N), "cpu-ns/op")
}

// processCPU is the CPU time the process has used, user and system.
func processCPU() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkRenderProduceClick is a produce click's render.
func BenchmarkRenderProduceClick(b *testing.B) {
	benchmarkGesture(b, "produce orders key=acct-1 value=created")
}

// BenchmarkRenderPollClick is a member's Poll click's render.
func BenchmarkRenderPollClick(b *testing.B) {
	benchmarkGesture(b, "poll readers r1")
}

// BenchmarkRenderSeek measures the Go side of a seek across the 1,000
// steps of testdata/seek_1000_steps.plog, as cmd/pagebench's seek drags the
// timeline's slider: back to step 1, and forward to the last step (the
// other move, untimed, comes before each): the session's seek, the
// snapshot, go-app's render and diff of the page, without the DOM.
func BenchmarkRenderSeek(b *testing.B) {
	script, err := os.ReadFile("testdata/seek_1000_steps.plog")
	if err != nil {
		b.Fatal(err)
	}
	link, err := scenario.EncodeLink(string(script))
	if err != nil {
		b.Fatal(err)
	}
	p := newTestPlayground()
	d := app.NewClientTester(p)
	b.Cleanup(d.Close)
	u, err := url.Parse("https://plog.test/#" + link)
	if err != nil {
		b.Fatal(err)
	}
	d.Nav(u)
	d.Consume()
	last := p.session.Len()
	seek := func(step int) {
		d.Context().NewActionWithValue(historyAction, historyMove{Kind: "seek", Step: step})
		d.Consume()
		if p.err != "" {
			b.Fatal(p.err)
		}
	}
	for _, c := range []struct {
		name     string
		from, to int
	}{{"back", last, 1}, {"forward", 1, last}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				seek(c.from)
				b.StartTimer()
				seek(c.to)
			}
		})
	}
}
