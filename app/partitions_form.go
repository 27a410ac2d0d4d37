package app

import (
	"strconv"
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// PartitionsForm raises a topic's partition count. Like Kafka, a topic only
// grows, and keys may map to other partitions afterwards.
type PartitionsForm struct {
	app.Compo

	Topic      string
	Partitions int

	count string
}

// partitionsControl names the form's errors; one per topic.
func partitionsControl(topic string) string { return "partitions:" + topic }

// Line writes the partitions command for the count typed.
func (f *PartitionsForm) Line() (string, string) {
	n := strings.TrimSpace(f.count)
	if n == "" {
		n = strconv.Itoa(f.Partitions + 1)
	}
	return line(scenario.CmdPartitions, positional(f.Topic), named("count", n)), ""
}

func (f *PartitionsForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	l, _ := f.Line()
	ApplyFrom(ctx, partitionsControl(f.Topic), l)
}

// Render draws the box and its button.
func (f *PartitionsForm) Render() app.UI {
	id := "partitions-" + f.Topic
	return app.Form().Class("partitions-form").DataSet("command", scenario.CmdPartitions).OnSubmit(f.submit).Body(
		field(id, "Partitions (new total)",
			numberInput(id, &f.count, &f.Compo).Placeholder(strconv.Itoa(f.Partitions+1))),
		app.Button().Type("submit").ID("partitions-go-"+f.Topic).Text("Add partitions"),
		&ControlError{Control: partitionsControl(f.Topic)},
	)
}
