package core

import (
	"fmt"
	"slices"
	"strings"

	"plog/core/assign"
	"plog/core/units"
)

// JoinOptions is what a consumer brings when it joins a group.
type JoinOptions struct {
	Topics []string // the subscription: one or more existing topics
	// Strategy is range, roundrobin, sticky or cooperative-sticky. Empty
	// means the group's current strategy, or range (Kafka's default) for
	// a group with no members.
	Strategy string
	// InstanceID is the group.instance.id of a static member. A static
	// member that stops is kept until its session times out; if a member
	// joins with the same instance id before that, it takes the
	// partitions back with no rebalance.
	InstanceID string
	// Protocol is the member's group.protocol: classic (also when empty,
	// Kafka's client default) or consumer, Kafka 4's consumer group
	// protocol (KIP-848; group_consumer.go).
	Protocol string
	// RemoteAssignor is a consumer-protocol member's
	// group.remote.assignor: the server-side assignor it asks for
	// (uniform or range), "" for the group's default.
	RemoteAssignor string
}

// Join adds a member to a group, creating the group if needed, and starts a
// rebalance (a new member owns nothing until it completes). A member that
// is already in the group and joins with another subscription changes its
// subscription: it gives up the partitions of topics it dropped at once,
// and the group rebalances. A member with the instance id of a static
// member takes that member's place: no rebalance if the subscription is
// the same; the old one, if still running, is fenced. More members than
// partitions is fine: the extra members sit idle.
func (l *PartitionedLog) Join(groupName, memberID string, opts JoinOptions) error {
	if err := l.notShareGroup(groupName); err != nil {
		return err
	}
	topics, strategy, err := l.checkJoin(groupName, memberID, opts)
	if err != nil {
		return err
	}
	g := l.groups.groups[groupName]
	if g == nil {
		if g, err = l.newGroup(groupName); err != nil {
			return err
		}
	}
	g.revive()
	if opts.Protocol == ProtocolConsumer {
		l.joinConsumer(g, memberID, opts, topics)
		return nil
	}
	if g.consumer() && len(g.members) > 0 {
		// A classic member in a consumer group (group_migration.go).
		if m := g.member(memberID); m != nil {
			m.topics = topics
			l.bumpGroupEpoch(g, memberID+" subscribed to "+strings.Join(topics, ","))
			l.maybeComputeTarget(g)
			l.classicRejoin(g, m)
			return nil
		}
		if opts.InstanceID != "" && l.follows(ClassicTakesStaticInstance) {
			if old := g.staticMember(opts.InstanceID); old != nil {
				l.replaceStaticWithClassic(g, old, memberID, strategy, topics)
				return nil
			}
		}
		l.joinClassicIntoConsumer(g, memberID, strategy, opts, topics)
		return nil
	}
	if g.consumer() {
		l.becomeClassicGroup(g) // an empty consumer group (checkJoin)
	}
	if opts.InstanceID != "" {
		if static := g.staticMember(opts.InstanceID); static != nil {
			l.replaceStaticMember(g, static, memberID, topics)
			return nil
		}
	}
	if m := g.member(memberID); m != nil {
		l.changeSubscription(g, m, topics)
		return nil
	}
	before := g.currentAssignment()
	if len(g.members) == 0 {
		g.strategy = strategy
	}
	m := &member{id: memberID, instanceID: opts.InstanceID, memberID: l.newMemberID(memberID, opts.InstanceID), topics: topics, lastAutoCommit: l.now,
		joinedAt: l.now, lastPoll: l.now}
	g.insertMember(m)
	l.noteJoined(g, m)
	l.emit(Event{Kind: EventMemberJoined, Group: groupName, Member: memberID, Detail: "subscribed to " + strings.Join(topics, ",")})
	l.startRebalance(g, memberID+" joined", before, m, true)
	return nil
}

// checkJoin validates a join without changing anything and returns the
// subscription (sorted, without repeats) and the strategy.
func (l *PartitionedLog) checkJoin(groupName, memberID string, opts JoinOptions) ([]string, string, error) {
	if err := validGroupName("group", groupName); err != nil {
		return nil, "", err
	}
	if err := validGroupName("member", memberID); err != nil {
		return nil, "", err
	}
	if opts.InstanceID != "" {
		if err := validGroupName("group.instance.id", opts.InstanceID); err != nil {
			return nil, "", err
		}
	}
	if len(opts.Topics) == 0 {
		return nil, "", fmt.Errorf("member %q must subscribe to at least one topic", memberID)
	}
	var topics []string
	for _, topic := range opts.Topics {
		if _, err := l.topic(topic); err != nil {
			return nil, "", fmt.Errorf("member %q cannot subscribe: %v", memberID, err)
		}
		if !slices.Contains(topics, topic) {
			topics = append(topics, topic)
		}
	}
	slices.Sort(topics)

	g := l.groups.groups[groupName]
	if err := l.checkConsumerJoin(groupName, g, memberID, opts); err != nil {
		return nil, "", err
	}
	strategy := opts.Strategy
	if strategy == "" {
		strategy = StrategyRange
		if g != nil && len(g.members) > 0 {
			strategy = g.strategy
		}
	}
	if g != nil && g.consumer() && len(g.members) > 0 && !g.hasClassicMember() && opts.Strategy == "" {
		strategy = StrategyRange // the first classic member of a consumer group chooses
	}
	if opts.Protocol == ProtocolConsumer {
		strategy = "" // the coordinator assigns (checkConsumerJoin)
	} else if err := assign.CheckStrategy(strategy); err != nil {
		return nil, "", err
	}
	if g == nil {
		if len(l.groups.names) >= maxGroups {
			return nil, "", fmt.Errorf("there are already %d groups, the playground's limit", maxGroups)
		}
		return topics, strategy, nil
	}
	if len(g.members) > 0 && strategy != g.strategy && !g.consumer() && opts.Protocol != ProtocolConsumer {
		return nil, "", fmt.Errorf("group %q uses %s; member %q asks for %s: all members must share a strategy (Kafka: INCONSISTENT_GROUP_PROTOCOL)",
			groupName, g.strategy, memberID, strategy)
	}
	m := g.member(memberID)
	if opts.InstanceID != "" {
		if static := g.staticMember(opts.InstanceID); static != nil {
			if m != nil && m != static {
				return nil, "", fmt.Errorf("group %q already has a member %q; the static member %q can come back under its old id or a new one", groupName, memberID, opts.InstanceID)
			}
			return topics, strategy, nil
		}
	}
	if m == nil {
		if len(g.members) >= maxGroupMembers {
			return nil, "", fmt.Errorf("group %q already has %d members, the playground's limit", groupName, maxGroupMembers)
		}
		return topics, strategy, nil
	}
	switch {
	case m.down != "":
		return nil, "", fmt.Errorf("member %q of group %q has %s and stays in the group until its session times out at %s; a restarted consumer gets a new member id in Kafka even under the same client.id, but here each member of a group has a name of its own: join under another, or with a group.instance.id to take its partitions back",
			memberID, groupName, m.down, units.Duration(m.expiresAt))
	case g.memberProtocol(m) != joinProtocol(opts):
		return nil, "", fmt.Errorf("member %q is already in group %q with group.protocol=%s: a member that changes protocol restarts, leave first (or crash) and join again", memberID, groupName, g.memberProtocol(m))
	case m.instanceID != opts.InstanceID:
		return nil, "", fmt.Errorf("member %q is already in group %q with group.instance.id %q", memberID, groupName, m.instanceID)
	case slices.Equal(m.topics, topics):
		return nil, "", fmt.Errorf("member %q is already in group %q, subscribed to %s", memberID, groupName, strings.Join(topics, ","))
	}
	return topics, strategy, nil
}

// joinProtocol is the group.protocol a join asks for.
func joinProtocol(opts JoinOptions) string {
	if opts.Protocol == "" {
		return ProtocolClassic
	}
	return opts.Protocol
}

func (g *group) staticMember(instanceID string) *member {
	for _, m := range g.members {
		if m.instanceID == instanceID {
			return m
		}
	}
	return nil
}

func (g *group) insertMember(m *member) {
	i, _ := slices.BinarySearchFunc(g.members, m.id, func(x *member, id string) int { return compareStrings(x.id, id) })
	g.members = slices.Insert(g.members, i, m)
}

func (g *group) removeMember(m *member) {
	g.members = slices.DeleteFunc(g.members, func(x *member) bool { return x == m })
	if g.leader == m.id {
		g.leader = ""
		if len(g.members) > 0 {
			// Kafka's ClassicGroup.remove takes the first member of its
			// HashMap; the playground takes the first by name.
			g.leader = g.members[0].id
		}
	}
}

// replaceStaticMember lets a consumer take the place of the static member
// with its group.instance.id (KIP-345): it gets the same partitions with no
// rebalance, starting from the committed offsets as any new process does.
// If the old one was still running, it is fenced.
func (l *PartitionedLog) replaceStaticMember(g *group, old *member, newID string, topics []string) {
	if old.down == "" {
		l.abandonInFlight(g, old)
		l.emit(Event{Kind: EventMemberLeft, Group: g.name, Member: old.id, Detail: "fenced: " + newID + " joined with its group.instance.id " + old.instanceID, Cause: CauseFenced})
	}
	wasLeader := g.leader == old.id
	g.removeMember(old)
	m := old.clone()
	m.id, m.down, m.expiresAt = newID, "", 0
	m.joinedAt, m.lastPoll = l.now, l.now
	if wasLeader || g.leader == "" {
		g.leader = newID // ClassicGroup.replaceStaticMember keeps the leader
	}
	m.memberID = l.newMemberID(newID, m.instanceID) // a new member id replaces the old (member_ids.go)
	m.positions = map[TopicPartition]int64{}
	m.pollOrder = slices.Clone(m.assigned) // a new process starts afresh
	m.inFlightFrom, m.inFlightTo = 0, 0
	m.lastAutoCommit = l.now
	g.insertMember(m)
	if !slices.Equal(m.topics, topics) {
		l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: newID, Detail: "static member " + m.instanceID + " is back with a new subscription", Cause: CauseStaticReturn})
		l.changeSubscription(g, m, topics)
		return
	}
	l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: newID, Detail: "static member " + m.instanceID + " is back: same partitions, no rebalance", Cause: CauseStaticReturn})
	if g.timing() && g.rebalance != nil {
		// Its JoinGroup rejoins the rebalance running (Kafka 4.x's
		// GroupMetadataManager.updateStaticMemberThenRebalanceOrCompleteJoin).
		l.foldIntoRebalance(g, m, false)
	}
}

// changeSubscription gives a member a new subscription. It revokes the
// partitions of topics it no longer reads at once (as Kafka's consumer does
// before it rejoins) and the group rebalances.
func (l *PartitionedLog) changeSubscription(g *group, m *member, topics []string) {
	before := g.currentAssignment()
	m.topics = topics
	var kept []TopicPartition
	for _, tp := range m.assigned {
		if slices.Contains(topics, tp.Topic) {
			kept = append(kept, tp)
		}
	}
	l.applyAssignment(g, m, kept)
	l.noteSubscription(g)
	l.startRebalance(g, m.id+" subscribed to "+strings.Join(topics, ","), before, m, false)
}

// Leave makes a member leave the group, as KafkaConsumer.close does: it
// finishes processing its last poll, commits if auto-commit is on, and
// sends LeaveGroup, which starts a rebalance at once. A static member sends
// no LeaveGroup (KIP-345): the group keeps its partitions for it until its
// session times out, so it can come back without a rebalance.
func (l *PartitionedLog) Leave(groupName, memberID string) error {
	g, m, err := l.liveMember(groupName, memberID)
	if err != nil {
		return err
	}
	l.finishInFlight(g, m)
	if g.config.AutoCommit {
		l.commitPositions(g, m)
	}
	if g.consumer() {
		how := "left with epoch -1"
		if m.classic() {
			how = "left with LeaveGroup (classic member)"
		}
		l.leaveConsumer(g, m, departure{text: how})
		return nil
	}
	if m.instanceID != "" {
		l.stopMember(g, m, "left")
		return nil
	}
	before := g.currentAssignment()
	g.removeMember(m)
	l.emit(Event{Kind: EventMemberLeft, Group: groupName, Member: memberID, Detail: "left"})
	l.startRebalance(g, memberID+" left", before, nil, false)
	return nil
}

// Crash stops a member without warning: it stops polling, committing and
// heartbeating. The records of its last poll were not fully processed: if
// their offsets were committed already they are lost (at-most-once),
// otherwise the next owner receives them again (at-least-once). The group
// notices after session.timeout.ms and rebalances.
func (l *PartitionedLog) Crash(groupName, memberID string) error {
	g, m, err := l.liveMember(groupName, memberID)
	if err != nil {
		return err
	}
	l.abandonInFlight(g, m)
	if g.consumer() {
		l.crashConsumer(g, m, "crashed")
		return nil
	}
	l.stopMember(g, m, "crashed")
	return nil
}

// stopMember marks a member as stopped without LeaveGroup; its session
// expires after the group's session timeout.
func (l *PartitionedLog) stopMember(g *group, m *member, why string) {
	m.down = why
	m.expiresAt = l.now + g.config.SessionTimeoutMs
	clear(m.positions)
	detail, cause := why, CauseNone
	switch why {
	case "left":
		detail = "shut down without LeaveGroup (static member)"
	case stoppedPolling:
		detail = fmt.Sprintf("did not poll within max.poll.interval.ms (%s): a static member sends no LeaveGroup, its heartbeats stop", units.Duration(g.config.MaxPollIntervalMs))
		cause = CausePollTimeout
	}
	l.emit(Event{Kind: EventMemberStopped, Group: g.name, Member: m.id, Detail: detail + "; session expires at " + units.Duration(m.expiresAt), Cause: cause})
}

// expireMember removes a stopped member whose session timed out.
func (l *PartitionedLog) expireMember(g *group, m *member) {
	before := g.currentAssignment()
	g.removeMember(m)
	l.emit(Event{Kind: EventMemberLeft, Group: g.name, Member: m.id, Detail: "session timeout", Cause: CauseSessionTimeout})
	l.startRebalance(g, m.id+"'s session timed out", before, nil, false)
}
