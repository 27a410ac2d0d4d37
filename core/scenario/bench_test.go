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
