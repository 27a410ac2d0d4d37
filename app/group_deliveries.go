package app

import (
	"fmt"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupDeliveries counts what a group's polls handed out and lists the
// latest deliveries with what became of them: a record delivered again after
// a crash or a rebalance shows at-least-once at work, a record lost shows
// at-most-once.
type GroupDeliveries struct {
	app.Compo

	Totals     core.DeliveryTotals
	Deliveries []core.DeliveryLogEntry // the latest, oldest first
}

// Render draws p[data-delivered][data-redelivered] and, folded, the latest
// deliveries as li[data-delivery="orders/0@3"][data-outcome].
func (d *GroupDeliveries) Render() app.UI {
	t := d.Totals
	text := fmt.Sprintf("%d delivered, %d redelivered", t.Delivered, t.Redelivered)
	if t.LostUnprocessed > 0 {
		text += fmt.Sprintf(", %d lost unprocessed", t.LostUnprocessed)
	}
	if t.SkippedByReset > 0 {
		text += fmt.Sprintf(", %d skipped by auto.offset.reset", t.SkippedByReset)
	}
	totals := app.P().Class("group-totals").
		DataSet("delivered", t.Delivered).
		DataSet("redelivered", t.Redelivered).
		DataSet("lost", t.LostUnprocessed).
		Body(app.Text(text+" "), &Help{Topic: "delivery"})
	if len(d.Deliveries) == 0 {
		return app.Div().Class("group-deliveries").Body(totals)
	}
	// Newest first: what the last poll did is what the learner looks for.
	shown := make([]core.DeliveryLogEntry, len(d.Deliveries))
	for i, e := range d.Deliveries {
		shown[len(shown)-1-i] = e
	}
	return app.Div().Class("group-deliveries").Body(
		totals,
		app.Details().Body(
			app.Summary().Text("Latest deliveries"),
			app.Ol().Class("delivery-log").Body(
				app.Range(shown).Slice(func(i int) app.UI {
					e := shown[i]
					return app.Li().
						DataSet("delivery", fmt.Sprintf("%s/%d@%d", e.Topic, e.Partition, e.Record.Offset)).
						DataSet("outcome", e.Outcome).
						Text(deliveryText(e))
				}),
			),
		),
	)
}

// deliveryText says who got which record, when, and what became of it.
func deliveryText(e core.DeliveryLogEntry) string {
	text := fmt.Sprintf("%s: %s %s/%d@%d", units.Duration(e.Time), e.Member, e.Topic, e.Partition, e.Record.Offset)
	if e.Record.HasKey {
		text += fmt.Sprintf(" (key %s)", e.Record.Key)
	}
	if e.Redelivery {
		text += ", again"
	}
	return text + ": " + e.Outcome
}
