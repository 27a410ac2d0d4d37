package app

import (
	"errors"
	"os"
	"strings"
	"testing"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// testEditor is an editor whose fields a teacher has filled in.
func testEditor(t *testing.T) *LessonEditor {
	t.Helper()
	useMemoryBrowser(t)
	e := &LessonEditor{file: newLessonFile("topic t partitions=1\n")}
	for name, value := range map[string]string{
		"title": "One record",
		"goal":  "Produce one record to topic t.",
		"text":  "A *topic* holds records.\n\n- one\n- two",
		"check": "records-at-least t 1\n",
		"hints": "Press Produce.\n- Type a value.",
	} {
		e.setField(fieldNamed(t, name), value)
	}
	return e
}

func fieldNamed(t *testing.T, name string) draftField {
	t.Helper()
	for _, f := range draftFields {
		if f.name == name {
			return f
		}
	}
	t.Fatalf("no field %s", name)
	return draftField{}
}

// The fields make a lesson file that reads back as they say, and its link
// opens the same lesson.
func TestLessonEditorFieldsMakeALessonFile(t *testing.T) {
	e := testEditor(t)
	l, err := lesson.ParseText(e.file)
	if err != nil {
		t.Fatalf("%v in\n%s", err, e.file)
	}
	if l.Title != "One record" || l.Goal != "Produce one record to topic t." || len(l.Doc) != 2 || len(l.Hints) != 2 || l.Solution != "" {
		t.Errorf("lesson %+v from\n%s", l, e.file)
	}
	// A newline typed at the check's end keeps one blank line before the
	// next section.
	if !strings.Contains(e.file, "records-at-least t 1\n\n## hints\n") {
		t.Errorf("the check in the file:\n%s", e.file)
	}
	p := previewOf(e.file, nil)
	if p.err != "" || !lesson.IsLink(p.link) {
		t.Fatalf("preview %+v", p)
	}
	back, text, err := lesson.DecodeLink(p.link)
	if err != nil || text != e.file || back.Title != l.Title {
		t.Errorf("the link carries %q, %v", text, err)
	}
}

// A wrong field is named, with its own line and the file's line:col.
func TestLessonPreviewPlacesErrors(t *testing.T) {
	e := testEditor(t)
	e.setField(fieldNamed(t, "check"), "records-at-least t 1\nlag-at-most")
	p := previewOf(e.file, nil)
	if p.field != "check" || !strings.HasPrefix(p.err, "Check, line 2: ") || !strings.Contains(p.err, "of the lesson file") {
		t.Errorf("preview %+v", p)
	}
	e = testEditor(t)
	e.setField(fieldNamed(t, "title"), "")
	if p := previewOf(e.file, nil); p.err == "" || p.link != "" {
		t.Errorf("a lesson without a title previews: %+v", p)
	}
	e = testEditor(t)
	e.setField(fieldNamed(t, "text"), "[a](javascript:alert(1))")
	if p := previewOf(e.file, nil); p.field != "text" || !strings.Contains(p.err, "must begin with https://") {
		t.Errorf("a javascript: link: %+v", p)
	}
	e = testEditor(t)
	e.setField(wrongField(0), "produce t value=a")
	e.setField(wrongField(1), "produce t value=b\nproducce t value=c")
	if p := previewOf(e.file, nil); p.field != "wrong-2" || !strings.HasPrefix(p.err, "Wrong attempt 2, line 2: ") {
		t.Errorf("a wrong attempt's error: %+v", p)
	}
}

// A lesson file opened in the editor is its draft byte for byte: saved
// unchanged it is the same file, and a field changed changes its lines
// alone. A file that is no lesson changes nothing.
func TestLessonEditorRoundTripsAFile(t *testing.T) {
	data, err := os.ReadFile("../core/lesson/testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	example := string(data)
	m := useMemoryBrowser(t)
	e := &LessonEditor{loaded: true}
	if msg := e.takeFile(OpenedFile{Name: "payments.lesson", Text: example}, nil); !strings.Contains(msg, "Opened payments.lesson") {
		t.Errorf("opening says %q", msg)
	}
	if e.file != example {
		t.Fatalf("the draft differs from the file")
	}
	if got := e.value(fieldNamed(t, "name")); got != "payments-in-order" {
		t.Errorf("the name field shows %q", got)
	}
	if got := e.value(wrongField(0)); !strings.HasPrefix(got, "produce payments key=cust-7 value=authorised partition=0") {
		t.Errorf("the wrong attempt's field shows %q", got)
	}
	e.saveFile(nil, app.Event{})
	if d := m.Downloads(); len(d) != 1 || d[0].Name != "payments-in-order.lesson" || d[0].Text != example {
		t.Fatalf("saved %+v", d)
	}

	e.setField(fieldNamed(t, "title"), "Payments, in order")
	if want := strings.Replace(example, "title: Keep a customer's payments in order", "title: Payments, in order", 1); e.file != want {
		t.Errorf("a new title changed more than its line:\n%s", e.file)
	}

	// A second wrong attempt, then the first taken out.
	e.showAnotherWrong()
	if fields := e.fields(); fields[len(fields)-1].key() != "wrong-2" {
		t.Fatalf("no field for a second wrong attempt")
	}
	e.setField(wrongField(1), "poll billing b1\n")
	e.dropWrong(0)
	l, err := lesson.ParseText(e.file)
	if err != nil || len(l.WrongAttempts) != 1 || l.WrongAttempts[0] != "poll billing b1\n" {
		t.Errorf("wrong attempts %q, %v", l.WrongAttempts, err)
	}

	before := e.file
	if msg := e.takeFile(OpenedFile{Name: "orders.plog", Text: "topic orders partitions=2\n"}, nil); !strings.Contains(msg, "is not a lesson file") || e.file != before {
		t.Errorf("a scenario file: %q", msg)
	}
}

// The editor opens from the page, its start filled from the scenario on
// the page, and a kept draft comes back in a new page, one of fields kept
// before the editor kept files too.
func TestLessonEditorOpensWithTheScenarioAndKeepsItsDraft(t *testing.T) {
	useMemoryBrowser(t)
	p, d := mountAt(t, mustLink(t, "topic orders partitions=2\nproduce orders key=a value=1"))
	if strings.Contains(app.HTMLString(p), "data-lesson-editor") {
		t.Fatal("the editor is open before it is asked for")
	}
	d.Context().NewActionWithValue(lessonAction, lessonRequest{Kind: "edit"})
	d.Consume()
	d.Consume() // the editor reads its draft once mounted
	page := app.HTMLString(p)
	start := tagsWith(page, "id", "lesson-editor-start")
	if len(tagsWith(page, "data-lesson-editor", bare)) != 1 || len(start) != 1 ||
		!strings.Contains(start[0], "topic orders partitions=2") || !strings.Contains(start[0], "produce orders key=a value=1") {
		t.Fatalf("no editor with the scenario's start: %q", start)
	}
	for _, id := range []string{"lesson-editor-open-list", "lesson-editor-title", "lesson-editor-check", "lesson-editor-preview", lessonFileInput, "lesson-editor-save", "lesson-editor-add-wrong"} {
		if !strings.Contains(page, `id="`+id+`"`) {
			t.Errorf("no #%s", id)
		}
	}
	// A kept draft comes back.
	e := testEditor(t)
	m := currentBrowser().(*MemoryBrowser)
	if readLessonDraft(m.Item(lessonDraftKey)) != e.file {
		t.Fatalf("kept %q", m.Item(lessonDraftKey))
	}
	p2, d2 := mountAt(t, "")
	d2.Context().NewActionWithValue(lessonAction, lessonRequest{Kind: "edit"})
	d2.Consume()
	d2.Consume()
	if page := app.HTMLString(p2); !strings.Contains(page, "Produce one record to topic t.") || !strings.Contains(page, "records-at-least t 1") {
		t.Error("the kept draft did not come back")
	}
	if readLessonDraft("not json") != "" {
		t.Error("storage that is not a draft reads as one")
	}
	old := `{"title":"One record","goal":"Produce one record.","text":"A topic.","start":"topic t partitions=1\n","check":"records-at-least t 1","hints":"Press Produce."}`
	if l, err := lesson.ParseText(readLessonDraft(old)); err != nil || l.Title != "One record" || l.Hints[0] != "Press Produce." {
		t.Errorf("a draft of fields reads as %+v, %v", l, err)
	}
}

// Where storage refuses the draft, the editor says it lasts only while the
// page is open.
func TestLessonEditorSaysWhenTheDraftIsNotKept(t *testing.T) {
	e := testEditor(t)
	currentBrowser().(*MemoryBrowser).SaveError = errors.New("the storage is full")
	e.save()
	if page := app.HTMLString(e); !strings.Contains(page, "Your draft lasts only while this page is open: the storage is full") ||
		len(tagsWith(page, "data-draft", "unsaved")) != 1 {
		t.Errorf("the editor does not say the draft is not kept:\n%s", page)
	}
}

// Preview checks the lesson as plogsim lesson check does: a solution that
// solves nothing and a wrong attempt that solves it are said, each on its
// line, and the page's scenario that is not the lesson's start is said so.
func TestLessonPreviewChecksTheLesson(t *testing.T) {
	data, err := os.ReadFile("../core/lesson/testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	example := string(data)
	p := previewOf(example, nil)
	if len(p.trials) != 3 || len(p.unfair) != 0 || p.onStart {
		t.Fatalf("preview %+v", p)
	}
	html := app.HTMLString(renderLessonCheck(p.trials, p.unfair))
	if n := len(tagsWith(html, "data-ok", "true")); n != 4 || !strings.Contains(html, "The solution solves it.") {
		t.Errorf("a fair lesson's check:\n%s", html)
	}
	broken := strings.Replace(example, "poll billing b1\ncommit billing b1\n\n## wrong", "advance 1s\n\n## wrong", 1)
	broken += "\n## wrong\nproduce payments key=cust-7 value=authorised\nproduce payments key=cust-7 value=captured\nproduce payments key=cust-7 value=refunded\npoll billing b1\ncommit billing b1\n"
	p = previewOf(broken, nil)
	html = app.HTMLString(renderLessonCheck(p.trials, p.unfair))
	for _, want := range []string{"The solution does not solve it: group billing has not received 3 records", "The wrong attempt 2 solves it, which it must not"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in\n%s", want, html)
		}
	}
}

// Before the editor has read its kept draft, its buttons and fields do
// nothing: a click storm once panicked the page there, and what they did
// would be overwritten by the draft.
func TestLessonEditorWaitsForItsDraft(t *testing.T) {
	useMemoryBrowser(t)
	e := &LessonEditor{Start: "topic t partitions=1\n"}
	e.useScenario(nil, app.Event{})
	e.addWrong(nil, app.Event{})
	e.removeWrong(0)(nil, app.Event{})
	e.saveFile(nil, app.Event{})
	e.showPreview(nil, app.Event{})
	if e.file != "" || e.preview != nil || len(currentBrowser().(*MemoryBrowser).Downloads()) != 0 {
		t.Errorf("an editor not loaded changed: %+v", e)
	}
}

// The editor lists every check and expect's functions, once unfolded.
func TestLessonEditorListsTheChecks(t *testing.T) {
	e := testEditor(t)
	e.loaded = true
	if strings.Contains(app.HTMLString(e), "expect VALUE COMPARISON VALUE") {
		t.Error("the list of checks is drawn folded")
	}
	open := testEditor(t)
	open.loaded, open.checksOpen = true, true
	page := app.HTMLString(open)
	for _, want := range []string{"expect VALUE COMPARISON VALUE", "question NAME TEXT", "hw(TOPIC/PARTITION)", "events(EVENT[,NAME][,FIELD=VALUE...])", "cause=", "(a or b) and not c"} {
		if !strings.Contains(page, want) {
			t.Errorf("the list has no %s", want)
		}
	}
}
