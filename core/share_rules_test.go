package core

import (
	"fmt"
	"testing"
)

// Share groups follow the same rules under every rules version: the engine
// never branches on the version for them (they are new commands, which
// need no version of their own), so a scenario made under older rules,
// such as the page's every-control fixture (app/testdata/every_control.plog,
// rules 1), gives its share groups what the latest rules give them.
func TestShareGroupsAreTheSameUnderEveryRules(t *testing.T) {
	var want string
	for v := RulesV1; v <= LatestRules; v++ {
		l := NewPartitionedLog(3)
		if err := l.UseRules(v); err != nil {
			t.Fatal(err)
		}
		steps := []func() error{
			func() error { return l.CreateTopic("orders", 1, nil) },
			func() error { return l.ShareJoin("w", "s1", ShareJoinOptions{Topics: []string{"orders"}}) },
			func() error {
				return l.ShareJoin("w", "s2", ShareJoinOptions{Topics: []string{"orders"}, AckMode: AckModeExplicit, MaxPollRecords: 2})
			},
			func() error { _, err := l.SharePoll("w", "s1", 0); return err },
			func() error {
				for i := range 5 {
					if _, err := l.Produce(ProduceRequest{Topic: "orders", Key: fmt.Sprint(i), HasKey: true, Value: "v", Partition: -1}); err != nil {
						return err
					}
				}
				return nil
			},
			func() error { _, err := l.SharePoll("w", "s2", 0); return err },
			func() error { _, err := l.SharePoll("w", "s1", 2); return err },
			func() error { return l.ShareAcknowledge("w", "s2", TopicPartition{}, nil, AckRelease) },
			func() error { return l.ShareCrash("w", "s1") },
			func() error { return l.Advance(31_000) },
			func() error { _, err := l.SharePoll("w", "s2", 0); return err },
		}
		for i, step := range steps {
			if err := step(); err != nil {
				t.Fatalf("rules %d, step %d: %v", v, i, err)
			}
		}
		g, err := l.ShareGroup("w")
		if err != nil {
			t.Fatal(err)
		}
		got := fmt.Sprintf("%+v", g)
		if v == RulesV1 {
			want = got
			continue
		}
		if got != want {
			t.Errorf("under rules %d the share group is\n%s\nunder rules 1\n%s", v, got, want)
		}
	}
}
