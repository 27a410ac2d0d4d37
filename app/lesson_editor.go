package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// LessonEditor is "Make a lesson from this scenario": a teacher writes a
// lesson in the page, its start filled from the scenario on the page, and
// gets its link (#lesson=v1.…, package lesson's lesson links) and the
// snippet to embed it. The fields are the parts of a lesson file
// (docs/lessons.md, "Writing a lesson"); Preview reads the file they make,
// says at which line and column it is wrong, and shows it as the learner
// will see it, with whether the page's state now solves it. The draft is
// kept in the browser's storage at every keystroke, so a reload does not
// lose it.
type LessonEditor struct {
	app.Compo

	// Start is the scenario on the page, up to its position: what Use the
	// current scenario writes into the start.
	Start string
	// Session is the page's scenario, which the preview checks the goal
	// against.
	Session *scenario.Session
	Base    string // the page's URL without its fragment

	draft   lessonDraft
	loaded  bool
	keep    string         // why the draft will not outlive the page, "" when it will
	preview *lessonPreview // the last preview, nil before the first
	stale   bool           // the draft changed since the preview
	copyStatus
}

// lessonEditorID is the editor's element id, which the buttons that open
// it scroll to.
const lessonEditorID = "lesson-editor"

// lessonDraftKey is the storage key of the editor's draft.
const lessonDraftKey = "plog.lesson-draft"

// The ids of the editor's fields that its copy buttons select.
const (
	lessonLinkField    = "lesson-editor-link"
	lessonSnippetField = "lesson-editor-snippet"
)

// lessonDraft is what the teacher has written, field by field.
type lessonDraft struct {
	Title    string `json:"title"`
	Goal     string `json:"goal"`
	Text     string `json:"text"`
	Start    string `json:"start"`
	Check    string `json:"check"`
	Hints    string `json:"hints"`
	Solution string `json:"solution"`
}

// draftField is one of the editor's fields: its name (data-field, and
// the words that place an error in it) and where the draft keeps it.
type draftField struct {
	name, label string
	value       func(d *lessonDraft) *string
	rows        int // 0 for a one-line field
	hint        string
}

var draftFields = []draftField{
	{name: "title", label: "Title", value: func(d *lessonDraft) *string { return &d.Title }},
	{name: "goal", label: "Goal: one sentence that says what solves the lesson", value: func(d *lessonDraft) *string { return &d.Goal }},
	{name: "text", label: "Explanation", rows: 8, value: func(d *lessonDraft) *string { return &d.Text },
		hint: "Markdown: paragraphs separated by blank lines, - lists, *emphasis*, **strong**, `code`, [links](https://…)."},
	{name: "start", label: "Start: the scenario the learner begins with", rows: 6, value: func(d *lessonDraft) *string { return &d.Start }},
	{name: "check", label: "Check: the goal in the check language, one check a line", rows: 4, value: func(d *lessonDraft) *string { return &d.Check },
		hint: "For example: records-at-least orders 3, or lag-at-most billing 0. Every check is listed in plog's docs/lessons.md, \"Writing a lesson\"."},
	{name: "hints", label: "Hints: one a line, the gentlest first", rows: 4, value: func(d *lessonDraft) *string { return &d.Hints }},
	{name: "solution", label: "Solution (optional): lines that solve it after the start", rows: 3, value: func(d *lessonDraft) *string { return &d.Solution }},
}

// file writes the draft as a lesson file, and the file line where each
// field's text begins (0 for a field the file leaves out).
func (d lessonDraft) file() (string, map[string]int) {
	var b strings.Builder
	at := map[string]int{}
	line := 1
	write := func(field, text string) {
		if field != "" {
			at[field] = line
		}
		b.WriteString(text)
		line += strings.Count(text, "\n")
	}
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	write("title", "title: "+oneLine(d.Title)+"\n")
	write("goal", "goal: "+oneLine(d.Goal)+"\n")
	write("", "\n")
	write("text", trimBlock(d.Text))
	write("", "\n## start\n")
	write("start", trimBlock(d.Start))
	write("", "\n## check\n")
	write("check", trimBlock(d.Check))
	write("", "\n## hints\n")
	var hints []string
	for _, h := range strings.Split(d.Hints, "\n") {
		if h = strings.TrimSpace(h); h != "" {
			hints = append(hints, "- "+strings.TrimPrefix(h, "- "))
		}
	}
	write("hints", trimBlock(strings.Join(hints, "\n")))
	if strings.TrimSpace(d.Solution) != "" {
		write("", "\n## solution\n")
		write("solution", trimBlock(d.Solution))
	}
	return b.String(), at
}

// trimBlock is a field's text without blank lines at either end, ending in
// a newline.
func trimBlock(s string) string {
	s = strings.Trim(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s + "\n"
}

// fieldOf names the field a file line belongs to, and the line within it.
func fieldOf(at map[string]int, fileLine int) (string, int) {
	best, bestAt := "", 0
	for _, f := range draftFields {
		if n := at[f.name]; n > 0 && n <= fileLine && n > bestAt {
			best, bestAt = f.name, n
		}
	}
	return best, fileLine - bestAt + 1
}

// lessonPreview is what Preview found: the lesson file, and either its
// error or the lesson, its link and the goal's status on the page's state.
type lessonPreview struct {
	file   string
	err    string
	line   int    // the error's line and column in the file, 0 for none
	col    int    // (with line)
	field  string // the field the error is in, "" for none
	lesson lesson.Lesson
	link   string // the lesson link, v1.…
	result lesson.Result
}

// OnMount reads the kept draft; a first draft starts from the page's
// scenario. (Dispatch draws the editor again once it is read.)
func (e *LessonEditor) OnMount(ctx app.Context) {
	ctx.Dispatch(func(app.Context) { e.load() })
}

func (e *LessonEditor) load() {
	b := currentBrowser()
	text, err := b.LoadItem(lessonDraftKey)
	e.keep = b.StorageProblem()
	if err != nil {
		e.keep = err.Error()
	}
	e.draft = readLessonDraft(text)
	if e.draft == (lessonDraft{}) {
		e.draft.Start = e.Start
	}
	e.loaded = true
}

// readLessonDraft reads a kept draft; what is not one is no draft.
func readLessonDraft(text string) lessonDraft {
	var d lessonDraft
	if text == "" || json.Unmarshal([]byte(text), &d) != nil {
		return lessonDraft{}
	}
	return d
}

// save keeps the draft; when it cannot, the editor says so.
func (e *LessonEditor) save() {
	text, _ := json.Marshal(e.draft) // a struct of strings always marshals
	if err := currentBrowser().SaveItem(lessonDraftKey, string(text)); err != nil {
		e.keep = err.Error()
	}
}

// edit follows a field as the teacher types, and keeps the draft.
func (e *LessonEditor) edit(f draftField) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		*f.value(&e.draft) = ctx.JSSrc().Get("value").String()
		e.stale = e.preview != nil
		e.save()
	}
}

// useScenario writes the page's scenario into the start.
func (e *LessonEditor) useScenario(ctx app.Context, ev app.Event) {
	e.draft.Start = e.Start
	e.stale = e.preview != nil
	e.save()
}

// showPreview reads the draft's lesson file and checks its goal on the
// page's state.
func (e *LessonEditor) showPreview(ctx app.Context, ev app.Event) {
	e.preview, e.stale = previewOf(e.draft, e.Session), false
}

// previewOf reads a draft's lesson file. A goal that panics is the
// engine's bug, said as one; the page lives on.
func previewOf(d lessonDraft, s *scenario.Session) (p *lessonPreview) {
	text, at := d.file()
	p = &lessonPreview{file: text}
	defer func() {
		if r := recover(); r != nil {
			p.err = fmt.Sprintf("plog hit a bug while checking this lesson (please report it with the lesson): %v", r)
		}
	}()
	l, err := lesson.ParseText(text)
	if err != nil {
		p.err = err.Error()
		var perr *scenario.Error
		if errors.As(err, &perr) {
			p.line, p.col = perr.Line, perr.Col
			field, n := fieldOf(at, perr.Line)
			p.field = field
			if field != "" {
				p.err = fmt.Sprintf("%s, line %d: %s (line %d:%d of the lesson file)", labelOf(field), n, perr.Msg, perr.Line, perr.Col)
			}
		}
		return p
	}
	link, err := lesson.EncodeLink(text)
	if err != nil {
		p.err = err.Error()
		return p
	}
	p.lesson, p.link = l, link
	p.result = l.Check(s)
	return p
}

// labelOf is a field's name as the editor's errors say it.
func labelOf(field string) string {
	return strings.ToUpper(field[:1]) + field[1:]
}

func (e *LessonEditor) close(ctx app.Context, ev app.Event) {
	ctx.NewActionWithValue(lessonAction, lessonRequest{Kind: "close-editor"})
}

// Render draws the fields, the preview and the link.
func (e *LessonEditor) Render() app.UI {
	kept := "saved"
	if e.keep != "" {
		kept = "unsaved"
	}
	return app.Section().ID(lessonEditorID).Class("panel", "lesson-editor").
		Attr("data-lesson-editor", "").DataSet("draft", kept).DataSet("loaded", e.loaded).
		Aria("labelledby", "lesson-editor-heading").Body(
		app.H2().ID("lesson-editor-heading").Text("Make a lesson from this scenario"),
		app.P().Class("hint").Text("Write the lesson here, press Preview to see it as the learner will, then copy its link. "+
			"The draft is kept in this browser as you type."),
		app.If(e.keep != "",
			app.P().Class("hint").DataSet("draft-problem", true).Text("Your draft lasts only while this page is open: "+e.keep),
		),
		app.Div().Class("lesson-editor-columns").Body(
			app.Div().Class("lesson-editor-fields").Body(
				app.Range(draftFields).Slice(func(i int) app.UI { return e.renderField(draftFields[i]) }),
				app.Div().Class("row").Body(
					app.Button().Type("button").ID("lesson-editor-preview").OnClick(e.showPreview).Text("Preview"),
					app.Button().Type("button").ID("lesson-editor-close").OnClick(e.close).Text("Close"),
				),
			),
			e.renderPreview(),
		),
	)
}

// renderField draws one field, with the preview's error when it is in it.
func (e *LessonEditor) renderField(f draftField) app.UI {
	id := "lesson-editor-" + f.name
	value := *f.value(&e.draft)
	var control app.UI
	if f.rows == 0 {
		control = app.Input().Type("text").ID(id).Value(value).DataSet("field", f.name).
			AutoComplete(false).OnInput(e.edit(f))
	} else {
		control = app.Textarea().ID(id).Rows(f.rows).Attr("value", value).Text(value).DataSet("field", f.name).
			Attr("spellcheck", f.name == "text" || f.name == "hints").OnInput(e.edit(f))
	}
	errText := ""
	if e.preview != nil && e.preview.field == f.name {
		errText = e.preview.err
	}
	return app.Div().Class("field").Body(
		app.Label().For(id).Text(f.label),
		control,
		app.If(f.hint != "", app.P().Class("hint").Text(f.hint)),
		app.If(f.name == "start",
			app.Div().Class("row").Body(
				app.Button().Type("button").ID("lesson-editor-use-scenario").OnClick(e.useScenario).
					Text("Use the current scenario"),
			),
		),
		app.If(errText != "",
			app.P().Class("field-error").Attr("role", "alert").DataSet("field-error", f.name).Text(errText),
		),
	)
}

// renderPreview draws the last preview: the error, or the lesson as the
// learner sees it, the goal on the page's state, the link and the snippet.
func (e *LessonEditor) renderPreview() app.UI {
	p := e.preview
	if p == nil {
		return app.Div().Class("lesson-editor-preview").Attr("data-lesson-preview", "").DataSet("state", "none").Body(
			app.P().Class("hint").Text("Press Preview to read the lesson."),
		)
	}
	body := []app.UI{
		app.If(e.stale, app.P().Class("hint").DataSet("preview-stale", true).Text("Edited since this preview: press Preview again.")),
	}
	if p.err != "" {
		body = append(body,
			app.P().ID("lesson-editor-error").Class("alert").Attr("role", "alert").
				DataSet("line", p.line).DataSet("col", p.col).Text(p.err),
		)
	} else {
		url := pageURL(e.Base, "lesson="+p.link)
		snippet := iframeSnippet(pageURL(e.Base, "lesson="+p.link+"&embed=1"), "plog: "+p.lesson.Title)
		status := "The page's state does not solve it yet: " + p.result.Progress
		if p.result.Solved {
			status = "The page's state solves it: " + p.result.Progress
		}
		l := p.lesson
		body = append(body,
			&LessonPanel{Preview: true, Name: l.Name, Title: l.Title, Doc: l.Doc, Goal: l.GoalDoc,
				Hints: l.HintDocs, HintCount: len(l.HintDocs)},
			app.P().Class("lesson-editor-state").DataSet("solved", p.result.Solved).
				Attr("data-lesson-preview-state", "").Text(status),
			field(lessonLinkField, "Link to this lesson",
				app.Input().Type("text").ID(lessonLinkField).ReadOnly(true).Value(url)),
			app.Div().Class("row").Body(
				app.Button().Type("button").ID("lesson-editor-copy").OnClick(e.copy(lessonLinkField, url)).Text("Copy link"),
			),
			e.statusOf(lessonLinkField),
			field(lessonSnippetField, "HTML to embed it in a course page (an iframe)",
				app.Textarea().ID(lessonSnippetField).ReadOnly(true).Rows(4).Text(snippet)),
			app.Div().Class("row").Body(
				app.Button().Type("button").ID("lesson-editor-copy-snippet").OnClick(e.copy(lessonSnippetField, snippet)).Text("Copy snippet"),
			),
			e.statusOf(lessonSnippetField),
		)
	}
	body = append(body,
		app.Details().Class("lesson-editor-file").Body(
			app.Summary().Text("The lesson file"),
			app.P().Class("hint").Text("Errors name its lines. Save it as a .lesson file to check it with plogsim lesson check."),
			app.Textarea().ID("lesson-editor-file").ReadOnly(true).Rows(10).Text(p.file),
		),
	)
	state := "ok"
	if p.err != "" {
		state = "error"
	}
	return app.Div().Class("lesson-editor-preview").Attr("data-lesson-preview", "").DataSet("state", state).Body(body...)
}

// lessonEditor is the editor, while it is open.
func (p *Playground) lessonEditor() app.UI {
	if !p.lesson.editing {
		return nil
	}
	start := ""
	if p.session != nil {
		lines, _ := scenario.WithRulesLine(p.session.Lines()[:p.session.Position()], p.session.Rules())
		if p.session.Position() > 0 {
			start = strings.Join(lines, "\n") + "\n"
		}
	}
	return &LessonEditor{Start: start, Session: p.session, Base: p.share.base}
}

// LessonEditorButton opens the lesson editor (and scrolls to it). It names
// no aria-controls: the editor is not on the page until it opens.
type LessonEditorButton struct {
	app.Compo

	ID    string
	Label string
}

func (b *LessonEditorButton) open(ctx app.Context, e app.Event) {
	ctx.NewActionWithValue(lessonAction, lessonRequest{Kind: "edit"})
}

// Render draws the button.
func (b *LessonEditorButton) Render() app.UI {
	return app.Button().Type("button").ID(b.ID).Class("lesson-editor-open").OnClick(b.open).Text(b.Label)
}
