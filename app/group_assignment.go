package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// AssignmentMarks draws, on a partition's lane, which member of each group
// owns the partition: one mark per group with an owner,
// [data-assignment][data-group][data-member][data-topic][data-partition],
// data-assignment saying "assigned", or how a rebalance moves it ("leaving"
// while the rebalance has stopped it, "arriving" when the owner gained it in
// the group's last rebalance). Hovering a mark lights its member's card and
// the member's other lanes; hovering or focusing the card lights the marks.
type AssignmentMarks struct {
	app.Compo

	Topic     string
	Partition int
	Marks     []GroupMark
}

// Render draws the marks in a span of their own, empty without an owner.
func (a *AssignmentMarks) Render() app.UI {
	var owned []GroupMark
	for _, m := range a.Marks {
		if m.Owner != "" {
			owned = append(owned, m)
		}
	}
	return app.Span().Class("assignment-marks").Body(
		app.Range(owned).Slice(func(i int) app.UI {
			m := owned[i]
			state, text := "assigned", "→ "+m.Owner
			title := m.Group + " assigned it to " + ownerName(m)
			switch m.Moving {
			case "leaving":
				state, text = "leaving", "⇠ "+m.Owner
				title = m.Group + "'s rebalance has stopped it: " + m.Owner + " gives it up until the new assignment"
			case "arriving":
				state, text = "arriving", "⇢ "+m.Owner
				title = m.Owner + " gained it in " + m.Group + "'s last rebalance"
			}
			group, member := m.Group, m.Owner
			highlight := func(on bool) app.EventHandler {
				return func(ctx app.Context, e app.Event) { highlightAssignment(group, member, on) }
			}
			return app.Span().Class("assignment-mark").
				DataSet("assignment", state).
				DataSet("group", m.Group).
				DataSet("member", m.Owner).
				DataSet("topic", a.Topic).
				DataSet("partition", a.Partition).
				Title(title).
				OnMouseEnter(highlight(true), group, member).
				OnMouseLeave(highlight(false), group, member).
				Body(app.Span().Class("assignment-group").Text(m.Group), app.Text(" "+text))
		}),
	)
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
