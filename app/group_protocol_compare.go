package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// protocolCompareAction asks the page to replay a change of the inspected
// group under each protocol (value: protocolChoice). The choice stays with
// the selection, so the replay follows every command while the group is
// inspected, and goes when another thing is selected.
const protocolCompareAction = "plog/protocol-compare"

// protocolChoice is the change a learner picked to replay: Kind is
// core.ChangeJoin (a new member, named when the replay runs), ChangeLeave
// or ChangeCrash of Member.
type protocolChoice struct {
	Group  string
	Kind   string
	Member string
	PollMs int64
}

// handleProtocolCompare keeps the learner's change with the selection and
// replays it.
func (p *Playground) handleProtocolCompare(ctx app.Context, a app.Action) {
	c, ok := a.Value.(protocolChoice)
	if !ok || !p.selected.inGroup(c.Group) {
		return
	}
	p.selected.Compare = c
	p.view.compareInspected(p.session, p.selected)
}

// replayPolls are the poll intervals a learner may pick for the replay's
// members.
var replayPolls = []int64{100, 1000, 5000, 30_000}

// GroupProtocolCompare lets the learner pick a change of the group (a
// member joins, leaves or crashes) and shows it replayed under classic
// eager, cooperative-sticky and the consumer protocol side by side: per
// partition a bar of the time no member consumed it, who owned it before
// and after, and the totals in words.
type GroupProtocolCompare struct {
	app.Compo

	Group   string
	Members []string // the running members, in the group's order
	Result  *ProtocolsCompared

	kind, member, poll string
	typedFor           string // the group kind, member and poll were chosen for
}

// Render draws [data-protocol-compare] with its form and, once the learner
// has replayed a change, a column [data-compare-protocol=eager|cooperative|
// consumer] per protocol, each partition [data-partition-stop=orders/0]
// with data-stopped-ms.
func (c *GroupProtocolCompare) Render() app.UI {
	if c.typedFor != c.Group {
		c.kind, c.member, c.poll, c.typedFor = "", "", "", c.Group
	}
	control := groupControl(c.Group, "protocol-compare")
	kind, member := c.kindOrDefault(), c.memberOrDefault()
	kinds := []struct{ value, text string }{
		{core.ChangeJoin, "a new member joins"},
		{core.ChangeLeave, "a member leaves"},
		{core.ChangeCrash, "a member crashes"},
	}
	poll := c.pollOrDefault()
	return app.Section().Class("protocol-compare").DataSet("protocol-compare", c.Group).
		Aria("labelledby", "protocol-compare-title").Body(
		app.H4().ID("protocol-compare-title").Body(app.Text("How long partitions stop, under each protocol "), &Help{Topic: "rebalance"}),
		app.Form().Class("protocol-compare-form").DataSet("control", control).
			Aria("label", "Replay a change of "+c.Group+" under each protocol").
			OnSubmit(c.submit).Body(
			app.Label().Body(
				app.Span().Text("change"),
				app.Select().Name("change").OnChange(textInto(&c.kind)).Body(
					app.Range(kinds).Slice(func(i int) app.UI {
						return app.Option().Value(kinds[i].value).Selected(kind == kinds[i].value).Text(kinds[i].text)
					}),
				),
			),
			app.Label().Body(
				app.Span().Text("member"),
				app.Select().Name("member").Disabled(kind == core.ChangeJoin).OnChange(textInto(&c.member)).Body(
					app.Range(c.Members).Slice(func(i int) app.UI {
						return app.Option().Value(c.Members[i]).Selected(member == c.Members[i]).Text(c.Members[i])
					}),
				),
			),
			app.Label().Body(
				app.Span().Text("members poll every"),
				app.Select().Name("poll").OnChange(textInto(&c.poll)).Body(
					app.Range(replayPolls).Slice(func(i int) app.UI {
						v := strconv.FormatInt(replayPolls[i], 10)
						return app.Option().Value(v).Selected(poll == replayPolls[i]).Text(units.Duration(replayPolls[i]))
					}),
				),
			),
			app.Button().Type("submit").Text("Replay side by side"),
		),
		app.P().Class("form-note").Text("The group does not change: each protocol replays the change on a copy of the engine, "+
			"with its own rules and timing (session timeouts for a crash, polls and rebalance timeouts, heartbeats and the assignment interval), "+
			"until the group is settled again. Each running member polls at the interval chosen, the first poll half an interval after the change."),
		c.renderResult(),
	)
}

func (c *GroupProtocolCompare) kindOrDefault() string {
	if c.kind != "" {
		return c.kind
	}
	if r := c.Result; r != nil {
		return r.Comparison.Change.Kind
	}
	return core.ChangeCrash
}

func (c *GroupProtocolCompare) memberOrDefault() string {
	for _, m := range c.Members {
		if m == c.member {
			return m
		}
	}
	if len(c.Members) > 0 {
		return c.Members[0]
	}
	return ""
}

func (c *GroupProtocolCompare) pollOrDefault() int64 {
	if n, err := strconv.ParseInt(c.poll, 10, 64); err == nil {
		return n
	}
	return core.DefaultReplayPollMs
}

func (c *GroupProtocolCompare) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	choice := protocolChoice{Group: c.Group, Kind: c.kindOrDefault(), PollMs: c.pollOrDefault()}
	if choice.Kind != core.ChangeJoin {
		choice.Member = c.memberOrDefault()
	}
	ctx.NewActionWithValue(protocolCompareAction, choice)
}

// protocolTitles name the columns, in short and in full.
var protocolTitles = map[string][2]string{
	core.ReplayEager:       {"Eager", "Classic protocol, eager rebalance"},
	core.ReplayCooperative: {"Cooperative", "Classic protocol, cooperative-sticky rebalance"},
	core.ReplayConsumer:    {"Consumer", "Consumer protocol (KIP-848)"},
}

func (c *GroupProtocolCompare) renderResult() app.UI {
	r := c.Result
	if r == nil {
		return app.P().Class("hint").Text("Pick a change and replay it to see, per protocol, which partitions stop and for how long.")
	}
	if r.Err != "" {
		return app.P().Class("control-error").Attr("role", "alert").Text("Cannot replay " + r.Change + ": " + r.Err)
	}
	replays := r.Comparison.Replays
	var scale int64 = 1 // the bars share one scale: the longest replay
	for _, rp := range replays {
		scale = max(scale, rp.DurationMs)
		for _, p := range rp.Partitions {
			for _, s := range p.Stops {
				scale = max(scale, s.ToMs)
			}
		}
	}
	var sums []string
	for _, rp := range replays {
		sums = append(sums, replayShort(rp))
	}
	return app.Div().Class("protocol-compare-result").DataSet("compare-change", r.Change).Body(
		app.P().Class("protocol-compare-summary").DataSet("protocol-compare-summary", true).Attr("role", "status").
			Text("If "+r.Change+", each member polling every "+units.Duration(r.Comparison.Change.PollIntervalMs)+": "+strings.Join(sums, "; ")+"."),
		app.Div().Class("protocol-columns").Body(
			app.Range(replays).Slice(func(i int) app.UI { return renderReplay(replays[i], scale) }),
		),
		app.If(len(replays) == 3 && replays[2].Unavailable == "", topicIDsNote()),
		app.P().Class("form-note").DataSet("protocol-compare-differs", true).Text(
			"Where plog simplifies: it counts no network time, and no time for the consumer's own work (a rebalance listener, "+
				"the client's reconciliation of the consumer protocol, commits); a classic member here rejoins a rebalance at its next poll, "+
				"where Kafka's first learns of it at a heartbeat (heartbeat.interval.ms, 3s). A protocol the group does not run replays "+
				"the group's running members rejoined under it, settled first, so it starts from its own assignment."),
	)
}

// replayShort says a replay's totals in a phrase.
func replayShort(rp core.ProtocolReplay) string {
	name := rp.Protocol
	if rp.Protocol == core.ReplayConsumer {
		name = "consumer protocol"
	}
	if rp.Unavailable != "" {
		return name + ": not replayed (" + rp.Unavailable + ")"
	}
	switch {
	case rp.Stopped == 0:
		return name + ": no partition stops"
	case rp.Stopped == len(rp.Partitions) && rp.Stopped > 1:
		return fmt.Sprintf("%s: all %d partitions stop, for up to %s", name, rp.Stopped, seconds(rp.LongestStopMs))
	}
	verb := "stop"
	if rp.Stopped == 1 {
		verb = "stops"
	}
	return fmt.Sprintf("%s: %s %s, for up to %s", name, units.Plural(int64(rp.Stopped), "partition"), verb, seconds(rp.LongestStopMs))
}

// seconds writes a duration in seconds with a tenth: 45.5 s.
func seconds(ms int64) string {
	return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64) + " s"
}

// renderReplay draws one protocol's column.
func renderReplay(rp core.ProtocolReplay, scale int64) app.UI {
	title := protocolTitles[rp.Protocol]
	col := app.Section().Class("protocol-column").DataSet("compare-protocol", rp.Protocol).
		Aria("label", title[1])
	if rp.Unavailable != "" {
		return col.DataSet("unavailable", true).Body(
			app.H5().Title(title[1]).Text(title[0]),
			app.P().Text("Not replayed: "+rp.Unavailable+"."),
		)
	}
	totals := fmt.Sprintf("%d of %d stop", rp.Stopped, len(rp.Partitions))
	if rp.Stopped > 0 {
		totals += ", up to " + seconds(rp.LongestStopMs)
	}
	settled := fmt.Sprintf("Settled after %s, %s.", seconds(rp.DurationMs), roundsText(rp))
	if !rp.Settled {
		settled = fmt.Sprintf("Not settled within %s, where the replay stops.", seconds(rp.DurationMs))
	}
	return col.DataSet("duration-ms", rp.DurationMs).DataSet("rounds", rp.Rounds).DataSet("stopped", rp.Stopped).
		DataSet("settled", rp.Settled).DataSet("rebuilt", rp.Rebuilt).Body(
		app.H5().Title(title[1]).Text(title[0]),
		app.P().Class("protocol-assignor").Text(rp.GroupProtocol+", "+rp.Assignor+rebuiltText(rp.Rebuilt)),
		app.P().Class("protocol-totals").Text(totals+". "+settled),
		app.Ul().Class("protocol-partitions").Body(
			app.Range(rp.Partitions).Slice(func(i int) app.UI { return renderPartitionStop(rp.Partitions[i], scale) }),
		),
	)
}

// rebuiltText marks a replay whose members rejoined under its protocol
// first (the note below the columns says why).
func rebuiltText(rebuilt bool) string {
	if rebuilt {
		return " (rejoined)"
	}
	return " (as it runs)"
}

func roundsText(rp core.ProtocolReplay) string {
	if rp.GroupProtocol == core.ProtocolConsumer {
		return units.Plural(int64(rp.Rounds), "target assignment")
	}
	return units.Plural(int64(rp.Rounds), "rebalance round")
}

// renderPartitionStop draws one partition's line: its name, its owners
// before and after, a bar where each stop is a dark span on the shared
// scale, and its stopped time in words (the bar says nothing the words do
// not; its title gives each stop's times).
func renderPartitionStop(p core.PartitionStop, scale int64) app.UI {
	name := p.Topic + "/" + strconv.Itoa(p.Partition)
	owners := stopOwner(p.Before)
	if p.Moved() {
		owners += " → " + stopOwner(p.After)
	}
	stopped, detail := "no stop", name+" never stops"
	if len(p.Stops) > 0 {
		var spans []string
		for _, s := range p.Stops {
			span := "from " + seconds(s.FromMs) + " to " + seconds(s.ToMs)
			if s.Open {
				span = "from " + seconds(s.FromMs) + " on, no member takes it"
			}
			spans = append(spans, span)
		}
		stopped = "stops " + seconds(p.StoppedMs)
		if p.Stops[len(p.Stops)-1].Open {
			stopped = "stops for good"
		}
		detail = name + " stops " + strings.Join(spans, ", then ") + " after the change"
	}
	var bars []app.UI
	for _, s := range p.Stops {
		left := float64(s.FromMs) * 100 / float64(scale)
		width := max(float64(s.ToMs-s.FromMs)*100/float64(scale), 0.5)
		bars = append(bars, app.Span().Class("stop-span").
			Style("left", strconv.FormatFloat(left, 'f', 2, 64)+"%").
			Style("width", strconv.FormatFloat(width, 'f', 2, 64)+"%"))
	}
	return app.Li().DataSet("partition-stop", name).DataSet("stopped-ms", p.StoppedMs).
		DataSet("before", p.Before).DataSet("after", p.After).DataSet("moved", p.Moved()).Title(detail).Body(
		app.Span().Class("partition-stop-name").Text(name+" "+owners),
		app.Span().Class("stop-bar").Aria("hidden", "true").Body(bars...),
		app.Span().Class("partition-stopped").Text(stopped),
	)
}

func stopOwner(member string) string {
	if member == "" {
		return "nobody"
	}
	return member
}

// topicIDsNote says why a real cluster's consumer-protocol assignment may
// differ from plog's: the server assignors order topics by their ids.
func topicIDsNote() app.UI {
	return app.P().Class("form-note").DataSet("topic-ids-note", true).Text(
		"The consumer protocol's assignors (uniform, range) order topics by their topic ids: plog makes each topic's id from its name, " +
			"a real cluster draws a random one, so a real cluster may give the same members other partitions.")
}

// runningMembers names the group's running members: those a change can
// replay leaving or crashing.
func runningMembers(g GroupSnapshot) []string {
	var running []string
	for _, m := range g.Members {
		if m.Down == "" {
			running = append(running, m.ID)
		}
	}
	return running
}

// consumerAssignorNote is what the inspector says of a consumer group's
// assignor, with the note on topic ids.
func consumerAssignorNote(g GroupSnapshot) app.UI {
	return app.Div().Class("inspector-assignor").DataSet("inspector-assignor", g.Assignor).Body(
		app.P().Text("Protocol consumer (KIP-848): the coordinator assigns, with the server assignor "+g.Assignor+"."),
		topicIDsNote(),
	)
}
