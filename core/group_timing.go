package core

import (
	"fmt"
	"slices"
	"strings"

	"plog/core/units"
)

// Rebalance timing and liveness from rules 4, as Kafka 4.x's classic group
// protocol has them: the group coordinator's GroupMetadataManager and
// ClassicGroup (group-coordinator module), and the Java consumer's
// ConsumerCoordinator and AbstractCoordinator (kafka-clients). Under rules
// 1 to 3 every rebalance round took the group's rebalance.ms instead
// (groups.go).
//
//   - An empty group's first rebalance (GroupMetadataManager.prepareRebalance
//     of a group in Empty) waits group.initial.rebalance.delay.ms; when the
//     wait ends and a member joined during it, it waits again, min(delay,
//     what is left), until the rebalance timeout minus the first delay is
//     spent (tryCompleteInitialRebalanceElseSchedule). Only a member
//     leaving ends it sooner (removeMemberAndUpdateClassicGroup).
//   - Any other rebalance ends as soon as every member has rejoined
//     (maybeCompleteJoinPhase, ClassicGroup.hasAllMembersJoined): a
//     consumer rejoins inside its poll (ConsumerCoordinator.poll), so a
//     member rejoins when it next polls, or when the change is its own
//     JoinGroup (a join, a new subscription). A member that stopped before
//     it rejoined never does: the rebalance waits until its session ends.
//     One that stopped after it rejoined has its JoinGroup parked with the
//     coordinator, which counts it as joined (ClassicGroupMember.
//     isAwaitingJoin) until its session ends.
//   - Or it ends at the rebalance timeout, fixed when it starts
//     (maybeCompleteJoinElseSchedule's group.rebalanceTimeoutMs(), the
//     largest of the members' rebalance timeouts, which the Java consumer
//     sets to its max.poll.interval.ms; the playground's members share
//     their group's). completeClassicGroupJoin then removes the dynamic
//     members that did not rejoin; static ones stay. If nobody rejoined, it
//     waits another rebalance timeout.
//   - A member that does not poll within max.poll.interval.ms leaves: its
//     heartbeat thread sends LeaveGroup (AbstractCoordinator's
//     HeartbeatThread, handlePollTimeoutExpiry and maybeLeaveGroup). A
//     static member sends none: its heartbeats stop, and the coordinator
//     removes it when its session times out.
//   - Only the group's leader watches for partitions added to the topics
//     (ConsumerCoordinator.rejoinNeededOrPending compares the metadata it
//     assigned with, assignmentSnapshot, with its metadata now), and its
//     metadata refreshes every metadata.max.age.ms (the client's Metadata):
//     partitions added to a topic start a rebalance at the leader's next
//     refresh, and until then no assignment gives them out. The playground
//     counts the refreshes from the leader's join: at its join time plus
//     each multiple of metadata.max.age.ms. A member that subscribes to a
//     topic new to the group makes the leader fetch fresh metadata at once
//     (ConsumerCoordinator.updateGroupSubscription).

// stoppedPolling is member.down for a static member that left by not
// polling within max.poll.interval.ms.
const stoppedPolling = "stopped polling"

// timing reports whether the group follows rules 4's rebalance timing.
func (g *group) timing() bool { return Follows(g.config.rules, ClassicProtocolTiming) }

// noteJoined makes a member that joins an empty group its leader, and
// refreshes the leader's metadata when the member brings a topic new to
// the group.
func (l *PartitionedLog) noteJoined(g *group, m *member) {
	if !g.timing() {
		return
	}
	if g.leader == "" || len(g.members) == 1 {
		g.leader = m.id
		g.seen = nil
	}
	l.noteSubscription(g)
}

// noteSubscription refreshes the leader's metadata when the group
// subscribes to a topic its metadata does not hold yet.
func (l *PartitionedLog) noteSubscription(g *group) {
	if !g.timing() {
		return
	}
	for _, m := range g.members {
		for _, topic := range m.topics {
			if _, ok := g.seen[topic]; !ok {
				l.refreshSeen(g)
				return
			}
		}
	}
}

// refreshSeen reads the partition counts of the group's topics into the
// leader's metadata, and reports whether any changed.
func (l *PartitionedLog) refreshSeen(g *group) (changed []string) {
	seen := map[string]int{}
	for _, m := range g.members {
		for _, topic := range m.topics {
			if t, ok := l.topics[topic]; ok {
				if old, had := g.seen[topic]; had && old != len(t.partitions) && !slices.Contains(changed, topic) {
					changed = append(changed, topic)
				}
				seen[topic] = len(t.partitions)
			}
		}
	}
	g.seen, g.refreshPending = seen, false
	slices.Sort(changed)
	return changed
}

// metadataRefreshAt is the leader's first metadata refresh after a time:
// its join time plus a multiple of metadata.max.age.ms (0: at once).
func (g *group) metadataRefreshAt(after int64) (int64, bool) {
	leader := g.member(g.leader)
	if leader == nil {
		return 0, false
	}
	age := g.config.MetadataMaxAgeMs
	if age <= 0 || after < leader.joinedAt {
		return max(after, leader.joinedAt), true
	}
	return leader.joinedAt + ((after-leader.joinedAt)/age+1)*age, true
}

// pollDeadline is when the member's max.poll.interval.ms runs out.
func (g *group) pollDeadline(m *member) int64 {
	return m.lastPoll + g.config.MaxPollIntervalMs
}

// prepareRebalance sets how a new rebalance ends (GroupMetadataManager.
// prepareRebalance): an empty group's first waits the initial delay, any
// other the rebalance timeout unless every member rejoins sooner.
func (l *PartitionedLog) prepareRebalance(g *group, rejoined *member, joined bool) {
	r := g.rebalance
	timeout := g.config.MaxPollIntervalMs
	if joined && len(g.members) == 1 {
		r.initial = true
		r.delayMs = g.config.InitialRebalanceDelayMs
		r.remainingMs = max(timeout-r.delayMs, 0)
		r.doneAt = l.now + r.delayMs
	} else {
		r.doneAt = l.now + timeout
	}
	for _, m := range g.members {
		m.rejoined = m == rejoined
	}
}

// foldIntoRebalance takes a change into the rebalance running: a member's
// JoinGroup counts as its rejoin, a new member extends an initial wait
// (addMemberThenRebalanceOrCompleteJoin's newMemberAdded), and a member
// gone may leave every remaining one rejoined.
func (l *PartitionedLog) foldIntoRebalance(g *group, rejoined *member, joined bool) {
	r := g.rebalance
	if rejoined != nil {
		rejoined.rejoined = true
		if joined && r.initial {
			r.newMemberAdded = true
		}
		l.maybeCompleteJoin(g, false)
		return
	}
	l.maybeCompleteJoin(g, true) // removeMemberAndUpdateClassicGroup
}

// maybeCompleteJoin ends the rebalance's join phase when every member has
// rejoined (GroupMetadataManager.maybeCompleteJoinPhase; an initial
// rebalance waits its delay unless afterRemoval, as
// removeMemberAndUpdateClassicGroup completes it).
func (l *PartitionedLog) maybeCompleteJoin(g *group, afterRemoval bool) {
	r := g.rebalance
	if r == nil || r.initial && !afterRemoval {
		return
	}
	live := false
	for _, m := range g.members {
		if !m.rejoined {
			return
		}
		live = live || m.down == ""
	}
	if live { // a stopped member, though joined, never sends the assignment
		l.completeRebalanceRound(g)
	}
}

// rejoin is a member's rejoin inside its poll.
func (l *PartitionedLog) rejoin(g *group, m *member) {
	if g.rebalance == nil || m.rejoined {
		return
	}
	m.rejoined = true
	l.emit(Event{Kind: EventMemberJoined, Group: g.name, Member: m.id, Detail: "rejoined the rebalance in its poll", Cause: CauseRejoin})
	l.maybeCompleteJoin(g, false)
}

// removeNotRejoined is completeClassicGroupJoin's first step: the dynamic
// members that did not rejoin are removed. It reports whether the round
// can complete: false when nobody rejoined, and the coordinator waits
// another rebalance timeout.
func (l *PartitionedLog) removeNotRejoined(g *group) bool {
	r := g.rebalance
	anyRejoined := false
	for _, m := range slices.Clone(g.members) {
		switch {
		case m.rejoined:
			// Only a running member can lead: one that stopped never
			// sends SyncGroup, and the coordinator waits on.
			anyRejoined = anyRejoined || m.down == ""
		case m.instanceID == "":
			g.removeMember(m)
			l.emit(Event{Kind: EventMemberLeft, Group: g.name, Member: m.id,
				Detail: fmt.Sprintf("removed: it did not rejoin within the rebalance timeout (max.poll.interval.ms, %s)", units.Duration(g.config.MaxPollIntervalMs))})
		}
	}
	if len(g.members) == 0 {
		l.becomeEmpty(g, r.cause, r.before)
		return false
	}
	if !anyRejoined {
		r.doneAt = l.now + g.config.MaxPollIntervalMs
		return false
	}
	return true
}

// rejoinAfterRevoking starts a cooperative follow-up round as Kafka's
// members do: a member that had partitions revoked rejoins at once, in the
// poll that revoked them (ConsumerCoordinator.onJoinComplete); the others
// rejoin at their next poll.
func (l *PartitionedLog) rejoinAfterRevoking(g *group, plan Assignment, changes []MemberChange) {
	for _, c := range changes {
		if m := g.member(c.Member); m != nil && len(c.Revoked) > 0 {
			m.rejoined = true
		}
	}
	l.maybeCompleteJoin(g, false)
}

// nextDeadlineV4 is the group's next timer under rules 4: a stopped
// member's session, a member's max.poll.interval.ms, the rebalance's wait
// or timeout, the leader's metadata refresh when partitions were added.
func (g *group) nextDeadlineV4() (at int64, ok bool) {
	take := func(t int64) {
		if !ok || t < at {
			at, ok = t, true
		}
	}
	for _, m := range g.members {
		if m.down != "" {
			take(m.expiresAt)
		} else {
			take(g.pollDeadline(m))
		}
	}
	if g.rebalance != nil {
		take(g.rebalance.doneAt)
	}
	if g.refreshPending {
		if t, due := g.metadataRefreshAt(g.staleSince); due {
			take(t)
		}
	}
	return at, ok
}

// runGroupTimersV4 fires the group's timers due at now: sessions that
// expire, members whose poll interval ran out, the rebalance's wait or
// timeout, the leader's metadata refresh.
func (l *PartitionedLog) runGroupTimersV4(g *group, now int64) {
	for _, m := range slices.Clone(g.members) {
		if m.down != "" && m.expiresAt <= now && g.member(m.id) == m {
			l.expireMember(g, m)
		}
	}
	for _, m := range slices.Clone(g.members) {
		if m.down == "" && g.pollDeadline(m) <= now && g.member(m.id) == m {
			l.pollTimedOut(g, m)
		}
	}
	if r := g.rebalance; r != nil && r.doneAt <= now {
		l.rebalanceTimer(g)
	}
	if g.refreshPending {
		if t, due := g.metadataRefreshAt(g.staleSince); due && t <= now {
			l.refreshMetadata(g)
		}
	}
}

// rebalanceTimer ends an initial wait, or extends it when a member joined
// in it (tryCompleteInitialRebalanceElseSchedule), or ends any other
// rebalance at its timeout (completeClassicGroupJoin).
func (l *PartitionedLog) rebalanceTimer(g *group) {
	r := g.rebalance
	if r.initial && r.newMemberAdded && r.remainingMs != 0 {
		r.newMemberAdded = false
		delay := min(g.config.InitialRebalanceDelayMs, r.remainingMs)
		r.remainingMs = max(r.remainingMs-r.delayMs, 0)
		r.delayMs = delay
		r.doneAt = l.now + delay
		return
	}
	l.completeRebalanceRound(g)
}

// pollTimedOut is a member that did not poll within max.poll.interval.ms:
// a dynamic member's heartbeat thread sends LeaveGroup, without committing
// (its code is still busy with what its last poll returned, which it
// finishes, but cannot commit); a static member's heartbeats stop.
func (l *PartitionedLog) pollTimedOut(g *group, m *member) {
	l.finishInFlight(g, m)
	if m.instanceID != "" {
		l.stopMember(g, m, stoppedPolling)
		return
	}
	before := g.currentAssignment()
	g.removeMember(m)
	l.emit(Event{Kind: EventMemberLeft, Group: g.name, Member: m.id,
		Detail: fmt.Sprintf("did not poll within max.poll.interval.ms (%s): its heartbeat thread sent LeaveGroup", units.Duration(g.config.MaxPollIntervalMs)), Cause: CausePollTimeout})
	l.startRebalance(g, m.id+" left: no poll within max.poll.interval.ms", before, nil, false)
}

// refreshMetadata is the leader's metadata refresh: partitions added to a
// topic since the last start a rebalance.
func (l *PartitionedLog) refreshMetadata(g *group) {
	changed := l.refreshSeen(g)
	if len(changed) == 0 {
		return
	}
	var parts []string
	for _, topic := range changed {
		parts = append(parts, fmt.Sprintf("%s now has %d partitions", topic, g.seen[topic]))
	}
	l.startRebalanceFor(g, CauseMetadataRefresh, "the leader's metadata refresh: topic "+strings.Join(parts, ", topic "), g.currentAssignment(), nil, false)
}

// partitionsAddedV4 notes partitions added to a topic the group reads:
// the leader sees them at its next metadata refresh.
func (l *PartitionedLog) partitionsAddedV4(g *group, topic string) {
	if _, ok := g.seen[topic]; !ok || g.refreshPending {
		return
	}
	g.refreshPending, g.staleSince = true, l.now
}

// rebalanceWait says what a rebalance running waits for, from rules 4: the
// members that have not rejoined (by polling), the stopped ones, and when
// its wait or timeout ends.
func (l *PartitionedLog) rebalanceWait(g *group) string {
	r := g.rebalance
	if r == nil {
		return ""
	}
	if r.initial {
		return fmt.Sprintf("the group was empty, so this rebalance waits group.initial.rebalance.delay.ms for more members, until %s (longer if another joins)", units.Duration(r.doneAt))
	}
	var polls, stopped []string
	for _, m := range g.members {
		switch {
		case m.rejoined:
		case m.down != "":
			stopped = append(stopped, fmt.Sprintf("%s (%s, until its session ends at %s)", m.id, m.down, units.Duration(m.expiresAt)))
		case !m.rejoined:
			polls = append(polls, m.id)
		}
	}
	var waits []string
	if len(polls) > 0 {
		waits = append(waits, strings.Join(polls, ", ")+" to rejoin by polling")
	}
	if len(stopped) > 0 {
		waits = append(waits, strings.Join(stopped, ", "))
	}
	return fmt.Sprintf("it waits for %s; the rebalance timeout at %s removes dynamic members that have not rejoined", strings.Join(waits, " and "), units.Duration(r.doneAt))
}
