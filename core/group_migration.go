package core

import (
	"fmt"
	"slices"
	"strings"

	"plog/core/assign"
)

// The online upgrade and downgrade between the classic group protocol and
// the consumer group protocol (KIP-848), as Kafka 4.4's group coordinator
// runs them under the broker's group.consumer.migration.policy
// (org.apache.kafka.coordinator.group.ConsumerGroupMigrationPolicy,
// GroupCoordinatorConfig; Kafka's default bidirectional):
//
//   - A consumer-protocol member joining a classic group with members
//     converts the group to a consumer group when the policy allows the
//     upgrade (GroupMetadataManager.getOrMaybeCreateConsumerGroup,
//     validateOnlineUpgrade, convertToConsumerGroup): the group epoch and
//     target assignment epoch are the classic generation, and each classic
//     member stays a member, at that epoch, with its assignment as its
//     target (ConsumerGroup.fromClassicGroup). A rebalance the classic group
//     was running is dropped: its members' JoinGroup answers
//     REBALANCE_IN_PROGRESS. An empty classic group is simply replaced,
//     whatever the policy (maybeDeleteEmptyClassicGroup).
//   - The classic members keep the classic protocol inside the consumer
//     group. The coordinator answers a classic member's heartbeat
//     REBALANCE_IN_PROGRESS when its epoch is behind the target assignment's,
//     when it has partitions to revoke, or when partitions it waits for were
//     released (classicGroupHeartbeatToConsumerGroup); the member then
//     rejoins with JoinGroup and SyncGroup and gets its next assignment
//     toward its target from the same reconciliation as any member
//     (classicGroupJoinToConsumerGroup, classicGroupSyncToConsumerGroup).
//     The Java consumer rejoins inside its poll (ConsumerCoordinator.poll of
//     kafka-clients 4.4): the playground lets a classic member rejoin at its
//     next poll, as if its heartbeat thread (every heartbeat.interval.ms,
//     3s) had already heard the answer. An eager member (range, roundrobin,
//     sticky) revokes everything before it rejoins (onJoinPrepare) and learns
//     of a revocation at its next rejoin; a cooperative-sticky member
//     revokes what its assignment left out and rejoins at once, in the same
//     poll (onJoinComplete, joinGroupIfNeeded).
//   - A classic member may also join a consumer group with members, unless
//     the policy is disabled (throwIfClassicMemberCannotJoinConsumerGroup:
//     INCONSISTENT_GROUP_PROTOCOL).
//   - When the last consumer-protocol member leaves or is fenced and
//     classic members remain, the group converts back to a classic group if
//     the policy allows the downgrade (validateOnlineDowngradeWithFencedMembers,
//     convertToClassicGroup, ClassicGroup.fromConsumerGroup): its generation
//     is the group epoch, each member's assignment its target, and a
//     rebalance starts at once, which the members rejoin by polling.

// The values of group.consumer.migration.policy
// (ConsumerGroupMigrationPolicy of Kafka 4.4).
const (
	MigrationBidirectional = "bidirectional"
	MigrationUpgrade       = "upgrade"
	MigrationDowngrade     = "downgrade"
	MigrationDisabled      = "disabled"
)

// MigrationPolicies lists group.consumer.migration.policy's values, Kafka's
// default first.
func MigrationPolicies() []string {
	return []string{MigrationBidirectional, MigrationUpgrade, MigrationDowngrade, MigrationDisabled}
}

// migrationPolicyConfig is the policy's name in Kafka.
const migrationPolicyConfig = "group.consumer.migration.policy"

// SetConsumerMigrationPolicy sets the brokers' group.consumer.migration.policy
// (Kafka reads it case-insensitively: ConsumerGroupMigrationPolicy.parse).
func (l *PartitionedLog) SetConsumerMigrationPolicy(policy string) error {
	p := strings.ToLower(policy)
	if !slices.Contains(MigrationPolicies(), p) {
		return fmt.Errorf("%s %q is not one of %s", migrationPolicyConfig, policy, strings.Join(MigrationPolicies(), ", "))
	}
	l.groups.migrationPolicy = p
	if p == MigrationBidirectional {
		l.groups.migrationPolicy = "" // the default
	}
	return nil
}

// ConsumerMigrationPolicy is the brokers' group.consumer.migration.policy.
func (l *PartitionedLog) ConsumerMigrationPolicy() string {
	if l.groups.migrationPolicy == "" {
		return MigrationBidirectional
	}
	return l.groups.migrationPolicy
}

// upgradeAllowed and downgradeAllowed are the policy's isUpgradeEnabled and
// isDowngradeEnabled.
func (l *PartitionedLog) upgradeAllowed() bool {
	p := l.ConsumerMigrationPolicy()
	return p == MigrationBidirectional || p == MigrationUpgrade
}

func (l *PartitionedLog) downgradeAllowed() bool {
	p := l.ConsumerMigrationPolicy()
	return p == MigrationBidirectional || p == MigrationDowngrade
}

// checkUpgrade is validateOnlineUpgrade for a consumer-protocol member
// joining a classic group with members. Every playground group uses the
// consumer embedded protocol, and its built-in assignors send no user data
// in their assignments, so only the policy can refuse.
func (l *PartitionedLog) checkUpgrade(g *group) error {
	if !l.upgradeAllowed() {
		return fmt.Errorf("group %q refuses the join: Cannot upgrade classic group %s to consumer group because online upgrade is disabled. (Kafka: GROUP_ID_NOT_FOUND; %s=%s): join with group.protocol=classic, or once the group is empty", g.name, g.name, migrationPolicyConfig, l.ConsumerMigrationPolicy())
	}
	return nil
}

// checkClassicIntoConsumer is what a classic member joining a consumer group
// with members must pass: the policy must not be disabled
// (throwIfClassicMemberCannotJoinConsumerGroup), and its strategy must be
// the classic members' (throwIfClassicProtocolIsNotSupported).
func (l *PartitionedLog) checkClassicIntoConsumer(g *group, memberID, strategy string) error {
	if l.ConsumerMigrationPolicy() == MigrationDisabled {
		return fmt.Errorf("group %q refuses the join: Cannot join the consumer group %s with the classic protocol because the group migration is disabled. (Kafka: INCONSISTENT_GROUP_PROTOCOL; %s=%s)", g.name, g.name, migrationPolicyConfig, MigrationDisabled)
	}
	if g.hasClassicMember() && strategy != "" && strategy != g.strategy {
		return fmt.Errorf("group %q refuses the join: Member %s's protocols are not supported. (Kafka: INCONSISTENT_GROUP_PROTOCOL): its classic members use %s; %q asks for %s", g.name, memberID, g.strategy, memberID, strategy)
	}
	return nil
}

// classic reports whether a member of a consumer group uses the classic
// protocol (ConsumerGroupMember.useClassicProtocol).
func (m *member) classic() bool { return m.cm != nil && m.cm.classic }

// MemberProtocol is the protocol a member runs: a classic group's members
// all run the classic one; a consumer group's, the consumer one unless they
// joined with the classic one or came from the classic group it was.
func (g *group) memberProtocol(m *member) string {
	if !g.consumer() || m.classic() {
		return ProtocolClassic
	}
	return ProtocolConsumer
}

// hasClassicMember reports whether a consumer group has a classic member.
func (g *group) hasClassicMember() bool {
	return slices.ContainsFunc(g.members, (*member).classic)
}

// forgetClassicStrategy drops a consumer group's classic strategy once its
// last classic member is gone: the coordinator assigns.
func (g *group) forgetClassicStrategy() {
	if !g.hasClassicMember() {
		g.strategy = ""
	}
}

// upgradeToConsumerGroup is convertToConsumerGroup: a classic group with
// members becomes a consumer group whose epochs are its generation, each
// member a classic member at that epoch with its assignment as its target.
func (l *PartitionedLog) upgradeToConsumerGroup(g *group, joiner string) {
	epoch := g.generation
	g.cg = &consumerGroup{epoch: epoch, targetEpoch: epoch, target: Assignment{}}
	g.config.protocol = ProtocolConsumer
	g.rebalance = nil // its JoinGroup and SyncGroup answer REBALANCE_IN_PROGRESS
	g.leader, g.seen, g.refreshPending = "", nil, false
	var names []string
	for _, m := range g.members {
		m.cm = &consumerMember{epoch: epoch, state: MemberStable, classic: true}
		m.cm.setEpochs(m.assigned, epoch) // Utils.toAssignmentWithEpochs(..., generationId)
		m.generation, m.rejoined = epoch, false
		g.cg.target[m.id] = slices.Clone(m.assigned)
		if m.down == "" {
			m.lastPoll = max(m.lastPoll, l.now-g.config.MaxPollIntervalMs) // its poll timer goes on
		}
		names = append(names, m.id)
	}
	l.emit(Event{Kind: EventGroupConverted, Group: g.name, Generation: epoch,
		Detail: fmt.Sprintf("%s's heartbeat converted the classic group to a consumer group at its generation %d (%s=%s); its classic members stay classic: %s", joiner, epoch, migrationPolicyConfig, l.ConsumerMigrationPolicy(), strings.Join(names, ", "))})
}

// classicRejoinNeeded is classicGroupHeartbeatToConsumerGroup's
// REBALANCE_IN_PROGRESS: the member's epoch is behind the target
// assignment's, it has partitions to revoke, or partitions it waits for
// are free now.
func (g *group) classicRejoinNeeded(m *member) bool {
	switch c := m.cm; {
	case c.epoch < g.cg.targetEpoch, c.state == MemberUnrevoked:
		return true
	case c.state == MemberUnreleased:
		pending := g.pendingAssignment(m)
		return g.ownedByOthers(m, pending).len() < len(pending) // one is free now
	}
	return false
}

// classicRejoin is a classic member's rejoin of a consumer group inside its
// poll: JoinGroup, whose reconciliation gives it its next assignment, and
// SyncGroup, which hands it over.
func (l *PartitionedLog) classicRejoin(g *group, m *member) {
	if g.config.AutoCommit {
		l.commitPositions(g, m) // onJoinPrepare commits first
	}
	eager := !assign.IsCooperative(g.strategy)
	if eager {
		clear(m.positions) // onJoinPrepare revokes everything
	}
	// Its JoinGroup's owned partitions no longer hold what it was told to
	// revoke: it revoked them after its last SyncGroup.
	l.dropRevoked(m)
	m.cm.pendingRevoke = nil
	l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: m.id, Generation: m.cm.epoch,
		Detail: "classic member rejoined (JoinGroup, SyncGroup) in its poll: the coordinator answers its heartbeat REBALANCE_IN_PROGRESS while it is behind its target"})
	l.maybeComputeTarget(g) // JoinGroup's maybeUpdateTargetAssignment
	l.reconcile(g, m)
	if len(m.cm.pendingRevoke) == 0 {
		return
	}
	if eager {
		l.dropRevoked(m) // the coordinator hears of it at its next JoinGroup
		return
	}
	l.revokePending(g, m) // cooperative: it revokes and rejoins at once
	l.reconcile(g, m)
}

// dropRevoked makes a member stop reading what it was told to revoke.
func (l *PartitionedLog) dropRevoked(m *member) {
	revoked := m.cm.pendingRevoke
	for _, tp := range revoked {
		delete(m.positions, tp)
	}
	gone := setOf(revoked)
	m.pollOrder = slices.DeleteFunc(m.pollOrder, func(tp TopicPartition) bool { return gone.has(tp) })
}

// joinClassicIntoConsumer is classicGroupJoinToConsumerGroup for a new
// classic member: it subscribes, bumping the group epoch, the target is
// computed when the assignment interval allows, and its JoinGroup
// reconciles it.
func (l *PartitionedLog) joinClassicIntoConsumer(g *group, name, strategy string, opts JoinOptions, topics []string) {
	if !g.hasClassicMember() {
		g.strategy = strategy
	}
	m := &member{id: name, instanceID: opts.InstanceID, memberID: l.newClassicInConsumerMemberID(name, opts.InstanceID), topics: topics,
		lastAutoCommit: l.now, joinedAt: l.now, lastPoll: l.now,
		cm: &consumerMember{state: MemberStable, classic: true, joined: l.groups.memberIDsMade}}
	g.insertMember(m)
	l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: name, Detail: "subscribed to " + strings.Join(topics, ",") + " (group.protocol=classic, in a consumer group)"})
	l.bumpGroupEpoch(g, name+" joined")
	l.maybeComputeTarget(g)
	l.reconcile(g, m)
}

// newClassicInConsumerMemberID makes the member id of a classic member
// joining a consumer group: Kafka 4.4's coordinator makes it as
// Uuid.randomUuid().toString() (GroupMetadataManager.
// classicGroupJoinToConsumerGroup), as a consumer-protocol client makes
// its own (rules 5); rules 4 gave it a classic group's client.id-UUID
// (ClassicGroup.generateMemberId).
func (l *PartitionedLog) newClassicInConsumerMemberID(name, instanceID string) string {
	if !l.follows(KafkaUUIDForClassicInConsumer) {
		return l.newMemberID(name, instanceID)
	}
	return l.newConsumerMemberID()
}

// maybeComputeTarget computes the target assignment when the group epoch
// is ahead of it and the assignment interval allows
// (GroupMetadataManager.maybeUpdateTargetAssignment of Kafka 4.4), else
// leaves it for the next heartbeat or JoinGroup after the interval (rules
// 5), or for the interval's end (rules 4: consumerGroup.delayed).
func (l *PartitionedLog) maybeComputeTarget(g *group) {
	if g.cg.epoch <= g.cg.targetEpoch {
		return
	}
	if l.canComputeTarget(g) {
		l.computeTarget(g)
	} else if !l.follows(TargetAtNextHeartbeat) {
		g.cg.delayed = true
	}
}

// downgradeOnLeave is consumerGroupFenceMembers' check before it removes a
// member: when every member left is classic and the policy allows it, the
// group converts back to a classic group (validateOnlineDowngradeWithFencedMembers,
// convertToClassicGroup), which rebalances at once. It reports whether it
// did.
func (l *PartitionedLog) downgradeOnLeave(g *group, leaving *member, why departure) bool {
	if len(g.members) < 2 || !l.downgradeAllowed() || !g.allClassicBut(leaving) {
		return false
	}
	before := g.currentAssignment()
	before[leaving.id] = append(before[leaving.id], leaving.cm.pendingRevoke...)
	g.removeMember(leaving)
	l.emit(Event{Kind: EventMemberLeft, Group: g.name, Member: leaving.id, Detail: why.text, Cause: why.cause})
	l.convertToClassicGroup(g, "the members left all use the classic protocol")
	l.startRebalance(g, fmt.Sprintf("Downgrade group %s from consumer to classic for member leaving.", g.name), before, nil, false)
	return true
}

// allClassicBut reports whether every member of the consumer group but
// except uses the classic protocol (ConsumerGroup.
// allMembersUseClassicProtocolExcept).
func (g *group) allClassicBut(except *member) bool {
	return !slices.ContainsFunc(g.members, func(m *member) bool { return m != except && !m.classic() })
}

// convertToClassicGroup is GroupMetadataManager.convertToClassicGroup and
// ClassicGroup.fromConsumerGroup: the consumer group, whose members all use
// the classic protocol now, becomes a classic group at its group epoch,
// each member with its target assignment.
func (l *PartitionedLog) convertToClassicGroup(g *group, why string) {
	l.emit(Event{Kind: EventGroupConverted, Group: g.name, Generation: g.cg.epoch,
		Detail: fmt.Sprintf("the consumer group became a classic group at its group epoch %d (%s=%s): %s", g.cg.epoch, migrationPolicyConfig, l.ConsumerMigrationPolicy(), why)})
	target := g.cg.target
	g.generation = g.cg.epoch
	g.cg = nil
	g.config.protocol = ""
	for _, m := range g.members {
		tps := slices.Clone(target[m.id])
		slices.SortFunc(tps, assign.ComparePartitions)
		m.cm = nil
		l.applyAssignment(g, m, tps) // ClassicGroup.fromConsumerGroup: its target
		m.rejoined = false
	}
	g.leader = g.members[0].id // the first member the classic group adds
	l.refreshSeen(g)
}

// replaceStaticWithClassic is a classic member joining a consumer group
// with the group.instance.id of a member of it (rules 5; Kafka 4.4
// GroupMetadataManager.classicGroupJoinToConsumerGroup, which calls
// getOrMaybeSubscribeStaticConsumerGroupMember with the classic protocol:
// no UNRELEASED_INSTANCE_ID check then). The new member replaces the old
// one, which is fenced if it still runs: a new member id, epoch 0, the old
// one's assignment and target (replaceMember), a new group epoch only if
// the subscription changed, and its JoinGroup reconciles it. When the old
// member was the last to use the consumer protocol and the policy allows
// the downgrade (validateOnlineDowngradeWithReplacedMember), the group
// becomes a classic group instead, which rebalances only if its target
// assignment is behind its group epoch (convertToClassicGroup).
func (l *PartitionedLog) replaceStaticWithClassic(g *group, old *member, name, strategy string, topics []string) {
	downgrade := l.downgradeAllowed() && g.allClassicBut(old)
	if old.down == "" {
		l.abandonInFlight(g, old)
		l.emit(Event{Kind: EventMemberLeft, Group: g.name, Member: old.id, Detail: "fenced: " + name + " joined with its group.instance.id " + old.instanceID + " (group.protocol=classic)", Cause: CauseFenced})
	}
	g.removeMember(old)
	if !g.hasClassicMember() {
		g.strategy = strategy
	}
	m := old.clone()
	m.id, m.down, m.expiresAt = name, "", 0
	m.memberID = l.newClassicInConsumerMemberID(name, old.instanceID)
	m.joinedAt, m.lastPoll, m.lastAutoCommit = l.now, l.now, l.now
	m.positions = map[TopicPartition]int64{}
	m.pollOrder = slices.Clone(m.assigned) // a new process starts afresh
	m.inFlightFrom, m.inFlightTo = 0, 0
	m.cm.epoch, m.cm.classic, m.cm.joined = 0, true, l.groups.memberIDsMade
	m.cm.pendingRevoke = nil // the new process owns nothing it must revoke
	if target, ok := g.cg.target[old.id]; ok {
		delete(g.cg.target, old.id)
		g.cg.target[name] = target
	}
	g.insertMember(m)
	l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: name, Detail: "static member " + m.instanceID + " is back with the classic protocol (JoinGroup): it takes the place, assignment and target of " + old.id, Cause: CauseStaticReturn})
	if !slices.Equal(m.topics, topics) {
		m.topics = topics
		l.bumpGroupEpoch(g, name+" subscribed to "+strings.Join(topics, ","))
	}
	if !downgrade {
		l.maybeComputeTarget(g)
		l.reconcile(g, m)
		return
	}
	rebalance := g.cg.targetEpoch < g.cg.epoch
	before := g.currentAssignment()
	l.convertToClassicGroup(g, "the member "+name+" that replaced the last consumer-protocol member uses the classic protocol")
	if rebalance {
		l.startRebalance(g, fmt.Sprintf("Downgrade group %s from consumer to classic with stale assignment.", g.name), before, nil, false)
	}
}

// migrationNote says, for the page, what the policy allows a group now: ""
// when the group has no members or nothing is to say.
func (l *PartitionedLog) migrationNote(g *group) string {
	if len(g.members) == 0 {
		return ""
	}
	policy := l.ConsumerMigrationPolicy()
	if !g.consumer() {
		if !l.upgradeAllowed() {
			return fmt.Sprintf("%s=%s: a member joining with group.protocol=consumer is refused while the group has members", migrationPolicyConfig, policy)
		}
		return fmt.Sprintf("%s=%s: a member joining with group.protocol=consumer converts the group to a consumer group, whose classic members stay classic", migrationPolicyConfig, policy)
	}
	if !g.hasClassicMember() {
		return ""
	}
	note := fmt.Sprintf("a mixed group (%s=%s): its classic members rejoin with JoinGroup and SyncGroup when the coordinator answers their heartbeat REBALANCE_IN_PROGRESS; the playground lets them rejoin at their next poll", migrationPolicyConfig, policy)
	if l.downgradeAllowed() {
		note += "; when its last consumer-protocol member leaves, it becomes a classic group again"
	}
	return note
}
