package app

import (
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupResetForm moves a group's committed offsets, like
// kafka-consumer-groups --reset-offsets: to the earliest or latest offset, to
// an offset, or to a virtual time, for all topics, one topic or one
// partition. Kafka allows it only on a group with no active members; the
// form still sends the command then, so the learner sees Kafka's refusal.
type GroupResetForm struct {
	app.Compo

	Group string
	// Active names the members that stop a reset, running ones and stopped
	// ones within their session, as the engine sees them
	// (core.GroupView.ActiveMembers); "" when the group is empty.
	Active string

	mode, value, scope string
	typedFor           string // the group mode, value and scope were chosen for
}

// resetModes are the targets, as the scenario language writes them.
var resetModes = []string{core.ResetToEarliest, core.ResetToLatest, core.ResetToOffset, core.ResetToDatetime}

// Render draws [data-control="billing/reset"].
func (f *GroupResetForm) Render() app.UI {
	control := groupControl(f.Group, "reset")
	if f.typedFor != f.Group {
		// As in GroupConfigForm: this form may now show another group.
		f.mode, f.value, f.scope, f.typedFor = "", "", "", f.Group
	}
	mode := f.modeOrDefault()
	note := "The group has no active members, so its offsets can be reset."
	if f.Active != "" {
		note = "Kafka resets offsets only when no member is active; still active: " + f.Active + "."
	}
	valueLabel := "offset"
	if mode == core.ResetToDatetime {
		valueLabel = "time (e.g. 30s)"
	}
	needsValue := mode == core.ResetToOffset || mode == core.ResetToDatetime
	return app.Form().
		Class("group-reset").
		DataSet("control", control).
		DataSet("command", scenario.CmdReset).
		Aria("label", "Reset the offsets of "+f.Group).
		OnSubmit(f.submit).
		Body(
			app.Span().Class("form-title").Body(app.Text("Reset offsets "), &Help{Topic: "reset-offsets"}),
			app.Label().Body(
				app.Span().Text("to"),
				app.Select().Name("mode").OnChange(textInto(&f.mode)).Body(
					app.Range(resetModes).Slice(func(i int) app.UI {
						return app.Option().Value(resetModes[i]).Selected(mode == resetModes[i]).Text(resetModes[i])
					}),
				),
			),
			app.Label().Body(
				app.Span().Text(valueLabel),
				app.Input().Type("text").Name("value").Size(6).Value(f.value).
					Disabled(!needsValue).OnInput(textInto(&f.value)),
			),
			app.Label().Body(
				app.Span().Text("topic or partition"),
				app.Input().Type("text").Name("scope").Size(8).Value(f.scope).Placeholder("all").
					OnInput(textInto(&f.scope)),
			),
			app.Button().Type("submit").Text("Reset"),
			app.P().Class("form-note").Text(note),
			&ControlError{Control: control},
		)
}

func (f *GroupResetForm) modeOrDefault() string {
	if f.mode == "" {
		return core.ResetToEarliest
	}
	return f.mode
}

func (f *GroupResetForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	line, problem := f.resetLine()
	sendGroupLine(ctx, groupControl(f.Group, "reset"), line, problem)
}

// resetLine makes the reset command, or says what is wrong with the input.
func (f *GroupResetForm) resetLine() (string, string) {
	mode := f.modeOrDefault()
	value := strings.TrimSpace(f.value)
	line := scenario.CmdReset + " " + word(f.Group) + " "
	switch mode {
	case core.ResetToEarliest, core.ResetToLatest:
		line += mode
	case core.ResetToOffset:
		if _, err := strconv.ParseInt(value, 10, 64); err != nil {
			return "", "The offset must be a whole number, not " + strconv.Quote(value) + "."
		}
		line += mode + "=" + value
	case core.ResetToDatetime:
		if _, err := core.ParseDuration(value); err != nil {
			return "", "The time must be a virtual time like 30s or 5m, not " + strconv.Quote(value) + "."
		}
		line += mode + "=" + value
	default:
		return "", "Choose where to reset to."
	}
	if scope := strings.TrimSpace(f.scope); scope != "" {
		line += " topic=" + word(scope)
	}
	return line, ""
}
