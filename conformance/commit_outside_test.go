package conformance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core/scenario"
)

// An offset commit from outside a group, as an admin client makes it (no
// member id, generation -1), against the broker beside the playground
// (rules 3, core/group_consume.go's CommitOffset): Kafka's coordinator
// answers UNKNOWN_MEMBER_ID while the group has a member, live or stopped
// without LeaveGroup and within its session, and takes the commit once the
// group is Empty (ClassicGroup.validateOffsetCommit, Kafka 4.4). A static
// member that shuts down sends no LeaveGroup, so it keeps the group until
// its session.timeout.ms has passed; the playground's `leave` of a static
// member is that.
func TestCommitFromOutsideTheGroupLikeKafka(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	client, admin := adminOf(t, brokers)
	suffix := fmt.Sprint(time.Now().UnixNano())
	topic, group := "plog-outside-"+suffix, "plog-outside-group-"+suffix
	defer func() {
		cleanup, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		admin.DeleteGroups(cleanup, group)
		admin.DeleteTopics(cleanup, topic)
	}()
	if _, err := admin.CreateTopic(ctx, 1, 1, nil, topic); err != nil {
		t.Fatal(err)
	}
	waitForTopic(t, ctx, client, topic)
	for range 4 {
		if err := produceTo(ctx, client, topic, "v"); err != nil {
			t.Fatal(err)
		}
	}

	// The playground: a static member joins, polls, and shuts down.
	s, err := scenario.Load(`topic t partitions=1
produce t partition=0 value=v count=4
config group g session.timeout.ms=6s
join g s1 topics=t instance=host-1
advance 3s
poll g s1
leave g s1
`)
	if err != nil {
		t.Fatalf("playground: %v", err)
	}

	// Kafka: the same member, a static consumer. Its session is longer
	// than the playground's 6 s, which ends in virtual time: the admin's
	// commits below must reach the broker within it, on a busy machine
	// too (stillMember checks they did).
	member, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ConsumerGroup(group), kgo.ConsumeTopics(topic),
		kgo.InstanceID("host-1"), kgo.SessionTimeout(30*time.Second), kgo.Balancers(kgo.RangeBalancer()),
		kgo.DisableAutoCommit(), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the member to be assigned and fetch", func() bool {
		poll, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		return member.PollFetches(poll).NumRecords() > 0
	})
	// Offset 2, as the playground's commit below, with no member id and
	// generation -1, as kafka-consumer-groups and every admin client send.
	adminCommit := func() error {
		var offsets kadm.Offsets
		offsets.AddOffset(topic, 0, 2, -1)
		resp, err := admin.CommitOffsets(ctx, group, offsets)
		if err == nil {
			err = resp.Error()
		}
		return err
	}
	if err := adminCommit(); !errors.Is(err, kerr.UnknownMemberID) {
		t.Errorf("kafka: an admin's commit while the member runs: %v, want UNKNOWN_MEMBER_ID", err)
	}
	member.Close() // a static member sends no LeaveGroup
	if err := adminCommit(); !errors.Is(err, kerr.UnknownMemberID) {
		t.Errorf("kafka: an admin's commit while the static member that shut down is within its session: %v, want UNKNOWN_MEMBER_ID", err)
	}
	// The group still had its member after the commit was answered, so
	// the commit came within the member's session.
	if d, err := admin.DescribeGroups(ctx, group); err != nil || len(d[group].Members) != 1 {
		t.Fatalf("kafka: the static member's session ended before the admin's commit was answered (%v): the machine took longer than the session", err)
	}
	_, err = s.Apply("commit g t/0 offset=2")
	if err == nil || !strings.Contains(err.Error(), kerr.UnknownMemberID.Message) || !strings.Contains(err.Error(), "s1, a static member that shut down") {
		t.Errorf("playground: a commit from outside the group while s1 keeps it: %v, want Kafka's %s naming s1", err, kerr.UnknownMemberID.Message)
	}

	// Once its session has timed out the group is empty, and the commit is
	// taken on both.
	waitFor(t, "the group to be empty", func() bool {
		described, err := admin.DescribeGroups(ctx, group)
		return err == nil && described[group].State == "Empty"
	})
	if err := adminCommit(); err != nil {
		t.Fatalf("kafka: an admin's commit on the empty group: %v", err)
	}
	for _, line := range []string{"advance 6s", "commit g t/0 offset=2"} {
		if _, err := s.Apply(line); err != nil {
			t.Fatalf("playground: %s: %v", line, err)
		}
	}
	fetched, err := admin.FetchOffsets(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	kafka, _ := fetched.Lookup(topic, 0)
	mine, err := s.Log().GroupOffsets("g")
	if err != nil {
		t.Fatal(err)
	}
	var played int64 = -1
	for tp, o := range mine {
		if tp.Topic == "t" && tp.Partition == 0 {
			played = o
		}
	}
	if kafka.At != 2 || played != 2 {
		t.Errorf("committed offset: kafka %d, playground %d; want 2 on both", kafka.At, played)
	}
}
