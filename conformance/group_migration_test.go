package conformance

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core/scenario"
	"plog/kafkarun"
)

// delete-group and the online upgrade (core/group_migration.go) against
// Kafka 4.4's group coordinator, under its default
// group.consumer.migration.policy, bidirectional.

// runRows runs a script on the broker through kafkarun, fails the test on
// an error or a difference without a reason, and returns the rows by what
// they compare.
func runRows(t *testing.T, name, script string) map[string]kafkarun.Row {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	res, err := kafkarun.Run(ctx, script, runOptions())
	if err != nil {
		t.Fatalf("%s: kafkarun: %v\nscenario written to %s", name, err, writeScenario(t, name, script))
	}
	if bad := res.Comparison.Unexpected(); len(bad) > 0 {
		t.Errorf("%s: %d differences without a reason; scenario written to %s\n%s", name, len(bad), writeScenario(t, name, script), res.Comparison.Text())
	}
	rows := map[string]kafkarun.Row{}
	for _, row := range res.Comparison.Rows {
		rows[row.What] = row
	}
	return rows
}

// wantRow fails unless the row is there and both sides say want.
func wantRow(t *testing.T, rows map[string]kafkarun.Row, what, want string) {
	t.Helper()
	row, ok := rows[what]
	if !ok || !row.Match || row.Cluster != want {
		t.Errorf("row %q: %+v (present %v), want both sides %q", what, row, ok, want)
	}
}

// delete-group deletes an empty group and its offsets on the broker as in
// the playground; the broker refuses a group with members
// (NON_EMPTY_GROUP) and one it does not know (GROUP_ID_NOT_FOUND), as the
// playground refuses them, in Kafka's words (Kafka 4.4
// GroupCoordinatorShard.deleteGroups; core.PartitionedLog.DeleteGroup).
func TestDeleteGroupLikeKafka(t *testing.T) {
	t.Parallel()
	rows := runRows(t, "delete-group", `topic orders partitions=2
produce orders key=k1 count=3
produce orders key=k2 count=2
config group g enable.auto.commit=false auto.offset.reset=earliest
config group c enable.auto.commit=false auto.offset.reset=earliest
join g a topics=orders
join c x topics=orders group.protocol=consumer
advance 5s
poll g a
commit g a
poll c x
commit c x
leave g a
leave c x
delete-group g
delete-group c
join g b topics=orders
advance 5s
poll g b max=1
commit g b
`)
	wantRow(t, rows, "g delete-group (line 15)", "deleted")
	wantRow(t, rows, "c delete-group (line 16)", "deleted")
	wantRow(t, rows, "c state", "dead")
	wantRow(t, rows, "g members", "b")

	// The refusals: the playground refuses the script at the delete;
	// the broker answers the same requests with the same errors.
	for _, tc := range []struct {
		script string
		want   *kerr.Error
	}{
		{"topic orders\njoin g a topics=orders\nadvance 5s\ndelete-group g\n", kerr.NonEmptyGroup},
		{"topic orders\njoin g a topics=orders\nleave g a\ndelete-group g\ndelete-group g\n", kerr.GroupIDNotFound},
	} {
		_, err := scenario.Load(tc.script)
		if err == nil || !strings.Contains(err.Error(), tc.want.Description) {
			t.Errorf("the playground on %q: %v, want Kafka's %q", tc.script, err, tc.want.Description)
		}
	}
	client, admin := adminOf(t, brokers)
	ctx := context.Background()
	topic, group := "plog-delete-refused", "plog-delete-refused-g"
	if _, err := admin.CreateTopic(ctx, 1, 1, nil, topic); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.DeleteTopic(context.Background(), topic) })
	waitForTopic(t, ctx, client, topic)
	member, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the member to join", func() bool {
		pollCtx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
		member.PollFetches(pollCtx)
		cancel()
		d, err := admin.DescribeGroups(ctx, group)
		return err == nil && len(d[group].Members) == 1
	})
	deleteErr := func() error {
		resp, err := admin.DeleteGroups(ctx, group)
		if err != nil {
			return err
		}
		return resp[group].Err
	}
	if err := deleteErr(); !errors.Is(err, kerr.NonEmptyGroup) {
		t.Errorf("deleting a group with a member: %v, want NON_EMPTY_GROUP", err)
	}
	member.Close() // leaves the group
	waitFor(t, "the empty group to be deleted", func() bool { return deleteErr() == nil })
	if err := deleteErr(); !errors.Is(err, kerr.GroupIDNotFound) {
		t.Errorf("deleting a deleted group: %v, want GROUP_ID_NOT_FOUND", err)
	}
}

// A classic group rolled to group.protocol=consumer one member at a time
// (each member leaves and joins again with the new protocol, as a rolling
// restart does): the first consumer member's join converts the group to a
// consumer group on the broker as in the playground
// (GroupMetadataManager.convertToConsumerGroup of Kafka 4.4), the classic
// members stay members, with the classic protocol, until their turn, and
// the group ends a consumer group of consumer-protocol members, its
// offsets kept across the conversion.
func TestOnlineUpgradeLikeKafka(t *testing.T) {
	t.Parallel()
	start := `topic orders partitions=3
produce orders key=k1 count=4
produce orders key=k2 count=3
produce orders key=k3 count=2
config group g enable.auto.commit=false auto.offset.reset=earliest
join g c1 topics=orders
join g c2 topics=orders
join g c3 topics=orders
advance 5s
poll g c1
poll g c2
poll g c3
commit g c1
commit g c2
commit g c3
leave g c1
join g c1 topics=orders group.protocol=consumer
`
	t.Run("midway", func(t *testing.T) {
		t.Parallel()
		rows := runRows(t, "upgrade-midway", start+"advance 5s\npoll g c2\npoll g c3\n")
		wantRow(t, rows, "g protocol", "consumer")
		wantRow(t, rows, "g members", "c1 c2 c3")
		wantRow(t, rows, "g c1 protocol", "consumer")
		wantRow(t, rows, "g c2 protocol", "classic")
		wantRow(t, rows, "g c3 protocol", "classic")
		wantRow(t, rows, "g total lag", "0")
	})
	t.Run("rolled", func(t *testing.T) {
		t.Parallel()
		rows := runRows(t, "upgrade-rolled", start+`advance 5s
poll g c2
poll g c3
leave g c2
join g c2 topics=orders group.protocol=consumer
advance 5s
poll g c3
leave g c3
join g c3 topics=orders group.protocol=consumer
advance 5s
produce orders key=k1 count=2
poll g c1
poll g c2
poll g c3
commit g c1
commit g c2
commit g c3
`)
		wantRow(t, rows, "g protocol", "consumer")
		wantRow(t, rows, "g members", "c1 c2 c3")
		for _, m := range []string{"c1", "c2", "c3"} {
			wantRow(t, rows, "g "+m+" protocol", "consumer")
		}
		wantRow(t, rows, "g total lag", "0")
	})
}
