package app

import (
	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupLifecycle is the end of the group inspector: what the brokers'
// group.consumer.migration.policy means for the group now (how a member of
// the other protocol converts it, or how its classic members rejoin; Kafka
// 4.4's GroupMetadataManager, core/group_migration.go), and a small Delete
// button, kafka-consumer-groups --delete: Kafka deletes only an Empty
// group, which is Dead afterwards; the button still sends the command for a
// group with members, so the learner sees Kafka's refusal.
type GroupLifecycle struct {
	app.Compo

	Group GroupSnapshot
}

// Render draws [data-control="billing/delete"] with its button
// [data-action="delete-group"], and the policy's note
// [data-migration-note] when there is one.
func (c *GroupLifecycle) Render() app.UI {
	g := c.Group
	control := groupControl(g.Name, "delete")
	note := "Only an empty group can be deleted (Kafka: GroupNotEmptyException otherwise); its committed offsets go with it and it is Dead until a member joins. Kafka also deletes an empty group when its offsets expire (offsets.retention.minutes, 7 days), which the playground does not model."
	if g.State == core.GroupDead {
		note = "Deleted: the group is Dead (kafka-consumer-groups --describe says it does not exist) until a member joins, an offset is committed or reset."
	}
	return app.Div().Class("group-lifecycle").DataSet("control", control).Body(
		app.If(g.MigrationNote != "",
			app.P().Class("form-note").DataSet("migration-note", g.MigrationPolicy).Text(g.MigrationNote+"."),
		),
		app.P().Class("form-note", "group-delete").Body(
			app.Button().Type("button").Class(append(roleDanger.classes(), "small")...).
				DataSet("action", "delete-group").DataSet("command", scenario.CmdDeleteGroup).
				Disabled(g.State == core.GroupDead).
				Aria("label", "Delete group "+g.Name).
				OnClick(c.delete).Text("Delete group"),
			app.Text(" "+note),
		),
		&ControlError{Control: control},
	)
}

func (c *GroupLifecycle) delete(ctx app.Context, e app.Event) {
	sendGroupLine(ctx, groupControl(c.Group.Name, "delete"), c.deleteLine(), "")
}

// deleteLine is the command the Delete button sends.
func (c *GroupLifecycle) deleteLine() string {
	return scenario.CmdDeleteGroup + " " + word(c.Group.Name)
}
