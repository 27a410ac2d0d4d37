package app

import (
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// CleanupControls remove records on purpose: truncate a partition before
// an offset (Kafka's DeleteRecords), or run the log cleaner on a compacted
// topic now, the playground's shortcut (Kafka's cleaner runs by itself, and
// under rules 3 the playground's does too).
type CleanupControls struct {
	app.Compo

	Topics []TopicSnapshot

	truncTopic     string
	truncPartition string
	before         string
	compactTopic   string

	// Preset is the topic or partition the learner selected (inspector.go).
	Preset     formPreset
	presetSeen int
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
	if c.Preset.Seq != c.presetSeen && c.Preset.Topic != "" {
		c.compactTopic = c.Preset.Topic
	}
	c.Preset.pointAt(&c.presetSeen, &c.truncTopic, &c.truncPartition)
	t, _ := chosenTopic(c.truncTopic, c.Topics)
	return app.Section().Class("panel", "cleanup").Aria("label", "remove records").Body(
		app.H2().Text("Truncate and compact"),
		app.Form().DataSet("command", scenario.CmdTruncate).OnSubmit(submitLine(truncateControl, c.TruncateLine)).Body(
			app.Div().Class("row").Body(
				field("truncate-topic", "Topic", topicSelect("truncate-topic", c.Topics, &c.truncTopic, &c.Compo)),
				field("truncate-partition", "Partition", partitionPicker("truncate-partition", t, &c.truncPartition, &c.Compo, "")),
				field("truncate-before", "Before offset", numberInput("truncate-before", &c.before, &c.Compo)),
				&Help{Topic: "delete-records"},
			),
			app.Button().Type("submit").ID("truncate-go").Class(roleDanger.classes()...).Text("Truncate"),
			&ControlError{Control: truncateControl},
		),
		app.Form().DataSet("command", scenario.CmdCompact).OnSubmit(submitLine(compactControl, c.CompactLine)).Body(
			app.Div().Class("row").Body(
				field("compact-topic", "Topic", topicSelect("compact-topic", c.Topics, &c.compactTopic, &c.Compo)),
				app.Button().Type("submit").ID("compact-go").DataSet("shortcut", "cleaner").
					Title(cleanerShortcutHelp).Text("Run the cleaner now"),
				&Help{Topic: "compaction"},
			),
			app.P().Class("shortcut-note").DataSet("shortcut-note", "cleaner").Body(
				app.Span().Class("playground-only").Text("playground shortcut"),
				app.Text(" Kafka's log cleaner runs by itself; this cleans the topic at once, whatever its dirty ratio. "),
				&DiffersLink{Name: "cleaner"},
			),
			&ControlError{Control: compactControl},
		),
	)
}

// cleanerShortcutHelp says what the compact button does.
const cleanerShortcutHelp = "A playground shortcut: Kafka's log cleaner runs by itself, every 15 s it finds nothing to do, " +
	"and cleans a partition once more than half of it is dirty (under rules 3; under rules 1 and 2 the playground cleaned only when asked). " +
	"This runs it on the topic now, whatever its dirty ratio (compact TOPIC)."
