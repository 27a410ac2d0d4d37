package app

import (
	"html"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A crash, a leave and a join each say, under the lanes, what they mean
// for the group's partitions: a walk crashed c1 and the page said nothing.
func TestMemberNoteSaysWhatACrashLeavesWaiting(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic orders partitions=3\njoin g c1 topics=orders\njoin g c2 topics=orders\nadvance 5s\npoll g c1\npoll g c2"))
	for _, c := range []struct {
		line, kind, member string
		says               []string
	}{
		{"crash g c1", "member-stopped", "c1", []string{"c1 of group g stopped: crashed", "session expires at", "read by nobody"}},
		{"leave g c2", "member-left", "c2", []string{"c2 left group g", "rebalances at once"}},
		{"join g c4 topics=orders", "member-joined", "c4", []string{"c4 joined group g: subscribed to orders", "share of the partitions"}},
	} {
		Apply(d.Context(), c.line)
		d.Consume()
		page := app.HTMLString(p)
		lis := tagsWith(page, "data-member-event", c.kind, "data-member-group", "g", "data-member-id", c.member)
		if len(lis) != 1 {
			t.Fatalf("after %q: no member note line for %s:\n%s", c.line, c.member, page)
		}
		text := liText(page, lis[0])
		for _, want := range c.says {
			if !strings.Contains(text, want) {
				t.Errorf("after %q the note says %q, want %q in it", c.line, text, want)
			}
		}
	}
	Apply(d.Context(), "advance 1s")
	d.Consume()
	if len(tagsWith(app.HTMLString(p), "data-member-event", "member-joined")) != 0 {
		t.Error("the join's note stays after the next command")
	}
}

// A member that rejoins the rebalance in its poll is no member joining:
// a walk read "b2 joined group billing ... to give it a share" under a
// poll of b2, a member all along.
func TestMemberNoteLeavesOutARejoin(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic orders partitions=3\njoin g c1 topics=orders\nadvance 5s\npoll g c1\njoin g c2 topics=orders"))
	Apply(d.Context(), "poll g c1")
	d.Consume()
	if n := len(tagsWith(app.HTMLString(p), "data-member-event", "member-joined")); n != 0 {
		t.Errorf("c1 rejoining the rebalance in its poll is said to join the group (%d lines)", n)
	}
}

// The end of a rebalance is said too: a walk advanced the clock to end
// one, and the page said nothing.
func TestMemberNoteSaysARebalanceEnded(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic orders partitions=3\njoin g c1 topics=orders"))
	Apply(d.Context(), "advance 5s")
	d.Consume()
	page := app.HTMLString(p)
	lis := tagsWith(page, "data-member-event", "rebalance-done", "data-member-group", "g")
	if len(lis) != 1 {
		t.Fatalf("no line says g's rebalance ended:\n%s", page)
	}
	if text := liText(page, lis[0]); !strings.Contains(text, "Group g's rebalance is done, generation 1: its card lists") {
		t.Errorf("the rebalance's line says %q", text)
	}
}

// liText is the text of the list item that starts with tag, unescaped.
func liText(page, tag string) string {
	text := page[strings.Index(page, tag):]
	return html.UnescapeString(text[:strings.Index(text, "</li>")])
}
