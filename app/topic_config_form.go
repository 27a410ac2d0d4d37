package app

import (
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// TopicConfigForm changes one config of an existing topic, as Kafka 4.x's
// `kafka-configs.sh --alter --entity-type topics --add-config NAME=VALUE`
// does through the IncrementalAlterConfigs API (KIP-339): the line is the
// scenario language's `config topic NAME name=value`. The engine checks
// the value and whether the config may change.
type TopicConfigForm struct {
	app.Compo

	Topics []TopicSnapshot

	topic string
	// Preset is the topic the learner selected (inspector.go).
	Preset     formPreset
	presetSeen int
	name       string // the config; "" is the first offered
	value      string
}

// topicConfigControl names the form's errors.
const topicConfigControl = "config-topic"

// configName is the config the form changes.
func (f *TopicConfigForm) configName() string {
	if f.name == "" {
		return scenario.TopicConfigNames()[0]
	}
	return f.name
}

// Line writes the config command the form describes, or says what is
// missing.
func (f *TopicConfigForm) Line() (string, string) {
	t, ok := chosenTopic(f.topic, f.Topics)
	if !ok {
		return "", "There is no topic to configure yet."
	}
	v := strings.TrimSpace(f.value)
	if v == "" {
		return "", "Give " + f.configName() + " a value."
	}
	return line("config", positional("topic"), positional(t.Name), named(f.configName(), v)), ""
}

// current is the chosen config's value on the chosen topic, shown as the
// value box's placeholder.
func (f *TopicConfigForm) current() string {
	t, _ := chosenTopic(f.topic, f.Topics)
	for _, c := range t.Configs {
		if c.Name == f.configName() {
			return c.Value
		}
	}
	return ""
}

// Render draws the form.
func (f *TopicConfigForm) Render() app.UI {
	f.Preset.pointAt(&f.presetSeen, &f.topic, nil)
	names := scenario.TopicConfigNames()
	return app.Form().Class("panel", "topic-config-form").DataSet("command", "config").
		Aria("label", "change a topic's config").OnSubmit(submitLine(topicConfigControl, f.Line)).Body(
		app.H2().Body(app.Text("Topic configs "), &Help{Topic: "alter-config"}),
		app.Div().Class("row").Body(
			field("config-topic", "Topic", topicSelect("config-topic", f.Topics, &f.topic, &f.Compo)),
			field("config-name", "Config", app.Select().ID("config-name").Name("config-name").OnChange(f.ValueTo(&f.name)).Body(
				app.Range(names).Slice(func(i int) app.UI {
					return app.Option().Value(names[i]).Selected(names[i] == f.configName()).Text(names[i] + playgroundSuffix(core.OnTopic, names[i]))
				}),
			)),
		),
		app.Div().Class("row").Body(
			field("config-value", "Value", textInput("config-value", &f.value, &f.Compo, "placeholder", f.current(),
				"aria-describedby", "config-help")),
		),
		app.P().ID("config-help").Class("config-help").DataSet("config-help", f.configName()).Body(
			playgroundMark(core.OnTopic, f.configName()),
			app.Text(configHelp(core.OnTopic, f.configName())+" "),
			&DiffersLink{Name: f.configName()},
		),
		app.Button().Type("submit").ID("config-set").Text("Set config"),
		&ControlError{Control: topicConfigControl},
	)
}
