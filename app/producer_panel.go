package app

import (
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ProducerPanel is the named producers (core/producer.go): a form that
// makes one with its main configs (producer-config), and a card for each
// producer that shows its producer id, epoch and state, the engine's, and
// sends its wire faults and transaction steps. It sits in the dock's
// Produce tab, under the produce form, whose producer select sends
// through them.
type ProducerPanel struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts it afresh (fresh_form.go)
	linksSeen int

	Producers []core.ProducerView
	Groups    []string // the groups a transaction may send the offsets of

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
		app.Ul().Class("producer-cards").Body(
			app.Range(f.Producers).Slice(func(i int) app.UI {
				return &ProducerCard{Links: f.Links, Producer: f.Producers[i], Groups: f.Groups}
			}),
		),
	)
}

// ProducerCard is one named producer: its id, epoch, state and
// transactional id, its wire faults, and, for a transactional producer,
// its transaction's steps.
type ProducerCard struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts it afresh (fresh_form.go)
	linksSeen int

	Producer core.ProducerView
	Groups   []string

	after, count, group string
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

// producerSummary is the caption of a producer's card: its name, producer
// id and epoch (none before it has one), state, and transactional id.
func producerSummary(v core.ProducerView) string {
	id := "no id"
	if v.ID >= 0 {
		id = "id " + strconv.FormatInt(v.ID, 10) + " · epoch " + strconv.Itoa(v.Epoch)
	}
	summary := v.Name + " · " + id + " · " + producerState(v)
	if v.Config.TransactionalID != "" {
		summary += " · transactional.id " + v.Config.TransactionalID
	}
	return summary
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
// group's (or the first group's).
func (c *ProducerCard) txnLine(action string) (string, string) {
	args := []scenario.Arg{positional(c.Producer.Name), positional(action)}
	if action == "send-offsets" {
		g := c.group
		if !slices.Contains(c.Groups, g) && len(c.Groups) > 0 {
			g = c.Groups[0] // none chosen, or one this scenario does not have
		}
		if g == "" {
			return "", "Which group? Join a group first: the transaction commits its positions."
		}
		args = append(args, named("group", g))
	}
	return line(scenario.CmdTxn, args...), ""
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
		startAfresh(c, nil)
		c.linksSeen = c.Links
	}
	v := c.Producer
	button := func(command, action, text, title string, l func() (string, string)) app.UI {
		return app.Button().Type("button").DataSet("command", command).DataSet("action", action).
			Title(title).OnClick(c.send(l)).Text(text)
	}
	wire := func(fault string) func() (string, string) {
		return func() (string, string) { return c.wireLine(fault), "" }
	}
	txn := func(action string) func() (string, string) {
		return func() (string, string) { return c.txnLine(action) }
	}
	prefix := "producer-" + v.Name + "-"
	return app.Li().Class("producer-card").
		DataSet("producer", v.Name).
		DataSet("producer-id", v.ID).
		DataSet("producer-epoch", v.Epoch).
		DataSet("producer-state", producerState(v)).
		Body(
			app.P().Class("producer-summary").Text(producerSummary(v)),
			app.If(v.Fenced != "", app.P().Class("form-note").Text("fenced: "+v.Fenced)),
			app.Div().Class("row", "producer-wire").Body(
				button(scenario.CmdWire, string(core.LoseRequest), "Lose the next request",
					"the broker never sees the request: the producer retries it", wire(string(core.LoseRequest))),
				button(scenario.CmdWire, string(core.LoseResponse), "Lose the next answer",
					"the broker appends, the answer is lost: the producer retries, and only idempotence keeps the record single",
					wire(string(core.LoseResponse))),
				app.Label().Body(app.Span().Text("after"),
					app.Input().Type("text").ID(prefix+"after").Name("after").Size(3).Placeholder("0").
						Attr("inputmode", "numeric").Value(c.after).OnInput(textInto(&c.after))),
				app.Label().Body(app.Span().Text("requests, for"),
					app.Input().Type("text").ID(prefix+"count").Name("count").Size(3).Placeholder("1").
						Attr("inputmode", "numeric").Value(c.count).OnInput(textInto(&c.count))),
			),
			app.If(v.Config.TransactionalID != "",
				app.Div().Class("row", "producer-txn").Body(
					&Help{Topic: "transaction"},
					button(scenario.CmdTxn, "init", "Init", "initTransactions: a producer id, the epoch bumped", txn("init")),
					button(scenario.CmdTxn, "begin", "Begin", "beginTransaction", txn("begin")),
					app.Select().ID(prefix+"group").Name("group").Aria("label", "group whose offsets to send").
						OnChange(c.ValueTo(&c.group)).Body(
						app.Range(c.Groups).Slice(func(i int) app.UI {
							return app.Option().Value(c.Groups[i]).Selected(c.Groups[i] == c.group).Text(c.Groups[i])
						}),
					),
					button(scenario.CmdTxn, "send-offsets", "Send offsets",
						"sendOffsetsToTransaction: the group's positions commit with the transaction", txn("send-offsets")),
					button(scenario.CmdTxn, "commit", "Commit", "commitTransaction", txn("commit")),
					button(scenario.CmdTxn, "abort", "Abort", "abortTransaction", txn("abort")),
				),
			),
			&ControlError{Control: namedProducerControl(v.Name)},
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
