package core

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// groupLog returns an engine with topic orders of the given partitions, n
// records in each (values p<partition>-<i>), produced one second apart.
// Its groups read the records produced before they joined and commit when
// told: the defaults of rules 2 (auto.offset.reset=earliest,
// enable.auto.commit=false), which a group sets by its configs under rules 3
// (TestConsumerDefaultsUnderRules3 checks those).
func groupLog(t testing.TB, partitions, n int) *PartitionedLog {
	t.Helper()
	l := newTestLogUnder(t, RulesV2, "orders", partitions, nil)
	for i := range n {
		for p := range partitions {
			produceTo(t, l, "orders", p, fmt.Sprintf("k%d", p), fmt.Sprintf("p%d-%d", p, i))
		}
		mustAdvance(t, l, 1000)
	}
	return l
}

func mustJoin(t testing.TB, l *PartitionedLog, group, member, strategy string, topics ...string) {
	t.Helper()
	if len(topics) == 0 {
		topics = []string{"orders"}
	}
	if err := l.Join(group, member, JoinOptions{Topics: topics, Strategy: strategy}); err != nil {
		t.Fatal(err)
	}
}

func mustPoll(t testing.TB, l *PartitionedLog, group, member string, max int) []Delivery {
	t.Helper()
	ds, err := l.Poll(group, member, max)
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

func mustGroup(t testing.TB, l *PartitionedLog, name string) GroupView {
	t.Helper()
	v, err := l.Group(name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// settle advances the clock past a default rebalance.
func settle(t testing.TB, l *PartitionedLog) {
	t.Helper()
	mustAdvance(t, l, DefaultGroupConfig().RebalanceMs)
}

func memberView(t testing.TB, v GroupView, id string) MemberView {
	t.Helper()
	for _, m := range v.Members {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("group %s has no member %s: %+v", v.Name, id, v.Members)
	return MemberView{}
}

func assigned(t testing.TB, l *PartitionedLog, group, member string) string {
	t.Helper()
	var parts []string
	for _, tp := range memberView(t, mustGroup(t, l, group), member).Assignment {
		parts = append(parts, tp.String())
	}
	return strings.Join(parts, " ")
}

func wantAssigned(t testing.TB, l *PartitionedLog, group, member, want string) {
	t.Helper()
	if got := assigned(t, l, group, member); got != want {
		t.Fatalf("%s owns %q, want %q", member, got, want)
	}
}

func deliveredOffsets(ds []Delivery) string {
	var parts []string
	for _, d := range ds {
		s := fmt.Sprintf("%d@%d", d.Partition, d.Record.Offset)
		if d.Redelivery {
			s += "*"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// The seed's scenario: a group commits, and a new member resumes from the
// committed offsets.
func TestConsumerGroupOffsets(t *testing.T) {
	l := groupLog(t, 1, 5)
	mustJoin(t, l, "billing", "c1", StrategyRange)
	settle(t, l)
	if got := deliveredOffsets(mustPoll(t, l, "billing", "c1", 2)); got != "0@0 0@1" {
		t.Fatalf("first poll delivered %s", got)
	}
	must(t, l.Commit("billing", "c1"))
	offsets, err := l.GroupOffsets("billing")
	must(t, err)
	if want := map[TopicPartition]int64{{Topic: "orders", Partition: 0}: 2}; !reflect.DeepEqual(offsets, want) {
		t.Fatalf("GroupOffsets = %v, want %v", offsets, want)
	}
	must(t, l.Leave("billing", "c1"))
	mustJoin(t, l, "billing", "c2", StrategyRange)
	settle(t, l)
	if got := deliveredOffsets(mustPoll(t, l, "billing", "c2", 10)); got != "0@2 0@3 0@4" {
		t.Fatalf("the next member should resume at the committed offset 2, got %s", got)
	}
	if _, err := l.GroupOffsets("nobody"); err == nil {
		t.Fatal("GroupOffsets of an unknown group should fail")
	}
}

func TestJoinRebalanceTakesVirtualTime(t *testing.T) {
	l := groupLog(t, 4, 1)
	must(t, l.SetGroupConfig("g", "rebalance.ms", "5s"))
	mustJoin(t, l, "g", "c1", StrategyRange)
	v := mustGroup(t, l, "g")
	if v.State != GroupRebalancing || v.Generation != 0 || len(memberView(t, v, "c1").Assignment) != 0 {
		t.Fatalf("right after a join the group should be rebalancing with nothing assigned: %+v", v)
	}
	if got := mustPoll(t, l, "g", "c1", 10); len(got) != 0 {
		t.Fatalf("a poll during the first rebalance delivered %v", got)
	}
	mustAdvance(t, l, 4999)
	if v := mustGroup(t, l, "g"); v.State != GroupRebalancing {
		t.Fatalf("the rebalance ended before rebalance.ms: %s", v.State)
	}
	mustAdvance(t, l, 1)
	v = mustGroup(t, l, "g")
	if v.State != GroupStable || v.Generation != 1 {
		t.Fatalf("state %s generation %d, want stable generation 1", v.State, v.Generation)
	}
	wantAssigned(t, l, "g", "c1", "orders/0 orders/1 orders/2 orders/3")
	h := v.History[0]
	if h.Generation != 1 || h.Cause != "c1 joined" || h.StartedAt != 1000 || h.CompletedAt != 6000 || h.Moved != 0 {
		t.Fatalf("history record %+v", h)
	}
	if c := h.Members[0]; c.Member != "c1" || len(c.Assigned) != 4 || len(c.Revoked) != 0 {
		t.Fatalf("member change %+v", c)
	}
}

// Eager: a join pauses every partition, and positions restart from the
// committed offsets, so what was read and not committed comes again.
func TestEagerRebalancePausesEverythingAndRewindsToCommitted(t *testing.T) {
	l := groupLog(t, 2, 3)
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	mustPoll(t, l, "g", "c1", 2) // orders/0 offsets 0 and 1
	must(t, l.Commit("g", "c1")) // orders/0 at 2, orders/1 at 0
	mustPoll(t, l, "g", "c1", 2) // orders/0 went to the back: orders/1 offsets 0 and 1
	mustJoin(t, l, "g", "c2", StrategyRange)
	v := mustGroup(t, l, "g")
	if len(v.Rebalance.Paused) != 2 {
		t.Fatalf("eager should pause both partitions, paused %v", v.Rebalance.Paused)
	}
	if got := mustPoll(t, l, "g", "c1", 10); len(got) != 0 {
		t.Fatalf("c1 polled %v during an eager rebalance", got)
	}
	settle(t, l)
	if got := deliveredOffsets(mustPoll(t, l, "g", "c1", 10)); got != "0@2" {
		t.Fatalf("c1 should read orders/0 from the committed offset 2: %s", got)
	}
	if got := deliveredOffsets(mustPoll(t, l, "g", "c2", 10)); got != "1@0* 1@1* 1@2" {
		t.Fatalf("c2 should read orders/1 from the committed 0, offsets 0 and 1 again: %s", got)
	}
	if v := mustGroup(t, l, "g"); v.Totals.Redelivered != 2 {
		t.Fatalf("redelivered %d, want 2", v.Totals.Redelivered)
	}
}

// Cooperative-sticky: only moving partitions pause; they move in two rounds.
func TestCooperativeStickyPausesOnlyMovingPartitions(t *testing.T) {
	l := groupLog(t, 4, 5)
	mustJoin(t, l, "g", "c1", StrategyCooperativeSticky)
	settle(t, l)
	mustPoll(t, l, "g", "c1", 4)
	mustJoin(t, l, "g", "c2", "")
	v := mustGroup(t, l, "g")
	if v.Strategy != StrategyCooperativeSticky || len(v.Rebalance.Paused) != 2 {
		t.Fatalf("two of c1's four partitions should pause: %+v", v.Rebalance)
	}
	got := mustPoll(t, l, "g", "c1", 100)
	for _, d := range got {
		if slices.Contains(v.Rebalance.Paused, TopicPartition{Topic: d.Topic, Partition: d.Partition}) {
			t.Fatalf("c1 consumed paused %s/%d", d.Topic, d.Partition)
		}
	}
	if len(got) == 0 {
		t.Fatal("c1 should keep consuming the partitions that do not move")
	}
	settle(t, l)
	v = mustGroup(t, l, "g")
	if v.State != GroupRebalancing || v.Rebalance.Round != 2 || len(memberView(t, v, "c1").Assignment) != 2 || len(memberView(t, v, "c2").Assignment) != 0 {
		t.Fatalf("after round 1, c1 should have revoked two partitions and c2 wait for round 2: %+v", v)
	}
	if h := v.History[len(v.History)-1]; h.Moved != 2 || h.HeldBack != 2 || h.Round != 1 {
		t.Fatalf("round 1 record %+v", h)
	}
	settle(t, l)
	v = mustGroup(t, l, "g")
	if v.State != GroupStable || len(memberView(t, v, "c2").Assignment) != 2 {
		t.Fatalf("round 2 should give c2 the revoked partitions: %+v", v.Members)
	}
	if h := v.History[len(v.History)-1]; h.Moved != 0 || h.Round != 2 || len(h.Members[1].Assigned) != 2 {
		t.Fatalf("round 2 record %+v", h)
	}
}

func TestCrashIsNoticedAfterSessionTimeout(t *testing.T) {
	l := groupLog(t, 2, 1)
	must(t, l.SetGroupConfig("g", "session.timeout.ms", "10s"))
	mustJoin(t, l, "g", "c1", StrategyRange)
	mustJoin(t, l, "g", "c2", StrategyRange)
	settle(t, l)
	must(t, l.Crash("g", "c1"))
	if _, err := l.Poll("g", "c1", 1); err == nil || !strings.Contains(err.Error(), "crashed") {
		t.Fatalf("a crashed member polled: %v", err)
	}
	mustAdvance(t, l, 9999)
	v := mustGroup(t, l, "g")
	if v.State != GroupStable || memberView(t, v, "c1").Down != "crashed" || len(memberView(t, v, "c1").Assignment) != 1 {
		t.Fatalf("before the session timeout the group keeps c1 and its partition: %+v", v)
	}
	mustAdvance(t, l, 1)
	v = mustGroup(t, l, "g")
	if v.State != GroupRebalancing || len(v.Members) != 1 || v.Rebalance.Cause != "c1's session timed out" {
		t.Fatalf("at the session timeout c1 should be gone and a rebalance running: %+v", v)
	}
	settle(t, l)
	wantAssigned(t, l, "g", "c2", "orders/0 orders/1")
}

// A rebalance cannot complete while a crashed member's session runs: the
// coordinator waits for it, as Kafka's join phase does.
func TestRebalanceWaitsForCrashedMembers(t *testing.T) {
	l := groupLog(t, 2, 1)
	must(t, l.SetGroupConfig("g", "session.timeout.ms", "10s"))
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	must(t, l.Crash("g", "c1"))
	mustJoin(t, l, "g", "c2", StrategyRange)
	mustAdvance(t, l, 5000)
	v := mustGroup(t, l, "g")
	if v.State != GroupRebalancing || !slices.Equal(v.Rebalance.WaitingFor, []string{"c1"}) {
		t.Fatalf("the rebalance should wait for c1: %+v", v.Rebalance)
	}
	mustAdvance(t, l, 5000)
	if v := mustGroup(t, l, "g"); v.State != GroupStable || len(v.Members) != 1 {
		t.Fatalf("the rebalance should end when c1's session expires: %+v", v)
	}
	wantAssigned(t, l, "g", "c2", "orders/0 orders/1")
}

func TestStaticMemberComesBackWithoutRebalance(t *testing.T) {
	l := groupLog(t, 4, 2)
	join := func(member, instance string) {
		t.Helper()
		must(t, l.Join("g", member, JoinOptions{Topics: []string{"orders"}, Strategy: StrategyRange, InstanceID: instance}))
	}
	join("a", "host-1")
	join("b", "host-2")
	settle(t, l)
	mustPoll(t, l, "g", "a", 1)
	must(t, l.Commit("g", "a"))
	before := assigned(t, l, "g", "a")
	generation := mustGroup(t, l, "g").Generation
	must(t, l.Leave("g", "a"))
	v := mustGroup(t, l, "g")
	if v.State != GroupStable || memberView(t, v, "a").Down != "left" {
		t.Fatalf("a static member that shuts down stays until its session times out: %+v", v)
	}
	mustAdvance(t, l, 30_000)
	join("a2", "host-1")
	v = mustGroup(t, l, "g")
	if v.State != GroupStable || v.Generation != generation || assigned(t, l, "g", "a2") != before {
		t.Fatalf("host-1 should be back under a2 with %s and no rebalance: %+v", before, v)
	}
	if got := deliveredOffsets(mustPoll(t, l, "g", "a2", 1)); got != "0@1" {
		t.Fatalf("a2 should start at host-1's committed offset: %s", got)
	}
	// Without coming back in time, the session expires and the group rebalances.
	must(t, l.Crash("g", "b"))
	mustAdvance(t, l, DefaultGroupConfig().SessionTimeoutMs)
	if v := mustGroup(t, l, "g"); v.State != GroupRebalancing {
		t.Fatalf("b's session should have expired: %+v", v)
	}
}

// At-least-once: a member polls and crashes before committing; the next
// owner receives the same records again.
func TestAtLeastOnceRedeliversAfterCrash(t *testing.T) {
	l := groupLog(t, 1, 5)
	mustJoin(t, l, "g", "c1", StrategyRange)
	mustJoin(t, l, "g", "c2", StrategyRange)
	settle(t, l)
	owner, other := "c1", "c2"
	if assigned(t, l, "g", owner) == "" {
		owner, other = other, owner
	}
	mustPoll(t, l, "g", owner, 2)
	must(t, l.Commit("g", owner))
	mustPoll(t, l, "g", owner, 2)
	must(t, l.Crash("g", owner))
	mustAdvance(t, l, DefaultGroupConfig().SessionTimeoutMs)
	settle(t, l)
	if got := deliveredOffsets(mustPoll(t, l, "g", other, 10)); got != "0@2* 0@3* 0@4" {
		t.Fatalf("the next owner should get offsets 2 and 3 again: %s", got)
	}
	v := mustGroup(t, l, "g")
	var outcomes []string
	for _, d := range v.Deliveries {
		outcomes = append(outcomes, fmt.Sprintf("%s:%d:%s", d.Member, d.Record.Offset, d.Outcome))
	}
	want := owner + ":0:processed " + owner + ":1:processed " + owner + ":2:unprocessed " + owner + ":3:unprocessed " +
		other + ":2:processing " + other + ":3:processing " + other + ":4:processing"
	if got := strings.Join(outcomes, " "); got != want {
		t.Fatalf("delivery log\n got %s\nwant %s", got, want)
	}
	if v.Totals.Redelivered != 2 || v.Totals.LostUnprocessed != 0 {
		t.Fatalf("totals %+v", v.Totals)
	}
}

// At-most-once: a member commits what it polled before processing it and
// crashes; nobody ever processes those records.
func TestAtMostOnceLosesRecordsCommittedBeforeProcessing(t *testing.T) {
	l := groupLog(t, 1, 5)
	must(t, l.SetGroupConfig("g", "delivery", AtMostOnce))
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	mustPoll(t, l, "g", "c1", 3)
	must(t, l.Commit("g", "c1"))
	must(t, l.Crash("g", "c1"))
	mustJoin(t, l, "g", "c2", StrategyRange)
	mustAdvance(t, l, DefaultGroupConfig().SessionTimeoutMs)
	if got := deliveredOffsets(mustPoll(t, l, "g", "c2", 10)); got != "0@3 0@4" {
		t.Fatalf("c2 should start after the committed offset 3: %s", got)
	}
	v := mustGroup(t, l, "g")
	if v.Totals.LostUnprocessed != 3 {
		t.Fatalf("3 records should be lost, totals %+v", v.Totals)
	}
	for _, d := range v.Deliveries[:3] {
		if d.Outcome != OutcomeLost {
			t.Fatalf("delivery %+v should be lost", d)
		}
	}
	events := l.DrainEvents()
	if !slices.ContainsFunc(events, func(e Event) bool { return e.Kind == EventLostUnprocessed && e.Count == 3 && e.From == 0 && e.To == 3 }) {
		t.Fatalf("no lost-unprocessed event for offsets 0..3: %v", events)
	}
}

func TestAutoOffsetReset(t *testing.T) {
	for _, c := range []struct {
		reset string
		want  string
	}{{"earliest", "0@0 0@1 0@2"}, {"latest", ""}} {
		t.Run(c.reset, func(t *testing.T) {
			l := groupLog(t, 1, 3)
			must(t, l.SetGroupConfig("g", "auto.offset.reset", c.reset))
			mustJoin(t, l, "g", "c1", StrategyRange)
			settle(t, l)
			if got := deliveredOffsets(mustPoll(t, l, "g", "c1", 10)); got != c.want {
				t.Errorf("%s: delivered %q, want %q", c.reset, got, c.want)
			}
		})
	}
	l := groupLog(t, 1, 3)
	must(t, l.SetGroupConfig("g", "auto.offset.reset", "none"))
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	before := l.Clone()
	if _, err := l.Poll("g", "c1", 10); err == nil || !strings.Contains(err.Error(), "no committed offset") {
		t.Fatalf("auto.offset.reset=none without a commit should fail the poll: %v", err)
	}
	if !reflect.DeepEqual(before.groups, l.groups) {
		t.Fatal("a failed poll changed the group")
	}
	must(t, l.CommitOffset("g", "orders", 0, 1))
	if got := deliveredOffsets(mustPoll(t, l, "g", "c1", 10)); got != "0@1 0@2" {
		t.Fatalf("with a commit, reset=none reads from it: %s", got)
	}
}

// A committed offset below the log start (retention or truncation removed
// the records) is reset, and the offsets jumped over are counted.
func TestResetBelowLogStartCountsSkippedRecords(t *testing.T) {
	l := groupLog(t, 1, 10)
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	mustPoll(t, l, "g", "c1", 2)
	must(t, l.Commit("g", "c1"))
	must(t, l.Leave("g", "c1"))
	must(t, l.Truncate("orders", 0, 6))
	mustJoin(t, l, "g", "c2", StrategyRange)
	settle(t, l)
	if got := deliveredOffsets(mustPoll(t, l, "g", "c2", 1)); got != "0@6" {
		t.Fatalf("c2 should start at the log start 6: %s", got)
	}
	v := mustGroup(t, l, "g")
	if v.Totals.SkippedByReset != 4 || v.Partitions[0].SkippedByReset != 4 {
		t.Fatalf("offsets 2..5 were lost to truncation: %+v %+v", v.Totals, v.Partitions[0])
	}
	// A position that falls below the log start while the member reads.
	must(t, l.Truncate("orders", 0, 9))
	if got := deliveredOffsets(mustPoll(t, l, "g", "c2", 10)); got != "0@9" {
		t.Fatalf("c2 should jump to 9: %s", got)
	}
	if v := mustGroup(t, l, "g"); v.Totals.SkippedByReset != 6 {
		t.Fatalf("skipped %d, want 6", v.Totals.SkippedByReset)
	}
}

func TestResetOffsets(t *testing.T) {
	l := groupLog(t, 2, 5) // timestamps: records i at (i)s
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	mustPoll(t, l, "g", "c1", 3)
	must(t, l.Commit("g", "c1"))
	err := l.ResetOffsets("g", ResetSpec{To: ResetToEarliest})
	if err == nil || !strings.Contains(err.Error(), "active members (c1)") {
		t.Fatalf("a reset on an active group should fail: %v", err)
	}
	must(t, l.Leave("g", "c1"))
	must(t, l.Truncate("orders", 1, 2))
	check := func(spec ResetSpec, want map[TopicPartition]int64) {
		t.Helper()
		must(t, l.ResetOffsets("g", spec))
		got, _ := l.GroupOffsets("g")
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%+v: offsets %v, want %v", spec, got, want)
		}
	}
	p0, p1 := TopicPartition{Topic: "orders", Partition: 0}, TopicPartition{Topic: "orders", Partition: 1}
	// c1's commit covered orders/1 too: its position there was resolved
	// (to 0) though it read nothing from it, as the Java consumer does.
	check(ResetSpec{To: ResetToEarliest}, map[TopicPartition]int64{p0: 0, p1: 2})
	check(ResetSpec{To: ResetToLatest, Topic: "orders"}, map[TopicPartition]int64{p0: 5, p1: 5})
	check(ResetSpec{To: ResetToEarliest, Topic: "orders", Partitions: []int{1}}, map[TopicPartition]int64{p0: 5, p1: 2})
	check(ResetSpec{To: ResetToOffset, Offset: 1, Topic: "orders"}, map[TopicPartition]int64{p0: 1, p1: 2})
	check(ResetSpec{To: ResetToOffset, Offset: 99, Topic: "orders"}, map[TopicPartition]int64{p0: 5, p1: 5})
	check(ResetSpec{To: ResetToDatetime, Datetime: 3000}, map[TopicPartition]int64{p0: 3, p1: 3})
	check(ResetSpec{To: ResetToDatetime, Datetime: 99_000}, map[TopicPartition]int64{p0: 5, p1: 5})

	before := l.Clone()
	for _, bad := range []ResetSpec{{To: "to-nowhere"}, {To: ResetToEarliest, Topic: "nope"}, {To: ResetToEarliest, Topic: "orders", Partitions: []int{7}}, {To: ResetToLatest, Partitions: []int{0}}} {
		if err := l.ResetOffsets("g", bad); err == nil {
			t.Errorf("reset %+v should fail", bad)
		}
	}
	if !reflect.DeepEqual(before.groups, l.groups) {
		t.Fatal("failed resets changed the group")
	}
}

// Groups read the same log independently; a new group at earliest replays
// the retained history.
func TestIndependentGroups(t *testing.T) {
	l := groupLog(t, 1, 4)
	mustJoin(t, l, "fast", "f1", StrategyRange)
	mustJoin(t, l, "slow", "s1", StrategyRange)
	settle(t, l)
	mustPoll(t, l, "fast", "f1", 4)
	must(t, l.Commit("fast", "f1"))
	mustPoll(t, l, "slow", "s1", 1)
	must(t, l.Commit("slow", "s1"))
	mustJoin(t, l, "replay", "r1", StrategyRange)
	settle(t, l)
	if got := deliveredOffsets(mustPoll(t, l, "replay", "r1", 10)); got != "0@0 0@1 0@2 0@3" {
		t.Fatalf("a new group at earliest should replay everything: %s", got)
	}
	if got := l.GroupNames(); !slices.Equal(got, []string{"fast", "replay", "slow"}) {
		t.Fatalf("GroupNames = %v", got)
	}
	for group, lag := range map[string]int64{"fast": 0, "slow": 3} {
		if v := mustGroup(t, l, group); v.TotalLag != lag {
			t.Errorf("%s: lag %d, want %d", group, v.TotalLag, lag)
		}
	}
}

func TestLagInRecordsAndTimeWithAlerts(t *testing.T) {
	l := groupLog(t, 2, 5) // records at 0s..4s; now 5s
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l) // now 8s
	v := mustGroup(t, l, "g")
	if v.Partitions[0].HasCommitted || v.TotalLag != 0 || v.Alert {
		t.Fatalf("without commits there is no lag to show: %+v", v.Partitions[0])
	}
	must(t, l.CommitOffset("g", "orders", 0, 2))
	must(t, l.CommitOffset("g", "orders", 1, 5))
	must(t, l.SetGroupConfig("g", "lag.alert.records", "3"))
	v = mustGroup(t, l, "g")
	p0, p1 := v.Partitions[0], v.Partitions[1]
	if p0.Lag != 3 || p0.TimeLagMs != 6000 || p1.Lag != 0 || p1.TimeLagMs != 0 || v.TotalLag != 3 || v.MaxTimeLagMs != 6000 {
		t.Fatalf("lag: %+v %+v total %d", p0, p1, v.TotalLag)
	}
	if !v.Alert || !strings.Contains(v.AlertReason, "lag.alert.records=3") {
		t.Fatalf("3 records of lag should light lag.alert.records=3: %q", v.AlertReason)
	}
	must(t, l.SetGroupConfig("g", "lag.alert.records", "0"))
	must(t, l.SetGroupConfig("g", "lag.alert.ms", "10s"))
	if v := mustGroup(t, l, "g"); v.Alert {
		t.Fatalf("6s of lag is below lag.alert.ms=10s: %s", v.AlertReason)
	}
	mustAdvance(t, l, 4000)
	if v := mustGroup(t, l, "g"); !v.Alert || v.MaxTimeLagMs != 10_000 {
		t.Fatalf("10s of time lag should light the alert: %+v", v)
	}
}

func TestPartitionCountChangeRebalances(t *testing.T) {
	l := groupLog(t, 2, 1)
	mustJoin(t, l, "g", "c1", StrategyRoundRobin)
	mustJoin(t, l, "g", "c2", StrategyRoundRobin)
	settle(t, l)
	must(t, l.AddPartitions("orders", 4))
	v := mustGroup(t, l, "g")
	if v.State != GroupRebalancing || v.Rebalance.Cause != "topic orders now has 4 partitions" {
		t.Fatalf("adding partitions should start a rebalance: %+v", v.Rebalance)
	}
	settle(t, l)
	if a, b := assigned(t, l, "g", "c1"), assigned(t, l, "g", "c2"); a != "orders/0 orders/2" || b != "orders/1 orders/3" {
		t.Fatalf("round-robin over 4 partitions: c1 %s, c2 %s", a, b)
	}
}

func TestSubscriptionChangeRebalances(t *testing.T) {
	l := groupLog(t, 2, 1)
	must(t, l.CreateTopic("audit", 2, nil))
	mustJoin(t, l, "g", "c1", StrategyRange, "orders", "audit")
	settle(t, l)
	mustJoin(t, l, "g", "c1", StrategyRange, "audit")
	v := mustGroup(t, l, "g")
	if v.State != GroupRebalancing || len(memberView(t, v, "c1").Assignment) != 2 {
		t.Fatalf("c1 should have dropped the orders partitions at once: %+v", v)
	}
	settle(t, l)
	wantAssigned(t, l, "g", "c1", "audit/0 audit/1")
}

func TestIdleMembersInAGroup(t *testing.T) {
	l := groupLog(t, 2, 1)
	for _, id := range []string{"c1", "c2", "c3"} {
		mustJoin(t, l, "g", id, StrategyRange)
	}
	settle(t, l)
	v := mustGroup(t, l, "g")
	if memberView(t, v, "c1").Idle || memberView(t, v, "c2").Idle || !memberView(t, v, "c3").Idle {
		t.Fatalf("c3 should sit idle: %+v", v.Members)
	}
	if got := mustPoll(t, l, "g", "c3", 10); len(got) != 0 {
		t.Fatalf("an idle member polled %v", got)
	}
}

// A poll visits the partitions from the one that waited longest; a
// partition that gave records goes to the back.
func TestPollOrderRotates(t *testing.T) {
	l := groupLog(t, 3, 4)
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	var got []string
	for range 4 {
		got = append(got, deliveredOffsets(mustPoll(t, l, "g", "c1", 3)))
	}
	want := []string{"0@0 0@1 0@2", "1@0 1@1 1@2", "2@0 2@1 2@2", "0@3 1@3 2@3"}
	if !slices.Equal(got, want) {
		t.Fatalf("polls\n got %q\nwant %q", got, want)
	}
}

func TestAutoCommit(t *testing.T) {
	l := groupLog(t, 1, 10)
	must(t, l.SetGroupConfig("g", "enable.auto.commit", "true"))
	must(t, l.SetGroupConfig("g", "auto.commit.interval.ms", "5s"))
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l) // 3s after the join
	committed := func() string {
		offsets, _ := l.GroupOffsets("g")
		if o, ok := offsets[TopicPartition{Topic: "orders", Partition: 0}]; ok {
			return fmt.Sprint(o)
		}
		return "-"
	}
	mustPoll(t, l, "g", "c1", 2)
	if c := committed(); c != "-" {
		t.Fatalf("committed %s before the interval passed", c)
	}
	mustAdvance(t, l, 2000)
	mustPoll(t, l, "g", "c1", 2) // 5s after the join: commits 2, then reads 2..3
	if c := committed(); c != "2" {
		t.Fatalf("auto-commit in poll should commit the position 2 before reading on, got %s", c)
	}
	mustJoin(t, l, "g", "c2", StrategyRange) // commits before revoking
	if c := committed(); c != "4" {
		t.Fatalf("auto-commit before the rebalance should commit 4, got %s", c)
	}
	settle(t, l)
	owner := "c1"
	if assigned(t, l, "g", owner) == "" {
		owner = "c2"
	}
	mustPoll(t, l, "g", owner, 3)
	must(t, l.Leave("g", owner)) // close() commits
	if c := committed(); c != "7" {
		t.Fatalf("auto-commit on leave should commit 7, got %s", c)
	}
}

// Every way to get an operation wrong: a clear error and nothing changed.
func TestGroupBadInputChangesNothing(t *testing.T) {
	l := groupLog(t, 2, 3)
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	must(t, l.Crash("g", "c1"))
	mustJoin(t, l, "g", "c2", StrategyRange)
	before := l.Clone()
	events := len(l.DrainEvents())
	_ = events
	cases := []struct {
		name string
		op   func() error
		want string
	}{
		{"unknown group poll", func() error { _, err := l.Poll("nope", "c1", 1); return err }, `unknown group "nope"`},
		{"unknown member poll", func() error { _, err := l.Poll("g", "zz", 1); return err }, `has no member "zz"`},
		{"crashed member poll", func() error { _, err := l.Poll("g", "c1", 1); return err }, "crashed"},
		{"poll max 0", func() error { _, err := l.Poll("g", "c2", 0); return err }, "max must be between"},
		{"poll max huge", func() error { _, err := l.Poll("g", "c2", 1<<40); return err }, "max must be between"},
		{"commit unknown member", func() error { return l.Commit("g", "zz") }, `has no member "zz"`},
		{"commit crashed", func() error { return l.Commit("g", "c1") }, "crashed"},
		{"commit beyond HW", func() error { return l.CommitOffset("g", "orders", 0, 4) }, "high watermark 3"},
		{"commit negative", func() error { return l.CommitOffset("g", "orders", 0, -1) }, "offsets go from 0"},
		{"commit unknown partition", func() error { return l.CommitOffset("g", "orders", 9, 0) }, "partition 9"},
		{"commit unknown group", func() error { return l.CommitOffset("nope", "orders", 0, 0) }, "unknown group"},
		{"join bad strategy", func() error { return l.Join("g2", "c1", JoinOptions{Topics: []string{"orders"}, Strategy: "fair"}) }, "unknown assignment strategy"},
		{"join other strategy", func() error {
			return l.Join("g", "c3", JoinOptions{Topics: []string{"orders"}, Strategy: StrategySticky})
		}, "INCONSISTENT_GROUP_PROTOCOL"},
		{"join no topics", func() error { return l.Join("g", "c3", JoinOptions{}) }, "at least one topic"},
		{"join unknown topic", func() error { return l.Join("g", "c3", JoinOptions{Topics: []string{"nope"}}) }, `unknown topic "nope"`},
		{"join twice", func() error { return l.Join("g", "c2", JoinOptions{Topics: []string{"orders"}}) }, "already in group"},
		{"join as crashed", func() error { return l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}}) }, "session times out"},
		{"join bad id", func() error { return l.Join("g", "a b", JoinOptions{Topics: []string{"orders"}}) }, "member id"},
		{"join empty group id", func() error { return l.Join("", "c1", JoinOptions{Topics: []string{"orders"}}) }, "group id cannot be empty"},
		{"leave unknown", func() error { return l.Leave("g", "zz") }, "no member"},
		{"leave crashed", func() error { return l.Leave("g", "c1") }, "crashed"},
		{"crash twice", func() error { return l.Crash("g", "c1") }, "crashed"},
		{"reset active", func() error { return l.ResetOffsets("g", ResetSpec{To: ResetToEarliest}) }, "active members"},
		{"config unknown", func() error { return l.SetGroupConfig("g", "fetch.max.bytes", "1") }, "unknown group config"},
		{"config bad value", func() error { return l.SetGroupConfig("g", "session.timeout.ms", "1s") }, "between 6s and 30m"},
		{"config bad rebalance", func() error { return l.SetGroupConfig("g", "rebalance.ms", "1m") }, "between 1ms and 10s"},
		{"config bad reset", func() error { return l.SetGroupConfig("g", "auto.offset.reset", "smallest") }, "not one of"},
		{"config new group bad", func() error { return l.SetGroupConfig("new", "auto.commit", "yes") }, "not one of"},
		{"movement unknown leaver", func() error { _, err := l.CompareMovement("g", MembershipChange{Leave: []string{"zz"}}); return err }, "no running member"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.op()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
			}
			if !reflect.DeepEqual(before.groups, l.groups) {
				t.Fatalf("%s changed the groups", c.name)
			}
			if e := l.DrainEvents(); len(e) != 0 {
				t.Fatalf("%s emitted %v", c.name, e)
			}
		})
	}
}

func TestGroupCloneIsDeep(t *testing.T) {
	l := groupLog(t, 2, 3)
	mustJoin(t, l, "g", "c1", StrategyCooperativeSticky)
	settle(t, l)
	mustPoll(t, l, "g", "c1", 2)
	must(t, l.Commit("g", "c1"))
	mustJoin(t, l, "g", "c2", StrategyCooperativeSticky)
	c := l.Clone()
	snapshot := c.Clone()
	mustPoll(t, l, "g", "c1", 5)
	must(t, l.Commit("g", "c1"))
	must(t, l.Crash("g", "c1"))
	settle(t, l)
	must(t, l.Join("g", "c3", JoinOptions{Topics: []string{"orders"}}))
	mustAdvance(t, l, 60_000)
	if !reflect.DeepEqual(c.groups, snapshot.groups) {
		t.Fatal("changing the engine changed its clone")
	}
}

// CompareMovement: when the first of three members leaves, sticky moves
// only the leaver's partitions; range shifts the others' ranges too.
func TestCompareMovement(t *testing.T) {
	l := groupLog(t, 9, 0)
	for _, id := range []string{"c1", "c2", "c3"} {
		mustJoin(t, l, "g", id, StrategyRange)
	}
	settle(t, l)
	before := l.Clone()
	moves, err := l.CompareMovement("g", MembershipChange{Leave: []string{"c1"}})
	must(t, err)
	byStrategy := map[string]int{}
	for _, m := range moves {
		byStrategy[m.Strategy] = m.Moved
	}
	if byStrategy[StrategySticky] != 3 || byStrategy[StrategyCooperativeSticky] != 3 || byStrategy[StrategyRange] <= 3 {
		t.Fatalf("moves by strategy: %v", byStrategy)
	}
	moves, err = l.CompareMovement("g", MembershipChange{Join: []AssignMember{{ID: "c4", Topics: []string{"orders"}}}})
	must(t, err)
	if moves[2].Strategy != StrategySticky || moves[2].Moved != 2 {
		t.Fatalf("a fourth member joining should take 2 partitions from sticky: %+v", moves[2])
	}
	if !reflect.DeepEqual(before.groups, l.groups) {
		t.Fatal("CompareMovement changed the group")
	}
}

// The last member leaving empties the group at once, with a new generation.
func TestLastMemberLeavingEmptiesTheGroup(t *testing.T) {
	l := groupLog(t, 2, 1)
	mustJoin(t, l, "g", "c1", StrategyRange)
	settle(t, l)
	must(t, l.Leave("g", "c1"))
	v := mustGroup(t, l, "g")
	if v.State != GroupEmpty || v.Generation != 2 || v.Rebalance != nil {
		t.Fatalf("the group should be empty at generation 2: %+v", v)
	}
	if h := v.History[1]; h.Moved != 2 || !h.Members[0].Left || len(h.Members[0].Revoked) != 2 {
		t.Fatalf("history %+v", h)
	}
	if _, ok := l.nextGroupDeadline(); ok {
		t.Fatal("an empty group has no timers")
	}
}
