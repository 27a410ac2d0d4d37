package app

import (
	"fmt"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// shareGroupDetails draws the share group the inspector shows, or says it
// does not exist at this step.
func (in *Inspector) shareGroupDetails() app.UI {
	s := in.Selected
	for _, g := range in.ShareGroups {
		if g.Name == s.Group {
			return &ShareGroupInspector{Group: g, Rules: in.Rules, Now: in.Now, Compared: in.ShareCompared, Choice: s.ShareCompare}
		}
	}
	return app.P().Class("hint").Text("Share group " + s.Group + " does not exist at this step.")
}

// ShareGroupInspector is a share group in the inspector, as Kafka 4.4's
// kafka-share-groups --describe shows it (ShareGroupDescription and
// listShareGroupOffsets): its state and epochs, its members with their
// configs and partitions, each share-partition's start and end offsets
// (SPSO, SPEO), its in-flight records counted by state and its share lag
// (KIP-1226), the group's configs beside Kafka's defaults, and the
// workload run through a consumer group beside it (share_compare.go).
// Tests read [data-share-inspector=GROUP], each member's
// [data-inspector-share-member=NAME], each share-partition's
// [data-share-row=T/P] with data-spso, data-speo, data-share-lag,
// data-available, data-acquired, data-acknowledged and data-archived.
type ShareGroupInspector struct {
	app.Compo

	Group    core.ShareGroupView
	Rules    int
	Now      int64
	Compared *ShareCompared
	Choice   shareCompareChoice
}

// Render draws the inspector's details of the share group.
func (s *ShareGroupInspector) Render() app.UI {
	g := s.Group
	return app.Div().Class("inspector-details", "share-inspector").DataSet("share-inspector", g.Name).Body(
		app.Dl().Class("inspector-facts").Body(
			app.Dt().Text("state"), app.Dd().Text(g.State),
			app.Dt().Text("group epoch"), app.Dd().Text(g.GroupEpoch),
			app.Dt().Text("assignment epoch"), app.Dd().Text(g.AssignmentEpoch),
			app.Dt().Text("members"), app.Dd().Text(len(g.Members)),
		),
		app.H3().Text("Members"),
		app.If(len(g.Members) == 0, app.P().Class("hint").Text("No members: share-join one from the groups column.")).Else(
			app.Table().Class("inspector-configs", "share-inspector-members").Body(
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text("member"), app.Th().Scope("col").Text("epoch"),
					app.Th().Scope("col").Text("acks, max.poll.records"), app.Th().Scope("col").Text("partitions"), app.Th().Scope("col").Text("state"),
				)),
				app.TBody().Body(app.Range(g.Members).Slice(func(i int) app.UI { return s.memberRow(g.Members[i]) })),
			),
		),
		app.H3().Text("Share-partitions"),
		app.If(len(g.Partitions) == 0, app.P().Class("hint").Text("No share-partitions yet: a member's first poll makes them.")).Else(
			app.Table().Class("inspector-configs", "share-inspector-partitions").Body(
				app.Caption().Text("In-flight records by state; share lag is the high watermark less SPSO less the records acknowledged or archived above it (KIP-1226)"),
				app.THead().Body(app.Tr().Body(
					app.Th().Scope("col").Text("partition"), app.Th().Scope("col").Text("SPSO"), app.Th().Scope("col").Text("SPEO"),
					app.Th().Scope("col").Text("HW"), app.Th().Scope("col").Text("available"), app.Th().Scope("col").Text("acquired"),
					app.Th().Scope("col").Text("acked"), app.Th().Scope("col").Text("archived"), app.Th().Scope("col").Text("share lag"),
				)),
				app.TBody().Body(app.Range(g.Partitions).Slice(func(i int) app.UI { return sharePartitionRow(g.Partitions[i]) })),
			),
		),
		configTable(core.OnShareGroup, g.Configs, s.Rules),
		&ShareCompare{Group: g.Name, Members: runningShareMembers(g), Choice: s.Choice, Result: s.Compared},
	)
}

// memberRow is one member of the members' table.
func (s *ShareGroupInspector) memberRow(m core.ShareMemberView) app.UI {
	state := "running"
	if m.CrashedAt >= 0 {
		state = "crashed at " + units.Duration(m.CrashedAt)
	}
	return app.Tr().DataSet("inspector-share-member", m.Name).Body(
		app.Th().Scope("row").Title("member id "+m.MemberID+", subscribed to "+strings.Join(m.Topics, ",")).Text(m.Name),
		app.Td().Text(m.Epoch),
		app.Td().Title("share.acknowledgement.mode and max.poll.records").Text(fmt.Sprintf("%s, %d", m.AckMode, m.MaxPoll)),
		app.Td().Text(strings.ReplaceAll(partitionList(m.Assignment), " ", ", ")),
		app.Td().Text(state),
	)
}

// sharePartitionRow is one share-partition of the partitions' table.
func sharePartitionRow(p core.SharePartitionView) app.UI {
	counts := map[string]int{}
	for _, r := range p.InFlight {
		counts[r.State]++
	}
	name := fmt.Sprintf("%s/%d", p.Topic, p.Partition)
	return app.Tr().DataSet("share-row", name).
		DataSet("spso", p.StartOffset).DataSet("speo", p.EndOffset).DataSet("share-lag", p.Lag).
		DataSet("available", counts[core.RecordAvailable]).DataSet("acquired", counts[core.RecordAcquired]).
		DataSet("acknowledged", counts[core.RecordAcknowledged]).DataSet("archived", counts[core.RecordArchived]).
		Body(
			app.Th().Scope("row").Text(name),
			app.Td().Text(p.StartOffset), app.Td().Text(p.EndOffset), app.Td().Text(p.HighWatermark),
			app.Td().Text(counts[core.RecordAvailable]), app.Td().Text(counts[core.RecordAcquired]),
			app.Td().Text(counts[core.RecordAcknowledged]), app.Td().Text(counts[core.RecordArchived]),
			app.Td().Text(p.Lag),
		)
}

// runningShareMembers lists the members that have not crashed, by name.
func runningShareMembers(g core.ShareGroupView) []string {
	var names []string
	for _, m := range g.Members {
		if m.CrashedAt < 0 {
			names = append(names, m.Name)
		}
	}
	return names
}
