package app

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// CommandLine takes any line of the scenario language, as a terminal does:
// Enter runs it as the page's controls run theirs (one step of the
// timeline, undoable; a refused line is said beside it, with the language's
// own message, and stays in the box to fix), Tab completes commands,
// arguments, configs and the session's names (scenario.Complete), and the
// arrow keys walk the lines entered before.
type CommandLine struct {
	app.Compo

	// Session is what completion reads the names from; it is only read.
	Session *scenario.Session
	// Position is the timeline's: it moves when a line is applied, which
	// is how the box knows to empty itself.
	Position int
	// Example is the box's placeholder: a line that runs on this step.
	Example string

	text    string // what the box holds
	cursor  int    // where the caret is, in bytes of text
	pending string // the line sent, until it applies or is refused
	sentAt  int    // the Position when it was sent

	history []string // the lines entered, oldest first, for this page (commandHistoryState)
	walking int      // the history line shown while walking it; len(history) when none
	draft   string   // what the box held before the walk began

	completion scenario.Completion
	open       bool // the list of candidates is shown
	active     int  // the highlighted candidate; -1 for none

	alert ControlAlert
}

// commandHistoryState is the go-app state holding the lines entered, so
// that they outlive the command line drawn (a read-only page has none).
const commandHistoryState = "plog/command-history"

// commandLineControl names the command line's errors.
const commandLineControl = "command-line"

// The command line's ids.
const (
	commandLineInput = "command-line"
	completionList   = "command-line-completions"
)

// completionsShown bounds the candidates listed (a scenario may have a
// thousand topics); the rest are counted, and typing narrows them.
const completionsShown = 50

// commandLineSession is the session the command line completes from, or
// nil where the page shows none: a read-only page takes no commands.
func (p *Playground) commandLineSession() *scenario.Session {
	if p.share.options.ReadOnly {
		return nil
	}
	return p.session
}

// commandLineOf is the command line of a timeline, or nil when it has none.
// go-app matches a parent's children by their place: the command line must
// come before any child that is drawn only sometimes (a notice, a count of
// hidden lines), or one appearing would put a new command line in its
// place, and the learner's box would lose the focus.
func commandLineOf(session *scenario.Session, position int, example string) app.UI {
	if session == nil {
		return nil
	}
	return &CommandLine{Session: session, Position: position, Example: example}
}

// OnMount follows the errors: a refused line is no longer pending.
func (c *CommandLine) OnMount(ctx app.Context) {
	ctx.GetState(commandHistoryState, &c.history)
	c.walking, c.active = len(c.history), -1
	ctx.ObserveState(controlAlertState).OnChange(func() {
		if c.alert.Control == commandLineControl && c.alert.Message != "" {
			c.pending = ""
		}
	}).Value(&c.alert)
}

// OnUpdate empties the box once the line it sent is applied: the position
// moved on from where it was sent (a refused line leaves it).
func (c *CommandLine) OnUpdate(ctx app.Context) {
	if c.pending == "" || c.Position == c.sentAt {
		return
	}
	// Keys typed since the line was sent are the learner's next line.
	if in := commandLineBox(); in != nil {
		c.text = in.Get("value").String()
	}
	if c.pending == c.text {
		c.text, c.cursor = "", 0
		c.syncInput()
	}
	c.pending = ""
}

// onKeyDown reads the keys the command line acts on; the others type.
func (c *CommandLine) onKeyDown(ctx app.Context, e app.Event) {
	key := e.Get("key").String()
	input := ctx.JSSrc()
	c.text = input.Get("value").String()
	c.cursor = byteOffset(c.text, input.Get("selectionStart").Int())
	if c.key(ctx, key, e.Get("shiftKey").Bool()) {
		e.PreventDefault()
	}
}

// key acts on one key and reports whether it used it. Tab on an empty box
// and Shift+Tab outside the list move the focus, as everywhere.
func (c *CommandLine) key(ctx app.Context, key string, shift bool) bool {
	n := min(len(c.completion.Candidates), completionsShown)
	switch {
	case key == "Tab" && c.open && n == 1:
		c.pick(ctx, 0)
	case key == "Tab" && c.open && n > 0:
		c.highlight(ctx, map[bool]int{false: 1, true: -1}[shift])
	case key == "Tab" && !shift && strings.TrimSpace(c.text) != "":
		c.complete(ctx)
	case (key == "ArrowDown" || key == "ArrowUp") && c.open && n > 0:
		c.highlight(ctx, map[string]int{"ArrowDown": 1, "ArrowUp": -1}[key])
	case key == "ArrowUp" || key == "ArrowDown":
		c.walk(ctx, map[string]int{"ArrowDown": 1, "ArrowUp": -1}[key])
	case key == "Enter" && c.open && c.active >= 0:
		c.pick(ctx, c.active)
	case key == "Enter":
		c.submit(ctx)
	case key == "Escape" && c.open:
		c.close()
	default:
		return false
	}
	return true
}

// onInput follows what is typed; an open list follows it too.
func (c *CommandLine) onInput(ctx app.Context, e app.Event) {
	input := ctx.JSSrc()
	c.text = input.Get("value").String()
	c.cursor = byteOffset(c.text, input.Get("selectionStart").Int())
	c.walking = len(c.history)
	if c.open {
		c.completion = scenario.Complete(c.text, c.cursor, scenario.NamesOf(c.Session))
		c.open, c.active = len(c.completion.Candidates) > 0, -1
	}
}

// complete completes the word before the caret: a single candidate fills
// in, several fill in what they share and are listed.
func (c *CommandLine) complete(ctx app.Context) {
	if c.Session == nil {
		return
	}
	c.completion = scenario.Complete(c.text, c.cursor, scenario.NamesOf(c.Session))
	cands := c.completion.Candidates
	switch len(cands) {
	case 0:
		c.close()
	case 1:
		c.pick(ctx, 0)
	default:
		from, to := c.completion.From, c.completion.Cursor
		if len(c.completion.Prefix) > to-from {
			c.text = c.text[:from] + c.completion.Prefix + c.text[to:]
			c.cursor = from + len(c.completion.Prefix)
			c.completion.Cursor = c.cursor
			c.syncInput()
		}
		c.open, c.active = true, -1
	}
}

// highlight moves the highlighted candidate by step, round the list.
func (c *CommandLine) highlight(ctx app.Context, step int) {
	n := min(len(c.completion.Candidates), completionsShown)
	if c.active < 0 && step < 0 {
		c.active = n - 1
	} else {
		c.active = ((c.active+step)%n + n) % n
	}
}

// pick puts candidate i in place of the word being completed.
func (c *CommandLine) pick(ctx app.Context, i int) {
	if i < 0 || i >= len(c.completion.Candidates) {
		return
	}
	c.text, c.cursor = c.completion.Apply(c.text, c.completion.Candidates[i].Text)
	c.close()
	c.syncInput()
}

func (c *CommandLine) close() { c.open, c.active = false, -1 }

// submit runs the line as one gesture of the page; it is kept in the
// history whatever comes of it.
func (c *CommandLine) submit(ctx app.Context) {
	c.close()
	line := c.text
	if strings.TrimSpace(line) == "" {
		return
	}
	if n := len(c.history); n == 0 || c.history[n-1] != line {
		c.history = append(slices.Clip(c.history), line)
		ctx.SetState(commandHistoryState, c.history)
	}
	c.walking, c.draft, c.pending, c.sentAt = len(c.history), "", line, c.Position
	ApplyFrom(ctx, commandLineControl, line)
}

// walk shows the line step lines later in the history (earlier for a
// negative step); past the newest, the line being typed comes back.
func (c *CommandLine) walk(ctx app.Context, step int) {
	to := min(max(c.walking+step, 0), len(c.history))
	if to == c.walking {
		return
	}
	if c.walking == len(c.history) {
		c.draft = c.text
	}
	c.walking = to
	if to == len(c.history) {
		c.text = c.draft
	} else {
		c.text = c.history[to]
	}
	c.cursor = len(c.text)
	c.syncInput()
}

// syncInput puts the text and the caret into the box, at once: keys the
// learner types next land after them. The box's value is not rendered: the
// box holds what is typed, and the command line writes it only when it
// changes the text itself (a completion, the history, an applied line).
// Rendered, the value would be written back at the next frame, trimmed of
// the space a completion adds, over keys typed since.
func (c *CommandLine) syncInput() {
	in := commandLineBox()
	if in == nil {
		return
	}
	if in.Get("value").String() != c.text {
		in.Set("value", c.text)
	}
	at := utf16Offset(c.text, c.cursor)
	in.Call("setSelectionRange", at, at)
}

// commandLineBox is the box in the page, nil where there is none (natively).
func commandLineBox() app.Value {
	in := app.Window().GetElementByID(commandLineInput)
	if in == nil || !in.Truthy() {
		return nil
	}
	return in
}

// Render draws the prompt, the box, the list of candidates when open, the
// hint and the line's error.
func (c *CommandLine) Render() app.UI {
	in := app.Input().Type("text").ID(commandLineInput).Name(commandLineInput).Class("command-line-input").
		DataSet("command-line", true).
		AutoComplete(false).Attr("spellcheck", "false").Attr("autocapitalize", "off").
		Attr("role", "combobox").Aria("autocomplete", "list").Aria("controls", completionList).
		Aria("expanded", c.open).Aria("describedby", "command-line-hint").
		Placeholder("e.g. " + c.Example).
		OnKeyDown(c.onKeyDown).OnInput(c.onInput)
	if c.open && c.active >= 0 {
		in = in.Aria("activedescendant", completionID(c.active))
	}
	return app.Div().Class("command-line").Body(
		// One row, as in a terminal: the label is read out, the hint sits
		// at the row's end, so that the docked timeline stays low.
		app.Label().For(commandLineInput).Class("command-line-label", "visually-hidden").Text("Command line"),
		app.Div().Class("command-line-row").Body(
			app.Span().Class("command-line-prompt").Aria("hidden", "true").Text("›"),
			in,
			app.Span().ID("command-line-hint").Class("hint", "command-line-hint").Text("Tab completes · ↑ history"),
		),
		c.renderList(),
		&ControlError{Control: commandLineControl},
	)
}

// renderList draws the candidates; an empty list stays in the page, hidden,
// so that aria-controls always names an element.
func (c *CommandLine) renderList() app.UI {
	cands := c.completion.Candidates
	if !c.open {
		cands = nil
	}
	shown := cands[:min(len(cands), completionsShown)]
	return app.Ul().ID(completionList).Class("completions").Attr("role", "listbox").
		Aria("label", "completions").Hidden(len(shown) == 0).Body(
		app.Range(shown).Slice(func(i int) app.UI {
			cand := shown[i]
			return app.Li().ID(completionID(i)).Class("completion").Attr("role", "option").
				DataSet("completion", cand.Text).Aria("selected", i == c.active).
				OnMouseDown(c.pickByPointer(i), i, cand.Text).Body(
				app.Span().Class("completion-text").Text(cand.Text),
				app.If(cand.Note != "", app.Span().Class("completion-note").Text(cand.Note)),
			)
		}),
		app.If(len(cands) > len(shown),
			app.Li().Class("completion-more").Attr("role", "presentation").
				Text(fmt.Sprintf("%d more: type to narrow", len(cands)-len(shown)))),
	)
}

// pickByPointer picks candidate i where it is pressed; the box keeps the
// focus.
func (c *CommandLine) pickByPointer(i int) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		e.PreventDefault()
		c.pick(ctx, i)
	}
}

func completionID(i int) string { return fmt.Sprintf("command-line-completion-%d", i) }

// byteOffset turns a caret the browser counts in UTF-16 code units into a
// byte offset of s.
func byteOffset(s string, units int) int {
	n := 0
	for i, r := range s {
		if n >= units {
			return i
		}
		n += utf16Len(r)
	}
	return len(s)
}

// utf16Offset turns a byte offset of s into UTF-16 code units.
func utf16Offset(s string, bytes int) int {
	n := 0
	for i, r := range s {
		if i >= bytes {
			break
		}
		n += utf16Len(r)
	}
	return n
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}

// commandExample is a line that runs on the step shown, for the command
// line's placeholder: a produce to its first topic, or a topic to create
// when it has none.
func (s LogSnapshot) commandExample() string {
	if len(s.Topics) == 0 {
		return "topic orders partitions=3"
	}
	return "produce " + s.Topics[0].Name + " key=k1 value=hello"
}
