package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"
)

// A learner adds members through the join form and reads their Kafka member
// ids (client.id, a dash and a UUID from the seed) and the order the
// assignors take them in. With seed 2 the first UUID starts with "d", so
// a-b's id a-b-e… sorts before a's a-d… and range gives a-b t/0; the static
// member, whose id starts with its group.instance.id, comes first of all.
// Under rules 2 no member has an id and the names decide: z, a, a-b.
func TestUIMembersShowTheirMemberIDsAndOrder(t *testing.T) {
	t.Parallel()
	start := fmt.Sprintf("seed 2\nrules %d\ntopic t partitions=3\n", core.LatestRules)
	b := joinThree(t, start)

	s, err := scenario.Load(start + "join g a topics=t strategy=range\njoin g a-b topics=t strategy=range\n" +
		"join g z topics=t strategy=range instance=host-z\nadvance 1m\n")
	if err != nil {
		t.Fatal(err)
	}
	v, err := s.Log().Group("g")
	if err != nil {
		t.Fatal(err)
	}
	uuid := `[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}`
	want := map[string]struct{ prefix, order, assigned string }{
		"z":   {"host-z-", "1", "t/0"},
		"a-b": {"a-b-", "2", "t/1"},
		"a":   {"a-", "3", "t/2"},
	}
	for _, m := range v.Members {
		w := want[m.ID]
		sel := member("g", m.ID)
		id := b.attr(t, sel, "data-member-id")
		if id != m.MemberID || !regexp.MustCompile("^"+regexp.QuoteMeta(w.prefix)+uuid+"$").MatchString(id) {
			t.Errorf("%s: data-member-id=%q, want the engine's %q, %sUUID", m.ID, id, m.MemberID, w.prefix)
			continue
		}
		if got := b.attr(t, sel, "data-assignor-order"); got != w.order {
			t.Errorf("%s: data-assignor-order=%q, want %s", m.ID, got, w.order)
		}
		if got := b.attr(t, sel, "data-assigned"); got != w.assigned {
			t.Errorf("%s: data-assigned=%q, want %s", m.ID, got, w.assigned)
		}
		shown := b.text(t, sel+" .member-kafka-id")
		if !strings.Contains(shown, id[:len(w.prefix)+8]+"…") {
			t.Errorf("%s: the page shows %q, want its member id cut to %s…", m.ID, shown, id[:len(w.prefix)+8])
		}
		if got := b.attr(t, sel+" .member-kafka-id", "title"); got != "member id "+id {
			t.Errorf("%s: the member id's title is %q, want the full id", m.ID, got)
		}
	}
	if got := b.text(t, member("g", "a-b")+" .member-order"); !strings.Contains(got, "#2 for the assignors") {
		t.Errorf("a-b's place reads %q", got)
	}
	b.noErrors(t)

	old := joinThree(t, "seed 2\nrules 2\ntopic t partitions=3\n")
	if n := old.count(t, group("g")+" [data-member-id]"); n != 0 {
		t.Errorf("under rules 2, %d members show a member id", n)
	}
	for name, w := range map[string]struct{ order, assigned string }{"z": {"1", "t/0"}, "a": {"2", "t/1"}, "a-b": {"3", "t/2"}} {
		sel := member("g", name)
		if got := old.attr(t, sel, "data-assignor-order") + " " + old.attr(t, sel, "data-assigned"); got != w.order+" "+w.assigned {
			t.Errorf("rules 2, %s: place and partitions %q, want %s %s", name, got, w.order, w.assigned)
		}
	}
	old.noErrors(t)
}

// joinThree opens the page on start and joins a, a-b and the static z
// (instance host-z) to group g through the join form, then runs the clock
// until the group is stable.
func joinThree(t *testing.T, start string) *browser {
	t.Helper()
	b := openPlayground(t, start)
	b.joinMember(t, "g", "a", "t", "range", "")
	b.waitCount(t, member("g", "a"), 1)
	b.joinMember(t, "g", "a-b", "t", "range", "")
	b.waitCount(t, member("g", "a-b"), 1)
	b.joinMember(t, "g", "z", "t", "range", "host-z")
	b.waitCount(t, member("g", "z"), 1)
	b.click(t, "#advance-1m")
	b.waitCount(t, group("g")+`[data-state=stable]`, 1)
	return b
}
