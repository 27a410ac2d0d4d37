package core

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"plog/core/assign"
	"plog/core/units"
)

// The consumer group protocol of Kafka 4 (KIP-848), beside the classic one
// (groups.go, group_timing.go). A member joins with group.protocol=consumer
// (the Java client's default is classic: ConsumerConfig of kafka-clients
// 4.4); a group whose first member joins so is a consumer group, and its
// coordinator runs it as Kafka 4.4's group coordinator does
// (org.apache.kafka.coordinator.group.GroupMetadataManager.
// consumerGroupHeartbeat, modern/consumer/ConsumerGroup, ConsumerGroupMember,
// CurrentAssignmentBuilder, modern/TargetAssignmentBuilder):
//
//   - The group epoch is bumped whenever its membership or a subscription
//     changes (a member joins, leaves, is fenced at its session's end, a
//     subscribed topic gains partitions).
//   - A group epoch ahead of the target assignment's epoch makes the
//     coordinator compute a new target assignment with a server-side
//     assignor (uniform, the first of group.consumer.assignors, by default;
//     range; the members may ask for one with group.remote.assignor, and the
//     group takes the one most of them ask for, ConsumerGroup.
//     computePreferredServerAssignor). Kafka 4.4 computes it at most every
//     group.consumer.assignment.interval.ms (1s; GroupMetadataManager.
//     canComputeNextTargetAssignment): a change within that interval of
//     the last computation waits for the first heartbeat after it (rules
//     5; rules 4 compute it at the interval's end, consumerGroup.delayed).
//     Kafka 4.4 computes it within that heartbeat: its
//     group.consumer.assignor.offload.enable (true by default,
//     GroupCoordinatorConfig) is not read by its GroupMetadataManager, whose
//     consumerGroupAssignorOffloadEnable nothing calls, so the group is
//     Assigning only between a change and the heartbeat that computes it.
//     The target assignment epoch is then the group epoch.
//   - Each member moves to its target on its own, at its own heartbeats
//     (CurrentAssignmentBuilder): no group-wide barrier. A member first
//     gives up what its target no longer holds (its partitions pending
//     revocation), staying at its epoch; once it has revoked them it takes
//     its new epoch and the partitions of its target that no other member
//     owns; a partition another member still owns (or is still revoking)
//     is unreleased and waits, the member staying UNRELEASED_PARTITIONS
//     until a later heartbeat finds it free.
//   - The Java consumer reconciles in its background thread as soon as a
//     heartbeat answers (ConsumerMembershipManager, AbstractMembershipManager
//     of kafka-clients 4.4): with no rebalance listener it commits what it
//     consumed (with auto-commit on), revokes, and acknowledges in a
//     heartbeat sent at once; the playground does all that at the instant
//     of the heartbeat. A member learns of a new target only at its next
//     heartbeat, every group.consumer.heartbeat.interval.ms (5s; per group
//     consumer.heartbeat.interval.ms), so a partition moves from one member
//     to another over the two members' heartbeats.
//   - The coordinator fences a member that has not heartbeated for
//     group.consumer.session.timeout.ms (45s; per group
//     consumer.session.timeout.ms): a crash ends so. A member that leaves
//     sends a heartbeat with epoch -1 and is removed at once; a static
//     member (group.instance.id) sends -2 and keeps its partitions until its
//     session ends, for an instance that joins with its group.instance.id
//     to take back with no new epoch (GroupMetadataManager.
//     consumerGroupStaticMemberGroupLeave,
//     getOrMaybeSubscribeStaticConsumerGroupMember). A static member that
//     did not leave so cannot be replaced (UNRELEASED_INSTANCE_ID).
//   - The client makes its member id: a random UUID written as Kafka's Uuid
//     writes it, 22 characters of URL-safe base64 (AbstractMembershipManager,
//     org.apache.kafka.common.Uuid of kafka-clients 4.4); the playground
//     draws it from the seed (member_ids.go).
//   - An offset commit carries the member's epoch; one that is not the
//     member's current epoch is refused (STALE_MEMBER_EPOCH; ConsumerGroup.
//     validateOffsetCommit).

// The group protocols a member joins with (group.protocol).
const (
	ProtocolClassic  = "classic"
	ProtocolConsumer = "consumer"
)

// Protocols lists the group protocols, Kafka's client default first.
func Protocols() []string { return []string{ProtocolClassic, ProtocolConsumer} }

// The states of a consumer group (ConsumerGroup.ConsumerGroupState of Kafka
// 4.4), besides GroupEmpty and GroupStable.
const (
	GroupAssigning   = "assigning"
	GroupReconciling = "reconciling"
	// GroupDead is a group that was deleted (DeleteGroup), of either
	// protocol (ClassicGroupState.DEAD, ConsumerGroupState.DEAD).
	GroupDead = "dead"
)

// The states of a consumer group member (modern/MemberState of Kafka 4.4).
const (
	MemberStable     = "stable"
	MemberUnrevoked  = "unrevoked_partitions"
	MemberUnreleased = "unreleased_partitions"
)

// The epochs a leaving member sends (ConsumerGroupHeartbeatRequest's
// LEAVE_GROUP_MEMBER_EPOCH and LEAVE_GROUP_STATIC_MEMBER_EPOCH).
const (
	leaveEpoch       = -1
	staticLeaveEpoch = -2
)

// consumerAssignmentIntervalMs is group.consumer.assignment.interval.ms,
// Kafka 4.4's default (GroupCoordinatorConfig): the least time between two
// target assignments of a group.
const consumerAssignmentIntervalMs = 1000

// consumerGroup is what a consumer group adds to a group.
type consumerGroup struct {
	epoch       int // the group epoch
	targetEpoch int // the target assignment's epoch
	// target is each member's target assignment, by name, each in the
	// order of its target-assignment record (the assignor's answer), which
	// the next computation is given back as Kafka's coordinator gives it.
	target Assignment
	// assignor is the server-side assignor of the last target assignment.
	assignor string
	// lastTargetAt is when the last target assignment was computed, and
	// computed says one was.
	lastTargetAt int64
	computed     bool
	// counts are the partition counts the last target assignment gave
	// out. metadataStale says a subscribed topic gained partitions since:
	// the next heartbeat reads the topics again and bumps the group epoch.
	counts        map[string]int
	metadataStale bool
	// delayed says a heartbeat found the target assignment due within the
	// assignment interval: under rules 4 it is computed when the interval
	// ends. Kafka 4.4 schedules that only for streams groups
	// (GroupMetadataManager.computeDelayedTargetAssignment): a consumer
	// group's waits for the first heartbeat, or classic member's JoinGroup,
	// after the interval (maybeUpdateTargetAssignment), as under rules 5,
	// which leave delayed unset.
	delayed bool
}

func (c *consumerGroup) clone() *consumerGroup {
	if c == nil {
		return nil
	}
	d := *c
	d.target = cloneAssignment(c.target)
	d.counts = maps.Clone(c.counts)
	return &d
}

// consumerMember is what a member of a consumer group adds to a member.
type consumerMember struct {
	epoch int
	state string // MemberStable, MemberUnrevoked or MemberUnreleased
	// pendingRevoke is what the member must give up before its next epoch;
	// it owns it until it acknowledges the revocation.
	pendingRevoke []TopicPartition
	// epochs is the member epoch at which it got each partition it owns,
	// assigned or pending revocation (the assignment epochs of
	// ConsumerGroupMember's assignedPartitions and
	// partitionsPendingRevocation, Kafka 4.4), which a commit at an older
	// member epoch is checked against (checkCommitEpoch). An entry counts
	// only while the member owns the partition.
	epochs map[TopicPartition]int
	// remoteAssignor is the member's group.remote.assignor, "" for none.
	remoteAssignor string
	// lastHeartbeat is when it last heartbeated, from which its session
	// counts; nextHeartbeat when it heartbeats next.
	lastHeartbeat, nextHeartbeat int64
	// joined orders the members by when they joined (a static member
	// taking its instance back joins anew), the order the coordinator's
	// map of members gives the assignor (core/assign's AssignTarget).
	joined uint64
	// classic says the member uses the classic protocol inside the
	// consumer group (ConsumerGroupMember.useClassicProtocol): it joined
	// so, or came from the classic group the group was (group_migration.go).
	// It has no consumer heartbeats: it rejoins at its polls.
	classic bool
}

func (c *consumerMember) clone() *consumerMember {
	if c == nil {
		return nil
	}
	d := *c
	d.pendingRevoke = slices.Clone(c.pendingRevoke)
	d.epochs = maps.Clone(c.epochs)
	return &d
}

// setEpochs gives each partition of tps the assignment epoch epoch.
func (c *consumerMember) setEpochs(tps []TopicPartition, epoch int) {
	if c.epochs == nil {
		c.epochs = map[TopicPartition]int{}
	}
	for _, tp := range tps {
		c.epochs[tp] = epoch
	}
}

// consumer reports whether the group runs the consumer protocol.
func (g *group) consumer() bool { return g.cg != nil }

// protocolName is the group's protocol, as Kafka's describe names its type.
func (g *group) protocolName() string {
	if g.consumer() {
		return ProtocolConsumer
	}
	return ProtocolClassic
}

// consumerState is ConsumerGroup.maybeUpdateGroupState: Empty with no
// member, Assigning while the group epoch is ahead of the target's,
// Reconciling while a member is not stable at the target's epoch.
func (g *group) consumerState() string {
	switch {
	case len(g.members) == 0:
		return GroupEmpty
	case g.cg.epoch > g.cg.targetEpoch:
		return GroupAssigning
	}
	for _, m := range g.members {
		if m.cm.state != MemberStable || m.cm.epoch != g.cg.targetEpoch {
			return GroupReconciling
		}
	}
	return GroupStable
}

// checkConsumerJoin checks what a join brings for the group protocol: the
// client's configs (ConsumerConfig.checkUnsupportedConfigsPostProcess of
// kafka-clients 4.4 refuses a client-side partition.assignment.strategy or
// session.timeout.ms with group.protocol=consumer, and group.remote.assignor
// with classic), the server's assignor, and a group of the other protocol.
func (l *PartitionedLog) checkConsumerJoin(groupName string, g *group, memberID string, opts JoinOptions) error {
	protocol := opts.Protocol
	if protocol == "" {
		protocol = ProtocolClassic
	}
	if !slices.Contains(Protocols(), protocol) {
		return fmt.Errorf("group.protocol %q is not one of %s", opts.Protocol, strings.Join(Protocols(), ", "))
	}
	if protocol == ProtocolClassic {
		if opts.RemoteAssignor != "" {
			return fmt.Errorf("group.remote.assignor cannot be set when group.protocol=CLASSIC (Kafka's ConfigException): the classic protocol's members assign partitions themselves, with strategy=")
		}
		if g != nil && g.consumer() && len(g.members) > 0 {
			if !l.follows(ClassicTakesStaticInstance) && opts.InstanceID != "" && g.staticMember(opts.InstanceID) != nil {
				return fmt.Errorf("group %q is a consumer group and %q's group.instance.id %s is a member's: Kafka 4.4 lets a classic member take a static member's place in a consumer group, which the playground does from rules 5 on: join with group.protocol=consumer, or once the group is empty, or move to rules 5", g.name, memberID, opts.InstanceID)
			}
			return l.checkClassicIntoConsumer(g, memberID, opts.Strategy)
		}
		return nil
	}
	if !l.follows(ConsumerGroupProtocol) {
		return fmt.Errorf("group.protocol=consumer comes with rules 4; this scenario runs under rules %d", l.rules)
	}
	if opts.Strategy != "" {
		return fmt.Errorf("partition.assignment.strategy cannot be set when group.protocol=CONSUMER (Kafka's ConfigException): the coordinator assigns partitions with a server-side assignor; ask for one with group.remote.assignor=%s", strings.Join(assign.ServerAssignors(), "|"))
	}
	if opts.RemoteAssignor != "" && !slices.Contains(assign.ServerAssignors(), opts.RemoteAssignor) {
		return fmt.Errorf("ServerAssignor %s is not supported. Supported assignors: %s (Kafka: UNSUPPORTED_ASSIGNOR)", opts.RemoteAssignor, strings.Join(assign.ServerAssignors(), ", "))
	}
	config := DefaultGroupConfigUnder(l.rules)
	if g != nil {
		config = g.config
	}
	if config.SessionTimeoutMs != DefaultGroupConfigUnder(l.rules).SessionTimeoutMs {
		return fmt.Errorf("session.timeout.ms cannot be set when group.protocol=CONSUMER (Kafka's ConfigException): group %q has session.timeout.ms=%s; the coordinator's group.consumer.session.timeout.ms decides, per group consumer.session.timeout.ms", groupName, units.Duration(config.SessionTimeoutMs))
	}
	if g != nil && !g.consumer() && len(g.members) > 0 {
		if err := l.checkUpgrade(g); err != nil {
			return err
		}
	}
	if g != nil && g.consumer() && opts.InstanceID != "" {
		if old := g.staticMember(opts.InstanceID); old != nil && old.cm.epoch != staticLeaveEpoch && !old.classic() {
			return fmt.Errorf("static member %s with instance id %s cannot join the group because the instance id is owned by %s member (Kafka: UNRELEASED_INSTANCE_ID): %q has not left; it is released when it leaves or its session ends",
				memberID, opts.InstanceID, old.memberID, old.id)
		}
	}
	return nil
}

// becomeConsumerGroup makes an empty group a consumer group: Kafka deletes
// an empty classic group when a consumer-protocol member joins its id
// (GroupMetadataManager.getOrMaybeCreateConsumerGroup,
// maybeDeleteEmptyClassicGroup), keeping its committed offsets, which are
// the group id's. The new group's epochs are newConsumerGroupEpoch.
func (l *PartitionedLog) becomeConsumerGroup(g *group) {
	epoch := l.newConsumerGroupEpoch()
	g.cg = &consumerGroup{epoch: epoch, targetEpoch: epoch}
	g.generation = epoch
	g.config.protocol = ProtocolConsumer
	g.strategy, g.rebalance = "", nil // the coordinator assigns
	g.leader, g.seen, g.refreshPending = "", nil, false
}

// newConsumerGroupEpoch is the group epoch and target assignment epoch of a
// new consumer group. Kafka 4.4 makes one at 1 (modern.ModernGroup's
// constructor sets groupEpoch to 1, TargetAssignmentMetadata.INITIAL has
// epoch 1), so its first member's heartbeat makes it 2 (rules 5); rules 4
// start it at 0.
func (l *PartitionedLog) newConsumerGroupEpoch() int {
	if !l.follows(ConsumerGroupEpochFromOne) {
		return 0
	}
	return 1
}

// becomeClassicGroup makes an empty consumer group a classic group again,
// as a classic member joining an empty consumer group's id does. Kafka 4.4
// deletes the consumer group and makes a new classic group, at generation
// 0 (GroupMetadataManager.classicGroupJoinToClassicGroup,
// maybeDeleteEmptyConsumerGroup, getOrMaybeCreateClassicGroup): rules 5;
// rules 4 keep the consumer group's epoch as the generation.
func (l *PartitionedLog) becomeClassicGroup(g *group) {
	g.cg = nil
	g.config.protocol = ""
	if l.follows(ConsumerGroupEpochFromOne) {
		g.generation = 0
	}
}

// joinConsumer is Join for a consumer-protocol member: its first heartbeat
// (epoch 0), which makes it a member and bumps the group epoch, or a
// static member taking back its group.instance.id, or a member's new
// subscription.
func (l *PartitionedLog) joinConsumer(g *group, name string, opts JoinOptions, topics []string) {
	if len(g.members) == 0 && !g.consumer() {
		l.becomeConsumerGroup(g)
	} else if !g.consumer() {
		l.upgradeToConsumerGroup(g, name)
	}
	if opts.InstanceID != "" {
		if old := g.staticMember(opts.InstanceID); old != nil {
			l.replaceConsumerStatic(g, old, name, topics, opts.RemoteAssignor)
			return
		}
	}
	if m := g.member(name); m != nil {
		m.topics = topics
		m.cm.remoteAssignor = opts.RemoteAssignor
		l.bumpGroupEpochInHeartbeat(g, name+" subscribed to "+strings.Join(topics, ","))
		l.heartbeat(g, m)
		return
	}
	m := &member{id: name, instanceID: opts.InstanceID, memberID: l.newConsumerMemberID(), topics: topics,
		lastAutoCommit: l.now, joinedAt: l.now, lastPoll: l.now,
		cm: &consumerMember{state: MemberStable, remoteAssignor: opts.RemoteAssignor, joined: l.groups.memberIDsMade}}
	g.insertMember(m)
	l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: name, Detail: "subscribed to " + strings.Join(topics, ",") + " (group.protocol=consumer)"})
	l.bumpGroupEpochInHeartbeat(g, name+" joined")
	l.heartbeat(g, m)
}

// replaceConsumerStatic lets a member take the place of the static member
// that left with its group.instance.id: a new member id, epoch 0, and the
// old member's assignment, which its first heartbeat confirms at the
// target's epoch with no new group epoch unless the subscription changed
// (GroupMetadataManager.getOrMaybeSubscribeStaticConsumerGroupMember).
func (l *PartitionedLog) replaceConsumerStatic(g *group, old *member, name string, topics []string, remoteAssignor string) {
	g.removeMember(old)
	m := old.clone()
	m.id, m.down, m.expiresAt = name, "", 0
	m.memberID = l.newConsumerMemberID()
	m.joinedAt, m.lastPoll, m.lastAutoCommit = l.now, l.now, l.now
	m.positions = map[TopicPartition]int64{}
	m.pollOrder = slices.Clone(m.assigned)
	m.inFlightFrom, m.inFlightTo = 0, 0
	m.cm.epoch, m.cm.remoteAssignor, m.cm.joined = 0, remoteAssignor, l.groups.memberIDsMade
	m.cm.classic, m.cm.pendingRevoke = false, nil // a classic static member's place taken with the consumer protocol
	m.cm.state = MemberStable
	defer g.forgetClassicStrategy()
	if target, ok := g.cg.target[old.id]; ok {
		delete(g.cg.target, old.id)
		g.cg.target[name] = target
	}
	g.insertMember(m)
	same := slices.Equal(m.topics, topics)
	m.topics = topics
	if same {
		l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: name, Detail: "static member " + m.instanceID + " is back: same partitions, no new group epoch", Cause: CauseStaticReturn})
	} else {
		l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: name, Detail: "static member " + m.instanceID + " is back with a new subscription", Cause: CauseStaticReturn})
		l.bumpGroupEpochInHeartbeat(g, name+" subscribed to "+strings.Join(topics, ","))
	}
	l.heartbeat(g, m)
}

// bumpGroupEpoch is a change of membership or subscription.
func (l *PartitionedLog) bumpGroupEpoch(g *group, cause string) {
	g.cg.epoch++
	g.generation = g.cg.epoch
	l.emit(Event{Kind: EventGroupEpoch, Group: g.name, Generation: g.cg.epoch, Detail: cause})
}

// bumpGroupEpochInHeartbeat bumps the group epoch for a heartbeat that
// joins or changes a subscription. Kafka 4.4 bumps it once for that
// heartbeat, whether the subscription changed, the topics gained
// partitions, or both (GroupMetadataManager.consumerGroupHeartbeat:
// bumpGroupEpoch from hasMemberSubscriptionChanged, set again by
// updateSubscriptionMetadata when the subscribed topics' metadata
// changed, then groupEpoch + 1 once), so under rules 6 the new partitions
// the heartbeat would read (metadataStale) are read here, in the same
// bump; rules 5 leave them to heartbeat, which bumps again.
func (l *PartitionedLog) bumpGroupEpochInHeartbeat(g *group, cause string) {
	if l.follows(OneEpochBumpPerHeartbeat) && g.cg.metadataStale {
		g.cg.metadataStale = false
		if changed := l.consumerTopicsChanged(g); changed != "" {
			cause += "; " + changed
		}
	}
	l.bumpGroupEpoch(g, cause)
}

// heartbeat is a member's ConsumerGroupHeartbeat and what its client does
// with the answer: the coordinator reads new partitions of the topics,
// computes a new target assignment when the group epoch is ahead of it and
// the assignment interval allows, and reconciles the member; the client
// revokes what it must give up and acknowledges at once, in a heartbeat
// the coordinator reconciles in turn.
func (l *PartitionedLog) heartbeat(g *group, m *member) {
	// No unit of work (MaxWork counted the advance's instants), but a
	// reconciliation over thousands of partitions takes time: the meter
	// may let the page's browser run between two heartbeats.
	l.work(0)
	m.cm.lastHeartbeat = l.now
	m.cm.nextHeartbeat = l.now + g.config.ConsumerHeartbeatIntervalMs
	if g.cg.metadataStale {
		g.cg.metadataStale = false
		if changed := l.consumerTopicsChanged(g); changed != "" {
			l.bumpGroupEpoch(g, changed)
		}
	}
	l.maybeComputeTarget(g)
	l.reconcile(g, m)
	if len(m.cm.pendingRevoke) > 0 {
		l.revokePending(g, m)
		l.reconcile(g, m)
	}
}

// consumerTopicsChanged says which subscribed topics have more partitions
// than the last target assignment gave out, "" when none.
func (l *PartitionedLog) consumerTopicsChanged(g *group) string {
	counts := l.partitionCounts(g)
	var parts []string
	for _, topic := range slices.Sorted(maps.Keys(counts)) {
		if was, ok := g.cg.counts[topic]; ok && counts[topic] != was {
			parts = append(parts, fmt.Sprintf("topic %s now has %d partitions", topic, counts[topic]))
		}
	}
	return strings.Join(parts, ", ")
}

// canComputeTarget is GroupMetadataManager.canComputeNextTargetAssignment
// of Kafka 4.4: the first target assignment at once, the next ones at
// least group.consumer.assignment.interval.ms after the last.
func (l *PartitionedLog) canComputeTarget(g *group) bool {
	return !g.cg.computed || l.now >= g.cg.lastTargetAt+consumerAssignmentIntervalMs
}

// preferredAssignor is ConsumerGroup.computePreferredServerAssignor: the
// group.remote.assignor most members ask for (ties to the first of
// assign.ServerAssignors), else the default, the first of
// group.consumer.assignors (uniform).
func (g *group) preferredAssignor() string {
	counts := map[string]int{}
	for _, m := range g.members {
		if m.cm.remoteAssignor != "" {
			counts[m.cm.remoteAssignor]++
		}
	}
	best, most := assign.Uniform, 0
	for _, a := range assign.ServerAssignors() {
		if counts[a] > most {
			best, most = a, counts[a]
		}
	}
	return best
}

// describedAssignor is the assignor a consumer group is described with.
// Kafka 4.4 describes the members' preferred server assignor, else the
// brokers' default (ConsumerGroup.asDescribedGroup:
// preferredServerAssignor(committedOffset).orElse(defaultAssignor)), so
// an emptied group, with no member to prefer one, names the default,
// uniform, the first of group.consumer.assignors (rules 6). Rules 5 keep
// the assignor of the last target assignment, the last members' choice.
func (l *PartitionedLog) describedAssignor(g *group) string {
	if len(g.members) == 0 && l.follows(EmptiedGroupDefaultAssignor) {
		return assign.Uniform
	}
	return g.cg.assignor
}

// computeTarget runs the server-side assignor over every member (those that
// stopped too: they are members until their session ends), each with its
// current target, as TargetAssignmentBuilder does, and makes the group
// epoch the target assignment's epoch. The members come from a valid group
// and the assignor from assign.ServerAssignors, so it cannot fail; were it
// to, the target would stay as it was.
func (l *PartitionedLog) computeTarget(g *group) {
	assignor := g.preferredAssignor()
	byJoin := slices.Clone(g.members)
	slices.SortFunc(byJoin, func(a, b *member) int { return cmp.Compare(a.cm.joined, b.cm.joined) })
	members := make([]assign.TargetMember, 0, len(byJoin))
	for _, m := range byJoin {
		members = append(members, assign.TargetMember{ID: m.memberID, InstanceID: m.instanceID, Topics: slices.Clone(m.topics), Target: slices.Clone(g.cg.target[m.id])})
	}
	counts := l.partitionCounts(g)
	l.work(assignmentWork(len(members), counts))
	plan, err := assign.AssignTargetInRecordOrder(assignor, members, counts, nil)
	l.work(0) // the meter breathes after a long piece of work, before the bookkeeping
	if err != nil {
		return
	}
	target := make(Assignment, len(g.members))
	for _, m := range g.members {
		target[m.id] = slices.Clone(plan[m.memberID])
	}
	before := g.cg.target
	g.cg.target, g.cg.assignor = target, assignor
	g.cg.targetEpoch = g.cg.epoch
	g.cg.lastTargetAt, g.cg.computed, g.cg.delayed, g.cg.counts = l.now, true, false, counts
	record := RebalanceRecord{
		Generation:  g.cg.targetEpoch,
		Strategy:    assignor,
		Cause:       "target assignment of group epoch " + fmt.Sprint(g.cg.epoch),
		Round:       1,
		StartedAt:   l.now,
		CompletedAt: l.now,
		Moved:       assign.MovedPartitions(before, target),
		Members:     memberChanges(sortedAssignment(before), sortedAssignment(target)),
	}
	g.recordRebalance(record)
	l.emit(Event{Kind: EventTargetAssignment, Group: g.name, Generation: g.cg.targetEpoch, Count: record.Moved, Detail: "assignor " + assignor})
}

// ownedByOthers is the subset of tps that a member other than m owns, in
// its assignment or still revoking it (Kafka 4.4's
// CurrentAssignmentBuilder: currentPartitionEpoch is not -1 for them). One
// pass over the other members' partitions, rather than one per partition
// asked about.
func (g *group) ownedByOthers(m *member, tps []TopicPartition) partitionSet {
	var owned partitionSet
	if len(tps) == 0 {
		return owned
	}
	asked := setOf(tps)
	for _, o := range g.members {
		if o == m {
			continue
		}
		for _, list := range [][]TopicPartition{o.assigned, o.cm.pendingRevoke} {
			for _, tp := range list {
				if asked.has(tp) {
					owned.add(tp, len(tps))
				}
			}
		}
	}
	return owned
}

// reconcile is CurrentAssignmentBuilder.build of Kafka 4.4 for a member's
// heartbeat: a stable member behind the target's epoch, or one waiting for
// unreleased partitions, moves on; one that still owns partitions pending
// revocation waits. One that has revoked them computes its next assignment
// from its epoch, and should a newer target have it revoke more, stays at
// that epoch (UNREVOKED_PARTITIONS: computeNextAssignment(memberEpoch));
// rules 4 gave it its epoch plus one.
func (l *PartitionedLog) reconcile(g *group, m *member) {
	switch c := m.cm; c.state {
	case MemberStable:
		if c.epoch != g.cg.targetEpoch {
			l.nextAssignment(g, m, c.epoch)
		}
	case MemberUnrevoked:
		if len(c.pendingRevoke) == 0 {
			epoch := c.epoch
			if !l.follows(RevokeAgainKeepsEpoch) {
				epoch++
			}
			l.nextAssignment(g, m, epoch)
		}
	case MemberUnreleased:
		l.nextAssignment(g, m, c.epoch)
	}
}

// nextAssignment is CurrentAssignmentBuilder.computeNextAssignment: keep
// what the target keeps, revoke the rest first (at epoch), and once
// nothing is left to revoke take the target's epoch and every partition of
// the target no other member owns.
func (l *PartitionedLog) nextAssignment(g *group, m *member, epoch int) {
	target := g.memberTarget(m)
	inTarget := setOf(target)
	var kept, revoke, add []TopicPartition
	unreleased := false
	for _, tp := range m.assigned {
		if inTarget.has(tp) {
			kept = append(kept, tp)
		} else {
			revoke = append(revoke, tp)
		}
	}
	isKept := setOf(kept)
	var missing []TopicPartition
	for _, tp := range target {
		if !isKept.has(tp) {
			missing = append(missing, tp)
		}
	}
	owned := g.ownedByOthers(m, missing)
	for _, tp := range missing {
		if owned.has(tp) {
			unreleased = true
		} else {
			add = append(add, tp)
		}
	}
	c := m.cm
	was := c.epoch
	if len(revoke) > 0 {
		c.state, c.epoch, c.pendingRevoke = MemberUnrevoked, epoch, revoke
		l.setConsumerAssignment(g, m, kept)
		l.emit(Event{Kind: EventMemberReconciled, Group: g.name, Member: m.id, Generation: c.epoch,
			Detail: fmt.Sprintf("revoke %s before epoch %d", partitionList(revoke), g.cg.targetEpoch)})
		return
	}
	c.state, c.epoch, c.pendingRevoke = MemberStable, g.cg.targetEpoch, nil
	if unreleased {
		c.state = MemberUnreleased
	}
	assigned := append(kept, add...)
	slices.SortFunc(assigned, assign.ComparePartitions)
	l.setConsumerAssignment(g, m, assigned)
	if len(add) > 0 || was != c.epoch {
		detail := "at the target assignment's epoch"
		if len(add) > 0 {
			detail = "assigned " + partitionList(add)
		}
		if unreleased {
			detail += "; waits for partitions other members still own"
		}
		l.emit(Event{Kind: EventMemberReconciled, Group: g.name, Member: m.id, Generation: c.epoch, Detail: detail})
	}
}

// setConsumerAssignment gives a consumer member the partitions it owns now
// (besides those pending revocation, which it still owns): a partition new
// to it joins the back of its poll order and starts, at its next poll,
// from the committed offset.
func (l *PartitionedLog) setConsumerAssignment(g *group, m *member, assigned []TopicPartition) {
	// A partition new to the member is assigned at its epoch now, the
	// target's (CurrentAssignmentBuilder.computeNextAssignment); one it
	// keeps, or is revoking, keeps its epoch.
	var added []TopicPartition
	owns := setOf(m.assigned, m.cm.pendingRevoke)
	for _, tp := range assigned {
		if _, ok := m.cm.epochs[tp]; !ok || !owns.has(tp) {
			added = append(added, tp)
		}
	}
	m.cm.setEpochs(added, m.cm.epoch)
	m.assigned = slices.Clone(assigned)
	m.generation = m.cm.epoch
	polled := setOf(m.pollOrder)
	for _, tp := range assigned {
		if !polled.has(tp) {
			m.pollOrder = append(m.pollOrder, tp)
			polled.add(tp, 0)
		}
	}
}

// revokePending is the client's revocation: with auto-commit on it commits
// what it consumed first (the Java consumer's auto-commit before
// revocation), then stops reading the partitions, and acknowledges.
func (l *PartitionedLog) revokePending(g *group, m *member) {
	revoked := m.cm.pendingRevoke
	if g.config.AutoCommit {
		l.commitPartitions(g, m, append(slices.Clone(m.assigned), revoked...))
	}
	for _, tp := range revoked {
		delete(m.positions, tp)
	}
	gone := setOf(revoked)
	m.pollOrder = slices.DeleteFunc(m.pollOrder, func(tp TopicPartition) bool { return gone.has(tp) })
	m.cm.pendingRevoke = nil
}

// partitionList writes partitions as topic/partition, comma-separated.
func partitionList(tps []TopicPartition) string {
	parts := make([]string, len(tps))
	for i, tp := range tps {
		parts[i] = fmt.Sprintf("%s/%d", tp.Topic, tp.Partition)
	}
	return strings.Join(parts, ",")
}

// departure is why a member leaves: the learner's sentence, and its cause
// when readers act on it.
type departure struct {
	cause Cause
	text  string
}

// leaveConsumer is a member's leave heartbeat: epoch -1 removes a dynamic
// member and bumps the group epoch (GroupMetadataManager.consumerGroupLeave);
// a static member sends -2 and the coordinator keeps it, and its
// partitions, until its session ends (consumerGroupStaticMemberGroupLeave).
func (l *PartitionedLog) leaveConsumer(g *group, m *member, why departure) {
	if m.instanceID != "" && m.classic() {
		// A classic static member sends no LeaveGroup (KIP-345): it
		// stays until its session times out.
		m.down, m.expiresAt = "left", l.now+g.config.SessionTimeoutMs
		clear(m.positions)
		l.emit(Event{Kind: EventMemberStopped, Group: g.name, Member: m.id,
			Detail: "shut down without LeaveGroup (static classic member); session expires at " + units.Duration(m.expiresAt)})
		return
	}
	if m.instanceID != "" {
		// Its partitions' assignment epochs go to 0
		// (ConsumerGroupMember.Builder.resetAssignedPartitionsEpochsToZero).
		m.cm.epoch, m.cm.pendingRevoke = staticLeaveEpoch, nil
		m.cm.epochs = nil
		m.cm.setEpochs(m.assigned, 0)
		m.down, m.expiresAt = "left", l.now+g.config.ConsumerSessionTimeoutMs
		clear(m.positions)
		l.emit(Event{Kind: EventMemberStopped, Group: g.name, Member: m.id, Generation: staticLeaveEpoch,
			Detail: "left with epoch -2 (static member): its partitions wait for its group.instance.id until its session expires at " + units.Duration(m.expiresAt)})
		return
	}
	l.removeConsumerMember(g, m, why)
}

// removeConsumerMember removes a member and bumps the group epoch
// (GroupMetadataManager.consumerGroupFenceMembers of Kafka 4.4). Under
// rules 5 the last member's leaving also writes the emptied group's target
// assignment at the new group epoch, with no assignment time, so the next
// member's target is computed at once (newConsumerGroupTargetAssignment
// MetadataRecord with timestamp 0 when every member is fenced;
// canComputeNextTargetAssignment); rules 4 keep the target's epoch and
// time.
func (l *PartitionedLog) removeConsumerMember(g *group, m *member, why departure) {
	if l.downgradeOnLeave(g, m, why) {
		return
	}
	g.removeMember(m)
	g.forgetClassicStrategy()
	delete(g.cg.target, m.id)
	l.emit(Event{Kind: EventMemberLeft, Group: g.name, Member: m.id, Detail: why.text, Cause: why.cause})
	l.bumpGroupEpoch(g, m.id+" left: "+why.text)
	if l.follows(EmptiedGroupTargetAtNewEpoch) && len(g.members) == 0 {
		g.cg.targetEpoch = g.cg.epoch
		g.cg.lastTargetAt, g.cg.computed = 0, false
	}
}

// crashConsumer stops a member's heartbeats: the coordinator fences it when
// its session, counted from its last heartbeat, ends.
func (l *PartitionedLog) crashConsumer(g *group, m *member, why string) {
	m.down = why
	clear(m.positions)
	if m.classic() {
		// A classic member's session.timeout.ms counts from its last
		// heartbeat, every heartbeat.interval.ms: from now, as the
		// playground's classic groups count it.
		m.expiresAt = l.now + g.config.SessionTimeoutMs
		l.emit(Event{Kind: EventMemberStopped, Group: g.name, Member: m.id, Detail: why + " (classic member); session expires at " + units.Duration(m.expiresAt)})
		return
	}
	m.expiresAt = m.cm.lastHeartbeat + g.config.ConsumerSessionTimeoutMs
	l.emit(Event{Kind: EventMemberStopped, Group: g.name, Member: m.id, Detail: why + "; its last heartbeat was at " + units.Duration(m.cm.lastHeartbeat) +
		", so its session (consumer.session.timeout.ms) ends at " + units.Duration(m.expiresAt)})
}

// nextConsumerDeadline is a consumer group's next timer: a heartbeat, a
// max.poll.interval.ms running out, a session ending, a delayed target
// assignment.
func (g *group) nextConsumerDeadline() (at int64, ok bool) {
	take := func(t int64) {
		if !ok || t < at {
			at, ok = t, true
		}
	}
	for _, m := range g.members {
		if m.down != "" {
			take(m.expiresAt)
			continue
		}
		if !m.classic() {
			take(m.cm.nextHeartbeat)
		}
		take(g.pollDeadline(m))
	}
	if g.cg.delayed && g.cg.epoch > g.cg.targetEpoch && len(g.members) > 0 {
		take(g.cg.lastTargetAt + consumerAssignmentIntervalMs)
	}
	return at, ok
}

// runConsumerTimers fires a consumer group's timers due at now: sessions
// that end, members whose max.poll.interval.ms ran out, a delayed target
// assignment, then the heartbeats due, in the members' order.
func (l *PartitionedLog) runConsumerTimers(g *group, now int64) {
	// A member gone may turn the group back into a classic group
	// (group_migration.go): the classic group's timers due now run at the
	// next round of timers, at the same instant.
	for _, m := range slices.Clone(g.members) {
		if g.consumer() && m.down != "" && m.expiresAt <= now && g.member(m.id) == m {
			timeout := "consumer.session.timeout.ms"
			if m.classic() {
				timeout = "session.timeout.ms"
			}
			l.removeConsumerMember(g, m, departure{CauseFenced, "fenced: its session timed out (" + timeout + ")"})
		}
	}
	for _, m := range slices.Clone(g.members) {
		if g.consumer() && m.down == "" && g.pollDeadline(m) <= now && g.member(m.id) == m {
			// The client's poll timer expired: it sends its leave
			// heartbeat, -1, or -2 for a static member
			// (AbstractMembershipManager.transitionToSendingLeaveGroup,
			// ConsumerMembershipManager.leaveGroupEpoch of kafka-clients
			// 4.4), without committing; a classic member's heartbeat
			// thread sends LeaveGroup (AbstractCoordinator's
			// HeartbeatThread), a static one none.
			l.finishInFlight(g, m)
			how := "it left the group with epoch -1"
			if m.classic() {
				how = "its heartbeat thread sent LeaveGroup"
			}
			l.leaveConsumer(g, m, departure{CausePollTimeout, fmt.Sprintf("did not poll within max.poll.interval.ms (%s): %s", units.Duration(g.config.MaxPollIntervalMs), how)})
			if m.instanceID != "" {
				m.down = stoppedPolling
			}
		}
	}
	if !g.consumer() {
		return
	}
	if g.cg.delayed && g.cg.epoch > g.cg.targetEpoch && len(g.members) > 0 && l.canComputeTarget(g) {
		l.computeTarget(g) // rules 4: at the assignment interval's end
	}
	for _, m := range slices.Clone(g.members) {
		if m.down == "" && !m.classic() && m.cm.nextHeartbeat <= now && g.member(m.id) == m {
			l.heartbeat(g, m)
		}
	}
}

// checkCommitEpoch checks the member epoch a commit carries against the
// member's (ConsumerGroup.validateOffsetCommit of Kafka 4.4), for the
// partitions tps it commits. Rules 4 refuse any epoch but the member's.
// Rules 5 follow Kafka 4.4: an epoch newer than the member's is refused;
// an older one is taken for a partition the member has owned since that
// epoch or before (createAssignmentEpochValidator: the partition's
// assignment epoch, assigned or pending revocation), and one partition
// that fails refuses the whole commit (OffsetMetadataManager.commitOffset
// lets the validator's exception fail the request). A classic member of a
// consumer group commits with its generation and is refused with
// ILLEGAL_GENERATION.
func (l *PartitionedLog) checkCommitEpoch(g *group, m *member, epoch int, tps []TopicPartition) error {
	if !g.consumer() {
		return fmt.Errorf("group %q runs the classic protocol, whose commits carry the generation, not a member epoch: epoch= is for consumer groups (group.protocol=consumer)", g.name)
	}
	if !l.follows(CommitAtOlderMemberEpoch) {
		if epoch != m.cm.epoch {
			return fmt.Errorf("the received member epoch %d does not match the expected member epoch %d (Kafka: STALE_MEMBER_EPOCH): %s's epoch is %d since its last heartbeat",
				epoch, m.cm.epoch, m.id, m.cm.epoch)
		}
		return nil
	}
	what, code := "member epoch", "STALE_MEMBER_EPOCH"
	if m.classic() {
		what, code = "generation id", "ILLEGAL_GENERATION"
	}
	switch {
	case epoch == m.cm.epoch:
		return nil
	case epoch > m.cm.epoch:
		kafka := fmt.Sprintf("Received %s %d is newer than current member epoch %d.", what, epoch, m.cm.epoch)
		return fmt.Errorf("%s (Kafka: %s): %s's epoch is %d since its last heartbeat", kafka, code, m.id, m.cm.epoch)
	}
	for _, tp := range tps {
		assigned, ok := m.assignmentEpoch(tp)
		var kafka string
		switch {
		case !ok:
			kafka = fmt.Sprintf("Partition %s-%d is not assigned or pending revocation for member.", tp.Topic, tp.Partition)
		case epoch < assigned:
			kafka = fmt.Sprintf("Received %s %d is older than assignment epoch %d for partition %s-%d.", what, epoch, assigned, tp.Topic, tp.Partition)
		default:
			continue
		}
		return fmt.Errorf("%s (Kafka: %s): a commit at an older epoch than %s's %d is taken only for the partitions it has owned since that epoch", kafka, code, m.id, m.cm.epoch)
	}
	return nil
}

// assignmentEpoch is the epoch at which the member got tp, assigned or
// pending revocation; ok is false when it does not own tp.
func (m *member) assignmentEpoch(tp TopicPartition) (epoch int, ok bool) {
	if !slices.Contains(m.assigned, tp) && !slices.Contains(m.cm.pendingRevoke, tp) {
		return 0, false
	}
	epoch, ok = m.cm.epochs[tp]
	return epoch, ok
}

// consumerWhyNothing says why a consumer group member's poll got nothing
// for want of partitions; "" when it has some to read.
func (l *PartitionedLog) consumerWhyNothing(g *group, m *member) string {
	if len(m.assigned) > 0 {
		return ""
	}
	target := g.memberTarget(m)
	if m.classic() {
		if len(target) > 0 {
			return fmt.Sprintf("%s's target assignment is %s, but other members still own them: a classic member rejoins (JoinGroup, SyncGroup) in a poll once they are released", m.id, partitionList(target))
		}
		return fmt.Sprintf("%s has no partitions: its target assignment is empty (group epoch %d, target assignment epoch %d)", m.id, g.cg.epoch, g.cg.targetEpoch)
	}
	switch {
	case g.cg.epoch > g.cg.targetEpoch:
		return fmt.Sprintf("%s has no partitions yet: the coordinator computes the target assignment of group epoch %d at a heartbeat (at most every group.consumer.assignment.interval.ms, 1s), and %s's next heartbeat is at %s",
			m.id, g.cg.epoch, m.id, units.Duration(m.cm.nextHeartbeat))
	case len(target) > 0:
		return fmt.Sprintf("%s's target assignment is %s, but other members still own them: it gets each once its owner has revoked it, at its own next heartbeat at %s",
			m.id, partitionList(target), units.Duration(m.cm.nextHeartbeat))
	}
	return fmt.Sprintf("%s has no partitions: the assignor %s gave every partition of its topics to other members", m.id, g.cg.assignor)
}

// pendingRevocation is what the member owns outside its target: the
// partitions it was told to revoke (ConsumerGroupMember.
// partitionsPendingRevocation of Kafka 4.4), then those of its assignment a
// new target no longer holds, which its next heartbeat tells it to revoke
// (the client revokes within the heartbeat that tells it, so between two
// instants the second kind is what waits).
func (g *group) pendingRevocation(m *member) []TopicPartition {
	inTarget := setOf(g.memberTarget(m))
	pending := slices.Clone(m.cm.pendingRevoke)
	listed := setOf(pending)
	for _, tp := range m.assigned {
		if !inTarget.has(tp) && !listed.has(tp) {
			pending = append(pending, tp)
			listed.add(tp, 0)
		}
	}
	return pending
}

// pendingAssignment is what the member's target holds that it does not own
// yet: partitions waiting for their owner to release them, or for the
// member's next heartbeat.
func (g *group) pendingAssignment(m *member) []TopicPartition {
	var pending []TopicPartition
	owns := setOf(m.assigned)
	for _, tp := range g.memberTarget(m) {
		if !owns.has(tp) {
			pending = append(pending, tp)
		}
	}
	return pending
}

// ServerAssignors lists the server-side assignors a consumer-protocol
// member may ask for with group.remote.assignor, the default first
// (Kafka 4.4's group.consumer.assignors: uniform, range; core/assign).
func ServerAssignors() []string { return assign.ServerAssignors() }

// memberTarget is a member's target assignment, sorted.
func (g *group) memberTarget(m *member) []TopicPartition {
	tps := slices.Clone(g.cg.target[m.id])
	slices.SortFunc(tps, assign.ComparePartitions)
	return tps
}

// sortedAssignment is a copy of an assignment with each member's
// partitions sorted.
func sortedAssignment(a Assignment) Assignment {
	out := cloneAssignment(a)
	for _, tps := range out {
		slices.SortFunc(tps, assign.ComparePartitions)
	}
	return out
}
