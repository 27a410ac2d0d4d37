package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"plog/core"
)

// maxRecordsShown is how many records per partition StateText lists before
// it says how many more there are.
const maxRecordsShown = 20

// StateText writes the state of an engine the way Kafka's own tools show
// it: the topics' partitions with their log start and end offsets (like
// kafka-get-offsets), the records each retains (like kafka-console-consumer
// with print.key, null for a missing key or value), and one table per group
// like kafka-consumer-groups --describe.
func StateText(l core.ReadOnlyLog) string {
	return Snapshot(l).Text()
}

// Text writes a state as StateText does, for a state that was not read
// from an engine (plogsim kafka reads one from a cluster).
func (st State) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "time %s (%d ms)\n", formatDuration(st.TimeMs), st.TimeMs)
	if len(st.Topics) > 0 {
		b.WriteByte('\n')
		tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
		fmt.Fprintln(tw, "TOPIC\tPARTITION\tLOG-START-OFFSET\tLOG-END-OFFSET\tRECORDS")
		for _, t := range st.Topics {
			for _, p := range t.Partitions {
				fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", t.Name, p.Partition, p.LogStartOffset, p.HighWatermark, len(p.Records))
			}
		}
		tw.Flush()
		b.WriteByte('\n')
		for _, t := range st.Topics {
			for _, p := range t.Partitions {
				fmt.Fprintf(&b, "%s/%d:%s\n", t.Name, p.Partition, recordsText(p.Records))
			}
		}
	}
	writeReplicationText(&b, st)
	writeProducersText(&b, st)
	for _, g := range st.Groups {
		b.WriteByte('\n')
		writeGroupText(&b, g)
	}
	for _, g := range st.ShareGroups {
		b.WriteByte('\n')
		writeShareGroupText(&b, g)
	}
	return b.String()
}

func recordsText(records []RecordState) string {
	var b strings.Builder
	for i, r := range records {
		if i == maxRecordsShown {
			fmt.Fprintf(&b, " … %d more", len(records)-i)
			break
		}
		if r.Control != "" {
			fmt.Fprintf(&b, " %d:%s", r.Offset, r.Control) // a transaction's marker (state_producers.go)
			continue
		}
		fmt.Fprintf(&b, " %d:%s=%s", r.Offset, nullable(r.Key), nullable(r.Value))
	}
	return b.String()
}

// nullable writes a key or value for a line of text: null when absent,
// quoted when it would not read as one word.
func nullable(s *string) string {
	if s == nil {
		return "null"
	}
	return quoteIfNeeded(*s, true)
}

// writeGroupText writes a group like kafka-consumer-groups --describe:
// one row per partition the group reads, "-" where there is no commit or no
// owner.
func writeGroupText(b *strings.Builder, g GroupState) {
	if g.State == core.GroupDead {
		// kafka-consumer-groups --describe of a deleted group
		// (ConsumerGroupCommand of kafka-tools 4.4: a Dead group).
		fmt.Fprintf(b, "group %s: state dead\nError: Consumer group '%s' does not exist.\n", g.Name, g.Name)
		return
	}
	if g.Protocol == core.ProtocolConsumer {
		writeConsumerGroupText(b, g)
		return
	}
	fmt.Fprintf(b, "group %s: state %s, generation %d, strategy %s\n", g.Name, g.State, g.Generation, g.Strategy)
	tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "GROUP\tTOPIC\tPARTITION\tCURRENT-OFFSET\tLOG-END-OFFSET\tLAG\tCONSUMER-ID")
	for _, o := range g.Offsets {
		consumer := o.Owner
		if consumer == "" {
			consumer = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", g.Name, o.Topic, o.Partition, dash(o.Committed), strconv.FormatInt(o.LogEndOffset, 10), dash(o.Lag), consumer)
	}
	tw.Flush()
	for _, m := range g.Members {
		if m.MemberID != "" {
			fmt.Fprintf(b, "member %s: member id %s\n", m.ID, m.MemberID)
		}
		switch {
		case m.Down != "":
			fmt.Fprintf(b, "member %s: down (%s)\n", m.ID, m.Down)
		case len(m.Assignment) == 0:
			fmt.Fprintf(b, "member %s: no partitions\n", m.ID)
		}
		if p := m.EmptyPoll; p != nil {
			fmt.Fprintf(b, "member %s: its poll at %s got nothing, because %s\n", m.ID, formatDuration(p.TimeMs), p.Why)
		}
	}
}

// writeConsumerGroupText writes a consumer group (group.protocol=consumer)
// as Kafka 4's kafka-consumer-groups does: --describe's offsets, then
// --describe --members --verbose's members, each with its member id,
// client.id, epoch and assignment, and the target assignment with its
// epoch (ConsumerGroupCommand of Kafka 4.x's tools).
func writeConsumerGroupText(b *strings.Builder, g GroupState) {
	fmt.Fprintf(b, "group %s: protocol consumer, state %s, group epoch %d, target assignment epoch %d, assignor %s\n",
		g.Name, g.State, deref(g.GroupEpoch), deref(g.AssignmentEpoch), orDash(g.Assignor))
	tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "GROUP\tTOPIC\tPARTITION\tCURRENT-OFFSET\tLOG-END-OFFSET\tLAG\tCONSUMER-ID")
	ids := map[string]string{}
	for _, m := range g.Members {
		ids[m.ID] = m.MemberID
	}
	for _, o := range g.Offsets {
		consumer := "-"
		if o.Owner != "" {
			consumer = ids[o.Owner]
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", g.Name, o.Topic, o.Partition, dash(o.Committed), strconv.FormatInt(o.LogEndOffset, 10), dash(o.Lag), consumer)
	}
	tw.Flush()
	if len(g.Members) == 0 {
		// --describe --members of a group without members
		// (ConsumerGroupCommand.printMembers of kafka-tools 4.4.0).
		fmt.Fprintf(b, "\nConsumer group '%s' has no active members.\n", g.Name)
		return
	}
	b.WriteString("\n")
	if g.State == core.GroupAssigning || g.State == core.GroupReconciling {
		// The tool's warning before the members of a group that is
		// not Stable (ConsumerGroupCommand.shouldPrintMemberState of
		// kafka-tools 4.4.0: Assigning, Reconciling).
		fmt.Fprintf(b, "Warning: Consumer group '%s' is rebalancing.\n", g.Name)
	}
	// The columns of kafka-consumer-groups --describe --members --verbose
	// for a consumer-protocol group (ConsumerGroupCommand.printMembers of
	// kafka-tools 4.4.0), but HOST: the playground's members run on no
	// host. As the tool does, GROUP-INSTANCE-ID is a column only when a
	// member has one (static membership), empty for the others; and a
	// group holding members of both protocols (an online upgrade or
	// downgrade) gets the UPGRADED column: true for a member of the
	// consumer protocol, false for a classic one.
	mixed := slices.ContainsFunc(g.Members, func(m MemberState) bool { return m.Protocol == core.ProtocolClassic }) &&
		slices.ContainsFunc(g.Members, func(m MemberState) bool { return m.Protocol == core.ProtocolConsumer })
	static := slices.ContainsFunc(g.Members, func(m MemberState) bool { return m.Instance != "" })
	tw = tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
	header := "GROUP\tCONSUMER-ID\t"
	if static {
		header += "GROUP-INSTANCE-ID\t"
	}
	header += "CLIENT-ID\t#PARTITIONS\tCURRENT-EPOCH\tCURRENT-ASSIGNMENT\tTARGET-EPOCH\tTARGET-ASSIGNMENT"
	if mixed {
		header += "\tUPGRADED"
	}
	fmt.Fprintln(tw, header)
	for _, m := range g.Members {
		n := 0
		for _, a := range m.Assignment {
			n += len(a.Partitions)
		}
		fmt.Fprintf(tw, "%s\t%s\t", g.Name, m.MemberID)
		if static {
			fmt.Fprintf(tw, "%s\t", m.Instance)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%d\t%s", m.ID, n, deref(m.Epoch), assignmentText(m.Assignment), deref(g.AssignmentEpoch), assignmentText(m.Target))
		if mixed {
			fmt.Fprintf(tw, "\t%t", m.Protocol == core.ProtocolConsumer)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	for _, m := range g.Members {
		switch {
		case m.Down != "":
			fmt.Fprintf(b, "member %s: down (%s)\n", m.ID, m.Down)
		case m.MemberState != core.MemberStable:
			fmt.Fprintf(b, "member %s: %s", m.ID, m.MemberState)
			if len(m.PendingRevoke) > 0 {
				fmt.Fprintf(b, ", revoking %s", assignmentText(m.PendingRevoke))
			}
			if len(m.PendingAssign) > 0 {
				fmt.Fprintf(b, ", waiting for %s to be released", assignmentText(m.PendingAssign))
			}
			b.WriteString("\n")
		}
		if p := m.EmptyPoll; p != nil {
			fmt.Fprintf(b, "member %s: its poll at %s got nothing, because %s\n", m.ID, formatDuration(p.TimeMs), p.Why)
		}
	}
}

// assignmentText writes partitions as the tool's verbose assignment
// columns do, each topic's partitions after its name: orders:0,1;payments:2;
// "-" for none.
func assignmentText(as []AssignmentState) string {
	if len(as) == 0 {
		return "-"
	}
	parts := make([]string, len(as))
	for i, a := range as {
		ps := slices.Sorted(slices.Values(a.Partitions))
		nums := make([]string, len(ps))
		for j, p := range ps {
			nums[j] = strconv.Itoa(p)
		}
		parts[i] = a.Topic + ":" + strings.Join(nums, ",")
	}
	// The tool sorts the topics' strings, not the topics
	// (ConsumerGroupCommand.getAssignmentString of kafka-tools 4.4.0).
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func dash(n *int64) string {
	if n == nil {
		return "-"
	}
	return strconv.FormatInt(*n, 10)
}
