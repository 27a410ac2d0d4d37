package core

import (
	"fmt"
	"testing"
)

// The sticky assignors under each rules: rules 2 keeps the playground's
// first planner, rules 3 gives Kafka's own partitions
// (AbstractStickyAssignor of kafka-clients 4.4.0; the same group is
// core/assign/testdata/sticky.txt's). C0 reads t0, C1 t0 and t1, C2 t1:
// both give C1 and C2 two partitions of t1 each, but not the same two.
func TestStickyAssignmentUnderEachRules(t *testing.T) {
	for _, tc := range []struct {
		rules  int
		c1, c2 string
	}{
		{RulesV2, "[t1/0 t1/2]", "[t1/1 t1/3]"},
		{RulesV3, "[t1/1 t1/3]", "[t1/0 t1/2]"},
	} {
		l := newTestLogUnder(t, tc.rules, "t0", 2, nil)
		if err := l.CreateTopic("t1", 4, nil); err != nil {
			t.Fatal(err)
		}
		for _, m := range []struct {
			id     string
			topics []string
		}{{"C0", []string{"t0"}}, {"C1", []string{"t0", "t1"}}, {"C2", []string{"t1"}}} {
			if err := l.Join("g", m.id, JoinOptions{Topics: m.topics, Strategy: StrategySticky}); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.Advance(60_000); err != nil {
			t.Fatal(err)
		}
		g, err := l.Group("g")
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, m := range g.Members {
			got[m.ID] = fmt.Sprint(m.Assignment)
		}
		if got["C0"] != "[t0/0 t0/1]" || got["C1"] != tc.c1 || got["C2"] != tc.c2 {
			t.Errorf("rules %d: %v, want C0 [t0/0 t0/1] C1 %s C2 %s", tc.rules, got, tc.c1, tc.c2)
		}
	}
}
