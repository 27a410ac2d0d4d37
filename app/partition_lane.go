package app

import (
	"fmt"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// PartitionLane shows one partition as a lane of records between its log
// start offset and its high watermark.
type PartitionLane struct {
	app.Compo

	Partition PartitionSnapshot
}

// maxRecordsShown bounds the records drawn per lane: a scenario may hold
// 100,000 records, and that many elements would freeze the page. The newest
// are drawn, as they are where the action is.
const maxRecordsShown = 500

// Render draws the lane with the test attributes of DESIGN.md:
// [data-topic][data-partition] with data-log-start and data-high-watermark,
// and one [data-offset] per record with data-key.
func (l *PartitionLane) Render() app.UI {
	p := l.Partition
	shown, hidden := p.Records, 0
	if len(shown) > maxRecordsShown {
		hidden = len(shown) - maxRecordsShown
		shown = shown[hidden:]
	}
	return app.Div().
		Class("lane").
		DataSet("topic", p.Topic).
		DataSet("partition", p.Partition).
		DataSet("log-start", p.LogStart).
		DataSet("high-watermark", p.HighWatermark).
		Body(
			app.Div().Class("lane-head").Body(
				app.Span().Class("lane-name").Text(fmt.Sprintf("%s/%d", p.Topic, p.Partition)),
				app.Span().Class("lane-offsets").Text(
					fmt.Sprintf("log start %d · high watermark %d", p.LogStart, p.HighWatermark)),
			),
			app.Div().Class("lane-records").Body(
				app.If(hidden > 0,
					app.P().Class("records-hidden").Text(fmt.Sprintf("%d older records not drawn", hidden)),
				),
				app.Ol().Class("records").Body(
					app.Range(shown).Slice(func(i int) app.UI {
						r := shown[i]
						li := app.Li().Class("record").DataSet("offset", r.Offset)
						if r.HasKey {
							li = li.DataSet("key", r.Key)
						}
						return li.Title(recordTitle(r)).Body(
							app.Span().Class("record-offset").Text(r.Offset),
							app.Span().Class("record-key").Text(recordKeyLabel(r)),
						)
					}),
				),
			),
		)
}

// recordKeyLabel is the short text in a record's cell.
func recordKeyLabel(r core.Record) string {
	if !r.HasKey {
		return "∅"
	}
	return r.Key
}

// recordTitle is the tooltip with the record's full content.
func recordTitle(r core.Record) string {
	key := "(no key)"
	if r.HasKey {
		key = fmt.Sprintf("%q", r.Key)
	}
	value := fmt.Sprintf("%q", r.Value)
	if r.Tombstone {
		value = "tombstone"
	}
	return fmt.Sprintf("offset %d · key %s · value %s · at %dms", r.Offset, key, value, r.Timestamp)
}
