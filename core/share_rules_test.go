package core

import (
	"fmt"
	"testing"
)

// Share groups follow the same rules under every rules version but for
// one change (they are new commands, which needed no version of their
// own): from rules 6 a topic's new partitions reach them without a poll
// (ShareNewPartitionsAtHeartbeat, TestShareNewPartitionsWithoutAPoll). So
// a scenario made under older rules that adds no partitions, such as the
// page's every-control fixture (app/testdata/every_control.plog, rules 1),
// gives its share groups what the latest rules give them.
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

// A share consumer heartbeats on its background thread whether or not its
// application polls (ShareHeartbeatRequestManager of kafka-clients 4.4),
// and the coordinator gives a topic's new partitions at that heartbeat
// (GroupMetadataManager.onMetadataUpdate, shareGroupHeartbeat): under
// rules 6 a member that does not poll gets them at once, with a new group
// epoch; under rules 5 it gets them at its next poll. A group whose only
// member crashed sends no heartbeat, so it waits under rules 6 too.
func TestShareNewPartitionsWithoutAPoll(t *testing.T) {
	for _, rules := range []int{RulesV5, RulesV6} {
		l := newTestLogUnder(t, rules, "jobs", 1, nil)
		if err := l.CreateTopic("audit", 1, nil); err != nil {
			t.Fatal(err)
		}
		for _, g := range []string{"work", "hung"} {
			if err := l.ShareJoin(g, "a", ShareJoinOptions{Topics: []string{"jobs", "audit"}}); err != nil {
				t.Fatal(err)
			}
		}
		if err := l.ShareCrash("hung", "a"); err != nil {
			t.Fatal(err)
		}
		if err := l.AddPartitions("jobs", 3); err != nil {
			t.Fatal(err)
		}
		owns := func(group string) (string, int) {
			t.Helper()
			v, err := l.ShareGroup(group)
			if err != nil {
				t.Fatal(err)
			}
			return tpsText(v.Members[0].Assignment), v.GroupEpoch
		}
		want, wantEpoch := "audit/0,jobs/0", 1
		if rules >= RulesV6 {
			want, wantEpoch = "audit/0,jobs/0,jobs/1,jobs/2", 2
		}
		if got, epoch := owns("work"); got != want || epoch != wantEpoch {
			t.Errorf("rules %d, before a poll: a owns %s at group epoch %d; want %s at %d", rules, got, epoch, want, wantEpoch)
		}
		if got, epoch := owns("hung"); got != "audit/0,jobs/0" || epoch != 1 {
			t.Errorf("rules %d, a crashed member: it owns %s at group epoch %d; want audit/0,jobs/0 at 1, with no heartbeat to bring more", rules, got, epoch)
		}
		if _, err := l.SharePoll("work", "a", 0); err != nil {
			t.Fatal(err)
		}
		if got, epoch := owns("work"); got != "audit/0,jobs/0,jobs/1,jobs/2" || epoch != 2 {
			t.Errorf("rules %d, after a poll: a owns %s at group epoch %d; want audit/0,jobs/0,jobs/1,jobs/2 at 2", rules, got, epoch)
		}
	}
}
