package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"
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
				app.Span().Class("share-group-state").Text(fmt.Sprintf("%s, epoch %d", g.State, g.GroupEpoch)),
				app.Button().Type("button").Class("small").DataSet("action", "share-compare").
					Title("Run one workload through a consumer group and through "+g.Name+", side by side: who gets what, in which order, and what a crash costs each").
					OnClick(selectThing(selection{Kind: selectShareGroup, Group: g.Name, ShareCompare: defaultShareCompare(g.Name, runningShareMembers(g))}), g.Name, strings.Join(runningShareMembers(g), ",")).
					Text("Compare with a consumer group"),
			),
			app.Ul().Class("share-members").Body(
				app.Range(g.Members).Slice(func(i int) app.UI {
					return &ShareMember{Group: g.Name, Member: g.Members[i], ComeBackID: shareComeBackID(g, g.Members[i])}
				}),
			),
			app.Range(g.Partitions).Slice(func(i int) app.UI {
				return renderSharePartition(g.Partitions[i], c.Now)
			}),
			&ShareGroupConfigForm{Group: g.Name, Configs: g.Configs},
		)
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
				app.Text(fmt.Sprintf(" SPSO %d, SPEO %d, share lag %d", p.StartOffset, p.EndOffset, p.Lag)),
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

// ShareMember is one member of a share group: its assignment, the records
// its last poll returned, and its buttons: Poll (with a max), Accept,
// Release, Reject and Renew (explicit mode: each acknowledges what the
// last poll returned and is not acknowledged yet), Leave and Crash.
// A crashed member's card offers to restart it: the process comes back
// as a new share consumer, under the next free name, with the same
// subscription and configs (the crashed one stays in the group until its
// session times out, so its name is taken until then).
// Tests read data-share-member, data-ack-mode and data-crashed.
type ShareMember struct {
	app.Compo

	Group  string
	Member core.ShareMemberView
	// ComeBackID is the name a crashed member restarts under; "" while it
	// runs.
	ComeBackID string

	max   string // the poll's max, as typed
	maxOf string // the member the typed max was typed for
}

// Render draws the member.
func (m *ShareMember) Render() app.UI {
	v := m.Member
	if m.maxOf != v.Name {
		// go-app hands a list's components to its items by position.
		m.max, m.maxOf = "", v.Name
	}
	crashed := v.CrashedAt >= 0
	li := app.Li().
		Class("member", "share-member").
		DataSet("share-member", v.Name).
		DataSet("ack-mode", v.AckMode).
		DataSet("assigned", partitionList(v.Assignment)).
		Aria("label", "Share member "+v.Name)
	if crashed {
		li = li.DataSet("crashed", "true")
	}
	held := "holds nothing from its last poll"
	if len(v.Holding) > 0 {
		var parts []string
		for _, h := range v.Holding {
			s := fmt.Sprintf("%s/%d@%d", h.Topic, h.Partition, h.Offset)
			switch {
			case h.Renewed:
				s += " (renewed)"
			case h.Acknowledged:
				s += " (acknowledged)"
			}
			parts = append(parts, s)
		}
		held = "last poll: " + strings.Join(parts, ", ")
	}
	explicit := v.AckMode == core.AckModeExplicit
	return li.Body(
		app.Div().Class("member-head").Body(
			app.Span().Class("member-id").Text(v.Name),
			app.Span().Class("member-badge").DataSet("badge", "ack-mode").Text(v.AckMode),
			app.If(crashed,
				app.Span().Class("member-badge").DataSet("badge", "down").
					Text("crashed at "+units.Format(v.CrashedAt, units.Durations, "0s")),
			),
		),
		app.P().Class("member-assignment").Text("reads "+strings.ReplaceAll(partitionList(v.Assignment), " ", ", ")),
		app.P().Class("share-member-held").Text(held),
		app.If(!crashed,
			app.Div().Class("member-controls").Body(
				app.Label().Body(
					app.Span().Text("max"),
					app.Input().Type("text").Name("max").Class("poll-max").Size(4).
						Attr("inputmode", "numeric").Value(m.max).Placeholder(strconv.Itoa(v.MaxPoll)).
						Aria("label", "Most records "+v.Name+" polls at once").
						OnInput(textInto(&m.max)),
				),
				m.button("share-poll", scenario.CmdSharePoll, "Poll", "Poll "+v.Name),
				app.If(explicit,
					m.button(core.AckAccept, scenario.CmdAcknowledge, "Accept", "Accept "+v.Name+"'s last poll"),
					m.button(core.AckRelease, scenario.CmdAcknowledge, "Release", "Release "+v.Name+"'s last poll"),
					m.button(core.AckReject, scenario.CmdAcknowledge, "Reject", "Reject "+v.Name+"'s last poll"),
					m.button(core.AckRenew, scenario.CmdAcknowledge, "Renew", "Renew "+v.Name+"'s last poll"),
				),
				m.button("share-leave", scenario.CmdShareLeave, "Leave", "Leave "+v.Name),
				m.button("crash", scenario.CmdCrash, "Crash", "Crash "+v.Name),
			),
		).Else(
			app.Div().Class("member-controls").Body(
				m.button("come-back", scenario.CmdShareJoin, "Restart as "+m.ComeBackID,
					"Restart as "+m.ComeBackID+": a new share consumer with "+v.Name+"'s topics and configs"),
			),
		),
		&ControlError{Control: m.control()},
	)
}

// control names the member's controls, for their errors:
// "share/workers/s1".
func (m *ShareMember) control() string {
	return "share/" + m.Group + "/" + m.Member.Name
}

// button is one of the member's controls; data-action names it for tests.
func (m *ShareMember) button(action, command, text, label string) app.UI {
	return app.Button().
		Type("button").
		DataSet("action", action).
		DataSet("command", command).
		Aria("label", label).
		OnClick(func(ctx app.Context, e app.Event) { m.act(ctx, action) }).
		Text(text)
}

// act sends the lines of one of the member's controls.
func (m *ShareMember) act(ctx app.Context, action string) {
	lines, problem := m.lines(action)
	if problem != "" {
		setControlError(ctx, ControlAlert{Control: m.control(), Message: problem})
		return
	}
	ApplyFrom(ctx, m.control(), lines...)
}

// lines makes the commands of an action, or says what is wrong with the
// input. An acknowledgement names, partition by partition, the records the
// last poll returned that are not acknowledged yet.
func (m *ShareMember) lines(action string) ([]string, string) {
	v := m.Member
	member := word(m.Group) + " " + word(v.Name)
	switch action {
	case "share-poll":
		text := strings.TrimSpace(m.max)
		if text == "" {
			return []string{scenario.CmdSharePoll + " " + member}, ""
		}
		max, err := strconv.Atoi(text)
		if err != nil || max < 1 {
			return nil, fmt.Sprintf("max must be a whole number of records, 1 or more, not %q.", m.max)
		}
		return []string{fmt.Sprintf("%s %s max=%d", scenario.CmdSharePoll, member, max)}, ""
	case core.AckAccept, core.AckRelease, core.AckReject, core.AckRenew:
		var order []core.TopicPartition
		offsets := map[core.TopicPartition][]string{}
		for _, h := range v.Holding {
			if h.Acknowledged {
				continue
			}
			if offsets[h.TopicPartition] == nil {
				order = append(order, h.TopicPartition)
			}
			offsets[h.TopicPartition] = append(offsets[h.TopicPartition], strconv.FormatInt(h.Offset, 10))
		}
		if len(order) == 0 {
			return nil, v.Name + " holds no records to acknowledge: poll first."
		}
		var lines []string
		for _, tp := range order {
			lines = append(lines, fmt.Sprintf("%s %s %s %s/%d offsets=%s", scenario.CmdAcknowledge, member, action,
				tp.Topic, tp.Partition, strings.Join(offsets[tp], ",")))
		}
		return lines, ""
	case "share-leave":
		return []string{scenario.CmdShareLeave + " " + member}, ""
	case "crash":
		return []string{scenario.CmdCrash + " " + member}, ""
	case "come-back":
		if m.ComeBackID == "" {
			return nil, v.Name + " runs: only a crashed member restarts."
		}
		line := fmt.Sprintf("%s %s %s topics=%s share.acknowledgement.mode=%s max.poll.records=%d", scenario.CmdShareJoin,
			word(m.Group), word(m.ComeBackID), word(strings.Join(v.Topics, ",")), v.AckMode, v.MaxPoll)
		return []string{line}, ""
	}
	return nil, "unknown action " + action
}
