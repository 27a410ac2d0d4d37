package app

import (
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The inspector marks the configs a scenario changed, and only those, under
// the defaults of the scenario's own rules.
func TestGroupInspectorMarksChangedConfigsUnderTheScenariosRules(t *testing.T) {
	for _, c := range []struct {
		script  string
		changed []string
	}{
		// billing sets three configs; audit none.
		{groupsScenario, []string{"auto.offset.reset", "enable.auto.commit", "lag.alert.records"}},
		// Under rules 2 a group starts at earliest and commits when told:
		// the same values are its defaults there.
		{"rules 2\n" + groupsScenario, []string{"lag.alert.records"}},
	} {
		p, d := mountAt(t, mustLink(t, c.script))
		if p.err != "" {
			t.Fatalf("alert: %s", p.err)
		}
		if n := strings.Count(app.HTMLString(p), `class="inspector-configs"`); n != 0 {
			t.Errorf("with nothing selected the page draws %d config tables", n)
		}
		var page string
		for _, g := range p.view.Groups {
			page += inspect(t, p, d, selection{Kind: selectGroup, Group: g.Name})
		}
		var changed []string
		for _, name := range []string{"auto.commit.interval.ms", "auto.offset.reset", "delivery", "enable.auto.commit",
			"lag.alert.ms", "lag.alert.records", "rebalance.ms", "session.timeout.ms"} {
			rows := tagsWith(page, "data-config", name, "data-changed", "true")
			if len(rows) > 1 {
				t.Errorf("%s is marked changed in %d groups, want billing's alone", name, len(rows))
			}
			if len(rows) == 1 {
				changed = append(changed, name)
			}
		}
		if strings.Join(changed, " ") != strings.Join(c.changed, " ") {
			t.Errorf("rules %d: marked changed %v, want %v", p.rules(), changed, c.changed)
		}
		if n := len(tagsWith(page, "data-config", "session.timeout.ms", "data-kafka-default", "45s")); n != 2 {
			t.Errorf("%d session.timeout.ms rows show Kafka's default 45s, want one a group", n)
		}
	}
}

// Each lane draws the owner of its partition in every group, as the
// engine assigns it, and the inspector stays closed until asked.
func TestAssignmentMarksDrawEachOwner(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, groupsScenario))
	page := app.HTMLString(p)
	l := p.session.Log()
	marks := 0
	for _, name := range l.GroupNames() {
		g, err := l.Group(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range g.Members {
			for _, tp := range m.Assignment {
				if len(tagsWith(page, "data-assignment", "assigned", "data-group", name, "data-member", m.ID,
					"data-topic", tp.Topic, "data-partition", strconv.Itoa(tp.Partition))) != 1 {
					t.Errorf("no mark of %s/%s on %s", name, m.ID, tp)
				}
				marks++
			}
		}
	}
	if n := len(tagsWith(page, "data-inspector", "group")); n != 0 {
		t.Errorf("%d group inspectors are open before anything is selected", n)
	}
	if n := strings.Count(page, " data-assignment="); n != marks {
		t.Errorf("the lanes draw %d marks, the engine assigns %d partitions", n, marks)
	}
}

// inspect selects a thing as a click on it does and returns the inspector's
// HTML.
func inspect(t *testing.T, p *Playground, d app.ClientDispatcher, s selection) string {
	t.Helper()
	d.Context().NewActionWithValue(selectAction, s)
	d.Consume()
	page := app.HTMLString(p)
	tags := tagsWith(page, "class", "inspector", "aria-label", "inspector")
	if len(tags) != 1 {
		t.Fatalf("no inspector after selecting %+v", s)
	}
	start := strings.Index(page, tags[0])
	end := strings.Index(page[start:], `<div class="stage">`) // the inspector is the dock's last
	if end < 0 {
		t.Fatal("no stage after the dock")
	}
	return page[start : start+end]
}

// Selecting a group opens it in the dock's inspector, named by its
// attributes, and its card is marked; a member opens with its group's
// settings; another group replaces it, with its own forms; nothing
// selected closes it.
func TestInspectorShowsTheGroupOrMemberSelected(t *testing.T) {
	p, d := mountAt(t, mustLink(t, groupsScenario))
	page := inspect(t, p, d, selection{Kind: selectGroup, Group: "billing"})
	if len(tagsWith(page, "data-inspector", "group", "data-inspector-group", "billing", "data-inspects", "billing")) != 1 {
		t.Fatalf("the inspector does not name billing:\n%s", page)
	}
	for _, control := range []string{"billing/config", "billing/reset", "billing/commit"} {
		if len(tagsWith(page, "data-control", control)) == 0 {
			t.Errorf("billing's inspector has no %s form", control)
		}
	}
	if len(tagsWith(app.HTMLString(p), "data-group", "billing", "data-inspecting", "true")) != 1 || p.dockTab() != dockInspector {
		t.Error("billing's card is not marked, or the dock does not show the inspector")
	}
	page = inspect(t, p, d, selection{Kind: selectMember, Group: "billing", Member: "c1"})
	if len(tagsWith(page, "data-inspector", "member", "data-inspector-group", "billing", "data-inspector-member", "c1")) != 1 ||
		len(tagsWith(page, "data-inspector-member", "c1", "class", "inspector-member")) != 1 ||
		len(tagsWith(page, "data-control", "billing/config")) == 0 {
		t.Errorf("c1's inspector does not show c1 and billing's settings:\n%s", page)
	}
	if len(tagsWith(app.HTMLString(p), "data-member", "c1", "data-selected", "true")) != 1 {
		t.Error("c1's card is not marked selected")
	}
	page = inspect(t, p, d, selection{Kind: selectGroup, Group: "audit"})
	if len(tagsWith(page, "data-control", "billing/config")) != 0 || len(tagsWith(page, "data-control", "audit/config")) == 0 {
		t.Errorf("audit's inspector shows another group's forms:\n%s", page)
	}
	// A member that left, at this step, is said to be gone; its group's
	// settings stay.
	Apply(d.Context(), "leave audit a1")
	d.Consume()
	page = inspect(t, p, d, selection{Kind: selectMember, Group: "audit", Member: "a1"})
	if !strings.Contains(page, "a1 is not a member of audit at this step.") || len(tagsWith(page, "data-control", "audit/reset")) == 0 {
		t.Errorf("a member gone: %s", page)
	}
	if page := inspect(t, p, d, selection{Kind: selectGroup, Group: "gone"}); !strings.Contains(page, "Group gone does not exist at this step.") {
		t.Errorf("a group that is not there: %s", page)
	}
	d.Context().NewActionWithValue(selectAction, selection{})
	d.Consume()
	if p.dockTab() == dockInspector || len(tagsWith(app.HTMLString(p), "data-inspecting", "true")) != 0 {
		t.Error("closing the inspector leaves it in the dock or a card marked")
	}
}
