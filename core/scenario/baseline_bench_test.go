package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"io"
	"testing"
)

// Baselines for the scenario benchmarks, measured in the same run so that
// BENCHMARKS.md can give each figure as a ratio. Seek's baseline is
// BenchmarkReplay10000Commands itself: what a seek would cost without the
// session's checkpoints.

// BenchmarkBaselineParse10000Commands is the floor for
// BenchmarkReplay10000Commands: parsing the script without applying it.
func BenchmarkBaselineParse10000Commands(b *testing.B) {
	script := benchScript(10_000)
	b.SetBytes(int64(len(script)))
	for b.Loop() {
		if _, err := Parse(script); err != nil {
			b.Fatal(err)
		}
	}
}

// deflateBase64 is a link without the canonical form and the checks:
// DEFLATE and base64url of the bytes as they are.
func deflateBase64(script string) (string, error) {
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := io.WriteString(w, script); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(buf.Bytes()), nil
}

// BenchmarkBaselineDeflate500Lines is the floor for
// BenchmarkEncodeLink500Lines.
func BenchmarkBaselineDeflate500Lines(b *testing.B) {
	script := benchScript(500)
	b.SetBytes(int64(len(script)))
	for b.Loop() {
		if _, err := deflateBase64(script); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBaselineInflate500Lines is the floor for
// BenchmarkDecodeLink500Lines.
func BenchmarkBaselineInflate500Lines(b *testing.B) {
	script := benchScript(500)
	encoded, err := deflateBase64(script)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(script)))
	for b.Loop() {
		compressed, err := base64.RawURLEncoding.DecodeString(encoded)
		if err != nil {
			b.Fatal(err)
		}
		out, err := io.ReadAll(flate.NewReader(bytes.NewReader(compressed)))
		if err != nil || len(out) != len(script) {
			b.Fatal(err, len(out))
		}
	}
}
