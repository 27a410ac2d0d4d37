package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A rebalance that hands out partitions nobody owned says so: a walk read
// "b1 joined: 0 partitions moved" above b1 gaining all three.
func TestRebalanceSaysWhatItHandedOut(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, "topic orders partitions=3\njoin g c1 topics=orders\nadvance 5s\npoll g c1"))
	page := cardOf(app.HTMLString(p), "g")
	if len(tagsWith(page, "data-rebalance", "done", "data-moved", "0", "data-newly-owned", "3")) != 1 {
		t.Fatalf("c1's first rebalance: want 0 moved and 3 newly owned:\n%s", page)
	}
	if !strings.Contains(page, "c1 joined: 3 partitions newly owned, none moved, 0 paused") {
		t.Errorf("c1's first rebalance does not say it handed out three partitions:\n%s", page)
	}
	for _, c := range []struct {
		moved, newly, paused int
		want                 string
	}{
		{2, 0, 1, "2 partitions moved, 1 paused"},
		{0, 0, 0, "0 partitions moved, 0 paused"},
		{1, 2, 0, "2 partitions newly owned, 1 moved, 0 paused"},
	} {
		if got := movesText(c.moved, c.newly, c.paused); got != c.want {
			t.Errorf("movesText(%d, %d, %d) = %q, want %q", c.moved, c.newly, c.paused, got, c.want)
		}
	}
}
