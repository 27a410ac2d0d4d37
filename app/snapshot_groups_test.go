package app

import (
	"strings"
	"testing"
)

// What each strategy would move is worked out for the group the inspector
// shows, when it opens and after each command while it is open, and for no
// group while it is closed.
func TestMovementsFollowTheInspectedGroup(t *testing.T) {
	script := "topic orders partitions=6\njoin g c1 topics=orders\njoin g c2 topics=orders\n" +
		"join h d1 topics=orders\nadvance 5s\n"
	p, d := mountAt(t, mustLink(t, script))
	movements := func() map[string][]string {
		out := map[string][]string{}
		for _, g := range p.view.Groups {
			for _, mv := range g.Movements {
				out[g.Name] = append(out[g.Name], mv.Change)
			}
		}
		return out
	}
	if got := movements(); len(got) != 0 {
		t.Fatalf("the inspector is closed, yet the page compared %v", got)
	}
	page := inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
	if got := strings.Join(movements()["g"], ", "); got != "c3 joins, c1 leaves" || len(movements()) != 1 {
		t.Fatalf("inspecting g: movements %v, want g's alone", movements())
	}
	if len(tagsWith(page, "data-movement", "c3 joins")) != 1 {
		t.Error("the inspector does not draw what each strategy would move if c3 joined")
	}
	d.Context().NewActionWithValue(applyAction, applyRequest{Lines: []string{"join g c3 topics=orders"}})
	d.Consume()
	if got := strings.Join(movements()["g"], ", "); got != "c4 joins, c1 leaves" {
		t.Errorf("after c3 joined, g's movements are %q, want c4 joins, c1 leaves", got)
	}
	inspect(t, p, d, selection{Kind: selectMember, Group: "h", Member: "d1"})
	if got := movements(); len(got) != 1 || strings.Join(got["h"], ", ") != "c2 joins" {
		t.Errorf("inspecting h's member d1: movements %v, want h's alone", got)
	}
	d.Context().NewActionWithValue(selectAction, selection{})
	d.Consume()
	if got := movements(); len(got) != 0 {
		t.Errorf("the inspector closed, yet the page compared %v", got)
	}
}
