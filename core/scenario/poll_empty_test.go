package scenario

import (
	"strings"
	"testing"

	"plog/core"
)

// A poll that gets nothing says why: in its polled-nothing event and in the
// member's state, which plogsim run prints.
func TestEmptyPollSaysWhy(t *testing.T) {
	for _, c := range []struct {
		name, script, member, why string
	}{
		{"rebalancing", `topic t partitions=2
produce t value=a count=3
join g c1 topics=t
poll g c1
`, "c1", "the group is still rebalancing: c1 gets its partitions when the rebalance completes; the group was empty, so this rebalance waits group.initial.rebalance.delay.ms for more members, until 3s (longer if another joins)"},
		{"rebalancing under rules 3", `rules 3
topic t partitions=2
produce t value=a count=3
join g c1 topics=t
poll g c1
`, "c1", "the group is still rebalancing: c1 gets its partitions when the rebalance completes, due at 3s"},
		{"waiting for a member to poll", `topic t partitions=2
join g c1 topics=t
advance 3s
join g c2 topics=t
poll g c2
`, "c2", "the group is still rebalancing: c2 gets its partitions when the rebalance completes; it waits for c1 to rejoin by polling; the rebalance timeout at 303s removes dynamic members that have not rejoined"},
		{"no partitions", `topic t partitions=1
produce t value=a
join g c1 topics=t
join g c2 topics=t
advance 6s
poll g c1
poll g c2
`, "c2", "c2 has no partitions: the assignor gave every partition of its topics to other members"},
		{"at the end", `topic t partitions=1
produce t value=a count=2
config group g auto.offset.reset=earliest
join g c1 topics=t
advance 3s
poll g c1
poll g c1
`, "c1", "it is at the end of its partitions: no record past its positions"},
		{"above the high watermark", `topic t partitions=1 replication.factor=3
join g c1 topics=t
advance 3s
produce t value=a count=3
poll g c1
`, "c1", "it is at the high watermark of its partitions: 3 records above it are not yet replicated to every in-sync replica, and consumers read only below it"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := NewSession()
			cmds, err := Parse(c.script)
			if err != nil {
				t.Fatal(err)
			}
			var last []core.Event
			for _, cmd := range cmds {
				if last, err = s.ApplyCommand(cmd); err != nil {
					t.Fatal(err)
				}
			}
			var said []string
			for _, e := range last {
				if e.Kind == core.EventDelivered {
					t.Fatalf("the poll got records: %v", last)
				}
				if e.Kind == core.EventPolledNothing {
					said = append(said, e.Member+": "+e.Detail)
				}
			}
			if want := []string{c.member + ": " + c.why}; strings.Join(said, "|") != strings.Join(want, "|") {
				t.Errorf("polled-nothing events %q, want %q", said, want)
			}
			text := StateText(s.Log())
			if want := "member " + c.member + ": its poll at "; !strings.Contains(text, want) || !strings.Contains(text, "got nothing, because "+c.why+"\n") {
				t.Errorf("the state does not say why:\n%s", text)
			}
		})
	}
}

// A poll that gets records clears the member's note, and a workload that
// keeps reaching the end says so once, not at every tick.
func TestEmptyPollNoteClearsAndIsSaidOnce(t *testing.T) {
	s := mustLoad(t, `topic t partitions=1
join g c1 topics=t
advance 3s
poll g c1
`)
	if !strings.Contains(StateText(s.Log()), "got nothing") {
		t.Fatal("an empty poll is not noted")
	}
	if _, err := s.Apply("produce t value=a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("poll g c1"); err != nil {
		t.Fatal(err)
	}
	if text := StateText(s.Log()); strings.Contains(text, "got nothing") {
		t.Errorf("a poll that got records still says it got nothing:\n%s", text)
	}

	s = mustLoad(t, "topic t partitions=1\njoin g c1 topics=t\nadvance 3s\nproduce t value=a\nconsumer g c1 rate=10/s\n")
	evs, err := s.Apply("advance 10s")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range evs {
		if e.Kind == core.EventPolledNothing {
			n++
		}
	}
	if n != 1 {
		t.Errorf("99 empty polls at the end made %d polled-nothing events, want 1", n)
	}
}
