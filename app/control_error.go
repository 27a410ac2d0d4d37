package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// ControlAlert is why the last action was refused, and the control that
// asked for it. The zero value is no error.
type ControlAlert struct {
	Control string
	Message string
}

// controlAlertState is the go-app state holding the current ControlAlert,
// so that any component can show the errors of its own controls.
const controlAlertState = "plog/control-alert"

// setControlError shows an error next to its control, or clears it.
func setControlError(ctx app.Context, a ControlAlert) {
	ctx.SetState(controlAlertState, a)
}

// ControlError shows, beside a control, why the last action it asked for was
// refused (role=alert). The message stays until the next action. Place one
// next to each control that uses ApplyFrom with the same Control name.
type ControlError struct {
	app.Compo

	Control string

	alert ControlAlert
}

// OnMount follows the current error.
func (c *ControlError) OnMount(ctx app.Context) {
	ctx.ObserveState(controlAlertState).Value(&c.alert)
}

// Render draws the message when it belongs to this control.
func (c *ControlError) Render() app.UI {
	if c.alert.Control != c.Control || c.alert.Message == "" {
		return app.Span().Class("control-error").DataSet("control", c.Control)
	}
	return app.P().
		Class("control-error", "alert").
		DataSet("control", c.Control).
		Attr("role", "alert").
		Text(c.alert.Message)
}

// submitLine returns the handler of a control that writes one line: it
// sends what write makes from control, or shows beside the control the
// problem write found in its input.
func submitLine(control string, write func() (string, string)) app.EventHandler {
	return submitLines(control, func() ([]string, string) {
		l, problem := write()
		return []string{l}, problem
	})
}

// submitLines is submitLine for a control whose gesture is several lines,
// applied all or none.
func submitLines(control string, write func() ([]string, string)) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		e.PreventDefault()
		lines, problem := write()
		if problem != "" {
			setControlError(ctx, ControlAlert{Control: control, Message: problem})
			return
		}
		ApplyFrom(ctx, control, lines...)
	}
}
