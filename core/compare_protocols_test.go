package core

import (
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// settledGroup makes group g of members c1, c2, c3 on a topic of six
// partitions, joined under opts, and runs the clock with every member
// polling each second until the group is settled.
func settledGroup(t *testing.T, opts JoinOptions) *PartitionedLog {
	t.Helper()
	l := newTestLog(t, "orders", 6, nil)
	opts.Topics = []string{"orders"}
	for _, m := range []string{"c1", "c2", "c3"} {
		if err := l.Join("g", m, opts); err != nil {
			t.Fatal(err)
		}
	}
	for range 60 {
		mustAdvance(t, l, 1000)
		for _, m := range []string{"c1", "c2", "c3"} {
			if _, err := l.Poll("g", m, 10); err != nil {
				t.Fatal(err)
			}
		}
		if l.groups.groups["g"].settled() {
			l.DrainEvents()
			return l
		}
	}
	t.Fatal("the group did not settle in a minute")
	return nil
}

func compareProtocols(t *testing.T, l *PartitionedLog, change ProtocolChange) map[string]ProtocolReplay {
	t.Helper()
	cmp, err := l.CompareProtocols("g", change)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]ProtocolReplay{}
	for _, r := range cmp.Replays {
		if r.Unavailable != "" {
			t.Fatalf("%s: %s", r.Protocol, r.Unavailable)
		}
		out[r.Protocol] = r
	}
	if len(out) != 3 {
		t.Fatalf("replays: %+v", cmp.Replays)
	}
	return out
}

// ownedBy lists the partitions a replay had owned by member before the
// change.
func ownedBy(r ProtocolReplay, member string) []string {
	var out []string
	for _, p := range r.Partitions {
		if p.Before == member {
			out = append(out, p.Topic+"/"+string(rune('0'+p.Partition)))
		}
	}
	return out
}

// A crash in an eager range group, replayed and run step by step: the
// crashed member's partitions stop from the crash until the rebalance that
// follows its session timeout ends, at the members' first poll after it
// (half a poll interval later); every other partition stops for that
// rebalance. Cooperative-sticky moves only the crashed member's partitions,
// in one round, and stops nothing else.
func TestCompareProtocolsCrashEager(t *testing.T) {
	l := settledGroup(t, JoinOptions{})
	before := groupView(t, l, "g")
	session := before.Config.SessionTimeoutMs // Kafka's 45s
	const poll = 1000
	replays := compareProtocols(t, l, ProtocolChange{Kind: ChangeCrash, Member: "c1", PollIntervalMs: poll})

	eager := replays[ReplayEager]
	if eager.Rebuilt || eager.Assignor != StrategyRange || !eager.Settled {
		t.Fatalf("eager: %+v", eager)
	}
	if want := session + poll/2; eager.DurationMs != want || eager.Rounds != 1 {
		t.Errorf("eager took %dms in %d rounds, want %dms in 1", eager.DurationMs, eager.Rounds, want)
	}
	if eager.Stopped != 6 {
		t.Errorf("eager stopped %d partitions, want all 6", eager.Stopped)
	}
	for _, p := range eager.Partitions {
		from := session // paused by the rebalance
		if p.Before == "c1" {
			from = 0 // nobody consumes a crashed member's partitions
		}
		want := []StopSpan{{FromMs: from, ToMs: session + poll/2}}
		if !reflect.DeepEqual(p.Stops, want) {
			t.Errorf("eager %s/%d (%s→%s): stops %+v, want %+v", p.Topic, p.Partition, p.Before, p.After, p.Stops, want)
		}
	}

	// The engine's own run, step by step, on a copy: the same timing and
	// the same owners after.
	real := l.Clone()
	if err := real.Crash("g", "c1"); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, real, session)
	if v := groupView(t, real, "g"); v.Rebalance == nil || len(v.Rebalance.Paused) != 4 {
		t.Fatalf("at the session's end: %+v", v.Rebalance)
	}
	mustAdvance(t, real, poll/2)
	for _, m := range []string{"c2", "c3"} {
		if _, err := real.Poll("g", m, 1); err != nil {
			t.Fatal(err)
		}
	}
	v := groupView(t, real, "g")
	if v.Rebalance != nil {
		t.Fatalf("the rebalance still runs after both polls: %+v", v.Rebalance)
	}
	for _, p := range v.Partitions {
		for _, e := range eager.Partitions {
			if e.Topic == p.Topic && e.Partition == p.Partition && e.After != p.Owner {
				t.Errorf("%s/%d: the replay says %s, the engine %s", p.Topic, p.Partition, e.After, p.Owner)
			}
		}
	}

	coop := replays[ReplayCooperative]
	if !coop.Rebuilt || coop.Assignor != StrategyCooperativeSticky || coop.Rounds != 1 {
		t.Fatalf("cooperative: %+v", coop)
	}
	moved := 0
	for _, p := range coop.Partitions {
		switch {
		case p.Before == "c1":
			moved++
			want := []StopSpan{{FromMs: 0, ToMs: session + poll/2}}
			if !reflect.DeepEqual(p.Stops, want) || p.After == "c1" || p.After == "" {
				t.Errorf("cooperative %s/%d: %+v", p.Topic, p.Partition, p)
			}
		case len(p.Stops) > 0 || p.Moved():
			t.Errorf("cooperative stopped or moved %s/%d, which c1 did not own: %+v", p.Topic, p.Partition, p)
		}
	}
	if moved != 2 || coop.Stopped != 2 {
		t.Errorf("cooperative: %d of c1's partitions moved, %d stopped; want 2 and 2", moved, coop.Stopped)
	}
}

// A join under the three protocols: eager stops every partition until the
// old members rejoin at their first poll; cooperative-sticky stops only
// those that move, over two rounds (the old members rejoin at their first
// poll, those that revoked at once, the rest at their next); the consumer
// protocol stops only those that move too.
func TestCompareProtocolsJoin(t *testing.T) {
	l := settledGroup(t, JoinOptions{})
	const poll = 1000
	replays := compareProtocols(t, l, ProtocolChange{Kind: ChangeJoin, Member: "c4", PollIntervalMs: poll})

	eager := replays[ReplayEager]
	if eager.DurationMs != poll/2 || eager.Stopped != 6 || eager.Rounds != 1 {
		t.Errorf("eager: %dms, %d stopped, %d rounds; want %dms, 6, 1", eager.DurationMs, eager.Stopped, eager.Rounds, poll/2)
	}
	for _, r := range []ProtocolReplay{replays[ReplayCooperative], replays[ReplayConsumer]} {
		moved := 0
		for _, p := range r.Partitions {
			if p.Moved() {
				moved++
				if p.After != "c4" {
					t.Errorf("%s: %s/%d moved to %s: %+v", r.Protocol, p.Topic, p.Partition, p.After, p)
				}
			} else if len(p.Stops) > 0 {
				t.Errorf("%s: %s/%d stayed with %s but stopped: %+v", r.Protocol, p.Topic, p.Partition, p.Before, p.Stops)
			}
		}
		if moved == 0 || moved == 6 || r.Stopped > moved {
			t.Errorf("%s: %d moved, %d stopped", r.Protocol, moved, r.Stopped)
		}
	}
	// The rebuilt consumer group's members joined at one instant, so they
	// heartbeat at the same instants: the old owner revokes at its
	// heartbeat and c4 takes the partition at its own, in the same
	// millisecond (plog counts no network time).
	if r := replays[ReplayConsumer]; r.Stopped != 0 || r.Rounds != 1 || r.DurationMs != 5000 {
		t.Errorf("consumer: %d stopped, %d target assignments, %dms; want 0, 1 and one heartbeat interval", r.Stopped, r.Rounds, r.DurationMs)
	}
	coop := replays[ReplayCooperative]
	if coop.Rounds != 2 || coop.DurationMs != poll/2+poll {
		t.Errorf("cooperative: %d rounds in %dms, want 2 in %dms", coop.Rounds, coop.DurationMs, poll/2+poll)
	}
}

// A crash in a consumer-protocol group, replayed and run step by step on
// a copy of the engine: each partition of the crashed member resumes at
// the very millisecond the replay says, with the owner it says, and the
// group is stable exactly when it says. Eager stops every partition,
// cooperative-sticky only the crashed member's.
func TestCompareProtocolsCrashConsumer(t *testing.T) {
	l := settledGroup(t, JoinOptions{Protocol: ProtocolConsumer})
	replays := compareProtocols(t, l, ProtocolChange{Kind: ChangeCrash, Member: "c2"})
	consumer := replays[ReplayConsumer]
	if consumer.Rebuilt || consumer.Assignor != "uniform" || !consumer.Settled || consumer.Rounds != 1 {
		t.Fatalf("consumer: %+v", consumer)
	}
	v := groupView(t, l, "g")
	session := v.Config.ConsumerSessionTimeoutMs
	var lastHeartbeat int64
	for _, m := range v.Members {
		if m.ID == "c2" {
			lastHeartbeat = m.NextHeartbeat - v.Config.ConsumerHeartbeatIntervalMs
		}
	}
	fenced := lastHeartbeat + session - l.Now()
	if consumer.DurationMs < fenced || consumer.DurationMs > fenced+v.Config.ConsumerHeartbeatIntervalMs {
		t.Errorf("consumer settled %dms after the crash; c2 is fenced after %dms, and the others heartbeat within %dms of it",
			consumer.DurationMs, fenced, v.Config.ConsumerHeartbeatIntervalMs)
	}
	crashed := ownedBy(consumer, "c2")
	if len(crashed) != 2 || consumer.Stopped != 2 {
		t.Fatalf("c2 owned %v; %d stopped", crashed, consumer.Stopped)
	}
	for _, p := range consumer.Partitions {
		if p.Before != "c2" {
			if len(p.Stops) > 0 {
				t.Errorf("%s/%d stopped: %+v", p.Topic, p.Partition, p.Stops)
			}
			continue
		}
		if len(p.Stops) != 1 || p.Stops[0].FromMs != 0 || p.Stops[0].Open {
			t.Fatalf("%s/%d: %+v", p.Topic, p.Partition, p.Stops)
		}
		resume := p.Stops[0].ToMs
		real := l.Clone()
		if err := real.Crash("g", "c2"); err != nil {
			t.Fatal(err)
		}
		mustAdvance(t, real, resume-1)
		if owner := ownerOf(t, real, p.Topic, p.Partition); owner != "c2" && owner != "" {
			t.Errorf("%s/%d is %s's a millisecond before the replay's %dms", p.Topic, p.Partition, owner, resume)
		}
		mustAdvance(t, real, 1)
		if owner := ownerOf(t, real, p.Topic, p.Partition); owner != p.After {
			t.Errorf("%s/%d at %dms: the engine gives it to %q, the replay to %q", p.Topic, p.Partition, resume, owner, p.After)
		}
	}
	real := l.Clone()
	if err := real.Crash("g", "c2"); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, real, consumer.DurationMs-1)
	if real.groups.groups["g"].settled() {
		t.Errorf("the group is settled before the replay's %dms", consumer.DurationMs)
	}
	mustAdvance(t, real, 1)
	if s := groupView(t, real, "g").State; s != GroupStable {
		t.Errorf("at the replay's %dms the group is %s", consumer.DurationMs, s)
	}

	if eager := replays[ReplayEager]; !eager.Rebuilt || eager.Stopped != 6 {
		t.Errorf("eager (rebuilt): %d stopped, want all 6", eager.Stopped)
	}
	if coop := replays[ReplayCooperative]; coop.Stopped != 2 {
		t.Errorf("cooperative (rebuilt): %d stopped, want c2's 2", coop.Stopped)
	}
}

func ownerOf(t *testing.T, l *PartitionedLog, topic string, partition int) string {
	t.Helper()
	for _, p := range groupView(t, l, "g").Partitions {
		if p.Topic == topic && p.Partition == partition {
			return p.Owner
		}
	}
	t.Fatalf("no %s/%d", topic, partition)
	return ""
}

// A comparison changes nothing, says the same twice, and refuses a group,
// member or change that is not there, in words that say which.
func TestCompareProtocolsRefusesAndChangesNothing(t *testing.T) {
	l := settledGroup(t, JoinOptions{Strategy: StrategyCooperativeSticky})
	if err := l.Crash("g", "c3"); err != nil {
		t.Fatal(err)
	}
	l.DrainEvents()
	dump, view, now := dumpLog(l), groupView(t, l, "g"), l.Now()
	first, err := l.CompareProtocols("g", ProtocolChange{Kind: ChangeLeave, Member: "c1"})
	if err != nil {
		t.Fatal(err)
	}
	second, _ := l.CompareProtocols("g", ProtocolChange{Kind: ChangeLeave, Member: "c1"})
	if !reflect.DeepEqual(first, second) {
		t.Error("two comparisons of the same change differ")
	}
	if dumpLog(l) != dump || !reflect.DeepEqual(groupView(t, l, "g"), view) || l.Now() != now || len(l.DrainEvents()) != 0 {
		t.Error("the comparison changed the engine")
	}
	if first.Change.PollIntervalMs != DefaultReplayPollMs || first.Replays[1].Rebuilt {
		t.Errorf("change %+v; cooperative rebuilt %v", first.Change, first.Replays[1].Rebuilt)
	}
	for _, c := range []struct {
		group  string
		change ProtocolChange
		want   string
	}{
		{"nope", ProtocolChange{Kind: ChangeCrash, Member: "c1"}, `unknown group "nope"`},
		{"g", ProtocolChange{Kind: ChangeCrash, Member: "c9"}, `group "g" has no member "c9"`},
		{"g", ProtocolChange{Kind: ChangeLeave, Member: "c3"}, `member "c3" of group "g" has crashed already`},
		{"g", ProtocolChange{Kind: ChangeJoin, Member: "c2"}, `already has a member "c2"`},
		{"g", ProtocolChange{Kind: ChangeJoin, Member: "c4", Topics: []string{"nope"}}, `unknown topic "nope"`},
		{"g", ProtocolChange{Kind: "explode", Member: "c1"}, `the change "explode" is not one of join, leave, crash`},
		{"g", ProtocolChange{Kind: ChangeCrash, Member: "c1", PollIntervalMs: 1}, "poll interval must be between 10ms and 5m"},
	} {
		if _, err := l.CompareProtocols(c.group, c.change); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: got %v, want %q", c.group, c.change, err, c.want)
		}
	}
}

// The last member leaving leaves its partitions stopped for good; under
// rules 3 there is no consumer protocol to replay, and the classic replays
// take the group's rebalance.ms.
func TestCompareProtocolsEdges(t *testing.T) {
	l := newTestLog(t, "orders", 2, nil)
	if err := l.Join("g", "c1", JoinOptions{Topics: []string{"orders"}}); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, l, 10_000)
	for _, r := range compareProtocols(t, l, ProtocolChange{Kind: ChangeLeave, Member: "c1"}) {
		if !r.Settled || r.Stopped != 2 || !slices.ContainsFunc(r.Partitions, func(p PartitionStop) bool { return len(p.Stops) == 1 && p.Stops[0].Open }) {
			t.Errorf("%s: %+v", r.Protocol, r)
		}
	}

	// A session of 30 minutes with polls every 100ms outlasts the
	// replay's steps (its first poll at 50ms, then one a step): it says
	// the group did not settle, and c1's partitions are still stopped.
	long := newTestLog(t, "orders", 2, nil)
	for _, m := range []string{"c1", "c2"} {
		if err := long.Join("g", m, JoinOptions{Topics: []string{"orders"}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := long.SetGroupConfig("g", "session.timeout.ms", "30m"); err != nil {
		t.Fatal(err)
	}
	mustAdvance(t, long, 10_000)
	cmp, err := long.CompareProtocols("g", ProtocolChange{Kind: ChangeCrash, Member: "c1", PollIntervalMs: 100})
	if err != nil {
		t.Fatal(err)
	}
	if r := cmp.Replays[0]; r.Settled || r.DurationMs != 50+(maxReplaySteps-1)*100 || r.Stopped != 1 || !r.Partitions[0].Stops[0].Open && !r.Partitions[1].Stops[0].Open {
		t.Errorf("eager with a 30m session: settled %v after %dms, %d stopped: %+v", r.Settled, r.DurationMs, r.Stopped, r.Partitions)
	}

	old := newTestLogUnder(t, RulesV3, "orders", 4, nil)
	for _, m := range []string{"c1", "c2"} {
		if err := old.Join("g", m, JoinOptions{Topics: []string{"orders"}}); err != nil {
			t.Fatal(err)
		}
	}
	mustAdvance(t, old, 10_000)
	cmp, err = old.CompareProtocols("g", ProtocolChange{Kind: ChangeJoin, Member: "c3"})
	if err != nil {
		t.Fatal(err)
	}
	if u := cmp.Replays[2].Unavailable; !strings.Contains(u, "rules 4") {
		t.Errorf("consumer under rules 3: %q", u)
	}
	rebalance := groupView(t, old, "g").Config.RebalanceMs
	if r := cmp.Replays[0]; r.DurationMs != rebalance || r.Stopped != 4 {
		t.Errorf("eager under rules 3: %dms, %d stopped; want rebalance.ms %dms, 4", r.DurationMs, r.Stopped, rebalance)
	}
}

// Whatever groups random operations leave, every change a comparison
// accepts replays without a panic, within its bounds, and the same twice;
// each stop lies within the replay, and none is counted twice.
func TestCompareProtocolsRandomGroups(t *testing.T) {
	ran := 0
	for seed := range int64(12) {
		random := rand.New(rand.NewSource(seed))
		l := newTestLog(t, "orders", 1+random.Intn(7), nil)
		if err := l.CreateTopic("audit", 1+random.Intn(3), nil); err != nil {
			t.Fatal(err)
		}
		opts := JoinOptions{Strategy: []string{StrategyRange, StrategySticky, StrategyCooperativeSticky, ""}[random.Intn(4)]}
		if opts.Strategy == "" {
			opts.Protocol = ProtocolConsumer
		}
		names := []string{"c1", "c2", "c3", "c4"}
		for _, m := range names[:1+random.Intn(4)] {
			opts.Topics = [][]string{{"orders"}, {"audit"}, {"orders", "audit"}}[random.Intn(3)]
			opts.InstanceID = ""
			if random.Intn(3) == 0 {
				opts.InstanceID = "i-" + m
			}
			if err := l.Join("g", m, opts); err != nil {
				t.Fatal(err)
			}
			mustAdvance(t, l, int64(random.Intn(8000))+1)
		}
		if random.Intn(2) == 0 {
			_ = l.Crash("g", names[random.Intn(4)])
		}
		for _, kind := range []string{ChangeJoin, ChangeLeave, ChangeCrash} {
			for _, m := range append(names, "c9") {
				change := ProtocolChange{Kind: kind, Member: m, PollIntervalMs: []int64{0, 100, 5000}[random.Intn(3)]}
				first, err := l.CompareProtocols("g", change)
				if err != nil {
					continue
				}
				second, _ := l.CompareProtocols("g", change)
				if !reflect.DeepEqual(first, second) {
					t.Fatalf("seed %d, %+v: two replays differ", seed, change)
				}
				for _, r := range first.Replays {
					if r.Unavailable != "" || !r.Settled {
						t.Errorf("seed %d, %+v, %s: unavailable %q, settled %v", seed, change, r.Protocol, r.Unavailable, r.Settled)
					}
					ran++
					var total int64
					for _, p := range r.Partitions {
						var last int64
						for _, s := range p.Stops {
							if s.FromMs < last || s.ToMs < s.FromMs || s.ToMs > r.DurationMs {
								t.Fatalf("seed %d, %+v, %s: %s/%d stops %+v within %dms", seed, change, r.Protocol, p.Topic, p.Partition, p.Stops, r.DurationMs)
							}
							last = s.ToMs
						}
						total += p.StoppedMs
					}
					if total != r.TotalStopMs || r.Stopped > len(r.Partitions) {
						t.Fatalf("seed %d, %+v, %s: totals %+v", seed, change, r.Protocol, r)
					}
				}
			}
		}
	}
	if ran < 100 {
		t.Errorf("only %d replays ran", ran)
	}
}
