package conformance

import (
	"context"
	"fmt"
	"slices"
	"strings"
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
	ctx, cancel := context.WithTimeout(context.Background(), brokerDeadline)
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
func newTimingTopic(t *testing.T, client *kgo.Client, topic string) {
	t.Helper()
	admin := kadm.NewClient(client)
	ctx, cancel := context.WithTimeout(context.Background(), brokerDeadline)
	defer cancel()
	if _, err := admin.CreateTopic(ctx, 2, 1, nil, topic); err != nil {
		t.Fatal(err)
	}
	waitForTopic(t, ctx, client, topic)
}

// timingAttempts is how many times a timing case may run before it gives
// up. The broker keeps its rules on its own clock; a case shows one only
// when its steps land in the windows the rule has (a member joining
// within another's wait, a state read before a timeout), which it checks
// from when it saw the broker do each step, and a machine too busy to
// land them makes the attempt show nothing either way: the case then
// runs again, on a new group.
const timingAttempts = 5

// runTiming runs attempt until it shows the rule (true), failing the test
// if no attempt could.
func runTiming(t *testing.T, attempt func(n int) bool) {
	t.Helper()
	for n := 1; n <= timingAttempts; n++ {
		if attempt(n) || t.Failed() {
			return
		}
		t.Logf("attempt %d: the machine was too busy for the steps to land in the rule's windows; running again", n)
	}
	t.Fatalf("none of %d attempts could land its steps in the rule's windows", timingAttempts)
}

// stableWith waits until the broker's group is Stable with members (client
// ids, in order) and no other, the clients given polling meanwhile, as
// running consumers do (they rejoin in their polls). why says when.
func stableWith(t *testing.T, admin *kadm.Client, group, why string, members []string, polling ...*kgo.Client) {
	t.Helper()
	waitFor(t, fmt.Sprintf("group %s to be stable with %s %s", group, strings.Join(members, " and "), why), func() bool {
		for _, c := range polling {
			pollOnce(c)
		}
		state, got := groupState(t, admin, group)
		return state == "Stable" && slices.Equal(got, members)
	})
}

// seen waits until the broker lists the group's members, and returns
// when it answered so.
func seen(t *testing.T, admin *kadm.Client, group string, members ...string) time.Time {
	t.Helper()
	waitFor(t, fmt.Sprintf("%s in group %s", strings.Join(members, " and "), group), func() bool {
		_, got := groupState(t, admin, group)
		return slices.Equal(got, members)
	})
	return time.Now()
}

// An empty group's first rebalance waits group.initial.rebalance.delay.ms
// (3s, the broker's default): a member joining within it makes it wait 3s
// more, so the group is still forming 4.5s after the first join, and
// stable by 7.5s, on the broker as in the playground
// (GroupMetadataManager.tryCompleteInitialRebalanceElseSchedule: when the
// first wait ends with members new in it, another of min(delay, what is
// left of the rebalance timeout)). On the broker: a joins; b joins once a
// is seen, within a's wait; 3.5s after a was seen the group must still be
// forming, which shows the wait grew, as long as that read came before
// the 6s after a's join that the grown wait lasts at least.
func TestInitialRebalanceDelayLikeKafka(t *testing.T) {
	t.Parallel()
	client, admin := adminOf(t, brokers)
	const script = `topic timing-initial partitions=2
join g a topics=timing-initial
advance 1s
join g b topics=timing-initial
`
	if want := stateName(playgroundGroup(t, script+"advance 3500ms\n", "g")); want != "PreparingRebalance" {
		t.Errorf("4.5s after the first join: the playground's group is %s, want still forming", want)
	}
	if want := stateName(playgroundGroup(t, script+"advance 6500ms\n", "g")); want != "Stable" {
		t.Errorf("7.5s after the first join: the playground's group is %s, want stable", want)
	}
	runTiming(t, func(n int) bool {
		topic, group := fmt.Sprintf("timing-initial-%d", n), fmt.Sprintf("timing-initial-g-%d", n)
		newTimingTopic(t, client, topic)
		// a's JoinGroup reaches the broker after aStarts and before
		// aSeen.
		aStarts := time.Now()
		a := timingMember(t, group, topic, "a", time.Minute)
		pollOnce(a)
		aSeen := seen(t, admin, group, "a")
		b := timingMember(t, group, topic, "b", time.Minute)
		pollOnce(b)
		if bSeen := seen(t, admin, group, "a", "b"); !bSeen.Before(aStarts.Add(3 * time.Second)) {
			return false // b may have come after a's wait
		}
		// Past a's first wait, however late a's join reached the broker.
		time.Sleep(time.Until(aSeen.Add(3500 * time.Millisecond)))
		state, _ := groupState(t, admin, group)
		if !time.Now().Before(aStarts.Add(6 * time.Second)) {
			return false // read when even the grown wait may have ended
		}
		if state != "PreparingRebalance" {
			t.Errorf("3.5s after a joined, b within its wait: the broker's group is %s, want still forming (PreparingRebalance), as the playground's", state)
		}
		stableWith(t, admin, group, "once the grown wait ended", []string{"a", "b"}, a, b)
		return true
	})
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
	client, admin := adminOf(t, brokers)
	const timeout = 4 * time.Second
	const start = `topic timing-wait partitions=2
config group g max.poll.interval.ms=4s session.timeout.ms=45s
join g a topics=timing-wait
advance 3s
poll g a
join g b topics=timing-wait
`
	want := playgroundGroup(t, start+"advance 2s\n", "g")
	if stateName(want) != "PreparingRebalance" {
		t.Errorf("2s after b joined, a not polled: the playground's group is %s, want rebalancing (waiting for %v)", want.State, want.Rebalance)
	}
	want = playgroundGroup(t, start+"advance 2s\npoll g a\n", "g")
	if want.State != core.GroupStable || len(want.Members) != 2 {
		t.Errorf("the playground's group after a polled: %s with %d members, want stable with a and b", want.State, len(want.Members))
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

	runTiming(t, func(n int) bool {
		topic, group := fmt.Sprintf("timing-wait-%d", n), fmt.Sprintf("timing-wait-g-%d", n)
		newTimingTopic(t, client, topic)
		a := timingMember(t, group, topic, "a", timeout)
		pollOnce(a)
		stableWith(t, admin, group, "a alone", []string{"a"}, a)
		pollOnce(a) // a holds off the next rebalance until it polls again
		// b's join starts a rebalance after bStarts, which a's rebalance
		// timeout ends no sooner than 4s later: a read of the group before
		// then, once b is in it, shows it waiting for a.
		bStarts := time.Now()
		b := timingMember(t, group, topic, "b", timeout)
		pollOnce(b)
		seen(t, admin, group, "a", "b")
		state, _ := groupState(t, admin, group)
		if !time.Now().Before(bStarts.Add(timeout)) {
			return false // read when a's rebalance timeout may have passed
		}
		if state != "PreparingRebalance" {
			t.Errorf("after b joined, a not polled: the broker's group is %s, want waiting for a (PreparingRebalance), as the playground's", state)
		}
		// a polls: the rebalance ends, with both.
		pollOnce(a)
		stableWith(t, admin, group, "after a polled", []string{"a", "b"}, a, b)

		// c joins; a stalls (it holds off the rebalance, never
		// rejoining), and the rebalance timeout removes it; in the
		// playground a has crashed. The rebalance starts after cStarts,
		// so a goes no sooner than the timeout after it, on a machine as
		// busy as it may be.
		pollOnce(a)
		pollOnce(b)
		cStarts := time.Now()
		c := timingMember(t, group, topic, "c", timeout)
		pollOnce(c)
		stableWith(t, admin, group, "once the rebalance timeout removed a", []string{"b", "c"}, b, c)
		if took := time.Since(cStarts); took < timeout {
			t.Errorf("a was removed %s after c joined, before the rebalance timeout of %s", took, timeout)
		}
		return true
	})
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
