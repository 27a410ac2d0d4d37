package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

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
	// LockExpired are the records of its last poll it no longer holds:
	// their acquisition locks expired, so they are available to the
	// group again (lockExpired).
	LockExpired []core.ShareHeld

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
		app.P().Class("share-member-held").Text(shareHeldText(v, m.LockExpired)),
		app.If(!crashed,
			app.Div().Class("member-controls").Body(
				app.Label().Body(
					app.Span().Text("max"),
					app.Input().Type("text").Name("max").Class("poll-max").Size(4).
						Attr("inputmode", "numeric").Value(m.max).Placeholder(strconv.Itoa(v.MaxPoll)).
						Aria("label", "Most records "+v.Name+" polls at once").
						OnInput(textInto(&m.max)),
				),
				m.button("share-poll", scenario.CmdSharePoll, "Poll", "Poll "+v.Name, rolePrimary),
				app.If(explicit,
					m.button(core.AckAccept, scenario.CmdAcknowledge, "Accept", "Accept "+v.Name+"'s last poll", roleSecondary),
					m.button(core.AckRelease, scenario.CmdAcknowledge, "Release", "Release "+v.Name+"'s last poll", roleSecondary),
					m.button(core.AckReject, scenario.CmdAcknowledge, "Reject", "Reject "+v.Name+"'s last poll", roleSecondary),
					m.button(core.AckRenew, scenario.CmdAcknowledge, "Renew", "Renew "+v.Name+"'s last poll", roleSecondary),
				),
				m.button("share-leave", scenario.CmdShareLeave, "Leave", "Leave "+v.Name, roleSecondary),
				m.button("crash", scenario.CmdCrash, "Crash", "Crash "+v.Name, roleDanger),
			),
		).Else(
			app.Div().Class("member-controls").Body(
				m.button("come-back", scenario.CmdShareJoin, "Restart as "+m.ComeBackID,
					"Restart as "+m.ComeBackID+": a new share consumer with "+v.Name+"'s topics and configs", rolePrimary),
			),
		),
		&ControlError{Control: m.control()},
	)
}

// shareHeldText is the caption of what a share member's last poll
// returned: each record, and whether it was acknowledged, renewed, or has
// left the member as its lock expired (expired, from lockExpired). A
// record whose lock expired is Available to the group again, and another
// member may hold it: the card must not say this one still does.
func shareHeldText(v core.ShareMemberView, expired []core.ShareHeld) string {
	if len(v.Holding) == 0 {
		return "holds nothing from its last poll"
	}
	var parts []string
	for _, h := range v.Holding {
		s := fmt.Sprintf("%s/%d@%d", h.Topic, h.Partition, h.Offset)
		switch {
		case slices.ContainsFunc(expired, func(e core.ShareHeld) bool { return e.TopicPartition == h.TopicPartition && e.Offset == h.Offset }):
			s += " (lock expired)"
		case h.Renewed:
			s += " (renewed)"
		case h.Acknowledged:
			s += " (acknowledged)"
		}
		parts = append(parts, s)
	}
	return "last poll: " + strings.Join(parts, ", ")
}

// lockExpired lists the records of a member's last poll, not acknowledged
// since, that it no longer holds: no longer acquired by it in their
// share-partition, as their acquisition locks expired
// (group.share.record.lock.duration.ms).
func lockExpired(g core.ShareGroupView, m core.ShareMemberView) []core.ShareHeld {
	var expired []core.ShareHeld
	for _, h := range m.Holding {
		if h.Acknowledged {
			continue
		}
		held := false
		for _, p := range g.Partitions {
			if p.TopicPartition != h.TopicPartition {
				continue
			}
			for _, r := range p.InFlight {
				held = held || r.Offset == h.Offset && r.State == core.RecordAcquired && r.Member == m.Name
			}
		}
		if !held {
			expired = append(expired, h)
		}
	}
	return expired
}

// control names the member's controls, for their errors:
// "share/workers/s1".
func (m *ShareMember) control() string {
	return "share/" + m.Group + "/" + m.Member.Name
}

// button is one of the member's controls; data-action names it for tests.
func (m *ShareMember) button(action, command, text, label string, role buttonRole) app.UI {
	return app.Button().
		Type("button").
		Class(role.classes()...).
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
