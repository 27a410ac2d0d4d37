package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"pgregory.net/rapid"
)

// FIPS 180-4's examples (the NIST CSRC's SHA256.pdf), and the empty
// message.
func TestSHA256KnownAnswers(t *testing.T) {
	for in, want := range map[string]string{
		"":    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq": "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
	} {
		if got := SHA256([]byte(in)); hex.EncodeToString(got[:]) != want {
			t.Errorf("SHA256(%q) = %x, want %s", in, got, want)
		}
	}
}

// Every length up to three blocks, across the padding's edges (55, 56,
// 63 and 64 bytes, and their multiples), and any content: the same sum as
// crypto/sha256's.
func TestSHA256IsCryptoSHA256(t *testing.T) {
	b := make([]byte, 200)
	for i := range b {
		b[i] = byte(i*7 + 3)
	}
	for n := range len(b) {
		if got, want := SHA256(b[:n]), sha256.Sum256(b[:n]); got != want {
			t.Fatalf("SHA256 of %d bytes = %x, crypto/sha256 says %x", n, got, want)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		b := rapid.SliceOfN(rapid.Byte(), 0, 300).Draw(t, "message")
		if got, want := SHA256(b), sha256.Sum256(b); got != want {
			t.Fatalf("SHA256(%x) = %x, crypto/sha256 says %x", b, got, want)
		}
	})
}
