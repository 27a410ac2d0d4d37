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
		p, _ := mountAt(t, mustLink(t, c.script))
		if p.err != "" {
			t.Fatalf("alert: %s", p.err)
		}
		if n := strings.Count(app.HTMLString(p), "data-inspector-configs="); n != 0 {
			t.Errorf("closed inspectors draw %d config tables", n)
		}
		var page string
		for _, g := range p.view.Groups {
			inspector := &GroupInspector{Group: g, Open: true}
			d := app.NewClientTester(inspector)
			d.Consume()
			page += app.HTMLString(inspector)
			d.Close()
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
		if len(tagsWith(page, "data-inspector", "group", "data-inspector-group", name, "hidden", "true")) != 1 {
			t.Errorf("%s's inspector is not rendered closed", name)
		}
	}
	if n := strings.Count(page, " data-assignment="); n != marks {
		t.Errorf("the lanes draw %d marks, the engine assigns %d partitions", n, marks)
	}
}
