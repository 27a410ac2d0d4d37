package conformance

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
	"plog/core/scenario"
)

// Rebalance timing under rules 4 (core/group_timing.go) against Kafka
// 4.4.0's coordinator: an empty group's first rebalance waits
// group.initial.rebalance.delay.ms and longer for a member that joins in
// it; a later one waits for a member that has not rejoined, and removes
// it at the rebalance timeout; a member that does not poll within
// max.poll.interval.ms leaves. The broker runs on the wall clock, the
// playground on its virtual one: each case checks the broker's group state
// at the same points of time as the playground's, with a margin.

// timingMember is a consumer of the case's group on the broker. Under
// kgo.BlockRebalanceOnPoll a client rejoins a rebalance only once it is
// allowed to, as the Java consumer rejoins only inside its poll: allow is
// its poll.
func timingMember(t *testing.T, group, topic, name string, rebalanceTimeout time.Duration) *kgo.Client {
	t.Helper()
	c, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ClientID(name), kgo.ConsumerGroup(group),
		kgo.ConsumeTopics(topic), kgo.Balancers(kgo.RangeBalancer()), kgo.DisableAutoCommit(),
		kgo.SessionTimeout(45*time.Second), kgo.HeartbeatInterval(200*time.Millisecond),
		kgo.RebalanceTimeout(rebalanceTimeout), kgo.BlockRebalanceOnPoll())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.AllowRebalance() // Close waits for the rebalance a poll holds off
		c.Close()
	})
	return c
}

// pollOnce is one poll of the Java consumer: it rejoins a rebalance
// running (AllowRebalance), takes what is there and goes back to its work,
// holding off rebalances until its next poll (PollFetches under
// BlockRebalanceOnPoll).
func pollOnce(c *kgo.Client) {
	c.AllowRebalance()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	c.PollFetches(ctx)
}

// groupState is the broker's state of a group and its members' client ids.
func groupState(t *testing.T, admin *kadm.Client, group string) (string, []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	d, err := admin.DescribeGroups(ctx, group)
	if err != nil {
		return "", nil
	}
	var members []string
	for _, m := range d[group].Members {
		members = append(members, m.ClientID)
	}
	slices.Sort(members)
	return d[group].State, members
}

// playgroundGroup runs a script and returns its group's view.
func playgroundGroup(t *testing.T, script, group string) core.GroupView {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatalf("playground: %v", err)
	}
	v, err := s.Log().Group(group)
	if err != nil {
		t.Fatalf("playground: %v", err)
	}
	return v
}

func stateName(v core.GroupView) string {
	if v.State == core.GroupRebalancing {
		return "PreparingRebalance"
	}
	return "Stable"
}

// newTimingTopic creates a topic of two partitions for a case.
func newTimingTopic(t *testing.T, admin *kadm.Client, topic string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.CreateTopic(ctx, 2, 1, nil, topic); err != nil {
		t.Fatal(err)
	}
	waitForTopic(t, ctx, admin, topic)
}

// An empty group's first rebalance waits group.initial.rebalance.delay.ms
// (3s, the broker's default): a member joining 1s in makes it wait 3s
// more, so the group is still forming 4.5s after the first join, and
// stable by 7.5s, on the broker as in the playground
// (GroupMetadataManager.tryCompleteInitialRebalanceElseSchedule).
func TestInitialRebalanceDelayLikeKafka(t *testing.T) {
	t.Parallel()
	_, admin := adminOf(t, brokers)
	topic, group := "timing-initial", "timing-initial-g"
	newTimingTopic(t, admin, topic)
	const script = `topic timing-initial partitions=2
join g a topics=timing-initial
advance 1s
join g b topics=timing-initial
`
	start := time.Now()
	a := timingMember(t, group, topic, "a", time.Minute)
	pollOnce(a)
	time.Sleep(time.Until(start.Add(time.Second)))
	b := timingMember(t, group, topic, "b", time.Minute)
	pollOnce(b)
	for _, at := range []struct {
		after   time.Duration
		advance string
	}{{4500 * time.Millisecond, "advance 3500ms\n"}, {7500 * time.Millisecond, "advance 6500ms\n"}} {
		time.Sleep(time.Until(start.Add(at.after)))
		state, _ := groupState(t, admin, group)
		want := stateName(playgroundGroup(t, script+at.advance, "g"))
		if state != want && !(want == "PreparingRebalance" && state == "CompletingRebalance") {
			t.Errorf("%s after the first join: the broker's group is %s, the playground's %s", at.after, state, want)
		}
		if at.after > 5*time.Second {
			// Their polls take the assignment the rebalance made.
			pollOnce(a)
			pollOnce(b)
		}
	}
}

// A later rebalance waits for the member that has not polled since it
// began (ClassicGroup.hasAllMembersJoined; a consumer rejoins in its poll)
// and ends when it polls; a member that never polls again is removed at
// the rebalance timeout, its max.poll.interval.ms
// (GroupMetadataManager.completeClassicGroupJoin). In the playground the
// member that stalls is a crashed one, which stops heartbeating as a
// stalled franz-go client under BlockRebalanceOnPoll does; its session
// (45s) outlasts the rebalance timeout (4s).
func TestRebalanceWaitsForPollsAndTimesOutLikeKafka(t *testing.T) {
	t.Parallel()
	_, admin := adminOf(t, brokers)
	topic, group := "timing-wait", "timing-wait-g"
	newTimingTopic(t, admin, topic)
	const timeout = 4 * time.Second
	const start = `topic timing-wait partitions=2
config group g max.poll.interval.ms=4s session.timeout.ms=45s
join g a topics=timing-wait
advance 3s
poll g a
join g b topics=timing-wait
`
	a := timingMember(t, group, topic, "a", timeout)
	pollOnce(a)
	waitFor(t, 30*time.Second, "a alone to be stable", func() bool {
		pollOnce(a)
		state, members := groupState(t, admin, group)
		return state == "Stable" && slices.Equal(members, []string{"a"})
	})
	pollOnce(a) // a holds off the next rebalance until it polls again
	b := timingMember(t, group, topic, "b", timeout)
	pollOnce(b)
	time.Sleep(2 * time.Second)
	want := playgroundGroup(t, start+"advance 2s\n", "g")
	if state, _ := groupState(t, admin, group); stateName(want) != "PreparingRebalance" || state != "PreparingRebalance" {
		t.Errorf("2s after b joined, a not polled: the broker's group is %s, the playground's %s (waiting for %v)", state, want.State, want.Rebalance)
	}
	// a polls: the rebalance ends, with both.
	pollOnce(a)
	want = playgroundGroup(t, start+"advance 2s\npoll g a\n", "g")
	waitFor(t, 30*time.Second, "the group to be stable with a and b after a polled", func() bool {
		pollOnce(a)
		pollOnce(b)
		state, members := groupState(t, admin, group)
		return state == "Stable" && slices.Equal(members, []string{"a", "b"})
	})
	if want.State != core.GroupStable || len(want.Members) != 2 {
		t.Errorf("the playground's group after a polled: %s with %d members, want stable with a and b", want.State, len(want.Members))
	}

	// c joins; a stalls (it holds off the rebalance, never rejoining), and
	// the rebalance timeout removes it; in the playground a has crashed.
	pollOnce(a)
	pollOnce(b)
	c := timingMember(t, group, topic, "c", timeout)
	pollOnce(c)
	joined := time.Now()
	waitFor(t, 3*timeout, "the rebalance timeout to remove a", func() bool {
		pollOnce(b)
		pollOnce(c)
		state, members := groupState(t, admin, group)
		return state == "Stable" && slices.Equal(members, []string{"b", "c"})
	})
	if took := time.Since(joined); took < timeout-time.Second {
		t.Errorf("a was removed %s after c joined, before the rebalance timeout of %s", took, timeout)
	}
	// In the playground b and c go on polling, every 2s: the rebalance
	// timeout, 4s after c joined, removes a.
	stall := start + "advance 2s\npoll g a\npoll g b\ncrash g a\njoin g c topics=timing-wait\npoll g b\nadvance 2s\npoll g b\npoll g c\nadvance 1999ms\n"
	v := playgroundGroup(t, stall, "g")
	if v.State != core.GroupRebalancing {
		t.Errorf("the playground's group before the rebalance timeout: %s, want rebalancing", v.State)
	}
	v = playgroundGroup(t, stall+"advance 1ms\n", "g")
	var members []string
	for _, m := range v.Members {
		members = append(members, m.ID)
	}
	if v.State != core.GroupStable || !slices.Equal(members, []string{"b", "c"}) {
		t.Errorf("the playground's group at the rebalance timeout: %s with %v, want stable with b and c", v.State, members)
	}
}

// A member that does not poll within max.poll.interval.ms leaves its group
// (the Java consumer's heartbeat thread sends LeaveGroup,
// AbstractCoordinator.maybeLeaveGroup): kafkarun makes the cluster's client
// leave where the playground's member does, and the broker's group then
// matches the playground's, generation and owners.
func TestMaxPollIntervalLeavesLikeKafka(t *testing.T) {
	runCase(t, "targeted", "max.poll.interval.ms leaves", `rules 4
topic orders partitions=2
config group g max.poll.interval.ms=10s enable.auto.commit=false
join g a topics=orders
join g b topics=orders
advance 6s
poll g a
poll g b
advance 5s
poll g b
advance 6s
poll g b
advance 1s
`)
}
