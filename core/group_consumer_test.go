package core

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// The consumer group protocol (group_consumer.go): each rule of Kafka 4.4's
// coordinator and client, one test each.

func consumerJoin(t *testing.T, l *PartitionedLog, group, name string, opts JoinOptions) {
	t.Helper()
	opts.Protocol = ProtocolConsumer
	if len(opts.Topics) == 0 {
		opts.Topics = []string{"orders"}
	}
	if err := l.Join(group, name, opts); err != nil {
		t.Fatal(err)
	}
}

func groupView(t *testing.T, l *PartitionedLog, group string) GroupView {
	t.Helper()
	v, err := l.Group(group)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func tpsText(tps []TopicPartition) string {
	if len(tps) == 0 {
		return "-"
	}
	return partitionList(tps)
}

// The group epoch is bumped by every change of membership or subscription,
// and the target assignment takes it as its epoch; a member that has
// reconciled has the target's epoch. Under rules 5 a new consumer group is
// at epoch 1, as Kafka 4.4 makes it (ModernGroup), so its first member
// makes it 2; under rules 4 it starts at 0.
func TestConsumerGroupEpochsBump(t *testing.T) {
	for rules, first := range map[int]int{RulesV4: 0, RulesV5: 1} {
		l := newTestLogUnder(t, rules, "orders", 4, nil)
		if err := l.CreateTopic("payments", 2, nil); err != nil {
			t.Fatal(err)
		}
		steps := []struct {
			do                      func()
			groupEpoch, targetEpoch int
			state                   string
			member                  string
			memberEpoch             int
			assignment              string
		}{
			{func() { consumerJoin(t, l, "g", "c1", JoinOptions{}) }, 1, 1, GroupStable, "c1", 1, "orders/0,orders/1,orders/2,orders/3"},
			{func() { mustAdvance(t, l, 2000); consumerJoin(t, l, "g", "c2", JoinOptions{}) }, 2, 2, GroupReconciling, "c1", 1, "orders/0,orders/1,orders/2,orders/3"},
			{func() { mustAdvance(t, l, 10_000) }, 2, 2, GroupStable, "c1", 2, "orders/0,orders/1"},
			{func() { consumerJoin(t, l, "g", "c2", JoinOptions{Topics: []string{"orders", "payments"}}) }, 3, 3, GroupReconciling, "c2", 3, "orders/2,payments/0,payments/1"},
			// uniform balances 6 partitions over both: c2 gives orders/3 up
			// for payments, and c1 takes it at its next heartbeat.
			{func() { mustAdvance(t, l, 10_000) }, 3, 3, GroupStable, "c1", 3, "orders/0,orders/1,orders/3"},
			{func() {
				if err := l.Leave("g", "c1"); err != nil {
					t.Fatal(err)
				}
			}, 4, 3, GroupAssigning, "c2", 3, "orders/2,payments/0,payments/1"},
			{func() { mustAdvance(t, l, 5000) }, 4, 4, GroupStable, "c2", 4, "orders/0,orders/1,orders/2,orders/3,payments/0,payments/1"},
		}
		for i, s := range steps {
			s.do()
			v := groupView(t, l, "g")
			m := memberView(t, v, s.member)
			got := fmt.Sprintf("group epoch %d, target epoch %d, %s; %s epoch %d owns %s", v.GroupEpoch, v.AssignmentEpoch, v.State, s.member, m.Epoch, tpsText(m.Assignment))
			want := fmt.Sprintf("group epoch %d, target epoch %d, %s; %s epoch %d owns %s", first+s.groupEpoch, first+s.targetEpoch, s.state, s.member, first+s.memberEpoch, s.assignment)
			if got != want || v.Protocol != ProtocolConsumer {
				t.Errorf("rules %d, step %d at %dms: %s (protocol %s), want %s", rules, i, l.Now(), got, v.Protocol, want)
			}
		}
	}
}

// A partition moves only once its owner has revoked it: the new member
// waits (unreleased) until the old owner's heartbeat revokes it, then gets
// it at its own next heartbeat. Nothing else stops: the old owner keeps
// reading what it keeps.
func TestConsumerRevokeBeforeAssign(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	consumerJoin(t, l, "g", "c1", JoinOptions{}) // heartbeats at 0, 5s, 10s
	mustAdvance(t, l, 2000)
	consumerJoin(t, l, "g", "c2", JoinOptions{}) // heartbeats at 2s, 7s
	type moment struct {
		at                          int64
		c1, c1Revoke, c2, c2Pending string
		c2State                     string
	}
	want := []moment{
		// c1 owns orders/2 and orders/3 outside its target until its
		// heartbeat at 5s revokes them: they are pending revocation.
		{2000, "orders/0,orders/1,orders/2,orders/3", "orders/2,orders/3", "-", "orders/2,orders/3", MemberUnreleased},
		{4999, "orders/0,orders/1,orders/2,orders/3", "orders/2,orders/3", "-", "orders/2,orders/3", MemberUnreleased},
		{5000, "orders/0,orders/1", "-", "-", "orders/2,orders/3", MemberUnreleased},
		{6999, "orders/0,orders/1", "-", "-", "orders/2,orders/3", MemberUnreleased},
		{7000, "orders/0,orders/1", "-", "orders/2,orders/3", "-", MemberStable},
	}
	for _, w := range want {
		if d := w.at - l.Now(); d > 0 {
			mustAdvance(t, l, d)
		}
		v := groupView(t, l, "g")
		c1, c2 := memberView(t, v, "c1"), memberView(t, v, "c2")
		got := moment{l.Now(), tpsText(c1.Assignment), tpsText(c1.PendingRevoke), tpsText(c2.Assignment), tpsText(c2.PendingAssign), c2.MemberState}
		if got != w {
			t.Errorf("at %dms: %+v, want %+v", l.Now(), got, w)
		}
		if v.Rebalance != nil || slices.ContainsFunc(v.Partitions, func(p PartitionView) bool { return p.Paused }) {
			t.Errorf("at %dms a consumer group paused partitions: %+v", l.Now(), v.Rebalance)
		}
	}
}

// Members heartbeat every consumer.heartbeat.interval.ms from their join;
// the interval is the group's, within the brokers' bounds.
func TestConsumerHeartbeatTiming(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	if err := l.SetGroupConfig("g", "consumer.heartbeat.interval.ms", "4s"); err == nil || !strings.Contains(err.Error(), "group.consumer.min.heartbeat.interval.ms (5s)") {
		t.Errorf("a 4s heartbeat interval: %v, want the brokers' least, 5s", err)
	}
	if err := l.SetGroupConfig("g", "consumer.heartbeat.interval.ms", "8s"); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 1000)
	consumerJoin(t, l, "g", "c1", JoinOptions{})
	for _, w := range []struct{ advance, next int64 }{{0, 9000}, {7999, 9000}, {1, 17_000}, {8000, 25_000}} {
		if w.advance > 0 {
			mustAdvance(t, l, w.advance)
		}
		if got := memberView(t, groupView(t, l, "g"), "c1").NextHeartbeat; got != w.next {
			t.Errorf("at %dms the next heartbeat is at %dms, want %dms", l.Now(), got, w.next)
		}
	}
	v := groupView(t, l, "g")
	var names []string
	for _, e := range v.Config.Entries() {
		names = append(names, e.Name+"="+e.Value)
	}
	if !slices.Contains(names, "consumer.heartbeat.interval.ms=8s") || !slices.Contains(names, "consumer.session.timeout.ms=45s") {
		t.Errorf("a consumer group's configs %v lack its heartbeat interval or session timeout", names)
	}
}

// A member that crashed stops heartbeating: the coordinator fences it
// consumer.session.timeout.ms after its last heartbeat, bumps the group
// epoch, and its partitions go to the others; until then they wait.
func TestConsumerSessionTimeout(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	consumerJoin(t, l, "g", "c1", JoinOptions{})
	mustAdvance(t, l, 2000)
	consumerJoin(t, l, "g", "c2", JoinOptions{})
	mustAdvance(t, l, 10_000) // c1 heartbeated at 10s, c2 at 7s and 12s
	if err := l.Crash("g", "c1"); err != nil {
		t.Fatal(err)
	}
	v := groupView(t, l, "g")
	if c1 := memberView(t, v, "c1"); c1.Down != "crashed" || c1.SessionExpiresAt != 55_000 {
		t.Fatalf("c1 after its crash: down %q until %dms, want crashed until 55s (last heartbeat 10s + 45s)", c1.Down, c1.SessionExpiresAt)
	}
	mustAdvance(t, l, 55_000-12_000-1)
	v = groupView(t, l, "g")
	if len(v.Members) != 2 || v.GroupEpoch != 3 || tpsText(memberView(t, v, "c2").Assignment) != "orders/2,orders/3" {
		t.Fatalf("just before c1's session ends: %d members, epoch %d, c2 owns %v", len(v.Members), v.GroupEpoch, memberView(t, v, "c2").Assignment)
	}
	mustAdvance(t, l, 1)
	v = groupView(t, l, "g")
	if len(v.Members) != 1 || v.GroupEpoch != 4 || v.State != GroupAssigning {
		t.Fatalf("at c1's session end: %d members, epoch %d, %s; want 1, 4, assigning", len(v.Members), v.GroupEpoch, v.State)
	}
	mustAdvance(t, l, 2000) // c2's heartbeat at 57s
	v = groupView(t, l, "g")
	if c2 := memberView(t, v, "c2"); tpsText(c2.Assignment) != "orders/0,orders/1,orders/2,orders/3" || c2.Epoch != 4 || v.State != GroupStable {
		t.Errorf("after c2's heartbeat: c2 epoch %d owns %s, group %s", c2.Epoch, tpsText(c2.Assignment), v.State)
	}
}

// An offset commit carries the member epoch. Under rules 5, as Kafka 4.4
// takes it (ConsumerGroup.validateOffsetCommit,
// createAssignmentEpochValidator): at the member's epoch it is taken; newer
// is refused; older is taken only when every partition it commits was
// assigned to the member at that epoch or before. Under rules 4 every epoch
// but the member's is refused. A refused commit commits nothing.
func TestConsumerStaleEpochCommit(t *testing.T) {
	start := func(rules int) *PartitionedLog {
		l := newTestLogUnder(t, rules, "orders", 2, nil)
		if err := l.SetGroupConfig("g", "auto.offset.reset", "earliest"); err != nil {
			t.Fatal(err)
		}
		produceTo(t, l, "orders", 0, "a", "x")
		produceTo(t, l, "orders", 1, "b", "y")
		consumerJoin(t, l, "g", "c1", JoinOptions{}) // epoch 2, owns orders/0 and orders/1 since 2
		mustAdvance(t, l, 2000)
		consumerJoin(t, l, "g", "c2", JoinOptions{})
		mustAdvance(t, l, 3000) // at 5s c1 revokes orders/1 and moves to epoch 3
		if _, err := l.Poll("g", "c1", 10); err != nil {
			t.Fatal(err)
		}
		return l
	}
	committed := func(l *PartitionedLog) string {
		offsets, _ := l.GroupOffsets("g")
		var parts []string
		for tp, o := range offsets {
			parts = append(parts, fmt.Sprintf("%s/%d:%d", tp.Topic, tp.Partition, o))
		}
		slices.Sort(parts)
		return strings.Join(parts, " ")
	}
	refused := func(l *PartitionedLog, epoch int, kafka string) {
		t.Helper()
		before := committed(l)
		err := l.CommitWithEpoch("g", "c1", epoch)
		if err == nil || !strings.Contains(err.Error(), "STALE_MEMBER_EPOCH") || !strings.Contains(err.Error(), kafka) {
			t.Errorf("rules %d: a commit at epoch %d: %v, want STALE_MEMBER_EPOCH: %s", l.Rules(), epoch, err, kafka)
		}
		if after := committed(l); after != before {
			t.Errorf("rules %d: a refused commit at epoch %d committed %s (was %s)", l.Rules(), epoch, after, before)
		}
	}

	l := start(RulesV5)
	if e := memberView(t, groupView(t, l, "g"), "c1").Epoch; e != 3 {
		t.Fatalf("c1's epoch is %d, want 3", e)
	}
	refused(l, 4, "Received member epoch 4 is newer than current member epoch 3.")
	refused(l, 1, "Received member epoch 1 is older than assignment epoch 2 for partition orders-0.")
	if err := l.CommitWithEpoch("g", "c1", 2); err != nil {
		t.Fatalf("a commit at epoch 2 of orders/0, c1's since epoch 2: %v", err)
	}
	if got := committed(l); got != "orders/0:1" {
		t.Errorf("offsets after the commit at epoch 2: %s", got)
	}
	// c2 leaves: c1 gets orders/1 back at epoch 4, its next heartbeat.
	if err := l.Leave("g", "c2"); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 5000)
	if _, err := l.Poll("g", "c1", 10); err != nil {
		t.Fatal(err)
	}
	if c1 := memberView(t, groupView(t, l, "g"), "c1"); c1.Epoch != 4 || tpsText(c1.Assignment) != "orders/0,orders/1" {
		t.Fatalf("c1 after c2 left: epoch %d owns %s", c1.Epoch, tpsText(c1.Assignment))
	}
	refused(l, 3, "Received member epoch 3 is older than assignment epoch 4 for partition orders-1.")
	if err := l.CommitWithEpoch("g", "c1", 4); err != nil {
		t.Fatal(err)
	}
	if got := committed(l); got != "orders/0:1 orders/1:1" {
		t.Errorf("offsets after the commit at epoch 4: %s", got)
	}

	l = start(RulesV4) // epochs one less: c1 is at 2, orders/0 its since 1
	refused(l, 1, "received member epoch 1 does not match the expected member epoch 2")
	if err := l.CommitWithEpoch("g", "c1", 2); err != nil {
		t.Fatal(err)
	}

	l2 := newTestLog(t, "orders", 2, nil)
	if err := l2.Join("g", "c1", JoinOptions{Topics: []string{"orders"}}); err != nil {
		t.Fatal(err)
	}
	if err := l2.CommitWithEpoch("g", "c1", 0); err == nil || !strings.Contains(err.Error(), "classic") {
		t.Errorf("epoch= on a classic group: %v", err)
	}
}

// A static member leaves with epoch -2: the coordinator keeps it and its
// partitions until its session ends, and a consumer joining with its
// group.instance.id gets them back with no new group epoch. One that
// crashed still holds its instance id (UNRELEASED_INSTANCE_ID).
func TestConsumerStaticRejoin(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	consumerJoin(t, l, "g", "c1", JoinOptions{InstanceID: "i1"})
	mustAdvance(t, l, 2000)
	consumerJoin(t, l, "g", "c2", JoinOptions{})
	mustAdvance(t, l, 10_000)
	if err := l.Leave("g", "c1"); err != nil {
		t.Fatal(err)
	}
	v := groupView(t, l, "g")
	c1 := memberView(t, v, "c1")
	if c1.Epoch != -2 || c1.Down != "left" || tpsText(c1.Assignment) != "orders/0,orders/1" || v.GroupEpoch != 3 {
		t.Fatalf("after the static leave: c1 epoch %d down %q owns %s, group epoch %d", c1.Epoch, c1.Down, tpsText(c1.Assignment), v.GroupEpoch)
	}
	mustAdvance(t, l, 20_000)
	if c2 := memberView(t, groupView(t, l, "g"), "c2"); tpsText(c2.Assignment) != "orders/2,orders/3" {
		t.Fatalf("c2 took the static member's partitions within its session: %s", tpsText(c2.Assignment))
	}
	oldID := c1.MemberID
	consumerJoin(t, l, "g", "c1b", JoinOptions{InstanceID: "i1"})
	v = groupView(t, l, "g")
	back := memberView(t, v, "c1b")
	if back.MemberID == oldID || back.Epoch != 3 || tpsText(back.Assignment) != "orders/0,orders/1" || v.GroupEpoch != 3 || len(v.Members) != 2 {
		t.Errorf("the static member back: id %s (was %s) epoch %d owns %s, group epoch %d, %d members", back.MemberID, oldID, back.Epoch, tpsText(back.Assignment), v.GroupEpoch, len(v.Members))
	}
	if err := l.Crash("g", "c1b"); err != nil {
		t.Fatal(err)
	}
	err := l.Join("g", "c1c", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer, InstanceID: "i1"})
	if err == nil || !strings.Contains(err.Error(), "UNRELEASED_INSTANCE_ID") {
		t.Errorf("joining with a crashed static member's instance id: %v, want UNRELEASED_INSTANCE_ID", err)
	}
}

// What the Kafka 4 client and coordinator refuse, and the mixing of
// protocols the playground does not do yet.
func TestConsumerRefusedConfigs(t *testing.T) {
	cases := []struct {
		name  string
		setup func(l *PartitionedLog) error
		want  string
	}{
		{"strategy with group.protocol=consumer", func(l *PartitionedLog) error {
			return l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer, Strategy: StrategyRange})
		}, "partition.assignment.strategy cannot be set when group.protocol=CONSUMER"},
		{"a client-side session.timeout.ms", func(l *PartitionedLog) error {
			if err := l.SetGroupConfig("g", "session.timeout.ms", "10s"); err != nil {
				return err
			}
			return l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer})
		}, "session.timeout.ms cannot be set when group.protocol=CONSUMER"},
		{"session.timeout.ms on a consumer group", func(l *PartitionedLog) error {
			if err := l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer}); err != nil {
				return err
			}
			return l.SetGroupConfig("g", "session.timeout.ms", "10s")
		}, "session.timeout.ms cannot be set when group.protocol=CONSUMER"},
		{"group.remote.assignor with classic", func(l *PartitionedLog) error {
			return l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, RemoteAssignor: "range"})
		}, "group.remote.assignor cannot be set when group.protocol=CLASSIC"},
		{"an unknown server assignor", func(l *PartitionedLog) error {
			return l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer, RemoteAssignor: "sticky"})
		}, "ServerAssignor sticky is not supported. Supported assignors: uniform, range"},
		{"an unknown protocol", func(l *PartitionedLog) error {
			return l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, Protocol: "streams"})
		}, `group.protocol "streams" is not one of classic, consumer`},
		{"a consumer member into a classic group with members, the upgrade disabled", func(l *PartitionedLog) error {
			if err := l.SetConsumerMigrationPolicy(MigrationDisabled); err != nil {
				return err
			}
			if err := l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}}); err != nil {
				return err
			}
			return l.Join("g", "c2", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer})
		}, "Cannot upgrade classic group g to consumer group because online upgrade is disabled."},
		{"a classic member into a consumer group with members, the migration disabled", func(l *PartitionedLog) error {
			if err := l.SetConsumerMigrationPolicy(MigrationDisabled); err != nil {
				return err
			}
			if err := l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer}); err != nil {
				return err
			}
			return l.Join("g", "c2", JoinOptions{Topics: []string{"orders"}})
		}, "Cannot join the consumer group g with the classic protocol because the group migration is disabled."},
		{"a classic member of another strategy into a mixed group", func(l *PartitionedLog) error {
			if err := l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, Strategy: StrategyRange}); err != nil {
				return err
			}
			if err := l.Join("g", "c2", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer}); err != nil {
				return err
			}
			return l.Join("g", "c3", JoinOptions{Topics: []string{"orders"}, Strategy: StrategyRoundRobin})
		}, "Member c3's protocols are not supported. (Kafka: INCONSISTENT_GROUP_PROTOCOL)"},
		{"a migration policy Kafka does not have", func(l *PartitionedLog) error {
			return l.SetConsumerMigrationPolicy("sideways")
		}, `group.consumer.migration.policy "sideways" is not one of bidirectional, upgrade, downgrade, disabled`},
		{"a session timeout below the brokers' least", func(l *PartitionedLog) error {
			return l.SetGroupConfig("g", "consumer.session.timeout.ms", "10s")
		}, "group.consumer.min.session.timeout.ms (45s)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l := newTestLog(t, "orders", 2, nil)
			err := c.setup(l)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
		})
	}
	l := newTestLogUnder(t, RulesV3, "orders", 2, nil)
	if err := l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}, Protocol: ProtocolConsumer}); err == nil || !strings.Contains(err.Error(), "rules 4") {
		t.Errorf("group.protocol=consumer under rules 3: %v", err)
	}
}

// An empty group takes the protocol of the member that joins it, and keeps
// its committed offsets across the change.
func TestConsumerGroupProtocolOfEmptyGroup(t *testing.T) {
	l := newTestLog(t, "orders", 1, nil)
	if err := l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}}); err != nil {
		t.Fatal(err)
	}
	if err := l.Leave("g", "c1"); err != nil {
		t.Fatal(err)
	}
	if err := l.CommitOffset("g", "orders", 0, 0); err != nil {
		t.Fatal(err)
	}
	consumerJoin(t, l, "g", "c2", JoinOptions{})
	v := groupView(t, l, "g")
	if v.Protocol != ProtocolConsumer || v.State != GroupStable || v.Strategy != "" || len(v.Partitions) != 1 || !v.Partitions[0].HasCommitted {
		t.Errorf("the empty classic group joined by a consumer member: %s %s, partitions %+v", v.Protocol, v.State, v.Partitions)
	}
	// A new consumer group, at group epoch 1 (Kafka 4.4's ModernGroup):
	// its first member makes it 2.
	if v.GroupEpoch != 2 || v.AssignmentEpoch != 2 {
		t.Errorf("the new consumer group: group epoch %d, target epoch %d; want 2, 2", v.GroupEpoch, v.AssignmentEpoch)
	}
	if err := l.Leave("g", "c2"); err != nil {
		t.Fatal(err)
	}
	if err := l.Join("g", "c3", JoinOptions{Topics: []string{"orders"}}); err != nil {
		t.Fatal(err)
	}
	if v := groupView(t, l, "g"); v.Protocol != ProtocolClassic {
		t.Errorf("the empty consumer group joined by a classic member runs %s", v.Protocol)
	}
	// A new classic group, whose first rebalance makes generation 1
	// (GroupMetadataManager.maybeDeleteEmptyConsumerGroup).
	mustAdvance(t, l, 10_000)
	if v := groupView(t, l, "g"); v.State != GroupStable || v.Generation != 1 {
		t.Errorf("the new classic group: %s at generation %d, want stable at 1", v.State, v.Generation)
	}
}

// The client makes its member id: a UUID in Kafka's base64 form, drawn from
// the seed, new at each join.
func TestConsumerMemberIDs(t *testing.T) {
	ids := func() []string {
		l := newTestLog(t, "orders", 2, nil)
		consumerJoin(t, l, "g", "c1", JoinOptions{})
		consumerJoin(t, l, "g", "c2", JoinOptions{InstanceID: "i2"})
		v := groupView(t, l, "g")
		return []string{memberView(t, v, "c1").MemberID, memberView(t, v, "c2").MemberID}
	}
	a, b := ids(), ids()
	if !slices.Equal(a, b) || a[0] == a[1] {
		t.Fatalf("member ids %v and %v: want the same two different ids each run", a, b)
	}
	for _, id := range a {
		if len(id) != 22 || strings.ContainsAny(id, "+/=") || strings.HasPrefix(id, "-") || strings.Contains(id, "c1") {
			t.Errorf("member id %q is not a Kafka Uuid's text (22 URL-safe base64 characters)", id)
		}
	}
}

// Polls, auto-commit and lag work under the consumer protocol: a member
// reads its partitions, auto-commits before it revokes, and the next owner
// starts from the commit.
func TestConsumerPollsAndAutoCommit(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	if err := l.SetGroupConfig("g", "auto.offset.reset", "earliest"); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		produceTo(t, l, "orders", 0, "a", fmt.Sprint(i))
		produceTo(t, l, "orders", 1, "b", fmt.Sprint(i))
	}
	consumerJoin(t, l, "g", "c1", JoinOptions{})
	got, err := l.Poll("g", "c1", 100)
	if err != nil || len(got) != 6 {
		t.Fatalf("c1's poll: %d records, %v", len(got), err)
	}
	mustAdvance(t, l, 2000)
	consumerJoin(t, l, "g", "c2", JoinOptions{})
	mustAdvance(t, l, 5000) // c1 revokes at 5s, committing first; c2 takes it at 7s
	offsets, _ := l.GroupOffsets("g")
	if offsets[TopicPartition{Topic: "orders", Partition: 0}] != 3 || offsets[TopicPartition{Topic: "orders", Partition: 1}] != 3 {
		t.Fatalf("offsets after the revocation: %v, want 3 and 3 (auto-commit before revocation)", offsets)
	}
	produceTo(t, l, "orders", 1, "b", "new")
	moved := "orders/1"
	v := groupView(t, l, "g")
	if tpsText(memberView(t, v, "c2").Assignment) != moved {
		t.Fatalf("c2 owns %s, want %s", tpsText(memberView(t, v, "c2").Assignment), moved)
	}
	if v.TotalLag != 1 {
		t.Errorf("lag %d, want 1", v.TotalLag)
	}
	got, err = l.Poll("g", "c2", 100)
	if err != nil || len(got) != 1 || got[0].Record.Offset != 3 || got[0].Redelivery {
		t.Errorf("c2's poll: %+v, %v; want offset 3 only", got, err)
	}
}

// However members join, leave, crash, poll and subscribe, and however the
// clock moves, no partition is ever owned by two members of a consumer
// group at once (owned: in a member's assignment or pending its
// revocation), and a stable group's members own their targets.
func TestConsumerNeverTwoOwners(t *testing.T) {
	for seed := int64(1); seed <= 40; seed++ {
		first := randomConsumerOps(t, seed)
		if again := randomConsumerOps(t, seed); again != first {
			t.Fatalf("seed %d: the same operations gave two states:\n%s\n%s", seed, first, again)
		}
	}
}

// randomConsumerOps runs a seed's random operations on a consumer group,
// checking after each that no partition has two owners and that a clone
// taken halfway is untouched by what follows, and returns the group's
// final view.
func randomConsumerOps(t *testing.T, seed int64) string {
	{
		rng := rand.New(rand.NewSource(seed))
		l := newTestLog(t, "orders", 6, nil)
		var clone *PartitionedLog
		var cloneView string
		if err := l.CreateTopic("payments", 3, nil); err != nil {
			t.Fatal(err)
		}
		if rng.Intn(2) == 0 {
			_ = l.SetGroupConfig("g", "consumer.heartbeat.interval.ms", fmt.Sprintf("%ds", 5+rng.Intn(10)))
		}
		names := []string{"a", "b", "c", "d", "e"}
		for step := range 120 {
			name := names[rng.Intn(len(names))]
			var err error
			switch op := rng.Intn(10); op {
			case 0, 1:
				topics := []string{"orders"}
				if rng.Intn(3) == 0 {
					topics = append(topics, "payments")
				}
				opts := JoinOptions{Topics: topics, Protocol: ProtocolConsumer}
				if rng.Intn(3) == 0 {
					opts.InstanceID = "i-" + name
				}
				if rng.Intn(4) == 0 {
					opts.RemoteAssignor = ServerAssignors()[rng.Intn(2)]
				}
				err = l.Join("g", name, opts)
			case 2:
				err = l.Leave("g", name)
			case 3:
				err = l.Crash("g", name)
			case 4:
				_, err = l.Poll("g", name, 5)
			case 5:
				if rng.Intn(4) == 0 {
					err = l.AddPartitions("orders", 6+step/10+1)
				}
			default:
				err = l.Advance(int64(1 + rng.Intn(12_000)))
			}
			_ = err // refusals are fine; what matters is what holds after
			checkOneOwner(t, l, fmt.Sprintf("seed %d step %d", seed, step))
			if step == 60 {
				clone = l.Clone()
				cloneView = fmt.Sprintf("%+v", groupViewOrNone(clone))
			}
		}
		if got := fmt.Sprintf("%+v", groupViewOrNone(clone)); got != cloneView {
			t.Fatalf("seed %d: the clone taken at step 60 changed with the original:\n%s\n%s", seed, cloneView, got)
		}
		return fmt.Sprintf("%+v", groupViewOrNone(l))
	}
}

// groupViewOrNone is the group's view with no pointer in it, to print.
func groupViewOrNone(l *PartitionedLog) GroupView {
	v, _ := l.Group("g")
	v.LastRebalance = nil // History holds it
	return v
}

func checkOneOwner(t *testing.T, l *PartitionedLog, where string) {
	t.Helper()
	g := l.groups.groups["g"]
	if g == nil || !g.consumer() {
		return
	}
	owner := map[TopicPartition]string{}
	for _, m := range g.members {
		for _, tp := range append(slices.Clone(m.assigned), m.cm.pendingRevoke...) {
			if o, ok := owner[tp]; ok {
				t.Fatalf("%s: %s is owned by %s and %s at once", where, tp, o, m.id)
			}
			owner[tp] = m.id
		}
	}
	if g.state() == GroupStable {
		for _, m := range g.members {
			if !slices.Equal(m.assigned, g.memberTarget(m)) {
				t.Fatalf("%s: a stable group's member %s owns %v, its target %v", where, m.id, m.assigned, g.cg.target[m.id])
			}
		}
	}
}

// A member whose application does not poll within max.poll.interval.ms
// sends its leave heartbeat: a dynamic member leaves (-1, a new group
// epoch), a static one sends -2 and keeps its partitions for its instance
// id until its session ends.
func TestConsumerPollTimeout(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	if err := l.SetGroupConfig("g", "max.poll.interval.ms", "1m"); err != nil {
		t.Fatal(err)
	}
	consumerJoin(t, l, "g", "d", JoinOptions{})
	consumerJoin(t, l, "g", "s", JoinOptions{InstanceID: "i-s"})
	mustAdvance(t, l, 30_000)
	if _, err := l.Poll("g", "s", 1); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 30_000) // d's poll interval ends at 60s
	v := groupView(t, l, "g")
	if len(v.Members) != 1 || v.Members[0].ID != "s" || v.GroupEpoch != 4 {
		t.Fatalf("after d's poll interval: members %v, group epoch %d; want s alone at epoch 4", v.Members, v.GroupEpoch)
	}
	mustAdvance(t, l, 30_000) // s's ends at 90s
	s := memberView(t, groupView(t, l, "g"), "s")
	if s.Epoch != -2 || s.Down != stoppedPolling || s.SessionExpiresAt != 135_000 || len(s.Assignment) != 2 {
		t.Errorf("after s's poll interval: epoch %d, down %q until %dms, owns %v; want -2, stopped polling until 135s, both partitions", s.Epoch, s.Down, s.SessionExpiresAt, s.Assignment)
	}
}

// Partitions added to a subscribed topic reach the group at its next
// heartbeat: a new group epoch, and a target that gives them out.
func TestConsumerPartitionsAdded(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	consumerJoin(t, l, "g", "c1", JoinOptions{})
	mustAdvance(t, l, 1000)
	if err := l.AddPartitions("orders", 3); err != nil {
		t.Fatal(err)
	}
	if v := groupView(t, l, "g"); v.GroupEpoch != 2 {
		t.Fatalf("right after the partitions were added: group epoch %d, want 2 until a heartbeat", v.GroupEpoch)
	}
	mustAdvance(t, l, 4000)
	v := groupView(t, l, "g")
	if c1 := memberView(t, v, "c1"); v.GroupEpoch != 3 || tpsText(c1.Assignment) != "orders/0,orders/1,orders/2" {
		t.Errorf("after c1's heartbeat at 5s: group epoch %d, c1 owns %s", v.GroupEpoch, tpsText(c1.Assignment))
	}
}

// A change within group.consumer.assignment.interval.ms (1s) of the last
// target assignment waits: under rules 5 for the first heartbeat after the
// interval, as Kafka 4.4's maybeUpdateTargetAssignment has it (it delays
// by a timer only a streams group's target); under rules 4 for the
// interval's end.
func TestConsumerTargetWithinTheAssignmentInterval(t *testing.T) {
	for rules, computedAt := range map[int]int64{RulesV4: 1000, RulesV5: 5000} {
		l := newTestLogUnder(t, rules, "orders", 2, nil)
		consumerJoin(t, l, "g", "c1", JoinOptions{}) // a target at 0s; heartbeats at 5s, 10s
		mustAdvance(t, l, 500)
		consumerJoin(t, l, "g", "c2", JoinOptions{}) // heartbeats at 5.5s
		for _, at := range []int64{999, 1000, 4999, 5000} {
			mustAdvance(t, l, at-l.Now())
			v := groupView(t, l, "g")
			want := GroupAssigning
			if at >= computedAt {
				want = GroupReconciling
			}
			if v.State != want {
				t.Errorf("rules %d at %dms: group %s (group epoch %d, target epoch %d), want %s", rules, at, v.State, v.GroupEpoch, v.AssignmentEpoch, want)
			}
		}
	}
}

// The last member's leaving empties the group: under rules 5 the target
// assignment takes the new group epoch, with no assignment time, as Kafka
// 4.4's consumerGroupFenceMembers writes it, so a member joining within
// group.consumer.assignment.interval.ms of the last target gets its own at
// once; under rules 4 the target keeps its epoch and the new member waits
// for the interval.
func TestConsumerEmptiedGroupsTarget(t *testing.T) {
	for _, rules := range []int{RulesV4, RulesV5} {
		l := newTestLogUnder(t, rules, "orders", 2, nil)
		consumerJoin(t, l, "g", "c1", JoinOptions{}) // a target at 0s
		mustAdvance(t, l, 200)
		if err := l.Leave("g", "c1"); err != nil {
			t.Fatal(err)
		}
		v := groupView(t, l, "g")
		first := l.newConsumerGroupEpoch()
		wantTarget := first + 1 // c1's target
		if rules >= RulesV5 {
			wantTarget = first + 2 // the emptied group's
		}
		if v.State != GroupEmpty || v.GroupEpoch != first+2 || v.AssignmentEpoch != wantTarget {
			t.Errorf("rules %d, emptied: %s, group epoch %d, target epoch %d; want %s, %d, %d", rules, v.State, v.GroupEpoch, v.AssignmentEpoch, GroupEmpty, first+2, wantTarget)
		}
		mustAdvance(t, l, 100)
		consumerJoin(t, l, "g", "c2", JoinOptions{})
		v = groupView(t, l, "g")
		c2 := memberView(t, v, "c2")
		want, owns, epoch := GroupAssigning, "-", first+1 // c1's target still
		if rules >= RulesV5 {
			want, owns, epoch = GroupStable, "orders/0,orders/1", first+3
		}
		if v.State != want || tpsText(c2.Assignment) != owns || v.AssignmentEpoch != epoch || v.GroupEpoch != first+3 {
			t.Errorf("rules %d, c2 joined at %dms: %s, target epoch %d, group epoch %d, c2 owns %s; want %s, %d, %d, %s",
				rules, l.Now(), v.State, v.AssignmentEpoch, v.GroupEpoch, tpsText(c2.Assignment), want, epoch, first+3, owns)
		}
	}
}

// A member's first heartbeat that also finds its topic's new partitions
// bumps the group epoch once under rules 6, as Kafka 4.4's
// GroupMetadataManager.consumerGroupHeartbeat does (one groupEpoch + 1 for
// the subscription and the metadata together); under rules 5 it bumped
// it for each, one ahead of Kafka's from then on.
func TestConsumerJoinAndNewPartitionsBumpOnce(t *testing.T) {
	for _, rules := range []int{RulesV5, RulesV6} {
		l := newTestLogUnder(t, rules, "orders", 2, nil)
		consumerJoin(t, l, "g", "c1", JoinOptions{})
		first := groupView(t, l, "g").GroupEpoch
		if err := l.AddPartitions("orders", 3); err != nil {
			t.Fatal(err)
		}
		consumerJoin(t, l, "g", "c2", JoinOptions{}) // before c1's next heartbeat
		want := first + 1
		if rules < RulesV6 {
			want = first + 2
		}
		if got := groupView(t, l, "g").GroupEpoch; got != want {
			t.Errorf("rules %d: c2 joined as orders gained a partition: group epoch %d; want %d", rules, got, want)
		}
		// A static member back with its subscription changed, as the
		// topic gains a partition, is one bump too.
		l = newTestLogUnder(t, rules, "orders", 2, nil)
		if err := l.CreateTopic("audit", 1, nil); err != nil {
			t.Fatal(err)
		}
		consumerJoin(t, l, "g", "c1", JoinOptions{InstanceID: "i1"})
		if err := l.Leave("g", "c1"); err != nil {
			t.Fatal(err)
		}
		before := groupView(t, l, "g").GroupEpoch
		if err := l.AddPartitions("orders", 3); err != nil {
			t.Fatal(err)
		}
		consumerJoin(t, l, "g", "c1b", JoinOptions{InstanceID: "i1", Topics: []string{"orders", "audit"}})
		want = before + 1
		if rules < RulesV6 {
			want = before + 2
		}
		if got := groupView(t, l, "g").GroupEpoch; got != want {
			t.Errorf("rules %d: static member back with a new subscription as orders gained a partition: group epoch %d; want %d", rules, got, want)
		}
	}
}

// An emptied consumer group describes the brokers' default assignor,
// uniform, under rules 6, as Kafka 4.4's ConsumerGroup.asDescribedGroup
// does with no member to prefer one; under rules 5 it kept the last
// target assignment's, the members' range.
func TestEmptiedConsumerGroupDescribesUniform(t *testing.T) {
	for _, rules := range []int{RulesV5, RulesV6} {
		l := newTestLogUnder(t, rules, "orders", 2, nil)
		consumerJoin(t, l, "g", "c1", JoinOptions{RemoteAssignor: "range"})
		if got := groupView(t, l, "g").Assignor; got != "range" {
			t.Errorf("rules %d: with c1 asking for range the group describes %s", rules, got)
		}
		if err := l.Leave("g", "c1"); err != nil {
			t.Fatal(err)
		}
		want := "uniform"
		if rules < RulesV6 {
			want = "range"
		}
		if v := groupView(t, l, "g"); v.State != GroupEmpty || v.Assignor != want {
			t.Errorf("rules %d: emptied: %s, assignor %s; want %s, %s", rules, v.State, v.Assignor, GroupEmpty, want)
		}
	}
}
