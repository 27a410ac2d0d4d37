package app

import (
	"fmt"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupRebalance shows a group's rebalance as it happens: while one runs,
// its cause, the paused partitions and whom it waits for; then, for the
// last rebalance (both rounds of a cooperative one, as the engine adds them
// up), what each member lost, gained and kept, and how many partitions
// moved.
type GroupRebalance struct {
	app.Compo

	Group     string
	Now       int64
	Rebalance *core.RebalanceView
	Last      *core.RebalanceSummary
}

// Render draws [data-rebalance="running"] with data-paused while a rebalance
// runs, and [data-rebalance="done"] with data-moved for the last one.
func (r *GroupRebalance) Render() app.UI {
	var parts []app.UI
	if r.Rebalance != nil {
		parts = append(parts, r.renderRunning())
	}
	if r.Last != nil {
		parts = append(parts, r.renderDone(*r.Last))
	}
	return app.Div().Class("rebalance").Body(parts...)
}

func (r *GroupRebalance) renderRunning() app.UI {
	rb := r.Rebalance
	paused := partitionList(rb.Paused)
	when := fmt.Sprintf("completes in %s", units.Duration(max(rb.DoneAt-r.Now, 0)))
	if len(rb.WaitingFor) > 0 {
		when = "waits for " + strings.Join(rb.WaitingFor, ", ") + " until their sessions time out"
	}
	round := ""
	if rb.Round > 1 {
		round = fmt.Sprintf(" (round %d)", rb.Round)
	}
	pausedText := "none: members keep consuming what does not move"
	if paused != "" {
		pausedText = strings.ReplaceAll(paused, " ", ", ")
	}
	return app.Div().
		Class("rebalance-running").
		DataSet("rebalance", "running").
		DataSet("paused", paused).
		Attr("role", "status").
		Body(
			app.P().Body(
				app.Strong().Text("Rebalancing"+round+": "),
				app.Text(rb.Cause+"; "+when+"."),
				&Help{Topic: "rebalance"},
			),
			app.P().Class("rebalance-paused").Text("Paused partitions: "+pausedText),
		)
}

func (r *GroupRebalance) renderDone(last core.RebalanceSummary) app.UI {
	moved, paused, changes := last.Moved, last.Paused, last.Members
	return app.Details().
		Class("rebalance-done").
		DataSet("rebalance", "done").
		DataSet("moved", moved).
		DataSet("generation", last.Generation).
		Body(
			app.Summary().Text(fmt.Sprintf("Last rebalance: generation %d (%s), %s: %s moved, %d paused",
				last.Generation, last.Strategy, last.Cause, units.Plural(int64(moved), "partition"), paused)),
			app.Ul().Class("rebalance-changes").Body(
				app.Range(changes).Slice(func(i int) app.UI {
					ch := changes[i]
					return app.Li().
						DataSet("change-member", ch.Member).
						DataSet("lost", partitionList(ch.Revoked)).
						DataSet("gained", partitionList(ch.Assigned)).
						DataSet("kept", partitionList(ch.Kept)).
						Text(changeText(ch))
				}),
			),
		)
}

// changeText says in words what a member lost and gained.
func changeText(ch core.MemberChange) string {
	var parts []string
	if len(ch.Revoked) > 0 {
		parts = append(parts, "lost "+strings.ReplaceAll(partitionList(ch.Revoked), " ", ", "))
	}
	if len(ch.Assigned) > 0 {
		parts = append(parts, "gained "+strings.ReplaceAll(partitionList(ch.Assigned), " ", ", "))
	}
	if len(ch.Kept) > 0 {
		parts = append(parts, "kept "+strings.ReplaceAll(partitionList(ch.Kept), " ", ", "))
	}
	if len(parts) == 0 {
		parts = append(parts, "had nothing before or after")
	}
	text := ch.Member + " " + strings.Join(parts, "; ")
	if ch.Left {
		text += " (left the group)"
	}
	return text
}
