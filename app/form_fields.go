package app

import (
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// line writes a command of the scenario language. The scenario package
// quotes what needs quoting, so a key with spaces or quotes stays one value.
func line(name string, args ...scenario.Arg) string {
	return scenario.Command{Name: name, Args: args}.String()
}

// positional is an argument without a name.
func positional(value string) scenario.Arg { return scenario.Arg{Value: value} }

// named is a name=value argument.
func named(name, value string) scenario.Arg { return scenario.Arg{Name: name, Value: value} }

// flag is a bare word argument.
func flag(name string) scenario.Arg { return scenario.Arg{Name: name, Flag: true} }

// field is a labelled control: the label names it for every reader.
func field(id, label string, control app.UI) app.UI {
	return app.Div().Class("field").Body(
		app.Label().For(id).Body(dotted(label)...),
		control,
	)
}

// dotted is a label's text with a place to break after each dot, so that
// a config's name wraps between its words (max.in.flight. / requests.per.
// / connection) rather than inside one, as a narrow column broke it.
func dotted(text string) []app.UI {
	parts := strings.SplitAfter(text, ".")
	ui := make([]app.UI, 0, 2*len(parts))
	for i, part := range parts {
		if i > 0 {
			ui = append(ui, app.Wbr())
		}
		ui = append(ui, app.Text(part))
	}
	return ui
}

// textInput is a one-line text box bound to a string field.
func textInput(id string, value *string, c *app.Compo, attrs ...string) app.HTMLInput {
	in := app.Input().Type("text").ID(id).Name(id).Value(*value).
		AutoComplete(false).Attr("spellcheck", "false").
		OnInput(c.ValueTo(value))
	for i := 0; i+1 < len(attrs); i += 2 {
		in = in.Attr(attrs[i], attrs[i+1])
	}
	return in
}

// withheld disables a text box that a box ticked beside it makes
// meaningless (no key, tombstone) and shows it empty, saying why: disabled
// with the text still in it, it read as the value that would be sent. What
// was typed is kept, and comes back when the box is unticked.
func withheld(in app.HTMLInput, off bool, why string) app.HTMLInput {
	if !off {
		return in
	}
	return in.Disabled(true).Value("").Placeholder(why)
}

// numberInput is a text box for a whole number. It is text, not
// type=number, so that what the learner typed reaches the engine and the
// engine says what is wrong with it, in place.
func numberInput(id string, value *string, c *app.Compo) app.HTMLInput {
	return textInput(id, value, c, "inputmode", "numeric")
}

// topicSelect picks one of the topics.
func topicSelect(id string, topics []TopicSnapshot, value *string, c *app.Compo) app.UI {
	return topicSelectOn(id, topics, *value, c.ValueTo(value))
}

// topicSelectOn is topicSelect with its own handler of the learner's pick.
func topicSelectOn(id string, topics []TopicSnapshot, value string, picked app.EventHandler) app.UI {
	return app.Select().ID(id).Name(id).OnChange(picked).Body(
		app.Range(topics).Slice(func(i int) app.UI {
			name := topics[i].Name
			return app.Option().Value(name).Selected(name == value).Text(name)
		}),
	)
}

// formTopics is the topics as a form that picks one knows them: each
// topic's name, configs and partitions, without the records, counts and
// offsets that every produce changes. Given these, a form stays as it was
// through a produce, and go-app does not draw it again: the page holds
// several such forms, most of them hidden in the dock.
func formTopics(topics []TopicSnapshot) []TopicSnapshot {
	out := make([]TopicSnapshot, len(topics))
	for i, t := range topics {
		parts := make([]PartitionSnapshot, len(t.Partitions))
		for p := range parts {
			parts[p] = PartitionSnapshot{Topic: t.Name, Partition: p}
		}
		out[i] = TopicSnapshot{Name: t.Name, Configs: t.Configs, Compacts: t.Compacts, Partitions: parts}
	}
	return out
}

// keepFormTopics is formTopics(topics), or kept itself when that would be
// equal to it. go-app compares a component's fields with reflect.DeepEqual
// before it draws it again, which for the same slice is at once, and for
// an equal copy walks every partition: over 10,000 partitions, 3 ms
// natively for each form and a tenth of a second in the browser for a
// step's render of the dock's forms.
func keepFormTopics(kept, topics []TopicSnapshot) []TopicSnapshot {
	same := len(kept) == len(topics)
	for i := 0; same && i < len(topics); i++ {
		k, t := kept[i], topics[i]
		same = k.Name == t.Name && len(k.Partitions) == len(t.Partitions) && k.Compacts == t.Compacts &&
			slices.Equal(k.Configs, t.Configs)
	}
	if same && kept != nil {
		return kept
	}
	return formTopics(topics)
}

// chosenTopic is the topic a form acts on: the one picked, or the first.
func chosenTopic(picked string, topics []TopicSnapshot) (TopicSnapshot, bool) {
	for _, t := range topics {
		if t.Name == picked {
			return t, true
		}
	}
	if len(topics) > 0 {
		return topics[0], true
	}
	return TopicSnapshot{}, false
}

// partitionPicker picks a partition of t: a list of them for a topic of
// at most partitionsListed, a box for its number beyond (a list of a
// thousand options made the page take a second to draw it). none, when not
// "", is the list's first choice, the empty value, which the box says in
// its title (its placeholder, the numbers it takes, must fit a narrow box).
func partitionPicker(id string, t TopicSnapshot, value *string, c *app.Compo, none string) app.UI {
	n := len(t.Partitions)
	if n > partitionsListed {
		last := strconv.Itoa(n - 1)
		title := "a partition of " + t.Name + ", from 0 to " + last
		if none != "" {
			title += "; empty: the " + none
		}
		return numberInput(id, value, c).Attr("placeholder", "0 to "+last).Title(title)
	}
	options := make([]app.UI, 0, n+1)
	if none != "" {
		options = append(options, app.Option().Value("").Selected(*value == "").Text(none))
	}
	for i := range n {
		v := strconv.Itoa(i)
		options = append(options, app.Option().Value(v).Selected(v == *value).Text(t.Name+"/"+v))
	}
	return app.Select().ID(id).OnChange(c.ValueTo(value)).Body(options...)
}

// partitionsListed is the most partitions partitionPicker lists.
const partitionsListed = 64

// partitionerSelect chooses a producer's partitioner (partitioner.class,
// rules 2): "" leaves Kafka's default, the built-in partitioner. What the
// built-in one does with keyless records (it sticks to a partition until
// batch.size fills) is in the field's help: in the option it was cut.
func partitionerSelect(id string, value *string, c *app.Compo) app.UI {
	return app.Select().ID(id).Name(id).DataSet("config", "partitioner").OnChange(c.ValueTo(value)).Body(
		app.Option().Value("").Selected(*value == "").Text("default (built-in)"),
		app.Option().Value(core.PartitionerRoundRobin).Selected(*value == core.PartitionerRoundRobin).Text("round-robin (ignores keys)"),
	)
}

// producerRules says whether the producer's partitioner is on the page:
// under rules 2 and later the producer chooses it (Kafka's
// partitioner.class); under rules 1 the topic's partitioner config does.
// 0 is the latest rules.
func producerRules(rules int) bool { return rules == 0 || core.Follows(rules, core.BuiltInPartitioner) }

// acksSelect picks the acks a producer asks for: "" leaves Kafka's default
// (all, since Kafka 3.0's KIP-679), or one of scenario.AcksChoices.
func acksSelect(id string, value *string, c *app.Compo) app.UI {
	return app.Select().ID(id).Name(id).OnChange(c.ValueTo(value)).Body(
		app.Option().Value("").Selected(*value == "").Text("default (all)"),
		app.Range(scenario.AcksChoices).Slice(func(i int) app.UI {
			v := scenario.AcksChoices[i]
			return app.Option().Value(v).Selected(v == *value).Text(v)
		}),
	)
}
