package scenario

import (
	"strings"
	"testing"
)

func TestParseFragment(t *testing.T) {
	cases := []struct {
		in   string
		want Fragment
	}{
		{"", Fragment{At: -1}},
		{"#v1.abc", Fragment{Link: "v1.abc", At: -1}},
		{"v1.abc&at=3&lesson=compaction&embed=1&readonly=1", Fragment{Link: "v1.abc", At: 3, Lesson: "compaction", Embed: true, ReadOnly: true}},
		{"lesson=key-order", Fragment{At: -1, Lesson: "key-order"}},
		{"v1.abc&colour=dark", Fragment{Link: "v1.abc", At: -1, Unknown: []string{"colour=dark"}}},
		{"v1.abc&embed=1&play=1&loop=2-5&theme=dark", Fragment{Link: "v1.abc", At: -1, Embed: true, Play: true, Loop: "2-5", Theme: "dark"}},
		{"v1.abc&loop=9-1&theme=pink", Fragment{Link: "v1.abc", At: -1, Loop: "9-1", Theme: "pink"}},
		{"v1.abc&embed=0", Fragment{Link: "v1.abc", At: -1}},
		{"v1.abc&at=0&present=1", Fragment{Link: "v1.abc", At: 0, Present: true}},
		{"v1.abc&at=2&branch=2.v1.def", Fragment{Link: "v1.abc", At: 2, BranchAt: 2, Branch: "v1.def"}},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseFragment(c.in)
			if err != nil {
				t.Fatalf("ParseFragment(%q): %v", c.in, err)
			}
			if got.String() != c.want.String() || strings.Join(got.Unknown, ",") != strings.Join(c.want.Unknown, ",") {
				t.Errorf("ParseFragment(%q) = %+v, want %+v", c.in, got, c.want)
			}
		})
	}
}

func TestParseFragmentErrors(t *testing.T) {
	cases := map[string]string{
		"v1.abc&at=x":                         "step number",
		"v1.abc&at=-2":                        "step number",
		"v1.abc&embed=yes":                    "1 or 0",
		"v1.abc&play=on":                      "1 or 0",
		"v1.abc&present=yes":                  "1 or 0",
		"v1.abc&lesson=":                      "name a lesson",
		"v1.abc&junk":                         "name=value",
		"v1.abc&branch=v1.def":                "branch=",
		"v1.abc&branch=3":                     "branch=",
		"v1.abc&branch=-1.v1.def":             "branch=",
		"v1.abc" + strings.Repeat("&a=1", 17): "at most 16",
	}
	for in, want := range cases {
		t.Run(in, func(t *testing.T) {
			_, err := ParseFragment(in)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("ParseFragment(%q) error = %v, want one containing %q", in, err, want)
			}
		})
	}
}

func TestFragmentRoundTrip(t *testing.T) {
	f := Fragment{Link: "v1.xyz", At: 0, Lesson: "offsets", Embed: true}
	got, err := ParseFragment("#" + f.String())
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != f.String() || got.At != 0 {
		t.Errorf("round trip of %q gave %+v", f.String(), got)
	}
}

func FuzzParseFragment(f *testing.F) {
	f.Add("v1.abc&at=3&lesson=x&embed=1")
	f.Add("&&&=")
	f.Add("v1.YQ==&at=1")
	f.Add("v1.A=B&lesson=x")
	f.Add("v1.abc&at=1&branch=1.v1.def")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseFragment(s)
		if err != nil {
			return
		}
		// What parses writes back to something that parses the same way.
		again, err := ParseFragment(got.String())
		if err != nil || again.String() != got.String() {
			t.Fatalf("ParseFragment(%q) = %q, which reparses as %q, %v", s, got.String(), again.String(), err)
		}
	})
}
