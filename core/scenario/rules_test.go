package scenario

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"plog/core"
)

// The rules line comes first, or right after seed, once; it is the
// scenario's, not a step of its history, and its script writes it.
func TestRulesLineComesFirstOrAfterSeed(t *testing.T) {
	for _, tc := range []struct {
		script string
		rules  int
		err    string
	}{
		{"topic t\n", core.LatestRules, ""},
		{"rules 1\ntopic t\n", core.RulesV1, ""},
		{"seed 4\nrules 1\ntopic t\n", core.RulesV1, ""},
		{"topic t\nrules 1\n", core.LatestRules, "line 2:1: rules must come first, or right after seed"},
		{"rules 1\nrules 2\n", core.RulesV1, "line 2:1: rules must come first, or right after seed, once"},
		{"rules 9\n", core.LatestRules, fmt.Sprintf("line 1:7: version: number 9 is larger than %d", core.LatestRules)},
	} {
		s, err := Load(tc.script)
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("Load(%q): %v, want error %q", tc.script, err, tc.err)
		}
		if s.Rules() != tc.rules {
			t.Errorf("Load(%q) runs under rules %d, want %d", tc.script, s.Rules(), tc.rules)
		}
	}
	s, err := Load("seed 4\nrules 1\ntopic t\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Lines(); !slices.Equal(got, []string{"seed 4", "topic t"}) || s.Len() != 2 {
		t.Errorf("the history is %q: the rules line is no step", got)
	}
	if got := s.Script(); got != "seed 4\nrules 1\ntopic t\n" {
		t.Errorf("Script() = %q, want the rules line after seed", got)
	}
	if _, err := s.Apply("rules 2"); err == nil || s.Rules() != core.RulesV1 {
		t.Errorf("a rules line after the start was taken: %v, rules %d", err, s.Rules())
	}
}

// A link made before rules were numbered reads as rules 1, written into its
// script after its seed; a link made now carries the latest rules.
func TestOldLinksReadAsRules1(t *testing.T) {
	old := rawLink(t, []byte("seed 42\ntopic orders partitions=4\nproduce orders count=12\n"))
	script, err := DecodeLink(old)
	if err != nil {
		t.Fatal(err)
	}
	if want := "seed 42\nrules 1\ntopic orders partitions=4\nproduce orders count=12\n"; script != want {
		t.Fatalf("DecodeLink = %q, want %q", script, want)
	}
	s, err := Load(script)
	if err != nil || s.Rules() != core.RulesV1 {
		t.Fatalf("the old link runs under rules %d (%v), want 1", s.Rules(), err)
	}
	link, err := EncodeLink("topic t\n")
	if err != nil {
		t.Fatal(err)
	}
	if script, _ := DecodeLink(link); script != fmt.Sprintf("rules %d\ntopic t\n", core.LatestRules) {
		t.Errorf("a new link holds %q, want the latest rules written out", script)
	}
	if link, _ := EncodeLink(s.Script()); link == old {
		t.Error("re-encoding the old link's script gave the old link, without its rules")
	}
}

// UseRules replays the whole history under other rules at the same
// position, and back.
func TestUseRulesReplaysTheHistory(t *testing.T) {
	s, err := Load("seed 3\nrules 1\ntopic t partitions=2\nproduce t key=a\nproduce t key=b\n")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Seek(2); err != nil {
		t.Fatal(err)
	}
	before := StateText(s.Log())
	if err := s.UseRules(core.LatestRules); err != nil {
		t.Fatal(err)
	}
	if s.Rules() != core.LatestRules || s.Position() != 2 || s.Len() != 4 || !strings.HasPrefix(s.Script(), fmt.Sprintf("seed 3\nrules %d\n", core.LatestRules)) {
		t.Fatalf("under rules %d at %d of %d: %q", s.Rules(), s.Position(), s.Len(), s.Script())
	}
	if err := s.UseRules(core.RulesV1); err != nil || s.Rules() != core.RulesV1 || StateText(s.Log()) != before {
		t.Fatalf("back to rules 1: %v, rules %d", err, s.Rules())
	}
	if err := s.UseRules(7); err == nil || s.Rules() != core.RulesV1 {
		t.Errorf("rules 7 was taken: %v", err)
	}
}
