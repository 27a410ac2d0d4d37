package core

import (
	"slices"
	"strings"
	"testing"
)

// stateAt advances the log to the virtual time at and returns the group's
// state then.
func stateAt(t *testing.T, l *PartitionedLog, group string, at int64) string {
	t.Helper()
	if at > l.Now() {
		mustAdvance(t, l, at-l.Now())
	}
	return mustGroup(t, l, group).State
}

// An empty group's first rebalance waits group.initial.rebalance.delay.ms
// (3s), that long again when a member joined in the wait (rules 4); under
// rules 3 it takes rebalance.ms from its start, whoever joins.
func TestInitialRebalanceDelay(t *testing.T) {
	for _, tc := range []struct {
		rules  int
		second bool  // c2 joins at 1s
		doneAt int64 // when the group is stable
	}{
		{RulesV4, false, 3000},
		{RulesV4, true, 6000},
		{RulesV3, false, 3000},
		{RulesV3, true, 3000},
	} {
		l := newTestLogUnder(t, tc.rules, "orders", 4, nil)
		mustJoin(t, l, "g", "c1", StrategyRange)
		if tc.second {
			mustAdvance(t, l, 1000)
			mustJoin(t, l, "g", "c2", StrategyRange)
		}
		if s := stateAt(t, l, "g", tc.doneAt-1); s != GroupRebalancing {
			t.Fatalf("rules %d, second %v: at %dms the group is %s, want rebalancing", tc.rules, tc.second, tc.doneAt-1, s)
		}
		if s := stateAt(t, l, "g", tc.doneAt); s != GroupStable {
			t.Fatalf("rules %d, second %v: at %dms the group is %s, want stable", tc.rules, tc.second, tc.doneAt, s)
		}
	}
}

// The initial wait extends up to the rebalance timeout: with
// max.poll.interval.ms 7s and a member joining in every wait, the waits are
// 3s, 3s and the 1s left.
func TestInitialRebalanceDelayEndsAtTheRebalanceTimeout(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	must(t, l.SetGroupConfig("g", "max.poll.interval.ms", "7s"))
	for i, at := range []int64{0, 2000, 5000, 6500} {
		if at > l.Now() {
			mustAdvance(t, l, at-l.Now())
		}
		mustJoin(t, l, "g", "c"+string(rune('1'+i)), StrategyRange)
	}
	// Waits: 0-3s (c2 joined), 3-6s (c3 joined), 6-7s (c4 joined, but no
	// time remains: 7s-3s-3s-... Kafka's remainingMs reaches 0).
	if s := stateAt(t, l, "g", 6999); s != GroupRebalancing {
		t.Fatalf("at 6.999s the group is %s", s)
	}
	if s := stateAt(t, l, "g", 7000); s != GroupStable {
		t.Fatalf("at 7s the group is %s, want stable", s)
	}
}

// A later rebalance waits for every member to rejoin by polling (rules 4);
// under rules 3 it ends after rebalance.ms.
func TestRebalanceWaitsForMembersToPoll(t *testing.T) {
	for _, rules := range []int{RulesV3, RulesV4} {
		l := newTestLogUnder(t, rules, "orders", 4, nil)
		mustJoin(t, l, "g", "c1", StrategyRange)
		mustJoin(t, l, "g", "c2", StrategyRange)
		mustAdvance(t, l, 10_000)
		mustPoll(t, l, "g", "c1", 10)
		mustPoll(t, l, "g", "c2", 10)
		mustJoin(t, l, "g", "c3", StrategyRange)
		mustAdvance(t, l, 60_000)
		v := mustGroup(t, l, "g")
		if rules == RulesV3 {
			if v.State != GroupStable {
				t.Fatalf("rules 3: a minute after c3 joined the group is %s", v.State)
			}
			continue
		}
		if v.State != GroupRebalancing || !slices.Equal(v.Rebalance.NotRejoined, []string{"c1", "c2"}) ||
			!strings.Contains(v.Rebalance.Waits, "c1, c2 to rejoin by polling") || v.Rebalance.DoneAt != 10_000+300_000 {
			t.Fatalf("rules 4: a minute after c3 joined: %s, %+v", v.State, v.Rebalance)
		}
		if ds := mustPoll(t, l, "g", "c1", 10); len(ds) != 0 {
			t.Fatalf("c1 got records while the group rebalances: %v", ds)
		}
		if v := mustGroup(t, l, "g"); v.State != GroupRebalancing || !slices.Equal(v.Rebalance.NotRejoined, []string{"c2"}) ||
			!strings.Contains(v.Members[0].EmptyPoll, "c2 to rejoin by polling") {
			t.Fatalf("after c1 polled: %s, %+v, %q", v.State, v.Rebalance, v.Members[0].EmptyPoll)
		}
		mustPoll(t, l, "g", "c2", 10)
		v = mustGroup(t, l, "g")
		if v.State != GroupStable || len(v.Members) != 3 || len(v.Members[2].Assignment) == 0 {
			t.Fatalf("after c2 polled the rebalance is over: %s, %+v", v.State, v.Members)
		}
	}
}

// At the rebalance timeout (max.poll.interval.ms, fixed when the rebalance
// starts) the dynamic members that have not rejoined are removed, here a
// crashed one whose session outlasts it.
func TestRebalanceTimeoutRemovesMembersThatDidNotRejoin(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	must(t, l.SetGroupConfig("g", "max.poll.interval.ms", "10s"))
	must(t, l.SetGroupConfig("g", "session.timeout.ms", "30s"))
	mustJoin(t, l, "g", "c1", StrategyRange)
	mustJoin(t, l, "g", "c2", StrategyRange)
	mustAdvance(t, l, 6000)
	mustPoll(t, l, "g", "c1", 10)
	must(t, l.Crash("g", "c2"))
	mustJoin(t, l, "g", "c3", StrategyRange) // at 6s: the timeout is at 16s
	mustPoll(t, l, "g", "c1", 10)
	mustAdvance(t, l, 5000)
	mustPoll(t, l, "g", "c1", 10)
	mustPoll(t, l, "g", "c3", 10) // in its poll interval too
	if s := stateAt(t, l, "g", 15_999); s != GroupRebalancing {
		t.Fatalf("before the rebalance timeout the group is %s", s)
	}
	mustPoll(t, l, "g", "c1", 10)
	v := mustGroup(t, l, "g")
	if v.State != GroupRebalancing || !slices.Equal(v.Rebalance.WaitingFor, []string{"c2"}) {
		t.Fatalf("the rebalance waits for the crashed c2: %s %+v", v.State, v.Rebalance)
	}
	l.DrainEvents()
	mustAdvance(t, l, 1)
	v = mustGroup(t, l, "g")
	if v.State != GroupStable || len(v.Members) != 2 || v.Members[0].ID != "c1" || v.Members[1].ID != "c3" {
		t.Fatalf("at the rebalance timeout c2 is removed and the group stable: %s %+v", v.State, v.Members)
	}
	if !slices.ContainsFunc(l.DrainEvents(), func(e Event) bool {
		return e.Kind == EventMemberLeft && e.Member == "c2" && strings.Contains(e.Detail, "did not rejoin within the rebalance timeout")
	}) {
		t.Fatal("no event says c2 was removed at the rebalance timeout")
	}
}

// A member that does not poll within max.poll.interval.ms leaves the group
// (rules 4): a dynamic one at once, starting a rebalance; a static one stops
// heartbeating and its session ends it. Under rules 3 nobody leaves.
func TestMaxPollIntervalLeaves(t *testing.T) {
	for _, rules := range []int{RulesV3, RulesV4} {
		l := newTestLogUnder(t, rules, "orders", 4, nil)
		mustJoin(t, l, "g", "c1", StrategyRange)
		must(t, l.Join("g", "s1", JoinOptions{Topics: []string{"orders"}, InstanceID: "s1"}))
		mustJoin(t, l, "g", "c2", StrategyRange)
		mustAdvance(t, l, 10_000)
		l.DrainEvents()
		for at := int64(60_000); at <= 300_000; at += 60_000 {
			mustAdvance(t, l, at-l.Now())
			mustPoll(t, l, "g", "c2", 10) // c2 keeps polling, c1 and s1 do not
		}
		mustAdvance(t, l, 10_001) // past 5m after their joins at 0
		v := mustGroup(t, l, "g")
		if rules == RulesV3 {
			if len(v.Members) != 3 || v.State != GroupStable {
				t.Fatalf("rules 3: %s %+v", v.State, v.Members)
			}
			continue
		}
		names := []string{}
		for _, m := range v.Members {
			names = append(names, m.ID+":"+m.Down)
		}
		if !slices.Equal(names, []string{"c2:", "s1:stopped polling"}) || v.State != GroupRebalancing {
			t.Fatalf("rules 4: after 5m without a poll: %s %v", v.State, names)
		}
		events := l.DrainEvents()
		if !slices.ContainsFunc(events, func(e Event) bool {
			return e.Kind == EventMemberLeft && e.Member == "c1" && strings.Contains(e.Detail, "did not poll within max.poll.interval.ms (5m)")
		}) {
			t.Fatalf("no event says c1 left for not polling: %v", events)
		}
		// s1's session (45s) ends it; then c2's poll ends the rebalance.
		mustAdvance(t, l, 45_000)
		mustPoll(t, l, "g", "c2", 10)
		v = mustGroup(t, l, "g")
		if v.State != GroupStable || len(v.Members) != 1 || len(v.Members[0].Assignment) != 4 {
			t.Fatalf("after s1's session ended and c2 polled: %s %+v", v.State, v.Members)
		}
		if d := v.Members[0].PollDeadline; d != l.Now()+300_000 {
			t.Fatalf("c2's poll deadline is %d, want %d", d, l.Now()+300_000)
		}
	}
}

// Partitions added to a topic start a rebalance at the leader's next
// metadata refresh (its join time plus a multiple of metadata.max.age.ms),
// and no assignment before gives them out (rules 4); under rules 3 at once.
func TestNewPartitionsWaitForTheLeadersMetadataRefresh(t *testing.T) {
	for _, rules := range []int{RulesV3, RulesV4} {
		l := newTestLogUnder(t, rules, "orders", 2, nil)
		mustJoin(t, l, "g", "c1", StrategyRange)
		mustAdvance(t, l, 60_000)
		mustPoll(t, l, "g", "c1", 10)
		must(t, l.AddPartitions("orders", 4))
		v := mustGroup(t, l, "g")
		if rules == RulesV3 {
			if v.State != GroupRebalancing {
				t.Fatalf("rules 3: adding partitions starts a rebalance at once: %s", v.State)
			}
			continue
		}
		if v.State != GroupStable || v.MetadataRefreshAt != 300_000 || !strings.Contains(v.Unseen, "orders has 4 partitions, the leader's metadata 2") {
			t.Fatalf("rules 4: after adding partitions: %s, refresh at %d, %q", v.State, v.MetadataRefreshAt, v.Unseen)
		}
		// c2 joins at 2m: the rebalance's assignment uses the leader's
		// metadata, still 2 partitions.
		mustAdvance(t, l, 60_000)
		mustJoin(t, l, "g", "c2", StrategyRange)
		mustPoll(t, l, "g", "c1", 10)
		v = mustGroup(t, l, "g")
		if v.State != GroupStable || len(v.Members[0].Assignment)+len(v.Members[1].Assignment) != 2 {
			t.Fatalf("rules 4: the join's rebalance gives out the 2 partitions the leader knows: %s %+v", v.State, v.Members)
		}
		for l.Now() < 299_999 {
			mustAdvance(t, l, min(60_000, 299_999-l.Now()))
			mustPoll(t, l, "g", "c1", 10)
			mustPoll(t, l, "g", "c2", 10)
		}
		if v := mustGroup(t, l, "g"); v.State != GroupStable {
			t.Fatalf("before the refresh: %s", v.State)
		}
		mustAdvance(t, l, 1)
		v = mustGroup(t, l, "g")
		if v.State != GroupRebalancing || !strings.Contains(v.Rebalance.Cause, "metadata refresh") || v.MetadataRefreshAt != 0 {
			t.Fatalf("at the leader's refresh: %s %+v", v.State, v.Rebalance)
		}
		mustPoll(t, l, "g", "c1", 10)
		mustPoll(t, l, "g", "c2", 10)
		v = mustGroup(t, l, "g")
		if v.State != GroupStable || len(v.Members[0].Assignment)+len(v.Members[1].Assignment) != 4 {
			t.Fatalf("after both rejoined all 4 partitions are assigned: %s %+v", v.State, v.Members)
		}
	}
}

// rebalance.ms is refused from rules 4 with what replaced it, and the new
// configs before rules 4.
func TestRebalanceConfigsByRules(t *testing.T) {
	l := newTestLog(t, "orders", 1, nil)
	err := l.SetGroupConfig("g", "rebalance.ms", "1s")
	if err == nil || !strings.Contains(err.Error(), "rebalance.ms is gone from rules 4") || !strings.Contains(err.Error(), "rejoined by polling") {
		t.Fatalf("rebalance.ms under rules 4: %v", err)
	}
	old := newTestLogUnder(t, RulesV3, "orders", 1, nil)
	must(t, old.SetGroupConfig("g", "rebalance.ms", "1s"))
	for _, name := range []string{"max.poll.interval.ms", "metadata.max.age.ms", "group.initial.rebalance.delay.ms"} {
		if err := old.SetGroupConfig("g", name, "1s"); err == nil || !strings.Contains(err.Error(), "comes with rules 4") {
			t.Fatalf("%s under rules 3: %v", name, err)
		}
		must(t, l.SetGroupConfig("g", name, "1s"))
	}
	var names []string
	for _, e := range mustGroup(t, l, "g").Config.Entries() {
		names = append(names, e.Name)
	}
	if slices.Contains(names, "rebalance.ms") || !slices.Contains(names, "max.poll.interval.ms") {
		t.Fatalf("rules 4's group configs: %v", names)
	}
}
