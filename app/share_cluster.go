package app

import (
	"strings"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// clusterField is the id of the field holding the plogsim kafka command.
const clusterField = "cluster-command"

// clusterCommand is the shell command that runs the steps the page shows on
// a real cluster (plogsim kafka) and compares the cluster with the
// playground. It carries only the applied steps: a cluster cannot seek.
func clusterCommand(lines []string, position, rules int) (string, error) {
	position = min(max(position, 0), len(lines))
	withRules, _ := scenario.WithRulesLine(lines[:position], rules)
	link, err := scenario.EncodeLink(strings.Join(withRules, "\n"))
	if err != nil {
		return "", err
	}
	return scenario.KafkaCommand(link), nil
}

// clusterRow offers the scenario to learners who want to see a real Kafka
// do the same: the command, a copy button, and what to expect.
func (d *ShareDialog) clusterRow() app.UI {
	command, err := clusterCommand(d.Lines, d.Position, d.Rules)
	if err != nil {
		return app.P().Attr("role", "alert").Text("This scenario cannot be run on a cluster: " + err.Error())
	}
	return app.Div().Class("share-cluster").Body(
		app.H3().Text("Run this on a real cluster"),
		field(clusterField, "Command for a Kafka or Redpanda broker on this machine",
			app.Textarea().ID(clusterField).ReadOnly(true).Rows(3).Text(command)),
		app.Div().Class("row").Body(
			app.Button().Type("button").ID("copy-cluster-command").OnClick(d.copy(clusterField, command)).Text("Copy command"),
		),
		d.statusOf(clusterField),
		app.P().Class("hint").Text("plogsim (go install ./cmd/plogsim from plog's source) creates the scenario's topics under a prefix, "+
			"produces, consumes and commits as the script says, then prints the cluster's state beside the playground's "+
			"prediction, with the reason for every expected difference. Change --brokers to reach another cluster."),
	)
}
