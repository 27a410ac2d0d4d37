package app

import (
	"fmt"
	"slices"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// lessonRun is the page's side of the lessons: the lesson the page is in,
// its goal's status after the last action, and what the learner has done in
// every lesson, kept between visits.
type lessonRun struct {
	current *lesson.Lesson // nil outside a lesson
	// ref is what lesson= holds: a built-in lesson's name, or the lesson
	// link (v1.…) of a lesson from a link.
	ref string
	// key is what the progress keeps the lesson under: its name, or for a
	// lesson from a link the key of its text (lessonProgress).
	key string
	// steps is how many steps the lesson's start holds: where its
	// timeline stands until the learner acts (lessonStartNote).
	steps    int
	result   lesson.Result // the goal's status after the last action
	progress lessonProgress
	loaded   bool   // progress has been read from the browser's storage
	problem  string // why progress will not outlive the page, "" when it will

	editing bool // the lesson editor is open (lesson_editor.go)
	// pointMissing says which control a hint pointed at is not on the
	// page now (hint_controls.go); "" when it was found.
	pointMissing    string
	pointMissingRef string
}

// lessonAction is the action by which the lesson panel reaches the root.
// Its value is a lessonRequest.
const lessonAction = "plog/lesson"

// lessonRequest is a gesture in the lesson panel.
type lessonRequest struct {
	Kind string // "hint": unlock the next hint; "edit" and "close-editor": open and close the lesson editor
}

// name is what lesson= holds for the open lesson (its name, or its lesson
// link), "" outside a lesson. The URL keeps it, and the embedding page
// hears it.
func (r *lessonRun) name() string {
	if r.current == nil {
		return ""
	}
	return r.ref
}

// title is the open lesson's title, "" outside a lesson.
func (r *lessonRun) title() string {
	if r.current == nil {
		return ""
	}
	return r.current.Title
}

// hides reports whether the open lesson hides a give-away now: it does
// until it is solved.
func (r *lessonRun) hides(g lesson.Giveaway) bool {
	return r.current != nil && !r.result.Solved && slices.Contains(r.current.Hides, g)
}

// fromLink reports whether the open lesson came in a lesson link.
func (r *lessonRun) fromLink() bool {
	return r.current != nil && lesson.IsLink(r.ref)
}

// load reads the kept progress, once: the page is its only writer.
func (r *lessonRun) load() {
	if r.loaded {
		return
	}
	r.loaded = true
	b := currentBrowser()
	text, err := b.LoadItem(lessonProgressKey)
	if err != nil {
		r.problem = err.Error()
	} else {
		r.problem = b.StorageProblem()
	}
	r.progress = readLessonProgress(text)
}

// save keeps the progress in the browser's storage. When it cannot, the
// progress still lasts as long as the page, and the lesson list says why it
// will not outlive it.
func (r *lessonRun) save() {
	if err := currentBrowser().SaveItem(lessonProgressKey, r.progress.String()); err != nil {
		r.problem = err.Error()
	}
}

// openLesson reads lesson=NAME or lesson=v1.… (a lesson link) from the
// fragment the page has just loaded. A fragment with no scenario starts the
// lesson: its starting scenario replaces the empty session. A fragment with
// a scenario is the learner's progress in the lesson, already loaded. An
// unknown name shows Find's error, a lesson link that cannot be read says
// why (at the lesson file's line and column when the file is wrong), and the
// page goes on without a lesson.
func (p *Playground) openLesson(fragment string) {
	p.lesson.load()
	p.lesson.current, p.lesson.result = nil, lesson.Result{}
	f, err := scenario.ParseFragment(fragment)
	if err != nil || f.Lesson == "" {
		return // loadLink says why a fragment cannot be read
	}
	l, key, err := findLesson(f.Lesson)
	if err != nil {
		p.addAlert(err.Error())
		return
	}
	if f.Link == "" {
		s, err := l.Start()
		if err != nil {
			p.addAlert(err.Error())
			return
		}
		p.session = s
	}
	steps := 0
	if cmds, err := scenario.Parse(l.Script); err == nil {
		steps = len(cmds)
	}
	p.lesson.current, p.lesson.ref, p.lesson.key, p.lesson.steps = &l, f.Lesson, key, steps
	p.checkLesson()
}

// findLesson returns the lesson lesson= names or carries, and the key its
// progress is kept under.
func findLesson(ref string) (lesson.Lesson, string, error) {
	if !lesson.IsLink(ref) {
		l, err := lesson.Find(ref)
		return l, l.Name, err
	}
	l, text, err := lesson.DecodeLink(ref)
	if err != nil {
		//lint:ignore ST1005 a sentence the page shows as it is
		return l, "", fmt.Errorf("This lesson link cannot be opened: %w", err)
	}
	return l, lesson.TextKey(text), nil
}

// addAlert adds a message to the page's alert, after any already there.
func (p *Playground) addAlert(msg string) {
	if p.err != "" {
		p.err += " "
	}
	p.err += msg
}

// checkLesson checks the open lesson's goal against the session, after
// every action, and keeps a newly solved lesson in the learner's progress.
// The moment the goal is reached, the embedding page hears of it too.
func (p *Playground) checkLesson() {
	l := p.lesson.current
	if l == nil || p.session == nil {
		return
	}
	was := p.lesson.result.Solved
	p.lesson.result = l.Check(p.session)
	// What a hint's control could not point at was true of the step
	// before: the member may have joined since.
	p.lesson.pointMissing, p.lesson.pointMissingRef = "", ""
	if !p.lesson.result.Solved {
		return
	}
	if p.lesson.progress.markSolved(p.lesson.key) {
		p.lesson.save()
	}
	if !was && p.ready {
		p.postSolved()
	}
}

// handleLesson answers the lesson panel's gestures.
func (p *Playground) handleLesson(ctx app.Context, a app.Action) {
	req, ok := a.Value.(lessonRequest)
	if !ok {
		return
	}
	l := p.lesson.current
	switch req.Kind {
	case "edit":
		p.lesson.editing = true
		ctx.Defer(func(ctx app.Context) { ctx.ScrollTo(lessonEditorID) })
	case "close-editor":
		p.lesson.editing = false
	case "hint":
		if l != nil && p.lesson.progress.showHint(p.lesson.key, len(l.Hints)) {
			p.lesson.save()
			// The hint just revealed points at the first control it names,
			// where it is: the learner is reading the hint.
			shown := p.lesson.progress.hintsShown(p.lesson.key, len(l.Hints))
			for _, in := range l.HintDocs[shown-1] {
				if in.Kind == lesson.InlineControl {
					p.handlePoint(ctx, app.Action{Value: pointRequest{Control: in.Control, Label: in.Text}})
					break
				}
			}
		}
	}
}

// lessonPanel is the open lesson's panel, or nothing outside a lesson.
func (p *Playground) lessonPanel() app.UI {
	l := p.lesson.current
	if l == nil {
		return nil
	}
	shown := p.lesson.progress.hintsShown(p.lesson.key, len(l.Hints))
	number := 0
	if !p.lesson.fromLink() {
		number = lessonNumber(l.Name)
	}
	return &LessonPanel{
		Name:         l.Name,
		Ref:          p.lesson.ref,
		Number:       number,
		Title:        l.Title,
		Doc:          l.Doc,
		Goal:         l.GoalDoc,
		Progress:     p.lesson.result.Progress,
		ProgressDoc:  p.lesson.result.ProgressDoc,
		Solved:       p.lesson.result.Solved,
		SolvedBefore: p.lesson.progress.isSolved(p.lesson.key),
		Hints:        l.HintDocs[:shown],
		HintCount:    len(l.HintDocs),
		Compact:      p.share.options.Embed,
		Questions:    p.lessonQuestions(*l),
		PointMissing: p.lesson.pointMissing, PointMissingRef: p.lesson.pointMissingRef,
	}
}

// lessonQuestions are the open lesson's questions with the learner's
// answers at the timeline's position.
func (p *Playground) lessonQuestions(l lesson.Lesson) *LessonQuestions {
	qs := l.Questions()
	if len(qs) == 0 || p.session == nil {
		return nil
	}
	answers := map[string]string{}
	for _, q := range qs {
		if a, ok := p.session.Answer(q.Name); ok {
			answers[q.Name] = a
		}
	}
	return &LessonQuestions{Questions: qs, Answers: answers}
}

// lessonList is the list of every lesson, except in an embedded page: the
// course around it chose the lesson.
func (p *Playground) lessonList() app.UI {
	if p.share.options.Embed {
		return nil
	}
	return &LessonList{Current: p.lesson.name(), Solved: p.lesson.progress.builtinSolved(), StorageProblem: p.lesson.problem}
}

// lessonListButton is the masthead's way to the lesson list, where there
// is a list.
func (p *Playground) lessonListButton() app.UI {
	if p.share.options.Embed {
		return nil
	}
	return &LessonListButton{}
}

// lessonNumber is a lesson's place in teaching order, from 1; 0 for none.
func lessonNumber(name string) int {
	for i, n := range lesson.Names() {
		if n == name {
			return i + 1
		}
	}
	return 0
}
