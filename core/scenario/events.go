package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"plog/core"
)

// EventText writes one event as a line: the virtual time, the kind, and the
// fields that kind uses (see core.EventKind).
func EventText(e core.Event) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", formatDuration(e.Time), e.Kind)
	tp := e.Topic + "/" + strconv.Itoa(e.Partition)
	member := e.Group
	if e.Member != "" {
		member += "/" + e.Member
	}
	switch e.Kind {
	case core.EventProduced:
		if e.Count > 1 {
			fmt.Fprintf(&b, " %s offsets=%d..%d records=%d", tp, e.From, e.To, e.Count)
		} else {
			fmt.Fprintf(&b, " %s offset=%d", tp, e.Offset)
		}
	case core.EventTruncated:
		fmt.Fprintf(&b, " %s offsets=%d..%d removed=%d", tp, e.From, e.To, e.Count)
	case core.EventSegmentDeleted:
		fmt.Fprintf(&b, " %s offsets=%d..%d records=%d", tp, e.From, e.To, e.Count)
		if e.RolledActive {
			b.WriteString(" active-rolled-first")
		}
	case core.EventCompacted:
		fmt.Fprintf(&b, " %s removed=%d", tp, e.Count)
	case core.EventPartitionsAdded, core.EventTopicCreated:
		fmt.Fprintf(&b, " %s partitions=%d", e.Topic, e.Count)
	case core.EventDelivered, core.EventCommitted:
		fmt.Fprintf(&b, " %s %s offset=%d", member, tp, e.Offset)
	case core.EventRebalanceStarted:
		fmt.Fprintf(&b, " %s generation=%d", e.Group, e.Generation)
	case core.EventRebalanceDone:
		fmt.Fprintf(&b, " %s generation=%d moved=%d", e.Group, e.Generation, e.Count)
	case core.EventGroupEpoch:
		fmt.Fprintf(&b, " %s epoch=%d", e.Group, e.Generation)
	case core.EventGroupConverted:
		fmt.Fprintf(&b, " %s epoch=%d", e.Group, e.Generation)
	case core.EventGroupDeleted:
		fmt.Fprintf(&b, " %s offsets=%d", e.Group, e.Count)
	case core.EventTargetAssignment:
		fmt.Fprintf(&b, " %s epoch=%d moved=%d", e.Group, e.Generation, e.Count)
	case core.EventMemberReconciled:
		fmt.Fprintf(&b, " %s epoch=%d", member, e.Generation)
	case core.EventMemberJoined, core.EventMemberLeft, core.EventMemberStopped, core.EventPolledNothing:
		b.WriteString(" " + member)
	case core.EventLostUnprocessed:
		fmt.Fprintf(&b, " %s %s offsets=%d..%d lost=%d", member, tp, e.From, e.To, e.Count)
	case core.EventLostToReset:
		fmt.Fprintf(&b, " %s %s offsets=%d..%d lost=%d", e.Group, tp, e.From, e.To, e.Count)
	case core.EventOffsetsReset:
		fmt.Fprintf(&b, " %s %s offset=%d", e.Group, tp, e.Offset)
	case EventRevoked, EventAssigned:
		fmt.Fprintf(&b, " %s %s generation=%d", member, tp, e.Generation)
	case core.EventClockAdvanced:
		fmt.Fprintf(&b, " to=%s", formatDuration(e.Offset))
	case core.EventBrokerCrashed, core.EventBrokerRestarted, core.EventBrokerIsolated, core.EventBrokerHealed, core.EventBrokerSlowed:
		fmt.Fprintf(&b, " broker=%d", e.Broker)
	case core.EventBrokersChanged:
		fmt.Fprintf(&b, " brokers=%d", e.Count)
	case core.EventISRShrunk, core.EventISRExpanded:
		fmt.Fprintf(&b, " %s broker=%d isr-size=%d", tp, e.Broker, e.Count)
	case core.EventLeaderElected:
		fmt.Fprintf(&b, " %s leader=%d epoch=%d", tp, e.Broker, e.Generation)
	case core.EventPartitionOffline:
		b.WriteString(" " + tp)
	case core.EventRecordsLost:
		fmt.Fprintf(&b, " %s offsets=%d..%d lost=%d", tp, e.From, e.To, e.Count)
	case core.EventAcknowledged, core.EventNotEnoughReplicas, core.EventProduceFailed:
		fmt.Fprintf(&b, " %s offsets=%d..%d records=%d", tp, e.From, e.To, e.Count)
	case core.EventRequestLost, core.EventResponseLost, core.EventDuplicateDropped, core.EventOutOfOrder, core.EventSendFailed, core.EventTxnMarker:
		producerEventText(&b, e, tp) // apply_producers.go
	case core.EventTxnInit, core.EventTxnEnded, core.EventTxnEmpty:
		fmt.Fprintf(&b, " producer=%s producer-id=%d epoch=%d", e.Member, e.Count, e.Generation)
	case EventError:
	case core.EventShareMemberJoined, core.EventShareMemberLeft, core.EventShareMemberCrashed, core.EventShareAssignment, core.EventSharePolled,
		core.EventShareAcquired, core.EventShareAcknowledged, core.EventShareReleased, core.EventShareArchived, core.EventShareRenewed, core.EventShareAckFailed:
		writeShareEvent(&b, e, member, tp) // state_share.go
	default:
		// A kind this function does not know yet: every field that is set.
		for _, f := range []struct {
			name  string
			value string
			set   bool
		}{
			{"topic", tp, e.Topic != ""},
			{"group", member, e.Group != ""},
			{"offset", strconv.FormatInt(e.Offset, 10), e.Offset != 0},
			{"offsets", fmt.Sprintf("%d..%d", e.From, e.To), e.From != 0 || e.To != 0},
			{"count", strconv.Itoa(e.Count), e.Count != 0},
			{"generation", strconv.Itoa(e.Generation), e.Generation != 0},
		} {
			if f.set {
				fmt.Fprintf(&b, " %s=%s", f.name, f.value)
			}
		}
	}
	if e.Detail != "" {
		fmt.Fprintf(&b, " (%s)", e.Detail)
	}
	return b.String()
}
