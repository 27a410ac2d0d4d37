package scenario

import (
	"fmt"
	"strings"
	"testing"
)

// benchScript writes a scenario of n commands, a mix of what a playground
// session does: topics, keyed and keyless produces, clock advances that let
// retention work, truncations and config changes.
func benchScript(n int) string {
	var b strings.Builder
	b.WriteString("seed 1\ntopic orders partitions=8 retention.ms=1h segment.records=20\ntopic users partitions=4 cleanup.policy=compact segment.records=20\n")
	for i := 3; i < n; i++ {
		switch i % 10 {
		case 0:
			fmt.Fprintf(&b, "advance %ds\n", 5+i%30)
		case 1:
			fmt.Fprintf(&b, "produce orders value=v%d\n", i)
		case 2:
			fmt.Fprintf(&b, "produce users key=u%d value=v%d\n", i%97, i)
		case 3:
			fmt.Fprintf(&b, "truncate orders/%d before=0\n", i%8)
		case 4:
			fmt.Fprintf(&b, "produce orders key=acct-%d value=v%d count=3\n", i%13, i)
		default:
			fmt.Fprintf(&b, "produce orders key=acct-%d value=\"event %d\"\n", i%101, i)
		}
	}
	return b.String()
}

// go test -run '^$' -bench Replay ./core/scenario/
func BenchmarkReplay10000Commands(b *testing.B) {
	script := benchScript(10_000)
	b.SetBytes(int64(len(script)))
	for b.Loop() {
		if _, err := Load(script); err != nil {
			b.Fatal(err)
		}
	}
}

// go test -run '^$' -bench Seek ./core/scenario/
func BenchmarkSeekIn10000Steps(b *testing.B) {
	s, err := Load(benchScript(10_000))
	if err != nil {
		b.Fatal(err)
	}
	step := 0
	for b.Loop() {
		// A deterministic walk over the whole history, back and forth.
		step = (step + 3779) % (s.Len() + 1)
		if err := s.Seek(step); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSeekAcross1000Steps seeks from the end of a 1,000-step history
// to its first step and back, as a drag of the page's slider across it does
// (cmd/pagebench's seek, whose Go side app's BenchmarkRenderSeek measures):
// the engine's share of it.
func BenchmarkSeekAcross1000Steps(b *testing.B) {
	s, err := Load(benchScript(1000))
	if err != nil {
		b.Fatal(err)
	}
	for _, step := range []int{1, s.Len()} {
		b.Run(fmt.Sprintf("to%d", step), func(b *testing.B) {
			other := s.Len() + 1 - step
			for b.Loop() {
				b.StopTimer()
				if err := s.Seek(other); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := s.Seek(step); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchLink500(b *testing.B) (string, string) {
	script := benchScript(500)
	link, err := EncodeLink(script)
	if err != nil {
		b.Fatal(err)
	}
	return script, link
}

// go test -run '^$' -bench Link ./core/scenario/
func BenchmarkEncodeLink500Lines(b *testing.B) {
	script, link := benchLink500(b)
	b.SetBytes(int64(len(script)))
	for b.Loop() {
		if _, err := EncodeLink(script); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(link)), "link-bytes")
}

func BenchmarkDecodeLink500Lines(b *testing.B) {
	script, link := benchLink500(b)
	b.SetBytes(int64(len(script)))
	for b.Loop() {
		if _, err := DecodeLink(link); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLargeGroupRebalance loads a group of 200 members over ten topics
// of 1,000 partitions, then one leaves: each member's reconciliation
// compares its partitions with its target and with the others', which
// slices.Contains made n² (250 ms natively between two of the page's
// pauses before partition sets; about 50 ms after, measured with a pause
// hook).
func BenchmarkLargeGroupRebalance(b *testing.B) {
	for _, protocol := range []string{"classic", "consumer"} {
		var script strings.Builder
		topics := make([]string, 10)
		for i := range topics {
			topics[i] = fmt.Sprintf("t%d", i)
			fmt.Fprintf(&script, "topic %s partitions=1000\n", topics[i])
		}
		for i := range 200 {
			fmt.Fprintf(&script, "join g c%d topics=%s group.protocol=%s\n", i, strings.Join(topics, ","), protocol)
		}
		script.WriteString("advance 10s\nleave g c3\nadvance 10s\n")
		b.Run(protocol, func(b *testing.B) {
			for b.Loop() {
				if _, err := Load(script.String()); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
