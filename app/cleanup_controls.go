package app

import (
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// CleanupControls remove records on purpose: truncate a partition before
// an offset (Kafka's DeleteRecords), or run the log cleaner on a compacted
// topic now.
type CleanupControls struct {
	app.Compo

	Topics []TopicSnapshot

	truncTopic     string
	truncPartition string
	before         string
	compactTopic   string
}

// The controls' error names.
const (
	truncateControl = "truncate"
	compactControl  = "compact"
)

// TruncateLine writes the truncate command, or says what is missing.
func (c *CleanupControls) TruncateLine() (string, string) {
	t, ok := chosenTopic(c.truncTopic, c.Topics)
	if !ok {
		return "", "There is no topic to truncate yet."
	}
	part := c.truncPartition
	if part == "" {
		part = "0"
	}
	before := strings.TrimSpace(c.before)
	if before == "" {
		return "", "Truncate before which offset? Records below it go."
	}
	return line(scenario.CmdTruncate, positional(t.Name+"/"+part), named("before", before)), ""
}

// CompactLine writes the compact command.
func (c *CleanupControls) CompactLine() (string, string) {
	t, ok := chosenTopic(c.compactTopic, c.Topics)
	if !ok {
		return "", "There is no topic to compact yet."
	}
	return line(scenario.CmdCompact, positional(t.Name)), ""
}

// Render draws both forms.
func (c *CleanupControls) Render() app.UI {
	t, _ := chosenTopic(c.truncTopic, c.Topics)
	return app.Section().Class("panel", "cleanup").Aria("label", "remove records").Body(
		app.H2().Text("Truncate and compact"),
		app.Form().DataSet("command", scenario.CmdTruncate).OnSubmit(submitLine(truncateControl, c.TruncateLine)).Body(
			app.Div().Class("row").Body(
				field("truncate-topic", "Topic", topicSelect("truncate-topic", c.Topics, &c.truncTopic, &c.Compo)),
				field("truncate-partition", "Partition", app.Select().ID("truncate-partition").OnChange(c.ValueTo(&c.truncPartition)).Body(
					partitionOptions(t, c.truncPartition)...,
				)),
				field("truncate-before", "Before offset", numberInput("truncate-before", &c.before, &c.Compo)),
				&Help{Topic: "delete-records"},
			),
			app.Button().Type("submit").ID("truncate-go").Text("Truncate"),
			&ControlError{Control: truncateControl},
		),
		app.Form().DataSet("command", scenario.CmdCompact).OnSubmit(submitLine(compactControl, c.CompactLine)).Body(
			app.Div().Class("row").Body(
				field("compact-topic", "Topic", topicSelect("compact-topic", c.Topics, &c.compactTopic, &c.Compo)),
				app.Button().Type("submit").ID("compact-go").Text("Compact now"),
			),
			&ControlError{Control: compactControl},
		),
	)
}
