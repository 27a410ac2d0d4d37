package app

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupMovement compares the four strategies on a membership change of the
// group as it is now: how many partitions each would move if one more member
// joined, or if one left. The engine works it out (CompareMovement); the
// group itself does not change. Below, Protocols replays a change the
// learner picks under each protocol, with how long partitions stop
// (GroupProtocolCompare).
type GroupMovement struct {
	app.Compo

	Group     string
	Movements []MovementComparison
	Running   []string // the running members, whose leave or crash it replays
	Protocols *ProtocolsCompared
}

// Render draws one table per change, [data-movement="c4 joins"], with a row
// [data-strategy=sticky][data-moved=1] per strategy.
func (m *GroupMovement) Render() app.UI {
	if len(m.Movements) == 0 {
		return app.Div().Class("movement empty")
	}
	return app.Details().Class("movement").Body(
		// The help sits in the body: a button inside a summary would be a
		// control inside a control.
		app.Summary().Text("What each strategy would move, and how long partitions stop"),
		app.P().Class("form-note").Body(
			app.Text("Each strategy assigns the group as it is, then again after the change; the group does not change. "),
			&Help{Topic: "movement"},
		),
		app.Range(m.Movements).Slice(func(i int) app.UI {
			mv := m.Movements[i]
			return app.Table().Class("movement-table").DataSet("movement", mv.Change).Body(
				app.Caption().Text("If "+mv.Change),
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text("strategy"),
					app.Th().Scope("col").Text("partitions moved"),
				)),
				app.TBody().Body(
					app.Range(mv.Strategies).Slice(func(j int) app.UI {
						s := mv.Strategies[j]
						return app.Tr().DataSet("strategy", s.Strategy).DataSet("moved", s.Moved).Body(
							app.Th().Scope("row").Text(s.Strategy),
							app.Td().Text(strconv.Itoa(s.Moved)),
						)
					}),
				),
			)
		}),
		&GroupProtocolCompare{Group: m.Group, Members: m.Running, Result: m.Protocols},
	)
}
