package app

import (
	"strconv"
	"strings"
	"sync"

	"plog/core/lesson"
	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The starter is the small system a first visit opens on, so that the
// first thing a learner sees is Kafka at work rather than a form: a
// producer writing to a topic of three partitions, and a group of two
// consumers reading it, their first rebalance over (it waits
// group.initial.rebalance.delay.ms, 3 s, after each join, as Kafka 4.4's
// GroupMetadataManager and ClassicGroup do: core/group_timing.go). Its
// workloads wait for the clock, so one press of Play makes records flow
// from the producer into the lanes and on to the consumers. The page opens
// it only where it has nothing else to show (no link, no lesson, no
// workspace saved in the browser); Scenarios → New scenario still starts
// an empty one, and the written landing page (OnPreRender) draws it too,
// so the live page takes over in place. The note's words ("an order a
// second") are the script's rate: change them together.
const starterScript = `topic orders partitions=3
join billing c1 topics=orders
join billing c2 topics=orders
advance 6s
producer shop orders rate=1/s keys=sequence
consumer billing c1 rate=1/s
consumer billing c2 rate=1/s
`

// starterFragment is the starter's link, under the latest rules
// (EncodeLink's rules line): the starter is no link anyone saved, so it
// follows the rules of the day; a learner's link made from it keeps the
// rules it was made under. It is written the first time it is asked for:
// as the package started, parsing and compressing the script was 19 ms of
// the page's first task in the browser, where a page opened on a link may
// never need it.
var starterFragment = sync.OnceValue(func() string {
	link, err := scenario.EncodeLink(starterScript)
	if err != nil {
		// A constant script: every test of the package would stop here.
		panic("the starter scenario does not parse: " + err.Error())
	}
	return link
})

// starterShown reports whether the page shows the starter as it opened:
// its steps, and no more, are the timeline's. A step of the learner's (a
// press of Play adds one) ends it; going back to the start shows it again.
func (p *Playground) starterShown() bool {
	// The presenter's view (or any view option) is still the starter; the
	// prefix spares a big scenario's link the parse at every render.
	// Without a session (the first render) there is nothing to compare.
	return p.session != nil && strings.HasPrefix(p.link, starterFragment()) &&
		withOptions(p.link, linkOptions{}) == starterFragment() && p.session.Position() == p.starterEnd
}

// starterNote says what the starter's picture shows and how to set it
// going, in the narration's place, from the state itself (the assignors'
// split, not a sentence that could disagree with the lanes).
func (p *Playground) starterNote() app.UI {
	if !p.starterShown() {
		return app.Div().Class("starter-note", "empty")
	}
	var topic string
	partitions := 0
	if len(p.view.Topics) > 0 {
		topic, partitions = p.view.Topics[0].Name, len(p.view.Topics[0].Partitions)
	}
	var producer string
	for _, w := range p.workloads() {
		if w.Producer {
			producer = w.Name
		}
	}
	var readers []string
	var group string
	if len(p.view.Groups) > 0 {
		g := p.view.Groups[0]
		group = g.Name
		for _, m := range g.Members {
			var parts []string
			for _, tp := range m.Assignment {
				parts = append(parts, strconv.Itoa(tp.Partition))
			}
			readers = append(readers, m.ID+" reads "+partitionWords(parts))
		}
	}
	return app.Div().Class("starter-note").DataSet("starter", true).Body(
		app.P().Class("landing-title").Text("A small Kafka system, ready to run"),
		app.Ul().Body(
			app.Li().Text("Producer "+producer+" will write an order a second to topic "+topic+
				". Its "+strconv.Itoa(partitions)+" partitions are the lanes; a record's key picks its lane."),
			app.Li().Text("Group "+group+"'s consumers share them: "+strings.Join(readers, ", ")+"."),
			// A walk read "Step 7 of 7" and "virtual time 6s" on a page
			// that said it had not started: the steps are its making.
			app.Li().Text("The timeline below lists the "+strconv.Itoa(p.starterEnd)+" steps that set it up."),
			app.Li().Body(
				app.Text("Press "), app.Strong().Text(playText),
				app.Text(" to run the clock, or open "), app.Strong().Text("Lessons"), app.Text("."),
			),
		),
	)
}

// linkNote says, above the narration of a scenario opened from a link,
// what the reader is looking at: a walk took a shared scenario's first
// screen for the page's default, with nothing to say who made it or how
// to see it unfold. Shown while the page stands where the link left it;
// an embed's frame, which its course page explains, goes without.
func (p *Playground) linkNote() app.UI {
	if !p.landingSaid || p.share.options.Embed || p.share.options.Present || p.session == nil || p.session.Position() != p.starterEnd || p.starterEnd == 0 {
		return app.Div().Class("starter-note", "empty")
	}
	return app.Div().Class("starter-note").DataSet("link-note", true).Body(
		app.P().Class("landing-title").Text("A scenario from a link"),
		app.Ul().Body(
			app.Li().Text("The timeline below lists the "+strconv.Itoa(p.starterEnd)+" steps that built it; what the last one did is said under this note."),
			app.Li().Body(
				app.Text("Press "), app.Strong().Text("↶ Undo"), app.Text(", or drag the timeline's slider, to see it step by step; "),
				app.Strong().Text(playText), app.Text(" runs the clock on."),
			),
		),
	)
}

// lessonStartNote says, in the narration's place, what a lesson's start
// shows, from the state itself: which topics are the lanes, who writes and
// who reads, and that the learner's first act is the next step. A walk
// opened a lesson on lanes and cards with nothing said of them, where
// every later step is narrated. It goes once the learner acts, and comes
// back when the timeline goes back to the start.
func (p *Playground) lessonStartNote() app.UI {
	if p.lesson.current == nil || p.session == nil || p.session.Position() != p.lesson.steps || p.share.options.Present {
		return app.Div().Class("starter-note", "empty")
	}
	return app.Div().Class("starter-note").DataSet("lesson-start", p.lesson.current.Name).Body(
		app.P().Class("landing-title").Text("The lesson's start"),
		app.Ul().Body(
			app.Li().Text(topicsSentence(p.view.Topics)),
			app.Li().Body(
				app.Text(actorsSentence(p.view, producerWorkloads(p.workloads()))+" "),
				// The tools start folded in a lesson (dock.go): where the
				// learner is the writer, the form is one press away.
				app.If(len(p.view.Producers) == 0 && len(producerWorkloads(p.workloads())) == 0,
					controlButton(lesson.Inline{Kind: lesson.InlineControl, Text: "Open the Produce form", Control: lesson.ControlRef{Name: "produce-key"}})),
			),
			app.Li().Text("The goal is in the lesson; "+strconv.Itoa(p.lesson.steps)+
				" steps set this up, and yours will be step "+strconv.Itoa(p.lesson.steps+1)+"."),
		),
	)
}

// topicsSentence says which topics the lanes are, and what they hold.
func topicsSentence(topics []TopicSnapshot) string {
	if len(topics) == 0 {
		return "No topic yet: the lanes come with the first one."
	}
	var parts []string
	for _, t := range topics {
		n, records := len(t.Partitions), 0
		for _, part := range t.Partitions {
			records += part.Count
		}
		held := ", empty"
		if records > 0 {
			held = ", " + countOf(records, "record")
		}
		parts = append(parts, t.Name+" ("+countOf(n, "partition")+held+")")
	}
	return units.Noun(int64(len(topics)), "Topic ", "Topics ") + units.Join(parts) + ": each partition is a lane."
}

// actorsSentence says who writes and who reads. Not where they are drawn:
// that changes with the screen's width.
func actorsSentence(v LogSnapshot, workloads []scenario.Workload) string {
	var writers, readers, waiting []string
	for _, pv := range v.Producers {
		writers = append(writers, pv.Name)
	}
	for _, w := range workloads {
		writers = append(writers, w.Name)
	}
	reader := func(kind, name string, members int) {
		if members == 0 {
			waiting = append(waiting, kind+" "+name)
			return
		}
		readers = append(readers, kind+" "+name+" ("+countOf(members, "member")+")")
	}
	for _, g := range v.Groups {
		reader("group", g.Name, len(g.Members))
	}
	for _, g := range v.ShareGroups {
		reader("share group", g.Name, len(g.Members))
	}
	write := "You write records with the Produce form"
	if n := int64(len(writers)); n > 0 {
		write = units.Noun(n, "Producer ", "Producers ") + units.Join(writers) + units.Noun(n, " writes", " write") + " to them"
	}
	read := "nobody reads them yet"
	if n := int64(len(readers)); n > 0 {
		read = units.Join(readers) + units.Noun(n, " reads", " read") + " them"
	}
	if n := int64(len(waiting)); n > 0 {
		// A group configured before any member joins it reads nothing.
		read += "; " + units.Join(waiting) + units.Noun(n, " has", " have") + " no member yet"
	}
	return write + "; " + read + "."
}

// partitionWords names partitions in words: "partition 2",
// "partitions 0 and 1", "partitions 0, 1 and 2", "no partition".
func partitionWords(parts []string) string {
	switch len(parts) {
	case 0:
		return "no partition"
	case 1:
		return "partition " + parts[0]
	}
	return "partitions " + units.Join(parts)
}
