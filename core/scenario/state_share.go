package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"plog/core"
)

// ShareGroupState is one share group (KIP-932) in the snapshot: what
// kafka-share-groups --describe shows (ShareGroupCommand of kafka-tools
// 4.4.0: the state, the members and the start offset and lag of each
// share-partition), and each share-partition's in-flight records as the
// broker's SharePartition keeps them.
type ShareGroupState struct {
	Name            string `json:"name"`
	State           string `json:"state"` // Empty or Stable
	GroupEpoch      int    `json:"group_epoch"`
	AssignmentEpoch int    `json:"assignment_epoch"`
	// Configs holds the group's share configs in canonical text, by
	// name; ConfigsSet names those the group sets (the others are the
	// brokers' defaults).
	Configs    map[string]string     `json:"configs"`
	ConfigsSet []string              `json:"configs_set,omitempty"`
	Members    []ShareMemberState    `json:"members"`
	Partitions []SharePartitionState `json:"partitions"`
}

// ShareMemberState is one member of a share group.
type ShareMemberState struct {
	ID             string            `json:"id"` // its client.id
	MemberID       string            `json:"member_id"`
	Epoch          int               `json:"epoch"`
	Topics         []string          `json:"topics"`
	AckMode        string            `json:"acknowledgement_mode"`
	MaxPollRecords int               `json:"max_poll_records"`
	Assignment     []AssignmentState `json:"assignment"`
	// CrashedAtMs is when it crashed; the coordinator removes it at
	// RemovedAtMs (share.session.timeout.ms later).
	CrashedAtMs *int64 `json:"crashed_at_ms,omitempty"`
	RemovedAtMs *int64 `json:"removed_at_ms,omitempty"`
	// Holding are the records its last poll returned that it still
	// holds in its client: not acknowledged yet (explicit mode), to be
	// accepted by its next poll (implicit mode), or renewed.
	Holding []ShareHeldState `json:"holding,omitempty"`
}

// ShareHeldState is a record a member's last poll returned.
type ShareHeldState struct {
	Topic        string `json:"topic"`
	Partition    int    `json:"partition"`
	Offset       int64  `json:"offset"`
	Acknowledged bool   `json:"acknowledged,omitempty"`
	Renewed      bool   `json:"renewed,omitempty"`
}

// SharePartitionState is one share-partition: its start offset (SPSO),
// its end offset (SPEO, the last in-flight offset as SharePartition keeps
// it, or the start offset when none is in flight), the high watermark,
// share lag (KIP-1226: the high watermark less the start offset less the
// in-flight records acknowledged or archived) and the in-flight records.
type SharePartitionState struct {
	Topic            string `json:"topic"`
	Partition        int    `json:"partition"`
	StartOffset      int64  `json:"start_offset"`
	EndOffset        int64  `json:"end_offset"`
	HighWatermark    int64  `json:"high_watermark"`
	DeliveryComplete int    `json:"delivery_complete"`
	Lag              int64  `json:"lag"`
	// ReportedStartOffset and ReportedLag are what Kafka's admin API and
	// kafka-share-groups --describe report: the share coordinator's last
	// persisted start offset, one write behind, and the lag from it; -1
	// before the first write (core.SharePartitionView).
	ReportedStartOffset int64           `json:"reported_start_offset"`
	ReportedLag         int64           `json:"reported_lag"`
	InFlight            []InFlightState `json:"in_flight"`
}

// InFlightState is one in-flight record of a share-partition.
type InFlightState struct {
	Offset        int64  `json:"offset"`
	State         string `json:"state"` // Available, Acquired, Acknowledged or Archived
	DeliveryCount int    `json:"delivery_count"`
	// Owner holds it and LockUntilMs is when its lock expires, while it
	// is Acquired.
	Owner       string `json:"owner,omitempty"`
	LockUntilMs *int64 `json:"lock_until_ms,omitempty"`
}

// shareGroupStates reads every share group of an engine.
func shareGroupStates(l core.ReadOnlyLog) []ShareGroupState {
	var out []ShareGroupState
	for _, name := range l.ShareGroupNames() {
		v, err := l.ShareGroup(name)
		if err != nil {
			continue
		}
		g := ShareGroupState{Name: v.Name, State: v.State, GroupEpoch: v.GroupEpoch, AssignmentEpoch: v.AssignmentEpoch,
			Configs: map[string]string{}, ConfigsSet: v.ConfigsSet, Members: []ShareMemberState{}, Partitions: []SharePartitionState{}}
		timeout := int64(0)
		for _, e := range v.Configs {
			g.Configs[e.Name] = e.Value
		}
		if d, ok := core.LookupShareConfig(core.OnShareGroup, "share.session.timeout.ms"); ok {
			timeout, _ = core.ParseDuration(g.Configs[d.Name])
		}
		for _, m := range v.Members {
			ms := ShareMemberState{ID: m.Name, MemberID: m.MemberID, Epoch: m.Epoch, Topics: m.Topics, AckMode: m.AckMode, MaxPollRecords: m.MaxPoll,
				Assignment: assignmentStates(m.Assignment)}
			if m.CrashedAt >= 0 {
				at, removed := m.CrashedAt, m.CrashedAt+timeout
				ms.CrashedAtMs, ms.RemovedAtMs = &at, &removed
			}
			for _, h := range m.Holding {
				ms.Holding = append(ms.Holding, ShareHeldState{Topic: h.Topic, Partition: h.Partition, Offset: h.Offset, Acknowledged: h.Acknowledged, Renewed: h.Renewed})
			}
			g.Members = append(g.Members, ms)
		}
		for _, p := range v.Partitions {
			ps := SharePartitionState{Topic: p.Topic, Partition: p.Partition, StartOffset: p.StartOffset, EndOffset: p.EndOffset,
				HighWatermark: p.HighWatermark, DeliveryComplete: p.DeliveryComplete, Lag: p.Lag,
				ReportedStartOffset: p.ReportedStartOffset, ReportedLag: p.ReportedLag, InFlight: []InFlightState{}}
			for _, r := range p.InFlight {
				rs := InFlightState{Offset: r.Offset, State: r.State, DeliveryCount: r.DeliveryCount, Owner: r.Member}
				if r.State == core.RecordAcquired {
					until := r.LockUntil
					rs.LockUntilMs = &until
				}
				ps.InFlight = append(ps.InFlight, rs)
			}
			g.Partitions = append(g.Partitions, ps)
		}
		out = append(out, g)
	}
	return out
}

// writeShareGroupText writes a share group as kafka-share-groups does
// (ShareGroupCommand.ShareGroupService of kafka-tools 4.4.0): a line with
// what --describe --state --verbose shows (the state, the group and
// assignment epochs, the number of members; but the coordinator, the
// playground's groups having none), --describe's offsets (printOffsets:
// GROUP TOPIC PARTITION START-OFFSET LAG, "Share group 'G' has no offset
// information." before any is read), --describe --members --verbose's
// members (printMembers: by member id, with MEMBER-EPOCH, but HOST, the
// playground's members running on no host; "Share group 'G' has no
// active members." for none, as maybePrintEmptyGroupState says it), then
// each share-partition's in-flight records, which the tool does not
// show: the broker keeps them.
func writeShareGroupText(b *strings.Builder, g ShareGroupState) {
	fmt.Fprintf(b, "share group %s: state %s, group epoch %d, assignment epoch %d, %d members\n", g.Name, g.State, g.GroupEpoch, g.AssignmentEpoch, len(g.Members))
	if len(g.ConfigsSet) > 0 {
		var set []string
		for _, name := range g.ConfigsSet {
			set = append(set, name+"="+g.Configs[name])
		}
		fmt.Fprintf(b, "configs: %s\n", strings.Join(set, " "))
	}
	if len(g.Partitions) == 0 {
		fmt.Fprintf(b, "Share group '%s' has no offset information.\n", g.Name)
	} else {
		tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "GROUP\tTOPIC\tPARTITION\tSTART-OFFSET\tLAG")
		for _, p := range g.Partitions {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", g.Name, p.Topic, p.Partition, reported(p.ReportedStartOffset), reported(p.ReportedLag))
		}
		tw.Flush()
	}
	if len(g.Members) == 0 {
		fmt.Fprintf(b, "\nShare group '%s' has no active members.\n", g.Name)
	} else {
		b.WriteString("\n")
		// ShareGroupService.printMembers sorts the members by their
		// member ids (Comparator.comparing(ShareMemberDescription::consumerId)).
		members := slices.Clone(g.Members)
		slices.SortFunc(members, func(a, b ShareMemberState) int { return strings.Compare(a.MemberID, b.MemberID) })
		tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "GROUP\tCONSUMER-ID\tCLIENT-ID\t#PARTITIONS\tMEMBER-EPOCH\tASSIGNMENT")
		for _, m := range members {
			n := 0
			for _, a := range m.Assignment {
				n += len(a.Partitions)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\n", g.Name, m.MemberID, m.ID, n, m.Epoch, assignmentText(m.Assignment))
		}
		tw.Flush()
		for _, m := range g.Members {
			if m.CrashedAtMs != nil {
				fmt.Fprintf(b, "member %s: crashed at %s; removed when its session times out at %s\n", m.ID, formatDuration(*m.CrashedAtMs), formatDuration(*m.RemovedAtMs))
			}
		}
	}
	for _, p := range g.Partitions {
		fmt.Fprintf(b, "%s/%d: SPSO %d, SPEO %d, high watermark %d, in flight:%s\n", p.Topic, p.Partition, p.StartOffset, p.EndOffset, p.HighWatermark, inFlightText(p.InFlight))
	}
}

// reported writes a reported offset or lag, "-" for none, as
// ShareGroupService.printOffsets writes an absent one.
func reported(n int64) string {
	if n < 0 {
		return "-"
	}
	return strconv.FormatInt(n, 10)
}

// inFlightText writes in-flight records: offset:state, with the delivery
// count (×N), the owner and its lock's deadline while acquired; " none"
// for none.
func inFlightText(records []InFlightState) string {
	if len(records) == 0 {
		return " none"
	}
	var b strings.Builder
	for i, r := range records {
		if i == maxRecordsShown {
			fmt.Fprintf(&b, " … %d more", len(records)-i)
			break
		}
		fmt.Fprintf(&b, " %d:%s×%d", r.Offset, r.State, r.DeliveryCount)
		if r.LockUntilMs != nil {
			fmt.Fprintf(&b, "(%s until %s)", r.Owner, formatDuration(*r.LockUntilMs))
		}
	}
	return b.String()
}

// writeShareEvent writes the fields of a share group's event, after its
// time and kind.
func writeShareEvent(b *strings.Builder, e core.Event, member, tp string) {
	switch e.Kind {
	case core.EventShareAssignment:
		fmt.Fprintf(b, " %s epoch=%d members=%d", e.Group, e.Generation, e.Count)
	case core.EventSharePolled:
		fmt.Fprintf(b, " %s records=%d", member, e.Count)
	case core.EventShareAckFailed:
		fmt.Fprintf(b, " %s %s records=%d", member, tp, e.Count)
	case core.EventShareMemberJoined, core.EventShareMemberLeft, core.EventShareMemberCrashed:
		b.WriteString(" " + member)
	default: // a record's: acquired, acknowledged, released, archived, renewed
		fmt.Fprintf(b, " %s %s offset=%d delivery-count=%d", member, tp, e.Offset, e.Count)
	}
}
