package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// memberIDsScenario joins a and a-b under seed 2, whose first UUID starts
// with "d": a-b's member id a-b-e… sorts before a's a-d…, so under the latest
// rules a-b is first for the assignors and range gives it t/0.
const memberIDsScenario = `seed 2
topic t partitions=2
join g a topics=t
join g a-b topics=t
advance 6s
poll g a max=1
`

func TestGroupMembersShowTheirMemberIDsAndTheAssignorOrder(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, memberIDsScenario))
	if p.err != "" {
		t.Fatalf("alert: %s", p.err)
	}
	page := app.HTMLString(p)
	g, err := p.session.Log().Group("g")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ order, assigned string }{"a-b": {"1", "t/0"}, "a": {"2", "t/1"}}
	for _, m := range g.Members {
		if !strings.HasPrefix(m.MemberID, m.ID+"-") {
			t.Fatalf("%s: member id %q is not its client.id, a dash and a UUID", m.ID, m.MemberID)
		}
		w := want[m.ID]
		if len(tagsWith(page, "data-member", m.ID, "data-member-id", m.MemberID, "data-assignor-order", w.order, "data-assigned", w.assigned)) != 1 {
			t.Errorf("%s: want data-member-id=%q, data-assignor-order=%s and data-assigned=%s; page:\n%s", m.ID, m.MemberID, w.order, w.assigned, cardOf(page, "g"))
		}
		if !strings.Contains(page, `title="member id `+m.MemberID+`"`) {
			t.Errorf("%s: the full member id is not in a title", m.ID)
		}
	}
	for _, text := range []string{"<code>a-da49a503…</code>", "<code>a-b-e8813026…</code>", ">#1</button>", "<span class=\"visually-hidden\"> for the assignors</span>"} {
		if !strings.Contains(page, text) {
			t.Errorf("the card does not say %q:\n%s", text, cardOf(page, "g"))
		}
	}
	// The lane's position flag names a's member id in its title.
	if !strings.Contains(page, `title="a (member id a-da49a503-f557-4c63-8e41-14c6d3d6c499) of g reads here next"`) {
		t.Error("a's position flag on t/1 does not name its member id")
	}
	help := helpTopics["member-ordering"].Text
	for _, words := range []string{"client.id", "a dash and a UUID", "static members first", "compared as strings", "rules 1 and 2"} {
		if !strings.Contains(help, words) {
			t.Errorf("the member-ordering help does not say %q: %s", words, help)
		}
	}
}

// Under rules 2 members have no member id and the names decide the order.
func TestGroupMembersUnderRules2HaveNoMemberIDs(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, strings.Replace(memberIDsScenario, "seed 2\n", "seed 2\nrules 2\n", 1)))
	if p.err != "" {
		t.Fatalf("alert: %s", p.err)
	}
	page := app.HTMLString(p)
	if strings.Contains(page, "data-member-id") {
		t.Error("a member shows a member id under rules 2")
	}
	for name, order := range map[string]string{"a": "1", "a-b": "2"} {
		if len(tagsWith(page, "data-member", name, "data-assignor-order", order)) != 1 {
			t.Errorf("%s: want data-assignor-order=%s under rules 2", name, order)
		}
	}
}
