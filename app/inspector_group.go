package app

import (
	"encoding/hex"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupInspector holds a group's details and settings, opened from its
// compact card in the groups column: a selected member's assignment,
// positions, committed offsets, member id and subscription; the group's
// configs beside Kafka's defaults, with the values changed from the
// defaults marked, and the form that sets them; resetting offsets;
// committing a partition's offset by hand; the lag table, deliveries, lag
// chart and what each strategy would move. Closed, it stays rendered with
// the hidden attribute, so that its controls keep their place.
type GroupInspector struct {
	app.Compo

	Group GroupSnapshot
	Lag   []scenario.LagSample // the session's LagHistory, for the lag chart
	Open  bool
	// Member is the member open in the inspector, "" for the group alone.
	Member string
	// Close closes the inspector.
	Close func(ctx app.Context)
}

// Render draws [data-inspector=group][data-inspector-group=NAME], with
// [data-inspector-member=ID] when a member is open.
func (i *GroupInspector) Render() app.UI {
	g := i.Group
	section := app.Section().
		ID(inspectorID(g.Name)).
		Class("group-inspector").
		DataSet("inspector", "group").
		DataSet("inspector-group", g.Name).
		Aria("label", "Inspector: group "+g.Name)
	if !i.Open {
		section = section.Hidden(true)
	}
	return section.Body(
		app.H4().Class("inspector-head").Body(
			app.Text("Group "+g.Name+" "),
			app.Button().Type("button").Class("inspector-close").DataSet("action", "close-inspector").
				Aria("label", "Close the inspector of "+g.Name).
				OnClick(func(ctx app.Context, e app.Event) {
					if i.Close != nil {
						i.Close(ctx)
					}
				}).Text("Close"),
		),
		// What only the inspector shows is drawn while it is open: a page
		// of many groups stays small.
		app.If(i.Open, i.renderMember(), i.renderConfigs()),
		&GroupConfigForm{Group: g.Name, Config: g.Config},
		&GroupResetForm{Group: g.Name, Active: g.ActiveMembers},
		&GroupCommitForm{Group: g.Name, Partitions: groupPartitions(g), Refused: g.OutsideCommitRefused},
		&GroupLagTable{Group: g.Name, Partitions: g.Partitions},
		&GroupDeliveries{Totals: g.Totals, Deliveries: g.Deliveries},
		&LagChart{Group: g.Name, Samples: i.Lag, AlertRecords: g.Config.LagAlertRecords},
		&GroupMovement{Group: g.Name, Movements: g.Movements},
	)
}

// inspectorID is the id of a group's inspector, for aria-controls: the
// name in hex, since a group's name may hold a space.
func inspectorID(group string) string {
	return "inspector-group-" + hex.EncodeToString([]byte(group))
}

// renderConfigs lists the group's configs: its value, marked when it is not
// the default under the scenario's rules, and Kafka's default, or that the
// config is the playground's own.
func (i *GroupInspector) renderConfigs() app.UI {
	g := i.Group
	entries := g.Config.Entries()
	return app.Table().Class("inspector-configs").DataSet("inspector-configs", g.Name).Body(
		app.Caption().Text("Configs of "+g.Name),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("config"),
			app.Th().Scope("col").Text("value"),
			app.Th().Scope("col").Text("Kafka's default"),
		)),
		app.TBody().Body(
			app.Range(entries).Slice(func(j int) app.UI {
				e := entries[j]
				def, _ := core.LookupConfig(core.OnGroup, e.Name)
				changed := e.Value != def.DefaultUnder(g.Rules)
				kafka := def.KafkaDefault
				if def.Kafka() == "" {
					kafka = "playground only"
				}
				tr := app.Tr().DataSet("config", e.Name).DataSet("value", e.Value).DataSet("kafka-default", def.KafkaDefault)
				if changed {
					tr = tr.DataSet("changed", "true")
				}
				return tr.Body(
					app.Th().Scope("row").Title(configHelp(core.OnGroup, e.Name)).Text(e.Name),
					app.Td().Body(
						app.Text(e.Value),
						app.If(changed, app.Span().Class("config-changed").
							Title("changed from the default, "+def.DefaultUnder(g.Rules)).Text(" changed")),
					),
					app.Td().Text(kafka),
				)
			}),
		),
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
		return nil
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
		app.H5().Text("Member "+v.ID),
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
