package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Actions weigh differently on the page: a member's Poll is filled, its
// Commit and Leave outlined, its Crash outlined in the colour of removal,
// as a broker's crash is; Undo is outlined beside a filled Play.
func TestButtonsSayTheirWeight(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, "brokers 3\ntopic orders partitions=2 replication.factor=3\njoin billing c1 topics=orders\n"))
	page := app.HTMLString(p)
	cases := []struct {
		pairs []string
		role  buttonRole
	}{
		{[]string{"data-action", "poll", "aria-label", "Poll c1"}, rolePrimary},
		{[]string{"data-action", "commit", "aria-label", "Commit c1"}, roleSecondary},
		{[]string{"data-action", "leave", "aria-label", "Leave c1"}, roleSecondary},
		{[]string{"data-action", "crash", "aria-label", "Crash c1"}, roleDanger},
		{[]string{"data-broker-action", "crash"}, roleDanger},
		{[]string{"data-broker-action", "slow"}, roleSecondary},
		{[]string{"id", "undo"}, roleSecondary},
		{[]string{"id", "play"}, rolePrimary},
	}
	for _, c := range cases {
		tags := tagsWith(page, c.pairs...)
		if len(tags) == 0 {
			t.Errorf("no button with %v", c.pairs)
			continue
		}
		for _, tag := range tags {
			hasSecondary, hasDanger := strings.Contains(tag, "secondary"), strings.Contains(tag, "danger")
			if hasSecondary != (c.role == roleSecondary) || hasDanger != (c.role == roleDanger) {
				t.Errorf("%s: want role %q", tag, c.role)
			}
		}
	}
}
