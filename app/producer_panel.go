package app

import (
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ProducerPanel makes named producers (core/producer.go): a form with
// their main configs (producer-config). It sits in the dock's Produce
// tab, under the produce form, whose producer select sends through them;
// each producer made is a card in the picture, beside the lanes (left of
// them, or above them where the stage is narrow; ProducerColumn), which shows its producer id, epoch and state and
// sends its wire faults and transaction steps.
type ProducerPanel struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts it afresh (fresh_form.go)
	linksSeen int

	name, acks, idempotence, maxInFlight, transactionalID string
}

// producerFormControl names the producer-config form's errors.
const producerFormControl = "producer-config"

// namedProducerControl names the errors of one producer's card.
func namedProducerControl(name string) string { return "producer/" + name }

// producerDefault is Kafka's default of a producer config, from the
// engine's registry: the placeholder of its field.
func producerDefault(name string) string {
	d, _ := core.LookupConfig(core.OnProduce, name)
	return d.DefaultValue()
}

// Line writes the producer-config command the form describes, or says
// what is missing. A field left empty leaves Kafka's default; the engine
// refuses a combination Kafka refuses, with Kafka's words.
func (f *ProducerPanel) Line() (string, string) {
	name := strings.TrimSpace(f.name)
	if name == "" {
		return "", "Name the producer first, like p1: produce's producer select then sends through it."
	}
	args := []scenario.Arg{positional(name)}
	for _, c := range []struct{ name, value string }{
		{"acks", f.acks},
		{"enable.idempotence", f.idempotence},
		{"max.in.flight.requests.per.connection", f.maxInFlight},
		{core.TransactionalIDConfig, f.transactionalID},
	} {
		if v := strings.TrimSpace(c.value); v != "" {
			args = append(args, named(c.name, v))
		}
	}
	return line(scenario.CmdProducerConfig, args...), ""
}

func (f *ProducerPanel) submit(ctx app.Context, e app.Event) {
	e.PreventDefault()
	l, problem := f.Line()
	if problem != "" {
		setControlError(ctx, ControlAlert{Control: producerFormControl, Message: problem})
		return
	}
	ApplyFrom(ctx, producerFormControl, l)
}

// choiceSelect picks one of values, "" leaving the default.
func choiceSelect(id, defaultText string, values []string, value *string, c *app.Compo) app.UI {
	return app.Select().ID(id).Name(id).OnChange(c.ValueTo(value)).Body(
		app.Option().Value("").Selected(*value == "").Text(defaultText),
		app.Range(values).Slice(func(i int) app.UI {
			return app.Option().Value(values[i]).Selected(values[i] == *value).Text(values[i])
		}),
	)
}

// Render draws [data-producers] with the form and a card per producer.
func (f *ProducerPanel) Render() app.UI {
	if f.Links != f.linksSeen {
		startAfresh(f, nil)
		f.linksSeen = f.Links
	}
	inFlight := "max.in.flight.requests.per.connection"
	return app.Section().Class("panel", "producers").DataSet("producers", "").Aria("label", "named producers").Body(
		app.H2().Body(app.Text("Producers "), &Help{Topic: "named-producer"}),
		app.Form().ID("named-producer-form").DataSet("command", scenario.CmdProducerConfig).OnSubmit(f.submit).Body(
			app.Div().Class("row").Body(
				field("named-producer-name", "Name", textInput("named-producer-name", &f.name, &f.Compo, "placeholder", "p1")),
				field("named-producer-acks", "acks", choiceSelect("named-producer-acks", "default ("+producerDefault("acks")+")",
					scenario.AcksChoices, &f.acks, &f.Compo)),
			),
			app.Div().Class("row").Body(
				field("named-producer-idempotence", "enable.idempotence", choiceSelect("named-producer-idempotence",
					"default ("+producerDefault("enable.idempotence")+")", []string{"true", "false"}, &f.idempotence, &f.Compo)),
				field("named-producer-in-flight", "max.in.flight.requests.per.connection",
					textInput("named-producer-in-flight", &f.maxInFlight, &f.Compo, "inputmode", "numeric", "placeholder", producerDefault(inFlight))),
			),
			app.Div().Class("row").Body(
				field("named-producer-transactional-id", "transactional.id (none: not transactional)",
					textInput("named-producer-transactional-id", &f.transactionalID, &f.Compo, "placeholder", "none")),
			),
			app.Button().Type("submit").ID("named-producer-make").Text("Make producer"),
			&ControlError{Control: producerFormControl},
		),
		app.P().Class("form-note").Text("A producer made here is drawn with its buttons beside the lanes, under Producers."),
	)
}

// ProducerCard is one named producer, an actor in the picture
// (ProducerColumn): its id, epoch, state and transactional id, its next
// sequences, its wire faults, and, for a transactional producer, its
// transaction's steps.
type ProducerCard struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts it afresh (fresh_form.go)
	linksSeen int

	Producer core.ProducerView
	Groups   []string
	Topics   []TopicSnapshot // where the card's own produce sends

	after, count, group string
	topic, key, value   string // the card's produce
}

// OnInit fills the card's produce with a record worth sending, as the
// produce form's.
func (c *ProducerCard) OnInit() {
	c.key, c.value = exampleKey, exampleValue
}

// produceLine writes the card's produce: a record through this producer,
// with its own acks and partitioner. The engine checks the rest.
func (c *ProducerCard) produceLine() (string, string) {
	t, ok := chosenTopic(c.topic, c.Topics)
	if !ok {
		return "", "Create a topic first: records go to a topic."
	}
	args := []scenario.Arg{positional(t.Name)}
	if k := strings.TrimSpace(c.key); k != "" {
		args = append(args, named("key", k))
	}
	args = append(args, named("value", c.value), named("producer", c.Producer.Name))
	return line(scenario.CmdProduce, args...), ""
}

// producerState is what [data-producer-state] says: a transactional
// producer's state (uninitialized, ready, in-transaction, fenced), else
// idempotent or plain.
func producerState(v core.ProducerView) string {
	switch {
	case v.TransactionState != "":
		return v.TransactionState
	case v.Config.Idempotence:
		return "idempotent"
	}
	return "plain"
}

// producerSummary is the caption of a producer's card, its lines as the
// card draws them: its name, producer id and epoch (none before it has
// one), state, and transactional id.
func producerSummary(v core.ProducerView) string {
	summary := v.Name + " · " + producerIdentity(v) + " · " + producerState(v)
	if v.Config.TransactionalID != "" {
		summary += " · transactional.id " + v.Config.TransactionalID
	}
	return summary
}

// producerIdentity is what the brokers gave the producer: its producer id
// and epoch, or none yet.
func producerIdentity(v core.ProducerView) string {
	if v.ID < 0 {
		return "no id"
	}
	return "id " + strconv.FormatInt(v.ID, 10) + " · epoch " + strconv.Itoa(v.Epoch)
}

// wireLine makes the wire fault: on the next request, or after= requests,
// for count= requests.
func (c *ProducerCard) wireLine(fault string) string {
	args := []scenario.Arg{positional(c.Producer.Name), positional(fault)}
	if a := strings.TrimSpace(c.after); a != "" && a != "0" {
		args = append(args, named("after", a))
	}
	if n := strings.TrimSpace(c.count); n != "" && n != "1" {
		args = append(args, named("count", n))
	}
	return line(scenario.CmdWire, args...)
}

// txnLine makes one transaction step; send-offsets sends the chosen
// group's (offsetsGroup).
func (c *ProducerCard) txnLine(action string) (string, string) {
	args := []scenario.Arg{positional(c.Producer.Name), positional(action)}
	if action == "send-offsets" {
		g := c.offsetsGroup()
		if g == "" {
			return "", "Which group? Join a group first: the transaction commits its positions."
		}
		args = append(args, named("group", g))
	}
	return line(scenario.CmdTxn, args...), ""
}

// offsetsGroup is the group whose offsets Send offsets sends: the one
// chosen, or else the one whose name begins the producer's
// transactional.id (billing-0 is billing's: a transactional.id is named
// after the application, whose group it is), or else the first. Lesson
// 20's producers defaulted to audit, the first, where billing reads the
// payments they answer.
func (c *ProducerCard) offsetsGroup() string {
	if slices.Contains(c.Groups, c.group) {
		return c.group
	}
	named := ""
	for _, g := range c.Groups {
		if strings.HasPrefix(c.Producer.Config.TransactionalID, g) && len(g) > len(named) {
			named = g
		}
	}
	if named == "" && len(c.Groups) > 0 {
		named = c.Groups[0]
	}
	return named
}

func (c *ProducerCard) send(l func() (string, string)) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		text, problem := l()
		if problem != "" {
			setControlError(ctx, ControlAlert{Control: namedProducerControl(c.Producer.Name), Message: problem})
			return
		}
		ApplyFrom(ctx, namedProducerControl(c.Producer.Name), text)
	}
}

// Render draws [data-producer=NAME] with data-producer-id, -epoch and
// -state.
func (c *ProducerCard) Render() app.UI {
	if c.Links != c.linksSeen {
		startAfresh(c, (*ProducerCard).OnInit)
		c.linksSeen = c.Links
	}
	v := c.Producer
	button := func(command, action, text, title string, role buttonRole, l func() (string, string)) app.UI {
		return app.Button().Type("button").Class(role.classes()...).DataSet("command", command).DataSet("action", action).
			Title(title).OnClick(c.send(l)).Text(text)
	}
	wire := func(fault string) func() (string, string) {
		return func() (string, string) { return c.wireLine(fault), "" }
	}
	txn := func(action string) func() (string, string) {
		return func() (string, string) { return c.txnLine(action) }
	}
	prefix := "producer-" + v.Name + "-"
	state := producerState(v)
	return app.Li().Class("producer-card", "producer-"+state).
		DataSet("producer", v.Name).
		DataSet("producer-id", v.ID).
		DataSet("producer-epoch", v.Epoch).
		DataSet("producer-state", state).
		Body(
			// Each part is drawn, hidden when it has nothing to say, so
			// that the card's parts keep their places as the producer's
			// state changes: go-app draws anew what follows a part that
			// comes or goes, and the learner's key box and button with it.
			app.P().Class("producer-name").Title(v.Name+": "+producerStateTitle(v)).Body(
				app.Strong().Text(v.Name),
				app.Span().Class("producer-ids").Body(
					app.Span().Text(producerIdentity(v)),
					app.Span().Hidden(v.Config.TransactionalID == "").Text(" · transactional.id "+v.Config.TransactionalID),
				),
				app.Span().Class("producer-badge").Text(strings.ReplaceAll(state, "-", " ")),
			),
			app.P().Class("producer-line", "producer-open").Hidden(len(v.Partitions) == 0).Text("open on "+partitionsText(v.Partitions)),
			producerSequences(v),
			app.P().Class("form-note").Hidden(v.Fenced == "").Text("fenced: "+v.Fenced),
			// An armed fault shows on the card, folded or not: a walk
			// pressed Lose the next answer and saw nothing change.
			app.P().Class("producer-armed").DataSet("armed-faults", len(v.Faults)).Hidden(len(v.Faults) == 0).Text(armedText(v.Faults)),
			c.produceBox(prefix),
			app.If(v.Config.TransactionalID != "",
				app.Div().Class("row", "producer-txn").Body(
					app.Span().Class("producer-row-title").Body(app.Text("Transaction "), &Help{Topic: "transaction"}),
					button(scenario.CmdTxn, "init", "Init", "initTransactions: a producer id, the epoch bumped", txnRole(state, "init"), txn("init")),
					button(scenario.CmdTxn, "begin", "Begin", "beginTransaction", txnRole(state, "begin"), txn("begin")),
					button(scenario.CmdTxn, "commit", "Commit", "commitTransaction", txnRole(state, "commit"), txn("commit")),
					button(scenario.CmdTxn, "abort", "Abort", "abortTransaction", roleDanger, txn("abort")),
					// Without a group there is nothing to choose: the button
					// says so when pressed.
					app.If(len(c.Groups) > 0,
						app.Select().ID(prefix+"group").Name("group").Aria("label", "group whose offsets to send").
							OnChange(c.ValueTo(&c.group)).Body(
							app.Range(c.Groups).Slice(func(i int) app.UI {
								return app.Option().Value(c.Groups[i]).Selected(c.Groups[i] == c.offsetsGroup()).Text(c.Groups[i])
							}),
						),
					),
					button(scenario.CmdTxn, "send-offsets", "Send offsets",
						"sendOffsetsToTransaction: the group's positions commit with the transaction", roleSecondary, txn("send-offsets")),
				),
			),
			// The faults fold away: two lessons use them, and a hint that
			// points at one opens the fold (hint_controls.go).
			app.Details().Class("producer-faults").Body(
				app.Summary().Text("Faults on the wire"),
				app.Div().Class("row", "producer-wire").Body(
					button(scenario.CmdWire, string(core.LoseRequest), "Lose the next request",
						"the broker never sees the request: the producer retries it", roleDanger, wire(string(core.LoseRequest))),
					button(scenario.CmdWire, string(core.LoseResponse), "Lose the next answer",
						"the broker appends, the answer is lost: the producer retries, and only idempotence keeps the record single",
						roleDanger, wire(string(core.LoseResponse))),
					app.Label().Body(app.Span().Text("skip"),
						app.Input().Type("text").ID(prefix+"after").Name("after").Size(3).Placeholder("0").
							Attr("inputmode", "numeric").Value(c.after).OnInput(textInto(&c.after))),
					app.Label().Body(app.Span().Text("requests, then hit"),
						app.Input().Type("text").ID(prefix+"count").Name("count").Size(3).Placeholder("1").
							Attr("inputmode", "numeric").Value(c.count).OnInput(textInto(&c.count))),
				),
			),
			&ControlError{Control: namedProducerControl(v.Name)},
		)
}

// txnRole is how much a transaction's button weighs in a state: the step
// that comes next is drawn filled, the others outlined. Every one stays
// pressable: the engine answers a step out of order with Kafka's refusal,
// which is part of the lesson.
func txnRole(state, action string) buttonRole {
	next := map[string]string{"uninitialized": "init", "ready": "begin", "in-transaction": "commit"}[state]
	if action == next {
		return rolePrimary
	}
	return roleSecondary
}

// armedText says which of the producer's next requests its pending wire
// faults will hit: "armed: the answer to the next request will be lost".
func armedText(faults []core.PendingFault) string {
	var parts []string
	for _, f := range faults {
		which := "the next " + countOf(int(f.Count), "request")
		if f.Count == 1 {
			which = "the next request"
		}
		if f.After > 0 {
			which = countOf(int(f.Count), "request") + " after the next " + strconv.FormatInt(f.After, 10)
		}
		switch f.Fault {
		case core.LoseResponse:
			parts = append(parts, "the answer to "+which+" will be lost")
		default:
			parts = append(parts, which+" will be lost before the broker")
		}
	}
	return "armed: " + strings.Join(parts, "; ")
}

// produceBox is the card's own produce: a record's topic (when there is
// a choice), key and value, sent through this producer from where it
// stands in the picture. The produce form of the Produce tab does the
// rest (counts, partitions, tombstones, values in a list).
func (c *ProducerCard) produceBox(prefix string) app.UI {
	t, _ := chosenTopic(c.topic, c.Topics)
	name := c.Producer.Name
	input := func(id, label string, value *string) app.UI {
		return app.Label().Class("producer-field").Body(app.Span().Text(label),
			textInput(prefix+id, value, &c.Compo, "aria-label", label+" of the record "+name+" sends"))
	}
	return app.Form().Class("producer-send").DataSet("command", scenario.CmdProduce).
		OnSubmit(func(ctx app.Context, e app.Event) {
			e.PreventDefault()
			c.send(c.produceLine)(ctx, e)
		}).Body(
		app.If(len(c.Topics) > 1,
			app.Label().Class("producer-field").Body(app.Span().Text("topic"),
				app.Select().ID(prefix+"topic").Aria("label", "topic "+name+" sends to").OnChange(c.ValueTo(&c.topic)).Body(
					app.Range(c.Topics).Slice(func(i int) app.UI {
						n := c.Topics[i].Name
						return app.Option().Value(n).Selected(n == t.Name).Text(n)
					}),
				)),
		),
		input("key", "key", &c.key),
		input("value", "value", &c.value),
		app.Button().Type("submit").DataSet("action", "produce").Aria("label", "Produce through "+name).
			Title("send the record through "+name+", with its acks and partitioner").Text("Produce"),
	)
}

// producerNames are the named producers' names, for produce's select.
func producerNames(views []core.ProducerView) []string {
	names := make([]string, len(views))
	for i, v := range views {
		names[i] = v.Name
	}
	return names
}
