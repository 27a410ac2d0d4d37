package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"plog/core"
	"plog/core/scenario"
)

// GroupSnapshot is one consumer group as the page shows it: the engine's own
// read-only view (what kafka-consumer-groups --describe shows), the virtual
// time it was taken at, and what each strategy would move if the membership
// changed now.
type GroupSnapshot struct {
	core.GroupView

	// Now is the virtual time of the snapshot, in ms: session expiries and
	// rebalance deadlines are shown relative to it.
	Now int64
	// Movements compare the four strategies on hypothetical membership
	// changes of this group: one member more, and one member fewer. Only
	// the group the inspector shows has them (compareInspected).
	Movements []MovementComparison
	// Protocols is the learner's change replayed under each protocol, nil
	// until the learner replays one (group_protocol_compare.go).
	Protocols *ProtocolsCompared
	// Rules is the version of the rules the scenario runs under, whose
	// defaults the inspector compares the group's configs with.
	Rules int
}

// MovementComparison is what each strategy would move for one membership
// change, as the engine's CompareMovement works it out.
type MovementComparison struct {
	Change     string // in words: "c4 joins", "c1 leaves"
	Strategies []core.StrategyMovement
}

// GroupMark is what one group knows of one partition, for the marks a lane
// draws: the group's committed offset and the position of the member that
// owns the partition.
type GroupMark struct {
	Group        string
	Committed    int64
	HasCommitted bool
	Owner        string // the member that owns the partition; "" for none
	// OwnerMemberID is the owner's Kafka member id; "" under rules 1 and 2.
	OwnerMemberID string
	Position      int64 // the owner's next offset to read
	HasPosition   bool
	Paused        bool  // a rebalance has stopped the partition
	Lag           int64 // high watermark - committed; meaningful with HasCommitted
	// Moving is how a rebalance moves the partition, for its assignment
	// mark: "leaving" while a rebalance has stopped it (its owner gives it
	// up: every partition in an eager rebalance, only the movers in a
	// cooperative one), "arriving" when the owner gained it in the last
	// rebalance of the group's current generation and that rebalance moved
	// partitions, "" otherwise.
	Moving string
}

// deliveriesKept bounds the deliveries copied per group: the panel shows the
// latest few, and the snapshot is compared on every render.
const deliveriesKept = 12

// snapshotGroups copies every consumer group out of the engine, sorted by
// name. The engine fails these reads only for a group it has just listed,
// which would be a contradiction worth reporting.
func snapshotGroups(l core.ReadOnlyLog) ([]GroupSnapshot, error) {
	var groups []GroupSnapshot
	for _, name := range l.GroupNames() {
		view, err := l.Group(name)
		if err != nil {
			return nil, fmt.Errorf("reading group %s: %w", name, err)
		}
		if n := len(view.Deliveries); n > deliveriesKept {
			view.Deliveries = view.Deliveries[n-deliveriesKept:]
		}
		groups = append(groups, GroupSnapshot{
			GroupView: view,
			Now:       l.Now(),
			Rules:     rulesOf(l),
		})
	}
	return groups, nil
}

// rulesOf is the rules version of the engine behind a read-only log
// (core/rules.go), the latest for one that does not say.
func rulesOf(l core.ReadOnlyLog) int {
	if r, ok := l.(interface{ Rules() int }); ok {
		return r.Rules()
	}
	return core.LatestRules
}

// compareInspected works out what each strategy would move for the group
// the inspector shows (sel), and for no other: only the inspector draws
// it, and it runs every assignor twice, for each group, at every command.
func (s *LogSnapshot) compareInspected(session *scenario.Session, sel selection) {
	for i := range s.Groups {
		g := &s.Groups[i]
		g.Movements, g.Protocols = nil, nil
		if session != nil && sel.inGroup(g.Name) {
			g.Movements = compareMovements(session.Log(), g.GroupView)
			g.Protocols = compareProtocols(session.Log(), g.GroupView, sel.Compare)
		}
	}
	s.compareShareInspected(session, sel) // snapshot_share_compare.go
}

// compareMovements asks the engine what each strategy would move if a member
// joined the group with the first running member's subscription, and if the
// first running member left. A group with no running member has nothing to
// compare.
func compareMovements(l core.ReadOnlyLog, g core.GroupView) []MovementComparison {
	var running []core.MemberView
	for _, m := range g.Members {
		if m.Down == "" {
			running = append(running, m)
		}
	}
	if len(running) == 0 {
		return nil
	}
	var out []MovementComparison
	newcomer := newMemberID(g.Members)
	join := core.MembershipChange{Join: []core.AssignMember{{ID: newcomer, Topics: running[0].Topics}}}
	if moves, err := l.CompareMovement(g.Name, join); err == nil {
		out = append(out, MovementComparison{Change: newcomer + " joins", Strategies: moves})
	}
	if len(running) > 1 {
		leaver := running[0].ID
		leave := core.MembershipChange{Leave: []string{leaver}}
		if moves, err := l.CompareMovement(g.Name, leave); err == nil {
			out = append(out, MovementComparison{Change: leaver + " leaves", Strategies: moves})
		}
	}
	return out
}

// newMemberID is a member id not yet in the group, in the c1, c2, ... style
// the playground suggests.
func newMemberID(members []core.MemberView) string {
	return newMemberIDWith("c", members)
}

// suggestedMemberID is the id a group's join form offers: the next in the
// style of the group's members (b3 after b1 and b2), or for a group with
// none the group's initial and 1, as the lessons name them (a1 in audit,
// b1 in billing, s1 in search): a learner who restarts billing's b1, or
// follows a hint that names a1, finds the id the hint names.
func suggestedMemberID(g GroupSnapshot) string {
	prefix := "c"
	if len(g.Members) > 0 {
		prefix = strings.TrimRightFunc(g.Members[0].ID, unicode.IsDigit)
	} else if r, _ := utf8.DecodeRuneInString(g.Name); r < utf8.RuneSelf && unicode.IsLetter(r) {
		prefix = string(unicode.ToLower(r))
	}
	if prefix == "" {
		prefix = "c"
	}
	return newMemberIDWith(prefix, g.Members)
}

// newMemberIDWith is the first id PREFIX+N, from N the count of members
// and one, that no member has.
func newMemberIDWith(prefix string, members []core.MemberView) string {
	for n := len(members) + 1; ; n++ {
		id := prefix + strconv.Itoa(n)
		if !slices.ContainsFunc(members, func(m core.MemberView) bool { return m.ID == id }) {
			return id
		}
	}
}

// groupMarks returns, for each partition a group knows (one of its members
// subscribes to the topic, or it has committed an offset there), the marks
// its lane draws: committed offset, owner and the owner's position, groups
// in name order. One pass over each group: a search of the group for each
// lane made a snapshot of a group over 10,000 partitions hold the page for
// a second.
func (s LogSnapshot) groupMarks() map[core.TopicPartition][]GroupMark {
	most := 0
	for _, g := range s.Groups {
		most = max(most, len(g.Partitions))
	}
	marks := make(map[core.TopicPartition][]GroupMark, most)
	for _, g := range s.Groups {
		type owned struct {
			member string
			tp     core.TopicPartition
		}
		memberIDs := map[string]string{}
		positions := map[owned]int64{}
		for _, m := range g.Members {
			if _, seen := memberIDs[m.ID]; seen {
				continue // the first member of an id is the one a lane shows
			}
			memberIDs[m.ID] = m.MemberID
			for _, pos := range m.Positions {
				at := owned{m.ID, core.TopicPartition{Topic: pos.Topic, Partition: pos.Partition}}
				if _, seen := positions[at]; !seen {
					positions[at] = pos.Offset
				}
			}
		}
		for i, p := range g.Partitions {
			tp := core.TopicPartition{Topic: p.Topic, Partition: p.Partition}
			if i > 0 && g.Partitions[i-1].Topic == p.Topic && g.Partitions[i-1].Partition == p.Partition {
				continue // the engine lists a group's partitions sorted, each once
			}
			mark := GroupMark{
				Group:         g.Name,
				Committed:     p.Committed,
				HasCommitted:  p.HasCommitted,
				Owner:         p.Owner,
				Paused:        p.Paused,
				Lag:           p.Lag,
				OwnerMemberID: memberIDs[p.Owner],
				Moving:        g.movingOf(p),
			}
			mark.Position, mark.HasPosition = positions[owned{p.Owner, tp}]
			marks[tp] = append(marks[tp], mark)
		}
	}
	return marks
}

// movingOf says how the group's rebalances move a partition: leaving while
// a running rebalance has stopped it, arriving when its owner gained it in
// the last rebalance and nothing has changed the generation since.
func (g GroupSnapshot) movingOf(p core.PartitionView) string {
	switch {
	case p.Owner == "":
		return ""
	case g.Rebalance != nil && p.Paused:
		return "leaving"
	case g.Rebalance != nil || g.LastRebalance == nil || g.LastRebalance.Generation != g.Generation,
		g.LastRebalance.Moved == 0: // a first assignment moves nothing
		return ""
	}
	tp := core.TopicPartition{Topic: p.Topic, Partition: p.Partition}
	for _, ch := range g.LastRebalance.Members {
		if ch.Member == p.Owner && slices.Contains(ch.Assigned, tp) {
			return "arriving"
		}
	}
	return ""
}

// TopicRecordCounts is how many records each partition of a topic retains.
type TopicRecordCounts struct {
	Topic  string
	Counts []int
}

// RecordCounts returns the retained records per partition of every topic,
// for the records chart: a small value, cheap to compare between renders.
func (s LogSnapshot) RecordCounts() []TopicRecordCounts {
	out := make([]TopicRecordCounts, 0, len(s.Topics))
	for _, t := range s.Topics {
		counts := make([]int, len(t.Partitions))
		for i, p := range t.Partitions {
			counts[i] = p.Count
		}
		out = append(out, TopicRecordCounts{Topic: t.Name, Counts: counts})
	}
	return out
}
