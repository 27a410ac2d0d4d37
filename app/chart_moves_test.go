package app

import (
	"os"
	"strings"
	"testing"

	"plog/core/assign"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The rounds of a consumer-protocol group, assigned by the coordinator's
// uniform or range assignor, are in the chart's legend and totals, in a
// colour of their own, like the classic strategies' (a uniform group's bar
// was drawn black, with no legend and an empty total table).
func TestMovesChartNamesEveryAssignor(t *testing.T) {
	css, err := os.ReadFile("../web/static/groups.css")
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range append(assign.Strategies(), assign.ServerAssignors()...) {
		c := &MovesChart{Rounds: []RebalanceMoves{{Group: "g", Generation: 1, Strategy: s, Moved: 3}}}
		html := app.HTMLString(c.Render())
		var bars, entries int
		for _, tag := range tagsWith(html, "data-series", s) {
			switch {
			case strings.HasPrefix(tag, "<rect"):
				bars++
			case strings.HasPrefix(tag, "<li"):
				entries++
			}
		}
		if bars != 1 || entries != 1 {
			t.Errorf("%s: the chart draws %d bars and %d legend entries of it, want one each", s, bars, entries)
		}
		if len(tagsWith(html, "data-strategy-total", s)) == 0 && !strings.Contains(html, ">"+s+"</th>") && !strings.Contains(html, ">"+s+"</td>") {
			t.Errorf("%s: the totals do not list it", s)
		}
		if !strings.Contains(string(css), `.chart rect[data-series="`+s+`"] { fill:`) {
			t.Errorf("%s: groups.css gives its bars no colour", s)
		}
	}
}
