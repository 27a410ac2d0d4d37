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

// GroupCard shows one consumer group compactly, for the groups column: a
// header (name, strategy, protocol, state, generation), its lag in a line,
// the rebalance in progress or the last one, one small card per member with
// its partitions and its controls, and "+ Join a member". The group's name
// and each member's open them in the dock's inspector (inspector_group.go)
// with their details and settings.
type GroupCard struct {
	app.Compo

	Group GroupSnapshot
	// Selected is what the inspector shows: the card marks its group or
	// member when it is one of them.
	Selected selection
	// Links counts the links the page opened (fresh_form.go): a new one
	// closes the join form, which belonged to the scenario before.
	Links int
	// Topics are the topics that exist: a new member's subscription when
	// the group has no running member to copy one from.
	Topics []string

	memberStart int             // the first member drawn
	known       map[string]bool // the members at the last render, to follow a new one (followNew)

	joining   bool   // the join form of this group is open
	joinFrom  int    // the group's members when the form opened: one more closes it
	stateOf   string // the group the field above is for
	linksSeen int    // Links when joining was last set afresh

	membersDrawn inTurns // a few members at a turn of the browser's
}

// membersShown is how many members a card draws at once (list_window.go),
// and membersPerTurn how many more than the last render a render draws in
// the browser (inTurns): a member of a group over 10,000 partitions lists
// 48 of them, some 60 elements.
const (
	membersShown   = 12
	membersPerTurn = 4
)

func (c *GroupCard) OnMount(ctx app.Context) { c.membersDrawn.mount(ctx) }

func (c *GroupCard) OnUpdate(ctx app.Context) { c.membersDrawn.keepDrawing(ctx) }

// Render draws the card with docs/ARCHITECTURE.md's [data-group] and the attributes
// tests read: data-state, data-generation, data-lag (records over the
// partitions with a commit) and data-alert.
func (c *GroupCard) Render() app.UI {
	g := c.Group
	if c.stateOf != g.Name {
		// go-app hands a list's components to its items by position: a
		// card that now shows another group does not keep this one's
		// join form open.
		c.joining, c.stateOf = false, g.Name
	}
	if c.Links != c.linksSeen {
		c.joining, c.linksSeen = false, c.Links
	}
	if c.joining && len(g.Members) > c.joinFrom {
		// The member joined: the form closes, rather than offer the next
		// name, which a walk took for a step to take.
		c.joining = false
	}
	ids := make([]string, len(g.Members))
	for i, m := range g.Members {
		ids[i] = m.ID
	}
	c.memberStart, c.known = followNew(c.memberStart, membersShown, ids, c.known)
	members := windowAt(c.memberStart, membersShown, len(g.Members))
	shownMembers := g.Members[members.start:members.end()]
	shownMembers = shownMembers[:c.membersDrawn.start(membersPerTurn)(len(shownMembers))]
	article := app.Article().
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
		Aria("label", "Group "+g.Name)
	inspecting := c.Selected.inGroup(g.Name)
	if inspecting {
		article = article.DataSet("inspecting", "true")
	}
	return article.Body(
		app.Header().Class("group-head").Body(
			app.H3().Body(
				app.Button().Type("button").Class("group-select").DataSet("action", "inspect-group").
					Aria("controls", "dock-inspector").
					Title("Open "+g.Name+" in the inspector: configs, offsets, lag and charts").
					OnClick(selectThing(selection{Kind: selectGroup, Group: g.Name}), g.Name).Text(g.Name),
			),
			app.If(g.Protocol != core.ProtocolConsumer,
				app.Span().Class("group-strategy").Body(
					&Help{Topic: strategyHelp(g.Strategy), Label: g.Strategy},
				),
				app.Span().Class("group-protocol").DataSet("protocol", core.ProtocolClassic).
					Title("the classic group protocol: JoinGroup and SyncGroup, the group leader assigns").Text("classic"),
			).Else(
				app.Span().Class("group-strategy").Title("the server-side assignor of the target assignment").Text(g.Assignor),
				app.Span().Class("group-protocol").DataSet("protocol", core.ProtocolConsumer).
					Title("Kafka 4's consumer group protocol (KIP-848): the coordinator assigns, each member moves to its target at its own heartbeats").Text("consumer"),
			),
			app.Span().Class("group-state").DataSet("badge", g.State).Text(g.State),
			app.If(g.Protocol != core.ProtocolConsumer,
				app.Span().Class("group-generation").Body(
					&Help{Topic: "generation", Label: groupGenerationText(g)},
				),
			).Else(
				app.Span().Class("group-generation").Title("the group epoch, and the epoch of its target assignment").
					Text(groupGenerationText(g)),
			),
		),
		c.renderLagSummary(),
		&GroupRebalance{Group: g.Name, Now: g.Now, Rebalance: g.Rebalance, Last: g.LastRebalance},
		app.If(len(g.Members) == 0,
			app.P().Class("group-no-members").Text("No members: the group only keeps its committed offsets."),
		),
		windowNav("members-"+g.Name, "members", 1, members, func(ctx app.Context, start int) {
			c.memberStart = start
			c.membersDrawn.again()
		}),
		app.Ul().Class("members").Aria("label", "Members of "+g.Name).Body(
			app.Range(shownMembers).Slice(func(i int) app.UI {
				m := shownMembers[i]
				leaving, arriving := memberMoves(g, m.ID)
				return &GroupMember{
					Group: g.Name, Strategy: g.Strategy, Now: g.Now, Member: m,
					ComeBackID: comeBackID(g, m), Order: slices.Index(g.AssignorOrder, m.ID) + 1,
					Leaving: leaving, Arriving: arriving,
					Selected: c.Selected.Kind == selectMember && inspecting && c.Selected.Member == m.ID,
				}
			}),
		),
		app.Button().Type("button").Class("group-join-toggle").DataSet("action", "join-member").
			Aria("expanded", c.joining).
			OnClick(c.toggleJoin).
			Text("+ Join a member"),
		app.If(c.joining,
			&GroupJoinForm{
				Preset: g.Name, Suggest: suggestedMemberID(g), Subscription: c.subscription(), Topics: c.Topics,
				Members: memberKeys([]GroupSnapshot{g}),
			},
		),
	)
}

// toggleJoin opens or closes the card's join form. Opened, the form is
// brought into view: a card low in the groups' column opened it below the
// column's edge, where a walk of lesson 4 found a form cut off.
func (c *GroupCard) toggleJoin(ctx app.Context, e app.Event) {
	c.joining, c.joinFrom = !c.joining, len(c.Group.Members)
	if !c.joining {
		return
	}
	name := c.Group.Name
	ctx.Defer(func(app.Context) {
		form := `article[data-group="` + app.Window().Get("CSS").Call("escape", name).String() + `"] form.member-join`
		if el := app.Window().Get("document").Call("querySelector", form); el.Truthy() {
			el.Call("scrollIntoView", map[string]any{"block": "nearest"})
		}
	})
}

// subscription is what the card's join form offers as a new member's
// topics: the group's, or the only topic there is.
func (c *GroupCard) subscription() string {
	if s := subscriptionOf(c.Group); s != "" || len(c.Topics) != 1 {
		return s
	}
	return c.Topics[0]
}

// subscriptionOf is what a new member of the group subscribes to unless the
// learner types otherwise: the first running member's topics, else the
// topics the group has partitions of.
func subscriptionOf(g GroupSnapshot) string {
	for _, m := range g.Members {
		if m.Down == "" && len(m.Topics) > 0 {
			return strings.Join(m.Topics, ",")
		}
	}
	var topics []string
	for _, p := range g.Partitions {
		if !slices.Contains(topics, p.Topic) {
			topics = append(topics, p.Topic)
		}
	}
	return strings.Join(topics, ",")
}

// renderLagSummary says how far behind the group is, and lights the alert
// when a threshold is crossed.
func (c *GroupCard) renderLagSummary() app.UI {
	g := c.Group
	text := lagText(g)
	var thresholds []string
	if g.Config.LagAlertRecords > 0 {
		thresholds = append(thresholds, fmt.Sprintf("%d records", g.Config.LagAlertRecords))
	}
	if g.Config.LagAlertMs > 0 {
		thresholds = append(thresholds, units.Duration(g.Config.LagAlertMs))
	}
	return app.Div().Class("group-lag").Body(
		app.P().Body(
			// The caption is the button of its explanation, which says
			// what a lag of "unknown" is.
			app.Span().DataSet("group-lag", g.Name).Body(&Help{Topic: "lag", Label: text}),
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

// groupGenerationText is the caption of the group's generation: a classic
// group's generation, a consumer group's epoch and its target
// assignment's.
func groupGenerationText(g GroupSnapshot) string {
	if g.Protocol == core.ProtocolConsumer {
		return fmt.Sprintf("epoch %d, target %d", g.GroupEpoch, g.AssignmentEpoch)
	}
	return fmt.Sprintf("gen %d", g.Generation)
}

// lagText is the caption of the group's lag: the records behind over the
// partitions it has committed on, and how far behind in time.
func lagText(g GroupSnapshot) string {
	hasCommit := false
	for _, p := range g.Partitions {
		hasCommit = hasCommit || p.HasCommitted
	}
	if !hasCommit {
		return "lag unknown: nothing committed yet"
	}
	// "from its commits": a walk read "lag 4" just after reading those 4
	// records as a mistake; lag counts from the committed offset.
	return fmt.Sprintf("lag %s from its commits · %s behind", units.Plural(g.TotalLag, "record"), units.Duration(g.MaxTimeLagMs))
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
