package app

import (
	"fmt"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A consumer-protocol member's card (KIP-848, core/group_consumer.go) says,
// besides its current assignment, its member epoch and state, its target
// assignment, and which partitions wait to move: those it must revoke and
// those it waits to be assigned. The coordinator reconciles a member at its
// heartbeats (Kafka 4.4's CurrentAssignmentBuilder), so what waits moves at
// its next one, a partition only once its previous owner has revoked it.

// renderConsumerState draws the member's epoch, state and target, and what
// waits to move, in two short lines; nothing for a classic member.
func (m *GroupMember) renderConsumerState() app.UI {
	v := m.Member
	if v.MemberState == "" {
		return nil
	}
	revoke, assign := v.PendingRevoke, v.PendingAssign
	return app.Div().Class("member-consumer").Body(
		app.P().Class("member-target").Body(
			m.renderMemberProtocol(),
			app.Span().Class("member-epoch").
				Title(fmt.Sprintf("member epoch %d, state %s: the epoch of the assignment it holds", v.Epoch, v.MemberState)).
				Text(fmt.Sprintf("epoch %d · %s", v.Epoch, v.MemberState)),
			app.Text(" · target "),
			partitionSpans("target", v.Target, "none"),
		),
		app.If(len(revoke)+len(assign) > 0,
			app.P().Class("member-pending").Title(m.pendingTitle()).Body(
				app.If(len(revoke) > 0,
					app.Span().Class("member-pending-revoke").Body(
						app.Text("to revoke "), partitionSpans("pending-revoke", revoke, ""),
					),
				),
				app.If(len(revoke) > 0 && len(assign) > 0, app.Text(" · ")),
				app.If(len(assign) > 0,
					app.Span().Class("member-pending-assign").Body(
						app.Text("to assign "), partitionSpans("pending-assign", assign, ""),
					),
				),
			),
		),
	)
}

// renderMemberProtocol names the protocol a consumer group's member runs,
// [data-member-protocol]: consumer, or classic for a member that joined so
// or came from the classic group the group was (an online upgrade or
// downgrade, core/group_migration.go), which kafka-consumer-groups marks
// UPGRADED false.
func (m *GroupMember) renderMemberProtocol() app.UI {
	v := m.Member
	title := "It runs the consumer group protocol: it heartbeats every consumer.heartbeat.interval.ms and moves to its target at its heartbeats."
	if v.Protocol == core.ProtocolClassic {
		title = "A classic member of a consumer group: it rejoins with JoinGroup and SyncGroup when the coordinator answers its heartbeat REBALANCE_IN_PROGRESS, and gets its next assignment toward its target. The playground lets it rejoin at its next poll, as if its heartbeat thread had heard the answer already."
	}
	return app.Span().Class("member-protocol").DataSet("member-protocol", v.Protocol).Title(title).Text(v.Protocol + " · ")
}

// pendingTitle says when what waits moves: at the member's next heartbeat,
// a partition it waits for only once its previous owner has revoked it.
func (m *GroupMember) pendingTitle() string {
	if m.Member.Protocol == core.ProtocolClassic {
		return "It moves when it rejoins, at its next poll: a partition it must revoke first, and one it waits for only once the member that owned it has revoked it."
	}
	at := ""
	if hb := m.Member.NextHeartbeat; hb > 0 {
		at = ", at " + units.Duration(hb)
	}
	return "It moves at its next heartbeat" + at + ": a partition it must revoke first, and one it waits for only once the member that owned it has revoked it."
}

// partitionSpans writes partitions as "orders/0, orders/1", in a span
// marked data-NAME="orders/0 orders/1" for tests (match one with ~=), or
// none when there are none; past assignmentListed, how many more (a member
// of a group over thousands of partitions has hundreds). One span, not one
// a partition: a card of 48 spans was most of what a member cost the page
// to draw.
func partitionSpans(name string, tps []core.TopicPartition, none string) app.UI {
	if len(tps) == 0 {
		return app.Text(none)
	}
	return app.Span().DataSet(name, partitionList(listedOf(tps))).Text(partitionsText(tps))
}
