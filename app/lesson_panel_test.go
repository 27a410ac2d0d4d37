package app

import (
	"html"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// useMemoryBrowser gives the test a browser of its own, with empty storage.
func useMemoryBrowser(t *testing.T) *MemoryBrowser {
	t.Helper()
	m := NewMemoryBrowser()
	SetBrowser(m)
	t.Cleanup(func() { SetBrowser(NewMemoryBrowser()) })
	return m
}

// lines splits a script into its non-empty lines.
func lines(script string) []string {
	var ls []string
	for _, l := range strings.Split(script, "\n") {
		if strings.TrimSpace(l) != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

// solvedMessages counts the messages telling the embedding page that the
// lesson was solved.
func solvedMessages(m *MemoryBrowser, name string) int {
	n := 0
	for _, msg := range m.Posted() {
		if msg["type"] == messageSolved && msg["lesson"] == name {
			n++
		}
	}
	return n
}

// solvedMessage is the one message that told the embedding page the
// lesson was solved, and checks that its link grades solved, from the
// link alone, and carries no lesson file.
func solvedMessage(t *testing.T, m *MemoryBrowser, l lesson.Lesson) map[string]any {
	t.Helper()
	var found []map[string]any
	for _, msg := range m.Posted() {
		if msg["type"] == messageSolved {
			found = append(found, msg)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d solved messages", len(found))
	}
	msg := found[0]
	link, _ := msg["link"].(string)
	if msg["lesson"] != l.Name || msg["lessonId"] != l.ID || len(link) > 1000 {
		t.Errorf("the solved message is %v", msg)
	}
	f, err := scenario.ParseFragment(link)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := l.Grade(f); err != nil || !r.Solved {
		t.Errorf("the solved message's link grades %+v, %v", r, err)
	}
	return msg
}

// wantProgress is what Check says after the lesson's start and lines.
func wantProgress(t *testing.T, l lesson.Lesson, lines []string) lesson.Result {
	t.Helper()
	s, err := l.Attempt(strings.Join(lines, "\n"))
	if err != nil {
		t.Fatalf("lesson %s: attempt %q: %v", l.Name, lines, err)
	}
	return l.Check(s)
}

// bare is how tagsWith finds an attribute with no value, such as
// data-lesson-panel: go-app prints it bare, as it does "true".
const bare = "true"

// panelOf returns the lesson panel's opening tag in page, failing unless
// there is exactly one.
func panelOf(t *testing.T, page, name string) string {
	t.Helper()
	tags := tagsWith(page, "data-lesson-panel", bare, "data-lesson", name)
	if len(tags) != 1 {
		t.Fatalf("want one lesson panel for %s, got %d in:\n%s", name, len(tags), page)
	}
	return tags[0]
}

func TestLessonOpensFromItsStartAndChecksEveryAction(t *testing.T) {
	m := useMemoryBrowser(t)
	l, _ := lesson.Find("key-order")
	p, d := mountAt(t, "lesson=key-order")
	if p.err != "" {
		t.Fatalf("unexpected alert: %s", p.err)
	}
	start, err := l.Start()
	if err != nil {
		t.Fatal(err)
	}
	if p.session.Script() != start.Script() {
		t.Errorf("the page holds:\n%s\nwant the lesson's start:\n%s", p.session.Script(), start.Script())
	}
	page := app.HTMLString(p)
	if panel := panelOf(t, page, "key-order"); !strings.Contains(panel, `data-solved="false"`) {
		t.Errorf("panel %s: want data-solved=\"false\" at the start", panel)
	}
	want := wantProgress(t, l, nil)
	if want.Solved {
		t.Fatal("the lesson's start solves it: the test proves nothing")
	}
	for _, text := range []string{l.Title, "Lesson 1 of", "Goal: ", want.Progress} {
		if !strings.Contains(page, html.EscapeString(text)) {
			t.Errorf("the page does not show %q", text)
		}
	}
	// The first paragraph is shown whole, its backquoted spans as code.
	if !strings.Contains(page, html.EscapeString(l.Text[0])) {
		t.Errorf("the page does not show the first paragraph %q", l.Text[0])
	}
	if len(tagsWith(page, "data-hint", "0")) != 0 {
		t.Error("a hint is shown before the learner asked for one")
	}
	if len(tagsWith(page, "role", "status")) != 1 {
		t.Error("want the announcement's live region, empty, from the start")
	}
	if strings.Contains(page, "Solved!") {
		t.Error("the lesson is announced solved at its start")
	}

	// The goal is checked after every action.
	solution := lines(l.Solution)
	for i, line := range solution {
		Apply(d.Context(), line)
		d.Consume()
		if want := wantProgress(t, l, solution[:i+1]); !reflect.DeepEqual(p.lesson.result, want) {
			t.Fatalf("after %q the page says %+v, want %+v", line, p.lesson.result, want)
		}
	}
	if n := solvedMessages(m, "key-order"); n != 1 {
		t.Errorf("the embedding page heard %d times that key-order was solved, want once", n)
	}
	if msg := solvedMessage(t, m, l); !strings.HasSuffix(msg["link"].(string), "&lesson=key-order") {
		t.Errorf("the solved message's link %q does not name the lesson", msg["link"])
	}
	for _, move := range []historyMove{{Kind: "undo"}, {Kind: "seek", Step: 1}, {Kind: "redo"}} {
		d.Context().NewActionWithValue(historyAction, move)
		d.Consume()
		want := l.Check(p.session)
		if !reflect.DeepEqual(p.lesson.result, want) {
			t.Errorf("after %s the page says %+v, want %+v", move.Kind, p.lesson.result, want)
		}
	}
}

// Every lesson's reference solution, applied a line at a time as the
// controls do, updates the progress after each line and ends solved;
// undoing its last line unsolves it again.
func TestLessonSolutionsSolveInThePage(t *testing.T) {
	for _, l := range lesson.All() {
		t.Run(l.Name, func(t *testing.T) {
			m := useMemoryBrowser(t)
			p, d := mountAt(t, "lesson="+l.Name)
			solution := lines(l.Solution)
			// The lines go as one gesture: actions in a burst may run in
			// any order. (The goal after each line, as from the controls,
			// is checked in TestLessonOpensFromItsStartAndChecksEveryAction.)
			ApplyFrom(d.Context(), "", solution...)
			d.Consume()
			if want := wantProgress(t, l, solution); !reflect.DeepEqual(p.lesson.result, want) || !want.Solved {
				t.Fatalf("after the solution the page says %+v, want %+v, solved", p.lesson.result, want)
			}
			page := app.HTMLString(p)
			if len(tagsWith(page, "data-lesson-panel", bare, "data-lesson", l.Name, "data-solved", "true")) != 1 {
				t.Errorf("want the panel marked data-solved=\"true\" once solved:\n%s", page)
			}
			if !strings.Contains(page, "Solved!") {
				t.Error("the page does not announce the solved lesson")
			}
			if !readLessonProgress(m.Item(lessonProgressKey)).isSolved(l.Name) {
				t.Errorf("storage holds %q: the solved lesson is not kept", m.Item(lessonProgressKey))
			}
			if len(tagsWith(page, "data-lesson", l.Name, "data-solved", "true")) != 2 {
				t.Error("want the panel and the lesson list to mark the lesson solved")
			}

			// Undo is an action too. (Some solutions end with a line that
			// only makes sure, so undoing it may leave the lesson solved.)
			d.Context().NewActionWithValue(historyAction, historyMove{Kind: "undo"})
			d.Consume()
			want := wantProgress(t, l, solution[:len(solution)-1])
			if !reflect.DeepEqual(p.lesson.result, want) {
				t.Errorf("after undo the page says %+v, want %+v", p.lesson.result, want)
			}
			if announced := strings.Contains(app.HTMLString(p), "Solved!"); announced != want.Solved {
				t.Errorf("after undo, announced solved %v, want %v", announced, want.Solved)
			}
		})
	}
}

func TestLessonWrongAttemptsDoNotSolve(t *testing.T) {
	for _, l := range lesson.All() {
		if len(l.WrongAttempts) == 0 {
			t.Fatalf("%s: a built-in lesson has a wrong attempt", l.Name)
		}
		useMemoryBrowser(t)
		p, d := mountAt(t, "lesson="+l.Name)
		ApplyFrom(d.Context(), "", lines(l.WrongAttempts[0])...)
		d.Consume()
		if p.err != "" {
			t.Errorf("%s: alert %s", l.Name, p.err)
		}
		if p.lesson.result.Solved || p.lesson.result.Progress == "" {
			t.Errorf("%s: the wrong attempt gives %+v, want unsolved with a reason", l.Name, p.lesson.result)
		}
		if strings.Contains(app.HTMLString(p), "Solved!") {
			t.Errorf("%s: the wrong attempt is announced solved", l.Name)
		}
	}
}

// A link holding the lesson's start and more opens as progress in the
// lesson, checked at once; the URL the page writes keeps the lesson.
func TestLessonLinkWithProgress(t *testing.T) {
	useMemoryBrowser(t)
	l, _ := lesson.Find("key-order")
	p, d := mountAt(t, mustLink(t, l.Script+l.Solution)+"&lesson=key-order")
	if p.err != "" || p.lesson.name() != "key-order" || !p.lesson.result.Solved {
		t.Fatalf("alert %q, lesson %q, result %+v: want key-order, solved", p.err, p.lesson.name(), p.lesson.result)
	}

	Apply(d.Context(), "produce orders key=acct-3 value=created")
	d.Consume()
	clockOf(t, p).Step(d, urlDebounce)
	fragment := d.Context().Page().URL().Fragment
	f, err := scenario.ParseFragment(fragment)
	if err != nil {
		t.Fatalf("the page wrote %q: %v", fragment, err)
	}
	if f.Lesson != "key-order" {
		t.Errorf("the page wrote %q: the lesson is lost", fragment)
	}
	script, err := scenario.DecodeLink(f.Link)
	if err != nil || script != p.session.Script() {
		t.Errorf("the URL holds %q (%v), want the session's script", script, err)
	}
	if p.link != fragment {
		t.Error("the page does not know its URL already shows its state: the next OnNav would replay it")
	}

	// Leaving for a plain link leaves the lesson.
	u, _ := url.Parse("https://plog.test/#" + mustLink(t, "topic a\n"))
	d.Nav(u)
	d.Consume()
	if p.lesson.current != nil || strings.Contains(app.HTMLString(p), "data-lesson-panel") {
		t.Error("a link without a lesson still shows the lesson")
	}
}

func TestLessonHintsUnlockOneAtATime(t *testing.T) {
	m := useMemoryBrowser(t)
	l, _ := lesson.Find("key-order")
	p, d := mountAt(t, "lesson=key-order")
	for n := 1; n <= len(l.Hints)+1; n++ {
		d.Context().NewActionWithValue(lessonAction, lessonRequest{Kind: "hint"})
		d.Consume()
		page := app.HTMLString(p)
		shown := min(n, len(l.Hints))
		if got := strings.Count(page, "data-hint="); got != shown {
			t.Fatalf("after %d asks, %d hints shown, want %d", n, got, shown)
		}
		for i := range shown {
			if len(tagsWith(page, "data-hint", strconv.Itoa(i))) != 1 {
				t.Errorf("after %d asks, hint %d is not shown", n, i)
			}
		}
		if more := strings.Contains(page, `id="lesson-hint"`); more != (shown < len(l.Hints)) {
			t.Errorf("after %d hints, the button to show another is there: %v", shown, more)
		}
	}
	if got := readLessonProgress(m.Item(lessonProgressKey)).Hints["key-order"]; got != len(l.Hints) {
		t.Errorf("storage keeps %d hints shown, want %d", got, len(l.Hints))
	}

	// A new page with the same storage shows the same hints.
	p2, _ := mountAt(t, "lesson=key-order")
	if got := strings.Count(app.HTMLString(p2), "data-hint="); got != len(l.Hints) {
		t.Errorf("a new page shows %d hints, want the %d kept", got, len(l.Hints))
	}
}

func TestLessonUnknownNameShowsAnAlertAndThePageWorks(t *testing.T) {
	useMemoryBrowser(t)
	_, findErr := lesson.Find("key-ordr")
	if findErr == nil {
		t.Fatal("Find knows key-ordr: the test proves nothing")
	}
	p, d := mountAt(t, "lesson=key-ordr")
	if p.err != findErr.Error() {
		t.Errorf("alert %q, want Find's error %q", p.err, findErr)
	}
	page := app.HTMLString(p)
	if len(tagsWith(page, "role", "alert")) != 1 || strings.Contains(page, "data-lesson-panel") {
		t.Errorf("want an alert and no lesson panel:\n%s", page)
	}
	Apply(d.Context(), "topic orders partitions=2")
	d.Consume()
	if p.err != "" || len(p.view.Topics) != 1 {
		t.Errorf("after the alert the page does not work: alert %q, topics %+v", p.err, p.view.Topics)
	}
}

func TestLessonListLinksToEveryLesson(t *testing.T) {
	useMemoryBrowser(t)
	p, _ := mountAt(t, "")
	page := app.HTMLString(p)
	if len(tagsWith(page, "data-lesson-list", bare)) != 1 {
		t.Fatalf("want one lesson list in:\n%s", page)
	}
	for _, name := range lesson.Names() {
		if len(tagsWith(page, "data-lesson", name, "data-solved", "false")) != 1 {
			t.Errorf("no unsolved list item for %s", name)
		}
		if !strings.Contains(page, `href="#lesson=`+name+`"`) {
			t.Errorf("no link to #lesson=%s", name)
		}
	}
}

func TestLessonProgressSurvivesWhatStorageHolds(t *testing.T) {
	for _, text := range []string{"", "not json", `{"solved":7}`, `[]`, `{"hints":{"key-order":-3}}`} {
		p := readLessonProgress(text)
		if len(p.Solved) != 0 || len(p.Hints) != 0 {
			t.Errorf("%q reads as %+v, want nothing", text, p)
		}
	}
	p := readLessonProgress(`{"solved":["compaction","gone","key-order","key-order"],"hints":{"key-order":99,"gone":1}}`)
	if strings.Join(p.Solved, " ") != "key-order compaction" {
		t.Errorf("solved = %v, want the known lessons once each, in teaching order", p.Solved)
	}
	l, _ := lesson.Find("key-order")
	if p.hintsShown(l.Name, len(l.Hints)) != len(l.Hints) || len(p.Hints) != 1 {
		t.Errorf("hints = %v, want key-order's capped at %d", p.Hints, len(l.Hints))
	}
	if again := readLessonProgress(p.String()); again.String() != p.String() {
		t.Errorf("kept %s, read back %s", p, again)
	}
}

func TestLessonStorageProblemIsSaid(t *testing.T) {
	m := useMemoryBrowser(t)
	m.Problem = "this page is in a sandboxed frame"
	p, _ := mountAt(t, "lesson=key-order")
	if !strings.Contains(app.HTMLString(p), "lasts only while this page is open: this page is in a sandboxed frame") {
		t.Error("the lesson list does not say why progress will not be kept")
	}
}

func TestWithCode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"run `produce a` now", "run <code>produce a</code> now"},
		{"`a` and `b`", "<code>a</code> and <code>b</code>"},
		{"a `b` c `d", "a <code>b</code> c `d"},
		{"one ` only", "one ` only"},
		{"``", ""},
	} {
		t.Run(c.in, func(t *testing.T) {
			var b strings.Builder
			for _, ui := range withCode(c.in) {
				b.WriteString(app.HTMLString(ui))
			}
			if got := b.String(); got != c.want {
				t.Errorf("withCode(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

// Embedded, a lesson shows its task with the explanation folded away, and
// no list of lessons: the course around it chose the lesson.
func TestLessonEmbedded(t *testing.T) {
	useMemoryBrowser(t)
	p, _ := mountAt(t, "lesson=key-order&embed=1")
	if p.err != "" || p.lesson.name() != "key-order" {
		t.Fatalf("alert %q, lesson %q: want key-order", p.err, p.lesson.name())
	}
	page := app.HTMLString(p)
	panelOf(t, page, "key-order")
	if !strings.Contains(page, `<details class="lesson-text">`) {
		t.Error("the explanation is not folded away")
	}
	if strings.Contains(page, "data-lesson-list") {
		t.Error("an embedded page shows the list of lessons")
	}
}
