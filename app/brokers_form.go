package app

import (
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// BrokersForm sizes the cluster (brokers N, with replica.lag.time.max.ms,
// the time a follower may lag before it leaves the ISR) and slows one
// broker's followers to a pace (broker slow ID pace=N/s). The buttons of
// each broker in ReplicaView do the rest.
type BrokersForm struct {
	app.Compo

	Links     int // links the page opened since it was ready: a new count starts the form afresh (fresh_form.go)
	linksSeen int

	Brokers  int   // the cluster's size
	LagMaxMs int64 // replica.lag.time.max.ms

	count, lagMax string // as typed; "" keeps the cluster's
	slowID, pace  string
	// policy is the group.consumer.migration.policy chosen (Kafka 4.4's
	// broker config; core/group_migration.go), "" to keep the cluster's.
	policy string
}

// The form's error names.
const (
	brokersControl    = "brokers"
	brokerSlowControl = "broker-slow"
)

// OnInit suggests a pace.
func (f *BrokersForm) OnInit() {
	f.pace = defaultSlowPace
}

// BrokersLine writes the brokers command.
func (f *BrokersForm) BrokersLine() (string, string) {
	n := strings.TrimSpace(f.count)
	if n == "" {
		n = strconv.Itoa(f.Brokers)
	}
	args := []scenario.Arg{positional(n)}
	if lag := strings.TrimSpace(f.lagMax); lag != "" {
		args = append(args, named("replica.lag.time.max.ms", lag))
	}
	if f.policy != "" {
		args = append(args, named("group.consumer.migration.policy", f.policy))
	}
	return line(scenario.CmdBrokers, args...), ""
}

// SlowLine writes the broker slow command.
func (f *BrokersForm) SlowLine() (string, string) {
	id, pace := strings.TrimSpace(f.slowID), strings.TrimSpace(f.pace)
	if id == "" {
		id = "1"
	}
	if pace == "" {
		return "", "How fast may its followers copy? Write a pace such as 1/s."
	}
	return line(scenario.CmdBroker, positional("slow"), positional(id), named("pace", pace)), ""
}

// Render draws both forms.
func (f *BrokersForm) Render() app.UI {
	if f.Links != f.linksSeen {
		startAfresh(f, (*BrokersForm).OnInit)
		f.linksSeen = f.Links
	}
	ids := make([]string, f.Brokers)
	for i := range ids {
		ids[i] = strconv.Itoa(i + 1)
	}
	return app.Section().Class("panel", "cluster").Aria("label", "the cluster").Body(
		app.H2().Body(app.Text("Cluster "), &Help{Topic: "broker"}),
		app.Form().ID("brokers-form").DataSet("command", scenario.CmdBrokers).OnSubmit(submitLine(brokersControl, f.BrokersLine)).Body(
			app.Div().Class("row").Body(
				field("brokers-count", "Brokers", numberInput("brokers-count", &f.count, &f.Compo).Placeholder(strconv.Itoa(f.Brokers))),
				field("brokers-lag", "replica.lag.time.max.ms", textInput("brokers-lag", &f.lagMax, &f.Compo,
					"placeholder", units.Duration(f.LagMaxMs), "title", configHelp(core.OnCluster, "replica.lag.time.max.ms"))),
				&Help{Topic: "isr"},
			),
			app.Div().Class("row").Body(
				field("brokers-migration", "group.consumer.migration.policy", app.Select().ID("brokers-migration").Name("group.consumer.migration.policy").
					Title(configHelp(core.OnCluster, "group.consumer.migration.policy")).OnChange(f.ValueTo(&f.policy)).Body(
					app.Option().Value("").Selected(f.policy == "").Text("as it is"),
					app.Range(core.MigrationPolicies()).Slice(func(i int) app.UI {
						p := core.MigrationPolicies()[i]
						return app.Option().Value(p).Selected(f.policy == p).Text(p)
					}),
				)),
			),
			app.Button().Type("submit").ID("brokers-set").Text("Set brokers"),
			&ControlError{Control: brokersControl},
		),
		app.Form().ID("broker-slow-form").DataSet("command", scenario.CmdBroker).OnSubmit(submitLine(brokerSlowControl, f.SlowLine)).Body(
			app.Div().Class("row").Body(
				field("broker-slow-id", "Slow broker", app.Select().ID("broker-slow-id").Name("broker-slow-id").OnChange(f.ValueTo(&f.slowID)).Body(
					app.Range(ids).Slice(func(i int) app.UI {
						return app.Option().Value(ids[i]).Selected(ids[i] == f.slowID).Text("broker " + ids[i])
					}),
				)),
				field("broker-slow-pace", "to (records a second)", textInput("broker-slow-pace", &f.pace, &f.Compo)),
			),
			app.Button().Type("submit").ID("broker-slow-go").Text("Slow"),
			&ControlError{Control: brokerSlowControl},
		),
	)
}
