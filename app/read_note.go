package app

import (
	"fmt"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ReadLine is what one member of a group read from one partition in the
// last command: a run of offsets, since a poll reads a partition in order
// from the member's position.
type ReadLine struct {
	Group, Member string
	Topic         string
	Partition     int
	From, To      int64 // first and last offset read
	Count         int   // records delivered: a run may skip offsets (a transaction's marker)
}

// maxReadLines bounds the note: a poll of 100 partitions is summed up
// after this many lines.
const maxReadLines = 6

// readLinesOf gathers the records a command delivered, by member and
// partition, in the order they were first read.
func readLinesOf(events []core.Event) []ReadLine {
	var lines []ReadLine
	index := map[ReadLine]int{} // keyed by group, member, topic and partition only
	for _, e := range events {
		if e.Kind != core.EventDelivered {
			continue
		}
		k := ReadLine{Group: e.Group, Member: e.Member, Topic: e.Topic, Partition: e.Partition}
		i, ok := index[k]
		if !ok {
			i = len(lines)
			index[k] = i
			k.From, k.To = e.Offset, e.Offset
			lines = append(lines, k)
		}
		l := &lines[i]
		l.From, l.To = min(l.From, e.Offset), max(l.To, e.Offset)
		l.Count++
	}
	return lines
}

// ReadNote says what the last command's polls read, member by member, so
// that a record's way out of the log is said as its way in is (LandingNote).
type ReadNote struct {
	app.Compo

	Lines []ReadLine
}

// Render draws nothing when nothing was read.
func (n *ReadNote) Render() app.UI {
	if len(n.Lines) == 0 {
		return app.Div().Class("read-note", "empty")
	}
	total := 0
	for _, l := range n.Lines {
		total += l.Count
	}
	shown := n.Lines[:min(len(n.Lines), maxReadLines)]
	return app.Section().Class("read-note").Aria("live", "polite").Aria("label", "what the consumers read").Body(
		app.P().Class("landing-title").Text(countOf(total, "record")+" read"),
		app.Ul().Body(
			app.Range(shown).Slice(func(i int) app.UI {
				l := shown[i]
				return app.Li().DataSet("read-member", l.Member).DataSet("read-partition", fmt.Sprintf("%s/%d", l.Topic, l.Partition)).Body(
					app.Strong().Text(l.Member),
					app.Text(fmt.Sprintf(" of %s read %s/%d %s.", l.Group, l.Topic, l.Partition, offsetRange(l.From, l.To))),
				)
			}),
			app.If(len(n.Lines) > len(shown),
				app.Li().Text(fmt.Sprintf("and %d more", len(n.Lines)-len(shown))),
			),
		),
	)
}
