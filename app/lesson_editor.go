package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// LessonEditor is "Make a lesson from this scenario": a teacher writes a
// lesson in the page, its start filled from the scenario on the page, or
// opens a lesson file, and gets its link (#lesson=v1.…, package lesson's
// lesson links), the snippet to embed it and the file to save. The draft is
// a lesson file's text (docs/lessons.md, "Writing a lesson"), the one
// source of the editor's fields: each field edits one part of the file in
// place (lesson.Outline), so a file opened and saved unchanged comes back
// byte for byte. Preview reads the file, says in which field, line and
// column it is wrong, and shows it as the learner will see it, with
// whether the page's state now solves it. The draft is kept in the
// browser's storage at every keystroke, so a reload does not lose it.
type LessonEditor struct {
	app.Compo

	// Start is the scenario on the page, up to its position: what Use the
	// current scenario writes into the start.
	Start string
	// Session is the page's scenario, which the preview checks the goal
	// against.
	Session *scenario.Session
	Base    string // the page's URL without its fragment

	file string // the draft: a lesson file's text
	// shown is what each field was given when the file was last read
	// whole, and shownFile what the whole file's box was last given: a
	// field's value is written to the page only when the file is read
	// whole (syncFields), never from a keystroke's render, which may come
	// after the next keystroke and would take it back.
	shown     map[string]string
	shownFile string
	// extraWrong is set while an added wrong attempt's field is shown,
	// empty, before the file has its section.
	extraWrong bool
	loaded     bool
	keep       string         // why the draft will not outlive the page, "" when it will
	opened     string         // the file the draft was opened from, or why it could not be
	preview    *lessonPreview // the last preview, nil before the first
	stale      bool           // the draft changed since the preview
	checksOpen bool           // the list of every check is unfolded
	copyStatus
}

// lessonEditorID is the editor's element id, which the buttons that open
// it scroll to.
const lessonEditorID = "lesson-editor"

// lessonDraftKey is the storage key of the editor's draft.
const lessonDraftKey = "plog.lesson-draft"

// The ids of the editor's fields that its copy buttons select, and of its
// file picker.
const (
	lessonLinkField    = "lesson-editor-link"
	lessonSnippetField = "lesson-editor-snippet"
	lessonFileInput    = "lesson-editor-open-file"
	lessonFileField    = "lesson-editor-file"
)

// lessonFileName is the name a saved lesson file is offered under: its
// name: line's, else "lesson".
func lessonFileName(text string) string {
	o := lesson.ReadOutline(text)
	if p, ok := o.Find(lesson.PartHeader, "name", 0); ok {
		if name := o.Value(p); name != "" && !strings.ContainsAny(name, `/\:`) {
			return name + ".lesson"
		}
	}
	return "lesson.lesson"
}

// draftField is one of the editor's fields: a part of the lesson file.
type draftField struct {
	kind  lesson.PartKind
	name  string // the header key or the section's name; "text" for the explanation
	index int    // which wrong attempt
	label string
	rows  int // 0 for a one-line field
	hint  string
}

// key names the field: its data-field, the end of its id, and the words
// that place an error in it.
func (f draftField) key() string {
	if f.name == "wrong" {
		return fmt.Sprintf("wrong-%d", f.index+1)
	}
	return f.name
}

// part is the field's part name in the file ("" for the explanation).
func (f draftField) part() string {
	if f.kind == lesson.PartText {
		return ""
	}
	return f.name
}

// draftFields are the editor's fields in the order a lesson file has
// them, before its wrong attempts (wrongField).
var draftFields = []draftField{
	{kind: lesson.PartHeader, name: "title", label: "Title"},
	{kind: lesson.PartHeader, name: "goal", label: "Goal: one sentence that says what solves the lesson"},
	{kind: lesson.PartHeader, name: "name", label: "Name (optional): the lesson's short name in links, lower-case words joined by -"},
	{kind: lesson.PartHeader, name: "solved", label: "Solved (optional): what the learner reads once the goal holds"},
	{kind: lesson.PartHeader, name: "hide", label: "Hide until solved (optional): skew, to hide each topic's skew and hot partition"},
	{kind: lesson.PartText, name: "text", label: "Explanation", rows: 8,
		hint: "Markdown: paragraphs separated by blank lines, - lists, *emphasis*, **strong**, `code`, [links](https://…)."},
	{kind: lesson.PartSection, name: "start", label: "Start: the scenario the learner begins with", rows: 6},
	{kind: lesson.PartSection, name: "check", label: "Check: the goal in the check language, one check a line", rows: 4,
		hint: "For example: records-at-least orders 3, lag-at-most billing 0, or expect hw(orders/0) at-least 3. Every check is listed below."},
	{kind: lesson.PartSection, name: "hints", label: "Hints: one a line, the gentlest first", rows: 4,
		hint: "Each line is a hint; a line that begins with two spaces goes on the hint above."},
	{kind: lesson.PartSection, name: "solution", label: "Solution: lines that solve it after the start", rows: 3,
		hint: "plogsim lesson check needs one: it proves the goal can be reached."},
}

// wrongField is the field of a wrong attempt.
func wrongField(i int) draftField {
	return draftField{kind: lesson.PartSection, name: "wrong", index: i, rows: 3,
		label: fmt.Sprintf("Wrong attempt %d: plausible lines after the start that must not solve it", i+1)}
}

// fields are the draft's fields: the fixed ones, then one a wrong attempt.
func (e *LessonEditor) fields() []draftField {
	fields := slices.Clone(draftFields)
	n := lesson.ReadOutline(e.file).Count("wrong")
	if e.extraWrong {
		n++
	}
	for i := range n {
		fields = append(fields, wrongField(i))
	}
	return fields
}

// value is a field's part of the file.
func (e *LessonEditor) value(f draftField) string {
	o := lesson.ReadOutline(e.file)
	if p, ok := o.Find(f.kind, f.part(), f.index); ok {
		return o.Value(p)
	}
	return ""
}

// newLessonFile is a new draft's file: the sections a lesson needs, its
// start the page's scenario.
func newLessonFile(start string) string {
	return "title: \ngoal: \n\n\n## start\n" + trimBlock(start) + "\n## check\n\n## hints\n\n## solution\n"
}

// hintItems writes the hints field as the file's list: a line that is not
// already an item or indented becomes one.
func hintItems(text string) string {
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t") || strings.HasPrefix(t, "- ") || startsNumbered(t) {
			continue
		}
		lines[i] = "- " + t
	}
	return strings.Join(lines, "\n")
}

// startsNumbered reports whether a line begins as a numbered item, "1. ".
func startsNumbered(t string) bool {
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	return digits > 0 && strings.HasPrefix(t[digits:], ". ")
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

// lessonPreview is what Preview found: the lesson file's error, or the
// lesson, its link and the goal's status on the page's state.
type lessonPreview struct {
	err    string
	line   int    // the error's line and column in the file, 0 for none
	col    int    // (with line)
	field  string // the key of the field the error is in, "" for none
	lesson lesson.Lesson
	link   string // the lesson link, v1.…
	result lesson.Result
	// onStart says whether the page's scenario begins with the lesson's
	// start, so that result means something.
	onStart bool
	// trials and unfair are the lesson's own check (plogsim lesson
	// check): its start and wrong attempts must not solve it, its
	// solution must; every name its check refers to must be in the
	// solution, every value its sentences quote there when they show.
	trials []lesson.Trial
	unfair []error
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
	e.file = readLessonDraft(text)
	if e.file == "" {
		e.file = newLessonFile(e.Start)
	}
	e.readFields()
	e.shownFile = e.file
	e.loaded = true
}

// readFields gives each field its part of the file.
func (e *LessonEditor) readFields() {
	e.shown = map[string]string{}
	for _, f := range e.fields() {
		e.shown[f.key()] = e.value(f)
	}
}

// syncFields writes into the page's fields what readFields gave them, and
// the file into its box unless the teacher is typing there: a field whose
// given value did not change would keep what was typed in it otherwise.
func (e *LessonEditor) syncFields(fileBoxToo bool) func(app.Context) {
	return func(app.Context) {
		set := func(id, value string) {
			if el := app.Window().GetElementByID(id); el.Truthy() && el.Get("value").String() != value {
				el.Set("value", value)
			}
		}
		for _, f := range e.fields() {
			set("lesson-editor-"+f.key(), e.shown[f.key()])
		}
		if fileBoxToo {
			set(lessonFileField, e.shownFile)
		}
	}
}

// keptDraft is the draft as storage keeps it: the lesson file. Drafts kept
// before the editor opened files kept their fields instead (the rest of
// the struct), which a draft still reads as the file they made.
type keptDraft struct {
	File string `json:"file,omitempty"`

	Title    string `json:"title,omitempty"`
	Goal     string `json:"goal,omitempty"`
	Text     string `json:"text,omitempty"`
	Start    string `json:"start,omitempty"`
	Check    string `json:"check,omitempty"`
	Hints    string `json:"hints,omitempty"`
	Solution string `json:"solution,omitempty"`
}

// readLessonDraft reads a kept draft's lesson file; what is not one is no
// draft.
func readLessonDraft(text string) string {
	var d keptDraft
	if text == "" || json.Unmarshal([]byte(text), &d) != nil {
		return ""
	}
	if d.File != "" || d == (keptDraft{}) {
		return d.File
	}
	// A draft of fields: the file they made, as the editor wrote it then.
	oneLine := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	file := "title: " + oneLine(d.Title) + "\ngoal: " + oneLine(d.Goal) + "\n\n" + trimBlock(d.Text) +
		"\n## start\n" + trimBlock(d.Start) + "\n## check\n" + trimBlock(d.Check) + "\n## hints\n" + trimBlock(hintItems(d.Hints))
	if strings.TrimSpace(d.Solution) != "" {
		file += "\n## solution\n" + trimBlock(d.Solution)
	}
	return file
}

// save keeps the draft; when it cannot, the editor says so.
func (e *LessonEditor) save() {
	text, _ := json.Marshal(keptDraft{File: e.file}) // a struct of strings always marshals
	if err := currentBrowser().SaveItem(lessonDraftKey, string(text)); err != nil {
		e.keep = err.Error()
	}
}

// setFile makes text the draft, read whole: every field is given its
// part (syncFields writes them into the page).
func (e *LessonEditor) setFile(text string) {
	e.file = strings.ReplaceAll(text, "\r\n", "\n")
	e.extraWrong = false
	e.readFields()
	e.stale = e.preview != nil
	e.save()
}

// setField writes a field's text into its part of the file.
func (e *LessonEditor) setField(f draftField, value string) {
	if f.name == "hints" {
		value = hintItems(value)
	}
	o := lesson.ReadOutline(e.file)
	if f.name == "wrong" && f.index >= o.Count("wrong") && strings.TrimSpace(value) == "" {
		return // the added field stays empty, and the file without it
	}
	e.file = o.Set(f.kind, f.part(), f.index, value)
	e.shownFile = e.file
	if f.name == "wrong" && f.index >= o.Count("wrong") {
		e.extraWrong = false // the file has its section now
	}
	e.stale = e.preview != nil
	e.save()
}

// edit follows a field as the teacher types, and keeps the draft.
func (e *LessonEditor) edit(f draftField) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		if !e.loaded {
			return // the kept draft, read at once, would overwrite it
		}
		e.setField(f, ctx.JSSrc().Get("value").String())
	}
}

// editFile follows the whole file as the teacher types in it: the fields
// follow, the box keeps what is typed.
func (e *LessonEditor) editFile(ctx app.Context, ev app.Event) {
	if !e.loaded {
		return
	}
	e.setFile(ctx.JSSrc().Get("value").String())
	ctx.Defer(e.syncFields(false))
}

// useScenario writes the page's scenario into the start.
func (e *LessonEditor) useScenario(ctx app.Context, ev app.Event) {
	if !e.loaded {
		return
	}
	start := draftFields[slices.IndexFunc(draftFields, func(f draftField) bool { return f.name == "start" })]
	e.setField(start, e.Start)
	e.shown[start.key()] = e.value(start)
	ctx.Defer(e.syncFields(true))
}

// addWrong shows an empty field for one more wrong attempt (or the empty
// one already shown) and puts the caret in it: it comes below the others,
// where it may be out of sight. The button stays, so that the deferred
// focus, which runs only while its source is on the page, does run.
func (e *LessonEditor) addWrong(ctx app.Context, ev app.Event) {
	if !e.loaded {
		return
	}
	id := "lesson-editor-" + e.showAnotherWrong().key()
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus")
		}
	})
}

// showAnotherWrong shows the field of a wrong attempt after the file's,
// and returns it.
func (e *LessonEditor) showAnotherWrong() draftField {
	e.extraWrong = true
	return wrongField(lesson.ReadOutline(e.file).Count("wrong"))
}

// removeWrong takes a wrong attempt out of the file.
func (e *LessonEditor) removeWrong(i int) app.EventHandler {
	return func(ctx app.Context, ev app.Event) {
		if !e.loaded {
			return
		}
		e.dropWrong(i)
		ctx.Defer(e.syncFields(true))
	}
}

// dropWrong takes the i-th wrong attempt out of the file, or the empty
// field of one not in it yet.
func (e *LessonEditor) dropWrong(i int) {
	o := lesson.ReadOutline(e.file)
	if i >= o.Count("wrong") {
		e.extraWrong = false
		return
	}
	e.setFile(o.Set(lesson.PartSection, "wrong", i, ""))
	e.shownFile = e.file
}

// openFile reads a lesson file the teacher picked into the draft, off the
// UI goroutine: reading waits for the browser.
func (e *LessonEditor) openFile(ctx app.Context, ev app.Event) {
	if !e.loaded {
		return
	}
	b := currentBrowser()
	ctx.Async(func() {
		f, err := b.ReadPickedFile(lessonFileInput)
		ctx.Dispatch(func(ctx app.Context) {
			e.opened = e.takeFile(f, err)
			ctx.Defer(e.syncFields(true))
		})
	})
}

// takeFile makes a picked file the draft, and says what it did. A file
// that is no lesson file changes nothing.
func (e *LessonEditor) takeFile(f OpenedFile, err error) string {
	switch {
	case err != nil:
		return "The file could not be opened: " + err.Error()
	case !lesson.IsFile(f.Text):
		return f.Name + " is not a lesson file: a lesson file begins with its header, lines such as \"title: …\" (docs/lessons.md). Nothing changed."
	}
	e.setFile(f.Text)
	e.shownFile = e.file
	return "Opened " + f.Name + ". Preview reads it."
}

// saveFile offers the draft as a .lesson file.
func (e *LessonEditor) saveFile(ctx app.Context, ev app.Event) {
	if !e.loaded {
		return
	}
	name := lessonFileName(e.file)
	if err := currentBrowser().Download(name, e.file); err != nil {
		e.opened = "The file could not be saved: " + err.Error()
		return
	}
	e.opened = "Saved as " + name + ", in your browser's downloads."
}

// lessonPreviewID is the preview's element, which Preview brings into
// view: it comes below the fields.
const lessonPreviewID = "lesson-editor-preview-result"

// showPreview reads the draft's lesson file, checks it as plogsim lesson
// check does and its goal on the page's state, and shows the result.
func (e *LessonEditor) showPreview(ctx app.Context, ev app.Event) {
	if !e.loaded {
		return
	}
	e.preview, e.stale = previewOf(e.file, e.Session), false
	ctx.Defer(func(ctx app.Context) { ctx.ScrollTo(lessonPreviewID) })
}

// previewOf reads a draft's lesson file. A goal that panics is the
// engine's bug, said as one; the page lives on.
func previewOf(text string, s *scenario.Session) (p *lessonPreview) {
	p = &lessonPreview{}
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
			if f, n, ok := fieldAt(text, perr.Line); ok {
				p.field = f.key()
				p.err = fmt.Sprintf("%s, line %d: %s (line %d:%d of the lesson file)", labelOf(f), n, perr.Msg, perr.Line, perr.Col)
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
	p.result, p.onStart = l.Check(s), l.Begins(s)
	p.trials, p.unfair = l.Verify(), l.Fairness()
	return p
}

// fieldAt names the field a file line is in, and the line within it.
func fieldAt(text string, line int) (draftField, int, bool) {
	part, n, ok := lesson.ReadOutline(text).LineOf(line)
	if !ok {
		return draftField{}, 0, false
	}
	if part.Kind == lesson.PartSection && part.Name == "wrong" {
		return wrongField(part.Index), n, true
	}
	i := slices.IndexFunc(draftFields, func(f draftField) bool { return f.kind == part.Kind && f.part() == part.Name })
	if i < 0 {
		return draftField{}, 0, false
	}
	return draftFields[i], n, true
}

// labelOf is a field's name as the editor's errors say it.
func labelOf(f draftField) string {
	if f.name == "wrong" {
		return fmt.Sprintf("Wrong attempt %d", f.index+1)
	}
	return strings.ToUpper(f.name[:1]) + f.name[1:]
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
	fields := e.fields()
	wrongs := lesson.ReadOutline(e.file).Count("wrong")
	fixed, wrongFields := fields[:len(draftFields)], fields[len(draftFields):]
	return app.Section().ID(lessonEditorID).Class("panel", "lesson-editor").
		Attr("data-lesson-editor", "").DataSet("draft", kept).DataSet("loaded", e.loaded).
		Aria("labelledby", "lesson-editor-heading").Body(
		app.H2().ID("lesson-editor-heading").Text("Make a lesson"),
		app.P().Class("hint").Text("Write the lesson here, or open a lesson file; press Preview to see it as the learner will, then copy its link or save the file. "+
			"The draft is kept in this browser as you type."),
		app.If(e.keep != "",
			app.P().Class("hint").DataSet("draft-problem", true).Text("Your draft lasts only while this page is open: "+e.keep),
		),
		app.Div().Class("row lesson-editor-files").Body(
			field(lessonFileInput, "Open a .lesson file",
				app.Input().Type("file").ID(lessonFileInput).Accept(".lesson,.txt,text/plain").OnChange(e.openFile)),
			app.Button().Type("button").ID("lesson-editor-save").Class("secondary").OnClick(e.saveFile).
				Text("Save as "+lessonFileName(e.file)),
		),
		app.If(e.opened != "", app.P().Class("hint").Attr("role", "status").DataSet("lesson-file-status", true).Text(e.opened)),
		app.Div().Class("lesson-editor-columns").Body(
			app.Div().Class("lesson-editor-fields").Body(
				app.Range(fixed).Slice(func(i int) app.UI { return e.renderField(fixed[i]) }),
				// The wrong attempts in a box of their own keep the button
				// after them in its place as they come and go.
				app.Div().Class("lesson-editor-wrongs").Body(
					app.Range(wrongFields).Slice(func(i int) app.UI { return e.renderField(wrongFields[i]) }),
				),
				app.If(wrongs < lesson.MaxWrongAttempts,
					app.Div().Class("row").Body(
						app.Button().Type("button").ID("lesson-editor-add-wrong").Class("secondary").OnClick(e.addWrong).
							Text("Add a wrong attempt"),
					),
				),
				app.Details().Class("lesson-editor-file").Body(
					app.Summary().Text("The whole lesson file"),
					app.P().Class("hint").Text("The fields above are its parts; edit it here as well. Errors name its lines; plogsim lesson check checks it."),
					app.Textarea().ID(lessonFileField).Rows(14).Attr("spellcheck", false).
						Attr("value", e.shownFile).Text(e.shownFile).OnInput(e.editFile),
				),
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
	key := f.key()
	id := "lesson-editor-" + key
	value := e.shown[key] // what it was given: a keystroke's render must not write it
	var control app.UI
	if f.rows == 0 {
		control = app.Input().Type("text").ID(id).Value(value).DataSet("field", key).
			AutoComplete(false).OnInput(e.edit(f))
	} else {
		control = app.Textarea().ID(id).Rows(f.rows).Attr("value", value).Text(value).DataSet("field", key).
			Attr("spellcheck", f.name == "text" || f.name == "hints").OnInput(e.edit(f))
	}
	errText := ""
	if e.preview != nil && e.preview.field == key {
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
		app.If(f.name == "check", e.renderCheckList()),
		app.If(f.name == "wrong",
			app.Div().Class("row").Body(
				app.Button().Type("button").ID(id+"-remove").Class("secondary").OnClick(e.removeWrong(f.index)).
					Text(fmt.Sprintf("Remove wrong attempt %d", f.index+1)),
			),
		),
		app.If(errText != "",
			app.P().Class("field-error").Attr("role", "alert").DataSet("field-error", key).Text(errText),
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
		status := "The scenario on the page does not solve it yet: " + p.result.Progress
		switch {
		case !p.onStart:
			status = "The scenario on the page is not this lesson's start, so it is not checked against its goal: open the lesson's link to try it as a learner."
		case p.result.Solved:
			status = "The scenario on the page solves it: " + p.result.Progress
		}
		l := p.lesson
		body = append(body,
			// The check first: it is what Preview brings into view.
			renderLessonCheck(p.trials, p.unfair),
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
	state := "ok"
	if p.err != "" {
		state = "error"
	}
	return app.Div().ID(lessonPreviewID).Class("lesson-editor-preview").Attr("data-lesson-preview", "").DataSet("state", state).Body(body...)
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

// renderLessonCheck draws the lesson's own check: a line for each trial,
// then its fairness, each said as a teacher reads it.
func renderLessonCheck(trials []lesson.Trial, unfair []error) app.UI {
	var items []app.UI
	for _, t := range trials {
		ok, text := t.OK(), ""
		switch {
		case t.Err != nil && errors.Is(t.Err, lesson.ErrNoSolution):
			text = "No solution: add one, the lines that solve the lesson after its start, so that the check proves it can be solved."
		case t.Err != nil:
			text = fmt.Sprintf("The %s does not run: %v", t.Name, t.Err)
		case t.Want && t.Result.Solved:
			text = "The solution solves it."
		case t.Want:
			text = "The solution does not solve it: " + t.Result.Progress
		case t.Result.Solved:
			text = fmt.Sprintf("The %s solves it, which it must not: %s", t.Name, t.Result.Progress)
		default:
			text = fmt.Sprintf("The %s does not solve it, as it must not.", t.Name)
		}
		items = append(items, app.Li().DataSet("trial", t.Name).DataSet("ok", ok).Body(
			app.Span().Aria("hidden", true).Text(map[bool]string{true: "✓ ", false: "✗ "}[ok]),
			app.Text(text),
		))
	}
	if len(unfair) == 0 {
		items = append(items, app.Li().DataSet("trial", "fairness").DataSet("ok", true).Text("✓ Every name the check refers to is in the solution, and every value its sentences quote is there when they show."))
	}
	for _, err := range unfair {
		items = append(items, app.Li().DataSet("trial", "fairness").DataSet("ok", false).Text("✗ "+err.Error()))
	}
	return app.Div().Class("lesson-check").Attr("data-lesson-check", "").Body(
		app.H3().Text("The lesson's own check"),
		app.Ul().Body(items...),
	)
}

// renderCheckList is every check of the language and every function expect
// reads, folded; drawn only while unfolded, as it is long.
func (e *LessonEditor) renderCheckList() app.UI {
	var body []app.UI
	if e.checksOpen {
		var checks, funcs []app.UI
		for _, c := range lesson.Checks() {
			checks = append(checks, app.Dt().Body(app.Code().Text(c.Usage)), app.Dd().Text(c.Help))
		}
		for _, f := range lesson.Functions() {
			kind := "a word"
			if f.Number {
				kind = "a number"
			}
			funcs = append(funcs, app.Dt().Body(app.Code().Text(f.Usage)), app.Dd().Text(f.Help+" ("+kind+")"))
		}
		var fields []app.UI
		for _, f := range lesson.EventFields() {
			kind := "a word"
			if f.Number {
				kind = "a number"
			}
			fields = append(fields, app.Dt().Body(app.Code().Text(f.Name+"=")), app.Dd().Text(f.Help+" ("+kind+")"))
		}
		body = []app.UI{
			app.P().Class("hint").Text("A check is one line, or checks combined on it, as in (a or b) and not c: not turns a check over, and needs both to hold, or either, and parentheses group them. An indented else: line under it says what the learner reads when it does not hold, quoting the values its checks find, {value}, or a function's, {lag(billing)}."),
			app.Dl().Body(checks...),
			app.H4().Text("The functions expect compares"),
			app.Dl().Body(funcs...),
			app.H4().Text("The fields events and first-step match, as FIELD=VALUE"),
			app.Dl().Body(fields...),
		}
	}
	return app.Details().ID("lesson-editor-checks").Class("lesson-editor-checks").
		OnToggle(func(ctx app.Context, ev app.Event) { e.checksOpen = ctx.JSSrc().Get("open").Bool() }).
		Body(append([]app.UI{app.Summary().Text("Every check, and the functions expect compares")}, body...)...)
}
