package app

import (
	"slices"
	"strconv"
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupPanel is the groups column of the picture: one compact card per
// group (group_card.go), each with its members and its "+ Join a member";
// "+ New group", the form that adds a member to any group,
// new or not; and, folded, the charts of records and rebalances. Its controls build
// lines of the scenario language and send them with ApplyFrom, so a line the
// engine refuses is reported next to the control that made it, and nothing
// changes.
type GroupPanel struct {
	app.Compo

	Links int // links the page opened since it was ready, for the join form (fresh_form.go)

	Groups  []GroupSnapshot
	Records []TopicRecordCounts
	// HideSkew leaves the topics' skew out of the records chart
	// (TopicList.HideSkew).
	HideSkew bool
	// Selected is what the inspector shows, marked on its card.
	Selected selection
	// Share is the share groups' section, drawn below the consumer groups
	// inside this region's scroll, so that it never takes the column's
	// height from the consumer groups' members.
	Share *ShareGroupPanel

	// ChartsOpen unfolds the charts of records and rebalances
	// (chartsAction). Folded, they are not drawn: they were a thousand
	// elements of a big scenario that the learner did not see.
	ChartsOpen bool

	groupStart int             // the first group drawn
	known      map[string]bool // the groups at the last render, to follow a new one (followNew)
	newGroup   bool            // the learner opened the join form at the top
	openedAt   int             // the members there were when it opened
	linksSeen  int             // Links when newGroup was last set afresh
}

// chartsAction unfolds or folds the charts of records and rebalances
// (value: bool).
const chartsAction = "plog/charts"

// groupsShown is how many groups the panel draws at once (list_window.go):
// each card is a score of components.
const groupsShown = 6

// memberCount is how many members the groups hold.
func memberCount(groups []GroupSnapshot) int {
	n := 0
	for _, g := range groups {
		n += len(g.Members)
	}
	return n
}

// Render draws the join form, one card per group and the charts.
func (p *GroupPanel) Render() app.UI {
	topics := make([]string, len(p.Records))
	for i, t := range p.Records {
		topics[i] = t.Topic
	}
	if p.Links != p.linksSeen {
		// A link or a lesson opened: the join form the learner left open
		// in the last one closes (fresh_form.go).
		p.newGroup, p.linksSeen = false, p.Links
	}
	if members := memberCount(p.Groups); p.newGroup && members > p.openedAt {
		// The form's join landed: it closes, as a card's does, so that
		// the member joined is in sight (a walk found the form still open,
		// the new member's card below it).
		p.newGroup = false
	}
	p.groupStart, p.known = followNew(p.groupStart, groupsShown, groupNames(p.Groups), p.known)
	window := windowAt(p.groupStart, groupsShown, len(p.Groups))
	shown := p.Groups[window.start:window.end()]
	// The form opens on "+ New group" only, even with no group yet: open,
	// its nine fields were the first thing a learner saw of a lesson about
	// keys and partitions, in which no group plays a part.
	formOpen := p.newGroup
	return app.Section().
		Class("groups-panel").
		DataSet("groups-column", true).
		Aria("labelledby", "groups-title").
		Body(
			app.Header().Class("groups-head").Body(
				app.H2().ID("groups-title").Body(
					app.Text("Consumer groups "),
					&Help{Topic: "consumer-group"},
				),
				app.Button().Type("button").Class("group-new-toggle").DataSet("action", "new-group").
					Aria("expanded", formOpen).
					OnClick(func(ctx app.Context, e app.Event) { p.newGroup, p.openedAt = !p.newGroup, memberCount(p.Groups) }).
					Text("+ New group"),
			),
			app.Div().Class("group-new").Hidden(!formOpen).Body(
				&GroupJoinForm{Links: p.Links, Topics: topics, Groups: groupNames(p.Groups), Members: memberKeys(p.Groups)},
			),
			app.If(len(p.Groups) == 0,
				app.P().Class("groups-empty").Text("No consumer groups yet: a group starts when its first consumer joins it (+ New group)."),
			).Else(
				windowNav("groups", "groups", 1, window, func(ctx app.Context, start int) { p.groupStart = start }),
				app.Div().Class("group-list").Body(
					app.Range(shown).Slice(func(i int) app.UI {
						return &GroupCard{Group: shown[i], Selected: p.Selected, Links: p.Links, Topics: topics}
					}),
				),
			),
			app.Details().Class("group-charts").Open(p.ChartsOpen).
				On("toggle", func(ctx app.Context, e app.Event) {
					if open := ctx.JSSrc().Get("open").Bool(); open != p.ChartsOpen {
						ctx.NewActionWithValue(chartsAction, open)
					}
				}).
				Body(
					app.Summary().Text("Charts of records and rebalances"),
					app.If(p.ChartsOpen,
						&RecordsChart{Topics: p.Records, HideSkew: p.HideSkew},
						&MovesChart{Rounds: movesOf(p.Groups)},
					),
				),
			// The share groups below the consumer groups' charts, which are
			// theirs.
			app.If(p.Share != nil, p.Share),
		)
}

// memberKeys lists every member as "group/member".
func memberKeys(groups []GroupSnapshot) map[string]bool {
	keys := map[string]bool{}
	for _, g := range groups {
		for _, m := range g.Members {
			keys[g.Name+"/"+m.ID] = true
		}
	}
	return keys
}

func groupNames(groups []GroupSnapshot) []string {
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = g.Name
	}
	return names
}

// joinControl names the join form, for its errors.
const joinControl = "group-join"

// sendGroupLine runs the line a control made; its ControlError shows why the
// engine refused it. When the control found its input wrong before it could
// make a line, the ControlError shows that problem instead.
func sendGroupLine(ctx app.Context, control, line, problem string) {
	if problem != "" {
		setControlError(ctx, ControlAlert{Control: control, Message: problem})
		return
	}
	ApplyFrom(ctx, control, line)
}

// groupControl names a control of one group: "billing/reset",
// "billing/member/c1".
func groupControl(group string, parts ...string) string {
	return group + "/" + strings.Join(parts, "/")
}

// word writes a value as one word of a scenario line, quoted when it would
// otherwise read as something else (a flag word such as to-earliest among
// them), so that what a learner types can only ever be one argument.
func word(v string) string {
	if v == "" || slices.Contains(scenario.FlagWords(), v) {
		return strconv.Quote(v)
	}
	for _, c := range v {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("._-/,", c)
		if !ok {
			return strconv.Quote(v)
		}
	}
	return v
}
