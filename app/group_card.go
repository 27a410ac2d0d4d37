package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupCard shows one consumer group: its state and generation, its members
// with their assignments and controls, the lag per partition, the rebalance
// in progress or the last one, its configuration and the offsets reset.
type GroupCard struct {
	app.Compo

	Group GroupSnapshot

	memberStart int             // the first member drawn
	known       map[string]bool // the members at the last render, to follow a new one (followNew)
}

// membersShown is how many members a card draws at once (list_window.go).
const membersShown = 12

// Render draws the card with docs/ARCHITECTURE.md's [data-group] and the attributes
// tests read: data-state, data-generation, data-lag (records over the
// partitions with a commit) and data-alert.
func (c *GroupCard) Render() app.UI {
	g := c.Group
	ids := make([]string, len(g.Members))
	for i, m := range g.Members {
		ids[i] = m.ID
	}
	c.memberStart, c.known = followNew(c.memberStart, membersShown, ids, c.known)
	members := windowAt(c.memberStart, membersShown, len(g.Members))
	shownMembers := g.Members[members.start:members.end()]
	return app.Article().
		Class("group").
		DataSet("group", g.Name).
		DataSet("state", g.State).
		DataSet("generation", g.Generation).
		DataSet("strategy", g.Strategy).
		DataSet("lag", g.TotalLag).
		DataSet("time-lag-ms", g.MaxTimeLagMs).
		DataSet("alert", g.Alert).
		DataSet("auto-commit", g.Config.AutoCommit).
		DataSet("delivery", g.Config.Delivery).
		Aria("label", "Group "+g.Name).
		Body(
			app.Header().Class("group-head").Body(
				app.H3().Text(g.Name),
				app.Span().Class("group-state").DataSet("badge", g.State).Text(g.State),
				app.Span().Class("group-generation").Body(
					app.Text(fmt.Sprintf("generation %d", g.Generation)),
					&Help{Topic: "generation"},
				),
				app.Span().Class("group-strategy").Body(
					app.Text(g.Strategy),
					&Help{Topic: strategyHelp(g.Strategy)},
				),
			),
			c.renderLagSummary(),
			&GroupRebalance{Group: g.Name, Now: g.Now, Rebalance: g.Rebalance, Last: g.LastRebalance, Members: g.Members},
			app.H4().Body(app.Text("Members "), &Help{Topic: "member-ordering"}),
			app.If(len(g.Members) == 0,
				app.P().Class("group-no-members").Text("No members: the group only keeps its committed offsets."),
			),
			windowNav("members-"+g.Name, "members", members, func(ctx app.Context, start int) { c.memberStart = start }),
			app.Ul().Class("members").Body(
				app.Range(shownMembers).Slice(func(i int) app.UI {
					m := shownMembers[i]
					return &GroupMember{
						Group: g.Name, Strategy: g.Strategy, Now: g.Now, Member: m,
						ComeBackID: comeBackID(g, m), Order: slices.Index(g.AssignorOrder, m.ID) + 1,
					}
				}),
			),
			&GroupLagTable{Group: g.Name, Partitions: g.Partitions},
			&GroupDeliveries{Totals: g.Totals, Deliveries: g.Deliveries},
			&GroupConfigForm{Group: g.Name, Config: g.Config},
			&GroupResetForm{Group: g.Name, Active: g.ActiveMembers},
			&GroupCommitForm{Group: g.Name, Partitions: groupPartitions(g), Refused: g.OutsideCommitRefused},
			&GroupMovement{Group: g.Name, Movements: g.Movements},
		)
}

// renderLagSummary says how far behind the group is, and lights the alert
// when a threshold is crossed.
func (c *GroupCard) renderLagSummary() app.UI {
	g := c.Group
	hasCommit := false
	for _, p := range g.Partitions {
		hasCommit = hasCommit || p.HasCommitted
	}
	text := "lag - (nothing committed yet)"
	if hasCommit {
		text = fmt.Sprintf("lag %s · %s behind", units.Plural(g.TotalLag, "record"),
			units.Duration(g.MaxTimeLagMs))
	}
	var thresholds []string
	if g.Config.LagAlertRecords > 0 {
		thresholds = append(thresholds, fmt.Sprintf("%d records", g.Config.LagAlertRecords))
	}
	if g.Config.LagAlertMs > 0 {
		thresholds = append(thresholds, units.Duration(g.Config.LagAlertMs))
	}
	return app.Div().Class("group-lag").Body(
		app.P().Body(
			app.Span().DataSet("group-lag", g.Name).Text(text),
			&Help{Topic: "lag"},
			app.If(len(thresholds) > 0,
				app.Span().Class("lag-threshold").Text(" · alert at "+strings.Join(thresholds, " or ")),
			),
		),
		app.If(g.Alert,
			app.P().Class("lag-alert").DataSet("lag-alert", g.Name).Attr("role", "status").Body(
				app.Strong().Text("Lag alert: "),
				app.Text(g.AlertReason),
				&Help{Topic: "lag-alert"},
			),
		),
	)
}

// strategyHelp is the help topic of a strategy name.
func strategyHelp(strategy string) string {
	if _, ok := helpTopics[strategy]; ok {
		return strategy
	}
	return "strategy"
}

// comeBackID is the member id a stopped member comes back under. A static
// member comes back as itself, with its instance id, and takes its
// partitions back. A dynamic member that crashed stays in the group until
// its session times out; a restarted consumer joins with a new id.
func comeBackID(g GroupSnapshot, m core.MemberView) string {
	if m.Down == "" {
		return ""
	}
	if m.InstanceID != "" {
		return m.ID
	}
	return newMemberID(g.Members)
}

// partitionList writes partitions as "orders/0 orders/1", the form of
// data-assigned.
func partitionList(tps []core.TopicPartition) string {
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = tp.Topic + "/" + strconv.Itoa(tp.Partition)
	}
	return strings.Join(parts, " ")
}

// groupPartitions lists the partitions a group has a view of, as
// "orders/0", for the explicit commit's picker.
func groupPartitions(g GroupSnapshot) []string {
	names := make([]string, len(g.Partitions))
	for i, p := range g.Partitions {
		names[i] = p.Topic + "/" + strconv.Itoa(p.Partition)
	}
	return names
}
