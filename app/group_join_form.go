package app

import (
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupJoinForm adds a member to a group, creating the group if needed: the
// join command, with the member's subscription, its assignment strategy and,
// for static membership, its group.instance.id. The groups column draws one
// at its top, for a new group, and one in each group's card ("+ Join a
// member"), preset to that group.
type GroupJoinForm struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts the form afresh (fresh_form.go)
	linksSeen int

	Topics []string // topics that exist, offered as the subscription
	Groups []string // groups that exist, offered as the group
	// Members lists each group's member ids, by "group/member": once the
	// member just sent is among them, the form offers the next id.
	Members map[string]bool

	// Preset is the group of the form in a group's card: it has no group
	// field, and until the learner types others it offers Suggest as the
	// member and Subscription as its topics. "" for the form at the top.
	Preset       string
	Suggest      string // a member id not in the group yet
	Subscription string // the group's first running member's topics, "a,b"

	group, member, topics, strategy, instance string
	// protocol is the member's group.protocol ("" for classic, Kafka's
	// client default), assignor its group.remote.assignor.
	protocol, assignor string
	sent               string // "group/member" of the last join sent
}

// joinLine makes the join command from the form, or says what is missing.
func (f *GroupJoinForm) joinLine() (string, string) {
	group, member := strings.TrimSpace(f.group), strings.TrimSpace(f.memberText())
	topics := strings.TrimSpace(f.topicsText())
	if f.Preset != "" {
		group = f.Preset
	}
	if topics == "" && len(f.Topics) == 1 {
		topics = f.Topics[0]
	}
	args, problem := memberArgs(group, member, topics)
	if problem != "" {
		return "", problem
	}
	line := scenario.CmdJoin + " " + args
	if f.strategy != "" && f.protocol != core.ProtocolConsumer {
		line += " strategy=" + word(f.strategy)
	}
	if instance := strings.TrimSpace(f.instance); instance != "" {
		line += " instance=" + word(instance)
	}
	if f.protocol == core.ProtocolConsumer {
		line += " group.protocol=" + core.ProtocolConsumer
		if f.assignor != "" {
			line += " group.remote.assignor=" + word(f.assignor)
		}
	}
	return line, ""
}

func (f *GroupJoinForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	line, problem := f.joinLine()
	if problem == "" {
		group := strings.TrimSpace(f.group)
		if f.Preset != "" {
			group = f.Preset
		}
		f.sent = group + "/" + strings.TrimSpace(f.memberText())
	}
	sendGroupLine(ctx, f.control(), line, problem)
}

// control names the form, for its errors: "group-join" at the top,
// "billing/join" in billing's card.
func (f *GroupJoinForm) control() string {
	if f.Preset != "" {
		return groupControl(f.Preset, "join")
	}
	return joinControl
}

// memberText is the member id the form sends: what was typed, or in a
// group's card the id it suggests.
func (f *GroupJoinForm) memberText() string {
	if f.member == "" && f.Preset != "" {
		return f.Suggest
	}
	return f.member
}

// topicsText is the subscription the form sends: what was typed, or in a
// group's card the group's.
func (f *GroupJoinForm) topicsText() string {
	if f.topics == "" && f.Preset != "" {
		return f.Subscription
	}
	return f.topics
}

// Render draws the form. Its fields keep what was typed, so adding c1, c2,
// c3 is a matter of changing one digit.
func (f *GroupJoinForm) Render() app.UI {
	if f.Links != f.linksSeen {
		startAfresh(f, nil)
		f.linksSeen = f.Links
	}
	if f.sent != "" && f.Members[f.sent] {
		f.member, f.sent = nextMemberID(f.member), ""
		if f.Preset != "" {
			f.member = "" // the card suggests the next id not in the group
		}
	}
	topicHint := "orders"
	if len(f.Topics) > 0 {
		topicHint = strings.Join(f.Topics, ",")
	}
	class, label, groupDefault := "join-form", "Add a member to a group", "the group's (range for a new group)"
	if f.Preset != "" {
		class, label, groupDefault = "member-join", "Add a member to "+f.Preset, "the group's"
	}
	return app.Form().
		Class(class).
		DataSet("control", f.control()).
		DataSet("command", scenario.CmdJoin).
		Aria("label", label).
		OnSubmit(f.submit).
		Body(
			app.If(f.Preset == "",
				app.Label().Body(
					app.Span().Text("Group"),
					app.Input().Name("group").Value(f.group).Placeholder("e.g. billing").
						AutoComplete(false).List("group-names").OnInput(textInto(&f.group)),
				),
				app.DataList().ID("group-names").Body(
					app.Range(f.Groups).Slice(func(i int) app.UI { return app.Option().Value(f.Groups[i]) }),
				),
			),
			app.Label().Body(
				app.Span().Text("Member (client.id)"),
				app.Input().Name("member").Value(f.memberText()).Placeholder("e.g. c1").
					AutoComplete(false).OnInput(textInto(&f.member)),
			),
			&Help{Topic: "member-ordering"},
			app.Label().Body(
				app.Span().Text("Topics"),
				app.Input().Name("topics").Value(f.topicsText()).Placeholder(topicHint).
					AutoComplete(false).OnInput(textInto(&f.topics)),
			),
			app.Label().Body(
				app.Span().Body(app.Text("Strategy")),
				app.Select().Name("strategy").OnChange(textInto(&f.strategy)).Body(
					app.Option().Value("").Selected(f.strategy == "").Text(groupDefault),
					app.Range(scenario.Strategies).Slice(func(i int) app.UI {
						s := scenario.Strategies[i]
						return app.Option().Value(s).Selected(f.strategy == s).Text(s)
					}),
				),
			),
			app.Span().Class("help-row").Body(
				app.Range(scenario.Strategies).Slice(func(i int) app.UI {
					return app.Span().Body(app.Text(scenario.Strategies[i]), &Help{Topic: scenario.Strategies[i]})
				}),
			),
			app.Label().Title("group.protocol: classic, Kafka's client default, or consumer, Kafka 4's consumer group protocol (KIP-848): the coordinator assigns partitions and each member moves to its target at its own heartbeats").Body(
				app.Span().Text("Group protocol"),
				app.Select().Name("group.protocol").OnChange(textInto(&f.protocol)).Body(
					app.Range(core.Protocols()).Slice(func(i int) app.UI {
						p := core.Protocols()[i]
						value := p
						if p == core.ProtocolClassic {
							value = ""
						}
						return app.Option().Value(value).Selected(f.protocol == value).Text(p)
					}),
				),
			),
			app.If(f.protocol == core.ProtocolConsumer,
				app.Label().Title("group.remote.assignor: the server-side assignor the member asks for; the group takes the one most members ask for, uniform by default").Body(
					app.Span().Text("Server assignor"),
					app.Select().Name("group.remote.assignor").OnChange(textInto(&f.assignor)).Body(
						app.Option().Value("").Selected(f.assignor == "").Text("the group's (uniform)"),
						app.Range(core.ServerAssignors()).Slice(func(i int) app.UI {
							a := core.ServerAssignors()[i]
							return app.Option().Value(a).Selected(f.assignor == a).Text(a)
						}),
					),
				),
			),
			app.Label().Body(
				app.Span().Text("Instance id (static)"),
				app.Input().Name("instance").Value(f.instance).Placeholder("optional").
					AutoComplete(false).OnInput(textInto(&f.instance)),
			),
			&Help{Topic: "static-membership"},
			app.Button().Type("submit").Text("Join"),
			&ControlError{Control: f.control()},
		)
}

// memberArgs writes a joining member's first arguments, "GROUP MEMBER
// topics=T1,T2", as the join and share-join commands take them, or says
// what is missing.
func memberArgs(group, member, topics string) (string, string) {
	switch {
	case group == "":
		return "", "Name the group the member joins."
	case member == "":
		return "", "Give the member an id, its client.id, like c1."
	case topics == "":
		return "", "Name the topics the member subscribes to, separated by commas."
	}
	var subscription []string
	for _, t := range strings.Split(topics, ",") {
		if t = strings.TrimSpace(t); t != "" {
			subscription = append(subscription, t)
		}
	}
	return word(group) + " " + word(member) + " topics=" + word(strings.Join(subscription, ",")), ""
}

// nextMemberID is the id after a member's, for the next member to join:
// c1 gives c2, c9 gives c10, worker gives worker2.
func nextMemberID(id string) string {
	digits := len(id)
	for digits > 0 && id[digits-1] >= '0' && id[digits-1] <= '9' {
		digits--
	}
	n, err := strconv.Atoi(id[digits:])
	if err != nil {
		return id + "2"
	}
	return id[:digits] + strconv.Itoa(n+1)
}

// textInto returns an event handler that keeps a field's text in *dst.
func textInto(dst *string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		*dst = ctx.JSSrc().Get("value").String()
	}
}
