package kafkarun

import (
	"fmt"
	"testing"

	"github.com/twmb/franz-go/pkg/kadm"

	"plog/core/scenario"
)

// A group's auto.offset.reset reaches the client as the playground has it,
// each value named, whatever either side's default; a value without a
// counterpart is an error, not a silent default.
func TestResetOffsetMapsEveryValue(t *testing.T) {
	for _, v := range []string{"earliest", "latest", "none"} {
		if _, err := resetOffset(v); err != nil {
			t.Errorf("resetOffset(%q): %v", v, err)
		}
	}
	earliest, _ := resetOffset("earliest")
	latest, _ := resetOffset("latest")
	if earliest == latest {
		t.Errorf("earliest and latest are the same offset %v", earliest)
	}
	if _, err := resetOffset("smallest"); err == nil {
		t.Error("resetOffset(smallest): want an error")
	}
}

// runnerOn is a runner with the playground's side only, after script.
func runnerOn(t *testing.T, script string) *runner {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{session: s, marks: newMarks(), groups: map[string]*groupRun{}, partitions: map[string]int{}}
	r.group("g")
	return r
}

// A cooperative-sticky group's generation is explained by its balancer
// only once the cluster's members, settled, own other partitions than the
// playground's: that is what can make a cooperative rebalance take another
// number of rounds. Not for the same partitions, nor for an eager group.
func TestCooperativePlanExplainsTheGenerationOnlyWhereThePlansParted(t *testing.T) {
	const script = `topic t partitions=3
join g a topics=t strategy=%s
join g b topics=t
advance 6s
`
	for _, tc := range []struct {
		strategy string
		parted   bool // the cluster's members own other partitions
		want     Reason
	}{
		{"cooperative-sticky", false, ""},
		{"cooperative-sticky", true, ReasonCooperativePlan},
		{"sticky", true, ""},
		{"range", true, ""},
	} {
		r := runnerOn(t, fmt.Sprintf(script, tc.strategy))
		v, err := r.session.Log().Group("g")
		if err != nil || v.Rebalance != nil || len(v.Members) != 2 {
			t.Fatalf("%s: the playground's group is not settled with a and b: %+v %v", tc.strategy, v, err)
		}
		// The cluster's owners: the playground's, or a's and b's swapped.
		owns := map[string][]tp{}
		for i, m := range v.Members {
			owner := m.ID
			if tc.parted {
				owner = v.Members[1-i].ID
			}
			for _, a := range m.Assignment {
				owns[owner] = append(owns[owner], tp{a.Topic, a.Partition})
			}
		}
		r.markCooperativePlan(r.groups["g"], owns)
		if got := r.marks.generations["g"]; got != tc.want {
			t.Errorf("%s, cluster owns %v: generation's reason %q, want %q", tc.strategy, owns, got, tc.want)
		}
	}
}

// markedRun applies a script to the playground's side as the run does,
// marking after each command.
func markedRun(t *testing.T, script string) *runner {
	t.Helper()
	cmds, err := scenario.Parse(script)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{session: scenario.NewSession(), marks: newMarks(), groups: map[string]*groupRun{}, partitions: map[string]int{}}
	for _, c := range cmds {
		if c.Name == scenario.CmdJoin {
			r.group(c.Positional(0))
		}
		events, err := r.session.ApplyCommand(c)
		if err != nil {
			t.Fatalf("line %d: %v", c.Line, err)
		}
		if err := r.markAfter(c, events); err != nil {
			t.Fatalf("line %d: %v", c.Line, err)
		}
	}
	return r
}

// New partitions count against a group's generation only on a topic its
// members read once and no longer read; on a topic they read, the group
// rebalances on both sides.
func TestFormerTopicIsCountedOnlyForTopicsNoLongerRead(t *testing.T) {
	r := markedRun(t, `topic a partitions=1
topic b partitions=1
topic c partitions=1
join g m topics=a
advance 5s
join g m topics=b
advance 5s
partitions a count=2
partitions b count=2
partitions c count=2
partitions a count=3
`)
	if got := r.marks.formerTopicGrew["g"]; got != 2 {
		t.Errorf("formerTopicGrew = %d, want 2: the two partitions commands on a, which g read and reads no longer", got)
	}
}

// Under rules 4 a group whose leader has not refreshed its metadata for
// new partitions lists them as unseen, and the cluster's group, which
// rebalanced for them at once and waits for a static member that left, is
// held for that reason, not waited on; once the playground's leader has
// refreshed, nothing is unseen and the group is not held for it.
func TestNewPartitionsUnseenHoldTheGroupWithAGoneStaticMember(t *testing.T) {
	const script = `rules 4
topic t partitions=1
join g a topics=t
join g b topics=t instance=host-b
advance 6s
leave g b
partitions t count=2
`
	r := runnerOn(t, script)
	r.partitions["t"] = 2
	g := r.groups["g"]
	g.goneStatic["b"] = "host-b"
	if got := r.unseenPartitions(g); !got[tp{"t", 1}] || len(got) != 1 {
		t.Fatalf("unseen partitions %v, want t/1 alone", got)
	}
	rebalancing := kadm.DescribedGroup{State: "PreparingRebalance", Members: []kadm.DescribedGroupMember{{ClientID: "a"}, {ClientID: "b"}}}
	if why := r.heldByGoneStatic(g, rebalancing); why != ReasonRefreshHeld {
		t.Errorf("held for %q, want %q", why, ReasonRefreshHeld)
	}
	if why := r.heldByGoneStatic(g, kadm.DescribedGroup{State: "CompletingRebalance", Members: rebalancing.Members}); why != "" {
		t.Errorf("a completing rebalance is held for %q, want not held", why)
	}
	if _, err := r.session.Apply("advance 10m"); err != nil {
		t.Fatal(err)
	}
	if got := r.unseenPartitions(g); len(got) != 0 {
		t.Errorf("after the leader's refresh, unseen partitions %v, want none", got)
	}
}

// A cooperative group whose members gave up partitions in two generations
// between two settles took a round more on the cluster: its generation's
// difference is explained; revocations in one generation explain nothing.
func TestSplitRevocationMarksTheGeneration(t *testing.T) {
	for _, tc := range []struct {
		generations []int32
		want        Reason
	}{
		{nil, ""},
		{[]int32{4, 4}, ""},
		{[]int32{4, 5}, ReasonSplitRevocation},
	} {
		r := &runner{marks: newMarks()}
		g := &groupRun{name: "coop"}
		for _, gen := range tc.generations {
			g.noteRevoked(gen)
		}
		r.markSplitRevocation(g, g.takeRevocationGenerations() > 1)
		if got := r.marks.generations["coop"]; got != tc.want {
			t.Errorf("revocations at generations %v: reason %q, want %q", tc.generations, got, tc.want)
		}
		if n := g.takeRevocationGenerations(); n != 0 {
			t.Errorf("after a settle, %d generations are still counted", n)
		}
	}
	r := &runner{marks: newMarks()}
	r.marks.generations["coop"] = ReasonCooperativePlan
	r.markSplitRevocation(&groupRun{name: "coop"}, true)
	if got := r.marks.generations["coop"]; got != ReasonCooperativePlan {
		t.Errorf("a split revocation replaced the reason already marked: %q", got)
	}
}
