package kafkarun

import (
	"fmt"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
	"plog/core/scenario"
)

// Reason is why a difference between the playground and the cluster is
// expected. The comparison gives each difference the reason marked on what
// differs; a difference with no reason is one that should not be.
type Reason string

// The reasons. Each says what the script cannot control on a cluster, or
// what the run does not do there.
const (
	ReasonStickyBalancer Reason = "the cluster's members run franz-go's sticky balancers, not Kafka's StickyAssignor and " +
		"CooperativeStickyAssignor, which the playground follows: franz-go's eager one builds each assignment anew, and " +
		"where several are as balanced and as sticky each may pick another (conformance/assign_oracle_test.go checks the playground's against kafka-clients)"
	ReasonCooperativePlan Reason = "franz-go's cooperative-sticky balancer gave the group's members other partitions than Kafka's " +
		"CooperativeStickyAssignor, which the playground follows, at a rebalance both sides let end: a cooperative rebalance " +
		"takes a second round, one more generation, when its plan takes partitions from their owners, so the two count rounds apart from there"
	// ReasonSplitRevocation: the cluster's cooperative rebalance took a
	// round more than its plan, as seen by its members giving up
	// partitions in two generations (groups.go, settle).
	ReasonSplitRevocation Reason = "a member of the cluster's cooperative group gave up its partitions a generation late: the leader, done revoking, " +
		"rejoined before that member's SyncGroup reached the coordinator, which then answered it REBALANCE_IN_PROGRESS " +
		"(Kafka 4.4 GroupMetadataManager: a JoinGroup from the leader of a Stable group starts a rebalance, and " +
		"classicGroupSyncToClassicGroup refuses a sync while one is preparing), so it revoked in the next round and the group took one more; " +
		"the playground's members each revoke in the round that planned it"
	ReasonFormerTopic Reason = "new partitions of a topic the group's members read no longer: franz-go's leader keeps " +
		"the partition counts of the topics it balanced and rejoins when one changes, one more generation for each; " +
		"Kafka's ConsumerCoordinator (4.x) watches the group's current subscription only, as the playground does"
	ReasonOutsideCommit Reason = "Kafka takes an offset commit from outside a group only when the group is Empty, and refuses it " +
		"(UNKNOWN_MEMBER_ID) while static members that left are kept until their sessions end (Kafka 4.x ClassicGroup.validateOffsetCommit); " +
		"the playground, under these rules, took it"
	ReasonStaticReturn Reason = "a cooperative-sticky static member that comes back is a new client, which joins owning nothing: " +
		"the broker sees its subscription changed and rebalances, one more generation (Kafka 4.4, classic group); " +
		"the playground gives it its partitions back without a rebalance"
	ReasonNoGeneration Reason = "the broker keeps no __consumer_offsets to read the group coordinator's generation from " +
		"(a fake broker); what a member last saw is not the broker's word"
	ReasonCrash Reason = "a crashed member's client closes and leaves the group at once; " +
		"the playground, like Kafka after a real crash, waits for session.timeout.ms"
	ReasonRetention Reason = "the broker deletes segments on its own schedule and wall-clock time, " +
		"not the playground's virtual clock"
	ReasonCompaction Reason = "the broker's cleaner runs on its own schedule, over its own segments"
	ReasonWorkload   Reason = "workloads (producer, consumer) are not run on a cluster"
	// ReasonMetadataRefresh: from rules 4 the playground's group sees new
	// partitions at its leader's metadata refresh (core/group_timing.go).
	ReasonMetadataRefresh Reason = "new partitions reach the playground's group at its leader's metadata refresh, metadata.max.age.ms " +
		"of virtual time after its join; the run makes the cluster's clients refresh at once, and franz-go's leader rejoins then"
	// ReasonRefreshHeld: the cluster's group rebalances for new partitions
	// its clients saw at once (ReasonMetadataRefresh), and that rebalance
	// waits for static members that left (groups.go's heldByGoneStatic).
	ReasonRefreshHeld Reason = "the cluster's clients saw new partitions at once and franz-go's leader rejoined, while the playground's group " +
		"sees them at its leader's metadata refresh (metadata.max.age.ms of virtual time); that rebalance waits for static members that left, " +
		"which send no LeaveGroup, until their sessions end (Kafka 4.x classic group), so the cluster's group is not stable until then and " +
		"the commands that need it settled were not run there"
	ReasonSticky Reason = "a sticky partitioner sends keyless records to a partition it picks at random, " +
		"on each side its own; the rows of the topic's records as a whole, of its keyed records and of the partitioner's rule are compared instead"
	ReasonPollOrder  Reason = "which partitions a poll limited by max reads first is the client's fetch order"
	ReasonAutoCommit Reason = "auto-commit follows the wall clock on a cluster, the virtual clock in the playground"
	ReasonDatetime   Reason = "reset to-datetime is in virtual time, which the cluster's record timestamps do not follow"
	ReasonBrokers    Reason = "broker failures (crash, isolate, slow) are not run on a cluster: " +
		"what the playground's replicas lost, refused or held back below the high watermark, the cluster keeps"
)

// marks records, while the script runs, what may differ and why, and what
// was not run or not sent.
type marks struct {
	topics     map[string]Reason
	partitions map[tp]Reason
	// groups explains a group's every row: state, members, assignments,
	// generation and offsets; offsets a group's committed offsets and
	// lag alone; polled the offsets and lag of one partition a poll read.
	groups  map[string]Reason
	offsets map[string]Reason
	// owners explains who owns what in a group, and so its offsets;
	// generations a group's generation; targets a consumer group's target
	// assignment epoch alone.
	owners, generations, targets map[string]Reason
	// subscribed holds, per group, every topic its members have read;
	// formerTopicGrew counts, per group, the partitions commands on one
	// of them that no member reads any more (ReasonFormerTopic), the most
	// generations the cluster may have more.
	subscribed      map[string]map[string]bool
	formerTopicGrew map[string]int
	polled          map[groupPartition]Reason
	// refused explains the offsets of a partition a commit from outside
	// the group was refused on.
	refused    map[groupPartition]Reason
	notes      []string
	advancedMs int64
	// deletions are the script's delete-group commands and the
	// cluster's answers (delete_group.go).
	deletions []groupDeletion
	// brokerFailures is set once the script fails a broker: from then on
	// any topic's log may differ.
	brokerFailures bool
	// sends lists, per topic, where the producer's partitioner put the
	// keyless records of each produce command, in order.
	sends map[string][]keylessSend
	// sticky holds the topics with keyless records a sticky partitioner
	// placed; stickyTruncated those of them a truncate then cut, at an
	// offset that holds other records on each side.
	sticky, stickyTruncated map[string]bool
	// rules is the scenario's rules version (core/rules.go), set before
	// the comparison: a reason for a rule of Kafka's that the playground
	// follows from a version on is given only to scenarios under older
	// rules.
	rules int
}

// keylessSend is one produce command's keyless records on the cluster.
type keylessSend struct {
	line        int
	partitioner string // the topic's partitioner config then
	partitions  int    // the topic's partition count then
	landed      []int  // each record's partition, in the order sent
	bytes       int    // the records' keys and values
}

// keyless records where the cluster's producer put a command's keyless
// records.
func (m *marks) keyless(line int, topic, partitioner string, partitions int, records []*kgo.Record) {
	s := keylessSend{line: line, partitioner: partitioner, partitions: partitions}
	for _, rec := range records {
		s.landed = append(s.landed, int(rec.Partition))
		s.bytes += len(rec.Key) + len(rec.Value)
	}
	m.sends[topic] = append(m.sends[topic], s)
}

func newMarks() marks {
	return marks{topics: map[string]Reason{}, partitions: map[tp]Reason{}, groups: map[string]Reason{},
		offsets: map[string]Reason{}, polled: map[groupPartition]Reason{}, refused: map[groupPartition]Reason{}, owners: map[string]Reason{},
		generations: map[string]Reason{}, targets: map[string]Reason{}, subscribed: map[string]map[string]bool{}, formerTopicGrew: map[string]int{},
		sends: map[string][]keylessSend{}, sticky: map[string]bool{}, stickyTruncated: map[string]bool{}}
}

// note adds a line to what the comparison reports as not run or not
// compared, once.
func (m *marks) note(line string) {
	if !slices.Contains(m.notes, line) {
		m.notes = append(m.notes, line)
	}
}

// The first reason marked on a thing stays: it is where the two sides
// parted.
//
// A sticky partitioner's reason gives way to any later one: the sticky
// topic's own rows (compareStickyTopic) take the topic's other reason, and
// a workload's records, say, differ there too.
func (m *marks) topic(name string, why Reason) {
	if old, ok := m.topics[name]; !ok || old == ReasonSticky && why != ReasonSticky {
		m.topics[name] = why
	}
}

func (m *marks) partition(t tp, why Reason) {
	if _, ok := m.partitions[t]; !ok {
		m.partitions[t] = why
	}
}

func (m *marks) group(name string, why Reason) {
	if _, ok := m.groups[name]; !ok {
		m.groups[name] = why
	}
}

func (m *marks) offset(group string, why Reason) {
	if _, ok := m.offsets[group]; !ok {
		m.offsets[group] = why
	}
}

// groupPartition is a group's offset on a partition.
type groupPartition struct {
	group string
	tp
}

// partitionReason is why a partition's log may differ, "" if it should not.
func (m *marks) partitionReason(t tp) Reason {
	if why, ok := m.partitions[t]; ok {
		return why
	}
	if why, ok := m.topics[t.topic]; ok {
		return why
	}
	if m.brokerFailures {
		return ReasonBrokers
	}
	return ""
}

// offsetReason is why a group's offset on a partition may differ.
func (m *marks) offsetReason(group string, t tp) Reason {
	if why, ok := m.groups[group]; ok {
		return why
	}
	if why, ok := m.polled[groupPartition{group, t}]; ok {
		return why
	}
	if why, ok := m.refused[groupPartition{group, t}]; ok {
		return why
	}
	if why, ok := m.offsets[group]; ok {
		return why
	}
	return m.partitionReason(t)
}

// markAfter records what a command the playground applied means for the
// comparison, from the command and the events it caused.
func (r *runner) markAfter(c scenario.Command, events []core.Event) error {
	r.markProducerEvents(c, events)
	for _, e := range events {
		switch e.Kind {
		case core.EventSegmentDeleted:
			r.marks.partition(tp{e.Topic, e.Partition}, ReasonRetention)
		case core.EventCompacted:
			r.marks.partition(tp{e.Topic, e.Partition}, ReasonCompaction)
		}
	}
	switch c.Name {
	case scenario.CmdAdvance:
		ms, err := c.DurationAt(0)
		if err != nil {
			return err
		}
		r.marks.advancedMs += ms
	case scenario.CmdBroker:
		r.marks.brokerFailures = true
		r.marks.note(fmt.Sprintf("line %d: %s: not run; the cluster's brokers stay up", c.Line, c))
	case scenario.CmdBrokers:
		r.marks.note(fmt.Sprintf("line %d: %s: not run; the cluster has the brokers it has", c.Line, c))
	case scenario.CmdCompact:
		r.marks.note("compact " + c.Positional(0) + ": not run; the broker's cleaner compacts on its own schedule")
	case scenario.CmdProducer:
		r.marks.topic(c.Positional(1), ReasonWorkload)
		r.marks.note(fmt.Sprintf("producer %s: not run on the cluster", c.Positional(0)))
	case scenario.CmdConsumer:
		if r.isShareGroup(c.Positional(0)) {
			// A share group's rows are explained by its run (share.go).
			if g := r.shareGroup(c.Positional(0)); g.reason == "" {
				g.reason = ReasonWorkload
			}
		} else {
			r.marks.group(c.Positional(0), ReasonWorkload)
		}
		r.marks.note(fmt.Sprintf("consumer %s %s: not run on the cluster", c.Positional(0), c.Positional(1)))
	case scenario.CmdCrash:
		r.marks.group(c.Positional(0), ReasonCrash)
	case scenario.CmdPartitions:
		r.markFormerTopic(c.Positional(0))
		for _, name := range r.groupsReading(c.Positional(0)) {
			if v, err := r.session.Log().Group(name); err == nil && v.MetadataRefreshAt > 0 {
				if _, ok := r.marks.generations[name]; !ok {
					r.marks.generations[name] = ReasonMetadataRefresh
				}
				if _, ok := r.marks.owners[name]; !ok {
					r.marks.owners[name] = ReasonMetadataRefresh
				}
				r.marks.offset(name, ReasonMetadataRefresh)
			}
		}
	case scenario.CmdJoin:
		v, err := r.session.Log().Group(c.Positional(0))
		if err != nil {
			break
		}
		if v.Config.AutoCommit {
			// On by default under rules 3 (Kafka's enable.auto.commit).
			r.marks.offset(v.Name, ReasonAutoCommit)
		}
		if r.marks.subscribed[v.Name] == nil {
			r.marks.subscribed[v.Name] = map[string]bool{}
		}
		for _, m := range v.Members {
			for _, t := range m.Topics {
				r.marks.subscribed[v.Name][t] = true
			}
		}
		for _, e := range events {
			if v.Strategy == core.StrategyCooperativeSticky && e.Kind == core.EventMemberJoined && e.Cause == core.CauseStaticReturn {
				if _, ok := r.marks.generations[v.Name]; !ok {
					r.marks.generations[v.Name] = ReasonStaticReturn
				}
			}
		}
		if v.Strategy == core.StrategySticky || v.Strategy == core.StrategyCooperativeSticky {
			// The balancer is the client's (groups.go's balancer):
			// franz-go's, not Kafka's.
			if _, ok := r.marks.owners[v.Name]; !ok {
				r.marks.owners[v.Name] = ReasonStickyBalancer
			}
			r.marks.offset(v.Name, ReasonStickyBalancer)
		}
	case scenario.CmdProduce:
		keyed, explicit := c.Has("key"), c.Has("partition")
		// Keyless records a sticky partitioner placed (Kafka's built-in
		// one under rules 2) went where its random choice took them.
		if cfg, err := r.session.Log().TopicConfig(c.Positional(0)); err == nil && !keyed && !explicit {
			if partitioner, _ := keylessPartitioner(r.session.Rules(), c, cfg); partitioner != core.PartitionerRoundRobin {
				r.marks.topic(c.Positional(0), ReasonSticky)
				r.marks.sticky[c.Positional(0)] = true
			}
		}
	case scenario.CmdTruncate:
		topic, _, _ := strings.Cut(c.Positional(0), "/")
		if r.marks.sticky[topic] {
			r.marks.stickyTruncated[topic] = true
		}
	case scenario.CmdReset:
		if c.Has("to-datetime") {
			r.marks.offset(c.Positional(0), ReasonDatetime)
			r.marks.note("reset " + c.Positional(0) + " to-datetime: not run on the cluster")
		}
	case scenario.CmdConfig:
		name := "enable.auto.commit"
		if !c.Has(name) {
			name = "auto.commit" // its name in links made before rules 3
		}
		if c.Positional(0) != "group" || !c.Has(name) {
			break
		}
		on, err := c.Bool(name)
		if err != nil {
			return err
		}
		if on {
			r.marks.offset(c.Positional(1), ReasonAutoCommit)
		}
	case scenario.CmdPoll:
		return r.markPollOrder(c, events)
	}
	return nil
}

// markFormerTopic counts, for each group with live members, new partitions
// of a topic its members read once and read no longer.
func (r *runner) markFormerTopic(topic string) {
	for _, name := range r.groupNames {
		if !r.marks.subscribed[name][topic] || slices.Contains(r.groupsReading(topic), name) {
			continue
		}
		if v, err := r.session.Log().Group(name); err == nil && len(v.Members) > 0 {
			r.marks.formerTopicGrew[name]++
		}
	}
}

// markPollOrder marks the partitions a poll read when it stopped at max
// while the member owned more than one: which records it got depends on
// the order the client reads partitions in. That explains the group's
// offsets and lag on those partitions, and nothing else.
func (r *runner) markPollOrder(c scenario.Command, events []core.Event) error {
	group, name := c.Positional(0), c.Positional(1)
	max, err := c.CountOr("max", maxPollRecords)
	if err != nil {
		return err
	}
	var delivered int64
	for _, e := range events {
		if e.Kind == core.EventDelivered {
			delivered++
		}
	}
	v, err := r.session.Log().Group(group)
	if err != nil || delivered < max {
		return nil // the poll found no group, or stopped short of max: nothing depends on the order
	}
	for _, m := range v.Members {
		if m.ID != name || len(m.Assignment) < 2 {
			continue
		}
		for _, t := range m.Assignment {
			gp := groupPartition{group, tp{t.Topic, t.Partition}}
			if _, ok := r.marks.polled[gp]; !ok {
				r.marks.polled[gp] = ReasonPollOrder
			}
		}
	}
	return nil
}

// topicReason is why a row about a topic's records as a whole may differ:
// what changed some of its partitions' logs, but not where a sticky
// partitioner put keyless records (those rows do not depend on it), unless
// a truncate then cut the partitions, at offsets that hold other records
// on each side.
func (m *marks) topicReason(topic string, partitions int) Reason {
	if m.stickyTruncated[topic] {
		return ReasonSticky
	}
	if why, ok := m.topics[topic]; ok && why != ReasonSticky {
		return why
	}
	for p := range partitions {
		if why, ok := m.partitions[tp{topic, p}]; ok {
			return why
		}
	}
	if m.brokerFailures {
		return ReasonBrokers
	}
	return ""
}
