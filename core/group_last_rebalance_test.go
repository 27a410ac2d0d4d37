package core

import (
	"fmt"
	"reflect"
	"testing"
)

func partitionsOf(topic string, ps ...int) []TopicPartition {
	tps := []TopicPartition{}
	for _, p := range ps {
		tps = append(tps, TopicPartition{Topic: topic, Partition: p})
	}
	return tps
}

// A cooperative rebalance runs two rounds; the group's last rebalance adds
// them up: what moved and paused over both, and for each member what it
// lost, gained and kept from before the first round to after the second.
func TestLastRebalanceAddsUpBothCooperativeRounds(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	mustJoin(t, l, "g", "c1", StrategyCooperativeSticky, "orders")
	mustAdvance(t, l, 5*secondMs)
	v, _ := l.Group("g")
	if last := v.LastRebalance; last == nil || last.Rounds != 1 || last.Generation != 1 || last.Moved != 0 ||
		!reflect.DeepEqual(last.Members, v.History[0].Members) {
		t.Fatalf("after c1's first rebalance: %+v, history %+v", last, v.History)
	}
	mustJoin(t, l, "g", "c2", StrategyCooperativeSticky, "orders")
	// c1 rejoins in its poll, ending the first round; it lost partitions,
	// so it rejoins the second at once, which ends when c2 polls (rules 4).
	mustPoll(t, l, "g", "c1", 10)
	mustPoll(t, l, "g", "c2", 10)
	mustAdvance(t, l, 10*secondMs)
	v, _ = l.Group("g")
	if len(v.History) != 3 || v.History[1].Round != 1 || v.History[2].Round != 2 {
		t.Fatalf("want a first rebalance, then a two-round one: %+v", v.History)
	}
	last := v.LastRebalance
	if last == nil || last.Rounds != 2 || last.Generation != 3 || last.Strategy != StrategyCooperativeSticky ||
		last.Cause != v.History[2].Cause || last.Moved != v.History[1].Moved+v.History[2].Moved || last.Moved != 2 ||
		last.Paused != v.History[1].Paused+v.History[2].Paused {
		t.Fatalf("the two-round rebalance: %+v, history %+v", last, v.History)
	}
	var c1, c2 MemberView
	for _, m := range v.Members {
		switch m.ID {
		case "c1":
			c1 = m
		case "c2":
			c2 = m
		}
	}
	want := []MemberChange{
		{Member: "c1", Revoked: partitionsOf("orders", 2, 3), Kept: c1.Assignment},
		{Member: "c2", Assigned: c2.Assignment},
	}
	if len(last.Members) != 2 || len(c1.Assignment) != 2 || len(c2.Assignment) != 2 {
		t.Fatalf("members %+v; c1 owns %v, c2 %v", last.Members, c1.Assignment, c2.Assignment)
	}
	for i, w := range want {
		// fmt writes a nil list and an empty one alike.
		if got := last.Members[i]; fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", w) {
			t.Errorf("over both rounds %s: %+v, want %+v", w.Member, got, w)
		}
	}
}

// A partition revoked in the first round and given back to the same member
// in the second was kept; one revoked and given to another moved; a round
// that follows no first round of its own stands alone.
func TestLastRebalanceMergesTheRounds(t *testing.T) {
	first := RebalanceRecord{Generation: 4, Round: 1, Cause: "c3 joined", Strategy: StrategyCooperativeSticky, Moved: 2, Paused: 2, Members: []MemberChange{
		{Member: "c1", Revoked: partitionsOf("t", 0, 1), Kept: partitionsOf("t", 2)},
		{Member: "c2", Kept: partitionsOf("t", 3)},
	}}
	second := RebalanceRecord{Generation: 5, Round: 2, Cause: "assign the 2 partitions revoked in generation 4", Strategy: StrategyCooperativeSticky, Paused: 0, Members: []MemberChange{
		{Member: "c1", Assigned: partitionsOf("t", 0), Kept: partitionsOf("t", 2)},
		{Member: "c2", Assigned: partitionsOf("t", 1), Kept: partitionsOf("t", 3)},
	}}
	got := lastRebalance([]RebalanceRecord{first, second})
	want := &RebalanceSummary{Rounds: 2, Generation: 5, Strategy: StrategyCooperativeSticky, Cause: second.Cause, Moved: 2, Paused: 2,
		Members: []MemberChange{
			{Member: "c1", Revoked: partitionsOf("t", 1), Kept: partitionsOf("t", 2, 0)},
			{Member: "c2", Assigned: partitionsOf("t", 1), Kept: partitionsOf("t", 3)},
		}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged:\n got %+v\nwant %+v", got, want)
	}
	// The first round's own changes are left as they were.
	if !reflect.DeepEqual(first.Members[0].Kept, partitionsOf("t", 2)) || !reflect.DeepEqual(first.Members[0].Revoked, partitionsOf("t", 0, 1)) {
		t.Errorf("merging changed the history: %+v", first.Members[0])
	}
	// A second round whose first round is no longer in the history.
	if alone := lastRebalance([]RebalanceRecord{second}); alone.Rounds != 1 || !reflect.DeepEqual(alone.Members, second.Members) {
		t.Errorf("a lone follow-up round: %+v", alone)
	}
	if lastRebalance(nil) != nil {
		t.Error("a group that never rebalanced has a last rebalance")
	}
}
