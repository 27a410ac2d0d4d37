package app

import (
	"strings"
	"testing"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// hostileLesson is a lesson file whose text holds markup and links of every
// kind: the page shows the markup as text and follows only web and mail
// links.
const hostileLesson = `title: Markup <b>stays</b> text
goal: Produce *one* record to topic ` + "`t`" + `.

A *topic* holds **records**. <img src=http://x onerror=alert(1)> <script>alert(2)</script>
Read [the docs](https://kafka.apache.org/documentation/) or [write](mailto:a@b.example).

## start
topic t partitions=1

## check
records-at-least t 1

## hints
- Press ` + "`Produce`" + `. <img src=x>
- A second hint.
`

func lessonLinkOf(t *testing.T, text string) string {
	t.Helper()
	link, err := lesson.EncodeLink(text)
	if err != nil {
		t.Fatal(err)
	}
	return link
}

// A lesson from a link opens in the lesson panel, its markup shown as text,
// and the learner's progress in it is kept in the URL
// (#v1.…&lesson=v1.…) and, solved, in storage under its text's key.
func TestLessonFromLinkOpensSolvesAndKeepsProgress(t *testing.T) {
	m := useMemoryBrowser(t)
	link := lessonLinkOf(t, hostileLesson)
	p, d := mountAt(t, "lesson="+link)
	if p.err != "" || !p.lesson.fromLink() || p.lesson.name() != link {
		t.Fatalf("alert %q, lesson %q", p.err, p.lesson.name())
	}
	page := app.HTMLString(p)
	panelOf(t, page, "lesson")
	for _, want := range []string{"A lesson from a link", "Markup &lt;b&gt;stays&lt;/b&gt; text",
		"&lt;img src=http://x onerror=alert(1)&gt; &lt;script&gt;alert(2)&lt;/script&gt;",
		"<em>topic</em>", "<strong>records</strong>", "<em>one</em>", "<code>t</code>", `href="#lesson=` + link + `"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the page has no %s", want)
		}
	}
	if strings.Contains(page, "<img") || strings.Contains(page, "<script>alert") || strings.Contains(page, "<b>") {
		t.Error("the lesson's markup reached the page as markup")
	}
	if strings.Contains(page, "data-next-lesson") {
		t.Error("a lesson from a link offers a next lesson")
	}

	d.Context().NewActionWithValue(lessonAction, lessonRequest{Kind: "hint"})
	d.Consume()
	Apply(d.Context(), "produce t value=a")
	d.Consume()
	if !p.lesson.result.Solved {
		t.Fatalf("not solved: %+v", p.lesson.result)
	}
	linked, text, _ := lesson.DecodeLink(link)
	// The solved message names the lesson by its name and id, not by the
	// lesson file its link carries.
	if msg := solvedMessage(t, m, linked); strings.Contains(msg["link"].(string), "lesson=") {
		t.Errorf("the solved message's link carries the lesson: %q", msg["link"])
	}
	key := lesson.TextKey(text)
	kept := readLessonProgress(m.Item(lessonProgressKey))
	if !kept.isSolved(key) || kept.Hints[key] != 1 || len(kept.builtinSolved()) != 0 {
		t.Errorf("storage keeps %+v, want %s solved with one hint", kept, key)
	}
	fragment, err := p.currentFragment()
	if err != nil || !strings.HasPrefix(fragment, "v1.") || !strings.HasSuffix(fragment, "&lesson="+link) {
		t.Fatalf("fragment %q, %v", fragment, err)
	}

	// The progress link opens the lesson where the learner left it, with
	// the hint they unlocked.
	p2, _ := mountAt(t, fragment)
	if !p2.lesson.result.Solved || p2.lesson.name() != link || strings.Count(app.HTMLString(p2), "data-hint=") != 1 {
		t.Errorf("reopened: %+v, lesson %q", p2.lesson.result, p2.lesson.name())
	}
	// Embedded, it is the compact lesson without the list.
	p3, _ := mountAt(t, "lesson="+link+"&embed=1")
	if page := app.HTMLString(p3); !strings.Contains(page, `<details class="lesson-text">`) || strings.Contains(page, "data-lesson-list") {
		t.Error("an embedded lesson from a link is not compact")
	}
}

// A lesson link that cannot be opened leaves a live page that says why, at
// the lesson file's line and column when the file is wrong.
func TestLessonLinkErrorsLeaveALivePage(t *testing.T) {
	useMemoryBrowser(t)
	broken := strings.Replace(hostileLesson, "records-at-least t 1", "records-at-least t", 1)
	for _, c := range []struct{ link, want string }{
		{"v1.!!!", "This lesson link cannot be opened: link is not valid base64url"},
		{deflatedLink(broken), "This lesson link cannot be opened: line 11:19: records-at-least needs 2 arguments"},
		{deflatedLink(strings.Repeat("x", 1<<20)), "larger than 65536 bytes once decompressed"},
	} {
		p, d := mountAt(t, "lesson="+c.link)
		if !strings.Contains(p.err, c.want) || p.lesson.current != nil {
			t.Errorf("alert %q, want %q", p.err, c.want)
		}
		Apply(d.Context(), "topic live partitions=1")
		d.Consume()
		if len(p.view.Topics) != 1 {
			t.Errorf("the page does not work after %q", c.want)
		}
	}
}

// deflatedLink writes any text as a lesson link would, unchecked.
func deflatedLink(text string) string {
	link, _ := scenario.LinkCodec{MaxBytes: 10 << 20}.Encode(text)
	return link
}

// The renderer draws each kind of inline as its own element, a link to a
// new tab with no opener, and any other address as text.
func TestLessonInlinesRenderSafely(t *testing.T) {
	html := func(in ...lesson.Inline) string {
		var b strings.Builder
		for _, ui := range lessonInlines(in) {
			b.WriteString(app.HTMLString(ui))
		}
		return b.String()
	}
	for _, c := range []struct {
		in   lesson.Inline
		want string
	}{
		{lesson.Inline{Kind: lesson.InlineText, Text: "<b>x</b> & y"}, "&lt;b&gt;x&lt;/b&gt; &amp; y"},
		{lesson.Inline{Kind: lesson.InlineCode, Text: "<i>"}, "<code>&lt;i&gt;</code>"},
		{lesson.Inline{Kind: lesson.InlineLink, Text: "docs", URL: "https://kafka.apache.org/"}, `href="https://kafka.apache.org/"`},
		{lesson.Inline{Kind: lesson.InlineLink, Text: "mail", URL: "mailto:a@b.example"}, `href="mailto:a@b.example"`},
		{lesson.Inline{Kind: lesson.InlineLink, Text: "run", URL: "javascript:alert(1)"}, "run"},
		{lesson.Inline{Kind: lesson.InlineLink, Text: "data", URL: "data:text/html,<script>"}, "data"},
		{lesson.Inline{Kind: lesson.InlineLink, Text: "quote", URL: `https://x" onmouseover="alert(1)`}, "quote"},
	} {
		got := html(c.in)
		if !strings.Contains(got, c.want) {
			t.Errorf("%+v drew %s, want %s", c.in, got, c.want)
		}
		if strings.HasPrefix(c.want, "href") && len(tagsWith(got, "target", "_blank", "rel", "noopener noreferrer")) != 1 {
			t.Errorf("%+v drew %s: not to a new tab without opener", c.in, got)
		}
		if c.in.Kind == lesson.InlineLink && !strings.HasPrefix(c.want, "href") && strings.Contains(got, "<a") {
			t.Errorf("%+v drew a link: %s", c.in, got)
		}
	}
	blocks := lessonBlocks([]lesson.Block{{Items: [][]lesson.Inline{{{Kind: lesson.InlineText, Text: "one"}}}, Ordered: true}})
	if got := app.HTMLString(blocks[0]); got != "<ol><li>one</li></ol>" {
		t.Errorf("ordered list drew %s", got)
	}
}

// A lesson that hides the topics' skew shows neither the skew nor the hot
// partition until it is solved, and both once it is.
func TestLessonHidesTheSkewUntilSolved(t *testing.T) {
	useMemoryBrowser(t)
	text := "title: Find the hot partition\ngoal: Produce one more record.\nhide: skew\n\nOne key sends every record to one partition.\n\n" +
		"## start\ntopic t partitions=4\nproduce t key=hot count=30\n\n## check\nrecords-at-least t 31\n\n## hints\n- Press Produce.\n"
	l, err := lesson.ParseText(text)
	if err != nil || len(l.Hides) != 1 || l.Hides[0] != lesson.GiveawaySkew {
		t.Fatalf("hides %v, %v", l.Hides, err)
	}
	p, d := mountAt(t, "lesson="+lessonLinkOf(t, text))
	page := app.HTMLString(p)
	if strings.Contains(page, ` data-skew="`) || !strings.Contains(page, "skew hidden until solved") || strings.Contains(page, "· hot") {
		t.Errorf("the skew shows before the lesson is solved")
	}
	Apply(d.Context(), "produce t key=other value=v")
	d.Consume()
	if !p.lesson.result.Solved {
		t.Fatalf("not solved: %+v", p.lesson.result)
	}
	page = app.HTMLString(p)
	if !strings.Contains(page, ` data-skew="`) || strings.Contains(page, "skew hidden until solved") || !strings.Contains(page, "· hot") {
		t.Errorf("the skew does not show once solved")
	}
}

// A lesson's question shows under its goal, its choices as buttons; an
// answer is a step of the scenario, and the right one solves it.
func TestLessonQuestionIsAnsweredOnThePage(t *testing.T) {
	useMemoryBrowser(t)
	text := "title: Find the hot partition\ngoal: Say which partition is hot.\n\nOne key sends every record to one partition.\n\n" +
		"## start\nseed 1\ntopic t partitions=4\nproduce t key=hot value=v count=8\n\n" +
		"## check\nquestion hot \"Which partition holds the hot key?\" answer=2 choices=0,1,2,3\n\n## hints\n- Look at the lanes.\n"
	p, d := mountAt(t, "lesson="+lessonLinkOf(t, text))
	page := app.HTMLString(p)
	if n := len(tagsWith(page, "data-command", "answer")); n != 4 || !strings.Contains(page, "Which partition holds the hot key?") {
		t.Fatalf("%d answer buttons", n)
	}
	Apply(d.Context(), "answer hot 1")
	d.Consume()
	page = app.HTMLString(p)
	if p.lesson.result.Solved || len(tagsWith(page, "data-choice", "1", "aria-pressed", "true")) != 1 || !strings.Contains(page, "Your answer: 1") {
		t.Errorf("after a wrong answer: %+v", p.lesson.result)
	}
	Apply(d.Context(), "answer hot 2")
	d.Consume()
	if !p.lesson.result.Solved {
		t.Errorf("after the right answer: %+v", p.lesson.result)
	}
}
