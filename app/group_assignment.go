package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// assignmentChip makes a lane's chip of one group the mark of the
// partition's owner in that group, when it has one:
// [data-assignment][data-group][data-member][data-topic][data-partition],
// data-assignment saying "assigned", or how a rebalance moves it ("leaving"
// while the rebalance has stopped it, "arriving" when the owner gained it in
// the group's last rebalance). The chip is already there for the group's
// commit, so the owner costs no element more on a lane. Hovering the mark
// lights its member's card and the member's other lanes; hovering or
// focusing the card lights the marks.
func assignmentChip(chip app.HTMLSpan, topic string, partition int, m GroupMark, text string) app.UI {
	if m.Owner == "" {
		return chip.Text(text)
	}
	state := "assigned"
	title := m.Group + " assigned it to " + ownerName(m)
	switch m.Moving {
	case "leaving":
		state = "leaving"
		title = m.Group + "'s rebalance has stopped it: " + m.Owner + " gives it up until the new assignment"
	case "arriving":
		state = "arriving"
		title = m.Owner + " gained it in " + m.Group + "'s last rebalance"
	}
	group, member := m.Group, m.Owner
	highlight := func(on bool) app.EventHandler {
		return func(ctx app.Context, e app.Event) { highlightAssignment(group, member, on) }
	}
	return chip.
		DataSet("assignment", state).
		DataSet("member", m.Owner).
		DataSet("topic", topic).
		DataSet("partition", partition).
		Title(title).
		OnMouseEnter(highlight(true), group, member).
		OnMouseLeave(highlight(false), group, member).
		Text(text)
}

// highlightAssignment lights, or puts out, a member's card, its assignment
// marks and their lanes, by setting data-highlight on them. It runs in an
// event handler, in the browser: the lanes and the cards are other
// components, and a hover must not render the page again.
func highlightAssignment(group, member string, on bool) {
	doc := app.Window().Get("document")
	lit := doc.Call("querySelectorAll", "[data-highlight]")
	for i := lit.Length() - 1; i >= 0; i-- {
		lit.Index(i).Call("removeAttribute", "data-highlight")
	}
	if !on {
		return
	}
	css := app.Window().Get("CSS")
	g := `"` + css.Call("escape", group).String() + `"`
	m := `"` + css.Call("escape", member).String() + `"`
	marks := doc.Call("querySelectorAll", "[data-assignment][data-group="+g+"][data-member="+m+"]")
	for i := 0; i < marks.Length(); i++ {
		mark := marks.Index(i)
		mark.Call("setAttribute", "data-highlight", "true")
		if lane := mark.Call("closest", ".lane"); lane.Truthy() {
			lane.Call("setAttribute", "data-highlight", "true")
		}
	}
	if card := doc.Call("querySelector", "article[data-group="+g+"] li[data-member="+m+"]"); card.Truthy() {
		card.Call("setAttribute", "data-highlight", "true")
	}
}

// memberMoves lists, as data-assigned does, a member's partitions a running
// rebalance has stopped and those it gained in the last rebalance.
func memberMoves(g GroupSnapshot, member string) (leaving, arriving string) {
	var leave, arrive []string
	for _, p := range g.Partitions {
		if p.Owner != member {
			continue
		}
		name := p.Topic + "/" + strconv.Itoa(p.Partition)
		switch g.movingOf(p) {
		case "leaving":
			leave = append(leave, name)
		case "arriving":
			arrive = append(arrive, name)
		}
	}
	return strings.Join(leave, " "), strings.Join(arrive, " ")
}
