package scenario

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"plog/core"

	"pgregory.net/rapid"
)

// decode(encode(s)) is the canonical text of s.
func TestLinkRoundTrip(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		script := genScript(t)
		cmds, err := Parse(script)
		if err != nil {
			return
		}
		link, err := EncodeLink(script)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		if !strings.HasPrefix(link, LinkPrefix) || strings.ContainsAny(link, "#=+/") {
			t.Fatalf("not a v1 base64url fragment: %q", link)
		}
		for _, fragment := range []string{link, "#" + link} {
			got, err := DecodeLink(fragment)
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			want, _ := withRulesLine(cmds, core.LatestRules)
			if got != Format(want) {
				t.Fatalf("round trip changed the script:\n%s\n%s", Format(want), got)
			}
		}
	})
}

// rawLink builds a fragment from arbitrary bytes, bypassing EncodeLink's
// checks, as a hostile link would.
func rawLink(t testing.TB, data []byte) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	if _, err := w.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return LinkPrefix + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

func TestDecodeLinkRefusesBadInput(t *testing.T) {
	bomb := rawLink(t, bytes.Repeat([]byte("advance 1s\n"), MaxScriptBytes/10))
	if len(bomb) > 10_000 {
		t.Fatalf("the bomb should be small, is %d", len(bomb))
	}
	for _, tc := range []struct{ name, fragment, want string }{
		{"empty", "", `not a scenario link`},
		{"no version", "#abc", `not a scenario link`},
		{"future version", "#v2.abc", `link version v2 is not known`},
		{"bad base64", "#v1.ab$d", `not valid base64url: bad character or length at position 5`},
		{"misplaced padding", "#v1.YQ=x", `not valid base64url`},
		{"bad deflate", "#v1." + base64.RawURLEncoding.EncodeToString([]byte{0xff, 0xff, 0xff}), `not valid DEFLATE`},
		{"truncated deflate", rawLink(t, []byte("seed 1\nadvance 1s\n"))[:10], `not valid DEFLATE`},
		{"bad utf-8", rawLink(t, []byte("seed 1\n\xffx")), `not valid UTF-8 (at byte 7)`},
		{"bomb", bomb, `larger than 1048576 bytes once decompressed`},
		{"too long", "#v1." + strings.Repeat("A", MaxLinkChars), `at most 524288 are read`},
		{"bad script", rawLink(t, []byte("seed 1\nprodcue t\n")), `link script: line 2:1: unknown command "prodcue"`},
		{"too many records", rawLink(t, []byte("topic t\n"+strings.Repeat("produce t count=10000\n", MaxRecords/10000)+"produce t\n")), `produces 1000001 records; at most 1000000`},
		{"too many commands", rawLink(t, []byte(strings.Repeat("advance 1s\n", MaxCommands+1))), `at most 20000 commands`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeLink(tc.fragment)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestEncodeLinkRefusesBadScript(t *testing.T) {
	if _, err := EncodeLink("advance 5"); err == nil || !strings.Contains(err.Error(), "line 1:9") {
		t.Fatalf("got %v", err)
	}
}

// The link of a script does not depend on how it was spelled.
func TestEncodeLinkIsCanonical(t *testing.T) {
	a, err := EncodeLink("topic t   retention.ms=600000 partitions=2 # comment\nadvance 120s")
	if err != nil {
		t.Fatal(err)
	}
	b, err := EncodeLink("topic t partitions=2 retention.ms=10m\nadvance 2m\n")
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Fatalf("%s != %s", a, b)
	}
}

// FuzzDecodeLink: no fragment panics the decoder or makes it read past its
// bounds; what decodes is a script that encodes and decodes to itself.
func FuzzDecodeLink(f *testing.F) {
	f.Add("v1.K07NTVEwMTEC")
	f.Add("#v1.")
	f.Add(rawLink(f, []byte("seed 1\ntopic t partitions=3\nproduce t key=a\n")))
	f.Add(rawLink(f, bytes.Repeat([]byte("a"), 4096)))
	for _, script := range flagWordScripts() {
		f.Add(rawLink(f, []byte(script)))
	}
	f.Fuzz(func(t *testing.T, fragment string) {
		script, err := DecodeLink(fragment)
		if err != nil {
			return
		}
		if len(script) > MaxScriptBytes {
			t.Fatalf("decoded %d bytes", len(script))
		}
		link, err := EncodeLink(script)
		if err != nil {
			t.Fatalf("a decoded script does not encode: %v", err)
		}
		again, err := DecodeLink(link)
		if err != nil {
			t.Fatalf("re-encoded link does not decode: %v", err)
		}
		cmds, _ := Parse(script)
		if again != Format(cmds) {
			t.Fatalf("round trip changed the script")
		}
	})
}

// A link whose payload carries base64's '=' padding (as a tool that pads
// writes it) opens the same scenario as without, in a page URL too.
func TestPaddedLinkOpens(t *testing.T) {
	padded := 0
	for n := 1; n <= 12; n++ {
		script := fmt.Sprintf("topic t partitions=%d\nproduce t key=k value=v count=%d\n", n, n)
		link, err := EncodeLink(script)
		if err != nil {
			t.Fatal(err)
		}
		payload := strings.TrimPrefix(link, LinkPrefix)
		raw, _ := base64.RawURLEncoding.DecodeString(payload)
		withPadding := LinkPrefix + base64.URLEncoding.EncodeToString(raw)
		if withPadding == link {
			continue
		}
		padded++
		f, err := ParseFragment("#" + withPadding + "&at=1")
		if err != nil || f.Link != withPadding || f.At != 1 {
			t.Fatalf("ParseFragment(%s&at=1) = %+v, %v", withPadding, f, err)
		}
		got, err := DecodeLink(f.Link)
		if err != nil || got != fmt.Sprintf("rules %d\n", core.LatestRules)+script {
			t.Errorf("DecodeLink(%s) = %q, %v, want %q", withPadding, got, err, script)
		}
	}
	if padded == 0 {
		t.Fatal("no link needed padding: the test tested nothing")
	}
	// Padding in the wrong place is still refused, with where it is.
	if _, err := DecodeLink("v1.A=BC"); err == nil || !strings.Contains(err.Error(), "not valid base64url") {
		t.Errorf("misplaced padding: %v", err)
	}
}
