package core

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"plog/core/assign"
	"plog/core/units"
)

// GroupView is a read-only snapshot of a consumer group: what
// kafka-consumer-groups --describe shows, and what the page draws.
type GroupView struct {
	Name       string
	State      string // empty, rebalancing or stable (a consumer group's below), or dead once deleted
	Generation int
	Strategy   string
	Config     GroupConfig
	Members    []MemberView // sorted by id
	// AssignorOrder names the running members in the order the assignors
	// take them: static members first by group.instance.id, then by
	// MemberID from rules 3 (by name before; member_ids.go).
	AssignorOrder []string
	// Rebalance is the rebalance in progress, nil when there is none.
	Rebalance *RebalanceView
	History   []RebalanceRecord // completed rounds, oldest first
	// LastRebalance is the last completed rebalance, its rounds added up;
	// nil before the first.
	LastRebalance *RebalanceSummary
	// Partitions lists every partition of a topic some member subscribes
	// to, and every partition with a committed offset, sorted.
	Partitions []PartitionView
	// TotalLag sums Lag over the partitions with a committed offset.
	TotalLag int64
	// MaxTimeLagMs is the largest TimeLagMs.
	MaxTimeLagMs int64
	// Alert is set when TotalLag reaches lag.alert.records or MaxTimeLagMs
	// reaches lag.alert.ms; AlertReason says which.
	Alert       bool
	AlertReason string
	Deliveries  []DeliveryLogEntry // the latest deliveries (up to 1,000), oldest first
	Totals      DeliveryTotals
	// ActiveMembers names the members that keep the group from being
	// Empty, running ones and stopped ones within their session, as a
	// reset sees them; "" when the group is empty (group.activeMembers).
	ActiveMembers string
	// MetadataRefreshAt is when the leader's next metadata refresh will
	// show the group the partitions added to its topics (rules 4 on; 0
	// when none wait to be seen), and Unseen says which.
	MetadataRefreshAt int64
	Unseen            string
	// OutsideCommitRefused says why a commit from outside the group (no
	// running member to go through) is refused now, as CommitOffset
	// would refuse it; "" when it would be taken.
	OutsideCommitRefused string

	// Protocol is the group's protocol: classic, or consumer for Kafka 4's
	// consumer group protocol (KIP-848; group_consumer.go). A consumer
	// group has no generation (Generation is its GroupEpoch) and no
	// strategy: GroupEpoch is bumped at each change of membership or
	// subscription, AssignmentEpoch is the epoch of its target
	// assignment, computed by the server-side Assignor; its State is
	// empty, assigning, reconciling or stable.
	Protocol        string
	GroupEpoch      int
	AssignmentEpoch int
	Assignor        string
	// MigrationPolicy is the brokers' group.consumer.migration.policy, and
	// MigrationNote says what it means for the group now: how a member of
	// the other protocol converts it, or how its classic members rejoin
	// (group_migration.go); "" when there is nothing to say.
	MigrationPolicy string
	MigrationNote   string
}

// MemberView is one member of a group.
type MemberView struct {
	ID         string // the member's name: its client.id
	InstanceID string // empty for a dynamic member
	// MemberID is Kafka's member id, the coordinator's: the client.id (a
	// static member's InstanceID), a dash and a UUID drawn from the seed;
	// empty under rules 1 and 2 (member_ids.go).
	MemberID   string
	Topics     []string // subscription, sorted
	Generation int      // the generation its assignment comes from
	Assignment []TopicPartition
	Positions  []Position // next offset to read, for assigned partitions that have one
	// Idle is set for a running member with no partitions in a stable group:
	// there are more members than partitions.
	Idle bool
	// Down is "crashed", or "left" for a static member that shut down; the
	// group keeps it until SessionExpiresAt.
	Down             string
	SessionExpiresAt int64
	// EmptyPoll says why the member's last poll got no record, at
	// EmptyPollAt (see PartitionedLog.Poll); "" when it got records or has
	// not polled.
	EmptyPoll   string
	EmptyPollAt int64
	// PollDeadline is when a running member's max.poll.interval.ms runs
	// out unless it polls (rules 4 on; 0 before): it then leaves the group.
	PollDeadline int64
	// Rejoined says it has rejoined the rebalance running (rules 4 on).
	Rejoined bool
	// Leader says it is the group's leader, whose metadata refreshes show
	// the group partitions added to its topics (rules 4 on).
	Leader bool

	// A consumer group's member (group_consumer.go): its Epoch (-2 for a
	// static member that left), its MemberState (stable,
	// unrevoked_partitions, unreleased_partitions), its Target assignment,
	// PendingRevoke, what it owns outside its target: what it must give up
	// before its next epoch (ConsumerGroupMember.partitionsPendingRevocation
	// of Kafka 4.4), and what a new target took from it that it learns at
	// its next heartbeat; and PendingAssign, what its target holds that it
	// does not own yet (the target minus its assignment: partitions another
	// member still owns, or that it takes at its next heartbeat).
	// Assignment is its current assignment. NextHeartbeat is when it
	// heartbeats next, RemoteAssignor its group.remote.assignor.
	// Protocol is the group protocol the member runs: classic, or
	// consumer; a consumer group may hold classic members during an
	// online upgrade or downgrade (group_migration.go), which kafka-
	// consumer-groups marks UPGRADED false.
	Protocol       string
	Epoch          int
	MemberState    string
	Target         []TopicPartition
	PendingRevoke  []TopicPartition
	PendingAssign  []TopicPartition
	NextHeartbeat  int64
	RemoteAssignor string
}

// Position is a member's next offset on one partition.
type Position struct {
	Topic     string
	Partition int
	Offset    int64
}

// RebalanceView is a rebalance in progress.
type RebalanceView struct {
	Cause     string
	Round     int // 1; 2 for cooperative-sticky's follow-up round
	StartedAt int64
	// DoneAt is when it completes, unless it waits for WaitingFor: stopped
	// members whose sessions have not expired yet.
	DoneAt     int64
	WaitingFor []string
	Paused     []TopicPartition // partitions nobody consumes until it completes
	// From rules 4 (core/group_timing.go): Initial marks an empty group's
	// first rebalance, whose wait ends at DoneAt; any other ends when
	// NotRejoined, the running members that have not rejoined by polling,
	// is empty and no member is stopped, or at DoneAt, its rebalance
	// timeout. Waits says it in words.
	Initial     bool
	NotRejoined []string
	Waits       string
}

// RebalanceSummary is one rebalance as a learner sees it: an eager one is a
// single round, a cooperative one (Kafka 4.x's CooperativeStickyAssignor,
// KIP-429) two, the first revoking what moves and the second assigning it,
// and the summary adds them up.
type RebalanceSummary struct {
	Rounds     int
	Generation int    // the generation of its last round
	Strategy   string // the strategy of its last round
	Cause      string // the cause of its last round
	// Moved and Paused add up the rounds' (RebalanceRecord).
	Moved, Paused int
	// Members says what each member lost, gained and kept over the rounds,
	// in the order they first appear: a partition revoked in the first
	// round and given back in the second was kept.
	Members []MemberChange
}

// lastRebalance sums up the last rebalance of a history: its last round,
// and the round before when the last is the follow-up round of it.
func lastRebalance(history []RebalanceRecord) *RebalanceSummary {
	n := len(history)
	if n == 0 {
		return nil
	}
	rounds := history[n-1:]
	if last := history[n-1]; last.Round > 1 && n > 1 && history[n-2].Round == last.Round-1 {
		rounds = history[n-2:]
	}
	last := rounds[len(rounds)-1]
	sum := &RebalanceSummary{Rounds: len(rounds), Generation: last.Generation, Strategy: last.Strategy, Cause: last.Cause}
	for _, r := range rounds {
		sum.Moved += r.Moved
		sum.Paused += r.Paused
	}
	sum.Members = mergeMemberChanges(rounds)
	return sum
}

// mergeMemberChanges adds up what each member lost and gained over the
// rounds of one rebalance.
func mergeMemberChanges(rounds []RebalanceRecord) []MemberChange {
	if len(rounds) == 1 {
		return rounds[0].Members
	}
	byMember := map[string]*MemberChange{}
	var order []string
	for _, round := range rounds {
		for _, ch := range round.Members {
			acc, ok := byMember[ch.Member]
			if !ok {
				acc = &MemberChange{Member: ch.Member, Kept: slices.Clone(ch.Kept)}
				byMember[ch.Member] = acc
				order = append(order, ch.Member)
			}
			acc.Left = ch.Left
			acc.Revoked = append(acc.Revoked, ch.Revoked...)
			for _, tp := range ch.Assigned {
				if i := slices.Index(acc.Revoked, tp); i >= 0 {
					acc.Revoked = slices.Delete(acc.Revoked, i, i+1)
					acc.Kept = append(acc.Kept, tp)
					continue
				}
				acc.Assigned = append(acc.Assigned, tp)
			}
		}
	}
	out := make([]MemberChange, 0, len(order))
	for _, id := range order {
		out = append(out, *byMember[id])
	}
	return out
}

// PartitionView is one partition as the group sees it. Lag and TimeLagMs
// mean something only with HasCommitted; without a commit Kafka's tools show
// "-".
type PartitionView struct {
	Topic          string
	Partition      int
	LogStart       int64
	HighWatermark  int64
	Owner          string // the member that owns it, empty for none
	Paused         bool   // a rebalance stops it
	Committed      int64
	HasCommitted   bool
	Lag            int64 // HighWatermark - Committed
	TimeLagMs      int64 // now - timestamp of the record at Committed; 0 when caught up
	SkippedByReset int64 // offsets auto.offset.reset jumped over here
}

// Group returns a snapshot of a group.
func (l *PartitionedLog) Group(name string) (GroupView, error) {
	g, err := l.group(name)
	if err != nil {
		return GroupView{}, err
	}
	v := GroupView{
		Name:       g.name,
		State:      g.state(),
		Generation: g.generation,
		Strategy:   g.strategy,
		Config:     g.config,
		Deliveries: slices.Clone(g.deliveries[max(0, len(g.deliveries)-maxDeliveryLog):]),
		Totals:     g.totals,

		ActiveMembers:        g.activeMembers(),
		OutsideCommitRefused: l.outsideCommitRefused(g),

		Protocol: g.protocolName(),

		MigrationPolicy: l.ConsumerMigrationPolicy(),
		MigrationNote:   l.migrationNote(g),
	}
	if g.consumer() {
		v.GroupEpoch, v.AssignmentEpoch, v.Assignor = g.cg.epoch, g.cg.targetEpoch, l.describedAssignor(g)
	}
	v.History = slices.Clone(g.history) // read-only records (RebalanceRecord)
	v.LastRebalance = lastRebalance(v.History)
	v.AssignorOrder = g.assignorOrder()
	owned := 0
	for _, m := range g.members {
		owned += len(m.assigned)
	}
	owners := make(map[TopicPartition]string, owned)
	v.Members = make([]MemberView, 0, len(g.members))
	for _, m := range g.members {
		mv := MemberView{
			ID:         m.id,
			InstanceID: m.instanceID,
			MemberID:   m.memberID,
			Topics:     slices.Clone(m.topics),
			Generation: m.generation,
			Assignment: slices.Clone(m.assigned),
			Idle:       m.down == "" && len(m.assigned) == 0 && g.rebalance == nil && (!g.consumer() || len(g.cg.target[m.id]) == 0 && g.cg.epoch == g.cg.targetEpoch),
			Down:       m.down,
			EmptyPoll:  m.emptyPoll,
			Protocol:   g.memberProtocol(m),
		}
		if m.emptyPoll != "" {
			mv.EmptyPollAt = m.emptyPollAt
		}
		if m.down != "" {
			mv.SessionExpiresAt = m.expiresAt
		}
		if g.consumer() {
			mv.Epoch, mv.MemberState, mv.RemoteAssignor = m.cm.epoch, m.cm.state, m.cm.remoteAssignor
			mv.Target = g.memberTarget(m)
			mv.PendingRevoke = g.pendingRevocation(m)
			mv.PendingAssign = g.pendingAssignment(m)
			if m.down == "" && !m.classic() {
				mv.NextHeartbeat = m.cm.nextHeartbeat
			}
		}
		if g.timing() {
			mv.Leader = g.leader == m.id
			mv.Rejoined = g.rebalance != nil && m.rejoined && m.down == ""
			if m.down == "" {
				mv.PollDeadline = g.pollDeadline(m)
			}
		}
		for _, tp := range m.assigned {
			owners[tp] = m.id
			if pos, ok := m.positions[tp]; ok {
				mv.Positions = append(mv.Positions, Position{tp.Topic, tp.Partition, pos})
			}
		}
		v.Members = append(v.Members, mv)
	}
	if r := g.rebalance; r != nil {
		v.Rebalance = &RebalanceView{Cause: r.cause, Round: r.round, StartedAt: r.startedAt, DoneAt: r.doneAt, Paused: slices.Clone(r.paused)}
		for _, m := range g.members {
			switch {
			case g.timing() && m.rejoined:
			case m.down != "":
				v.Rebalance.WaitingFor = append(v.Rebalance.WaitingFor, m.id)
			case g.timing():
				v.Rebalance.NotRejoined = append(v.Rebalance.NotRejoined, m.id)
			}
		}
		if g.timing() {
			v.Rebalance.Initial = r.initial
			v.Rebalance.Waits = l.rebalanceWait(g)
		}
	}
	if g.timing() && g.refreshPending {
		v.MetadataRefreshAt, _ = g.metadataRefreshAt(g.staleSince)
		var unseen []string
		for _, topic := range slices.Sorted(maps.Keys(g.seen)) {
			if t, ok := l.topics[topic]; ok && len(t.partitions) != g.seen[topic] {
				unseen = append(unseen, fmt.Sprintf("%s has %d partitions, the leader's metadata %d", topic, len(t.partitions), g.seen[topic]))
			}
		}
		v.Unseen = strings.Join(unseen, "; ")
	}
	partitions := l.groupPartitions(g)
	v.Partitions = make([]PartitionView, 0, len(partitions))
	for _, tp := range partitions {
		pv := l.partitionView(g, tp)
		pv.Owner = owners[tp]
		v.Partitions = append(v.Partitions, pv)
		if pv.HasCommitted {
			v.TotalLag += pv.Lag
			v.MaxTimeLagMs = max(v.MaxTimeLagMs, pv.TimeLagMs)
		}
	}
	switch c := g.config; {
	case c.LagAlertRecords > 0 && v.TotalLag >= c.LagAlertRecords:
		v.Alert, v.AlertReason = true, fmt.Sprintf("lag of %d records reaches lag.alert.records=%d", v.TotalLag, c.LagAlertRecords)
	case c.LagAlertMs > 0 && v.MaxTimeLagMs >= c.LagAlertMs:
		v.Alert, v.AlertReason = true, fmt.Sprintf("time lag of %s reaches lag.alert.ms=%s", units.Duration(v.MaxTimeLagMs), units.Duration(c.LagAlertMs))
	}
	return v, nil
}

// groupPartitions lists the partitions of the topics the members subscribe
// to and the partitions with committed offsets, sorted. A topic's own
// partitions come in order already: only the committed ones outside them
// are sorted (a set of every partition took most of a snapshot of a group
// over 10,000 partitions).
func (l *PartitionedLog) groupPartitions(g *group) []TopicPartition {
	counts := l.partitionCounts(g)
	outside := map[string][]int{} // committed, not among the topic's partitions counted
	for tp := range g.committed {
		if tp.Partition < 0 || tp.Partition >= counts[tp.Topic] {
			outside[tp.Topic] = append(outside[tp.Topic], tp.Partition)
		}
	}
	topics := slices.Collect(maps.Keys(counts))
	total := 0
	for topic, ps := range outside {
		if _, counted := counts[topic]; !counted {
			topics = append(topics, topic)
		}
		total += len(ps)
	}
	slices.Sort(topics)
	for _, n := range counts {
		total += n
	}
	all := make([]TopicPartition, 0, total)
	for _, topic := range topics {
		ps := outside[topic]
		slices.Sort(ps)
		below, _ := slices.BinarySearch(ps, 0)
		for _, p := range ps[:below] {
			all = append(all, TopicPartition{Topic: topic, Partition: p})
		}
		for p := range counts[topic] {
			all = append(all, TopicPartition{Topic: topic, Partition: p})
		}
		for _, p := range ps[below:] {
			all = append(all, TopicPartition{Topic: topic, Partition: p})
		}
	}
	return all
}

func (l *PartitionedLog) partitionView(g *group, tp TopicPartition) PartitionView {
	p := l.topics[tp.Topic].partitions[tp.Partition]
	pv := PartitionView{
		Topic:          tp.Topic,
		Partition:      tp.Partition,
		LogStart:       p.logStart,
		HighWatermark:  p.highWatermark(),
		Paused:         g.isPaused(tp),
		SkippedByReset: g.skipped[tp],
	}
	pv.Committed, pv.HasCommitted = g.committed[tp]
	if pv.HasCommitted {
		pv.Lag = max(0, pv.HighWatermark-pv.Committed)
		if r, ok := p.records.first(pv.Committed); pv.Lag > 0 && ok {
			pv.TimeLagMs = max(0, l.now-r.Timestamp)
		}
	}
	return pv
}

// MembershipChange is a change to a group's members, for CompareMovement.
type MembershipChange struct {
	Join  []AssignMember // members that would join (ID, Topics, InstanceID)
	Leave []string       // ids of members that would leave
}

// StrategyMovement is what one strategy would do with a membership change.
type StrategyMovement struct {
	Strategy string
	Before   Assignment // the strategy's assignment of the group as it is
	After    Assignment // after the change (both rounds for cooperative-sticky)
	Moved    int        // partitions whose owner changed
}

// CompareMovement says, for each strategy, how many partitions a membership
// change would move: each strategy assigns the group as it is now, then
// rebalances after the change from its own assignment. The group itself
// does not change.
func (l *PartitionedLog) CompareMovement(groupName string, change MembershipChange) ([]StrategyMovement, error) {
	g, err := l.group(groupName)
	if err != nil {
		return nil, err
	}
	var before, after []AssignMember
	names := map[string]string{} // assignor id → name: the assignors see member ids from rules 3
	for _, m := range g.members {
		if m.down != "" {
			continue
		}
		names[m.assignorID()] = m.id
		am := AssignMember{ID: m.assignorID(), InstanceID: m.instanceID, Topics: slices.Clone(m.topics)}
		before = append(before, am)
		if !slices.Contains(change.Leave, m.id) {
			after = append(after, am)
		}
	}
	for _, id := range change.Leave {
		if !slices.ContainsFunc(g.members, func(m *member) bool { return m.id == id && m.down == "" }) {
			return nil, fmt.Errorf("group %q has no running member %q to leave", groupName, id)
		}
	}
	for i, m := range change.Join {
		if err := validGroupName("member", m.ID); err != nil {
			return nil, err
		}
		for _, topic := range m.Topics {
			if _, err := l.topic(topic); err != nil {
				return nil, fmt.Errorf("member %q cannot subscribe: %v", m.ID, err)
			}
		}
		// A joiner gets the member id the coordinator would make next.
		id := m.ID
		if l.follows(KafkaMemberIDs) {
			id = memberIDFor(m.ID, m.InstanceID, l.seed, l.groups.memberIDsMade+uint64(i))
		}
		names[id] = m.ID
		after = append(after, AssignMember{ID: id, InstanceID: m.InstanceID, Topics: slices.Clone(m.Topics)})
	}
	counts := map[string]int{}
	for _, m := range append(slices.Clone(before), after...) {
		for _, topic := range m.Topics {
			counts[topic] = len(l.topics[topic].partitions)
		}
	}
	moves, err := CompareStrategies(l.stickyAlgorithm(), before, after, counts)
	for i := range moves {
		moves[i].Before, moves[i].After = renameMembers(moves[i].Before, names), renameMembers(moves[i].After, names)
	}
	return moves, err
}

// renameMembers keys an assignment by the names its ids map to.
func renameMembers(a Assignment, names map[string]string) Assignment {
	out := make(Assignment, len(a))
	for id, tps := range a {
		out[names[id]] = tps
	}
	return out
}

// CompareStrategies runs each strategy on the members before a change, then
// on the members after it with what they owned, and counts the partitions
// that changed owner. For cooperative-sticky it runs both rounds. sticky is
// how the sticky strategies plan (the scenario's rules choose it).
func CompareStrategies(sticky assign.StickyAlgorithm, before, after []AssignMember, partitions map[string]int) ([]StrategyMovement, error) {
	var out []StrategyMovement
	for _, strategy := range assign.Strategies() {
		first, err := assign.AssignWith(sticky, strategy, before, partitions)
		if err != nil {
			return nil, err
		}
		members := slices.Clone(after)
		for i := range members {
			members[i].Owned, members[i].Generation = first[members[i].ID], 1
		}
		second, err := assign.AssignWith(sticky, strategy, members, partitions)
		if err != nil {
			return nil, err
		}
		if assign.IsCooperative(strategy) {
			for i := range members {
				members[i].Owned, members[i].Generation = second[members[i].ID], 2
			}
			if second, err = assign.AssignWith(sticky, strategy, members, partitions); err != nil {
				return nil, err
			}
		}
		out = append(out, StrategyMovement{Strategy: strategy, Before: first, After: second, Moved: assign.MovedPartitions(first, second)})
	}
	return out, nil
}
