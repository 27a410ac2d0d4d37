package core

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// classicJoin joins a member with the classic protocol (Kafka's client
// default), to the topic orders unless opts names topics.
func classicJoin(t *testing.T, l *PartitionedLog, group, name string, opts JoinOptions) {
	t.Helper()
	if len(opts.Topics) == 0 {
		opts.Topics = []string{"orders"}
	}
	if err := l.Join(group, name, opts); err != nil {
		t.Fatal(err)
	}
}

// The online upgrade keeps what the classic group had: the group epoch and
// target epoch are its generation, each classic member keeps its
// assignment as its target at that epoch (ConsumerGroup.fromClassicGroup of
// Kafka 4.4), and the member view says which protocol each runs.
func TestUpgradeKeepsTheClassicAssignment(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	for _, c := range []string{"c1", "c2"} {
		classicJoin(t, l, "g", c, JoinOptions{})
	}
	mustAdvance(t, l, 7000) // the initial rebalance's waits end
	before := groupView(t, l, "g")
	if before.Protocol != ProtocolClassic || before.State != GroupStable {
		t.Fatalf("before: %s %s", before.Protocol, before.State)
	}
	owned := map[string]string{}
	for _, m := range before.Members {
		owned[m.ID] = tpsText(m.Assignment)
	}
	consumerJoin(t, l, "g", "n1", JoinOptions{})
	v := groupView(t, l, "g")
	if v.Protocol != ProtocolConsumer || v.GroupEpoch != before.Generation+1 || v.AssignmentEpoch != before.Generation+1 {
		t.Fatalf("after the join: protocol %s, group epoch %d, target epoch %d; the classic generation was %d", v.Protocol, v.GroupEpoch, v.AssignmentEpoch, before.Generation)
	}
	for _, c := range []string{"c1", "c2"} {
		m := memberView(t, v, c)
		if m.Protocol != ProtocolClassic || m.Epoch != before.Generation || tpsText(m.Assignment) != owned[c] {
			t.Errorf("%s: protocol %s, epoch %d, owns %s; want classic, epoch %d, %s", c, m.Protocol, m.Epoch, tpsText(m.Assignment), before.Generation, owned[c])
		}
	}
	if n := memberView(t, v, "n1"); n.Protocol != ProtocolConsumer || len(n.PendingAssign) == 0 {
		t.Errorf("n1: protocol %s, pending %s: it waits for partitions the classic members own", n.Protocol, tpsText(n.PendingAssign))
	}
	if !strings.Contains(v.MigrationNote, "rejoin at their next poll") {
		t.Errorf("the mixed group's note %q does not say how the playground times the classic members' rejoin", v.MigrationNote)
	}
	// The classic members move at their polls; then the new member takes
	// what they released at its heartbeat.
	for range 2 {
		mustAdvance(t, l, 5000)
		for _, c := range []string{"c1", "c2"} {
			if _, err := l.Poll("g", c, 10); err != nil {
				t.Fatal(err)
			}
		}
	}
	mustAdvance(t, l, 5000)
	v = groupView(t, l, "g")
	if v.State != GroupStable {
		t.Fatalf("the upgraded group is %s, want stable: %+v", v.State, v.Members)
	}
	for _, m := range v.Members {
		if tpsText(m.Assignment) != tpsText(m.Target) || m.Epoch != v.AssignmentEpoch {
			t.Errorf("%s owns %s at epoch %d, its target %s at %d", m.ID, tpsText(m.Assignment), m.Epoch, tpsText(m.Target), v.AssignmentEpoch)
		}
	}
}

// When the last consumer-protocol member leaves and classic members stay,
// the group is a classic group again at its group epoch, each member with
// its target, and rebalances (GroupMetadataManager.convertToClassicGroup);
// under upgrade only, it stays a consumer group.
func TestDowngradeWhenTheLastConsumerMemberLeaves(t *testing.T) {
	for _, policy := range []string{MigrationBidirectional, MigrationUpgrade} {
		l := newTestLog(t, "orders", 2, nil)
		if err := l.SetConsumerMigrationPolicy(policy); err != nil {
			t.Fatal(err)
		}
		classicJoin(t, l, "g", "c1", JoinOptions{})
		mustAdvance(t, l, 4000)
		consumerJoin(t, l, "g", "n1", JoinOptions{})
		epoch := groupView(t, l, "g").GroupEpoch
		if err := l.Leave("g", "n1"); err != nil {
			t.Fatal(err)
		}
		v := groupView(t, l, "g")
		switch policy {
		case MigrationBidirectional:
			if v.Protocol != ProtocolClassic || v.State != GroupRebalancing || v.Generation != epoch || v.Rebalance == nil ||
				!strings.Contains(v.Rebalance.Cause, "Downgrade group g from consumer to classic") {
				t.Errorf("%s: protocol %s, state %s, generation %d (group epoch was %d), rebalance %+v", policy, v.Protocol, v.State, v.Generation, epoch, v.Rebalance)
			}
			if m := memberView(t, v, "c1"); m.Protocol != ProtocolClassic || m.MemberState != "" {
				t.Errorf("c1 after the downgrade: %+v", m)
			}
		case MigrationUpgrade:
			if v.Protocol != ProtocolConsumer || memberView(t, v, "c1").Protocol != ProtocolClassic {
				t.Errorf("%s: protocol %s: the group must stay a consumer group of classic members", policy, v.Protocol)
			}
		}
	}
}

// Only an empty group can be deleted; it is Dead then, keeps no offsets,
// and a join makes it anew (ConsumerGroup.validateDeleteGroup, Kafka 4.4).
func TestDeleteGroup(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	consumerJoin(t, l, "g", "c1", JoinOptions{})
	if err := l.CommitOffset("g", "orders", 0, 0); err != nil {
		t.Fatal(err)
	}
	if err := l.DeleteGroup("g"); err == nil || !strings.Contains(err.Error(), "The group is not empty.") {
		t.Fatalf("deleting a group with a member: %v", err)
	}
	if err := l.Leave("g", "c1"); err != nil {
		t.Fatal(err)
	}
	snapshot := l.Clone()
	if err := l.DeleteGroup("g"); err != nil {
		t.Fatal(err)
	}
	v := groupView(t, l, "g")
	if v.State != GroupDead || len(v.Partitions) != 0 || v.Protocol != ProtocolClassic {
		t.Fatalf("a deleted group: state %s, partitions %+v, protocol %s", v.State, v.Partitions, v.Protocol)
	}
	if err := l.DeleteGroup("g"); err == nil || !strings.Contains(err.Error(), "The group id does not exist.") {
		t.Fatalf("deleting a Dead group: %v", err)
	}
	if got := groupView(t, snapshot, "g").State; got != GroupEmpty {
		t.Fatalf("a clone taken before the delete is %s, want empty", got)
	}
	classicJoin(t, l, "g", "c2", JoinOptions{})
	if got := groupView(t, l, "g").State; got == GroupDead {
		t.Fatalf("a join left the group Dead")
	}
}

// Random joins of either protocol, leaves, crashes, polls, policy changes,
// deletes and time keep a group sound: no partition has two owners, each
// member of a consumer group says its protocol, a classic group's members
// all run the classic one, and a refused operation changes nothing.
func TestMigrationUnderRandomOperations(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l := NewPartitionedLog(rapid.Int64().Draw(rt, "seed"))
		if err := l.CreateTopic("orders", 3, nil); err != nil {
			rt.Fatal(err)
		}
		names := []string{"c1", "c2", "c3"}
		strategies := []string{StrategyRange, StrategyCooperativeSticky}
		for i := range rapid.IntRange(1, 60).Draw(rt, "steps") {
			name := rapid.SampledFrom(names).Draw(rt, "member")
			before := l.Clone()
			var err error
			switch op := rapid.IntRange(0, 8).Draw(rt, "op"); op {
			case 0, 1:
				opts := JoinOptions{Topics: []string{"orders"}, Strategy: rapid.SampledFrom(strategies).Draw(rt, "strategy")}
				if op == 1 {
					opts = JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer}
				}
				if rapid.Bool().Draw(rt, "static") {
					opts.InstanceID = "i-" + name
				}
				err = l.Join("g", name, opts)
			case 2:
				err = l.Leave("g", name)
			case 3:
				err = l.Crash("g", name)
			case 4:
				_, err = l.Poll("g", name, 5)
			case 5:
				err = l.SetConsumerMigrationPolicy(rapid.SampledFrom(MigrationPolicies()).Draw(rt, "policy"))
			case 6:
				err = l.DeleteGroup("g")
			default:
				err = l.Advance(rapid.Int64Range(1, 20_000).Draw(rt, "ms"))
			}
			if err != nil && !sameGroups(before, l) {
				rt.Fatalf("step %d: a refused operation (%v) changed the group", i, err)
			}
			checkMixedGroup(rt, l)
		}
	})
}

// sameGroups reports whether two logs' group g looks the same.
func sameGroups(a, b *PartitionedLog) bool {
	va, ea := a.Group("g")
	vb, eb := b.Group("g")
	return (ea == nil) == (eb == nil) && reflect.DeepEqual(va, vb)
}

func checkMixedGroup(rt *rapid.T, l *PartitionedLog) {
	v, err := l.Group("g")
	if err != nil {
		return
	}
	owner := map[TopicPartition]string{}
	for _, m := range v.Members {
		for _, tp := range m.Assignment {
			if o, ok := owner[tp]; ok {
				rt.Fatalf("%s is owned by %s and %s: %+v", tp, o, m.ID, v.Members)
			}
			owner[tp] = m.ID
		}
		switch {
		case v.Protocol == ProtocolClassic && m.Protocol != ProtocolClassic:
			rt.Fatalf("classic group g has a %s member %s", m.Protocol, m.ID)
		case v.Protocol == ProtocolConsumer && m.MemberState == "":
			rt.Fatalf("consumer group g's member %s has no member state", m.ID)
		}
	}
}

// Under rules 5 a classic member may take a static member's
// group.instance.id in a consumer group, as Kafka 4.4 lets it
// (GroupMetadataManager.classicGroupJoinToConsumerGroup: no
// UNRELEASED_INSTANCE_ID check for the classic protocol): it replaces the
// member, running or not, with its assignment, at the target's epoch, and
// no new group epoch. When the one it replaced was the last consumer-protocol
// member, the group becomes a classic group at its group epoch, with no
// rebalance (convertToClassicGroup). Rules 4 refuse the join.
func TestClassicMemberTakesAStaticMembersPlace(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	consumerJoin(t, l, "g", "c1", JoinOptions{InstanceID: "i1"})
	mustAdvance(t, l, 2000)
	consumerJoin(t, l, "g", "c2", JoinOptions{})
	mustAdvance(t, l, 10_000)
	before := groupView(t, l, "g")
	c1 := memberView(t, before, "c1")
	if before.State != GroupStable || len(c1.Assignment) != 2 {
		t.Fatalf("before: %s, c1 owns %s", before.State, tpsText(c1.Assignment))
	}
	classicJoin(t, l, "g", "k1", JoinOptions{InstanceID: "i1"}) // c1 still runs
	v := groupView(t, l, "g")
	k1 := memberView(t, v, "k1")
	if slices.ContainsFunc(v.Members, func(m MemberView) bool { return m.ID == "c1" }) || len(v.Members) != 2 {
		t.Fatalf("c1 is still a member beside k1: %+v", v.Members)
	}
	if v.Protocol != ProtocolConsumer || v.GroupEpoch != before.GroupEpoch || k1.Protocol != ProtocolClassic || k1.Epoch != before.AssignmentEpoch ||
		tpsText(k1.Assignment) != tpsText(c1.Assignment) || k1.MemberID == c1.MemberID {
		t.Errorf("k1 in c1's place: group %s at epoch %d (was %d); k1 %s at epoch %d owns %s, id %s; want classic at %d owning %s with a new id",
			v.Protocol, v.GroupEpoch, before.GroupEpoch, k1.Protocol, k1.Epoch, tpsText(k1.Assignment), k1.MemberID, before.AssignmentEpoch, tpsText(c1.Assignment))
	}

	// The last consumer-protocol member replaced: a classic group again.
	l = newTestLog(t, "orders", 4, nil)
	classicJoin(t, l, "g", "c0", JoinOptions{})
	mustAdvance(t, l, 4000)
	consumerJoin(t, l, "g", "c1", JoinOptions{InstanceID: "i1"})
	for range 3 {
		mustAdvance(t, l, 5000)
		if _, err := l.Poll("g", "c0", 1); err != nil {
			t.Fatal(err)
		}
	}
	before = groupView(t, l, "g")
	if before.Protocol != ProtocolConsumer || before.State != GroupStable {
		t.Fatalf("the upgraded group: %s %s %+v", before.Protocol, before.State, before.Members)
	}
	c1 = memberView(t, before, "c1")
	classicJoin(t, l, "g", "k1", JoinOptions{InstanceID: "i1"})
	v = groupView(t, l, "g")
	if v.Protocol != ProtocolClassic || v.State != GroupStable || v.Generation != before.GroupEpoch || v.Rebalance != nil {
		t.Errorf("after the last consumer member's place was taken: %s %s at generation %d (group epoch was %d), rebalance %+v; want a stable classic group at that generation",
			v.Protocol, v.State, v.Generation, before.GroupEpoch, v.Rebalance)
	}
	if k1 := memberView(t, v, "k1"); tpsText(k1.Assignment) != tpsText(c1.Target) {
		t.Errorf("k1 owns %s, want c1's target %s", tpsText(k1.Assignment), tpsText(c1.Target))
	}

	l = newTestLogUnder(t, RulesV4, "orders", 2, nil)
	consumerJoin(t, l, "g", "c1", JoinOptions{InstanceID: "i1"})
	err := l.Join("g", "k1", JoinOptions{Topics: []string{"orders"}, InstanceID: "i1"})
	if err == nil || !strings.Contains(err.Error(), "from rules 5 on") {
		t.Errorf("rules 4: a classic member with a consumer group's static member's instance id: %v", err)
	}
}

// An eager classic member told to revoke, whose next JoinGroup finds a
// newer target that takes more from it, revokes again at the epoch it has
// (Kafka 4.4 CurrentAssignmentBuilder: UNREVOKED_PARTITIONS computes the
// next assignment from the member's epoch); rules 4 gave it its epoch plus
// one.
func TestRevokingAgainKeepsTheMembersEpoch(t *testing.T) {
	for rules, extra := range map[int]int{RulesV4: 1, RulesV5: 0} {
		l := newTestLogUnder(t, rules, "orders", 6, nil)
		classicJoin(t, l, "g", "c1", JoinOptions{Strategy: StrategyRange})
		mustAdvance(t, l, 4000) // c1 owns all six
		consumerJoin(t, l, "g", "n1", JoinOptions{})
		epoch := memberView(t, groupView(t, l, "g"), "c1").Epoch
		mustAdvance(t, l, 1000)
		if _, err := l.Poll("g", "c1", 1); err != nil { // its rejoin: revoke half
			t.Fatal(err)
		}
		if c1 := memberView(t, groupView(t, l, "g"), "c1"); c1.MemberState != MemberUnrevoked || c1.Epoch != epoch {
			t.Fatalf("rules %d: c1 after its first rejoin: %s at epoch %d, want unrevoked at %d", rules, c1.MemberState, c1.Epoch, epoch)
		}
		mustAdvance(t, l, 1000)
		consumerJoin(t, l, "g", "n2", JoinOptions{}) // a newer target takes more from c1
		mustAdvance(t, l, 1000)
		if _, err := l.Poll("g", "c1", 1); err != nil {
			t.Fatal(err)
		}
		c1 := memberView(t, groupView(t, l, "g"), "c1")
		if c1.MemberState != MemberUnrevoked || c1.Epoch != epoch+extra {
			t.Errorf("rules %d: c1 revoking again: %s at epoch %d, want unrevoked at %d", rules, c1.MemberState, c1.Epoch, epoch+extra)
		}
	}
}

// A classic member joining a consumer group gets its member id from the
// coordinator as Kafka 4.4's classicGroupJoinToConsumerGroup makes it, a
// Kafka Uuid's text (rules 5); under rules 4 a classic group's
// client.id-UUID.
func TestClassicMemberIDInAConsumerGroup(t *testing.T) {
	for _, rules := range []int{RulesV4, RulesV5} {
		l := newTestLogUnder(t, rules, "orders", 2, nil)
		consumerJoin(t, l, "g", "n1", JoinOptions{})
		classicJoin(t, l, "g", "k1", JoinOptions{})
		id := memberView(t, groupView(t, l, "g"), "k1").MemberID
		kafkaUuid := len(id) == 22 && !strings.ContainsAny(id, "+/=") && !strings.HasPrefix(id, "k1-")
		if kafkaUuid != (rules >= RulesV5) {
			t.Errorf("rules %d: k1's member id %q (a Kafka Uuid: %v)", rules, id, kafkaUuid)
		}
	}
}
