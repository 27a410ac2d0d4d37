package app

import (
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ShareGroupPanel is the share groups (KIP-932) of the groups column: the
// form that adds a member to a share group, and one card per share group
// with its members, their buttons and each share-partition's in-flight
// records. Like the consumer groups' controls (group_panel.go), its
// controls make lines of the scenario language and send them with
// ApplyFrom, so a line the engine refuses shows the engine's message
// beside the control that made it.
type ShareGroupPanel struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts it afresh (fresh_form.go)
	linksSeen int

	Groups []core.ShareGroupView // in name order
	Topics []string              // topics that exist, offered to the join form
	Now    int64                 // the virtual clock, for the locks' deadlines

	formOpen bool // the join form shown
}

// Render draws the heading, the join form behind "+ New share group" (so
// that a page without share groups gives the consumer groups the column),
// and the cards.
func (p *ShareGroupPanel) Render() app.UI {
	if p.Links != p.linksSeen {
		startAfresh(p, nil)
		p.linksSeen = p.Links
	}
	return app.Section().
		Class("share-groups-panel").
		DataSet("share-groups", true).
		Aria("labelledby", "share-groups-title").
		Body(
			app.Header().Class("groups-head").Body(
				app.H2().ID("share-groups-title").Body(app.Text("Share groups "), &Help{Topic: "share-group"}),
				app.Button().Type("button").Class("group-new-toggle").DataSet("action", "new-share-group").
					Aria("expanded", p.formOpen).
					OnClick(func(ctx app.Context, e app.Event) { p.formOpen = !p.formOpen }).
					Text("+ New share group"),
			),
			app.Div().Class("share-new").Hidden(!p.formOpen).Body(
				app.P().Class("share-groups-note").Text(
					"A share group's members read the same partitions: each record is lent to one member at a time, "+
						"under a lock, until it is acknowledged. Kafka 4 (KIP-932)."),
				&ShareJoinForm{Links: p.Links, Topics: p.Topics},
			),
			app.Range(p.Groups).Slice(func(i int) app.UI {
				return &ShareGroupCard{Group: p.Groups[i], Now: p.Now}
			}),
		)
}

// shareJoinControl names the share join form, for its errors.
const shareJoinControl = "share-join"

// ShareJoinForm adds a member to a share group, making the group on its
// first member: the share-join command, with the member's topics, its
// share.acknowledgement.mode and its max.poll.records.
type ShareJoinForm struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts it afresh (fresh_form.go)
	linksSeen int

	Topics []string

	group, member, topics, ackMode, maxPoll string
}

// joinLine makes the share-join command from the form, or says what is
// missing.
func (f *ShareJoinForm) joinLine() (string, string) {
	group, member, topics := strings.TrimSpace(f.group), strings.TrimSpace(f.member), strings.TrimSpace(f.topics)
	if topics == "" && len(f.Topics) == 1 {
		topics = f.Topics[0]
	}
	args, problem := memberArgs(group, member, topics)
	if problem != "" {
		return "", problem
	}
	line := scenario.CmdShareJoin + " " + args
	if f.ackMode != "" {
		line += " share.acknowledgement.mode=" + word(f.ackMode)
	}
	if max := strings.TrimSpace(f.maxPoll); max != "" {
		line += " max.poll.records=" + word(max)
	}
	return line, ""
}

func (f *ShareJoinForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	line, problem := f.joinLine()
	sendGroupLine(ctx, shareJoinControl, line, problem)
	if problem == "" {
		f.member = nextMemberID(strings.TrimSpace(f.member))
	}
}

// Render draws the form; its fields keep what was typed, and the member
// moves on to the next id, so adding s1, s2 is two clicks.
func (f *ShareJoinForm) Render() app.UI {
	if f.Links != f.linksSeen {
		startAfresh(f, nil)
		f.linksSeen = f.Links
	}
	topicHint := "orders"
	if len(f.Topics) > 0 {
		topicHint = strings.Join(f.Topics, ",")
	}
	ackMode, _ := core.LookupConfig(core.OnShareMember, "share.acknowledgement.mode")
	maxPoll, _ := core.LookupConfig(core.OnShareMember, "max.poll.records")
	modes := ackMode.Choices
	return app.Form().
		Class("share-join-form").
		DataSet("control", shareJoinControl).
		DataSet("command", scenario.CmdShareJoin).
		Aria("label", "Add a member to a share group").
		OnSubmit(f.submit).
		Body(
			app.Label().Body(
				app.Span().Text("Share group"),
				app.Input().Name("group").Value(f.group).Placeholder("e.g. workers").
					AutoComplete(false).OnInput(textInto(&f.group)),
			),
			app.Label().Body(
				app.Span().Text("Member (client.id)"),
				app.Input().Name("member").Value(f.member).Placeholder("e.g. s1").
					AutoComplete(false).OnInput(textInto(&f.member)),
			),
			app.Label().Body(
				app.Span().Text("Topics"),
				app.Input().Name("topics").Value(f.topics).Placeholder(topicHint).
					AutoComplete(false).OnInput(textInto(&f.topics)),
			),
			app.Label().Title("share.acknowledgement.mode: "+configHelp(core.OnShareMember, "share.acknowledgement.mode")).Body(
				app.Span().Text("Acknowledgement"),
				app.Select().Name("share.acknowledgement.mode").OnChange(textInto(&f.ackMode)).Body(
					app.Option().Value("").Selected(f.ackMode == "").Text("implicit (Kafka's default)"),
					app.Range(modes).Slice(func(i int) app.UI {
						return app.Option().Value(modes[i]).Selected(f.ackMode == modes[i]).Text(modes[i])
					}),
				),
			),
			app.Label().Title("max.poll.records: "+configHelp(core.OnShareMember, "max.poll.records")).Body(
				app.Span().Text("max.poll.records"),
				app.Input().Name("max.poll.records").Value(f.maxPoll).Placeholder(maxPoll.KafkaDefault).Size(5).
					Attr("inputmode", "numeric").AutoComplete(false).OnInput(textInto(&f.maxPoll)),
			),
			app.Button().Type("submit").Text("Join"),
			&ControlError{Control: shareJoinControl},
		)
}

// topicNames lists the snapshot's topics, for the share join form.
func (s LogSnapshot) topicNames() []string {
	names := make([]string, len(s.Topics))
	for i, t := range s.Topics {
		names[i] = t.Name
	}
	return names
}

// shareGroupNames lists the snapshot's share groups, for the workloads'
// consumer form.
func (s LogSnapshot) shareGroupNames() []string {
	names := make([]string, len(s.ShareGroups))
	for i, g := range s.ShareGroups {
		names[i] = g.Name
	}
	return names
}
