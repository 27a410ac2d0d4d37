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

// CompareProtocols replays one membership change of a group (a member
// joins, leaves or crashes) under three group protocols side by side, each
// on its own copy of the engine, and says which partitions stop being
// consumed and for how long. The real group does not change.
//
// Each replay runs the engine's own rules, those the real group would
// follow, nothing modelled apart:
//
//   - classic eager (range, or the group's own eager strategy): the
//     rebalance revokes every partition at its start and hands them out at
//     its end (groups.go, startRebalance and pausedBy; Kafka 4.4's
//     ConsumerCoordinator.onJoinPrepare revokes all under the EAGER
//     protocol);
//   - classic cooperative-sticky: only the partitions that move stop, over
//     two rounds when one member gives a partition to another (groups.go,
//     completeRebalanceRound; KIP-429, CooperativeStickyAssignor of
//     kafka-clients 4.4);
//   - the consumer protocol (uniform, or the group's own server assignor):
//     no group-wide barrier, each member reconciles at its own heartbeat
//     (group_consumer.go; Kafka 4.4's GroupMetadataManager.
//     consumerGroupHeartbeat and CurrentAssignmentBuilder).
//
// Their timing is the engine's under the scenario's rules: from rules 4 a
// classic rebalance ends when every member has rejoined in its poll or at
// the rebalance timeout, an empty group's first waits
// group.initial.rebalance.delay.ms (group_timing.go, after Kafka 4.4's
// GroupMetadataManager and ClassicGroup); a crash is noticed when the
// session times out (session.timeout.ms for the classic protocol,
// consumer.session.timeout.ms from the last heartbeat for the consumer
// one); the consumer protocol computes a target at most every
// group.consumer.assignment.interval.ms and a member learns of it at its
// next heartbeat (consumer.heartbeat.interval.ms).
//
// Consumers poll: a classic member rejoins a rebalance inside its poll. The
// replay has every running member poll every PollIntervalMs, the first
// half an interval after the change, so that a poll does not fall on the
// very instant a timer fires; a poll the engine refuses (auto.offset.reset
// =none with nowhere to start) is what the member would meet, and it tries
// again at its next. The protocol the group runs (and, for the classic
// protocol, its kind of strategy) is replayed on a copy of the group as it
// is; the others on a copy whose running members rejoin under that
// protocol, in the order they joined, and settle first, so that each
// protocol starts from its own assignment of the same members.
func (l *PartitionedLog) CompareProtocols(groupName string, change ProtocolChange) (ProtocolComparison, error) {
	g, err := l.group(groupName)
	if err != nil {
		return ProtocolComparison{}, err
	}
	change, err = l.checkProtocolChange(g, change)
	if err != nil {
		return ProtocolComparison{}, err
	}
	out := ProtocolComparison{Group: groupName, Change: change}
	for _, protocol := range ReplayProtocols() {
		out.Replays = append(out.Replays, l.replayProtocol(groupName, protocol, change))
	}
	return out, nil
}

// The kinds of change CompareProtocols replays.
const (
	ChangeJoin  = "join"
	ChangeLeave = "leave"
	ChangeCrash = "crash"
)

// The protocols CompareProtocols replays a change under.
const (
	ReplayEager       = "eager"
	ReplayCooperative = "cooperative"
	ReplayConsumer    = "consumer"
)

// ReplayProtocols lists the protocols of a comparison, in its order.
func ReplayProtocols() []string { return []string{ReplayEager, ReplayCooperative, ReplayConsumer} }

// DefaultReplayPollMs is how often the members of a replay poll unless
// the change says otherwise: a consumer looping on poll.
const DefaultReplayPollMs = 1000

// Bounds of a replay: how long the members may poll at least and at most
// apart, and how far its clock and its steps may run before it gives up
// on the group settling.
const (
	minReplayPollMs = 10
	maxReplayPollMs = 5 * 60 * 1000
	maxReplayMs     = 60 * 60 * 1000
	maxReplaySteps  = 5000
)

// ProtocolChange is the membership change a comparison replays.
type ProtocolChange struct {
	Kind   string // ChangeJoin, ChangeLeave or ChangeCrash
	Member string // the member that joins (a new name), leaves or crashes
	// Topics is a joiner's subscription; empty: the first running
	// member's.
	Topics []string
	// PollIntervalMs is how often each running member polls in the
	// replay; 0: DefaultReplayPollMs.
	PollIntervalMs int64
}

// ProtocolComparison is one change replayed under each protocol.
type ProtocolComparison struct {
	Group   string
	Change  ProtocolChange // as replayed: the joiner's topics and the poll interval filled in
	Replays []ProtocolReplay
}

// ProtocolReplay is what one protocol does with the change.
type ProtocolReplay struct {
	Protocol string // ReplayEager, ReplayCooperative or ReplayConsumer
	// GroupProtocol is classic or consumer; Assignor the strategy (range,
	// cooperative-sticky, ...) or the server assignor (uniform, range).
	GroupProtocol, Assignor string
	// Rebuilt says the members rejoined under this protocol before the
	// change: the group runs another.
	Rebuilt bool
	// Unavailable says why the protocol cannot be replayed (the consumer
	// protocol before rules 4); the rest is then empty.
	Unavailable string
	// DurationMs is how long after the change the group is settled again:
	// no rebalance running, every member stable and running. Settled is
	// false when it was not within the replay's bounds (or the group was
	// left with no member, when it is settled at once).
	DurationMs int64
	Settled    bool
	// Rounds counts the rebalance rounds (classic) or target assignments
	// (consumer protocol) the change brought.
	Rounds int
	// Partitions lists every partition of the topics the members
	// subscribe to, sorted.
	Partitions []PartitionStop
	// Stopped counts the partitions that stopped at all, LongestStopMs is
	// the longest stop of one, TotalStopMs all stops added up.
	Stopped       int
	LongestStopMs int64
	TotalStopMs   int64
}

// PartitionStop is one partition in a replay: who owned it before the
// change and after it, and when no running member consumed it.
type PartitionStop struct {
	Topic         string
	Partition     int
	Before, After string // "" for no owner
	Stops         []StopSpan
	StoppedMs     int64
}

// Moved reports whether the partition changed owner.
func (p PartitionStop) Moved() bool { return p.Before != p.After }

// StopSpan is a time no running member consumed a partition, in ms after
// the change: a stopped member's partition, one a rebalance paused, one no
// member owns. Open says it was still stopped when the replay ended: no
// member took it.
type StopSpan struct {
	FromMs, ToMs int64
	Open         bool
}

// checkProtocolChange checks a change against the group, without changing
// anything, and fills in the joiner's topics and the poll interval.
func (l *PartitionedLog) checkProtocolChange(g *group, change ProtocolChange) (ProtocolChange, error) {
	running := g.runningMembers()
	if len(running) == 0 {
		return change, fmt.Errorf("group %q has no running member: there is no change to replay", g.name)
	}
	switch change.Kind {
	case ChangeLeave, ChangeCrash:
		m := g.member(change.Member)
		switch {
		case m == nil:
			return change, fmt.Errorf("group %q has no member %q", g.name, change.Member)
		case m.down != "":
			return change, fmt.Errorf("member %q of group %q has %s already: only a running member can %s", change.Member, g.name, m.down, change.Kind)
		}
	case ChangeJoin:
		if err := validGroupName("member", change.Member); err != nil {
			return change, err
		}
		if g.member(change.Member) != nil {
			return change, fmt.Errorf("group %q already has a member %q: a joiner needs a name of its own", g.name, change.Member)
		}
		if len(change.Topics) == 0 {
			change.Topics = slices.Clone(running[0].topics)
		}
		for _, topic := range change.Topics {
			if _, err := l.topic(topic); err != nil {
				return change, fmt.Errorf("member %q cannot subscribe: %v", change.Member, err)
			}
		}
	default:
		return change, fmt.Errorf("the change %q is not one of %s, %s, %s", change.Kind, ChangeJoin, ChangeLeave, ChangeCrash)
	}
	if change.PollIntervalMs == 0 {
		change.PollIntervalMs = DefaultReplayPollMs
	}
	if change.PollIntervalMs < minReplayPollMs || change.PollIntervalMs > maxReplayPollMs {
		return change, fmt.Errorf("the members' poll interval must be between %s and %s, got %s",
			units.Duration(minReplayPollMs), units.Duration(maxReplayPollMs), units.Duration(change.PollIntervalMs))
	}
	return change, nil
}

// runningMembers lists the running members in the order they joined.
func (g *group) runningMembers() []*member {
	var running []*member
	for _, m := range g.members {
		if m.down == "" {
			running = append(running, m)
		}
	}
	slices.SortStableFunc(running, func(a, b *member) int {
		if a.cm != nil && b.cm != nil {
			return cmp.Compare(a.cm.joined, b.cm.joined)
		}
		return cmp.Compare(a.joinedAt, b.joinedAt)
	})
	return running
}

// replayStrategy is the strategy (or server assignor) a protocol replays
// the group under, and whether the group runs it already.
func replayStrategy(g *group, protocol string) (groupProtocol, strategy string, asIs bool) {
	switch protocol {
	case ReplayConsumer:
		if g.consumer() {
			return ProtocolConsumer, g.preferredAssignor(), true
		}
		return ProtocolConsumer, assign.Uniform, false
	case ReplayCooperative:
		return ProtocolClassic, StrategyCooperativeSticky, !g.consumer() && assign.IsCooperative(g.strategy)
	}
	if !g.consumer() && !assign.IsCooperative(g.strategy) {
		return ProtocolClassic, g.strategy, true
	}
	return ProtocolClassic, StrategyRange, false
}

// replayProtocol replays the change under one protocol on a copy of the
// engine.
func (l *PartitionedLog) replayProtocol(groupName, protocol string, change ProtocolChange) ProtocolReplay {
	c := l.Clone()
	c.keepOnlyGroup(groupName)
	g := c.groups.groups[groupName]
	r := ProtocolReplay{Protocol: protocol}
	var asIs bool
	r.GroupProtocol, r.Assignor, asIs = replayStrategy(g, protocol)
	r.Rebuilt = !asIs
	if r.GroupProtocol == ProtocolConsumer && !Follows(c.rules, ConsumerGroupProtocol) {
		r.Unavailable = fmt.Sprintf("the consumer protocol comes with rules 4; this scenario runs under rules %d", c.rules)
		return r
	}
	clock := replayClock{l: c, group: groupName, pollMs: change.PollIntervalMs}
	if !asIs {
		if err := c.rejoinUnder(g, r.GroupProtocol, r.Assignor); err != nil {
			r.Unavailable = "the members cannot rejoin under " + r.Assignor + ": " + err.Error()
			return r
		}
		clock.restart()
		if !clock.runUntilSettled(nil) {
			r.Unavailable = fmt.Sprintf("the members rejoined under %s did not settle within the replay's bounds (%s, %d steps)", r.Assignor, units.Duration(maxReplayMs), maxReplaySteps)
			return r
		}
	}
	g = c.groups.groups[groupName]
	tps := c.replayPartitions(g, change)
	before := g.owners()
	c.DrainEvents()
	if err := c.applyProtocolChange(g, change, r); err != nil {
		r.Unavailable = err.Error()
		return r
	}
	start := c.now
	clock.restart()
	track := newStopTracker(tps, start)
	track.sample(c, g)
	r.Settled = clock.runUntilSettled(func() { track.sample(c, g) })
	r.DurationMs = c.now - start
	r.Rounds = track.rounds
	after := g.owners()
	for i, tp := range tps {
		p := PartitionStop{Topic: tp.Topic, Partition: tp.Partition, Before: before[tp], After: after[tp]}
		p.Stops, p.StoppedMs = track.stops(i, c.now)
		if len(p.Stops) > 0 {
			r.Stopped++
		}
		r.LongestStopMs = max(r.LongestStopMs, p.StoppedMs)
		r.TotalStopMs += p.StoppedMs
		r.Partitions = append(r.Partitions, p)
	}
	return r
}

// keepOnlyGroup drops every group but one from a copy of the engine: the
// replay watches one group, and the others' timers would only slow it.
func (l *PartitionedLog) keepOnlyGroup(name string) {
	g := l.groups.groups[name]
	l.groups.groups = map[string]*group{name: g}
	l.groups.names = []string{name}
}

// rejoinUnder empties the group of a copy of the engine and has its
// running members join it again, in the order they joined, under another
// protocol and strategy (or server assignor), with its configs and
// committed offsets. The consumer protocol has no client session.timeout.ms
// (Kafka's ConsumerConfig refuses it, checkConsumerJoin): its members take
// the group's consumer.session.timeout.ms instead.
func (l *PartitionedLog) rejoinUnder(old *group, protocol, strategy string) error {
	running := old.runningMembers()
	config := old.config
	config.protocol = ""
	if protocol == ProtocolConsumer {
		config.SessionTimeoutMs = DefaultGroupConfigUnder(l.rules).SessionTimeoutMs
	}
	delete(l.groups.groups, old.name)
	l.groups.names = nil
	g, err := l.newGroup(old.name)
	if err != nil {
		return err
	}
	g.config = config
	g.committed = maps.Clone(old.committed)
	for _, m := range running {
		opts := JoinOptions{Topics: m.topics, InstanceID: m.instanceID}
		if protocol == ProtocolConsumer {
			opts.Protocol, opts.RemoteAssignor = ProtocolConsumer, strategy
		} else {
			opts.Strategy = strategy
		}
		if err := l.Join(g.name, m.id, opts); err != nil {
			return err
		}
	}
	return nil
}

// replayPartitions lists the partitions of the topics the group's members
// subscribe to, and a joiner, sorted.
func (l *PartitionedLog) replayPartitions(g *group, change ProtocolChange) []TopicPartition {
	topics := map[string]bool{}
	for _, m := range g.members {
		for _, t := range m.topics {
			topics[t] = true
		}
	}
	if change.Kind == ChangeJoin {
		for _, t := range change.Topics {
			topics[t] = true
		}
	}
	var tps []TopicPartition
	for _, topic := range slices.Sorted(maps.Keys(topics)) {
		if t, ok := l.topics[topic]; ok {
			for p := range len(t.partitions) {
				tps = append(tps, TopicPartition{Topic: topic, Partition: p})
			}
		}
	}
	return tps
}

// owners maps each partition a member owns (or, in a consumer group,
// still revokes) to the member.
func (g *group) owners() map[TopicPartition]string {
	owners := map[TopicPartition]string{}
	for _, m := range g.members {
		for _, tp := range m.assigned {
			owners[tp] = m.id
		}
		if m.cm != nil {
			for _, tp := range m.cm.pendingRevoke {
				owners[tp] = m.id
			}
		}
	}
	return owners
}

// consuming reports whether a running member consumes the partition: it
// owns it and no rebalance has paused it.
func (g *group) consuming(tp TopicPartition, owners map[TopicPartition]string) bool {
	owner, ok := owners[tp]
	if !ok || g.isPaused(tp) {
		return false
	}
	m := g.member(owner)
	return m != nil && m.down == ""
}

// applyProtocolChange makes the change in a replay, as the page's join,
// leave and crash commands do.
func (l *PartitionedLog) applyProtocolChange(g *group, change ProtocolChange, r ProtocolReplay) error {
	switch change.Kind {
	case ChangeJoin:
		opts := JoinOptions{Topics: change.Topics}
		if r.GroupProtocol == ProtocolConsumer {
			opts.Protocol = ProtocolConsumer
			if r.Rebuilt {
				opts.RemoteAssignor = r.Assignor
			}
		}
		return l.Join(g.name, change.Member, opts)
	case ChangeLeave:
		return l.Leave(g.name, change.Member)
	}
	return l.Crash(g.name, change.Member)
}

// replayClock runs a replay's clock: the engine's timers, and every
// running member's poll every pollMs.
type replayClock struct {
	l        *PartitionedLog
	group    string
	pollMs   int64
	nextPoll int64
	startAt  int64
}

// restart puts the first poll half an interval from now.
func (c *replayClock) restart() {
	c.startAt = c.l.now
	c.nextPoll = c.l.now + max(c.pollMs/2, 1)
}

// runUntilSettled steps the clock until the group is settled, calling
// after at each step, within the replay's bounds.
func (c *replayClock) runUntilSettled(after func()) bool {
	for range maxReplaySteps {
		g := c.l.groups.groups[c.group]
		if g.settled() {
			return true
		}
		if c.l.now-c.startAt >= maxReplayMs || !c.step(g) {
			return false
		}
		if after != nil {
			after()
		}
	}
	return false
}

// step moves the clock to the next timer of the group or the members'
// next poll, whichever comes first, and polls when it is time.
func (c *replayClock) step(g *group) bool {
	next := c.nextPoll
	if at, ok := g.nextDeadline(); ok && at > c.l.now && at < next {
		next = at
	}
	if next > c.l.now {
		if err := c.l.Advance(next - c.l.now); err != nil {
			return false
		}
	}
	if c.l.now >= c.nextPoll {
		for _, m := range slices.Clone(g.members) {
			if m.down == "" && g.member(m.id) == m {
				// A refused poll is what the member would meet; it
				// polls again at its next.
				_, _ = c.l.Poll(g.name, m.id, 1)
			}
		}
		c.nextPoll += c.pollMs
	}
	return true
}

// settled reports whether a group is at rest: no member stopped, and no
// rebalance running (classic) or every member stable at the target's
// epoch (consumer protocol); an empty group is too.
func (g *group) settled() bool {
	for _, m := range g.members {
		if m.down != "" {
			return false
		}
	}
	switch g.state() {
	case GroupEmpty, GroupStable:
		return true
	}
	return false
}

// stopTracker follows, from one sample to the next, which partitions a
// running member consumes, and counts the rounds the group's events tell.
type stopTracker struct {
	tps     []TopicPartition
	startAt int64
	// stopped is, per partition, when its current stop began (-1 when
	// consumed); spans the stops that have ended.
	stopped []int64
	spans   [][]StopSpan
	rounds  int
}

func newStopTracker(tps []TopicPartition, startAt int64) *stopTracker {
	t := &stopTracker{tps: tps, startAt: startAt, stopped: make([]int64, len(tps)), spans: make([][]StopSpan, len(tps))}
	for i := range t.stopped {
		t.stopped[i] = -1
	}
	return t
}

// sample reads the group at the engine's clock: what holds now holds until
// the next step, since nothing changes between timers and polls.
func (t *stopTracker) sample(l *PartitionedLog, g *group) {
	for _, e := range l.DrainEvents() {
		if e.Group == g.name && (e.Kind == EventRebalanceDone || e.Kind == EventTargetAssignment) {
			t.rounds++
		}
	}
	owners := g.owners()
	at := l.now - t.startAt
	for i, tp := range t.tps {
		switch consuming := g.consuming(tp, owners); {
		case !consuming && t.stopped[i] < 0:
			t.stopped[i] = at
		case consuming && t.stopped[i] >= 0:
			t.spans[i] = append(t.spans[i], StopSpan{FromMs: t.stopped[i], ToMs: at})
			t.stopped[i] = -1
		}
	}
}

// stops are a partition's stops, the one still running at now left open,
// and their length added up.
func (t *stopTracker) stops(i int, now int64) ([]StopSpan, int64) {
	spans := slices.Clone(t.spans[i])
	if t.stopped[i] >= 0 {
		spans = append(spans, StopSpan{FromMs: t.stopped[i], ToMs: now - t.startAt, Open: true})
	}
	var total int64
	for _, s := range spans {
		total += s.ToMs - s.FromMs
	}
	return spans, total
}

// ProtocolChangeText says a change in words: "c4 joins", "c1 crashes".
func ProtocolChangeText(change ProtocolChange) string {
	verb := map[string]string{ChangeJoin: "joins", ChangeLeave: "leaves", ChangeCrash: "crashes"}[change.Kind]
	text := change.Member + " " + verb
	if change.Kind == ChangeJoin && len(change.Topics) > 0 {
		text += " (subscribed to " + strings.Join(change.Topics, ",") + ")"
	}
	return text
}
