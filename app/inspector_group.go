package app

import (
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// groupDetails draws the selected group, or the selected member with its
// group, from the groups at this step.
func (in *Inspector) groupDetails() app.UI {
	s := in.Selected
	for _, g := range in.Groups {
		if g.Name == s.Group {
			return &GroupInspector{Group: g, Lag: in.Lag, Member: s.Member}
		}
	}
	return app.P().Class("hint").Text("Group " + s.Group + " does not exist at this step.")
}

// GroupInspector is a group's details and settings in the inspector,
// opened by the group's name or a member's in the groups column: the
// member's client.id, member id, instance id, subscription, assignment,
// positions and committed offsets; the group's configs beside Kafka's
// defaults, with the values changed from the defaults marked, and the form
// that sets them; resetting offsets; committing a partition's offset by
// hand; the lag table, deliveries, lag chart and what each strategy would
// move.
type GroupInspector struct {
	app.Compo

	Group GroupSnapshot
	Lag   []scenario.LagSample // the session's LagHistory, for the lag chart
	// Member is the member selected, "" for the group alone.
	Member string
}

// Render draws the member, if one is selected, above the group.
func (i *GroupInspector) Render() app.UI {
	g := i.Group
	return app.Div().Class("inspector-details", "group-details").Body(
		app.If(i.Member != "", i.renderMember()),
		app.If(g.Protocol == core.ProtocolConsumer, consumerAssignorNote(g)),
		configTable(core.OnGroup, g.Config.Entries(), g.Rules),
		&GroupConfigForm{Group: g.Name, Config: g.Config},
		&GroupResetForm{Group: g.Name, Active: g.ActiveMembers},
		&GroupCommitForm{Group: g.Name, Partitions: groupPartitions(g), Refused: g.OutsideCommitRefused},
		&GroupLagTable{Group: g.Name, Partitions: g.Partitions},
		&GroupDeliveries{Totals: g.Totals, Deliveries: g.Deliveries},
		&LagChart{Group: g.Name, Samples: i.Lag, AlertRecords: g.Config.LagAlertRecords},
		&GroupMovement{Group: g.Name, Movements: g.Movements, Running: runningMembers(g), Protocols: g.Protocols},
		&GroupLifecycle{Group: g},
	)
}

// renderMember shows the member open in the inspector: what the card has no
// room for.
func (i *GroupInspector) renderMember() app.UI {
	g := i.Group
	var v core.MemberView
	found := false
	for _, m := range g.Members {
		if m.ID == i.Member {
			v, found = m, true
		}
	}
	if !found {
		return app.P().Class("hint").Text(i.Member + " is not a member of " + g.Name + " at this step.")
	}
	committed := map[string]core.PartitionView{}
	for _, p := range g.Partitions {
		committed[p.Topic+"/"+strconv.Itoa(p.Partition)] = p
	}
	state := "running"
	if v.Down != "" {
		state = v.Down
	}
	memberID := v.MemberID
	if memberID == "" {
		memberID = "none under these rules (the assignors order members by name)"
	}
	instance := v.InstanceID
	if instance == "" {
		instance = "none: a dynamic member"
	}
	return app.Div().Class("inspector-member").DataSet("inspector-member", v.ID).Body(
		app.Dl().Body(
			app.Dt().Text("client.id"), app.Dd().Text(v.ID),
			app.Dt().Text("member id"), app.Dd().DataSet("inspector-member-id", v.MemberID).Text(memberID),
			app.Dt().Text("group.instance.id"), app.Dd().Text(instance),
			app.Dt().Text("subscription"), app.Dd().Text(strings.Join(v.Topics, ", ")),
			app.Dt().Text("state"), app.Dd().Text(state),
			app.Dt().Text("assignment from generation"), app.Dd().Text(strconv.Itoa(v.Generation)),
			app.Dt().Text("strategy"), app.Dd().Text(g.Strategy),
		),
		app.If(len(v.Assignment) == 0, app.P().Class("form-note").Text(v.ID+" has no partitions.")).Else(
			app.Table().Class("inspector-positions").Body(
				app.Caption().Text("Partitions of "+v.ID),
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text("partition"),
					app.Th().Scope("col").Text("position"),
					app.Th().Scope("col").Text("committed"),
					app.Th().Scope("col").Text("lag"),
				)),
				app.TBody().Body(
					app.Range(v.Assignment).Slice(func(j int) app.UI {
						tp := v.Assignment[j]
						name := tp.Topic + "/" + strconv.Itoa(tp.Partition)
						position := "-"
						for _, pos := range v.Positions {
							if pos.Topic == tp.Topic && pos.Partition == tp.Partition {
								position = strconv.FormatInt(pos.Offset, 10)
							}
						}
						c, lag := "-", "-"
						if p, ok := committed[name]; ok && p.HasCommitted {
							c, lag = strconv.FormatInt(p.Committed, 10), strconv.FormatInt(p.Lag, 10)
						}
						return app.Tr().DataSet("position-of", name).DataSet("position", position).DataSet("position-committed", c).Body(
							app.Th().Scope("row").Text(name),
							app.Td().Text(position),
							app.Td().Text(c),
							app.Td().Text(lag),
						)
					}),
				),
			),
		),
		app.P().Class("form-note").Text("The group's configs below apply to every member."),
	)
}
