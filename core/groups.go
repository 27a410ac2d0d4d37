package core

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"plog/core/assign"
	"plog/core/units"
)

// Consumer groups as Kafka's group coordinator and Java consumer run them,
// on the virtual clock:
//
//   - Membership changes (a join, a leave, a session that times out after a
//     crash, a new subscription, more partitions) start a rebalance. Under
//     rules 1 to 3 it takes the group's rebalance.ms of virtual time; from
//     rules 4 it ends when every member has rejoined by polling, as Kafka's
//     classic protocol has it (group_timing.go). Changes while it runs
//     fold into it. It cannot finish while a member that stopped (crashed,
//     or a static member gone) is still within its session timeout: the
//     coordinator waits for it, as Kafka's join phase does.
//   - Eager strategies (range, roundrobin, sticky) revoke every partition
//     when the rebalance starts: nothing is consumed until it completes, and
//     positions restart from the committed offsets. cooperative-sticky keeps
//     consuming what does not move; what moves is revoked at the end of a
//     first round and assigned at the end of a second.
//   - With auto-commit on, a consumer commits its positions in poll once the
//     interval has passed, before a rebalance revokes its partitions, and
//     when it leaves, as the Java consumer does.

// groupState holds the consumer groups of a PartitionedLog.
type groupState struct {
	groups map[string]*group
	names  []string // sorted; every loop over groups goes through it
	// memberIDsMade counts the member ids the coordinator has made (rules 3
	// on): the next one's UUID is drawn from the seed and this count, apart
	// from the partitioners' generator, so that a join moves no keyless
	// record (member_ids.go).
	memberIDsMade uint64
	// migrationPolicy is the brokers' group.consumer.migration.policy, ""
	// for Kafka's default, bidirectional (group_migration.go).
	migrationPolicy string
}

// group is one consumer group.
type group struct {
	name       string
	config     GroupConfig
	strategy   string // chosen by the first member; the others must agree
	generation int
	members    []*member // sorted by id; includes stopped members until their session expires
	rebalance  *rebalance
	committed  map[TopicPartition]int64
	history    []RebalanceRecord // oldest first, at most maxRebalanceHistory

	// leader is the member whose metadata refreshes decide when the group
	// sees partitions added to its topics, and seen the partition counts
	// its metadata holds (rules 4 on; group_timing.go).
	leader string
	seen   map[string]int
	// refreshPending says partitions were added to a topic of seen at
	// staleSince: the leader's next metadata refresh after it sees them.
	refreshPending bool
	staleSince     int64

	// deliveredTo is, per partition, the offset after the last record the
	// group ever delivered: a delivery below it is a redelivery.
	deliveredTo map[TopicPartition]int64
	deliveries  []DeliveryLogEntry // the latest maxDeliveryLog deliveries
	// deliverySeq is the sequence number of the next delivery; the first
	// entry in deliveries has deliverySeq-len(deliveries).
	deliverySeq int64
	// skipped is, per partition, how many offsets auto.offset.reset jumped
	// over because the records were gone (below the log start).
	skipped map[TopicPartition]int64
	totals  DeliveryTotals

	// cg is what a consumer group (group.protocol=consumer, KIP-848) adds:
	// its epochs and target assignment (group_consumer.go); nil for a
	// classic group.
	cg *consumerGroup

	// dead says the group was deleted (DeleteGroup): Kafka's Dead state,
	// until a join, a commit from outside or a reset makes the group anew.
	dead bool
}

// member is one consumer in a group.
type member struct {
	// id is the member's name in the scenario: its client.id, which every
	// command about it names (member_ids.go).
	id         string
	instanceID string // group.instance.id: static membership
	// memberID is Kafka's member id, the coordinator's, from rules 3 on:
	// the client.id (a static member's group.instance.id), a dash and a
	// UUID; "" under rules 1 and 2.
	memberID   string
	topics     []string // the subscription, sorted
	generation int      // the generation its assignment comes from
	assigned   []TopicPartition
	// positions holds the next offset to read for assigned partitions; a
	// partition without one starts from the committed offset or by
	// auto.offset.reset at the next poll.
	positions map[TopicPartition]int64
	// pollOrder is the order in which poll visits the assigned partitions:
	// a partition that returned records goes to the back (as Kafka's
	// consumer moves a fetched partition to the end), so no partition
	// starves.
	pollOrder []TopicPartition
	// inFlight is the sequence range [from, to) of the deliveries of the
	// last poll, still being processed.
	inFlightFrom, inFlightTo int64
	lastAutoCommit           int64
	// emptyPoll says why its last poll got no record, at emptyPollAt; ""
	// when the last poll got records, or before its first poll.
	emptyPoll   string
	emptyPollAt int64
	// saidEmpty is the reason the last polled-nothing event gave: an event
	// is emitted only for a new reason.
	saidEmpty string

	// From rules 4 (group_timing.go): joinedAt is when it joined, from
	// which its metadata refreshes count; lastPoll when it last polled,
	// from which max.poll.interval.ms counts; rejoined whether it has
	// rejoined the rebalance running.
	joinedAt, lastPoll int64
	rejoined           bool

	// down says why a member stopped without a LeaveGroup: "crashed", or
	// "left" for a static member that shut down (static members do not
	// send LeaveGroup). The group notices at expiresAt.
	down      string
	expiresAt int64

	// cm is what a member of a consumer group adds: its epoch, state and
	// heartbeats (group_consumer.go); nil in a classic group.
	cm *consumerMember
}

// rebalance is a rebalance in progress.
type rebalance struct {
	cause     string
	round     int // 1, or 2 for cooperative-sticky's follow-up round
	startedAt int64
	doneAt    int64 // it completes at the first timer at or after this time
	// before is who owned what when it started, members who left since
	// included: the record of what moved compares with it.
	before Assignment
	// paused lists the partitions nobody consumes until it completes.
	paused []TopicPartition

	// From rules 4 (group_timing.go): initial marks an empty group's first
	// rebalance, which waits delayMs at a time, at most remainingMs more,
	// as long as newMemberAdded says a member joined in the last wait.
	// doneAt is then the end of the wait; for any other rebalance, the
	// rebalance timeout.
	initial              bool
	newMemberAdded       bool
	delayMs, remainingMs int64
}

// Bounds that keep a group's memory finite whatever a script does.
const (
	maxGroupMembers     = 1000
	maxGroups           = 1000
	maxRebalanceHistory = 1000
	maxDeliveryLog      = 1000
)

// The group states, as Kafka's describe shows them (simplified: Kafka's
// PreparingRebalance and CompletingRebalance are both "rebalancing").
const (
	GroupEmpty       = "empty"
	GroupRebalancing = "rebalancing"
	GroupStable      = "stable"
)

func (g *group) state() string {
	if g.dead {
		return GroupDead
	}
	if g.consumer() {
		return g.consumerState()
	}
	switch {
	case len(g.members) == 0:
		return GroupEmpty
	case g.rebalance != nil:
		return GroupRebalancing
	}
	return GroupStable
}

// activeMembers names the members that keep the group from being Empty,
// "" when it is empty: Kafka changes a group's offsets from outside it (an
// admin's commit, kafka-consumer-groups --reset-offsets) only when it is
// Empty (ClassicGroup.validateOffsetCommit, Kafka 4.x), and a member that
// stopped without LeaveGroup (crashed, or a static member gone) stays until
// its session times out. Reset and a commit from outside the group both
// ask it.
func (g *group) activeMembers() string {
	var names []string
	sep := ", "
	for _, m := range g.members {
		name := m.id
		switch m.down {
		case "":
		case "left":
			name += fmt.Sprintf(", a static member that shut down, kept until its session times out at %s", units.Duration(m.expiresAt))
			sep = "; "
		default:
			name += fmt.Sprintf(", %s, kept until its session times out at %s", m.down, units.Duration(m.expiresAt))
			sep = "; "
		}
		names = append(names, name)
	}
	return strings.Join(names, sep)
}

// hasRunningMember reports whether a member of the group is running: one a
// commit can go through.
func (g *group) hasRunningMember() bool {
	for _, m := range g.members {
		if m.down == "" {
			return true
		}
	}
	return false
}

// clone returns a deep, independent copy of the groups.
func (s *groupState) clone() groupState {
	c := groupState{names: slices.Clone(s.names), memberIDsMade: s.memberIDsMade, migrationPolicy: s.migrationPolicy}
	if s.groups != nil {
		c.groups = make(map[string]*group, len(s.groups))
	}
	for name, g := range s.groups {
		c.groups[name] = g.clone()
	}
	return c
}

func (g *group) clone() *group {
	c := *g
	c.members = slices.Clone(g.members)
	for i, m := range c.members {
		c.members[i] = m.clone()
	}
	if g.rebalance != nil {
		r := *g.rebalance
		r.before = cloneAssignment(g.rebalance.before)
		r.paused = slices.Clone(g.rebalance.paused)
		c.rebalance = &r
	}
	c.seen = maps.Clone(g.seen)
	c.cg = g.cg.clone()
	c.committed = maps.Clone(g.committed)
	c.history = slices.Clone(g.history) // the records themselves are shared (RebalanceRecord)
	c.deliveredTo = maps.Clone(g.deliveredTo)
	c.deliveries = slices.Clone(g.deliveries)
	c.skipped = maps.Clone(g.skipped)
	return &c
}

func (m *member) clone() *member {
	c := *m
	c.topics = slices.Clone(m.topics)
	c.assigned = slices.Clone(m.assigned)
	c.positions = maps.Clone(m.positions)
	c.pollOrder = slices.Clone(m.pollOrder)
	c.cm = m.cm.clone()
	return &c
}

func cloneAssignment(a Assignment) Assignment {
	if a == nil {
		return nil
	}
	c := make(Assignment, len(a))
	for id, tps := range a {
		c[id] = slices.Clone(tps)
	}
	return c
}

// GroupNames returns the groups' names in sorted order.
func (l *PartitionedLog) GroupNames() []string {
	return slices.Clone(l.groups.names)
}

// group returns the named group or an error naming it.
func (l *PartitionedLog) group(name string) (*group, error) {
	g, ok := l.groups.groups[name]
	if !ok {
		return nil, fmt.Errorf("unknown group %q", name)
	}
	return g, nil
}

// groupMember returns a group and one of its members, or an error naming
// what is missing.
func (l *PartitionedLog) groupMember(groupName, memberID string) (*group, *member, error) {
	g, err := l.group(groupName)
	if err != nil {
		return nil, nil, err
	}
	m := g.member(memberID)
	if m == nil {
		return nil, nil, fmt.Errorf("group %q has no member %q", groupName, memberID)
	}
	return g, m, nil
}

// liveMember is groupMember for operations a stopped member cannot do.
func (l *PartitionedLog) liveMember(groupName, memberID string) (*group, *member, error) {
	g, m, err := l.groupMember(groupName, memberID)
	if err != nil {
		return nil, nil, err
	}
	if m.down != "" {
		return nil, nil, fmt.Errorf("member %q of group %q has %s: the group removes it when its session times out at %s",
			memberID, groupName, m.down, units.Duration(m.expiresAt))
	}
	return g, m, nil
}

func (g *group) member(id string) *member {
	i, found := slices.BinarySearchFunc(g.members, id, func(m *member, id string) int { return compareStrings(m.id, id) })
	if !found {
		return nil
	}
	return g.members[i]
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// newGroup creates an empty group with the default config.
func (l *PartitionedLog) newGroup(name string) (*group, error) {
	if err := validGroupName("group", name); err != nil {
		return nil, err
	}
	if len(l.groups.names) >= maxGroups {
		return nil, fmt.Errorf("there are already %d groups, the playground's limit", maxGroups)
	}
	g := &group{
		name:        name,
		config:      DefaultGroupConfigUnder(l.rules),
		committed:   map[TopicPartition]int64{},
		deliveredTo: map[TopicPartition]int64{},
		skipped:     map[TopicPartition]int64{},
	}
	if l.groups.groups == nil {
		l.groups.groups = map[string]*group{}
	}
	l.groups.groups[name] = g
	i, _ := slices.BinarySearch(l.groups.names, name)
	l.groups.names = slices.Insert(l.groups.names, i, name)
	return g, nil
}

// DeleteGroup deletes a group, as kafka-consumer-groups --delete does: only
// an Empty group, whose committed offsets go with it, and the group is then
// Dead (ClassicGroup.validateDeleteGroup, ConsumerGroup.validateDeleteGroup
// and GroupMetadataManager.deleteGroup of Kafka 4.4: NON_EMPTY_GROUP for a
// group with members, GROUP_ID_NOT_FOUND for a Dead one). The playground
// keeps a Dead group's name, and its configs, which are its clients'; a
// join, a commit from outside it or a reset makes it anew, empty, as
// Kafka's coordinator creates a group at its first JoinGroup, heartbeat or
// OffsetCommit. Kafka also makes an Empty group Dead when its last offsets
// expire (offsets.retention.minutes, 7 days), which the playground does
// not model: offsets stay until the group is deleted.
func (l *PartitionedLog) DeleteGroup(name string) error {
	g, err := l.group(name)
	if err != nil {
		return err
	}
	switch {
	case g.dead:
		return fmt.Errorf("group %q cannot be deleted: The group id does not exist. (Kafka: GroupIdNotFoundException): it was deleted, it is Dead", name)
	case len(g.members) > 0:
		return fmt.Errorf("group %q cannot be deleted: The group is not empty. (Kafka: GroupNotEmptyException): its members %s must leave first, and one that stopped is a member until its session times out", name, g.activeMembers())
	}
	config := g.config
	config.protocol = ""
	committed := len(g.committed)
	*g = group{name: name, config: config, committed: map[TopicPartition]int64{}, deliveredTo: map[TopicPartition]int64{}, skipped: map[TopicPartition]int64{}, dead: true}
	l.emit(Event{Kind: EventGroupDeleted, Group: name, Count: committed, Detail: "the group is Dead; its committed offsets are deleted with it"})
	return nil
}

// revive makes a Dead group live again, empty: a join, a commit from
// outside or a reset creates it anew.
func (g *group) revive() { g.dead = false }

// validGroupName checks a group, member or instance id: 1 to 249 of the
// characters topic names use, so that every id can be written in a script
// and a link without quoting.
func validGroupName(what, name string) error {
	if name == "" {
		return fmt.Errorf("a %s id cannot be empty", what)
	}
	if len(name) > maxTopicNameLength {
		return fmt.Errorf("%s id is %d characters long; the limit is %d", what, len(name), maxTopicNameLength)
	}
	for _, c := range []byte(name) {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			return fmt.Errorf("%s id %q has the character %q: only ASCII letters, digits, '.', '_' and '-' are allowed", what, name, c)
		}
	}
	return nil
}

// currentAssignment is who owns what right now.
func (g *group) currentAssignment() Assignment {
	a := make(Assignment, len(g.members))
	for _, m := range g.members {
		a[m.id] = slices.Clone(m.assigned)
	}
	return a
}

func (g *group) isPaused(tp TopicPartition) bool {
	if g.rebalance == nil {
		return false
	}
	_, found := slices.BinarySearchFunc(g.rebalance.paused, tp, assign.ComparePartitions)
	return found
}

// nextGroupDeadline returns the earliest pending group timer: a stopped
// member's session expiry, or the completion of a rebalance that is not
// waiting for one.
func (l *PartitionedLog) nextGroupDeadline() (at int64, ok bool) {
	for _, name := range l.groups.names {
		if t, due := l.groups.groups[name].nextDeadline(); due && (!ok || t < at) {
			at, ok = t, true
		}
	}
	return at, ok
}

func (g *group) nextDeadline() (at int64, ok bool) {
	if g.consumer() {
		return g.nextConsumerDeadline()
	}
	if g.timing() {
		return g.nextDeadlineV4()
	}
	for _, m := range g.members {
		if m.down != "" && (!ok || m.expiresAt < at) {
			at, ok = m.expiresAt, true
		}
	}
	if ok {
		return at, true // a rebalance waits for stopped members to expire
	}
	if g.rebalance != nil {
		return g.rebalance.doneAt, true
	}
	return 0, false
}

// runGroupTimers fires the group timers due at now: sessions that expire,
// then rebalances that complete.
func (l *PartitionedLog) runGroupTimers(now int64) {
	for _, name := range l.groups.names {
		g := l.groups.groups[name]
		if g.consumer() {
			l.runConsumerTimers(g, now)
			continue
		}
		if g.timing() {
			l.runGroupTimersV4(g, now)
			continue
		}
		for _, m := range slices.Clone(g.members) {
			if m.down != "" && m.expiresAt <= now {
				l.expireMember(g, m)
			}
		}
		if at, due := g.nextDeadline(); due && at <= now && g.rebalance != nil {
			l.completeRebalanceRound(g)
		}
	}
}

// onPartitionsChanged starts a rebalance in every group subscribed to the
// topic, so the new partitions get owners, and reassigns the share groups
// that read it (sharePartitionsAdded).
func (l *PartitionedLog) onPartitionsChanged(topic string) {
	for _, name := range l.groups.names {
		g := l.groups.groups[name]
		if g.consumer() {
			// The coordinator sees the new partitions in its metadata
			// image and refreshes the group at its next heartbeat
			// (GroupMetadataManager.onMetadataUpdate, Kafka 4.4).
			g.cg.metadataStale = g.cg.metadataStale || slices.ContainsFunc(g.members, func(m *member) bool { return slices.Contains(m.topics, topic) })
			continue
		}
		if g.timing() {
			l.partitionsAddedV4(g, topic) // the leader sees them at its next metadata refresh
			continue
		}
		if slices.ContainsFunc(g.members, func(m *member) bool { return slices.Contains(m.topics, topic) }) {
			n := len(l.topics[topic].partitions)
			l.startRebalance(g, fmt.Sprintf("topic %s now has %d partitions", topic, n), g.currentAssignment(), nil, false)
		}
	}
	l.sharePartitionsAdded()
}

// partitionCounts maps each topic some member subscribes to, to its
// partition count now.
func (l *PartitionedLog) partitionCounts(g *group) map[string]int {
	counts := map[string]int{}
	for _, m := range g.members {
		for _, topic := range m.topics {
			if t, ok := l.topics[topic]; ok {
				counts[topic] = len(t.partitions)
				if n, seen := g.seen[topic]; seen && g.timing() {
					counts[topic] = min(n, len(t.partitions)) // what the leader's metadata holds
				}
			}
		}
	}
	return counts
}

// assignRound runs the assignor over the group's live members (from rules
// 4, all its members), each with
// the partitions it owns now, under strategy: the assignment (by member
// name) and how many partitions a cooperative round held back
// (assign.Round). The assignors see each member by its assignorID, so that
// from rules 3 they order members by Kafka's member id. The members come
// from a valid group and the strategy from assign.Strategies, so this
// cannot fail; were it to, nobody would be assigned anything.
func (l *PartitionedLog) assignRound(g *group, strategy string) (Assignment, int) {
	var members []AssignMember
	for _, m := range g.members {
		// From rules 4 every member the join phase kept is assigned, a
		// stopped one too, as Kafka's coordinator sends the leader every
		// member (GroupMetadataManager.completeClassicGroupJoin): its
		// partitions sit unread until its session ends.
		if m.down == "" || g.timing() {
			members = append(members, AssignMember{ID: m.assignorID(), InstanceID: m.instanceID, Topics: m.topics, Owned: m.assigned, Generation: m.generation})
		}
	}
	counts := l.partitionCounts(g)
	l.work(assignmentWork(len(members), counts))
	plan, held, err := assign.RoundWith(l.stickyAlgorithm(), strategy, members, counts)
	l.work(0) // the meter breathes after a long piece of work, before the bookkeeping
	if err != nil {
		return Assignment{}, 0
	}
	return g.byName(plan), held
}

// stickyAlgorithm is how the sticky strategies plan under the scenario's
// rules: Kafka's AbstractStickyAssignor (kafka-clients 4.4.0) from rules 3,
// the playground's first planner before.
func (l *PartitionedLog) stickyAlgorithm() assign.StickyAlgorithm {
	if l.follows(KafkaStickyAssignors) {
		return assign.KafkaSticky
	}
	return assign.FlowSticky
}

// startRebalance starts a rebalance, or folds a change into the one
// running. before is the assignment just before the change. rejoined is the
// member whose JoinGroup the change is (a join, a new subscription), nil
// for none, and joined says it is a new member: from rules 4 they decide
// when the rebalance ends (group_timing.go).
func (l *PartitionedLog) startRebalance(g *group, cause string, before Assignment, rejoined *member, joined bool) {
	l.startRebalanceFor(g, CauseNone, cause, before, rejoined, joined)
}

// startRebalanceFor is startRebalance whose rebalance-started event
// carries a typed cause as well as its sentence.
func (l *PartitionedLog) startRebalanceFor(g *group, typed Cause, cause string, before Assignment, rejoined *member, joined bool) {
	if len(g.members) == 0 {
		l.becomeEmpty(g, cause, before)
		return
	}
	if g.rebalance != nil {
		if g.rebalance.round == 2 {
			// A change during the follow-up round restarts as a first
			// round: it may move partitions again.
			g.rebalance.round = 1
			g.rebalance.cause = cause
		}
		g.rebalance.paused = l.pausedBy(g)
		if g.timing() {
			l.foldIntoRebalance(g, rejoined, joined)
		}
		return
	}
	for _, m := range g.members {
		if m.down == "" && g.config.AutoCommit {
			l.commitPositions(g, m) // Kafka's onJoinPrepare commits before revoking
		}
		if !assign.IsCooperative(g.strategy) {
			clear(m.positions) // eager: everything is revoked
		}
	}
	g.rebalance = &rebalance{
		cause:     cause,
		round:     1,
		startedAt: l.now,
		doneAt:    l.now + g.config.RebalanceMs,
		before:    before,
	}
	g.rebalance.paused = l.pausedBy(g)
	if g.timing() {
		l.prepareRebalance(g, rejoined, joined)
	}
	l.emit(Event{Kind: EventRebalanceStarted, Group: g.name, Generation: g.generation + 1, Detail: cause, Cause: typed})
	if g.timing() {
		l.maybeCompleteJoin(g, false)
	}
}

// pausedBy lists what the running rebalance stops: every owned partition
// under an eager strategy; under cooperative-sticky only the partitions
// that will change owner.
func (l *PartitionedLog) pausedBy(g *group) []TopicPartition {
	var paused []TopicPartition
	if !assign.IsCooperative(g.strategy) {
		for _, m := range g.members {
			paused = append(paused, m.assigned...)
		}
	} else {
		plan, _ := l.assignRound(g, StrategySticky) // the plan behind cooperative-sticky
		for _, m := range g.members {
			for _, tp := range m.assigned {
				if !slices.Contains(plan[m.id], tp) {
					paused = append(paused, tp)
				}
			}
		}
	}
	slices.SortFunc(paused, assign.ComparePartitions)
	return paused
}

// completeRebalanceRound runs the assignor over the live members and hands
// out the result as a new generation.
func (l *PartitionedLog) completeRebalanceRound(g *group) {
	r := g.rebalance
	if g.timing() && !l.removeNotRejoined(g) {
		return
	}
	plan, held := l.assignRound(g, g.strategy)
	g.generation++
	record := RebalanceRecord{
		Generation:  g.generation,
		Strategy:    g.strategy,
		Cause:       r.cause,
		Round:       r.round,
		StartedAt:   r.startedAt,
		CompletedAt: l.now,
		Paused:      len(r.paused),
		Moved:       assign.MovedPartitions(r.before, plan),
		HeldBack:    held,
	}
	for _, m := range g.members {
		l.applyAssignment(g, m, plan[m.id])
	}
	record.Members = memberChanges(r.before, plan)
	g.recordRebalance(record)
	l.emit(Event{Kind: EventRebalanceDone, Group: g.name, Generation: g.generation, Count: record.Moved})
	g.rebalance = nil
	if held > 0 {
		l.startRebalance(g, fmt.Sprintf("assign the %d partitions revoked in generation %d", held, g.generation), plan, nil, false)
		g.rebalance.round = 2
		if g.timing() {
			l.rejoinAfterRevoking(g, plan, record.Members)
		}
	}
}

// applyAssignment gives a member its new partitions. A revoked partition
// loses its position; so does every partition under an eager strategy
// (revoked at the start), so they restart from the committed offset.
func (l *PartitionedLog) applyAssignment(g *group, m *member, assigned []TopicPartition) {
	// Sets, not slices.Contains: a member over 10,000 partitions made this
	// a square of them (half the time of a group's protocol flips).
	isAssigned, wasPolled := setOf(assigned), setOf(m.pollOrder)
	var order []TopicPartition
	for _, tp := range m.pollOrder {
		if isAssigned.has(tp) {
			order = append(order, tp)
		}
	}
	for _, tp := range assigned {
		if !wasPolled.has(tp) {
			order = append(order, tp)
		}
	}
	for tp := range m.positions {
		if !isAssigned.has(tp) {
			delete(m.positions, tp)
		}
	}
	m.assigned = slices.Clone(assigned)
	m.pollOrder = order
	m.generation = g.generation
}

// becomeEmpty ends the group's last generation: with no members, there is
// nothing to assign and no reason to wait (Kafka moves the group to Empty
// with a new generation).
func (l *PartitionedLog) becomeEmpty(g *group, cause string, before Assignment) {
	startedAt := l.now
	if g.rebalance != nil {
		startedAt = g.rebalance.startedAt
		before = g.rebalance.before
	}
	g.rebalance = nil
	g.generation++
	record := RebalanceRecord{
		Generation:  g.generation,
		Strategy:    g.strategy,
		Cause:       cause,
		Round:       1,
		StartedAt:   startedAt,
		CompletedAt: l.now,
		Moved:       assign.MovedPartitions(before, Assignment{}),
		Members:     memberChanges(before, Assignment{}),
	}
	g.recordRebalance(record)
	l.emit(Event{Kind: EventRebalanceDone, Group: g.name, Generation: g.generation, Count: record.Moved, Detail: "the group is empty"})
}

func (g *group) recordRebalance(r RebalanceRecord) {
	if len(g.history) >= maxRebalanceHistory {
		g.history = slices.Delete(g.history, 0, len(g.history)-maxRebalanceHistory+1)
	}
	g.history = append(g.history, r)
}

// memberChanges lists, per member in either assignment (sorted by id), what
// it lost and what it gained.
func memberChanges(before, after Assignment) []MemberChange {
	var ids []string
	for id := range before {
		ids = append(ids, id)
	}
	for id := range after {
		if _, ok := before[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	changes := make([]MemberChange, 0, len(ids))
	for _, id := range ids {
		c := MemberChange{Member: id, Revoked: []TopicPartition{}, Assigned: []TopicPartition{}}
		had, has := setOf(before[id]), setOf(after[id])
		for _, tp := range before[id] {
			if has.has(tp) {
				c.Kept = append(c.Kept, tp)
			} else {
				c.Revoked = append(c.Revoked, tp)
			}
		}
		for _, tp := range after[id] {
			if !had.has(tp) {
				c.Assigned = append(c.Assigned, tp)
			}
		}
		_, stays := after[id]
		c.Left = !stays
		changes = append(changes, c)
	}
	return changes
}

// RebalanceRecord is one completed rebalance round.
type RebalanceRecord struct {
	Generation  int // the generation it produced
	Strategy    string
	Cause       string // e.g. "c2 joined", "c1's session timed out"
	Round       int    // 1; 2 for the follow-up round of cooperative-sticky
	StartedAt   int64
	CompletedAt int64
	// Paused is how many owned partitions nobody consumed while it ran.
	Paused int
	// Moved counts partitions whose owner changed, including to nobody
	// (revoked by a cooperative first round, or the group emptied). A
	// partition that had no owner is not counted.
	Moved int
	// HeldBack counts partitions a cooperative first round revoked and left
	// for the follow-up round.
	HeldBack int
	Members  []MemberChange // sorted by member id; members that left included
	// A record is never changed once the group has it: clones of the
	// group and views of it share its lists. Copying them made each of a
	// session's checkpoints hold the group's whole history again, 600 MB
	// for 1,700 rebalances of a group over 2,000 partitions.
}

// MemberChange is what one member lost and gained in a rebalance round.
type MemberChange struct {
	Member   string
	Revoked  []TopicPartition // owned before, not after
	Assigned []TopicPartition // owned after, not before
	Kept     []TopicPartition
	Left     bool // the member is no longer in the group
}

// assignmentWork is the work of assigning counts' partitions to members:
// an assignor weighs each partition for each member, and the group's
// bookkeeping then compares lists of partitions with each other (the
// consumer protocol's reconciliation and its epochs, slices searched in
// turn): measured, a rebalance over 2,000 partitions takes some eight
// times the members' share alone, a square of the partitions.
func assignmentWork(members int, counts map[string]int) int64 {
	p := totalOf(counts)
	return int64(members)*p + p*p/512
}

// totalOf adds up the partitions of counts' topics.
func totalOf(counts map[string]int) int64 {
	var n int64
	for _, c := range counts {
		n += int64(c)
	}
	return n
}
