package app

import (
	"strconv"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupLagTable shows a group's partitions as kafka-consumer-groups
// --describe does: owner, committed offset, high watermark, and the lag in
// records and in time. Without a commit, committed and lag are "-".
type GroupLagTable struct {
	app.Compo

	Group      string
	Partitions []core.PartitionView

	start int // the first partition drawn
}

// lagRowsShown is how many partitions the table draws at once
// (list_window.go): a group may read ten thousand.
const lagRowsShown = 50

// Render draws one row per partition, [data-lag-of="orders/0"] with data-lag
// ("-" without a commit), data-group-committed and data-paused.
func (t *GroupLagTable) Render() app.UI {
	window := windowAt(t.start, lagRowsShown, len(t.Partitions))
	rows := t.Partitions[window.start:window.end()]
	return app.Div().Class("lag-table-window").Body(
		windowNav("lag-"+t.Group, "partitions", 0, window, func(ctx app.Context, start int) { t.start = start }),
		t.table(rows),
	)
}

func (t *GroupLagTable) table(rows []core.PartitionView) app.UI {
	return app.Table().Class("lag-table").Body(
		app.Caption().Body(app.Text("Offsets and lag of "+t.Group+" "), &Help{Topic: "committed-offset"}),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("partition"),
			app.Th().Scope("col").Text("owner"),
			app.Th().Scope("col").Text("committed"),
			app.Th().Scope("col").Text("high watermark"),
			app.Th().Scope("col").Text("lag"),
			app.Th().Scope("col").Text("time lag"),
		)),
		app.TBody().Body(
			app.Range(rows).Slice(func(i int) app.UI {
				p := rows[i]
				committed, lag, timeLag := "-", "-", "-"
				if p.HasCommitted {
					committed = strconv.FormatInt(p.Committed, 10)
					lag = strconv.FormatInt(p.Lag, 10)
					timeLag = units.Duration(p.TimeLagMs)
				}
				owner := p.Owner
				if owner == "" {
					owner = "-"
				}
				if p.Paused {
					owner += " (paused)"
				}
				tr := app.Tr().
					DataSet("lag-of", p.Topic+"/"+strconv.Itoa(p.Partition)).
					DataSet("lag", lag).
					DataSet("group-committed", committed)
				if p.Paused {
					tr = tr.DataSet("paused", "true")
				}
				return tr.Body(
					app.Th().Scope("row").Text(p.Topic+"/"+strconv.Itoa(p.Partition)),
					app.Td().Text(owner),
					app.Td().Text(committed),
					app.Td().Text(p.HighWatermark),
					app.Td().Text(lag),
					app.Td().Text(timeLag),
				)
			}),
		),
	)
}
