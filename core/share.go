package core

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"plog/core/units"
)

// This file is share groups (KIP-932, production-ready in Kafka 4.2): a
// queue on the log. Members of a share group read the same partitions
// together; each record is acquired by one member at a time, under a lock
// that expires, and acknowledged on its own. The group coordinator's side
// (members, epochs, the assignment) follows Kafka 4.4's ShareGroup and
// GroupMetadataManager (kafka-group-coordinator); the share-partitions'
// side (share_partition.go) follows SharePartition (kafka core 4.4).

// The states of a share group (ShareGroup.ShareGroupState, Kafka 4.4).
const (
	ShareGroupEmpty  = "Empty"
	ShareGroupStable = "Stable"
)

// ShareJoinOptions are a share consumer's configs (ShareConsumerConfig,
// kafka-clients 4.4) and its subscription.
type ShareJoinOptions struct {
	Topics []string
	// AckMode is share.acknowledgement.mode: implicit (Kafka's default)
	// or explicit.
	AckMode string
	// MaxPollRecords is max.poll.records (500 by default; 0 takes it).
	MaxPollRecords int
}

// shareGroups is every share group of the engine.
type shareGroups struct {
	groups map[string]*shareGroup
	names  []string // sorted
}

func (s shareGroups) clone() shareGroups {
	c := shareGroups{names: slices.Clone(s.names)}
	if s.groups != nil {
		c.groups = make(map[string]*shareGroup, len(s.groups))
		for name, g := range s.groups {
			c.groups[name] = g.clone()
		}
	}
	return c
}

type shareGroup struct {
	name    string
	cfg     ShareGroupConfig
	epoch   int // the group epoch: bumped by every change of members or subscriptions
	members []*shareMember
	// partitions are the group's share-partitions, by topic and partition,
	// made when the group first reads one.
	partitions map[TopicPartition]*sharePartition
	// partitionCounts are the subscribed topics' partition counts the
	// last assignment saw: a topic's new partitions bump the epoch too.
	partitionCounts map[string]int
}

func (g *shareGroup) clone() *shareGroup {
	c := &shareGroup{name: g.name, cfg: g.cfg.clone(), epoch: g.epoch, partitions: make(map[TopicPartition]*sharePartition, len(g.partitions)),
		partitionCounts: maps.Clone(g.partitionCounts)}
	for _, m := range g.members {
		mc := *m
		mc.topics = slices.Clone(m.topics)
		mc.assignment = slices.Clone(m.assignment)
		mc.delivered = slices.Clone(m.delivered)
		c.members = append(c.members, &mc)
	}
	for tp, sp := range g.partitions {
		c.partitions[tp] = sp.clone()
	}
	return c
}

type shareMember struct {
	name       string // its client.id, as the scenario names it
	id         string // its member id, a Uuid the client makes (ShareMembershipManager)
	epoch      int    // its member epoch
	topics     []string
	ackMode    string
	maxRecords int
	assignment []TopicPartition // sorted
	// crashedAt is when a crashed member stopped heartbeating, -1 while it
	// runs: the coordinator removes it share.session.timeout.ms later.
	crashedAt int64
	// delivered are the records its last poll returned (and those it
	// renewed), which the member still holds in its ShareFetch: implicit
	// mode accepts them at the next poll, explicit mode must acknowledge
	// each before it polls again.
	delivered []deliveredRecord
	polls     int // its share session's epoch, which rotates the partitions (PartitionRotateStrategy)
}

// deliveredRecord is one record a member's last poll returned.
type deliveredRecord struct {
	TopicPartition
	offset int64
	acked  bool // acknowledged in explicit mode since the poll
	renew  bool // acknowledged with RENEW: the next poll returns it again
}

func (s *shareGroups) lookup(name string) *shareGroup {
	if s.groups == nil {
		return nil
	}
	return s.groups[name]
}

func (l *PartitionedLog) shareGroup(name string) (*shareGroup, error) {
	g := l.shares.lookup(name)
	if g == nil {
		return nil, fmt.Errorf("unknown share group %q", name)
	}
	return g, nil
}

func (g *shareGroup) member(name string) (*shareMember, error) {
	for _, m := range g.members {
		if m.name == name {
			return m, nil
		}
	}
	var names []string
	for _, m := range g.members {
		names = append(names, m.name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("share group %s has no member %s: it has no members (UNKNOWN_MEMBER_ID)", g.name, name)
	}
	return nil, fmt.Errorf("share group %s has no member %s; its members are %s (UNKNOWN_MEMBER_ID)", g.name, name, strings.Join(names, ", "))
}

// IsShareGroup reports whether a share group of that name exists.
func (l *PartitionedLog) IsShareGroup(name string) bool { return l.shares.lookup(name) != nil }

// ShareGroupNames lists the share groups, sorted.
func (l *PartitionedLog) ShareGroupNames() []string { return slices.Clone(l.shares.names) }

// ShareJoin adds a member to a share group, making the group on its first
// member. Kafka keeps one namespace of group ids: a consumer group's id
// is refused (GroupMetadataManager.shareGroup: "Group %s is not a share
// group.", GroupIdNotFoundException, Kafka 4.4). The member gets its
// partitions from the SimpleAssignor at once: a share group has no
// rebalance to wait for, and no partition is revoked from anyone first
// (ShareGroupAssignmentBuilder moves a member straight to its target).
func (l *PartitionedLog) ShareJoin(group, member string, opts ShareJoinOptions) error {
	if _, err := l.Group(group); err == nil {
		return fmt.Errorf("group %s is not a share group: it is a consumer group, and Kafka keeps one set of group ids (GROUP_ID_NOT_FOUND)", group)
	}
	if len(opts.Topics) == 0 {
		return fmt.Errorf("a share consumer subscribes to at least one topic")
	}
	for _, t := range opts.Topics {
		if _, err := l.topic(t); err != nil {
			return err
		}
	}
	mode := opts.AckMode
	if mode == "" {
		mode = AckModeImplicit
	}
	if mode != AckModeImplicit && mode != AckModeExplicit {
		return fmt.Errorf("share.acknowledgement.mode: expected implicit or explicit, got %q", mode)
	}
	maxRecords := opts.MaxPollRecords
	if maxRecords == 0 {
		maxRecords = defaultSharePollRecords
	}
	if maxRecords < 1 {
		return fmt.Errorf("max.poll.records must be at least 1, got %d", maxRecords)
	}
	g := l.shares.lookup(group)
	if g == nil {
		if l.shares.groups == nil {
			l.shares.groups = map[string]*shareGroup{}
		}
		g = &shareGroup{name: group, cfg: defaultShareGroupConfig(), partitions: map[TopicPartition]*sharePartition{}}
		l.shares.groups[group] = g
		l.shares.names = append(l.shares.names, group)
		sort.Strings(l.shares.names)
	}
	if len(g.members) >= shareGroupMaxSize {
		return fmt.Errorf("share group %s is full: it has group.share.max.size=%d members (GROUP_MAX_SIZE_REACHED)", group, shareGroupMaxSize)
	}
	for _, m := range g.members {
		if m.name == member {
			if m.crashedAt >= 0 {
				return fmt.Errorf("member %s of share group %s crashed at %s and stays until its session times out at %s: join under another name", member, group, fmtMs(m.crashedAt), fmtMs(m.crashedAt+g.cfg.SessionTimeoutMs))
			}
			return fmt.Errorf("share group %s already has a member %s", group, member)
		}
	}
	topics := slices.Clone(opts.Topics)
	sort.Strings(topics)
	topics = slices.Compact(topics)
	g.members = append(g.members, &shareMember{name: member, id: l.newConsumerMemberID(), topics: topics, ackMode: mode, maxRecords: maxRecords, crashedAt: -1})
	l.emit(Event{Kind: EventShareMemberJoined, Group: group, Member: member, Detail: "subscribed to " + strings.Join(topics, ",")})
	l.shareReassign(g)
	return nil
}

// defaultSharePollRecords is max.poll.records' default
// (ConsumerConfig.DEFAULT_MAX_POLL_RECORDS, kafka-clients 4.4).
const defaultSharePollRecords = 500

// shareGroupMaxSize is group.share.max.size (GroupCoordinatorConfig,
// Kafka 4.4: 200).
const shareGroupMaxSize = 200

// ShareLeave closes a member: as KafkaShareConsumer.close does, an
// implicit member first accepts what its last poll returned; the broker
// then releases every record the member still holds
// (SharePartition.releaseAcquiredRecords, when its share session closes),
// and the member leaves the group (heartbeat with epoch -1).
func (l *PartitionedLog) ShareLeave(group, member string) error {
	g, m, err := l.runningShareMember(group, member, "it cannot leave; the coordinator removes it when its session times out")
	if err != nil {
		return err
	}
	if m.ackMode == AckModeImplicit {
		l.acceptDelivered(g, m, "accepted implicitly on close")
	}
	for _, tp := range g.partitionKeys() {
		g.partitions[tp].releaseMember(l, g, m.name)
	}
	l.removeShareMember(g, m, "left")
	return nil
}

// ShareCrash stops a member without a word, its connection left open (a
// hung process, a lost machine): it holds its records until their locks
// expire (share.record.lock.duration.ms after it acquired them), and
// stays in the group, with its partitions, until its session times out
// (share.session.timeout.ms after its last heartbeat). A killed process
// whose connection closes has its records released at once in Kafka 4.4
// (ShareSessionCache's ClientConnectionDisconnectListener calls
// SharePartitionManager.releaseSession); that is share-leave's release,
// without the implicit accept.
func (l *PartitionedLog) ShareCrash(group, member string) error {
	g, m, err := l.runningShareMember(group, member, "it crashed already")
	if err != nil {
		return err
	}
	m.crashedAt = l.now
	m.delivered = nil
	l.emit(Event{Kind: EventShareMemberCrashed, Group: group, Member: member,
		Detail: fmt.Sprintf("its records' locks expire by themselves; the coordinator removes it at %s (share.session.timeout.ms=%s)", fmtMs(l.now+g.cfg.SessionTimeoutMs), fmtMs(g.cfg.SessionTimeoutMs))})
	return nil
}

func (l *PartitionedLog) removeShareMember(g *shareGroup, m *shareMember, why string) {
	i := slices.Index(g.members, m)
	g.members = slices.Delete(g.members, i, i+1)
	l.emit(Event{Kind: EventShareMemberLeft, Group: g.name, Member: m.name, Detail: why})
	l.shareReassign(g)
}

// partitionKeys lists the group's share-partitions in topic, partition
// order.
func (g *shareGroup) partitionKeys() []TopicPartition {
	keys := make([]TopicPartition, 0, len(g.partitions))
	for tp := range g.partitions {
		keys = append(keys, tp)
	}
	sortTopicPartitions(keys)
	return keys
}

func sortTopicPartitions(tps []TopicPartition) {
	sort.Slice(tps, func(i, j int) bool {
		if tps[i].Topic != tps[j].Topic {
			return tps[i].Topic < tps[j].Topic
		}
		return tps[i].Partition < tps[j].Partition
	})
}

func fmtMs(ms int64) string { return units.Duration(ms) }

// shareReassign bumps the group epoch and gives every member its target
// assignment from the SimpleAssignor. In Kafka a member learns it at its
// next heartbeat (share.heartbeat.interval.ms); the playground gives it at
// once, which changes no record's fate: a share group never revokes a
// partition first, and records are locked, not partitions.
func (l *PartitionedLog) shareReassign(g *shareGroup) {
	g.epoch++
	g.partitionCounts = l.sharePartitionCounts(g)
	target := l.simpleAssign(g)
	for i, m := range g.members {
		if !slices.Equal(m.assignment, target[i]) {
			m.assignment = target[i]
		}
		m.epoch = g.epoch
	}
	l.emit(Event{Kind: EventShareAssignment, Group: g.name, Generation: g.epoch, Count: len(g.members)})
}

// nextShareDeadline returns the earliest lock expiry or session timeout
// of any share group, and whether there is one.
func (l *PartitionedLog) nextShareDeadline() (int64, bool) {
	next, ok := int64(0), false
	take := func(t int64) {
		if !ok || t < next {
			next, ok = t, true
		}
	}
	for _, name := range l.shares.names {
		g := l.shares.groups[name]
		for _, m := range g.members {
			if m.crashedAt >= 0 {
				take(m.crashedAt + g.cfg.SessionTimeoutMs)
			}
		}
		for _, sp := range g.partitions {
			if t, has := sp.nextLockExpiry(); has {
				take(t)
			}
		}
	}
	return next, ok
}

// runShareTimers expires the locks and sessions due at now: an expired
// lock makes its record available again, or archives it when it has had
// share.delivery.count.limit deliveries
// (SharePartition.releaseAcquisitionLockOnTimeout); a crashed member
// whose session timed out leaves the group.
func (l *PartitionedLog) runShareTimers(now int64) {
	for _, name := range l.shares.names {
		g := l.shares.groups[name]
		for _, tp := range g.partitionKeys() {
			g.partitions[tp].expireLocks(l, g, now)
		}
		for _, m := range slices.Clone(g.members) {
			if m.crashedAt >= 0 && m.crashedAt+g.cfg.SessionTimeoutMs <= now {
				l.removeShareMember(g, m, "session timed out (share.session.timeout.ms)")
			}
		}
	}
}

// notShareGroup refuses a consumer group member whose group id is a share
// group's: Kafka keeps one set of group ids (GroupMetadataManager of Kafka
// 4.4: a consumer group heartbeat gets "Group %s is not a consumer
// group.", a classic JoinGroup INCONSISTENT_GROUP_PROTOCOL).
func (l *PartitionedLog) notShareGroup(name string) error {
	if l.IsShareGroup(name) {
		return fmt.Errorf("group %s is not a consumer group: it is a share group, and Kafka keeps one set of group ids (GROUP_ID_NOT_FOUND)", name)
	}
	return nil
}

// runningShareMember finds a member that has not crashed, or says why
// not: a crashed member does nothing more (doing says what it cannot).
func (l *PartitionedLog) runningShareMember(group, member, doing string) (*shareGroup, *shareMember, error) {
	g, err := l.shareGroup(group)
	if err != nil {
		return nil, nil, err
	}
	m, err := g.member(member)
	if err != nil {
		return nil, nil, err
	}
	if m.crashedAt >= 0 {
		return nil, nil, fmt.Errorf("member %s of share group %s crashed at %s (its session times out at %s): %s",
			member, group, fmtMs(m.crashedAt), fmtMs(m.crashedAt+g.cfg.SessionTimeoutMs), doing)
	}
	return g, m, nil
}

// sharePartitionCounts are the partition counts of the topics the group's
// members subscribe to.
func (l *PartitionedLog) sharePartitionCounts(g *shareGroup) map[string]int {
	counts := map[string]int{}
	for _, m := range g.members {
		for _, t := range m.topics {
			counts[t], _ = l.Partitions(t)
		}
	}
	return counts
}

// refreshShareAssignment bumps the epoch and reassigns when a subscribed
// topic has gained partitions since the last assignment, as the group
// coordinator does at the first heartbeat after a new metadata image
// (Kafka 4.4's GroupMetadataManager.onMetadataUpdate, then
// shareGroupHeartbeat). Rules 5 call it at a member's poll alone; rules 6
// when the partitions come too (sharePartitionsAdded).
func (l *PartitionedLog) refreshShareAssignment(g *shareGroup) {
	if !maps.Equal(g.partitionCounts, l.sharePartitionCounts(g)) {
		l.shareReassign(g)
	}
}

// sharePartitionsAdded gives the share groups that read a topic its new
// partitions (rules 6). A share consumer heartbeats on its background
// thread every share.heartbeat.interval.ms whether or not its application
// polls (ShareHeartbeatRequestManager, an AbstractHeartbeatRequestManager
// of kafka-clients 4.4), and the coordinator reassigns at the first
// heartbeat after the new partitions (GroupMetadataManager.onMetadataUpdate
// and shareGroupHeartbeat of Kafka 4.4): the playground, which gives a
// share member its partitions at once (shareReassign), gives these at once
// too, when the group has a running member to heartbeat. A group whose
// members all crashed sends no heartbeat, and waits. Rules 5 wait for a
// member's poll (SharePoll).
func (l *PartitionedLog) sharePartitionsAdded() {
	if !l.follows(ShareNewPartitionsAtHeartbeat) {
		return
	}
	for _, name := range l.shares.names {
		g := l.shares.groups[name]
		if slices.ContainsFunc(g.members, func(m *shareMember) bool { return m.crashedAt < 0 }) {
			l.refreshShareAssignment(g)
		}
	}
}
