package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// hostileLessonFile is a lesson file whose words hold markup that would run
// or load something if the page ever wrote them as HTML.
const hostileLessonFile = `title: Markup <script>window.pwned=4</script>
goal: Produce one record to t.

Look: <img src=http://x.example/pwned.png onerror="window.pwned=1"> and <script>window.pwned=2</script>
and <b id=pwned>bold</b>.

## start
topic t partitions=1

## check
records-at-least t 1

## hints
- <img src=http://x.example/hint.png> press Produce.
`

// Lesson links come from strangers too: whatever one holds, the page stays
// alive, says what is wrong (at the lesson file's line and column when the
// file is), shows a lesson's markup as text and asks no other host for
// anything.
func TestHostileLessonLinksLeaveALivePage(t *testing.T) {
	t.Parallel()
	lessonLink := func(text string) string { return "#lesson=" + strings.TrimPrefix(deflateLink(t, []byte(text)), "#") }
	// Five producers of values of 3.9 KB that differ, in turn: 1.9 GB of
	// records in the start's advance.
	var heavy strings.Builder
	for i := range 5 {
		fmt.Fprintf(&heavy, "producer p%d t rate=1000/s value=%d%s\n", i, i, strings.Repeat("x", 3900))
	}
	heavyWorkloads := heavy.String()
	var replays, topics strings.Builder
	for i := range 5 {
		fmt.Fprintf(&topics, "topic t%d partitions=1\n", i)
		fmt.Fprintf(&replays, "not aged-out t%d\n", i)
	}
	cases := []struct {
		name, fragment string
		says           string // what the page must say, in its alert or the lesson panel
		panel          bool   // the lesson opens
	}{
		{"markup in the text", lessonLink(hostileLessonFile), "<img src=http://x.example/pwned.png", true},
		{"a corrupt payload", "#lesson=v1.!!!!", "This lesson link cannot be opened: link is not valid base64url", false},
		{"a huge text", lessonLink(strings.Repeat("title: x\n", 4<<20)), "larger than 65536 bytes once decompressed", false},
		{"an error at line:col", lessonLink(strings.Replace(hostileLessonFile, "records-at-least t 1", "records-at-least t", 1)),
			"line 11:19: records-at-least needs 2 arguments", false},
		{"a start with too many records", lessonLink(strings.Replace(hostileLessonFile, "topic t partitions=1\n",
			"topic t partitions=1\n"+strings.Repeat("produce t count=10000\n", 101), 1)), "produces 1010000 records", false},
		{"a start past the memory budget", lessonLink(strings.Replace(hostileLessonFile, "topic t partitions=1\n",
			"topic t partitions=1\n"+heavyWorkloads+"advance 100s\n", 1)), "memory budget", false},
		{"a goal that replays too often", lessonLink(strings.Replace(strings.Replace(hostileLessonFile,
			"topic t partitions=1\n", topics.String(), 1), "records-at-least t 1\n", replays.String(), 1)), "is not checked", true},
	}
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b.reopen(t, s.URL+tc.fragment)
			said := eval[string](t, b, `Array.from(document.querySelectorAll("main > [role=alert], [data-lesson-panel]")).map(el => el.textContent).join(" ")`)
			if !strings.Contains(said, tc.says) {
				t.Errorf("the page says %q, want %q", said, tc.says)
			}
			if n := b.count(t, "[data-lesson-panel]"); n != map[bool]int{true: 1, false: 0}[tc.panel] {
				t.Errorf("%d lesson panels", n)
			}
			if what := injected(t, b); what != "" {
				t.Error(what)
			}
			if n := b.count(t, "[data-lesson-panel] img, [data-lesson-panel] script, [data-lesson-panel] b, main img"); n != 0 {
				t.Errorf("%d elements from the lesson's markup", n)
			}
			b.createTopic(t, "after", 1)
		})
	}
	host, _ := url.Parse(s.URL)
	for _, r := range b.requested() {
		u, err := url.Parse(r)
		if err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != host.Host {
			t.Errorf("the page asked another host: %s", r)
		}
	}
}
