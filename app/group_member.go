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

// GroupMember shows one member of a group: its assignment, its positions,
// whether it is idle or stopped, and its controls: poll (with a max), commit,
// leave, crash, and come back for a stopped member.
type GroupMember struct {
	app.Compo

	Group    string
	Strategy string
	Now      int64
	Member   core.MemberView
	// ComeBackID is the id the member comes back under once stopped: itself
	// for a static member, a new id for a dynamic one; "" while running.
	ComeBackID string
	// Order is the member's place, from 1, in the order the assignors take
	// the running members (core.GroupView.AssignorOrder); 0 for a stopped
	// member.
	Order int
	// Leaving and Arriving list, as data-assigned does, the member's
	// partitions a running rebalance has stopped and those it gained in
	// the group's last rebalance (GroupSnapshot.movingOf).
	Leaving, Arriving string
	// Selected is set while the member is open in the inspector.
	Selected bool

	max      string // the poll's max, as typed
	maxTyped bool   // the learner has typed in the max field
	maxOf    string // the member the typed max was typed for
}

// defaultPollMax is what the max field suggests: a few records at a time
// show lag and commits better than Kafka's 500.
const defaultPollMax = "5"

// Render draws the member with docs/ARCHITECTURE.md's [data-member] and data-assigned,
// plus data-idle on an idle member and data-down on a stopped one, and why
// its last poll got nothing ([data-poll-empty]) when it did; a
// consumer-protocol member's data-member-epoch and data-member-state, and
// its target and pending moves (group_member_consumer.go).
func (m *GroupMember) Render() app.UI {
	v := m.Member
	if m.maxOf != v.ID {
		// go-app hands a list's components to its items by position: when
		// a member before this one leaves, this component shows the next
		// member, who must not poll with the max typed for the one gone.
		m.max, m.maxTyped, m.maxOf = "", false, v.ID
	}
	li := app.Li().
		Class("member").
		DataSet("member", v.ID).
		DataSet("assigned", partitionList(v.Assignment)).
		Aria("label", "Member "+v.ID)
	if v.Idle {
		li = li.DataSet("idle", "true")
	}
	if v.Down != "" {
		li = li.DataSet("down", v.Down)
	}
	if v.InstanceID != "" {
		li = li.DataSet("instance", v.InstanceID)
	}
	if v.MemberID != "" {
		li = li.DataSet("member-id", v.MemberID)
	}
	if v.MemberState != "" {
		li = li.DataSet("member-epoch", v.Epoch).DataSet("member-state", v.MemberState)
	}
	if m.Order > 0 {
		li = li.DataSet("assignor-order", m.Order)
	}
	if m.Selected {
		li = li.DataSet("selected", "true")
	}
	group, id := m.Group, v.ID
	highlight := func(on bool) app.EventHandler {
		return func(ctx app.Context, e app.Event) { highlightAssignment(group, id, on) }
	}
	li = li.OnMouseEnter(highlight(true), group, id).OnMouseLeave(highlight(false), group, id).
		On("focusin", highlight(true), group, id).On("focusout", highlight(false), group, id)
	return li.Body(
		app.Div().Class("member-head").Body(
			app.Button().Type("button").Class("member-select", "member-id").DataSet("action", "inspect-member").
				Aria("controls", "dock-inspector").
				Title("Open "+v.ID+" in the inspector: its assignment, positions, commits and member id").
				OnClick(selectThing(selection{Kind: selectMember, Group: group, Member: id}), group, id).Text(v.ID),
			app.If(v.MemberID != "",
				app.Span().Class("member-kafka-id").Title("member id "+v.MemberID).Body(
					app.Text("member id "),
					app.Code().Text(shortMemberID(v.MemberID)),
				),
			),
			app.If(m.Order > 0,
				app.Span().Class("member-order").Body(
					// The card has room for "#1" alone; the words are
					// read out, and the help says what the order is.
					&Help{Topic: "member-ordering", Label: fmt.Sprintf("#%d", m.Order)},
					app.Span().Class("visually-hidden").Text(" for the assignors"),
				),
			),
			app.If(v.InstanceID != "",
				app.Span().Class("member-instance").Body(
					&Help{Topic: "static-membership", Label: "static, instance " + v.InstanceID},
				),
			),
			app.If(v.Idle,
				app.Span().Class("member-badge").DataSet("badge", "idle").Body(
					&Help{Topic: "idle-member", Label: "idle"},
				),
			),
			app.If(v.Down != "",
				app.Span().Class("member-badge").DataSet("badge", "down").Body(
					&Help{Topic: "session-timeout", Label: m.downText()},
				),
			),
			m.renderPollDeadline(),
		),
		app.P().Class("member-assignment").
			Title(moreListedTitle(len(m.Member.Assignment))).
			Text(assignmentText(v)),
		m.renderConsumerState(),
		m.renderMoving(),
		app.If(v.EmptyPoll != "" && v.Down == "",
			app.P().Class("member-poll-empty").DataSet("poll-empty", "true").Title(
				"Its poll at "+units.Format(v.EmptyPollAt, units.Durations, "0s")+" got nothing: "+v.EmptyPoll+".").Text(
				"Its poll at "+units.Format(v.EmptyPollAt, units.Durations, "0s")+" got nothing: "+v.EmptyPoll+"."),
		),
		app.If(v.Down == "",
			app.Div().Class("member-controls").Body(
				app.Label().Body(
					app.Span().Text("max"),
					app.Input().Type("text").Name("max").Class("poll-max").Size(4).
						Attr("inputmode", "numeric").Value(m.maxText()).
						Aria("label", "Most records "+v.ID+" polls at once").
						OnInput(m.onMax),
				),
				m.button(scenario.CmdPoll, "Poll", "Poll "+v.ID, rolePrimary),
				m.button(scenario.CmdCommit, "Commit", "Commit "+v.ID, roleSecondary),
				m.button(scenario.CmdLeave, "Leave", "Leave "+v.ID, roleSecondary),
				m.button(scenario.CmdCrash, "Crash", "Crash "+v.ID, roleDanger),
			),
		).Else(
			app.Div().Class("member-controls").Body(
				m.button("come-back", m.comeBackLabel(), m.comeBackLabel(), rolePrimary),
			),
		),
		&ControlError{Control: groupControl(m.Group, "member", m.Member.ID)},
	)
}

// renderMoving says which of the member's partitions a rebalance moves, as
// its lanes' assignment marks draw them.
func (m *GroupMember) renderMoving() app.UI {
	if m.Leaving == "" && m.Arriving == "" {
		return nil
	}
	words := func(list string) string { return strings.ReplaceAll(list, " ", ", ") }
	return app.P().Class("member-moving").Body(
		app.If(m.Leaving != "",
			app.Span().DataSet("leaving", m.Leaving).Text("stopped by the rebalance: "+words(m.Leaving)),
		),
		app.If(m.Arriving != "",
			app.Span().DataSet("arriving", m.Arriving).Text("gained in the last rebalance: "+words(m.Arriving)),
		),
	)
}

// button is one of the member's controls; data-action names it for tests.
// Its accessible name starts with its visible text, so that speaking the
// text it shows selects it.
func (m *GroupMember) button(action, text, label string, role buttonRole) app.UI {
	return app.Button().
		Type("button").
		Class(role.classes()...).
		DataSet("action", action).
		DataSet("command", memberCommand(action)).
		Aria("label", label).
		OnClick(func(ctx app.Context, e app.Event) { m.act(ctx, action) }).
		Text(text)
}

// act sends the command of one of the member's controls.
func (m *GroupMember) act(ctx app.Context, action string) {
	line, problem := m.line(action)
	sendGroupLine(ctx, groupControl(m.Group, "member", m.Member.ID), line, problem)
}

// line makes the command of an action, or says what is wrong with the input.
func (m *GroupMember) line(action string) (string, string) {
	v := m.Member
	member := word(m.Group) + " " + word(v.ID)
	switch action {
	case scenario.CmdPoll:
		max, err := strconv.Atoi(strings.TrimSpace(m.maxText()))
		if err != nil || max < 1 {
			return "", fmt.Sprintf("max must be a whole number of records, 1 or more, not %q.", m.maxText())
		}
		return fmt.Sprintf("%s %s max=%d", scenario.CmdPoll, member, max), ""
	case scenario.CmdCommit:
		if v.MemberState != "" {
			// A consumer group member's commit carries its member epoch
			// (core.CommitWithEpoch).
			return fmt.Sprintf("%s %s epoch=%d", action, member, v.Epoch), ""
		}
		return action + " " + member, ""
	case scenario.CmdLeave, scenario.CmdCrash:
		return action + " " + member, ""
	case "come-back":
		line := scenario.CmdJoin + " " + word(m.Group) + " " + word(m.ComeBackID) + " topics=" + word(strings.Join(v.Topics, ","))
		if m.Strategy != "" {
			line += " strategy=" + word(m.Strategy)
		}
		if v.InstanceID != "" {
			line += " instance=" + word(v.InstanceID)
		}
		if v.Protocol == core.ProtocolConsumer && v.MemberState != "" {
			line += " group.protocol=" + core.ProtocolConsumer
			if v.RemoteAssignor != "" {
				line += " group.remote.assignor=" + v.RemoteAssignor
			}
		}
		return line, ""
	}
	return "", "unknown action " + action
}

func (m *GroupMember) onMax(ctx app.Context, e app.Event) {
	m.max, m.maxTyped = ctx.JSSrc().Get("value").String(), true
}

func (m *GroupMember) maxText() string {
	if !m.maxTyped {
		return defaultPollMax
	}
	return m.max
}

func (m *GroupMember) comeBackLabel() string {
	if m.Member.InstanceID != "" {
		return "Come back as " + m.Member.ID
	}
	return "Restart as " + m.ComeBackID
}

// downText says why a member stopped and how long the group waits for it.
func (m *GroupMember) downText() string {
	v := m.Member
	wait := v.SessionExpiresAt - m.Now
	if wait < 0 {
		wait = 0
	}
	return fmt.Sprintf("%s · session expires in %s", v.Down, units.Duration(wait))
}

// assignmentListed is the most partitions a member's card lists.
const assignmentListed = 24

// moreListedTitle says where to see the partitions a card leaves out of a
// list of n, "" when it lists them all.
func moreListedTitle(n int) string {
	if n <= assignmentListed {
		return ""
	}
	return lanesShowOwners
}

// lanesShowOwners says where to see what a list leaves out.
const lanesShowOwners = "the lanes show every partition, each with the member that owns it"

// assignmentText is the caption of a member's assignment: its partitions,
// each with its position (the next offset it reads) when it has one.
func assignmentText(v core.MemberView) string {
	if len(v.Assignment) == 0 {
		return "no partitions"
	}
	// A member may own thousands of partitions: the card lists the first
	// few, and says how many more (the lanes and the inspector show them).
	shown := v.Assignment[:min(len(v.Assignment), assignmentListed)]
	parts := make([]string, len(shown))
	for i, tp := range shown {
		parts[i] = tp.String()
		for _, pos := range v.Positions {
			if pos.Topic == tp.Topic && pos.Partition == tp.Partition {
				parts[i] += " @" + strconv.FormatInt(pos.Offset, 10)
			}
		}
	}
	text := strings.Join(parts, ", ")
	if more := len(v.Assignment) - len(shown); more > 0 {
		text += fmt.Sprintf(" and %d more partitions", more)
	}
	return text
}

// memberCommand is the command a member's control sends: coming back is a
// join.
func memberCommand(action string) string {
	if action == "come-back" {
		return scenario.CmdJoin
	}
	return action
}

// shortMemberID writes a member id with its UUID cut to its first group,
// c1-3c71ee8a…: enough to tell members apart and to see where the order
// comes from; the full id is the title and data-member-id.
func shortMemberID(id string) string {
	const uuidLen = 36 // 8-4-4-4-12 hex digits
	if len(id) <= uuidLen+1 {
		return id
	}
	return id[:len(id)-uuidLen+8] + "…"
}

// renderPollDeadline says, from rules 4, when a running member leaves the
// group unless it polls, [data-poll-deadline=NAME] with data-at
// (max.poll.interval.ms, core/group_timing.go); nothing under older rules,
// where members have no poll deadline.
func (m *GroupMember) renderPollDeadline() app.UI {
	v := m.Member
	if v.PollDeadline <= 0 || v.Down != "" {
		return nil
	}
	return app.Span().Class("member-poll-deadline").
		DataSet("poll-deadline", v.ID).
		DataSet("at", v.PollDeadline).
		Title(fmt.Sprintf("%s leaves the group unless it polls by %s on the virtual clock (in %s): max.poll.interval.ms", v.ID,
			units.Duration(v.PollDeadline), units.Duration(max(v.PollDeadline-m.Now, 0)))).
		Body(&Help{Topic: "max-poll-interval", Label: pollDeadlineText(v, m.Now)})
}

// pollDeadlineText is the caption of a member's poll deadline: the time
// left at now. A moment on the virtual clock ("must poll by 307s") read as
// a duration to new learners; the moment is in the title.
func pollDeadlineText(v core.MemberView, now int64) string {
	return "must poll within " + units.SpanToSecond(max(v.PollDeadline-now, 0))
}
