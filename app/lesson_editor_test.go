package app

import (
	"errors"
	"strings"
	"testing"

	"plog/core/lesson"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

var testDraft = lessonDraft{
	Title: "One record",
	Goal:  "Produce one record to topic t.",
	Text:  "A *topic* holds records.\n\n- one\n- two",
	Start: "topic t partitions=1\n",
	Check: "records-at-least t 1",
	Hints: "Press Produce.\n- Type a value.",
}

// The draft makes a lesson file that reads back as the fields say, and its
// link opens the same lesson.
func TestLessonDraftMakesALessonFile(t *testing.T) {
	text, at := testDraft.file()
	l, err := lesson.ParseText(text)
	if err != nil {
		t.Fatalf("%v in\n%s", err, text)
	}
	if l.Title != testDraft.Title || l.Goal != testDraft.Goal || len(l.Doc) != 2 || len(l.Hints) != 2 || l.Solution != "" {
		t.Errorf("lesson %+v", l)
	}
	if field, n := fieldOf(at, at["check"]); field != "check" || n != 1 {
		t.Errorf("the check's line is in %s, line %d", field, n)
	}
	p := previewOf(testDraft, nil)
	if p.err != "" || !lesson.IsLink(p.link) {
		t.Fatalf("preview %+v", p)
	}
	back, text2, err := lesson.DecodeLink(p.link)
	if err != nil || text2 != text || back.Title != l.Title {
		t.Errorf("the link carries %q, %v", text2, err)
	}
}

// A wrong field is named, with its own line and the file's line:col.
func TestLessonPreviewPlacesErrors(t *testing.T) {
	d := testDraft
	d.Check = "records-at-least t 1\nlag-at-most"
	p := previewOf(d, nil)
	_, at := d.file()
	if p.field != "check" || p.line != at["check"]+1 || !strings.HasPrefix(p.err, "Check, line 2: ") ||
		!strings.Contains(p.err, "of the lesson file") {
		t.Errorf("preview %+v", p)
	}
	d = testDraft
	d.Title = ""
	if p := previewOf(d, nil); p.err == "" || p.link != "" {
		t.Errorf("a lesson without a title previews: %+v", p)
	}
	d = testDraft
	d.Text = "[a](javascript:alert(1))"
	if p := previewOf(d, nil); p.field != "text" || !strings.Contains(p.err, "must begin with https://") {
		t.Errorf("a javascript: link: %+v", p)
	}
}

// The editor opens from the page, its start filled from the scenario on
// the page, and a kept draft comes back in a new page.
func TestLessonEditorOpensWithTheScenarioAndKeepsItsDraft(t *testing.T) {
	m := useMemoryBrowser(t)
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
	for _, id := range []string{"lesson-editor-open-list", "lesson-editor-title", "lesson-editor-check", "lesson-editor-preview"} {
		if !strings.Contains(page, `id="`+id+`"`) {
			t.Errorf("no #%s", id)
		}
	}
	// A kept draft comes back.
	e := &LessonEditor{draft: testDraft}
	e.save()
	if readLessonDraft(m.Item(lessonDraftKey)) != testDraft {
		t.Fatalf("kept %q", m.Item(lessonDraftKey))
	}
	p2, d2 := mountAt(t, "")
	d2.Context().NewActionWithValue(lessonAction, lessonRequest{Kind: "edit"})
	d2.Consume()
	d2.Consume()
	if page := app.HTMLString(p2); !strings.Contains(page, testDraft.Goal) || !strings.Contains(page, testDraft.Check) {
		t.Error("the kept draft did not come back")
	}
	if readLessonDraft("not json") != (lessonDraft{}) {
		t.Error("storage that is not a draft reads as one")
	}
}

// Where storage refuses the draft, the editor says it lasts only while the
// page is open.
func TestLessonEditorSaysWhenTheDraftIsNotKept(t *testing.T) {
	m := useMemoryBrowser(t)
	m.SaveError = errors.New("the storage is full")
	e := &LessonEditor{draft: testDraft}
	e.save()
	if page := app.HTMLString(e); !strings.Contains(page, "Your draft lasts only while this page is open: the storage is full") ||
		len(tagsWith(page, "data-draft", "unsaved")) != 1 {
		t.Errorf("the editor does not say the draft is not kept:\n%s", page)
	}
}
