package app

import (
	"fmt"
	"strings"
	"testing"

	"plog/core/scenario"
)

// fullLink is the link of a topic of four partitions holding as many
// keyless records as a scenario may, less headroom.
func fullLink(b *testing.B, headroom int) string {
	b.Helper()
	var script strings.Builder
	script.WriteString("seed 1\ntopic orders partitions=4\n")
	for left := scenario.MaxRecords - headroom; left > 0; left -= scenario.MaxProduceCount {
		fmt.Fprintf(&script, "produce orders value=v count=%d\n", min(left, scenario.MaxProduceCount))
	}
	link, err := scenario.EncodeLink(script.String())
	if err != nil {
		b.Fatal(err)
	}
	return link
}

// BenchmarkLoadFullLink measures what opening the fullest link
// cmd/pagebench opens costs the page before its first render: decode,
// replay of 999,990 records, snapshot.
func BenchmarkLoadFullLink(b *testing.B) {
	link := fullLink(b, 10)
	p := &Playground{}
	b.ReportAllocs()
	for b.Loop() {
		p.ready = false
		p.applyLink(link)
		if p.err != "" {
			b.Fatal(p.err)
		}
	}
}

// BenchmarkProduceClickOnFullTopic measures the engine's share of a produce
// click on a page whose topic holds nearly as many records as a scenario
// may (990,000 and more): the session applies the line and the page takes
// its snapshot. Neither should grow with the records the topic holds.
// go-app's render and the DOM are in cmd/pagebench's produce-to-repaint
// figure, which this one helps to split.
func BenchmarkProduceClickOnFullTopic(b *testing.B) {
	const headroom = 10_000 // clicks before the scenario is full and reloaded
	link := fullLink(b, headroom)
	p := &Playground{}
	load := func() {
		p.ready = false
		p.applyLink(link)
		if p.err != "" {
			b.Fatal(p.err)
		}
	}
	load()
	clicks := 0
	for b.Loop() {
		if clicks == headroom {
			b.StopTimer()
			load()
			clicks = 0
			b.StartTimer()
		}
		if _, err := p.session.Apply("produce orders key=acct-1 value=created"); err != nil {
			b.Fatal(err)
		}
		p.refresh()
		clicks++
	}
}
