package app

import (
	"fmt"
	"slices"
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// WorkloadControls start, replace and stop the workloads: a producer that
// sends records at a rate with keys drawn from a distribution, and a
// consumer that polls a member at a rate. Each running workload is listed
// with a Stop button. A producer or consumer started under the name of one
// that runs replaces it: the form sends stop and the new start as one
// gesture. The seed, which chooses every key a workload draws, is set here
// too, as the scenario's first command.
type WorkloadControls struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts the form afresh (fresh_form.go)
	linksSeen int

	Topics    []TopicSnapshot
	Workloads []scenario.Workload
	// ShareGroups names the share groups: a consumer workload on one of
	// their members share-polls, and commits nothing.
	ShareGroups []string
	Step        int // the history's length: the seed is only the first command
	Rules       int // the rules the scenario runs under (0: the latest)

	name, topic, rate, keys, keyspace, exponent, value, acks string
	partitioner                                              string // partitioner.class under rules 2; "" is the built-in
	// keyNames is the producer's own keys: a comma-separated list
	// (keylist=), or a pattern with {n} (key=); "" for key-N.
	keyNames                         string
	group, member, consumerRate, max string
	commit                           bool
	seed                             string
}

// The controls' error names.
const (
	producerControl = "producer"
	consumerControl = "consumer"
	stopControl     = "stop"
	seedControl     = "seed"
)

// OnInit suggests a producer and a consumer.
func (c *WorkloadControls) OnInit() {
	c.name, c.rate, c.keys = "web", "10/s", "uniform"
	c.keyspace, c.exponent = "100", "1"
	c.consumerRate, c.max, c.commit = "2/s", "5", true
	c.seed = "1"
}

// running finds a running workload: a producer by name, a consumer by
// group and member.
func (c *WorkloadControls) running(producer bool, name string) (scenario.Workload, bool) {
	for _, w := range c.Workloads {
		if w.Producer == producer && w.Name == name {
			return w, true
		}
	}
	return scenario.Workload{}, false
}

// ProducerLines writes the producer command the form describes, after the
// stop of a producer of that name already running; or says what is
// missing. The engine checks the rest.
func (c *WorkloadControls) ProducerLines() ([]string, string) {
	t, ok := chosenTopic(c.topic, c.Topics)
	if !ok {
		return nil, "Create a topic first: a producer writes to a topic."
	}
	name, rate := strings.TrimSpace(c.name), strings.TrimSpace(c.rate)
	switch {
	case name == "":
		return nil, "Name the producer, e.g. web."
	case rate == "":
		return nil, "How fast? Write a rate such as 10/s."
	}
	keys := c.keysOrDefault()
	list, pattern := c.ownKeys()
	args := []scenario.Arg{positional(name), positional(t.Name), named("rate", rate), named("keys", keys)}
	if (keys == "uniform" || keys == "zipf") && list == "" {
		args = append(args, named("keyspace", strings.TrimSpace(c.keyspace)))
	}
	if keys == "zipf" {
		args = append(args, named("exponent", strings.TrimSpace(c.exponent)))
	}
	if keys != "none" {
		if list != "" {
			args = append(args, named("keylist", list))
		}
		if pattern != "" {
			args = append(args, named("key", pattern))
		}
	}
	if v := strings.TrimSpace(c.value); v != "" {
		args = append(args, named("value", v))
	}
	if c.acks != "" {
		args = append(args, named("acks", c.acks))
	}
	if c.partitioner != "" && producerRules(c.Rules) {
		args = append(args, named("partitioner", c.partitioner))
	}
	lines := []string{line(scenario.CmdProducer, args...)}
	if w, ok := c.running(true, name); ok {
		lines = append([]string{w.StopLine()}, lines...)
	}
	return lines, ""
}

// ConsumerLines writes the consumer command the form describes, after the
// stop of that member's consumer if one runs; or says what is missing.
func (c *WorkloadControls) ConsumerLines() ([]string, string) {
	group, member := strings.TrimSpace(c.group), strings.TrimSpace(c.member)
	rate, max := strings.TrimSpace(c.consumerRate), strings.TrimSpace(c.max)
	switch {
	case group == "":
		return nil, "Name the group of the member that consumes."
	case member == "":
		return nil, "Name the member that consumes, e.g. c1."
	case rate == "":
		return nil, "How often? Write a rate of polls such as 2/s."
	}
	args := []scenario.Arg{positional(group), positional(member), named("rate", rate)}
	if max != "" {
		args = append(args, named("max", max))
	}
	if c.commit && !c.isShareGroup(group) {
		args = append(args, flag("commit"))
	}
	lines := []string{line(scenario.CmdConsumer, args...)}
	if w, ok := c.running(false, group+" "+member); ok {
		lines = append([]string{w.StopLine()}, lines...)
	}
	return lines, ""
}

// isShareGroup reports whether group is a share group.
func (c *WorkloadControls) isShareGroup(group string) bool {
	return slices.Contains(c.ShareGroups, strings.TrimSpace(group))
}

// SeedLine writes the seed command.
func (c *WorkloadControls) SeedLine() (string, string) {
	n := strings.TrimSpace(c.seed)
	if n == "" {
		return "", "Which seed? Write a whole number."
	}
	return line(scenario.CmdSeed, positional(n)), ""
}

// ownKeys reads the key names the learner wrote: a pattern when it holds
// {n}, else a list, each key trimmed of the spaces a learner writes after
// a comma. Both are "" when the box is empty: the keys are key-N.
func (c *WorkloadControls) ownKeys() (list, pattern string) {
	text := strings.TrimSpace(c.keyNames)
	if text == "" {
		return "", ""
	}
	if strings.Contains(text, scenario.KeyNumber) {
		return "", text
	}
	keys := strings.Split(text, ",")
	for i, k := range keys {
		keys[i] = strings.TrimSpace(k)
	}
	return strings.Join(keys, ","), ""
}

func (c *WorkloadControls) keysOrDefault() string {
	if c.keys == "" {
		return "uniform"
	}
	return c.keys
}

func (c *WorkloadControls) toggleCommit(ctx app.Context, e app.Event) {
	c.commit = ctx.JSSrc().Get("checked").Bool()
}

// keyNamesHelp says what the key names box takes.
const keyNamesHelp = "Key names (optional): your own keys, separated by commas, such as acct-1,acct-2,acct-3: " +
	"the keys mode draws from them (sequence goes round them, zipf makes the first the hottest, " +
	"and the list is the keyspace). Or a pattern with {n}, such as tenant-{n}, where the number drawn goes. " +
	"Empty: key-0, key-1, …"

// startLabel is the start button's text: it replaces a workload that runs
// under the name.
func startLabel(kind, name string, replaces bool) string {
	if replaces {
		return "Replace " + kind + " " + name
	}
	return "Start " + kind
}

// Render draws the list of running workloads and the forms.
func (c *WorkloadControls) Render() app.UI {
	if c.Links != c.linksSeen {
		startAfresh(c, (*WorkloadControls).OnInit)
		c.linksSeen = c.Links
	}
	keys := c.keysOrDefault()
	list, _ := c.ownKeys()
	_, replacesProducer := c.running(true, strings.TrimSpace(c.name))
	consumer := strings.TrimSpace(c.group) + " " + strings.TrimSpace(c.member)
	_, replacesConsumer := c.running(false, consumer)
	share := c.isShareGroup(c.group)
	return app.Section().Class("panel", "workloads").Aria("label", "workloads").Body(
		app.H2().Body(app.Text("Workloads "), &Help{Topic: "workload"}),
		app.If(len(c.Workloads) == 0,
			app.P().Class("workloads-empty").Text("No workload is running."),
		).Else(
			app.Ul().Class("workload-list").DataSet("workloads", len(c.Workloads)).Body(
				app.Range(c.Workloads).Slice(func(i int) app.UI {
					w := c.Workloads[i]
					stop := w.StopLine()
					return app.Li().DataSet("workload", w.Name).DataSet("producer", w.Producer).Body(
						app.Code().Text(w.Line),
						// The line is the handler's scope: go-app reuses a
						// button whose place in the list another workload
						// held, and keeps its old handler otherwise.
						app.Button().Type("button").Class(roleSecondary.classes()...).DataSet("command", scenario.CmdStop).DataSet("action", "stop").
							Aria("label", "Stop "+w.Name).Title(stop).Text("Stop").
							OnClick(func(ctx app.Context, e app.Event) { ApplyFrom(ctx, stopControl, stop) }, stop),
					)
				}),
			),
		),
		&ControlError{Control: stopControl},
		app.Form().ID("producer-form").DataSet("command", scenario.CmdProducer).Aria("label", "start a producer").
			OnSubmit(submitLines(producerControl, c.ProducerLines)).Body(
			app.H3().Text("Producer"),
			app.Div().Class("row").Body(
				field("producer-name", "Name", textInput("producer-name", &c.name, &c.Compo)),
				field("producer-topic", "Topic", topicSelect("producer-topic", c.Topics, &c.topic, &c.Compo)),
				field("producer-rate", "Rate", textInput("producer-rate", &c.rate, &c.Compo, "placeholder", "10/s")),
			),
			app.Div().Class("row").Body(
				field("producer-keys", "Keys", app.Select().ID("producer-keys").Name("producer-keys").OnChange(c.ValueTo(&c.keys)).Body(
					app.Range(scenario.KeyDistributions).Slice(func(i int) app.UI {
						k := scenario.KeyDistributions[i]
						return app.Option().Value(k).Selected(k == keys).Text(k)
					}),
				)),
				field("producer-keyspace", "Keyspace", numberInput("producer-keyspace", &c.keyspace, &c.Compo).
					Disabled((keys != "uniform" && keys != "zipf") || list != "")),
				field("producer-exponent", "Exponent", textInput("producer-exponent", &c.exponent, &c.Compo).
					Disabled(keys != "zipf")),
			),
			app.Div().Class("row").Body(
				field("producer-key-names", "Key names", textInput("producer-key-names", &c.keyNames, &c.Compo,
					"placeholder", "key-{n}", "aria-describedby", "producer-key-names-help").
					Disabled(keys == "none")),
			),
			app.P().ID("producer-key-names-help").Class("form-note").Text(keyNamesHelp),
			app.Div().Class("row").Body(
				field("producer-value", "Value", textInput("producer-value", &c.value, &c.Compo, "placeholder", "NAME-n")),
				field("producer-acks", "acks", acksSelect("producer-acks", &c.acks, &c.Compo)),
				app.If(producerRules(c.Rules),
					field("producer-partitioner", "Partitioner", partitionerSelect("producer-partitioner", &c.partitioner, &c.Compo)),
				),
			),
			app.Button().Type("submit").ID("producer-start").Text(startLabel("producer", strings.TrimSpace(c.name), replacesProducer)),
			&ControlError{Control: producerControl},
		),
		app.Form().ID("consumer-form").DataSet("command", scenario.CmdConsumer).Aria("label", "start a consumer").
			OnSubmit(submitLines(consumerControl, c.ConsumerLines)).Body(
			app.H3().Text("Consumer"),
			app.Div().Class("row").Body(
				field("consumer-group", "Group", textInput("consumer-group", &c.group, &c.Compo, "placeholder", "billing")),
				field("consumer-member", "Member", textInput("consumer-member", &c.member, &c.Compo, "placeholder", "c1")),
			),
			app.Div().Class("row").Body(
				field("consumer-rate", "Polls", textInput("consumer-rate", &c.consumerRate, &c.Compo, "placeholder", "2/s")),
				field("consumer-max", "max", numberInput("consumer-max", &c.max, &c.Compo)),
				app.Div().Class("field", "check").Body(
					app.Input().Type("checkbox").ID("consumer-commit").Checked(c.commit && !share).Disabled(share).OnChange(c.toggleCommit),
					app.Label().For("consumer-commit").Text("commit after each poll"),
				),
			),
			app.If(share, app.P().Class("form-note").DataSet("share-workload", "true").Text(
				"A share group's member commits no offsets: each poll accepts the records of the poll before (implicit acknowledgement), and takes at most its max.poll.records unless max says less.")),
			app.Button().Type("submit").ID("consumer-start").Text(startLabel("consumer", consumer, replacesConsumer)),
			&ControlError{Control: consumerControl},
		),
		app.Form().ID("seed-form").DataSet("command", scenario.CmdSeed).Aria("label", "set the seed").OnSubmit(submitLine(seedControl, c.SeedLine)).Body(
			app.Div().Class("row").Body(
				field("seed-number", "Seed", numberInput("seed-number", &c.seed, &c.Compo)),
				&Help{Topic: "seed"},
				app.Button().Type("submit").ID("seed-set").Text("Set seed"),
			),
			app.If(c.Step > 0, app.P().Class("form-note").Text(fmt.Sprintf(
				"The seed is only the first command; this scenario has %d. Start a new scenario to choose it.", c.Step))),
			&ControlError{Control: seedControl},
		),
	)
}
