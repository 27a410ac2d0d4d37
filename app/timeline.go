package app

import (
	"fmt"
	"html"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Timeline shows the scenario's script as it would read in a link, one
// command a line. Each line takes the page back (or forward) to the state
// after it; undo, redo and the slider move through the same history; play
// lets the clock run so workloads act.
type Timeline struct {
	app.Compo

	Lines     []string // the whole history, including steps ahead after going back
	Position  int      // how many lines are applied
	Discarded []string // the branch: lines a command at an earlier step replaced, offered back
	// DiscardedAt is the step the branch followed.
	DiscardedAt int
	Playing     bool
	// Presenting says the presenter's view hides the timeline: its box
	// cannot scroll to the current line then, and does when it shows
	// again.
	Presenting bool
	Speed      int // virtual seconds per tick while playing
	// stepsShown unfolds the steps and the command line on a phone,
	// where they fold away by default.
	stepsShown bool
	height     heightFollower // the page's --timeline-height
	// Rules is the version of the engine's rules the scenario runs under
	// (core/rules.go); the timeline says so when it is not the latest.
	Rules int
	// RulesFrom is the rules the learner left for the latest, offered
	// back; 0 when they did not.
	RulesFrom int
	// Session is what the command line completes from (command_line.go);
	// nil on a read-only page, which shows none.
	Session *scenario.Session
	// Example is the command line's example, a line that runs on this
	// step (LogSnapshot.commandExample).
	Example string

	shown scriptPlace // where the script's box was last scrolled to
	// refocus is the step of the line that had the focus when it was
	// clicked: the line is drawn anew as it becomes current, and the
	// focus goes back to it rather than to the page's start.
	refocus int
}

// timelineControl names the timeline's errors.
const timelineControl = "timeline"

// timelineShown bounds the lines drawn around the position: a script may
// hold 20,000 commands. The first line drawn moves in strides of
// timelineStride, so that a new command adds one line to the list instead of
// shifting every line drawn (which would rewrite each of them in the page);
// the position stays between half the lines and three quarters of them
// down the list.
const (
	timelineShown  = 100
	timelineStride = timelineShown / 4
)

// speeds are the virtual seconds the clock moves per real second of play.
var speeds = []int{1, 5, 10, 60}

func move(kind string, step int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		ctx.NewActionWithValue(historyAction, historyMove{Control: timelineControl, Kind: kind, Step: step})
	}
}

func (t *Timeline) scrub(ctx app.Context, e app.Event) {
	step, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	if err != nil {
		return
	}
	ctx.NewActionWithValue(historyAction, historyMove{Control: timelineControl, Kind: "seek", Step: step})
}

func (t *Timeline) play(playing bool) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		ctx.NewActionWithValue(playAction, playRequest{Start: playing, Stop: !playing})
	}
}

func (t *Timeline) setSpeed(ctx app.Context, e app.Event) {
	speed, err := strconv.Atoi(ctx.JSSrc().Get("value").String())
	if err != nil || speed < 1 {
		return
	}
	ctx.NewActionWithValue(playAction, playRequest{Speed: speed})
}

// OnMount and OnUpdate keep the current line in sight in the script's box,
// without scrolling the page itself, and the slider's thumb on the
// position.
func (t *Timeline) OnMount(ctx app.Context) {
	ctx.Defer(t.afterRender)
	// On a phone the timeline is docked at the bottom of the screen: the
	// lesson's sheet sits on it (web/static/lessons.css).
	t.height = followHeight(ctx.JSSrc(), "--timeline-height")
}
func (t *Timeline) OnUpdate(ctx app.Context) { ctx.Defer(t.afterRender) }

// OnDismount stops following the timeline's height.
func (t *Timeline) OnDismount() { t.height.stop() }

func (t *Timeline) afterRender(ctx app.Context) {
	syncSlider(len(t.Lines), t.Position)
	if t.refocus != 0 {
		refocusLine(t.refocus)
		t.refocus = 0
	}
	// The current line moves only with the position or the lines: the
	// timeline also draws again when play starts or a notice changes.
	if shown := (scriptPlace{t.Position, len(t.Lines), t.Presenting}); shown != t.shown {
		t.shown = shown
		showCurrentLineNextFrame()
	}
}

// refocusLine gives the focus back to the script's line of a step, when
// the focus was lost with the line it was on.
func refocusLine(step int) {
	doc := app.Window().Get("document")
	if active := doc.Get("activeElement"); active.Truthy() && !active.Equal(doc.Get("body")) {
		return
	}
	line := doc.Call("querySelector", `#timeline-script button.script-line[data-step="`+strconv.Itoa(step)+`"]`)
	if line.Truthy() {
		line.Call("focus", map[string]any{"preventScroll": true})
	}
}

// scriptPlace is what places the current line in the script's box: the
// position and the lines' count, and whether the box is hidden by the
// presenter's view (where it cannot scroll). The box's scroll follows it.
type scriptPlace struct {
	position, length int
	presenting       bool
}

// scrollToCurrentLine is showCurrentLine as the browser's callback, made
// once: the page keeps it for every frame that asks for it.
var scrollToCurrentLine app.Func

// showCurrentLineNextFrame scrolls the script's box to its current line
// at the start of the next frame. Reading where the line is makes the
// browser lay the page out: done in the render, the layout would run
// there, before the frame, and again in the frame for what the render
// changed after it; in the frame's own callback it runs once, the one the
// frame needs anyway.
func showCurrentLineNextFrame() {
	if scrollToCurrentLine == nil {
		scrollToCurrentLine = app.FuncOf(func(app.Value, []app.Value) any {
			showCurrentLine()
			return nil
		})
	}
	app.Window().Call("requestAnimationFrame", scrollToCurrentLine)
}

// syncSlider sets the slider's range, then its value. go-app writes an
// element's attributes in no fixed order, and a browser clamps a range's
// value to its max at once: a value written before the max that makes
// room for it would leave the thumb behind its label (at 0 for a link
// just opened, one step back after a command).
func syncSlider(length, position int) {
	slider := app.Window().GetElementByID("timeline-slider")
	if slider == nil || !slider.Truthy() {
		return
	}
	// Only what differs is written: a write is a change to the page even
	// when the value is the same.
	if slider.Get("max").String() != strconv.Itoa(length) {
		slider.Set("max", length)
	}
	if slider.Get("value").String() != strconv.Itoa(position) {
		slider.Set("value", strconv.Itoa(position))
	}
}

// showCurrentLine scrolls the script's box to put its current line in the
// middle.
func showCurrentLine() {
	list := app.Window().GetElementByID("timeline-script")
	current := app.Window().GetElementByID("timeline-current")
	if list == nil || current == nil || !list.Truthy() || !current.Truthy() {
		return
	}
	// Centred, so that the line after it (the next step, or the first
	// line ahead, which says it is not applied) shows too. Measured from
	// the boxes: the list is not the line's offsetParent, so offsetTop
	// counted from the timeline and left the line at the box's foot.
	line, box := current.Call("getBoundingClientRect"), list.Call("getBoundingClientRect")
	top := line.Get("top").Float() - box.Get("top").Float() + list.Get("scrollTop").Float()
	list.Set("scrollTop", top-(list.Get("clientHeight").Float()-line.Get("height").Float())/2)
}

// Render draws the controls and the lines around the position.
func (t *Timeline) Render() app.UI {
	from := max(0, t.Position-timelineShown/2) / timelineStride * timelineStride
	to := min(len(t.Lines), from+timelineShown)
	shown := t.Lines[from:to]
	class := []string{"panel", "timeline"}
	if !t.stepsShown {
		class = append(class, "steps-folded")
	}
	return app.Section().Class(class...).Attr("data-timeline", "").Aria("label", "timeline").
		DataSet("position", t.Position).DataSet("length", len(t.Lines)).Body(
		app.H2().Text("Timeline"),
		// On a phone the timeline docked at the bottom holds its buttons
		// and its slider; its steps and the command line fold away under
		// this button, so that the picture and the lesson keep the screen
		// (web/static/plog.css draws it on a narrow screen only).
		app.Button().Type("button").ID("timeline-steps").Class("quiet", "timeline-steps-toggle").
			Aria("expanded", t.stepsShown).Aria("controls", "timeline-script").
			OnClick(func(ctx app.Context, e app.Event) { t.stepsShown = !t.stepsShown }).
			Text(map[bool]string{false: "Steps ▸", true: "Steps ▾"}[t.stepsShown]),
		app.Div().Class("row", "timeline-controls").Body(
			app.Button().Type("button").ID("undo").Class(roleSecondary.classes()...).Disabled(t.Position == 0).OnClick(move("undo", 0)).Title("shortcut: u").Text("↶ Undo"),
			app.Button().Type("button").ID("redo").Class(roleSecondary.classes()...).Disabled(t.Position >= len(t.Lines)).OnClick(move("redo", 0)).Title("shortcut: r").Text("Redo ↷"),
			app.If(t.Playing,
				app.Button().Type("button").ID("pause").OnClick(t.play(false)).Aria("pressed", "true").Text(pauseText),
			).Else(
				app.Button().Type("button").ID("play").OnClick(t.play(true)).Aria("pressed", "false").Text(playText),
			),
			field("play-speed", "Speed", app.Select().ID("play-speed").OnChange(t.setSpeed).Body(
				app.Range(speeds).Slice(func(i int) app.UI {
					s := speeds[i]
					return app.Option().Value(strconv.Itoa(s)).Selected(s == t.Speed).Text(fmt.Sprintf("%d s per second", s))
				}),
			)),
		),
		field("timeline-slider", fmt.Sprintf("Step %d of %d", t.Position, len(t.Lines)),
			app.Input().Type("range").ID("timeline-slider").Min(0).Max(len(t.Lines)).Step(1).
				Value(strconv.Itoa(t.Position)).OnChange(t.scrub),
		),
		&ControlError{Control: timelineControl},
		commandLineOf(t.Session, t.Position, t.Example),
		t.rulesNotice(),
		t.branchNotice(),
		app.If(from > 0, app.P().Class("lines-hidden").Text(fmt.Sprintf("%d earlier lines", from))),
		app.Ol().ID("timeline-script").Class("script").Attr("start", from+1).OnClick(t.seekToLine).Body(
			app.Range(shown).Slice(func(i int) app.UI {
				step := from + i + 1
				return &ScriptLine{Step: step, Line: shown[i], Current: step == t.Position, Ahead: step > t.Position, Next: step == t.Position+1}
			}),
		),
		app.If(to < len(t.Lines), app.P().Class("lines-hidden").Text(fmt.Sprintf("%d later lines", len(t.Lines)-to))),
		app.If(len(t.Lines) == 0, app.P().Class("hint").Text("Each thing you do becomes a line here, as in a shared link.")),
	)
}

// ScriptLine is one line of the timeline's script, which takes the page to
// the step after it. It is a component of its own so that a command draws
// again only the lines it changes (the one it adds, and the one that was
// current): go-app leaves a component whose fields are the same as they
// were, and the timeline draws up to 100 lines.
type ScriptLine struct {
	app.Compo

	Step    int
	Line    string
	Current bool // the page shows the state after it
	Ahead   bool // after the position: undone, or gone back from
	// Next is the first line ahead: it says what the lines ahead are, which
	// a walk found read as struck out, deleted.
	Next bool
}

// Render draws the line: a button that moves the history to its step
// (seekToLine, the list's one handler). It is one piece of HTML with no
// handler of its own: a seek across the history draws half the lines
// anew, and the browser parses each in one call rather than go-app making
// its elements, attributes and listener one call at a time.
func (l *ScriptLine) Render() app.UI {
	step := strconv.Itoa(l.Step)
	var li rawAttrs
	li.add("data-step", step)
	switch {
	case l.Current:
		li.add("id", "timeline-current")
		li.add("class", "current")
		li.add("aria-current", "step")
	case l.Next:
		li.add("class", "ahead next-ahead")
	case l.Ahead:
		li.add("class", "ahead")
	}
	label := "go to step " + step + ": " + l.Line
	if l.Ahead {
		label = "step " + step + ", not applied (Redo replays it): " + l.Line
	}
	var button rawAttrs
	button.add("type", "button")
	button.add("class", "script-line")
	button.add("data-step", step)
	button.add("aria-label", label)
	var b strings.Builder
	b.Grow(96 + 2*len(label) + len(l.Line))
	b.WriteString("<li")
	b.WriteString(li.String())
	b.WriteString("><button")
	b.WriteString(button.String())
	b.WriteString(">")
	b.WriteString(html.EscapeString(l.Line))
	b.WriteString("</button></li>")
	return app.Raw(b.String())
}

// seekToLine moves the history to the step of the script's line clicked
// (ScriptLine), from the list that holds the lines.
func (t *Timeline) seekToLine(ctx app.Context, e app.Event) {
	target := e.Get("target")
	if !target.Truthy() || target.Get("closest").IsUndefined() {
		return
	}
	button := target.Call("closest", "button.script-line")
	if !button.Truthy() {
		return
	}
	step, err := strconv.Atoi(button.Get("dataset").Get("step").String())
	if err != nil {
		return
	}
	if button.Equal(app.Window().Get("document").Get("activeElement")) {
		t.refocus = step
	}
	ctx.NewActionWithValue(historyAction, historyMove{Control: timelineControl, Kind: "seek", Step: step})
}

// rulesNotice says which rules a scenario made under older ones replays
// under, and offers the latest (its rules line rewritten, the whole
// history replayed under them); once the learner took them, it offers the
// old rules back. nil under the latest rules otherwise.
func (t *Timeline) rulesNotice() app.UI {
	if t.RulesFrom != 0 && t.Rules > t.RulesFrom {
		return app.P().Class("rules-notice").Attr("role", "status").DataSet("rules", t.Rules).Body(
			app.Text(fmt.Sprintf("Now under plog's rules %d, replayed from the start. They bring: %s. ", t.Rules, core.RulesBrought(t.RulesFrom, t.Rules))),
			app.Button().Type("button").ID("use-earlier-rules").DataSet("command", scenario.CmdRules).OnClick(move("rules", t.RulesFrom)).
				Text(fmt.Sprintf("Back to rules %d", t.RulesFrom)),
		)
	}
	if t.Rules == 0 || t.Rules >= core.LatestRules {
		return nil
	}
	return app.P().Class("rules-notice").Attr("role", "status").DataSet("rules", t.Rules).Body(
		app.Text(fmt.Sprintf("Made under plog's rules %d: this link replays as it was made. The latest rules, %d, bring: %s. ", t.Rules, core.LatestRules, core.RulesBrought(t.Rules, core.LatestRules))),
		app.Button().Type("button").ID("use-latest-rules").DataSet("command", scenario.CmdRules).OnClick(move("rules", core.LatestRules)).
			Title(fmt.Sprintf("%s %d", scenario.CmdRules, core.LatestRules)).
			Text("Use the latest rules"),
	)
}

// branchNotice offers back the steps a command at an earlier step
// replaced; nil when there are none.
func (t *Timeline) branchNotice() app.UI {
	if len(t.Discarded) == 0 {
		return nil
	}
	return app.P().Class("discarded").Attr("role", "status").
		DataSet("branch-at", t.DiscardedAt).DataSet("branch-length", len(t.Discarded)).Body(
		app.Text(fmt.Sprintf("Kept aside: %s that followed step %d before the steps there now replaced them (the first was %s). ",
			countOf(len(t.Discarded), "step"), t.DiscardedAt, t.Discarded[0])),
		app.Button().Type("button").ID("restore").OnClick(move("restore", 0)).
			Title("the steps there now are kept aside in their place").Text("Bring them back"),
	)
}

// playText and pauseText label the buttons that play and pause, here, in
// an embed's bar and in the presenter's: ❚❚ rather than ⏸, which many
// fonts lack (a box on a Debian machine, a new learner's walk found).
const (
	playText  = "▶ Play"
	pauseText = "❚❚ Pause"
)

// workspaceID is the id of the page's controls and stage, above the
// timeline.
const workspaceID = "workspace"

// holdWorkspaceHeight keeps the workspace at least as tall as it is now,
// before a move in the history. Going back removes topics, lanes and
// groups above the timeline; the page would shrink under the learner's
// pointer, the browser would clamp its scroll, and the slider or line just
// used would jump out of sight. Held, the timeline stays where it is on the
// screen. A new command or another scenario lets the workspace shrink again
// (releaseWorkspaceHeight).
func holdWorkspaceHeight() {
	w := app.Window().GetElementByID(workspaceID)
	if w == nil || !w.Truthy() {
		return
	}
	style := w.Get("style")
	style.Call("setProperty", "min-height", strconv.Itoa(w.Get("offsetHeight").Int())+"px")
	// Nor may the browser's scroll anchoring follow a lane or a group that
	// moves up inside it: that scrolls the page as much as a shrink would.
	style.Call("setProperty", "overflow-anchor", "none")
}

// releaseWorkspaceHeight lets the workspace take its own height again.
func releaseWorkspaceHeight() {
	w := app.Window().GetElementByID(workspaceID)
	if w == nil || !w.Truthy() {
		return
	}
	style := w.Get("style")
	style.Call("removeProperty", "min-height")
	style.Call("removeProperty", "overflow-anchor")
}
