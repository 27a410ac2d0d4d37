package app

import (
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupCommitForm commits one offset of a group's partition by hand, as an
// application calling commitSync with an explicit offset does (and as
// kafka-consumer-groups --reset-offsets --to-offset does for one partition
// of an empty group): commit GROUP TOPIC/PARTITION offset=N. With no member
// running, the commit comes from outside the group and, under rules 3, the
// engine refuses it while the group is not empty, as Kafka does
// (UNKNOWN_MEMBER_ID): the refusal shows as the form's error, and the help
// (committed-offset) says why.
type GroupCommitForm struct {
	app.Compo

	Group      string
	Partitions []string // the group's partitions, "orders/0", offered first
	// Refused says why a commit now, from outside the group, is refused
	// (core.GroupView.OutsideCommitRefused); "" when it would be taken.
	Refused string

	partition, offset string
	typedFor          string // the group partition and offset were typed for
}

// commitLine makes the explicit commit, or says what is missing.
func (f *GroupCommitForm) commitLine() (string, string) {
	tp, offset := strings.TrimSpace(f.partition), strings.TrimSpace(f.offset)
	if tp == "" && len(f.Partitions) > 0 {
		tp = f.Partitions[0]
	}
	switch {
	case tp == "":
		return "", "Which partition? Write it as topic/partition, like orders/0."
	case offset == "":
		return "", "Which offset? The committed offset is the next record to read."
	}
	return line(scenario.CmdCommit, positional(f.Group), positional(tp), named("offset", offset)), ""
}

func (f *GroupCommitForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	l, problem := f.commitLine()
	sendGroupLine(ctx, groupControl(f.Group, "commit"), l, problem)
}

// Render draws [data-control="billing/commit"].
func (f *GroupCommitForm) Render() app.UI {
	control := groupControl(f.Group, "commit")
	if f.typedFor != f.Group {
		// The inspector hands this form to the next group selected, which
		// must not be sent what was typed for this one.
		f.partition, f.offset, f.typedFor = "", "", f.Group
	}
	list := "commit-partitions-" + f.Group
	placeholder := "orders/0"
	if len(f.Partitions) > 0 {
		placeholder = f.Partitions[0]
	}
	return app.Form().
		Class("group-commit").
		DataSet("control", control).
		DataSet("command", scenario.CmdCommit).
		Aria("label", "Commit an offset of "+f.Group).
		OnSubmit(f.submit).
		Body(
			app.Span().Class("form-title").Body(app.Text("Commit an offset "), &Help{Topic: "committed-offset"}),
			app.Label().Body(
				app.Span().Text("partition"),
				app.Input().Type("text").Name("partition").Size(8).Value(f.partition).Placeholder(placeholder).
					List(list).AutoComplete(false).OnInput(textInto(&f.partition)),
			),
			app.DataList().ID(list).Body(
				app.Range(f.Partitions).Slice(func(i int) app.UI { return app.Option().Value(f.Partitions[i]) }),
			),
			app.Label().Body(
				app.Span().Text("offset"),
				app.Input().Type("text").Name("offset").Size(6).Value(f.offset).
					Attr("inputmode", "numeric").OnInput(textInto(&f.offset)),
			),
			app.Button().Type("submit").Text("Commit offset"),
			app.If(f.Refused != "",
				app.P().Class("form-note").DataSet("commit-refused", "true").Text("No member is running, so a commit comes from outside the group: "+f.Refused+"."),
			),
			&ControlError{Control: control},
		)
}
