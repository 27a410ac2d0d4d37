package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// BrokerStrip draws the cluster as a strip above the lanes: each broker
// with its state and its actions (crash, restart, isolate, slow, heal), a
// click on its name opening it in the inspector. The partitions' replicas
// are drawn on their lanes (laneReplicas).
//
// Testable names: a broker [data-broker="1"] with data-status (up, down,
// isolated, slowed) and its buttons [data-broker-action=crash] ...
type BrokerStrip struct {
	app.Compo

	Brokers  []core.BrokerInfo
	LagMaxMs int64 // replica.lag.time.max.ms
	Selected int   // the broker inspected, 0 for none
}

// replicaControl names the brokers' controls for their errors.
const replicaControl = "replicas"

// defaultSlowPace is the pace the slow button sets.
const defaultSlowPace = "1/s"

// Render draws the strip; nothing until replication is in use.
func (v *BrokerStrip) Render() app.UI {
	if len(v.Brokers) == 0 {
		return app.Section().Class("replicas", "broker-strip").Hidden(true)
	}
	return app.Section().Class("replicas", "broker-strip").Aria("label", "brokers").Body(
		app.Span().Class("strip-title").Title(fmt.Sprintf(
			"Consumers read below the high watermark: the records every in-sync replica holds. A follower behind for more than replica.lag.time.max.ms=%s leaves the ISR.",
			units.Duration(v.LagMaxMs))).Body(
			app.Strong().Text("Brokers"), &Help{Topic: "broker"},
		),
		app.Ul().Class("brokers").Body(
			app.Range(v.Brokers).Slice(func(i int) app.UI { return v.broker(v.Brokers[i]) }),
		),
		&ControlError{Control: replicaControl},
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

// brokerText is the caption of a broker in the strip: its id and state.
func brokerText(b core.BrokerInfo) string { return fmt.Sprintf("b%d %s", b.ID, brokerLabel(b)) }

func (v *BrokerStrip) broker(b core.BrokerInfo) app.UI {
	li := app.Li().Class("broker").DataSet("broker", b.ID).DataSet("status", brokerStatus(b))
	if b.ID == v.Selected {
		li = li.Class("selected")
	}
	return li.Body(
		app.Button().Type("button").Class("broker-name", "quiet").DataSet("inspect-broker", b.ID).
			Aria("label", fmt.Sprintf("b%d %s: inspect broker %d", b.ID, brokerLabel(b), b.ID)).
			Title(fmt.Sprintf("broker %d: %s · leads %d · follows %d", b.ID, brokerLabel(b), b.Leads, b.Follows)).
			OnClick(selectThing(selection{Kind: selectBroker, Broker: b.ID}), b.ID).
			Body(
				app.Span().Class("broker-dot").Aria("hidden", "true"),
				app.Text(brokerText(b)),
			),
		app.Span().Class("broker-actions").Body(brokerButtons(b)...),
	)
}

// laneReplicas draws a partition's replicas on its lane, compactly: each
// replica's broker, the leader first-class, followers out of the ISR and
// offline replicas marked, the ISR and min.insync.replicas, and why the
// high watermark is held. The inspector draws them in full.
//
// Testable names: [data-replicas-of="orders/0"] with data-leader (the
// broker id, "none" when offline), data-leader-epoch, data-isr ("2 3"),
// data-high-watermark, data-log-end and data-offline; inside it a replica
// [data-broker="2"] with data-log-end, data-match, data-in-sync and
// data-leader, and [data-hw-held] while the high watermark is held.
func laneReplicas(p ReplicaPartition, down []int) app.UI {
	name := p.Topic + "/" + strconv.Itoa(p.Partition)
	leader := "none"
	if !p.Offline {
		leader = strconv.Itoa(p.Leader)
	}
	return app.Div().Class("lane-replicas").
		DataSet("replicas-of", name).
		DataSet("leader", leader).
		DataSet("leader-epoch", p.LeaderEpoch).
		DataSet("isr", joinIDs(p.ISR)).
		DataSet("high-watermark", p.HighWatermark).
		DataSet("log-end", p.LogEndOffset).
		DataSet("offline", p.Offline).
		Body(
			app.Span().Class("replica-list").Aria("label", "replicas of "+name).Body(
				app.Range(p.Replicas).Slice(func(i int) app.UI { return replicaChip(p.Replicas[i], slices.Contains(down, p.Replicas[i].Broker)) }),
				app.If(!p.Offline, &Help{Topic: "leader"}),
			),
			app.Span().Class("replica-summary").Title(minInsyncText(p.PartitionReplication)).Body(
				app.Text("ISR "+orNone(joinIDs(p.ISR))), &Help{Topic: "isr"},
				// The inspector shows min.insync.replicas; the lane has no room.
				app.Span().Class("visually-hidden").Text(" · "+minInsyncText(p.PartitionReplication)),
			),
			app.If(p.Offline,
				app.P().Class("offline").Title(p.OfflineReason).Body(
					app.Span().Aria("hidden", "true").Text("offline"),
					// The lane's note says why in full; this is its reason, for readers of the replicas.
					app.Span().Class("visually-hidden").Text("Offline: "+p.OfflineReason+"."),
					&Help{Topic: "offline-partition"},
					// The reason names the setting when turning it on would elect a leader.
					app.If(strings.Contains(p.OfflineReason, "unclean.leader.election.enable"), &Help{Topic: "unclean-election"}),
				),
			),
			app.If(p.HighWatermarkHeld != "",
				app.P().Class("hw-held").DataSet("hw-held", "true").Attr("role", "status").Body(
					app.Span().Aria("hidden", "true").Title(p.HighWatermarkHeld).Text("HW held"),
					app.Span().Class("visually-hidden").Text("The high watermark stays at "+strconv.FormatInt(p.HighWatermark, 10)+": "+p.HighWatermarkHeld+"."),
					&Help{Topic: "high-watermark"},
				),
			),
		)
}

// replicaChip is one replica on a lane: its broker, ★ for the leader, and
// how far behind the leader's log end it is when it is.
func replicaChip(r core.ReplicaInfo, down bool) app.UI {
	role, mark := "follower", ""
	if r.Leader {
		role, mark = "leader", "★"
	}
	sync := "in sync"
	if !r.InSync {
		sync = "out of sync"
	}
	chip := app.Span().Class("replica").
		DataSet("broker", r.Broker).
		DataSet("log-end", r.LogEndOffset).
		DataSet("match", r.MatchOffset).
		DataSet("in-sync", r.InSync).
		DataSet("leader", r.Leader).
		Title(fmt.Sprintf("broker %d · %s · %s · log end %d", r.Broker, role, sync, r.LogEndOffset))
	if r.Leader {
		chip = chip.Class("replica-leader")
	}
	if !r.InSync {
		chip = chip.Class("replica-out")
	}
	if down {
		chip = chip.Class("replica-down")
	}
	return chip.Text(fmt.Sprintf("%s%d", mark, r.Broker))
}

// orNone is s, or "none" when empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
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
			app.Div().Class("replica-track").Body(
				app.Div().Class("replica-held").Style("width", percent(r.MatchOffset, scale)),
				app.Div().Class("replica-diverged").Style("left", percent(r.MatchOffset, scale)).
					Style("width", percent(r.LogEndOffset-r.MatchOffset, scale)),
				app.Div().Class("replica-hw").Title(fmt.Sprintf("high watermark %d", p.HighWatermark)).
					Style("left", percent(p.HighWatermark, scale)),
			),
			app.Span().Class("replica-text").Text(text),
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
