package core

import (
	"slices"
	"strings"
)

// ShareGroupView is a share group as Kafka 4.4's Admin describes it
// (ShareGroupDescription, with listShareGroupOffsets' start offsets and
// lag), and the share-partitions' in-flight records as SharePartition
// keeps them.
type ShareGroupView struct {
	Name  string
	State string // Empty or Stable (ShareGroup.ShareGroupState)
	// GroupEpoch and AssignmentEpoch are equal: the playground computes
	// the target assignment with every epoch.
	GroupEpoch      int
	AssignmentEpoch int
	Configs         []ConfigEntry
	// ConfigsSet names the configs the group sets, not left to the
	// brokers' defaults.
	ConfigsSet []string
	Members    []ShareMemberView    // by name
	Partitions []SharePartitionView // in topic, partition order
}

// ShareMemberView is one member (ShareMemberDescription).
type ShareMemberView struct {
	Name     string // its client.id
	MemberID string
	Epoch    int
	Topics   []string
	AckMode  string
	MaxPoll  int
	// Assignment is its partitions, sorted.
	Assignment []TopicPartition
	// CrashedAt is when it crashed, -1 while it runs; the coordinator
	// removes it at CrashedAt + share.session.timeout.ms.
	CrashedAt int64
	// Holding are the records its last poll returned that it has not
	// acknowledged yet (explicit mode), or that the next poll accepts
	// (implicit mode).
	Holding []ShareHeld
}

// ShareHeld is a record a member's last poll returned.
type ShareHeld struct {
	TopicPartition
	Offset int64
	// Acknowledged: acknowledged since the poll (explicit mode);
	// Renewed: with RENEW, so the next poll returns it again.
	Acknowledged, Renewed bool
}

// SharePartitionView is one share-partition.
type SharePartitionView struct {
	TopicPartition
	// StartOffset is the share-partition start offset (SPSO), EndOffset
	// its end offset (SPEO) as SharePartition keeps it: the last in-flight
	// record's offset, or the start offset when none is in flight.
	StartOffset, EndOffset int64
	HighWatermark          int64
	// DeliveryComplete counts the in-flight records acknowledged or
	// archived; Lag is share lag as Kafka 4.4 computes it
	// (GroupCoordinatorService, KIP-1226): the high watermark, less the
	// start offset, less DeliveryComplete.
	DeliveryComplete int
	Lag              int64
	// ReportedStartOffset and ReportedLag are what Kafka's admin API
	// reports (DescribeShareGroupOffsets, which kafka-share-groups
	// --describe prints): the start offset and delivered count the share
	// coordinator last persisted, which trail the start offset by one
	// write (sharePartition.persist), with share lag computed from them;
	// -1 before the first write.
	ReportedStartOffset, ReportedLag int64
	InFlight                         []InFlightView
}

// InFlightView is one in-flight record.
type InFlightView struct {
	Offset        int64
	State         string // Available, Acquired, Acknowledged or Archived
	DeliveryCount int
	Member        string // who holds it, while Acquired
	LockUntil     int64  // when its lock expires, while Acquired
}

// ShareGroup describes a share group.
func (l *PartitionedLog) ShareGroup(name string) (ShareGroupView, error) {
	g, err := l.shareGroup(name)
	if err != nil {
		return ShareGroupView{}, err
	}
	v := ShareGroupView{Name: g.name, State: ShareGroupEmpty, GroupEpoch: g.epoch, AssignmentEpoch: g.epoch, Configs: g.cfg.Entries()}
	if len(g.members) > 0 {
		v.State = ShareGroupStable
	}
	for _, e := range v.Configs {
		if g.cfg.IsSet(e.Name) {
			v.ConfigsSet = append(v.ConfigsSet, e.Name)
		}
	}
	for _, m := range g.members {
		mv := ShareMemberView{Name: m.name, MemberID: m.id, Epoch: m.epoch, Topics: slices.Clone(m.topics), AckMode: m.ackMode, MaxPoll: m.maxRecords,
			Assignment: slices.Clone(m.assignment), CrashedAt: m.crashedAt}
		for _, d := range m.delivered {
			mv.Holding = append(mv.Holding, ShareHeld{TopicPartition: d.TopicPartition, Offset: d.offset, Acknowledged: d.acked && !d.renew, Renewed: d.renew})
		}
		v.Members = append(v.Members, mv)
	}
	slices.SortFunc(v.Members, func(a, b ShareMemberView) int { return strings.Compare(a.Name, b.Name) })
	for _, tp := range g.partitionKeys() {
		sp := g.partitions[tp]
		pv := SharePartitionView{TopicPartition: tp, StartOffset: sp.start, EndOffset: sp.end(), DeliveryComplete: sp.deliveryComplete}
		if _, p, err := l.partition(tp.Topic, tp.Partition); err == nil {
			pv.HighWatermark = p.highWatermark()
		}
		pv.Lag = max(0, pv.HighWatermark-sp.start-int64(sp.deliveryComplete))
		pv.ReportedStartOffset, pv.ReportedLag = -1, -1
		if sp.reported {
			pv.ReportedStartOffset = sp.reportedStart
			pv.ReportedLag = max(0, pv.HighWatermark-sp.reportedStart-int64(sp.reportedComplete))
		}
		for _, r := range sp.records {
			pv.InFlight = append(pv.InFlight, InFlightView{Offset: r.offset, State: r.state, DeliveryCount: r.deliveries, Member: r.member, LockUntil: r.lockUntil})
		}
		v.Partitions = append(v.Partitions, pv)
	}
	return v, nil
}
