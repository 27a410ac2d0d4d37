package app

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ReplicaView draws the cluster: each broker with buttons to crash,
// restart, isolate, slow and heal it, and for each partition its replicas
// by broker, the leader, the ISR, and each replica's log end offset against
// the high watermark. An offline partition says why. It draws a window of
// the partitions, the snapshot's, and asks the page for another
// (replicasAction).
//
// Testable names: a broker [data-broker="1"] with data-status (up, down,
// isolated, slowed); a partition [data-replicas-of="orders/0"] with
// data-leader (the broker id, "none" when offline), data-isr ("2 3"),
// data-high-watermark, data-log-end and data-offline; inside it a replica
// [data-broker="2"] with data-log-end, data-in-sync and data-leader.
type ReplicaView struct {
	app.Compo

	Cluster ReplicaSnapshot
}

// replicaControl names the view's controls for their errors.
const replicaControl = "replicas"

// defaultSlowPace is the pace the slow button sets.
const defaultSlowPace = "1/s"

// Render draws nothing until replication is in use.
func (v *ReplicaView) Render() app.UI {
	if !v.Cluster.InUse {
		return app.Section().Class("replicas").Hidden(true)
	}
	return app.Section().Class("replicas").Aria("label", "Brokers and replicas").Body(
		app.H2().Body(
			app.Text("Brokers"), &Help{Topic: "broker"},
			app.Text(" and replicas"), &Help{Topic: "replica"},
		),
		app.P().Class("replicas-note").Text(fmt.Sprintf(
			"Consumers read below the high watermark: the records every in-sync replica holds. A follower behind for more than replica.lag.time.max.ms=%s leaves the ISR.",
			units.Duration(v.Cluster.LagMaxMs))),
		&ControlError{Control: replicaControl},
		app.Ul().Class("brokers").Body(
			app.Range(v.Cluster.Brokers).Slice(func(i int) app.UI { return v.broker(v.Cluster.Brokers[i]) }),
		),
		windowNav("replicas", "partitions", v.Cluster.window(), func(ctx app.Context, start int) {
			ctx.NewActionWithValue(replicasAction, start)
		}),
		app.Div().Class("replica-partitions").Body(
			app.Range(v.Cluster.Partitions).Slice(func(i int) app.UI { return v.partition(v.Cluster.Partitions[i]) }),
		),
	)
}

func brokerStatus(b core.BrokerInfo) string {
	switch {
	case b.Down:
		return "down"
	case b.Isolated:
		return "isolated"
	case b.PaceRecords > 0:
		return "slowed"
	}
	return "up"
}

func (v *ReplicaView) broker(b core.BrokerInfo) app.UI {
	id := strconv.Itoa(b.ID)
	status := brokerStatus(b)
	label := status
	if b.PaceRecords > 0 {
		label += " to " + units.Rate(b.PaceRecords, b.PaceMs)
	}
	if b.Isolated && b.PaceRecords > 0 {
		label = "isolated, slowed to " + units.Rate(b.PaceRecords, b.PaceMs)
	}
	button := func(action, text string) app.UI {
		line := scenario.CmdBroker + " " + action + " " + id
		if action == "slow" {
			line += " pace=" + defaultSlowPace
		}
		// The line is the handler's scope: go-app reuses a button whose
		// place in the list another action held, and keeps its old handler
		// unless the scope differs.
		return app.Button().Type("button").DataSet("broker-action", action).DataSet("command", scenario.CmdBroker).
			Title(line).Text(text).
			OnClick(func(ctx app.Context, e app.Event) { ApplyFrom(ctx, replicaControl, line) }, line)
	}
	return app.Li().Class("broker").DataSet("broker", b.ID).DataSet("status", status).Body(
		app.Strong().Text("broker "+id),
		app.Span().Class("broker-status").Text(fmt.Sprintf(" %s · leads %d · follows %d ", label, b.Leads, b.Follows)),
		app.If(!b.Down, button("crash", "crash")),
		app.If(b.Down, button("restart", "restart")),
		app.If(!b.Isolated && !b.Down, button("isolate", "isolate")),
		app.If(b.PaceRecords == 0 && !b.Down, button("slow", "slow")),
		app.If(b.Isolated || b.PaceRecords > 0, button("heal", "heal")),
	)
}

func (v *ReplicaView) partition(p ReplicaPartition) app.UI {
	name := p.Topic + "/" + strconv.Itoa(p.Partition)
	leader := "none"
	title := fmt.Sprintf("%s: leader broker %d, epoch %d", name, p.Leader, p.LeaderEpoch)
	if !p.Offline {
		leader = strconv.Itoa(p.Leader)
	} else {
		title = name + ": offline"
	}
	// Bars scale to the longest log any replica holds.
	scale := p.LogEndOffset
	for _, r := range p.Replicas {
		scale = max(scale, r.LogEndOffset)
	}
	return app.Div().Class("replica-partition").
		DataSet("replicas-of", name).
		DataSet("leader", leader).
		DataSet("leader-epoch", p.LeaderEpoch).
		DataSet("isr", joinIDs(p.ISR)).
		DataSet("high-watermark", p.HighWatermark).
		DataSet("log-end", p.LogEndOffset).
		DataSet("offline", p.Offline).
		Body(
			app.H3().Text(title),
			app.If(p.Offline,
				app.P().Class("offline").Attr("role", "status").Body(
					app.Text("Offline: "+p.OfflineReason+"."), &Help{Topic: "offline-partition"},
					// The reason names the setting when turning it on would elect a leader.
					app.If(strings.Contains(p.OfflineReason, "unclean.leader.election.enable"), &Help{Topic: "unclean-election"}),
					app.Text(" Producing to and consuming from it fail."),
				),
			),
			app.P().Class("replica-summary").Body(
				app.Text("ISR "+joinIDs(p.ISR)), &Help{Topic: "isr"},
				app.Text(" ("+minInsyncText(p.PartitionReplication)), &Help{Topic: "min-insync-replicas"},
				app.Text(fmt.Sprintf(") · high watermark %d", p.HighWatermark)), &Help{Topic: "high-watermark"},
				app.Text(fmt.Sprintf(" · leader's log end %d · %s", p.LogEndOffset, ackSummary(p))), &Help{Topic: "acks"},
			),
			app.If(p.HighWatermarkHeld != "",
				app.P().Class("hw-held").DataSet("hw-held", "true").Attr("role", "status").Body(
					app.Text("The high watermark stays at "+strconv.FormatInt(p.HighWatermark, 10)+": "+p.HighWatermarkHeld+"."),
					&Help{Topic: "high-watermark"},
				),
			),
			app.Div().Class("replica-bars").Body(
				app.Range(p.Replicas).Slice(func(i int) app.UI { return replicaBar(p, p.Replicas[i], scale) }),
			),
		)
}

// replicaBar draws one replica: how far its log reaches, the part it
// shares with the leader, and the high watermark as a line.
func replicaBar(p ReplicaPartition, r core.ReplicaInfo, scale int64) app.UI {
	role := "follower"
	if r.Leader {
		role = "leader"
	}
	sync := "in sync"
	if !r.InSync {
		sync = "out of sync"
	}
	text := fmt.Sprintf("broker %d · %s · %s · log end %d", r.Broker, role, sync, r.LogEndOffset)
	if r.MatchOffset < r.LogEndOffset {
		text += fmt.Sprintf(" (offsets %d–%d are not the leader's: it truncates them at its next fetch)", r.MatchOffset, r.LogEndOffset-1)
	}
	return app.Div().Class("replica").
		DataSet("broker", r.Broker).
		DataSet("log-end", r.LogEndOffset).
		DataSet("match", r.MatchOffset).
		DataSet("in-sync", r.InSync).
		DataSet("leader", r.Leader).
		Body(
			app.Div().Class("replica-track").Style("position", "relative").Style("height", "0.6em").Style("background", "#eee").Body(
				app.Div().Class("replica-held").Style("position", "absolute").Style("left", "0").Style("height", "100%").
					Style("width", percent(r.MatchOffset, scale)).Style("background", "#0072b2"),
				app.Div().Class("replica-diverged").Style("position", "absolute").Style("left", percent(r.MatchOffset, scale)).Style("height", "100%").
					Style("width", percent(r.LogEndOffset-r.MatchOffset, scale)).Style("background", "#d55e00"),
				app.Div().Class("replica-hw").Title(fmt.Sprintf("high watermark %d", p.HighWatermark)).
					Style("position", "absolute").Style("left", percent(p.HighWatermark, scale)).Style("height", "140%").Style("top", "-20%").
					Style("border-left", "2px solid #000"),
			),
			app.Span().Class("replica-text").Body(app.Text(text), app.If(r.Leader, &Help{Topic: "leader"})),
		)
}

func percent(n, scale int64) string {
	if scale <= 0 {
		return "0%"
	}
	return strconv.FormatFloat(float64(n)*100/float64(scale), 'f', 2, 64) + "%"
}

func joinIDs(ids []int) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.Itoa(id)
	}
	return strings.Join(parts, " ")
}

// ackSummary says what the producers of the retained records were told.
func ackSummary(p ReplicaPartition) string {
	var parts []string
	tally := p.AckTally
	for _, c := range []struct {
		n    int64
		what string
	}{{tally.Acknowledged, "acknowledged"}, {tally.Pending, "waiting for acks=all"}, {tally.Failed, "failed"}, {tally.Sent, "sent with acks=0"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	if len(parts) == 0 {
		return "no records"
	}
	return strings.Join(parts, ", ")
}

// minInsyncText writes min.insync.replicas, and the minimum Kafka uses
// when it is above the replication factor (Partition.effectiveMinIsr).
func minInsyncText(p core.PartitionReplication) string {
	if p.EffectiveMinInsync != p.MinInsyncReplicas {
		return fmt.Sprintf("min.insync.replicas=%d, above the replication factor: Kafka needs %d", p.MinInsyncReplicas, p.EffectiveMinInsync)
	}
	return fmt.Sprintf("min.insync.replicas=%d", p.MinInsyncReplicas)
}
