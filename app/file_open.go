package app

import (
	"fmt"
	"strings"

	"plog/core/lesson"
	"plog/core/scenario"
	"plog/picture"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A scenario too long for a link travels as a .plog file: the script as
// plogsim reads it (plogsim run FILE), with comments saying what it is. The
// page writes one from the share dialog and opens one picked in the
// Scenarios menu or dropped on the page.

// plogFileName is the name a downloaded scenario is offered under.
const plogFileName = "scenario.plog"

// plogFile writes a history as a .plog file. The whole history goes in;
// when the learner had gone back, a comment says which step they were at.
func plogFile(lines []string, position, rules int) string {
	var b strings.Builder
	b.WriteString("# A plog scenario. Open it in the playground (Scenarios, Open a .plog file,\n")
	b.WriteString("# or drop it on the page), or run it: plogsim run FILE\n")
	if position < len(lines) {
		fmt.Fprintf(&b, "# The playground was at step %d of %d: plogsim run --at %d FILE shows that state.\n", position, len(lines), position)
	}
	// The file says which rules the scenario runs under, as a link does
	// (the rules line is no step: the position does not count it).
	withRules, _ := scenario.WithRulesLine(lines, rules)
	for _, l := range withRules {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// handleFile opens a file the learner picked.
func (p *Playground) handleFile(ctx app.Context, a app.Action) {
	if f, ok := a.Value.(fileOpened); ok {
		p.openFile(ctx, f.File, f.Err)
	}
}

// openFile replaces the scenario with the one in a file, as a fresh
// workspace. A file that fails part way keeps the commands before the
// failing line, as a link does; one that cannot be read changes nothing.
func (p *Playground) openFile(ctx app.Context, f OpenedFile, readErr error) {
	if p.session == nil {
		return
	}
	if p.share.options.ReadOnly {
		p.err = readOnlyRefusal
		return
	}
	if readErr != nil {
		p.err = "The file could not be opened: " + readErr.Error()
		return
	}
	name := f.Name
	if name == "" {
		name = "The file"
	}
	if strings.HasSuffix(f.Name, ".lesson") || lesson.IsFile(f.Text) {
		p.openLessonFile(ctx, name, f.Text)
		return
	}
	if len(f.Text) > scenario.MaxScriptBytes {
		p.err = fmt.Sprintf("%s is %d bytes; a scenario holds at most %d.", name, len(f.Text), scenario.MaxScriptBytes)
		return
	}
	p.playing = false
	p.views, p.looks, p.landing, p.removal = nil, picture.LookMemory{}, Landing{}, Removal{}
	p.links++ // the tools' forms start afresh, the open panel closes (fresh_form.go)
	p.closeInspector()
	p.share.notice = ""
	p.leaveWorkspace() // autosave.go
	p.newWorkspace(ctx)
	p.err = ""
	func() {
		defer func() {
			// The engine promises never to panic; a panic in wasm would kill the page.
			if r := recover(); r != nil {
				p.session = scenario.NewYieldingSession()
				p.err = fmt.Sprintf("plog hit a bug while opening %s (please report it with the file): %v", name, r)
			}
		}()
		session, err := scenario.LoadYielding(f.Text) // the page keeps answering while a big file replays
		if session == nil {
			session = scenario.NewYieldingSession()
		}
		p.session = session
		if err != nil {
			p.err = fmt.Sprintf("%s stopped early: %v", name, err)
		}
	}()
	msg := p.err
	p.refresh()
	if msg != "" {
		p.err = msg
	}
	p.writeURL(ctx)
}

// openLessonFile opens a teacher's lesson file, picked or dropped, as its
// link (#lesson=v1.…) opens it, in a workspace of its own. A file the
// lesson format refuses changes nothing, and the page says where it went
// wrong, at its line and column, as plogsim lesson check does.
func (p *Playground) openLessonFile(ctx app.Context, name, text string) {
	if len(text) > lesson.MaxFileBytes {
		p.err = fmt.Sprintf("%s is %d bytes; a lesson file holds at most %d.", name, len(text), lesson.MaxFileBytes)
		return
	}
	if _, err := lesson.ParseText(text); err != nil {
		p.err = fmt.Sprintf("%s is not a lesson the page can open: %v", name, err)
		return
	}
	link, err := lesson.EncodeLink(text)
	if err != nil {
		p.err = fmt.Sprintf("%s is not a lesson the page can open: %v", name, err)
		return
	}
	p.playing = false
	p.share.notice = ""
	p.err = ""
	p.leaveWorkspace() // autosave.go
	p.newWorkspace(ctx)
	p.applyLink("lesson=" + link)
	p.writeURL(ctx)
}

// readOnlyRefusal is what a read-only page says to an edit.
const readOnlyRefusal = "This playground is read-only: step through it and play it, or open it in the full playground to change it."
