package app

import (
	goflag "flag"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

var rewriteLagCharts = goflag.Bool("rewrite-lag-charts", false, "rewrite testdata/lag_charts.html")

// lagChartScenario has two groups on two topics: billing commits, falls
// behind, rebalances when a second member joins, and commits again; audit
// commits once on one topic only. The chart of each group has a total, lines
// for several partitions, a partition that gains its commit late, and an
// alert line.
const lagChartScenario = `seed 7
topic orders partitions=3
topic refunds partitions=2
config group billing lag.alert.records=12
join billing c1 topics=orders,refunds strategy=range
advance 5s
produce orders key=a value=v count=5
produce orders key=b value=v count=4
produce refunds value=v count=3
poll billing c1 max=4
commit billing c1
advance 2s
produce orders key=c value=v count=6
join billing c2 topics=orders,refunds strategy=range
advance 5s
poll billing c2 max=3
commit billing c2
join audit a1 topics=refunds strategy=sticky
advance 5s
poll audit a1 max=2
commit audit a1
produce refunds key=r value=v count=5
advance 1m
poll billing c1 max=10
commit billing c1
`

// TestLagChartsFollowTheHistory pins the lag charts (SVG and table) drawn
// for a scenario, then after new commands, an undo, a different command in
// its place, and a seek back: the charts are a function of the applied
// commands, whatever path led there.
func TestLagChartsFollowTheHistory(t *testing.T) {
	p, d := mountAt(t, mustLink(t, lagChartScenario))
	if p.err != "" {
		t.Fatalf("alert: %s", p.err)
	}
	var got strings.Builder
	snap := func(what string) {
		got.WriteString("== " + what + "\n")
		for _, chart := range lagCharts(sortedAttributes(app.HTMLString(p))) {
			got.WriteString(chart + "\n")
		}
	}
	snap("the scenario")
	for _, line := range []string{"produce orders key=d value=v count=7", "advance 10s", "poll audit a1 max=5", "commit audit a1"} {
		Apply(d.Context(), line)
		d.Consume()
	}
	snap("four commands later")
	move := func(m historyMove) {
		d.Context().NewActionWithValue(historyAction, m)
		d.Consume()
	}
	move(historyMove{Kind: "undo"})
	move(historyMove{Kind: "undo"})
	snap("two undos")
	Apply(d.Context(), "leave billing c2")
	d.Consume()
	Apply(d.Context(), "advance 10s")
	d.Consume()
	snap("a member leaves instead")
	move(historyMove{Kind: "seek", Step: 12})
	snap("seek to step 12")
	move(historyMove{Kind: "redo"})
	snap("redo")
	move(historyMove{Kind: "seek", Step: 19})
	snap("seek to step 19, audit has not committed yet")

	const golden = "testdata/lag_charts.html"
	if *rewriteLagCharts {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != string(want) {
		t.Errorf("the lag charts differ from %s; got:\n%s", golden, got.String())
	}
}

var (
	openingTag = regexp.MustCompile(`<([a-z][a-z0-9]*)((?:\s+[a-zA-Z][a-zA-Z0-9-]*(?:="[^"]*")?)*)\s*>`)
	attribute  = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9-]*(?:="[^"]*")?`)
	lagFigure  = regexp.MustCompile(`<figure [^>]*data-chart="lag"[^>]*>`)
)

// sortedAttributes writes every opening tag's attributes in name order:
// go-app writes them in map order, which changes from one render to the
// next.
func sortedAttributes(page string) string {
	return openingTag.ReplaceAllStringFunc(page, func(tag string) string {
		m := openingTag.FindStringSubmatch(tag)
		attrs := attribute.FindAllString(m[2], -1)
		slices.Sort(attrs)
		return "<" + strings.Join(append([]string{m[1]}, attrs...), " ") + ">"
	})
}

// lagCharts cuts the lag charts' figures out of a page.
func lagCharts(page string) []string {
	var charts []string
	for _, at := range lagFigure.FindAllStringIndex(page, -1) {
		end := strings.Index(page[at[0]:], "</figure>")
		if end < 0 {
			break
		}
		charts = append(charts, page[at[0]:at[0]+end+len("</figure>")])
	}
	return charts
}
