package kafkarun

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"

	"plog/core"
	"plog/core/scenario"
)

// rowsByWhat indexes a run's rows.
func rowsByWhat(res *Result) map[string]Row { return rowsOf(res.Comparison) }

// delete-group runs on the cluster as DeleteGroups: the group and its
// committed offsets are gone there as in the playground, both read it as
// Dead, and the deletion has a row of its own. A group deleted and joined
// again is a new group on both sides.
func TestDeleteGroupRunsOnTheCluster(t *testing.T) {
	t.Parallel()
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic orders partitions=2
produce orders key=k1 count=3
produce orders key=k2 count=2
config group g enable.auto.commit=false
config group h enable.auto.commit=false
join g a topics=orders
join h x topics=orders
advance 5s
poll g a
commit g a
poll h x
commit h x
leave g a
delete-group g
`)
	allSame(t, res, nil)
	rows := rowsByWhat(res)
	if row := rows["g delete-group (line 15)"]; !row.Match || row.Cluster != "deleted" {
		t.Errorf("the deletion's row: %+v", row)
	}
	if row := rows["g state"]; !row.Match || row.Cluster != "dead" {
		t.Errorf("the deleted group's state: %+v", row)
	}
	for _, g := range res.Cluster.Groups {
		if g.Name == "g" && len(g.Offsets) != 0 {
			t.Errorf("the deleted group keeps offsets on the cluster: %+v", g.Offsets)
		}
	}

	res = runOn(t, testOptions(brokers), `
topic orders partitions=1
produce orders key=k count=3
config group g auto.offset.reset=earliest enable.auto.commit=false
join g a topics=orders
advance 5s
poll g a
commit g a
leave g a
delete-group g
join g b topics=orders
advance 5s
poll g b max=1
commit g b
`)
	allSame(t, res, nil)
	if row := rowsByWhat(res)["g orders/0 committed"]; !row.Match || row.Cluster != "1" {
		t.Errorf("the group made again starts with no offsets, as a new group: %+v", row)
	}
}

// A group the script only configured is the playground's alone: Kafka
// makes a group at a join or a commit, so the cluster answers its deletion
// GROUP_ID_NOT_FOUND, and the row says why.
func TestDeleteConfigOnlyGroupIsExplained(t *testing.T) {
	t.Parallel()
	brokers := startKfake(t)
	res := runOn(t, testOptions(brokers), `
topic orders partitions=1
config group g auto.offset.reset=earliest
delete-group g
`)
	row := rowsByWhat(res)["g delete-group (line 4)"]
	if row.Match || row.Cluster != "GROUP_ID_NOT_FOUND" || row.Reason != ReasonConfigOnlyGroup {
		t.Errorf("deleting a config-only group: %+v\n%s", row, res.Comparison.Text())
	}
	if !res.Comparison.OK() {
		t.Errorf("unexpected differences:\n%s", res.Comparison.Text())
	}
}

// The brokers' group.consumer.migration.policy is read only at broker
// start in Kafka 4.4: a script that sets another than the cluster's is
// noted, and a join the cluster's policy refuses where the playground's
// allows it fails the run before the member joins, naming the policy to
// start the cluster with.
func TestMigrationPolicyIsTheClusters(t *testing.T) {
	t.Parallel()
	brokers := startKfake(t, kfake.BrokerConfigs(map[string]string{"group.consumer.migration.policy": "disabled"}))
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := Run(ctx, `
topic orders partitions=2
join g a topics=orders
advance 5s
join g b topics=orders group.protocol=consumer
`, testOptions(brokers))
	if err == nil || !strings.Contains(err.Error(), "line 5") || !strings.Contains(err.Error(), "group.consumer.migration.policy is disabled") ||
		!strings.Contains(err.Error(), "started with group.consumer.migration.policy=bidirectional") {
		t.Errorf("an upgrade the cluster's policy refuses: %v", err)
	}
	if left := groupsOn(t, brokers); len(left) != 0 {
		t.Errorf("groups left after the failed run: %v", left)
	}

	res := runOn(t, testOptions(brokers), `
brokers 1 group.consumer.migration.policy=upgrade
topic orders partitions=2
join g a topics=orders group.protocol=consumer
advance 5s
`)
	if !slices.ContainsFunc(res.Comparison.NotCompared, func(s string) bool {
		return strings.Contains(s, "group.consumer.migration.policy=upgrade: not run") && strings.Contains(s, "the cluster's is disabled")
	}) {
		t.Errorf("the policy the cluster does not run is not noted:\n%s", res.Comparison.Text())
	}
}

// A consumer group whose last member left: Kafka 4.4 writes its target at
// the new group epoch (consumerGroupFenceMembers), so the cluster's target
// assignment epoch is its group epoch. Rules 5 do the same; under rules 4,
// where the playground's target stays behind its own group epoch, the row
// says why, and where the playground's target follows the group epoch, or
// the scenario runs under rules 5, that reason is not given.
func TestEmptiedConsumerGroupsTargetEpoch(t *testing.T) {
	const script = "topic orders partitions=2\njoin g a topics=orders group.protocol=consumer\nleave g a\n"
	latest := stateOf(t, script).Groups[0]
	if latest.GroupEpoch == nil || latest.AssignmentEpoch == nil || *latest.AssignmentEpoch != *latest.GroupEpoch {
		t.Errorf("rules 5: the emptied consumer group's target is not at its group epoch: %+v", latest)
	}
	for _, rules := range []int{core.RulesV4, core.RulesV5} {
		prediction, cluster := stateOf(t, fmt.Sprintf("rules %d\n%s", rules, script)), stateOf(t, script)
		g := &prediction.Groups[0]
		if g.GroupEpoch == nil || g.AssignmentEpoch == nil || len(g.Members) != 0 {
			t.Fatalf("the playground's emptied consumer group: %+v", *g)
		}
		if (*g.AssignmentEpoch < *g.GroupEpoch) != (rules < core.RulesV5) {
			t.Errorf("rules %d: the playground's target epoch %d, group epoch %d", rules, *g.AssignmentEpoch, *g.GroupEpoch)
		}
		epoch := *g.GroupEpoch + 1
		cluster.Groups[0].GroupEpoch, cluster.Groups[0].AssignmentEpoch, cluster.Groups[0].Generation = &epoch, &epoch, epoch
		for _, behind := range []bool{true, false} {
			target := *g.GroupEpoch
			if behind {
				target = *g.GroupEpoch - 1
			}
			g.AssignmentEpoch = &target
			m := newMarks()
			m.rules = rules
			row := rowsOf(compare(prediction, cluster, &m))["g assignment epoch"]
			excused := behind && rules < core.RulesV5
			if row.Match || (row.Reason == ReasonEmptiedTarget) != excused {
				t.Errorf("rules %d, playground's target epoch %d behind its group epoch %d: %v; the row: %+v", rules, target, *g.GroupEpoch, behind, row)
			}
		}
	}
}

// rowsOf indexes a comparison's rows.
func rowsOf(c Comparison) map[string]Row {
	rows := map[string]Row{}
	for _, row := range c.Rows {
		rows[row.What] = row
	}
	return rows
}

// The last consumer-protocol member of a group with classic members
// leaving: whether the group converts back to a classic group is the
// policy's downgrade. Where the cluster's policy and the playground's
// differ on it, the group is explained by ReasonMigrationPolicy; where
// they differ but both allow it, or it is not the last, nothing is.
func TestMigrationLeaveIsExplainedWhereThePoliciesDiffer(t *testing.T) {
	for _, tc := range []struct {
		playground, cluster, leaving string
		want                         Reason
	}{
		{"upgrade", "bidirectional", "b", ReasonMigrationPolicy},
		{"bidirectional", "disabled", "b", ReasonMigrationPolicy},
		{"bidirectional", "downgrade", "b", ""},
		{"upgrade", "bidirectional", "a", ""},
	} {
		s, err := scenario.Load("brokers 1 group.consumer.migration.policy=" + tc.playground + "\ntopic orders\njoin g a topics=orders\njoin g b topics=orders group.protocol=consumer\n")
		if err != nil {
			t.Fatal(err)
		}
		r := &runner{session: s, marks: newMarks(), migrationPolicy: tc.cluster}
		g := &groupRun{name: "g", consumer: true, members: map[string]*member{"a": {name: "a"}, "b": {name: "b", consumer: true}}}
		r.markMigrationLeave(context.Background(), g, tc.leaving)
		if got := r.marks.groups["g"]; got != tc.want {
			t.Errorf("playground %s, cluster %s, %s leaves: reason %q, want %q", tc.playground, tc.cluster, tc.leaving, got, tc.want)
		}
	}
}
