package app

import (
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TimeControls advance the virtual clock: by a second, a minute, an hour,
// or any duration. Retention, session timeouts, rebalances and workloads all
// run as it passes.
type TimeControls struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts the form afresh (fresh_form.go)
	linksSeen int

	duration string
}

// timeControl names the controls' errors.
const timeControl = "time"

// OnInit suggests a duration.
func (c *TimeControls) OnInit() {
	c.duration = "10m"
}

// AdvanceLine writes the advance command for a duration as typed.
func AdvanceLine(duration string) (string, string) {
	d := strings.TrimSpace(duration)
	if d == "" {
		return "", "How long? Write a duration such as 500ms, 10s, 5m, 2h or 7d."
	}
	return line(scenario.CmdAdvance, positional(d)), ""
}

func (c *TimeControls) advance(duration string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		e.PreventDefault()
		d := duration
		if d == "" {
			d = c.duration
		}
		l, problem := AdvanceLine(d)
		if problem != "" {
			setControlError(ctx, ControlAlert{Control: timeControl, Message: problem})
			return
		}
		ApplyFrom(ctx, timeControl, l)
	}
}

// Render draws the buttons and the duration box.
func (c *TimeControls) Render() app.UI {
	if c.Links != c.linksSeen {
		startAfresh(c, (*TimeControls).OnInit)
		c.linksSeen = c.Links
	}
	return app.Section().Class("panel", "time").Aria("label", "virtual time").Body(
		app.H2().Text("Time"),
		app.Div().Class("row").Body(
			app.Button().Type("button").ID("advance-1s").DataSet("command", scenario.CmdAdvance).OnClick(c.advance("1s")).Title("shortcut: s").Text("+1 s"),
			app.Button().Type("button").ID("advance-1m").DataSet("command", scenario.CmdAdvance).OnClick(c.advance("1m")).Text("+1 m"),
			app.Button().Type("button").ID("advance-1h").DataSet("command", scenario.CmdAdvance).OnClick(c.advance("1h")).Text("+1 h"),
		),
		app.Form().Class("row").DataSet("command", scenario.CmdAdvance).OnSubmit(c.advance("")).Body(
			field("advance-duration", "Advance by", textInput("advance-duration", &c.duration, &c.Compo)),
			app.Button().Type("submit").ID("advance-go").Text("Advance"),
		),
		&ControlError{Control: timeControl},
	)
}
