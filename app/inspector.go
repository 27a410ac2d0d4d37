package app

import (
	"fmt"
	"strconv"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// selection is the thing the learner selected in the picture, which the
// inspector shows: a topic, one partition of it, a broker, a consumer group
// or one member of a group. The zero value selects nothing.
type selection struct {
	Kind      string // selectTopic, selectPartition, selectBroker, selectGroup, selectMember or ""
	Topic     string
	Partition int
	Broker    int
	Group     string // of a group, or of a member
	Member    string
	Compare   protocolChoice // the change replayed under each protocol (group_protocol_compare.go)
	// ShareCompare is the workload a share group's inspector runs through
	// a consumer group beside it (share_compare.go).
	ShareCompare shareCompareChoice
}

// The kinds of thing the inspector shows.
const (
	selectTopic     = "topic"
	selectPartition = "partition"
	selectBroker    = "broker"
	selectGroup     = "group"
	selectMember    = "member"
	// selectShareGroup is a share group (share_group_inspector.go).
	selectShareGroup = "share-group"
)

// inGroup reports whether the selection is the group or one of its members:
// the inspector then shows the group's details and settings.
func (s selection) inGroup(group string) bool {
	return (s.Kind == selectGroup || s.Kind == selectMember) && s.Group == group
}

// selectAction asks the page to inspect a thing (value: selection; the
// zero selection closes the inspector).
const selectAction = "plog/select"

// selectThing returns the handler that selects s.
func selectThing(s selection) app.EventHandler {
	return func(ctx app.Context, e app.Event) { ctx.NewActionWithValue(selectAction, s) }
}

// revealInspector scrolls the page to the inspector when it opens out of
// sight, as on a phone, where the dock is stacked below the lanes and the
// groups; beside the picture, where it shows, nothing moves.
func revealInspector(ctx app.Context) {
	ctx.Defer(func(app.Context) {
		el := app.Window().GetElementByID("dock-inspector")
		if !el.Truthy() {
			return
		}
		r := el.Call("getBoundingClientRect")
		if r.Get("top").Float() < app.Window().Get("innerHeight").Float() && r.Get("bottom").Float() > 0 {
			return
		}
		el.Call("scrollIntoView", map[string]any{"block": "start"})
	})
}

// focusAfterClose moves the focus to the dock's tab shown, when the
// inspector closes with the focus inside it (on its ✕, in one of its
// forms): the keyboard goes on from beside where it was, not from the top
// of the page.
func focusAfterClose(ctx app.Context, tab func() string) {
	inspector := app.Window().GetElementByID("dock-inspector")
	active := app.Window().Get("document").Get("activeElement")
	if !inspector.Truthy() || !active.Truthy() || !inspector.Call("contains", active).Bool() {
		return
	}
	ctx.Defer(func(app.Context) {
		if el := app.Window().GetElementByID("dock-tab-" + tab()); el.Truthy() {
			el.Call("focus")
		}
	})
}

// name is what the selection is called on the page: "orders",
// "orders/2", "broker 1".
func (s selection) name() string {
	switch s.Kind {
	case selectTopic:
		return s.Topic
	case selectPartition:
		return s.Topic + "/" + strconv.Itoa(s.Partition)
	case selectBroker:
		return "broker " + strconv.Itoa(s.Broker)
	case selectGroup:
		return s.Group
	case selectMember:
		return s.Member
	case selectShareGroup:
		return s.Group
	}
	return ""
}

// formPreset points a form at the thing the learner chose where it is (a
// selected topic or partition, a topic's produce button). Seq counts the
// choices, so a form follows each new one and otherwise keeps what the
// learner picked in it.
type formPreset struct {
	Topic     string
	Partition string // "" for none
	Seq       int
}

// pointAt sets a form's topic (and partition, when given) once per preset.
func (p formPreset) pointAt(seen *int, topic, partition *string) {
	if p.Seq == *seen {
		return
	}
	*seen = p.Seq
	if p.Topic != "" {
		*topic = p.Topic
	}
	if partition != nil && p.Partition != "" {
		*partition = p.Partition
	}
}

// Inspector shows the selected thing's details and settings, beside the
// picture: a topic's configs with Kafka's defaults and the changed ones
// marked, a partition's offsets and replicas, a broker's state, a group's
// or a member's details with the group's configs and forms
// (inspector_group.go). The forms
// that act on one topic or partition (Topic configs, add partitions,
// truncate, run the cleaner) are its children: they stay rendered, hidden,
// while nothing is selected, so that every control keeps its place in the
// page.
type Inspector struct {
	app.Compo

	Selected selection
	Preset   formPreset // the selection, for the forms
	// Topic is the selected topic, or the selected partition's, whole;
	// Topics are all the topics as the forms know them (formTopics).
	Topic   TopicSnapshot
	Topics  []TopicSnapshot
	Brokers []core.BrokerInfo
	Lanes   map[string]ReplicaPartition // the replicas of the lanes drawn, by laneKey
	Groups  []GroupSnapshot
	Lag     []scenario.LagSample // the session's LagHistory, for a group's lag chart
	Rules   int
	// ShareGroups and ShareCompared are for a share group's inspector
	// (share_group_inspector.go), Now for its locks.
	ShareGroups   []core.ShareGroupView
	ShareCompared *ShareCompared
	Now           int64
}

// inspectorForms is how many topics' "add partitions" forms the inspector
// holds: the selected topic's, and the first few others', so that a form
// is found by its topic's id without a topic selected.
const inspectorForms = topicsShown

// Render draws the selection's details above the forms that act on it.
func (in *Inspector) Render() app.UI {
	s := in.Selected
	topic := in.Topic
	onTopic := (s.Kind == selectTopic || s.Kind == selectPartition) && topic.Name != "" && topic.Name == s.Topic
	section := app.Section().Class("inspector").Attr("data-inspector", s.Kind).DataSet("inspects", s.name()).
		Aria("label", "inspector")
	if s.Kind == selectGroup || s.Kind == selectMember || s.Kind == selectShareGroup {
		section = section.DataSet("inspector-group", s.Group)
	}
	if s.Kind == selectMember {
		section = section.DataSet("inspector-member", s.Member)
	}
	return section.Body(
		app.Div().Class("inspector-head").Body(
			app.H2().ID("inspector-title").Text(in.title()),
			app.Button().Type("button").ID("inspector-close").Class("quiet").Aria("label", "close the inspector").
				OnClick(selectThing(selection{})).Text("✕"),
		),
		in.details(topic, onTopic),
		app.Div().Class("inspector-forms").Hidden(!onTopic).Body(
			&TopicConfigForm{Topics: in.Topics, Preset: in.Preset},
			app.Range(in.partitionForms(s.Topic)).Slice(func(i int) app.UI {
				t := in.Topics[in.partitionForms(s.Topic)[i]]
				return app.Div().Class("panel", "partitions-panel").Hidden(t.Name != s.Topic).Body(
					app.H2().Body(app.Text("Add partitions "), &Help{Topic: "partition"}),
					&PartitionsForm{Topic: t.Name, Partitions: len(t.Partitions)},
				)
			}),
			&CleanupControls{Topics: in.Topics, Preset: in.Preset},
		),
	)
}

// partitionForms lists the topics whose "add partitions" form is drawn.
func (in *Inspector) partitionForms(selected string) []int {
	var shown []int
	for i, t := range in.Topics {
		if i < inspectorForms || t.Name == selected {
			shown = append(shown, i)
		}
	}
	return shown
}

func (in *Inspector) title() string {
	s := in.Selected
	switch s.Kind {
	case selectTopic:
		return "Topic " + s.Topic
	case selectPartition:
		return "Partition " + s.name()
	case selectBroker:
		return "Broker " + strconv.Itoa(s.Broker)
	case selectGroup:
		return "Group " + s.Group
	case selectMember:
		return "Member " + s.Member + " of " + s.Group
	case selectShareGroup:
		return "Share group " + s.Group
	}
	return "Inspector"
}

// details draws what the selected thing is now.
func (in *Inspector) details(topic TopicSnapshot, found bool) app.UI {
	s := in.Selected
	switch {
	case s.Kind == selectBroker:
		return in.brokerDetails()
	case s.Kind == selectGroup || s.Kind == selectMember:
		return in.groupDetails()
	case s.Kind == selectShareGroup:
		return in.shareGroupDetails()
	case !found:
		return app.P().Class("hint").Text("Select a topic's name, a lane, a broker, a group or a member to see its details and settings here.")
	case s.Kind == selectTopic:
		return in.topicDetails(topic)
	}
	return in.partitionDetails(topic)
}

// topicDetails draws a topic's partitions, its produce button and its
// configs: each with its value, Kafka's default (and the playground's
// where it differs), and a mark on the values changed from the default.
func (in *Inspector) topicDetails(t TopicSnapshot) app.UI {
	return app.Div().Class("inspector-details").Body(
		app.P().Body(
			app.Text(fmt.Sprintf("%s · %s ", countOf(len(t.Partitions), "partition"), skewText(t))),
			&ProduceHere{Topic: t.Name},
		),
		configTable(core.OnTopic, t.Configs, in.Rules),
	)
}

// configTable lists a topic's or a group's configs (target core.OnTopic
// or core.OnGroup) against their defaults under the scenario's rules: each
// row tr[data-config=NAME] with data-value, data-kafka-default (empty for a
// config of the playground's own) and data-changed, true where the value is
// not the default, marked ● too.
func configTable(target core.ConfigTarget, configs []core.ConfigEntry, rules int) app.UI {
	return app.Table().Class("inspector-configs", "config-table").Body(
		app.Caption().Text("Configs (changed ones marked ●)"),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("config"), app.Th().Scope("col").Text("value"), app.Th().Scope("col").Text("default"),
		)),
		app.TBody().Body(app.Range(configs).Slice(func(i int) app.UI {
			c := configs[i]
			def, known := core.LookupConfig(target, c.Name)
			defaults := ""
			changed := false
			if known {
				ours := def.DefaultUnder(rules)
				changed = c.Value != ours
				switch {
				case def.Kafka() == "":
					defaults = ours + " (playground only)"
				case def.KafkaDefault != ours:
					defaults = "Kafka " + def.KafkaDefault + ", plog " + ours
				default:
					defaults = "Kafka " + def.KafkaDefault
				}
			}
			kafka := ""
			if known && def.Kafka() != "" {
				kafka = def.KafkaDefault
			}
			row := app.Tr().DataSet("config", c.Name).DataSet("value", c.Value).DataSet("kafka-default", kafka).
				DataSet("changed", changed).Title(configHelp(target, c.Name))
			if changed {
				row = row.Class("changed")
			}
			value := c.Value
			if changed {
				value = "● " + value
			}
			return row.Body(app.Th().Scope("row").Body(dotted(c.Name)...), app.Td().Text(value), app.Td().Text(defaults))
		})),
	)
}

// partitionDetails draws a partition's offsets and, in a cluster, its
// replicas: leader, followers, the ISR and how far each replica got.
func (in *Inspector) partitionDetails(t TopicSnapshot) app.UI {
	s := in.Selected
	if s.Partition < 0 || s.Partition >= len(t.Partitions) {
		return app.P().Class("hint").Text(s.name() + " does not exist at this step.")
	}
	p := t.Partitions[s.Partition]
	r, replicated := in.Lanes[laneKey(p.Topic, p.Partition)]
	return app.Div().Class("inspector-details").Body(
		app.Dl().Class("inspector-facts").Body(
			app.Dt().Text("log start"), app.Dd().Text(p.LogStart),
			app.Dt().Text("high watermark"), app.Dd().Text(p.HighWatermark),
			app.If(p.Txn.InUse,
				app.Dt().Body(app.Text("last stable offset "), &Help{Topic: "last-stable-offset"}),
				app.Dd().DataSet("inspector-lso", p.Txn.LastStableOffset).Text(p.Txn.LastStableOffset),
			),
			app.Dt().Text("log end"), app.Dd().Text(p.LogEnd),
			app.Dt().Text("records"), app.Dd().Text(p.Count),
			app.Dt().Text("segments"), app.Dd().Text(p.Segments),
		),
		app.P().Body(&ProduceHere{Topic: p.Topic}),
		app.If(replicated, replicaDetails(r)),
	)
}

// replicaDetails draws one partition's replicas with their bars: how far
// each log reaches, what it shares with the leader, the high watermark.
func replicaDetails(p ReplicaPartition) app.UI {
	scale := p.LogEndOffset
	for _, r := range p.Replicas {
		scale = max(scale, r.LogEndOffset)
	}
	return app.Div().Class("replica-detail").Body(
		app.H3().Body(app.Text("Replicas "), &Help{Topic: "replica"}),
		app.P().Body(
			app.Text(minInsyncText(p.PartitionReplication)), &Help{Topic: "min-insync-replicas"},
			app.Text(fmt.Sprintf(" · high watermark %d", p.HighWatermark)), &Help{Topic: "high-watermark"},
			app.Text(fmt.Sprintf(" · leader's log end %d · %s", p.LogEndOffset, ackSummary(p))), &Help{Topic: "acks"},
		),
		app.Div().Class("replica-bars").Body(
			app.Range(p.Replicas).Slice(func(i int) app.UI { return replicaBar(p, p.Replicas[i], scale) }),
		),
	)
}

// brokerDetails draws a broker's state and its actions.
func (in *Inspector) brokerDetails() app.UI {
	for _, b := range in.Brokers {
		if b.ID == in.Selected.Broker {
			return app.Div().Class("inspector-details").Body(
				app.P().Text(brokerLabel(b)+fmt.Sprintf(" · leads %s · follows %s", countOf(b.Leads, "partition"), countOf(b.Follows, "partition"))),
				app.Div().Class("row").Body(brokerButtons(b)...),
				app.P().Class("hint").Text("Slow a broker to another pace, or size the cluster, in the Cluster tab."),
			)
		}
	}
	return app.P().Class("hint").Text(in.Selected.name() + " does not exist at this step.")
}

// ProduceHere is a topic's own produce button: it opens the produce tool
// with the topic chosen.
type ProduceHere struct {
	app.Compo

	Topic string
}

// Render draws the button.
func (b *ProduceHere) Render() app.UI {
	topic := b.Topic
	return app.Button().Type("button").Class("produce-here").DataSet("produce-to", topic).
		Title("write a record to "+topic+": the Produce form, with "+topic+" chosen").Aria("label", "produce to "+topic).
		OnClick(func(ctx app.Context, e app.Event) {
			ctx.NewActionWithValue(dockAction, dockRequest{Tab: dockProduce, Topic: topic})
		}, topic).
		Text("+ produce")
}

// brokerLabel says a broker's state in words.
func brokerLabel(b core.BrokerInfo) string {
	label := brokerStatus(b)
	if b.PaceRecords > 0 {
		label += " to " + units.Rate(b.PaceRecords, b.PaceMs)
	}
	if b.Isolated && b.PaceRecords > 0 {
		label = "isolated, slowed to " + units.Rate(b.PaceRecords, b.PaceMs)
	}
	return label
}

// brokerButtons are the actions a broker takes in its state, each the line
// it sends in its title.
func brokerButtons(b core.BrokerInfo) []app.UI {
	id := strconv.Itoa(b.ID)
	button := func(action, text string, role buttonRole) app.UI {
		line := scenario.CmdBroker + " " + action + " " + id
		if action == "slow" {
			line += " pace=" + defaultSlowPace
		}
		// The line is the handler's scope: go-app reuses a button whose
		// place in the list another action held, and keeps its old handler
		// unless the scope differs.
		return app.Button().Type("button").Class(append(role.classes(), "small")...).DataSet("broker-action", action).DataSet("command", scenario.CmdBroker).
			Title(line).Text(text).
			OnClick(func(ctx app.Context, e app.Event) { ApplyFrom(ctx, replicaControl, line) }, line)
	}
	var buttons []app.UI
	if !b.Down {
		buttons = append(buttons, button("crash", "crash", roleDanger))
	} else {
		buttons = append(buttons, button("restart", "restart", rolePrimary))
	}
	if !b.Isolated && !b.Down {
		buttons = append(buttons, button("isolate", "isolate", roleDanger))
	}
	if b.PaceRecords == 0 && !b.Down {
		buttons = append(buttons, button("slow", "slow", roleSecondary))
	}
	if b.Isolated || b.PaceRecords > 0 {
		buttons = append(buttons, button("heal", "heal", rolePrimary))
	}
	return buttons
}
