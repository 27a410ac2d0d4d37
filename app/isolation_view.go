package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// IsolationView sets the consumer groups side by side under the lanes
// while named producers are in use, each with its isolation.level: where
// its fetches stop on each partition (the last stable offset for
// read_committed, the high watermark for read_uncommitted), where it
// stands, its lag against where it stops, what it was given, and the
// aborted records it skipped or was given. The engine works all of it out
// (core.GroupIsolation).
type IsolationView struct {
	app.Compo

	Groups []core.GroupIsolation
}

// isolationPartitionsShown bounds the partitions each group lists.
const isolationPartitionsShown = 12

// Render draws [data-isolation-view] with one
// [data-isolation-group=NAME][data-isolation-level=LEVEL] per group and,
// in it, [data-isolation-partition="orders/0"] per partition with
// data-reads-below, data-position and data-records-lag (its consumer's
// lag), data-lag (the committed offset's), data-read and data-aborted
// (offsets, space-separated).
func (v *IsolationView) Render() app.UI {
	if len(v.Groups) == 0 {
		return app.Section().Class("isolation-view").DataSet("isolation-view", "").Hidden(true)
	}
	return app.Section().Class("isolation-view").DataSet("isolation-view", "").Aria("label", "what each group reads of transactions").Body(
		app.H2().Body(app.Text("What each group reads of transactions "), &Help{Topic: "isolation-level"}),
		app.Div().Class("isolation-groups").Body(
			app.Range(v.Groups).Slice(func(i int) app.UI { return isolationGroup(v.Groups[i]) }),
		),
	)
}

// isolationGroup is one group's column.
func isolationGroup(g core.GroupIsolation) app.UI {
	shown := g.Partitions[:min(len(g.Partitions), isolationPartitionsShown)]
	stops := "the high watermark: records of open and aborted transactions too"
	if g.IsolationLevel == core.ReadCommitted {
		stops = "the last stable offset (LSO), skipping aborted records"
	}
	return app.Article().Class("isolation-group", "isolation-"+g.IsolationLevel).
		DataSet("isolation-group", g.Group).DataSet("isolation-level", g.IsolationLevel).Body(
		app.H3().Body(app.Strong().Text(g.Group), app.Text(" · "), app.Code().Text("isolation.level="+g.IsolationLevel)),
		app.P().Class("isolation-rule").Text("reads up to "+stops),
		app.Ul().Body(
			app.Range(shown).Slice(func(i int) app.UI { return isolationPartition(g.IsolationLevel, shown[i]) }),
			app.If(len(g.Partitions) > len(shown), app.Li().Text(fmt.Sprintf("and %d more partitions", len(g.Partitions)-len(shown)))),
		),
	)
}

// isolationPartition is one partition of a group's column, in words.
func isolationPartition(level string, r core.IsolationRead) app.UI {
	tp := fmt.Sprintf("%s/%d", r.Topic, r.Partition)
	committed := level == core.ReadCommitted
	stop := fmt.Sprintf("stops at HW %d", r.ReadsBelow)
	if committed {
		stop = fmt.Sprintf("stops at LSO %d (HW %d)", r.ReadsBelow, r.HighWatermark)
	}
	parts := []string{stop}
	li := app.Li().DataSet("isolation-partition", tp).DataSet("reads-below", r.ReadsBelow).
		DataSet("read", offsetsAttr(r.Read)).DataSet("aborted", offsetsAttr(r.Aborted))
	against := "the HW"
	if committed {
		against = "the LSO"
	}
	if r.HasPosition {
		li = li.DataSet("position", r.Position).DataSet("records-lag", r.RecordsLag)
		parts = append(parts, fmt.Sprintf("reads %d next, %d behind %s", r.Position, r.RecordsLag, against))
	}
	if r.HasCommitted {
		li = li.DataSet("lag", r.Lag)
		parts = append(parts, fmt.Sprintf("committed %d, lag %d to %s", r.Committed, r.Lag, against))
	}
	parts = append(parts, "read "+offsetsWords(r.Read))
	if len(r.Aborted) > 0 {
		verb := "read aborted "
		if committed {
			verb = "skipped aborted "
		}
		parts = append(parts, verb+offsetsWords(r.Aborted))
	}
	if len(r.Markers) > 0 {
		parts = append(parts, "passed markers "+offsetsWords(r.Markers))
	}
	return li.Body(app.Strong().Text(tp), app.Text(" "+strings.Join(parts, " · ")))
}

// offsetsAttr writes offsets space-separated, for a data attribute.
func offsetsAttr(offsets []int64) string {
	parts := make([]string, len(offsets))
	for i, o := range offsets {
		parts[i] = strconv.FormatInt(o, 10)
	}
	return strings.Join(parts, " ")
}

// offsetsWords writes offsets for the reader: "nothing", or "0, 2, 5".
func offsetsWords(offsets []int64) string {
	if len(offsets) == 0 {
		return "nothing"
	}
	return strings.ReplaceAll(offsetsAttr(offsets), " ", ", ")
}
