package app

import (
	"fmt"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// MemberLine is one thing the last command did to a group's membership,
// in words: a member joined, left, or stopped without a word (a crash),
// or a rebalance ended.
type MemberLine struct {
	Kind   core.EventKind
	Group  string
	Member string
	Text   string
}

// maxMemberLines bounds the note: a command that empties a large group
// is summed up after this many lines.
const maxMemberLines = 6

// memberLinesOf puts one command's membership events into words. The
// engine's detail says what happened; the words after it say what it
// means for the group's partitions, which a walk found the page never
// said after Crash (core/group_members.go, core/group_consumer.go).
func memberLinesOf(events []core.Event) []MemberLine {
	var lines []MemberLine
	for _, e := range events {
		var text string
		switch e.Kind {
		case core.EventMemberStopped:
			text = fmt.Sprintf("%s of group %s stopped: %s. It no longer polls or sends heartbeats, and the group cannot tell yet: "+
				"the partitions it owns wait, read by nobody, until its session expires; then the group rebalances and gives them to the members still there.",
				e.Member, e.Group, e.Detail)
		case core.EventMemberLeft:
			text = fmt.Sprintf("%s left group %s: %s.", e.Member, e.Group, e.Detail)
			if e.Cause != core.CauseFenced {
				text += " The group rebalances at once: its partitions go to the members still there."
			}
		case core.EventMemberJoined:
			if e.Cause == core.CauseRejoin {
				// A member of the group rejoining the rebalance in its
				// poll: the group's card says the rebalance goes on.
				continue
			}
			text = fmt.Sprintf("%s joined group %s: %s.", e.Member, e.Group, e.Detail)
			if e.Cause != core.CauseStaticReturn {
				text += " The group rebalances to give it a share of the partitions."
			}
		case core.EventRebalanceDone:
			// A walk advanced the clock to end a rebalance and the page
			// said nothing: the card below says who gained what.
			// Count is the partitions that changed owner; one that had
			// none is not counted (core.RebalanceRecord), so nothing is
			// said of a count of 0.
			moved := ""
			if e.Count > 0 {
				moved = units.Plural(int64(e.Count), "partition") + " changed owner; "
			}
			text = fmt.Sprintf("Group %s's rebalance is done, generation %d: %sits card lists what each member gained and lost.", e.Group, e.Generation, moved)
			if e.Detail != "" {
				text = fmt.Sprintf("Group %s's rebalance is done, generation %d: %s.", e.Group, e.Generation, e.Detail)
			}
		default:
			continue
		}
		lines = append(lines, MemberLine{Kind: e.Kind, Group: e.Group, Member: e.Member, Text: text})
	}
	return lines
}

// MemberNote says what the last command did to the groups' members,
// under the lanes, beside what it read and produced.
type MemberNote struct {
	app.Compo

	Lines []MemberLine
}

// Render draws li[data-member-event=KIND][data-member-group][data-member-id]
// per line.
func (n *MemberNote) Render() app.UI {
	if len(n.Lines) == 0 {
		return app.Div().Class("member-note", "empty")
	}
	shown := n.Lines[:min(len(n.Lines), maxMemberLines)]
	return app.Section().Class("member-note").Aria("live", "polite").Aria("label", "what the groups' members did").Body(
		app.Ul().Body(
			app.Range(shown).Slice(func(i int) app.UI {
				l := shown[i]
				return app.Li().DataSet("member-event", string(l.Kind)).DataSet("member-group", l.Group).
					DataSet("member-id", l.Member).Text(l.Text)
			}),
			app.If(len(n.Lines) > len(shown), app.Li().Text(fmt.Sprintf("and %d more", len(n.Lines)-len(shown)))),
		),
	)
}
