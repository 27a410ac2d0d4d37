package scenario

import (
	"bytes"
	"strings"
	"testing"
)

// memberIDsOf is each member's id of group g, as "name=id" lines.
func memberIDsOf(t *testing.T, s *Session) string {
	t.Helper()
	v, err := s.Log().Group("g")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, m := range v.Members {
		b.WriteString(m.ID + "=" + m.MemberID + "\n")
	}
	return b.String()
}

// Member ids survive undo, redo, seek and a link: each time the state holds
// the ids a fresh replay of the same steps gives, and a step undone and
// made again with another member draws the id the first one had.
func TestMemberIDsSurviveHistoryAndLinks(t *testing.T) {
	const script = "seed 2\ntopic t partitions=2\njoin g a topics=t\njoin g s topics=t instance=host-s\nadvance 3s\nleave g a\njoin g a topics=t\n"
	s := mustLoad(t, script)
	want := memberIDsOf(t, s)
	if !strings.Contains(want, "a=a-") || !strings.Contains(want, "s=host-s-") {
		t.Fatalf("member ids:\n%s", want)
	}
	state := stateJSON(t, s)
	if !bytes.Contains(state, []byte(`"member_id": "host-s-`)) {
		t.Fatalf("the JSON state has no member_id:\n%s", state)
	}
	for _, move := range []func() error{s.Undo, s.Redo, func() error { return s.Seek(s.Len() - 2) }, func() error { return s.Seek(s.Len()) }} {
		if err := move(); err != nil {
			t.Fatal(err)
		}
		fresh := mustLoad(t, strings.Join(s.ScriptLines(s.Position()), "\n")+"\n")
		if got, again := memberIDsOf(t, s), memberIDsOf(t, fresh); got != again {
			t.Errorf("at step %d: ids\n%s, a fresh replay gives\n%s", s.Position(), got, again)
		}
	}
	if got := memberIDsOf(t, s); got != want {
		t.Errorf("back at the end: ids\n%s, want\n%s", got, want)
	}
	link, err := EncodeLink(s.Script())
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := DecodeLink(link)
	if err != nil {
		t.Fatal(err)
	}
	if got := memberIDsOf(t, mustLoad(t, decoded)); got != want {
		t.Errorf("through a link: ids\n%s, want\n%s", got, want)
	}
	// Undo the last join and join b instead: b gets the id a's rejoin had.
	if err := s.Undo(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("join g b topics=t"); err != nil {
		t.Fatal(err)
	}
	wantB := "b=b-" + strings.TrimPrefix(strings.Split(want, "\n")[0], "a=a-")
	if got := memberIDsOf(t, s); !strings.Contains(got, wantB+"\n") {
		t.Errorf("after undo and another join: ids\n%s, want %s", got, wantB)
	}
}
