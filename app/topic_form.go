package app

import (
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TopicForm creates a topic: its name, partition count and configs, with
// Kafka's config names.
type TopicForm struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts the form afresh (fresh_form.go)
	linksSeen int

	name       string
	partitions string
	retention  string // retention.ms; "" keeps the default
	segment    string // segment.records; "" keeps the default
	policy     string // cleanup.policy
	more       string // any other configs, name=value ...
}

// topicControl names the form's errors.
const topicControl = "topic"

// OnInit sets what a new learner most likely wants.
func (f *TopicForm) OnInit() {
	f.partitions, f.policy = "3", "delete"
}

// Line writes the topic command the form describes, or says what is
// missing. The engine checks the rest.
func (f *TopicForm) Line() (string, string) {
	name := strings.TrimSpace(f.name)
	if name == "" {
		return "", "Give the topic a name, e.g. orders."
	}
	if strings.TrimSpace(f.partitions) == "" {
		return "", "Say how many partitions the topic has, e.g. 3."
	}
	args := []scenario.Arg{positional(name), named("partitions", strings.TrimSpace(f.partitions))}
	for _, c := range []struct{ name, value string }{
		{"retention.ms", f.retention},
		{"segment.records", f.segment},
		{"cleanup.policy", f.policy},
	} {
		if v := strings.TrimSpace(c.value); v != "" {
			args = append(args, named(c.name, v))
		}
	}
	l := line(scenario.CmdTopic, args...)
	if more := strings.TrimSpace(f.more); more != "" {
		l += " " + more
	}
	return l, ""
}

// Render draws the form.
func (f *TopicForm) Render() app.UI {
	if f.Links != f.linksSeen {
		startAfresh(f, (*TopicForm).OnInit)
		f.linksSeen = f.Links
	}
	return app.Form().Class("panel", "topic-form").DataSet("command", scenario.CmdTopic).Aria("label", "create a topic").OnSubmit(submitLine(topicControl, f.Line)).Body(
		app.H2().Text("New topic"),
		app.Div().Class("row").Body(
			field("topic-name", "Name", textInput("topic-name", &f.name, &f.Compo, "placeholder", "e.g. orders")),
			field("topic-partitions", "Partitions", numberInput("topic-partitions", &f.partitions, &f.Compo)),
		),
		app.Div().Class("row").Body(
			field("topic-retention", "retention.ms", textInput("topic-retention", &f.retention, &f.Compo, "placeholder", "1h")),
			app.Div().Class("field").Body(
				app.Label().For("topic-segment").Title(configHelp(core.OnTopic, "segment.records")).Body(
					app.Text("segment.records "), playgroundMark(core.OnTopic, "segment.records")),
				numberInput("topic-segment", &f.segment, &f.Compo).Placeholder(playgroundDefault(core.OnTopic, "segment.records")),
			),
			field("topic-policy", "cleanup.policy", app.Select().ID("topic-policy").OnChange(f.ValueTo(&f.policy)).Body(
				app.Range([]string{"delete", "compact", "compact,delete"}).Slice(func(i int) app.UI {
					v := []string{"delete", "compact", "compact,delete"}[i]
					return app.Option().Value(v).Selected(v == f.policy).Text(v)
				}),
			)),
		),
		field("topic-configs", "More configs (name=value …)", textInput("topic-configs", &f.more, &f.Compo, "placeholder", "retention.bytes=4KB")),
		app.Button().Type("submit").ID("topic-create").Text("Create topic"),
		&ControlError{Control: topicControl},
	)
}
