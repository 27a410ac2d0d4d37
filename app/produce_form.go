package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ProduceForm sends records to a topic: a key (or none), a value (or a
// tombstone), a count, a partition (or the partitioner's choice), and the
// acks the producer asks for (0, 1 or all). Its
// quick generators write whole workloads as scenario commands.
type ProduceForm struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts the form afresh (fresh_form.go)
	linksSeen int

	Topics []TopicSnapshot
	Step   int // the history's length: names each generator's workload apart
	Rules  int // the rules the scenario runs under (0: the latest)
	// Preset is the topic a topic's produce button chose (inspector.go).
	Preset formPreset
	// Producers are the named producers' names (producer_panel.go).
	Producers []string
	// Landed says, under the button, where the form's last records went
	// (Landing.echo): on a phone the lanes are out of sight below the
	// form, and pressing Produce seemed to do nothing.
	Landed string

	presetSeen int

	topic     string
	key       string
	noKey     bool
	value     string
	tombstone bool
	count     string
	partition string // "" lets the partitioner choose
	// partitionOf is the topic partition was picked for: another topic
	// starts from the partitioner's choice, not from a number that may not
	// be one of its partitions.
	partitionOf string
	acks        string // "" leaves Kafka's default, all
	// partitioner is the producer's partitioner.class under rules 2; ""
	// leaves Kafka's default, the built-in partitioner.
	partitioner string
	generate    string // how many records a generator makes
	producer    string // a named producer to send through; "" for none
	values      string // a named producer's values, one record each: a,b,c
}

// produceControl and generateControl name the form's errors.
const (
	produceControl  = "produce"
	generateControl = "generate"
)

// produceShortcut is the action the keyboard shortcut for produce sends.
const produceShortcut = "plog/shortcut/produce"

// exampleKey and exampleValue are the record a new produce form, and a
// producer's card, offer to send.
const exampleKey, exampleValue = "acct-1", "created"

// OnInit fills the form with a record worth sending.
func (f *ProduceForm) OnInit() {
	f.key, f.value, f.count, f.generate = exampleKey, exampleValue, "1", "20"
}

// chooseTopic takes the topic the learner picked. The refusal of the last
// produce goes with the topic it was about: "number 1000 is larger than
// 999" stayed under the form when the learner chose a topic of three.
func (f *ProduceForm) chooseTopic(ctx app.Context, e app.Event) {
	f.topic = ctx.JSSrc().Get("value").String()
	var shown ControlAlert
	ctx.GetState(controlAlertState, &shown)
	if shown.Control == produceControl || shown.Control == generateControl {
		setControlError(ctx, ControlAlert{})
	}
}

// OnMount answers the produce shortcut with what the form holds.
func (f *ProduceForm) OnMount(ctx app.Context) {
	ctx.Handle(produceShortcut, func(ctx app.Context, a app.Action) { f.send(ctx) })
}

// Line writes the produce command the form describes, or says what is
// missing. The engine checks the rest (a tombstone without a key, a
// partition out of range, a count of 0).
func (f *ProduceForm) Line() (string, string) {
	t, ok := chosenTopic(f.topic, f.Topics)
	if !ok {
		return "", "Create a topic first: records go to a topic."
	}
	args := []scenario.Arg{positional(t.Name)}
	if !f.noKey {
		args = append(args, named("key", f.key))
	}
	through := f.through()
	values := strings.TrimSpace(f.values)
	if through && values != "" {
		args = append(args, named("values", values))
	} else if !f.tombstone {
		args = append(args, named("value", f.value))
	}
	if c := strings.TrimSpace(f.count); c != "" && c != "1" && (!through || values == "") {
		args = append(args, named("count", c))
	}
	if f.partition != "" {
		args = append(args, named("partition", f.partition))
	}
	if through {
		// A named producer sends with its own acks and partitioner.
		args = append(args, named("producer", f.producer))
	} else if f.acks != "" {
		args = append(args, named("acks", f.acks))
	}
	if f.partitioner != "" && producerRules(f.Rules) && !through {
		args = append(args, named("partitioner", f.partitioner))
	}
	if f.tombstone && (!through || values == "") {
		args = append(args, flag("tombstone"))
	}
	return line(scenario.CmdProduce, args...), ""
}

// through says whether the form sends through a named producer: one is
// picked and still exists (an undo may have removed it).
func (f *ProduceForm) through() bool {
	return f.producer != "" && slices.Contains(f.Producers, f.producer)
}

// GeneratorLines writes the commands of one quick generator: "sequence"
// (keys key-0, key-1, ...), "uniform" (keys drawn at random from as many
// keys as records) or "hot" (every record with one key). The first two run
// a producer workload for one second of virtual time, so the keys come from
// the scenario's seed and replay identically.
func (f *ProduceForm) GeneratorLines(kind string) ([]string, string) {
	t, ok := chosenTopic(f.topic, f.Topics)
	if !ok {
		return nil, "Create a topic first: records go to a topic."
	}
	n := strings.TrimSpace(f.generate)
	if _, err := strconv.Atoi(n); err != nil {
		return nil, fmt.Sprintf("How many records? %q is not a whole number.", n)
	}
	if kind == "hot" {
		return []string{line(scenario.CmdProduce, positional(t.Name), named("key", "hot"), named("count", n))}, ""
	}
	name := fmt.Sprintf("burst-%d", f.Step+1)
	args := []scenario.Arg{positional(name), positional(t.Name), named("rate", n+"/s"), named("keys", kind)}
	if kind == "uniform" {
		args = append(args, named("keyspace", n))
	}
	return []string{line(scenario.CmdProducer, args...), line(scenario.CmdAdvance, positional("1s")), line(scenario.CmdStop, positional(name))}, ""
}

func (f *ProduceForm) send(ctx app.Context) {
	l, problem := f.Line()
	if problem != "" {
		setControlError(ctx, ControlAlert{Control: produceControl, Message: problem})
		return
	}
	ApplyFrom(ctx, produceControl, l)
}

func (f *ProduceForm) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	f.send(ctx)
}

func (f *ProduceForm) generator(kind string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		lines, problem := f.GeneratorLines(kind)
		if problem != "" {
			setControlError(ctx, ControlAlert{Control: generateControl, Message: problem})
			return
		}
		ApplyFrom(ctx, generateControl, lines...)
	}
}

func (f *ProduceForm) check(v *bool) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		*v = ctx.JSSrc().Get("checked").Bool()
	}
}

// Render draws the form.
func (f *ProduceForm) Render() app.UI {
	if f.Links != f.linksSeen {
		startAfresh(f, (*ProduceForm).OnInit)
		f.linksSeen = f.Links
	}
	f.Preset.pointAt(&f.presetSeen, &f.topic, nil)
	t, _ := chosenTopic(f.topic, f.Topics)
	if f.partitionOf != t.Name {
		f.partition, f.partitionOf = "", t.Name
	}
	return app.Section().Class("panel", "produce").Aria("label", "produce records").Body(
		app.H2().Text("Produce"),
		app.Form().ID("produce-form").DataSet("command", scenario.CmdProduce).OnSubmit(f.submit).Body(
			app.Div().Class("row").Body(
				field("produce-topic", "Topic", topicSelectOn("produce-topic", f.Topics, f.topic, f.chooseTopic)),
				field("produce-partition", "Partition", partitionPicker("produce-partition", t, &f.partition, &f.Compo, "partitioner chooses")),
			),
			app.Div().Class("row").Body(
				field("produce-key", "Key", withheld(textInput("produce-key", &f.key, &f.Compo), f.noKey, "none: the record has no key")),
				app.Div().Class("field", "check").Body(
					app.Input().Type("checkbox").ID("produce-no-key").Checked(f.noKey).OnChange(f.check(&f.noKey)),
					app.Label().For("produce-no-key").Text("no key"),
				),
			),
			app.Div().Class("row").Body(
				field("produce-value", "Value", withheld(textInput("produce-value", &f.value, &f.Compo), f.tombstone, "none: a tombstone has no value")),
				app.Div().Class("field", "check").Body(
					app.Input().Type("checkbox").ID("produce-tombstone").Checked(f.tombstone).OnChange(f.check(&f.tombstone)),
					app.Label().For("produce-tombstone").Text("tombstone"),
				),
			),
			app.If(len(f.Producers) > 0,
				app.Div().Class("row").Body(
					field("produce-producer", "Producer", choiceSelect("produce-producer", "none (the acks below)",
						f.Producers, &f.producer, &f.Compo)),
				),
			),
			app.If(f.through(),
				app.Div().Class("row").Body(
					field("produce-values", "Values, one record each (a,b,c; empty: the value above)",
						textInput("produce-values", &f.values, &f.Compo, "placeholder", "a,b,c")),
				),
			),
			// The count and the producer's settings fold away under the
			// key and value, so that the Produce button stays in sight
			// under an open lesson; a hint that names one opens the fold
			// (hint_controls.go). Closed, the summary says what they are
			// set to. Through a named producer, acks and the partitioner
			// are the producer's.
			app.Details().ID("produce-options").Class("form-options").Body(
				app.Summary().Text(f.optionsSummary()),
				app.Div().Class("row").Body(
					field("produce-count", "Count", numberInput("produce-count", &f.count, &f.Compo)),
				),
				app.If(!f.through(),
					app.Div().Class("row").Body(
						field("produce-acks", "acks", acksSelect("produce-acks", &f.acks, &f.Compo)),
						&Help{Topic: "acks"},
					),
				),
				app.If(producerRules(f.Rules) && !f.through(),
					app.Div().Class("row").Body(
						field("produce-partitioner", "Partitioner (partitioner.class)", partitionerSelect("produce-partitioner", &f.partitioner, &f.Compo)),
						&Help{Topic: "partitioner"},
					),
				),
			),
			app.Button().Type("submit").ID("produce-send").Text("Produce").Title("shortcut: p"),
			app.If(f.Landed != "", app.P().Class("produce-landed").DataSet("produce-landed", true).Text(f.Landed)),
			&ControlError{Control: produceControl},
		),
		app.Div().Class("generators").Aria("label", "quick generators").Body(
			field("generate-count", "Quick: records", numberInput("generate-count", &f.generate, &f.Compo)),
			app.Div().Class("row").Body(
				app.Button().Type("button").ID("generate-sequence").OnClick(f.generator("sequence")).Text("Sequential keys"),
				app.Button().Type("button").ID("generate-uniform").OnClick(f.generator("uniform")).Text("Random keys"),
				app.Button().Type("button").ID("generate-hot").OnClick(f.generator("hot")).Text("One hot key"),
			),
			&ControlError{Control: generateControl},
		),
	)
}

// optionsSummary is the folded producer settings' line: what acks and the
// partitioner are, so that a learner sees a changed one without opening
// the fold.
func (f *ProduceForm) optionsSummary() string {
	acks := f.acks
	if acks == "" {
		acks = "all"
	}
	count := strings.TrimSpace(f.count)
	if count == "" {
		count = "1"
	}
	text := "count " + count
	if f.through() {
		return text + " · acks and partitioner: the producer's"
	}
	text += " · acks " + acks
	if producerRules(f.Rules) {
		partitioner := f.partitioner
		if partitioner == "" {
			partitioner = "default"
		}
		text += " · partitioner " + partitioner
	}
	return text
}
