package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// The lesson "The new consumer protocol", opened from the Lessons list and
// solved with the page's controls: c3 of group shop crashes, its
// partitions wait for it until its session ends while c1 and c2 keep
// theirs, then the coordinator fences it and hands them over at the next
// heartbeats, the group epoch one higher, and c1 and c2 read everything.
func TestConsumerProtocolLessonSolvedByLearner(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerFromList(t, s, "consumer-protocol")
	b := x.b
	if got := b.attr(t, group("shop")+" [data-protocol]", "data-protocol"); got != "consumer" {
		t.Fatalf("group shop's protocol on the page: %q, want consumer", got)
	}
	card := func(id string) string { return fmt.Sprintf(`%s li[data-member=%s]`, group("shop"), js(id)) }
	epoch := func(id string) string { return b.attr(t, card(id), "data-member-epoch") }
	owns := func(id string) int { return len(strings.Fields(b.attr(t, card(id)+" [data-target]", "data-target"))) }
	start := map[string]string{"c1": epoch("c1"), "c2": epoch("c2")}
	if start["c1"] == "" || start["c1"] != start["c2"] {
		t.Fatalf("c1 and c2 at epochs %q and %q at the start, want the same epoch on both cards", start["c1"], start["c2"])
	}
	c1Owns, c2Owns := owns("c1"), owns("c2")

	x.memberButton("shop", "c3", "crash")
	x.advance("30s")
	// Within its session the crashed member keeps its partitions, and the
	// others keep theirs, at the same epochs.
	for _, id := range []string{"c1", "c2"} {
		if got := epoch(id); got != start[id] {
			t.Errorf("%s's epoch went from %s to %s before c3's session ended", id, start[id], got)
		}
	}
	if b.count(t, card("c3")) != 1 {
		t.Fatalf("c3 left group shop before its session ended")
	}
	x.advance("20s")
	x.advance("10s")
	if b.count(t, card("c3")) != 0 {
		t.Errorf("c3 is still listed in group shop once its session ended")
	}
	for _, id := range []string{"c1", "c2"} {
		if got := epoch(id); got == start[id] {
			t.Errorf("%s's epoch is still %s: the fence must bump the group epoch and the members reach it", id, got)
		}
	}
	if got := owns("c1") + owns("c2"); got != 6 || owns("c1") < c1Owns || owns("c2") < c2Owns {
		t.Errorf("c1 and c2 target %d and %d partitions (before the crash %d and %d), want all 6 with none taken from them", owns("c1"), owns("c2"), c1Owns, c2Owns)
	}
	x.poll("shop", "c1", 24)
	x.poll("shop", "c2", 24)
	x.done()
}
