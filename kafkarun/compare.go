package kafkarun

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"
)

// Row is one thing compared: what the playground predicted beside what the
// cluster did.
type Row struct {
	What       string `json:"what"`
	Playground string `json:"playground"`
	Cluster    string `json:"cluster"`
	Match      bool   `json:"match"`
	// Reason says why a difference is expected; a difference without one
	// should not be.
	Reason Reason `json:"reason,omitempty"`
}

// Expected says whether a row is a match or a difference with a reason.
func (row Row) Expected() bool { return row.Match || row.Reason != "" }

// Comparison is the playground's prediction beside the cluster's state.
type Comparison struct {
	Rows []Row `json:"rows"`
	// NotCompared lists what the run did not run, send or compare.
	NotCompared []string `json:"not_compared"`
}

// OK says the cluster did what the playground predicted, but for
// differences with a reason.
func (c Comparison) OK() bool {
	return len(c.Unexpected()) == 0
}

// Unexpected returns the differences that should not be.
func (c Comparison) Unexpected() []Row {
	var out []Row
	for _, row := range c.Rows {
		if !row.Expected() {
			out = append(out, row)
		}
	}
	return out
}

// shortReasons name the reasons in the comparison's table; the full
// reasons follow it.
var shortReasons = map[Reason]string{
	ReasonCrash:                  "crash",
	ReasonStickyBalancer:         "sticky balancer",
	ReasonCooperativePlan:        "cooperative rounds",
	ReasonSplitRevocation:        "late revocation",
	ReasonStaticReturn:           "static return",
	ReasonNoGeneration:           "no generation",
	ReasonFormerTopic:            "former topic",
	ReasonOutsideCommit:          "outside commit",
	ReasonRetention:              "retention",
	ReasonCompaction:             "compaction",
	ReasonWorkload:               "workload",
	ReasonSticky:                 "sticky partitioner",
	ReasonPollOrder:              "poll order",
	ReasonAutoCommit:             "auto-commit",
	ReasonDatetime:               "to-datetime",
	ReasonBrokers:                "broker failures",
	ReasonMetadataRefresh:        "metadata refresh",
	ReasonRefreshHeld:            "held by a refresh",
	ReasonMemberIDs:              "member ids",
	ReasonSubscriptionHeartbeats: "subscription heartbeats",
	ReasonFirstEpoch:             "first epoch",
	ReasonMigrationPolicy:        "migration policy",
	ReasonConfigOnlyGroup:        "config-only group",
	ReasonEmptiedTarget:          "emptied target",
	ReasonEmptiedAssignor:        "emptied assignor",
	ReasonShareInFlight:          "share in flight",
	ReasonShareRenew:             "share renew",
	ReasonShareFetchSize:         "share fetch size",
	ReasonShareAssignor:          "share assignor",
	ReasonShareRotation:          "share rotation",
	ReasonSharePrefetch:          "share prefetch",
	ReasonShareNewPartitions:     "share new partitions",
	ReasonWireFault:              "wire fault",
	ReasonTxnTimeout:             "transaction timeout",
	ReasonOffsetsOnlyTxn:         "offsets-only transaction",
	ReasonEmptyTxn:               "empty transaction",
}

// Text writes the comparison as a table, WHAT PLAYGROUND CLUSTER RESULT,
// then the reasons for the expected differences, what was not compared,
// and a verdict.
func (c Comparison) Text() string {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "WHAT\tPLAYGROUND\tCLUSTER\tRESULT")
	var reasons []Reason
	same, expected, unexpected := 0, 0, 0
	for _, row := range c.Rows {
		result := "same"
		switch {
		case row.Match:
			same++
		case row.Reason != "":
			expected++
			result = "differs, expected: " + shortReasons[row.Reason]
			if !slices.Contains(reasons, row.Reason) {
				reasons = append(reasons, row.Reason)
			}
		default:
			unexpected++
			result = "DIFFERS"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", row.What, row.Playground, row.Cluster, result)
	}
	tw.Flush()
	if len(reasons) > 0 {
		b.WriteString("\nwhy the expected differences differ:\n")
		for _, why := range reasons {
			fmt.Fprintf(&b, "  %s: %s\n", shortReasons[why], why)
		}
	}
	if len(c.NotCompared) > 0 {
		b.WriteString("\nnot run or not compared:\n")
		for _, line := range c.NotCompared {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	fmt.Fprintf(&b, "\n%d same, %d differ as expected, %d differ unexpectedly\n", same, expected, unexpected)
	return b.String()
}

// comparer builds the rows.
type comparer struct {
	marks *marks
	rows  []Row
}

func (c *comparer) row(what, playground, cluster string, why Reason) {
	row := Row{What: what, Playground: playground, Cluster: cluster, Match: playground == cluster}
	if !row.Match {
		row.Reason = why
	}
	c.rows = append(c.rows, row)
}

// compare sets the cluster's state beside the playground's prediction.
func compare(prediction, cluster scenario.State, m *marks) Comparison {
	c := &comparer{marks: m}
	clusterTopics := map[string]scenario.TopicState{}
	for _, t := range cluster.Topics {
		clusterTopics[t.Name] = t
	}
	for _, want := range prediction.Topics {
		c.compareTopic(want, clusterTopics[want.Name])
	}
	clusterGroups := map[string]scenario.GroupState{}
	for _, g := range cluster.Groups {
		clusterGroups[g.Name] = g
	}
	for _, want := range prediction.Groups {
		c.compareGroup(want, clusterGroups[want.Name])
	}
	c.compareDeletions()
	notCompared := []string{
		"record timestamps and the clock: the cluster's are wall-clock milliseconds since the run began",
		"topic configs: shown as the broker reports them, not compared",
		"lag_ms and lag alerts: time lag follows each side's clock; alerts are the playground's own",
		"redeliveries and lost records: the cluster keeps no delivery log",
	}
	if m.advancedMs > 0 {
		notCompared = append(notCompared, fmt.Sprintf("advance: wall-clock time is not simulated on the cluster (the playground advanced its clock by %s)", units.Duration(m.advancedMs)))
	}
	return Comparison{Rows: c.rows, NotCompared: append(notCompared, m.notes...)}
}

func (c *comparer) compareTopic(want, got scenario.TopicState) {
	if got.Name == "" {
		c.row("topic "+want.Name, "exists", "missing", "")
		return
	}
	c.row(want.Name+" partitions", strconv.Itoa(len(want.Partitions)), strconv.Itoa(len(got.Partitions)), "")
	for i := range max(len(want.Partitions), len(got.Partitions)) {
		t := tp{want.Name, i}
		why := c.marks.partitionReason(t)
		var w, g scenario.PartitionState
		wOK, gOK := i < len(want.Partitions), i < len(got.Partitions)
		if wOK {
			w = want.Partitions[i]
		}
		if gOK {
			g = got.Partitions[i]
		}
		if !wOK || !gOK {
			continue // the partition count row already differs
		}
		c.row(t.String()+" log start", itoa(w.LogStartOffset), itoa(g.LogStartOffset), why)
		c.row(t.String()+" high watermark", itoa(w.HighWatermark), itoa(g.HighWatermark), why)
		pw, pg := recordsDigest(w.Records, g.Records)
		c.row(t.String()+" records", pw, pg, why)
	}
	if c.marks.sticky[want.Name] && len(want.Partitions) == len(got.Partitions) {
		c.compareStickyTopic(want, got)
	}
	c.comparePlacement(want.Name)
}

// compareStickyTopic compares what does not depend on where a sticky
// partitioner put keyless records: the topic's records as a whole, and
// each partition's keyed records in their order.
func (c *comparer) compareStickyTopic(want, got scenario.TopicState) {
	why := c.marks.topicReason(want.Name, len(want.Partitions))
	var all [2][]scenario.RecordState
	for i, t := range []scenario.TopicState{want, got} {
		for _, p := range t.Partitions {
			all[i] = append(all[i], withoutOffsets(p.Records, false)...)
		}
		slices.SortFunc(all[i], func(a, b scenario.RecordState) int {
			return strings.Compare(nullableText(a.Key)+"="+nullableText(a.Value), nullableText(b.Key)+"="+nullableText(b.Value))
		})
	}
	pw, pg := recordsDigest(all[0], all[1])
	c.row(want.Name+" all records", pw, pg, why)
	for i := range want.Partitions {
		pw, pg := recordsDigest(withoutOffsets(want.Partitions[i].Records, true), withoutOffsets(got.Partitions[i].Records, true))
		c.row(fmt.Sprintf("%s/%d keyed records", want.Name, i), pw, pg, why)
	}
}

// withoutOffsets returns records with their offsets zeroed, so that
// recordsDigest compares keys and values only; keyed keeps only the
// records with a key.
func withoutOffsets(records []scenario.RecordState, keyed bool) []scenario.RecordState {
	var out []scenario.RecordState
	for _, r := range records {
		if keyed && r.Key == nil {
			continue
		}
		r.Offset = 0
		out = append(out, r)
	}
	return out
}

// comparePlacement checks the cluster's producer against its
// partitioner's rule, one row per partitioner a topic's keyless records
// went through: the rule does not say which partition, so the row checks
// the rule, not the partition the playground chose.
func (c *comparer) comparePlacement(topic string) {
	var order []string
	broken := map[string]string{}
	counter := 0 // the round-robin records so far
	for _, s := range c.marks.sends[topic] {
		if !slices.Contains(order, s.partitioner) {
			order = append(order, s.partitioner)
		}
		if broken[s.partitioner] != "" {
			continue
		}
		switch {
		case s.partitioner == core.PartitionerRoundRobin:
			for i, p := range s.landed {
				if p != counter%s.partitions {
					broken[s.partitioner] = fmt.Sprintf("line %d: record %d on partition %d, the topic's round-robin record %d of %d partitions", s.line, i+1, p, counter, s.partitions)
					break
				}
				counter++
			}
		case s.partitioner == core.PartitionerSticky || s.bytes+recordOverhead*len(s.landed) < batchSize:
			// The whole command is one batch, and KIP-794's partitioner
			// moves only after batch.size bytes.
			for i, p := range s.landed {
				if p != s.landed[0] {
					broken[s.partitioner] = fmt.Sprintf("line %d: record %d on partition %d, record 1 on %d", s.line, i+1, p, s.landed[0])
					break
				}
			}
		}
	}
	for _, partitioner := range order {
		rule := placementRule(partitioner)
		got := rule
		if broken[partitioner] != "" {
			got = broken[partitioner]
		}
		c.row(topic+" keyless placement", rule, got, "")
	}
}

// recordOverhead is more than a record adds to a batch beyond its key and
// value (Kafka's record format v2: attributes, varint deltas and lengths,
// headers count), so that a command under batch.size by this count is
// surely under it on the wire.
const recordOverhead = 64

// placementRule says in words the rule a partitioner follows for keyless
// records (see scriptPartitioner).
func placementRule(partitioner string) string {
	switch partitioner {
	case core.PartitionerRoundRobin:
		return "round-robin: the topic's nth on partition n modulo the count"
	case core.PartitionerSticky:
		return "sticky: those sent together (one produce) share a partition"
	}
	return "uniform sticky (KIP-794): those sent together share a partition until 16 KB went to it"
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// recordsDigest describes two lists of records for the table: their count
// when they are the same, else their counts and the first record where
// they part.
func recordsDigest(a, b []scenario.RecordState) (string, string) {
	i := 0
	for i < len(a) && i < len(b) && sameRecord(a[i], b[i]) {
		i++
	}
	if i == len(a) && i == len(b) {
		n := countRecords(len(a))
		return n, n
	}
	return recordsFrom(a, i), recordsFrom(b, i)
}

func countRecords(n int) string {
	if n == 1 {
		return "1 record"
	}
	return strconv.Itoa(n) + " records"
}

func sameRecord(a, b scenario.RecordState) bool {
	return a.Offset == b.Offset && sameNullable(a.Key, b.Key) && sameNullable(a.Value, b.Value)
}

func sameNullable(a, b *string) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

func recordsFrom(records []scenario.RecordState, i int) string {
	s := countRecords(len(records))
	if i < len(records) {
		r := records[i]
		s += fmt.Sprintf(", #%d at %d: %s=%s", i, r.Offset, nullableText(r.Key), nullableText(r.Value))
	}
	return s
}

func nullableText(s *string) string {
	if s == nil {
		return "null"
	}
	return strconv.Quote(*s)
}

func (c *comparer) compareGroup(want, got scenario.GroupState) {
	why := c.marks.groups[want.Name]
	c.row(want.Name+" state", want.State, orNone(got.State), why)
	if want.Strategy != "" && got.Strategy != "" {
		c.row(want.Name+" strategy", want.Strategy, got.Strategy, "")
	}
	if got.Generation < 0 {
		c.row(want.Name+" generation", strconv.Itoa(want.Generation), "unknown", ReasonNoGeneration)
	} else {
		genWhy := why
		if genWhy == "" {
			genWhy = c.marks.generations[want.Name]
		}
		if extra := got.Generation - want.Generation; genWhy == "" && extra > 0 && extra <= c.marks.formerTopicGrew[want.Name] {
			genWhy = ReasonFormerTopic
		}
		if want.Protocol == core.ProtocolConsumer {
			genWhy = epochReason(genWhy, want.Generation, got.Generation)
		}
		c.row(want.Name+" generation", strconv.Itoa(want.Generation), strconv.Itoa(got.Generation), genWhy)
	}
	c.row(want.Name+" members", membersText(want.Members), membersText(got.Members), why)
	gotMembers := map[string]scenario.MemberState{}
	for _, m := range got.Members {
		gotMembers[m.ID] = m
	}
	for _, m := range want.Members {
		if g, ok := gotMembers[m.ID]; ok {
			ownsWhy := why
			if ownsWhy == "" {
				ownsWhy = c.marks.owners[want.Name]
			}
			if ownsWhy == "" && want.Protocol == core.ProtocolConsumer {
				ownsWhy = ReasonMemberIDs
			}
			c.row(want.Name+" "+m.ID+" owns", assignmentText(m.Assignment), assignmentText(g.Assignment), ownsWhy)
			if m.Protocol != "" && g.Protocol != "" {
				// Each member's protocol in a consumer group, classic
				// ones in an online upgrade (ConsumerGroupDescribe's
				// member type, where the cluster gives it).
				c.row(want.Name+" "+m.ID+" protocol", m.Protocol, g.Protocol, why)
			}
			if m.Epoch != nil && g.Epoch != nil {
				epochWhy := why
				if epochWhy == "" {
					epochWhy = c.marks.generations[want.Name]
				}
				c.row(want.Name+" "+m.ID+" epoch", strconv.Itoa(*m.Epoch), strconv.Itoa(*g.Epoch), epochReason(epochWhy, *m.Epoch, *g.Epoch))
			}
		}
	}
	if want.Protocol != "" || got.Protocol != "" {
		c.markEmptiedTarget(want, got)
		c.compareConsumerGroup(want, got, why)
	}
	gotOffsets := map[tp]scenario.OffsetState{}
	for _, o := range got.Offsets {
		gotOffsets[tp{o.Topic, o.Partition}] = o
	}
	totalWhy := why
	for _, o := range want.Offsets {
		t := tp{o.Topic, o.Partition}
		g := gotOffsets[t]
		offsetWhy := c.marks.offsetReason(want.Name, t)
		if totalWhy == "" {
			totalWhy = offsetWhy
		}
		c.row(want.Name+" "+t.String()+" committed", dash(o.Committed), dash(g.Committed), offsetWhy)
		c.row(want.Name+" "+t.String()+" lag", dash(o.Lag), dash(g.Lag), offsetWhy)
	}
	c.row(want.Name+" total lag", itoa(want.TotalLag), itoa(got.TotalLag), totalWhy)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func dash(n *int64) string {
	if n == nil {
		return "-"
	}
	return itoa(*n)
}

func membersText(members []scenario.MemberState) string {
	if len(members) == 0 {
		return "none"
	}
	names := make([]string, len(members))
	for i, m := range members {
		names[i] = m.ID
		if m.Down != "" {
			names[i] += " (down)"
		}
	}
	return strings.Join(names, " ")
}

// assignmentText writes an assignment as orders/0,1 audit/2.
func assignmentText(a []scenario.AssignmentState) string {
	if len(a) == 0 {
		return "nothing"
	}
	parts := make([]string, len(a))
	for i, t := range a {
		nums := make([]string, len(t.Partitions))
		for j, p := range t.Partitions {
			nums[j] = strconv.Itoa(p)
		}
		parts[i] = t.Topic + "/" + strings.Join(nums, ",")
	}
	return strings.Join(parts, " ")
}
