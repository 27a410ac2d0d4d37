package app

import (
	"fmt"
	"strconv"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ShareLaneStrip is one share group's share-partition drawn under the
// partition's lane: the start and end offsets (SPSO, SPEO) and, between
// them, each in-flight record with its state in a word, who holds it and
// how long its lock has left, and how many times it was delivered (Kafka
// 4.4's SharePartition; core.SharePartitionView). Tests read
// [data-share-strip=GROUP] with data-spso, data-speo and data-share-lag,
// and on each record [data-inflight=OFFSET] data-record-state,
// data-delivery-count and, while acquired, data-owner, data-lock-until-ms
// and data-lock-left-ms. The records carry data-inflight, not data-offset,
// so that a lane's [data-offset] are its records alone.
type ShareLaneStrip struct {
	app.Compo

	Strip ShareStrip
}

// ShareStrip is what one strip draws: a share group's share-partition at
// the clock's time.
type ShareStrip struct {
	Group     string
	Partition core.SharePartitionView
	Now       int64
}

// shareStripShown is how many in-flight records a strip draws; the rest
// it counts, as a lane counts the records outside its window.
const shareStripShown = 16

// Render draws the strip.
func (s *ShareLaneStrip) Render() app.UI {
	st := s.Strip
	p := st.Partition
	name := fmt.Sprintf("%s/%d", p.Topic, p.Partition)
	shown := p.InFlight
	if len(shown) > shareStripShown {
		shown = shown[:shareStripShown]
	}
	rest := len(p.InFlight) - len(shown)
	return app.Div().Class("share-strip").
		DataSet("share-strip", st.Group).
		DataSet("spso", p.StartOffset).
		DataSet("speo", p.EndOffset).
		DataSet("share-lag", p.Lag).
		Aria("label", fmt.Sprintf("share group %s on %s", st.Group, name)).
		Body(
			app.Span().Class("share-strip-name").
				Title("share group "+st.Group+": its share-partition of "+name+", the records it has in flight").
				Text("⇶ "+st.Group),
			app.Ol().Class("share-strip-records").Body(
				app.Li().Class("share-strip-mark").DataSet("strip-mark", "spso").
					Title("SPSO, the share-partition start offset: every record below it is acknowledged or archived").
					Text("SPSO "+strconv.FormatInt(p.StartOffset, 10)),
				app.Range(shown).Slice(func(i int) app.UI { return renderStripRecord(shown[i], st.Now) }),
				app.If(rest > 0, app.Li().Class("share-strip-more").Text(fmt.Sprintf("+%d more", rest))),
				app.Li().Class("share-strip-mark").DataSet("strip-mark", "speo").
					Title("SPEO, the share-partition end offset: the last offset in flight; a poll acquires from here on").
					Text("SPEO "+strconv.FormatInt(p.EndOffset, 10)),
			),
			app.Span().Class("share-strip-lag").Title("share lag (KIP-1226): records not yet acknowledged or archived, up to the high watermark").
				Text(fmt.Sprintf("lag %d", p.Lag)),
		)
}

// renderStripRecord draws one in-flight record: its offset, its state in a
// word (colour only repeats it), its delivery count, and, while acquired,
// its owner and the time its lock has left.
func renderStripRecord(r core.InFlightView, now int64) app.UI {
	title := fmt.Sprintf("offset %d: %s, delivered %d time(s)", r.Offset, r.State, r.DeliveryCount)
	li := app.Li().Class("share-strip-record", "share-record-"+shareStateClass(r.State)).
		DataSet("inflight", r.Offset).
		DataSet("record-state", r.State).
		DataSet("delivery-count", r.DeliveryCount)
	var held app.UI
	if r.State == core.RecordAcquired {
		left := max(0, r.LockUntil-now)
		title += fmt.Sprintf(", held by %s, its lock expires at %s (in %s)", r.Member,
			units.Format(r.LockUntil, units.Durations, "0s"), units.Format(left, units.Durations, "0s"))
		li = li.DataSet("owner", r.Member).DataSet("lock-until-ms", r.LockUntil).DataSet("lock-left-ms", left)
		held = app.Span().Class("share-strip-owner").Text(r.Member + " " + units.Format(left, units.Durations, "0s") + " left")
	}
	return li.Title(title).Body(
		app.Span().Class("share-record-offset").Text(strconv.FormatInt(r.Offset, 10)),
		app.Span().Class("share-record-state").Text(shareStateLetters[r.State]),
		app.Span().Class("share-record-count").Text("×"+strconv.Itoa(r.DeliveryCount)),
		held,
	)
}

// shareStateClass is a state's class suffix: "acquired".
func shareStateClass(state string) string {
	switch state {
	case core.RecordAvailable:
		return "available"
	case core.RecordAcquired:
		return "acquired"
	case core.RecordAcknowledged:
		return "acknowledged"
	}
	return "archived"
}

// shareStrips lists, for one partition, the share groups that read it,
// in name order, with the clock's time for their locks.
func shareStrips(groups []core.ShareGroupView, topic string, partition int, now int64) []ShareStrip {
	var strips []ShareStrip
	for _, g := range groups {
		for _, p := range g.Partitions {
			if p.Topic == topic && p.Partition == partition {
				strips = append(strips, ShareStrip{Group: g.Name, Partition: p, Now: now})
			}
		}
	}
	return strips
}
