package app

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// lagChartScenario has two groups on two topics: billing commits, falls
// behind, rebalances when a second member joins, and commits again; audit
// commits once on one topic only. The chart of each group has a total, lines
// for several partitions, a partition that gains its commit late, and an
// alert line.
const lagChartScenario = `seed 7
rules 1
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
		for _, g := range p.view.Groups {
			for _, chart := range lagCharts(sortedAttributes(inspect(t, p, d, selection{Kind: selectGroup, Group: g.Name}))) {
				got.WriteString(chart + "\n")
			}
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

	const goldenFile = "testdata/lag_charts.html"
	want := golden(t, goldenFile, []byte(got.String()))
	if got.String() != string(want) {
		t.Errorf("the lag charts differ from %s (go test ./app/ -rewrite rewrites it); got:\n%s", goldenFile, got.String())
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

// A lag that grows one record a minute through an advance draws as a slope,
// its samples taken over virtual time, and a single sample draws a dot
// with its value rather than nothing.
func TestLagChartSamplesOverVirtualTimeAndDrawsALoneSample(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic t partitions=1\njoin g c1 topics=t\nadvance 3s\ncommit g t/0 offset=0\n"))
	page := inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
	dots := tagsWith(page, "data-series", "total")
	if len(dots) != 2 || !strings.HasPrefix(dots[0], "<circle") || !strings.Contains(dots[0], `data-lag="0"`) {
		t.Fatalf("one sample: want a dot for the total (and its legend entry), got %v", dots)
	}
	if !strings.Contains(page, `class="chart-value"`) {
		t.Error("the lone sample's value is not written")
	}

	Apply(d.Context(), "producer p t rate=1/m")
	d.Consume()
	Apply(d.Context(), "advance 10m")
	d.Consume()
	page = inspect(t, p, d, selection{Kind: selectGroup, Group: "g"})
	if n := len(tagsWith(page, "data-during", "true")); n != 9 {
		t.Errorf("%d rows sampled during the advance, want 9 (one a minute)", n)
	}
	var total string
	for _, tag := range tagsWith(page, "data-series", "total") {
		if strings.HasPrefix(tag, "<polyline") {
			total = tag
		}
	}
	m := regexp.MustCompile(`points="([^"]*)"`).FindStringSubmatch(total)
	if m == nil {
		t.Fatalf("no total line: %v", tagsWith(page, "data-series", "total"))
	}
	ys := map[string]bool{}
	for _, pt := range strings.Fields(m[1]) {
		ys[pt[strings.Index(pt, ",")+1:]] = true
	}
	// 0 at the commit, 0 at the producer's start, then 1…10: eleven levels.
	if len(ys) != 11 {
		t.Errorf("the total line has %d levels, want 11 (a stair a minute): %s", len(ys), m[1])
	}
}
