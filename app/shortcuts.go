package app

import (
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Shortcuts lists the keyboard shortcuts, in the help panel. The errors of
// the ones that act for the groups (poll and commit need a running member)
// show in the narration's place, where the learner looks after a key.
type Shortcuts struct {
	app.Compo
}

// shortcutControl names the shortcuts' errors.
const shortcutControl = "shortcuts"

// shortcutKeys are the keys and what they do, as the page lists them.
var shortcutKeys = [][2]string{
	{"p", "produce what the produce form holds"},
	{"o", "poll: the first running member of the first group polls"},
	{"c", "commit: the same member commits its positions"},
	{"s", "step: advance the clock by one second"},
	{"u", "undo"},
	{"r", "redo"},
	{"Esc", "close the inspector"},
}

// Render draws the list.
func (s *Shortcuts) Render() app.UI {
	return app.Section().Class("panel", "shortcuts").Aria("label", "keyboard shortcuts").Body(
		app.H2().Text("Keyboard"),
		app.Ul().Body(
			app.Range(shortcutKeys).Slice(func(i int) app.UI {
				return app.Li().Body(app.Kbd().Text(shortcutKeys[i][0]), app.Text(" "+shortcutKeys[i][1]))
			}),
		),
		app.P().Class("hint").Text("Shortcuts work while no text box has the focus."),
	)
}

// onKeyDown turns a shortcut into the same scenario line or history move a
// click would make, and Escape closes the inspector. Keys typed into a
// form, or with a modifier, are left to the browser.
func (p *Playground) onKeyDown(ctx app.Context, e app.Event) {
	if e.Get("ctrlKey").Bool() || e.Get("metaKey").Bool() || e.Get("altKey").Bool() {
		return
	}
	target := e.Get("target")
	if target.Truthy() {
		switch strings.ToLower(target.Get("tagName").String()) {
		case "input", "textarea", "select":
			return
		}
	}
	key := e.Get("key").String()
	if p.share.options.Present {
		if p.presenterKey(ctx, key) {
			e.PreventDefault()
		}
		return
	}
	if key == "Escape" {
		p.escape(ctx, target)
		return
	}
	if p.shortcut(ctx, key) {
		e.PreventDefault()
	}
}

// escape closes the inspector, unless the key was for a help's explanation
// or the share menu, which close on Escape themselves (help.go,
// share_menu.go).
func (p *Playground) escape(ctx app.Context, target app.Value) {
	if p.selected.Kind == "" {
		return
	}
	if target.Truthy() && target.Get("closest").Truthy() && !target.Call("closest", "[data-help], .share-menu, .help-panel").IsNull() {
		return
	}
	ctx.NewActionWithValue(selectAction, selection{})
}

// shortcut acts on one key and reports whether the key is a shortcut.
func (p *Playground) shortcut(ctx app.Context, key string) bool {
	member := p.view.PollTarget
	switch key {
	case "p":
		ctx.NewAction(produceShortcut)
	case "o", "c":
		if member.Group == "" {
			setControlError(ctx, ControlAlert{Control: shortcutControl,
				Message: "Nobody to poll or commit for: join a member to a group first."})
			return true
		}
		name := map[string]string{"o": scenario.CmdPoll, "c": scenario.CmdCommit}[key]
		ApplyFrom(ctx, shortcutControl, line(name, positional(member.Group), positional(member.Member)))
	case "s":
		ApplyFrom(ctx, shortcutControl, line(scenario.CmdAdvance, positional("1s")))
	case "u":
		ctx.NewActionWithValue(historyAction, historyMove{Control: shortcutControl, Kind: "undo"})
	case "r":
		ctx.NewActionWithValue(historyAction, historyMove{Control: shortcutControl, Kind: "redo"})
	default:
		return false
	}
	return true
}
