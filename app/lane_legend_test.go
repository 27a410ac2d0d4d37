package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Every mark a lane draws beside its records (a group's commit, a member's
// read position) has its entry in the legend, with help that exists: a
// teacher's walk found "▸ c1" on the lanes and nowhere in the legend.
func TestLegendNamesEveryMarkOfALane(t *testing.T) {
	lane := &PartitionLane{Partition: PartitionSnapshot{Topic: "t", HighWatermark: 2, LogEnd: 2, Marks: []GroupMark{
		{Group: "g", Committed: 2, HasCommitted: true, Owner: "c1", Position: 2, HasPosition: true},
	}}}
	d := app.NewClientTester(lane)
	defer d.Close()
	legend := map[string]bool{}
	for _, e := range legendEntries {
		legend[e.class] = true
		if _, ok := helpTopics[e.help]; !ok {
			t.Errorf("the legend's %q points at help %q, which does not exist", e.words, e.help)
		}
	}
	var marks []string
	for _, tag := range htmlTag.FindAllString(app.HTMLString(lane), -1) {
		if _, class, ok := strings.Cut(tag, ` class="`); ok {
			if class, _, _ = strings.Cut(class, `"`); class == "flag" || strings.HasPrefix(class, "flag ") {
				marks = append(marks, class)
			}
		}
	}
	if len(marks) < 2 {
		t.Fatalf("the lane draws %d marks, want the commit and the read position", len(marks))
	}
	for _, class := range marks {
		if !legend[class] {
			t.Errorf("the lane draws a mark of class %q that the legend does not show", class)
		}
	}
}

// In the browser the folded legend draws no entry until the learner opens
// it; natively (the written page) it draws them all.
func TestLaneLegendDrawsItsEntriesOnceOpened(t *testing.T) {
	l := &LaneLegend{}
	c := app.NewClientTester(l)
	if page := app.HTMLString(l); strings.Count(page, "<li") != len(legendEntries) || !strings.Contains(page, "What the lanes show") {
		t.Errorf("natively the legend draws %d of %d entries:\n%s", strings.Count(page, "<li"), len(legendEntries), page)
	}
	c.Close()

	drawFoldedBodies = false
	defer func() { drawFoldedBodies = !app.IsClient }()
	l = &LaneLegend{}
	c = app.NewClientTester(l)
	defer c.Close()
	if page := app.HTMLString(l); strings.Contains(page, "<li") || !strings.Contains(page, "What the lanes show") {
		t.Errorf("the folded legend drew its entries, or lost its summary:\n%s", page)
	}
	l.opened = true // as onToggle does
	l.Update()
	c.Consume()
	if page := app.HTMLString(l); strings.Count(page, "<li") != len(legendEntries) {
		t.Errorf("the opened legend draws %d of %d entries", strings.Count(page, "<li"), len(legendEntries))
	}
}
