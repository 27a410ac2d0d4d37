package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ShareGroupCard is one share group in the groups column: its state and
// epoch, its members with their buttons, each share-partition's
// in-flight records and the form that sets the group's configs (core.ShareGroupView, Kafka 4.4's SharePartition).
// Tests read data-share-group, data-state and data-epoch.
type ShareGroupCard struct {
	app.Compo

	Group core.ShareGroupView
	Now   int64
}

// Render draws the card.
func (c *ShareGroupCard) Render() app.UI {
	g := c.Group
	return app.Article().
		Class("share-group").
		DataSet("share-group", g.Name).
		DataSet("state", g.State).
		DataSet("epoch", g.GroupEpoch).
		Aria("label", "Share group "+g.Name).
		Body(
			app.Header().Class("share-group-head").Body(
				app.H3().Body(
					app.Button().Type("button").Class("quiet").DataSet("action", "inspect-share-group").
						Title("inspect "+g.Name+": its members, share-partitions, configs and share lag").
						OnClick(selectThing(selection{Kind: selectShareGroup, Group: g.Name}), g.Name).Text(g.Name),
				),
				app.Span().Class("share-group-state").Text(shareGroupStateText(g)),
				app.Button().Type("button").Class("small").DataSet("action", "share-compare").
					Title("Run one workload through a consumer group and through "+g.Name+", side by side: who gets what, in which order, and what a crash costs each").
					OnClick(selectThing(selection{Kind: selectShareGroup, Group: g.Name, ShareCompare: defaultShareCompare(g.Name, runningShareMembers(g))}), g.Name, strings.Join(runningShareMembers(g), ",")).
					Text("Compare with a consumer group"),
			),
			app.Ul().Class("share-members").Body(
				app.Range(g.Members).Slice(func(i int) app.UI {
					return &ShareMember{Group: g.Name, Member: g.Members[i], ComeBackID: shareComeBackID(g, g.Members[i]),
						LockExpired: lockExpired(g, g.Members[i])}
				}),
			),
			app.Range(g.Partitions).Slice(func(i int) app.UI {
				return renderSharePartition(g.Partitions[i], c.Now)
			}),
			&ShareGroupConfigForm{Group: g.Name, Configs: g.Configs},
		)
}

// shareGroupStateText is the caption of a share group's state and epoch.
func shareGroupStateText(g core.ShareGroupView) string {
	return fmt.Sprintf("%s, epoch %d", g.State, g.GroupEpoch)
}

// sharePartitionText is the caption of a share-partition: its start and
// end offsets and its share lag.
func sharePartitionText(p core.SharePartitionView) string {
	return fmt.Sprintf("SPSO %d, SPEO %d, share lag %d", p.StartOffset, p.EndOffset, p.Lag)
}

// shareComeBackID is the name a crashed member restarts under: the next
// of its name (s1, s2, ...) that no member of the group has.
func shareComeBackID(g core.ShareGroupView, m core.ShareMemberView) string {
	if m.CrashedAt < 0 {
		return ""
	}
	taken := func(name string) bool {
		for _, o := range g.Members {
			if o.Name == name {
				return true
			}
		}
		return false
	}
	id := nextMemberID(m.Name)
	for taken(id) {
		id = nextMemberID(id)
	}
	return id
}

// shareStateLetters are the in-flight states as the strip writes them:
// short words, so that colour is never the only sign of a state.
var shareStateLetters = map[string]string{
	core.RecordAvailable:    "avail",
	core.RecordAcquired:     "acq",
	core.RecordAcknowledged: "ack",
	core.RecordArchived:     "arch",
}

// renderSharePartition draws one share-partition: its start and end
// offsets (SPSO, SPEO), its share lag, and a strip of its in-flight
// records, each with its offset, state, owner, lock deadline and delivery
// count. Tests read data-share-partition, data-spso, data-speo,
// data-share-lag, and on each record data-offset, data-record-state,
// data-owner and data-delivery-count.
func renderSharePartition(p core.SharePartitionView, now int64) app.UI {
	name := fmt.Sprintf("%s/%d", p.Topic, p.Partition)
	return app.Section().
		Class("share-partition").
		DataSet("share-partition", name).
		DataSet("spso", p.StartOffset).
		DataSet("speo", p.EndOffset).
		DataSet("share-lag", p.Lag).
		Aria("label", "Share-partition "+name).
		Body(
			app.P().Class("share-partition-head").Body(
				app.Strong().Text(name),
				app.Text(" "+sharePartitionText(p)),
			),
			app.If(len(p.InFlight) == 0,
				app.P().Class("share-inflight-empty").Text("No records in flight."),
			).Else(
				app.Ol().Class("share-inflight").Aria("label", "In-flight records of "+name).Body(
					app.Range(p.InFlight).Slice(func(i int) app.UI {
						return renderInFlight(p.InFlight[i], now)
					}),
				),
			),
		)
}

// renderInFlight draws one in-flight record of the strip.
func renderInFlight(r core.InFlightView, now int64) app.UI {
	title := fmt.Sprintf("offset %d: %s, delivered %d time(s)", r.Offset, r.State, r.DeliveryCount)
	var owner string
	if r.State == core.RecordAcquired {
		owner = fmt.Sprintf("%s until %s", r.Member, units.Format(r.LockUntil, units.Durations, "0s"))
		title += fmt.Sprintf(", held by %s, its lock expires at %s (in %s)", r.Member,
			units.Format(r.LockUntil, units.Durations, "0s"), units.Format(max(0, r.LockUntil-now), units.Durations, "0s"))
	}
	li := app.Li().
		Class("share-record", "share-record-"+strings.ToLower(r.State)).
		DataSet("offset", r.Offset).
		DataSet("record-state", r.State).
		DataSet("delivery-count", r.DeliveryCount).
		Title(title)
	if r.Member != "" {
		li = li.DataSet("owner", r.Member).DataSet("lock-until-ms", r.LockUntil)
	}
	return li.Body(
		app.Span().Class("share-record-offset").Text(strconv.FormatInt(r.Offset, 10)),
		app.Span().Class("share-record-state").Text(shareStateLetters[r.State]),
		app.Span().Class("share-record-count").Text("×"+strconv.Itoa(r.DeliveryCount)),
		app.If(owner != "", app.Span().Class("share-record-owner").Text(owner)),
	)
}
