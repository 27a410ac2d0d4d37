package app

import (
	"html"
	"strings"
	"testing"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A consumer group's card names its protocol, its assignor and its epochs
// (group epoch and target assignment epoch) where a classic group's names
// its strategy and generation; a consumer member's Commit carries its epoch.
func TestGroupCardOfAConsumerGroup(t *testing.T) {
	for _, c := range []struct{ script, want, not string }{
		{"topic orders partitions=2\njoin g c1 topics=orders group.protocol=consumer\n",
			`data-protocol="consumer"`, `data-protocol="classic"`},
		{"topic orders partitions=2\njoin g c1 topics=orders\n",
			`data-protocol="classic"`, `data-protocol="consumer"`},
	} {
		group, page := renderGroupCard(t, c.script)
		if !strings.Contains(page, c.want) || strings.Contains(page, c.not) {
			t.Errorf("%q: the card lacks %s or has %s:\n%s", c.script, c.want, c.not, page)
		}
		consumer := c.want == `data-protocol="consumer"`
		// A new consumer group is at epoch 1 (Kafka 4.4, rules 5): its
		// first member makes it 2.
		if consumer && (!strings.Contains(page, "epoch 2, target 2") || !strings.Contains(page, ">uniform<")) {
			t.Errorf("the consumer group's card lacks its epochs or its assignor:\n%s", page)
		}
		m := &GroupMember{Group: "g", Member: group.Members[0]}
		line, _ := m.line(scenario.CmdCommit)
		if want := map[bool]string{true: "commit g c1 epoch=2", false: "commit g c1"}[consumer]; line != want {
			t.Errorf("%q: the member's commit writes %q, want %q", c.script, line, want)
		}
	}
}

// renderGroupCard renders the card of a scenario's one group, its text
// unescaped.
func renderGroupCard(t *testing.T, script string) (GroupSnapshot, string) {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := snapshotGroups(s.Log())
	if err != nil || len(groups) != 1 {
		t.Fatalf("groups %v, %v", groups, err)
	}
	card := &GroupCard{Group: groups[0]}
	d := app.NewClientTester(card)
	defer d.Close()
	return groups[0], html.UnescapeString(app.HTMLString(card))
}
