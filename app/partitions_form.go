package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// PartitionsForm raises a topic's partition count. Like Kafka, a topic only
// grows, and keys may map to other partitions afterwards.
type PartitionsForm struct {
	app.Compo

	Topic      string
	Partitions int

	count    string
	countFor string // the topic the count was typed for
}

// partitionsControl names the form's errors; one per topic.
func partitionsControl(topic string) string { return "partitions:" + topic }

// Line writes the partitions command for the count typed.
func (f *PartitionsForm) Line() (string, string) {
	n := strings.TrimSpace(f.count)
	if n == "" {
		n = strconv.Itoa(f.Partitions + 1)
	}
	return line("partitions", positional(f.Topic), named("count", n)), ""
}

func (f *PartitionsForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	l, _ := f.Line()
	ApplyFrom(ctx, partitionsControl(f.Topic), l)
}

// Render draws the box and its button.
func (f *PartitionsForm) Render() app.UI {
	if f.countFor != f.Topic {
		// go-app hands a list's components to its items by position: when
		// a topic sorted before this one appears, this form shows another
		// topic, which must not be sent the count typed for this one.
		f.count, f.countFor = "", f.Topic
	}
	id := "partitions-" + f.Topic
	return app.Form().Class("partitions-form").DataSet("command", "partitions").OnSubmit(f.submit).Body(
		field(id, "Partitions (new total)",
			numberInput(id, &f.count, &f.Compo).Placeholder(strconv.Itoa(f.Partitions+1))),
		app.Button().Type("submit").ID("partitions-go-"+f.Topic).Text("Add partitions"),
		&ControlError{Control: partitionsControl(f.Topic)},
	)
}
