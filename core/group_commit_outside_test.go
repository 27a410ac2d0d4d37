package core

import (
	"maps"
	"strings"
	"testing"
)

// groupWithMember returns, under the rules given, topic t with records and
// group g whose member c1 (static with instance id "i1" when static) owns
// t's partitions once the first rebalance ended.
func groupWithMember(t *testing.T, rules int, static bool) *PartitionedLog {
	t.Helper()
	l := newTestLogUnder(t, rules, "t", 2, nil)
	for range 4 {
		produceTo(t, l, "t", 0, "k", "v")
	}
	opts := JoinOptions{Topics: []string{"t"}}
	if static {
		opts.InstanceID = "i1"
	}
	if err := l.Join("g", "c1", opts); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 10*secondMs)
	return l
}

// Kafka refuses an offset commit from outside a group (no member id,
// generation -1: an admin client's) while the group is not Empty, and a
// member that crashed or a static member that shut down keeps it so until
// its session times out: UNKNOWN_MEMBER_ID (ClassicGroup.validateOffsetCommit).
// Rules 3 refuses it and changes nothing; rules 2 took it.
func TestCommitFromOutsideANonEmptyGroup(t *testing.T) {
	stops := []struct {
		name   string
		static bool
		stop   func(l *PartitionedLog) error
		says   string
	}{
		{"crashed", false, func(l *PartitionedLog) error { return l.Crash("g", "c1") }, "c1, crashed, kept until its session times out at"},
		{"static member gone", true, func(l *PartitionedLog) error { return l.Leave("g", "c1") }, "c1, a static member that shut down, kept until its session times out at"},
	}
	for _, stop := range stops {
		t.Run(stop.name, func(t *testing.T) {
			// Under rules 2, accepted.
			old := groupWithMember(t, RulesV2, stop.static)
			if err := stop.stop(old); err != nil {
				t.Fatal(err)
			}
			if err := old.CommitOffset("g", "t", 0, 2); err != nil {
				t.Fatalf("rules 2: %v", err)
			}

			l := groupWithMember(t, RulesV3, stop.static)
			// A running member commits through: accepted.
			if err := l.CommitOffset("g", "t", 0, 1); err != nil {
				t.Fatalf("with c1 running: %v", err)
			}
			if err := stop.stop(l); err != nil {
				t.Fatal(err)
			}
			before, _ := l.GroupOffsets("g")
			l.DrainEvents()
			err := l.CommitOffset("g", "t", 0, 2)
			if err == nil || !strings.Contains(err.Error(), "UNKNOWN_MEMBER_ID") || !strings.Contains(err.Error(), stop.says) {
				t.Fatalf("rules 3, c1 stopped: %v", err)
			}
			after, _ := l.GroupOffsets("g")
			if !maps.Equal(before, after) || len(l.DrainEvents()) != 0 {
				t.Fatalf("the refused commit changed the offsets %v to %v, or said something", before, after)
			}
			// The same check refuses a reset.
			if err := l.ResetOffsets("g", ResetSpec{To: ResetToEarliest, Topic: "t"}); err == nil || !strings.Contains(err.Error(), stop.says) {
				t.Fatalf("reset while c1 keeps the group: %v", err)
			}
			// Once the session timed out the group is empty: accepted.
			mustAdvance(t, l, DefaultGroupConfigUnder(l.Rules()).SessionTimeoutMs)
			if v, _ := l.Group("g"); len(v.Members) != 0 {
				t.Fatalf("members after the session timeout: %+v", v.Members)
			}
			if err := l.CommitOffset("g", "t", 0, 2); err != nil {
				t.Fatalf("once the group is empty: %v", err)
			}
			if got, _ := l.GroupOffsets("g"); got[TopicPartition{Topic: "t", Partition: 0}] != 2 {
				t.Fatalf("committed %v", got)
			}
		})
	}
}
