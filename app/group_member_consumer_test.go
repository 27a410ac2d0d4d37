package app

import (
	"regexp"
	"strings"
	"testing"
)

// tags matches an HTML tag, to read a card's text.
var tags = regexp.MustCompile(`<[^>]*>`)

// A consumer-protocol member's card says its member epoch and state, its
// target assignment, and what waits to move: the partition c2's arrival
// takes from c1 waits to be revoked on c1's card and to be assigned on
// c2's, and leaves c1's card at c1's heartbeat while c2 still waits for it.
// A classic member's card has none of it.
func TestGroupMemberShowsItsEpochTargetAndPendingMoves(t *testing.T) {
	const start = "rules 4\ntopic orders partitions=2\njoin g c1 topics=orders group.protocol=consumer\n" +
		"advance 2s\njoin g c2 topics=orders group.protocol=consumer\n"
	for _, c := range []struct {
		what, script string
		c1, c2       []string // on each member's card
		c1Not, c2Not []string // not on it
	}{
		{"c2 has joined", start,
			[]string{`data-member-epoch="1"`, `data-member-state="stable"`, `data-target="orders/0"`, `data-pending-revoke="orders/1"`, "to revoke orders/1", "target orders/0"},
			[]string{`data-member-epoch="2"`, `data-member-state="unreleased_partitions"`, `data-target="orders/1"`, `data-pending-assign="orders/1"`, "to assign orders/1"},
			[]string{`data-pending-assign`, `data-target="orders/1"`},
			[]string{`data-pending-revoke`}},
		{"c1 has revoked at its heartbeat", start + "advance 3s\n",
			[]string{`data-member-epoch="2"`, `data-target="orders/0"`, `data-assigned="orders/0"`},
			[]string{`data-member-epoch="2"`, `data-pending-assign="orders/1"`, "no partitions"},
			[]string{`data-pending-revoke`, `data-pending-assign`},
			[]string{`data-pending-revoke`}},
		{"c2 has its partition", start + "advance 5s\n",
			[]string{`data-member-epoch="2"`, `data-assigned="orders/0"`},
			[]string{`data-member-epoch="2"`, `data-member-state="stable"`, `data-assigned="orders/1"`, `data-target="orders/1"`},
			[]string{`data-pending-revoke`, `data-pending-assign`, "member-pending"},
			[]string{`data-pending-revoke`, `data-pending-assign`, "member-pending"}},
		{"a classic group", "rules 4\ntopic orders partitions=2\njoin g c1 topics=orders\njoin g c2 topics=orders\nadvance 5s\n",
			nil, nil,
			[]string{`data-member-epoch`, `data-target`, "member-consumer"},
			[]string{`data-member-epoch`, `data-target`, "member-consumer"}},
	} {
		_, page := renderGroupCard(t, c.script)
		cards := map[string]string{}
		for _, li := range strings.Split(page, "<li ")[1:] {
			for _, id := range []string{"c1", "c2"} {
				if strings.Contains(li[:strings.Index(li, ">")], `data-member="`+id+`"`) {
					cards[id] = li + " " + strings.Join(strings.Fields(tags.ReplaceAllString(li, "")), " ")
				}
			}
		}
		if len(cards) != 2 {
			t.Fatalf("%s: no card for c1 and c2:\n%s", c.what, page)
		}
		for _, check := range []struct {
			member   string
			has, not []string
		}{{"c1", c.c1, c.c1Not}, {"c2", c.c2, c.c2Not}} {
			card := cards[check.member]
			for _, want := range check.has {
				if !strings.Contains(card, want) {
					t.Errorf("%s: %s's card lacks %s:\n%s", c.what, check.member, want, card)
				}
			}
			for _, not := range check.not {
				if strings.Contains(card, not) {
					t.Errorf("%s: %s's card has %s:\n%s", c.what, check.member, not, card)
				}
			}
		}
	}
}
