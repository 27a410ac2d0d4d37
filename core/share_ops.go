package core

import (
	"fmt"
	"slices"
	"strings"
)

// The events of share groups.
const (
	EventShareMemberJoined  EventKind = "share-member-joined"
	EventShareMemberLeft    EventKind = "share-member-left"
	EventShareMemberCrashed EventKind = "share-member-crashed"
	// EventShareAssignment: the group's epoch (Generation) moved and its
	// members (Count) have their new partitions.
	EventShareAssignment EventKind = "share-assignment"
	// EventShareAcquired: a member acquired a record (Offset); Count is
	// its delivery count now.
	EventShareAcquired     EventKind = "share-acquired"
	EventShareAcknowledged EventKind = "share-acknowledged"
	EventShareReleased     EventKind = "share-released"
	EventShareArchived     EventKind = "share-archived"
	EventShareRenewed      EventKind = "share-renewed"
	// EventShareAckFailed: the broker refused a member's acknowledgement
	// of Count records of a partition (Detail says why, in Kafka's words).
	EventShareAckFailed EventKind = "share-acknowledgement-failed"
	// EventSharePolled: a member's poll returned Count records.
	EventSharePolled EventKind = "share-polled"
)

// SharePolled is one record a share poll returned.
type SharePolled struct {
	TopicPartition
	Offset        int64
	DeliveryCount int
}

// SharePoll is KafkaShareConsumer.poll for a member, at the engine's
// clock. First, as ShareConsumerImpl.poll does, an implicit member
// accepts what its last poll returned (acknowledgeBatchIfImplicitAcknowledgement),
// and an explicit member must have acknowledged all of it
// (ensureInFlightAcknowledgedIfExplicitAcknowledgement). Then its share
// fetch acquires up to max records (max.poll.records) over its
// partitions, starting from a partition that moves on by one each poll
// (PartitionRotateStrategy.rotateRoundRobin by the share session's
// epoch), each partition taking what the ones before left of max. The
// records it renewed come back first, still under their locks.
func (l *PartitionedLog) SharePoll(group, member string, maxRecords int) ([]SharePolled, error) {
	g, m, err := l.runningShareMember(group, member, "it polls no more")
	if err != nil {
		return nil, err
	}
	l.refreshShareAssignment(g)
	if maxRecords <= 0 {
		maxRecords = m.maxRecords
	}
	if m.ackMode == AckModeExplicit {
		for _, d := range m.delivered {
			if !d.acked {
				//lint:ignore ST1005 Kafka's own words (ShareConsumerImpl's IllegalStateException)
				return nil, fmt.Errorf("All records must be acknowledged in explicit acknowledgement mode. (Kafka's IllegalStateException: %s/%d offset %d from %s's last poll is not acknowledged yet; ack it first)", d.Topic, d.Partition, d.offset, member)
			}
		}
	} else {
		l.acceptDelivered(g, m, "accepted implicitly by the next poll")
	}
	var out []SharePolled
	var renewed []deliveredRecord
	for _, d := range m.delivered {
		if !d.renew {
			continue
		}
		sp := g.partitions[d.TopicPartition]
		if i := sp.find(d.offset); i >= 0 && sp.records[i].state == RecordAcquired && sp.records[i].member == member {
			renewed = append(renewed, deliveredRecord{TopicPartition: d.TopicPartition, offset: d.offset})
			out = append(out, SharePolled{TopicPartition: d.TopicPartition, Offset: d.offset, DeliveryCount: sp.records[i].deliveries})
		}
	}
	m.delivered = renewed
	m.polls++
	parts := m.assignment
	if len(parts) > 1 {
		at := m.polls % len(parts)
		parts = append(slices.Clone(parts[at:]), parts[:at]...)
	}
	left := maxRecords - len(out)
	for _, tp := range parts {
		if left <= 0 {
			break
		}
		sp, err := l.initShare(g, tp)
		if err != nil {
			continue // a partition gone since the assignment: nothing to read
		}
		got, err := l.acquire(g, sp, member, left, l.now)
		if err != nil {
			return nil, err
		}
		for _, off := range got {
			i := sp.find(off)
			out = append(out, SharePolled{TopicPartition: tp, Offset: off, DeliveryCount: sp.records[i].deliveries})
			m.delivered = append(m.delivered, deliveredRecord{TopicPartition: tp, offset: off})
		}
		left -= len(got)
	}
	l.emit(Event{Kind: EventSharePolled, Group: group, Member: member, Count: len(out)})
	return out, nil
}

// acceptDelivered accepts, for an implicit member, the records its last
// poll returned that it still holds; those whose lock expired meanwhile
// are no longer its to accept, as the broker refuses them
// (InvalidRecordStateException).
func (l *PartitionedLog) acceptDelivered(g *shareGroup, m *shareMember, why string) {
	touched := map[TopicPartition]bool{}
	for _, d := range m.delivered {
		sp := g.partitions[d.TopicPartition]
		if sp == nil {
			continue
		}
		if i := sp.find(d.offset); i >= 0 && sp.records[i].state == RecordAcquired && sp.records[i].member == m.name {
			sp.settle(l, g, i, RecordAcknowledged, CauseNone, why)
			touched[d.TopicPartition] = true
		}
	}
	for tp := range touched {
		g.partitions[tp].persist()
		g.partitions[tp].advanceStart()
	}
	m.delivered = nil
}

// ShareAcknowledge is ShareConsumer.acknowledge(record, type) followed by
// commitSync, for an explicit member: each offset must be one its last
// poll returned (ShareFetch: "The record cannot be acknowledged."), and
// the broker checks that the member still holds it
// (SharePartition.acknowledgePerOffsetBatchRecords: every record of the
// acknowledgement is checked before any changes, so that it is all or
// nothing). ACCEPT acknowledges a record; RELEASE makes it available
// again, or archives it at share.delivery.count.limit deliveries; REJECT
// archives it at once; RENEW restarts its lock (KIP-1222) and the next
// poll returns it again. An empty offsets list acknowledges every record
// of the last poll not yet acknowledged on that partition, or on every
// partition when tp's topic is "".
func (l *PartitionedLog) ShareAcknowledge(group, member string, tp TopicPartition, offsets []int64, ackType string) error {
	g, m, err := l.runningShareMember(group, member, "it acknowledges nothing")
	if err != nil {
		return err
	}
	if !slices.Contains(AckTypes(), ackType) {
		return fmt.Errorf("unknown acknowledge type %q: expected one of %s", ackType, strings.Join(AckTypes(), ", "))
	}
	if m.ackMode == AckModeImplicit {
		//lint:ignore ST1005 Kafka's own words (ShareConsumerImpl's IllegalStateException)
		return fmt.Errorf("Implicit acknowledgement of delivery is being used. (Kafka's IllegalStateException: %s joined with share.acknowledgement.mode=implicit, so its next poll accepts what the last one returned; join with share.acknowledgement.mode=explicit to acknowledge each record)", member)
	}
	var picks []int // indexes into m.delivered
	if len(offsets) == 0 {
		for i, d := range m.delivered {
			if !d.acked && (tp.Topic == "" || d.TopicPartition == tp) {
				picks = append(picks, i)
			}
		}
		if len(picks) == 0 {
			where := "from its last poll"
			if tp.Topic != "" {
				where = fmt.Sprintf("of %s/%d from its last poll", tp.Topic, tp.Partition)
			}
			return fmt.Errorf("%s has no record %s left to acknowledge", member, where)
		}
	}
	for _, off := range offsets {
		i := slices.IndexFunc(m.delivered, func(d deliveredRecord) bool { return d.TopicPartition == tp && d.offset == off })
		if i < 0 || m.delivered[i].acked {
			//lint:ignore ST1005 Kafka's own words (ShareConsumerImpl's IllegalStateException)
			return fmt.Errorf("The record cannot be acknowledged. (Kafka's IllegalStateException: %s/%d offset %d is not among the records %s's last poll returned and has not acknowledged yet)", tp.Topic, tp.Partition, off, member)
		}
		if !slices.Contains(picks, i) {
			picks = append(picks, i)
		}
	}
	// The client takes every acknowledgement; the broker then checks each
	// partition's, all before any change, and refuses a partition's
	// whole acknowledgement when one record fails
	// (SharePartition.acknowledge rolls the batch back): the member hears
	// of it in its acknowledgement callback, an event here, and its
	// records stay as they were.
	byPartition := map[TopicPartition][]int{}
	for _, i := range picks {
		m.delivered[i].acked = true
		byPartition[m.delivered[i].TopicPartition] = append(byPartition[m.delivered[i].TopicPartition], i)
	}
	for _, key := range sortedKeys(byPartition) {
		sp := g.partitions[key]
		if why := l.refuseAcknowledgement(g, sp, m, byPartition[key], ackType); why != "" {
			l.emit(Event{Kind: EventShareAckFailed, Group: group, Member: member, Topic: key.Topic, Partition: key.Partition, Count: len(byPartition[key]), Detail: why})
			continue
		}
		for _, i := range byPartition[key] {
			d := &m.delivered[i]
			j := sp.find(d.offset)
			switch ackType {
			case AckAccept:
				sp.settle(l, g, j, RecordAcknowledged, CauseNone, "accepted by "+member)
			case AckRelease:
				sp.settle(l, g, j, RecordAvailable, CauseNone, "released by "+member)
			case AckReject:
				sp.settle(l, g, j, RecordArchived, CauseNone, "rejected by "+member)
			case AckRenew:
				d.renew = true
				r := &sp.records[j]
				r.lockUntil = l.now + g.cfg.RecordLockDurationMs
				sp.locksChanged = true
				l.emit(Event{Kind: EventShareRenewed, Group: group, Member: member, Topic: d.Topic, Partition: d.Partition, Offset: d.offset, Count: r.deliveries,
					Detail: "lock until " + fmtMs(r.lockUntil)})
			}
		}
		sp.persist()
		sp.advanceStart()
	}
	return nil
}

// refuseAcknowledgement says why the broker refuses a member's
// acknowledgement of records of one share-partition, in Kafka 4.4's words
// (InvalidRecordStateException in SharePartition.acknowledgePerOffsetBatchRecords),
// or "" when it takes it.
func (l *PartitionedLog) refuseAcknowledgement(g *shareGroup, sp *sharePartition, m *shareMember, picks []int, ackType string) string {
	if ackType == AckRenew && !g.cfg.RenewAcknowledgeEnable {
		return fmt.Sprintf("Renewing acquisition locks is not enabled for the group. (share group %s has share.renew.acknowledge.enable=false)", g.name)
	}
	for _, i := range picks {
		d := m.delivered[i]
		j := sp.find(d.offset)
		switch {
		case j < 0 || sp.records[j].state != RecordAcquired:
			return fmt.Sprintf("The offset cannot be acknowledged. The offset is not acquired. (offset %d: its lock expired)", d.offset)
		case sp.records[j].member != m.name:
			return fmt.Sprintf("Member is not the owner of offset (offset %d: %s holds it since %s's lock expired)", d.offset, sp.records[j].member, m.name)
		}
	}
	return ""
}

func sortedKeys[V any](set map[TopicPartition]V) []TopicPartition {
	keys := make([]TopicPartition, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sortTopicPartitions(keys)
	return keys
}
