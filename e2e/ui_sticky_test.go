package e2e

import (
	"fmt"
	"testing"

	"plog/core"
)

// A learner joins three members with unequal subscriptions to a sticky
// group through the form: c0 reads t0, c1 t0 and t1, c2 t1. Under the
// latest rules the page gives Kafka's own partitions (kafka-clients
// 4.4.0's StickyAssignor gives c1 t1-1, t1-3 and c2 t1-0, t1-2); a
// scenario made under rules 2 keeps the playground's first planner, which
// gives c1 and c2 the other two each.
func TestUIStickyGivesKafkasPartitions(t *testing.T) {
	t.Parallel()
	const topics = "topic t0 partitions=2\ntopic t1 partitions=4\n"
	for _, tc := range []struct {
		name, script, c1, c2 string
	}{
		// A link without a rules line opens under rules 1: this one says
		// the latest.
		{"latest rules", fmt.Sprintf("rules %d\n", core.LatestRules) + topics, "t1/1 t1/3", "t1/0 t1/2"},
		{"rules 2", "rules 2\n" + topics, "t1/0 t1/2", "t1/1 t1/3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := openPlayground(t, tc.script)
			for _, m := range []struct{ id, topics string }{{"c0", "t0"}, {"c1", "t0,t1"}, {"c2", "t1"}} {
				b.joinMember(t, "g", m.id, m.topics, "sticky", "")
				b.waitCount(t, member("g", m.id), 1)
			}
			b.click(t, "#advance-1m")
			b.waitCount(t, `article[data-group=g][data-state=stable]`, 1)
			for id, want := range map[string]string{"c0": "t0/0 t0/1", "c1": tc.c1, "c2": tc.c2} {
				if got := b.attr(t, member("g", id), "data-assigned"); got != want {
					t.Errorf("%s: data-assigned=%q, want %q", id, got, want)
				}
			}
			b.noErrors(t)
		})
	}
}
