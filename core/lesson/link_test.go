package lesson

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"testing"

	"plog/core/scenario"
)

// smallLesson is a lesson file such as a teacher writes for a link.
const smallLesson = `title: One record
goal: Produce one record to topic t.

A *topic* holds records. <img src=x onerror=alert(1)>

## start
topic t partitions=1

## check
records-at-least t 1

## hints
- Press Produce.
`

// A lesson file travels in a link and comes back as it was written, its
// lesson named "lesson" when the file gives no name.
func TestLessonLinkRoundTrip(t *testing.T) {
	link, err := EncodeLink(smallLesson)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(link, "v1.") || !IsLink(link) || strings.ContainsAny(link, "&=#") {
		t.Fatalf("link %q", link)
	}
	l, text, err := DecodeLink(link)
	if err != nil || text != smallLesson {
		t.Fatalf("decoded %q, %v", text, err)
	}
	if l.Name != "lesson" || l.Title != "One record" || len(l.HintDocs) != 1 {
		t.Errorf("lesson %+v", l)
	}
	// The markup is text, never markup.
	if got := Plain(l.Doc[0].Inlines); !strings.Contains(got, "<img src=x onerror=alert(1)>") {
		t.Errorf("doc %q", got)
	}
	s, err := l.Attempt("produce t value=a")
	if err != nil || !l.Check(s).Solved {
		t.Errorf("attempt: %v %+v", err, l.Check(s))
	}
	if TextKey(text) != TextKey(smallLesson) || TextKey(text) == TextKey(smallLesson+"\n") {
		t.Error("TextKey is not a key of the text")
	}
}

// A built-in lesson's name is never taken for a link, nor a link for a name.
func TestLessonLinkOrName(t *testing.T) {
	for _, name := range Names() {
		if IsLink(name) {
			t.Errorf("%s reads as a link", name)
		}
	}
	f, err := scenario.ParseFragment("lesson=" + mustLink(t, smallLesson) + "&embed=1")
	if err != nil || !IsLink(f.Lesson) || !f.Embed || f.Link != "" {
		t.Fatalf("%+v %v", f, err)
	}
	if _, err := scenario.ParseFragment("lesson=" + strings.Repeat("a", 65)); err == nil {
		t.Error("a 65-letter name was read")
	}
}

func mustLink(t *testing.T, text string) string {
	t.Helper()
	link, err := EncodeLink(text)
	if err != nil {
		t.Fatal(err)
	}
	return link
}

func deflated(text string) string {
	var buf bytes.Buffer
	w, _ := flate.NewWriter(&buf, flate.BestCompression)
	w.Write([]byte(text))
	w.Close()
	return "v1." + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// A hostile lesson link gets an error that says what is wrong, at the
// file's line and column when it is the file.
func TestLessonLinkHostile(t *testing.T) {
	for _, tc := range []struct{ name, link, want string }{
		{"corrupt", "v1.!!!", "not valid base64url"},
		{"not deflate", "v1." + base64.RawURLEncoding.EncodeToString([]byte("hello there")), "not valid DEFLATE"},
		{"version", "v9.abc", "link version v9"},
		{"bomb", deflated(strings.Repeat("a", 10<<20)), "larger than 65536 bytes once decompressed"},
		{"long link", "v1." + strings.Repeat("A", scenario.MaxLinkChars), "at most 524288 are read"},
		{"error at line:col", deflated(strings.Replace(smallLesson, "records-at-least t 1", "records-at-least t", 1)), "line 10:1"},
		{"huge start", deflated(strings.Replace(smallLesson, "topic t partitions=1", "topic t partitions=1"+strings.Repeat("\nproduce t count=10000", 101), 1)), "line 7:1: the start: link script produces 1010000 records"},
		{"not utf-8", deflated("title: \xff\n"), "not valid UTF-8"},
	} {
		_, _, err := DecodeLink(tc.link)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
	var perr *scenario.Error
	_, _, err := DecodeLink(deflated("title only\n"))
	if !errors.As(err, &perr) || perr.Line != 1 {
		t.Errorf("no header: %v", err)
	}
	if _, err := EncodeLink("title: x\n"); err == nil {
		t.Error("a broken file got a link")
	}
}

// A goal that would replay the script after every action more often than
// maxReplays is not checked, and says so.
func TestGoalReplaysBounded(t *testing.T) {
	var checks, topics strings.Builder
	for i := range maxReplays + 1 {
		fmt.Fprintf(&checks, "not aged-out t%d\n", i)
		fmt.Fprintf(&topics, "topic t%d partitions=1\n", i)
	}
	base := strings.Replace(smallLesson, "topic t partitions=1\n", topics.String(), 1)
	text := strings.Replace(base, "records-at-least t 1\n", checks.String(), 1)
	l, err := ParseText(text)
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Start()
	if err != nil {
		t.Fatal(err)
	}
	r := l.Check(s)
	if r.Solved || !strings.Contains(r.Progress, "is not checked") {
		t.Errorf("%+v", r)
	}
	// As many as maxReplays are checked.
	text = strings.Replace(base, "records-at-least t 1\n", strings.Join(strings.Split(checks.String(), "\n")[:maxReplays], "\n")+"\n", 1)
	if l, err = ParseText(text); err != nil {
		t.Fatal(err)
	}
	if r := l.Check(s); !r.Solved {
		t.Errorf("%d replays: %+v", maxReplays, r)
	}
}
