package core

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// A member id is Kafka's: the client.id (a static member's
// group.instance.id), a dash and a version 4 UUID, lower-case hex.
var memberIDPattern = regexp.MustCompile(`^[A-Za-z0-9._-]+-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// memberIDLog is a log under rules with seed 2 and topic t of two
// partitions: with seed 2 the first member id's UUID starts with "d".
func memberIDLog(t *testing.T, rules int) *PartitionedLog {
	t.Helper()
	l := NewPartitionedLog(2)
	if err := l.UseRules(rules); err != nil {
		t.Fatal(err)
	}
	if err := l.CreateTopic("t", 2, nil); err != nil {
		t.Fatal(err)
	}
	return l
}

func joinWith(t *testing.T, l *PartitionedLog, group, name string, opts JoinOptions) {
	t.Helper()
	if err := l.Join(group, name, opts); err != nil {
		t.Fatal(err)
	}
}

func memberViews(t *testing.T, l *PartitionedLog, group string) map[string]MemberView {
	t.Helper()
	v, err := l.Group(group)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]MemberView{}
	for _, m := range v.Members {
		out[m.ID] = m
	}
	return out
}

// Under rules 3 the assignors order members by member id: a's is
// a-d…, a-b's a-b-e…, so a-b comes first and range gives it t/0. Under rules
// 2 they order by name and a gets t/0.
func TestMemberIDsDecideTheAssignorOrder(t *testing.T) {
	for _, tc := range []struct {
		rules      int
		first      string
		order      []string
		wantMember bool
	}{
		{RulesV3, "a-b", []string{"a-b", "a"}, true},
		{RulesV2, "a", []string{"a", "a-b"}, false},
	} {
		l := memberIDLog(t, tc.rules)
		joinWith(t, l, "g", "a", JoinOptions{Topics: []string{"t"}})
		joinWith(t, l, "g", "a-b", JoinOptions{Topics: []string{"t"}})
		mustAdvance(t, l, 3000)
		members := memberViews(t, l, "g")
		if got := members[tc.first].Assignment; !slices.Equal(got, []TopicPartition{{Topic: "t", Partition: 0}}) {
			t.Errorf("rules %d: %s owns %v, want t/0", tc.rules, tc.first, got)
		}
		v, _ := l.Group("g")
		if !slices.Equal(v.AssignorOrder, tc.order) {
			t.Errorf("rules %d: assignor order %v, want %v", tc.rules, v.AssignorOrder, tc.order)
		}
		for name, m := range members {
			if !tc.wantMember {
				if m.MemberID != "" {
					t.Errorf("rules %d: member %s has member id %q, want none", tc.rules, name, m.MemberID)
				}
				continue
			}
			if !memberIDPattern.MatchString(m.MemberID) || m.MemberID[:len(name)+1] != name+"-" {
				t.Errorf("rules %d: member %s has member id %q, want %s-UUID", tc.rules, name, m.MemberID, name)
			}
		}
		if tc.wantMember && members["a"].MemberID != "a-da49a503-f557-4c63-8e41-14c6d3d6c499" {
			t.Errorf("a's member id %q is not seed 2's first", members["a"].MemberID)
		}
	}
}

// A static member's id starts with its group.instance.id; coming back it
// gets a new one. A dynamic member that leaves and joins again gets a new
// id; a new subscription keeps it. The same script gives the same ids, and
// a clone keeps them apart.
func TestMemberIDsAcrossRejoins(t *testing.T) {
	run := func() (*PartitionedLog, map[string]string) {
		l := memberIDLog(t, RulesV3)
		if err := l.CreateTopic("u", 1, nil); err != nil {
			t.Fatal(err)
		}
		ids := map[string]string{}
		joinWith(t, l, "g", "d", JoinOptions{Topics: []string{"t"}})
		joinWith(t, l, "g", "s", JoinOptions{Topics: []string{"t"}, InstanceID: "host-s"})
		mustAdvance(t, l, 3000)
		m := memberViews(t, l, "g")
		ids["d"], ids["s"] = m["d"].MemberID, m["s"].MemberID
		joinWith(t, l, "g", "d", JoinOptions{Topics: []string{"t", "u"}})
		ids["d after subscribing"] = memberViews(t, l, "g")["d"].MemberID
		for _, name := range []string{"d", "s"} {
			if err := l.Leave("g", name); err != nil {
				t.Fatal(err)
			}
		}
		joinWith(t, l, "g", "d", JoinOptions{Topics: []string{"t"}})
		joinWith(t, l, "g", "s2", JoinOptions{Topics: []string{"t"}, InstanceID: "host-s"})
		m = memberViews(t, l, "g")
		ids["d again"], ids["s2"] = m["d"].MemberID, m["s2"].MemberID
		return l, ids
	}
	l, ids := run()
	for what, id := range ids {
		if !memberIDPattern.MatchString(id) {
			t.Errorf("%s: member id %q is not client.id-UUID", what, id)
		}
	}
	if ids["d after subscribing"] != ids["d"] {
		t.Errorf("a new subscription changed d's member id from %s to %s", ids["d"], ids["d after subscribing"])
	}
	if ids["d again"] == ids["d"] {
		t.Errorf("d left and joined again with the same member id %s", ids["d"])
	}
	if ids["s2"] == ids["s"] || ids["s2"][:7] != "host-s-" || ids["s"][:7] != "host-s-" {
		t.Errorf("static member ids %s then %s: want host-s-UUID, a new one on its return", ids["s"], ids["s2"])
	}
	_, again := run()
	for what, id := range ids {
		if again[what] != id {
			t.Errorf("%s: member id %s, then %s on a second run of the same script", what, id, again[what])
		}
	}
	c := l.Clone()
	joinWith(t, l, "g", "e", JoinOptions{Topics: []string{"t"}})
	joinWith(t, c, "g", "f", JoinOptions{Topics: []string{"t"}})
	e, f := memberViews(t, l, "g")["e"].MemberID, memberViews(t, c, "g")["f"].MemberID
	if e[len("e"):] != f[len("f"):] {
		t.Errorf("a clone drew another UUID: e %s, f %s", e, f)
	}
}

// CompareMovement names the members as the group does, whatever ids the
// assignors saw: a joiner gets the id the coordinator would make next.
func TestCompareMovementUnderMemberIDs(t *testing.T) {
	l := memberIDLog(t, RulesV3)
	joinWith(t, l, "g", "a", JoinOptions{Topics: []string{"t"}})
	mustAdvance(t, l, 3000)
	moves, err := l.CompareMovement("g", MembershipChange{Join: []AssignMember{{ID: "a-b", Topics: []string{"t"}}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range moves {
		if _, ok := mv.After["a-b"]; !ok {
			t.Errorf("%s: the joiner a-b is missing from %v", mv.Strategy, mv.After)
		}
		if _, ok := mv.Before["a"]; !ok {
			t.Errorf("%s: a is missing from %v", mv.Strategy, mv.Before)
		}
	}
	// The joiner's id would be seed 2's second, a-b-e…, which sorts before
	// a's a-d…: range would give it t/0 and a t/1.
	if got := moves[0].After["a"]; moves[0].Strategy != StrategyRange || !slices.Equal(got, []TopicPartition{{Topic: "t", Partition: 1}}) {
		t.Errorf("%s: a would own %v, want t/1", moves[0].Strategy, got)
	}
	v, _ := l.Group("g")
	if len(v.Members) != 1 {
		t.Errorf("CompareMovement changed the group: %v", v.Members)
	}
}

// The help's claim: member ids order dynamic members as their names do,
// except where one name is another's with a dash and more after it.
func TestMemberIDsOrderAsNamesButAfterADash(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Int64().Draw(t, "seed")
		name := rapid.StringMatching(`[ab.-]{1,4}`)
		names := rapid.SliceOfNDistinct(name, 2, 2, func(s string) string { return s }).Draw(t, "names")
		orders := map[int][]string{}
		for _, rules := range []int{RulesV2, RulesV3} {
			l := NewPartitionedLog(seed)
			if err := l.UseRules(rules); err != nil {
				t.Fatal(err)
			}
			if err := l.CreateTopic("t", 2, nil); err != nil {
				t.Fatal(err)
			}
			for _, n := range names {
				if err := l.Join("g", n, JoinOptions{Topics: []string{"t"}}); err != nil {
					t.Fatal(err)
				}
			}
			v, _ := l.Group("g")
			orders[rules] = v.AssignorOrder
		}
		dashed := strings.HasPrefix(names[0], names[1]+"-") || strings.HasPrefix(names[1], names[0]+"-")
		if !dashed && !slices.Equal(orders[RulesV2], orders[RulesV3]) {
			t.Fatalf("names %q: by name %v, by member id %v", names, orders[RulesV2], orders[RulesV3])
		}
	})
}
