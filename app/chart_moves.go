package app

import (
	"fmt"
	"slices"
	"strconv"

	"plog/core/assign"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// MovesChart draws the partitions moved by each rebalance of every group, a
// bar per rebalance round coloured by its strategy, and sums them up per
// strategy. Its tables list the rounds and the sums.
type MovesChart struct {
	app.Compo

	Rounds []RebalanceMoves
}

// RebalanceMoves is one completed rebalance round of one group.
type RebalanceMoves struct {
	Group      string
	Generation int
	Round      int
	Strategy   string
	Cause      string
	Moved      int
}

// maxMoveBars bounds the rounds drawn: the latest ones.
const maxMoveBars = 40

// movesOf lists the rebalance rounds of the groups, group by group.
func movesOf(groups []GroupSnapshot) []RebalanceMoves {
	var rounds []RebalanceMoves
	for _, g := range groups {
		for _, r := range g.History {
			rounds = append(rounds, RebalanceMoves{
				Group: g.Name, Generation: r.Generation, Round: r.Round,
				Strategy: r.Strategy, Cause: r.Cause, Moved: r.Moved,
			})
		}
	}
	if n := len(rounds); n > maxMoveBars {
		rounds = rounds[n-maxMoveBars:]
	}
	return rounds
}

// strategyTotal sums the rounds of one strategy.
type strategyTotal struct {
	Strategy      string
	Rounds, Moved int
}

// totals sums the rounds per strategy, in assign.Strategies order.
func (c *MovesChart) totals() []strategyTotal {
	var out []strategyTotal
	// The classic strategies, then the consumer protocol's server-side
	// assignors (range is both): a uniform group's rounds were in no
	// total and no legend.
	strategies := assign.Strategies()
	for _, s := range assign.ServerAssignors() {
		if !slices.Contains(strategies, s) {
			strategies = append(strategies, s)
		}
	}
	for _, s := range strategies {
		t := strategyTotal{Strategy: s}
		for _, r := range c.Rounds {
			if r.Strategy == s {
				t.Rounds++
				t.Moved += r.Moved
			}
		}
		if t.Rounds > 0 {
			out = append(out, t)
		}
	}
	return out
}

// Render draws figure[data-chart=moves] with one bar per round.
func (c *MovesChart) Render() app.UI {
	const id = "chart-moves"
	caption := "Partitions moved per rebalance, by strategy"
	if len(c.Rounds) == 0 {
		return app.Figure().Class("chart").DataSet("chart", "moves").Body(
			app.FigCaption().ID(id).Text(caption),
			app.P().Class("chart-empty").Text("No rebalance has completed yet."),
		)
	}
	box := newChartBox(360, 130)
	most := 1
	for _, r := range c.Rounds {
		most = max(most, r.Moved)
	}
	box.xMin, box.xMax, box.yMax = 0, float64(len(c.Rounds)), float64(most)
	bars := []app.UI{box.axes("oldest", "latest", strconv.Itoa(most))}
	width := (box.x(1) - box.x(0)) * 0.8
	for i, r := range c.Rounds {
		top := box.y(float64(r.Moved))
		bars = append(bars, svgElem("rect").
			DataSet("series", r.Strategy).
			Attr("x", num(box.x(float64(i))+width*0.1)).
			Attr("y", num(top)).
			Attr("width", num(width)).
			Attr("height", num(box.y(0)-top)).
			Body(svgElem("title").Text(roundText(r))))
	}
	totals := c.totals()
	entries := make([]legendEntry, len(totals))
	for i, t := range totals {
		entries[i] = legendEntry{Series: t.Strategy, Text: t.Strategy}
	}
	tables := app.Div().Body(
		app.Table().Class("chart-table").Body(
			app.Caption().Text("Each rebalance round"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("group"),
				app.Th().Scope("col").Text("generation"),
				app.Th().Scope("col").Text("strategy"),
				app.Th().Scope("col").Text("cause"),
				app.Th().Scope("col").Text("moved"),
			)),
			app.TBody().Body(app.Range(c.Rounds).Slice(func(i int) app.UI {
				r := c.Rounds[i]
				return app.Tr().DataSet("round-of", r.Group).DataSet("moved", r.Moved).Body(
					app.Td().Text(r.Group),
					app.Td().Text(generationText(r)),
					app.Td().Text(r.Strategy),
					app.Td().Text(r.Cause),
					app.Td().Text(strconv.Itoa(r.Moved)),
				)
			})),
		),
		app.Table().Class("chart-table").Body(
			app.Caption().Text("By strategy"),
			app.THead().Body(app.Tr().Body(
				app.Th().Scope("col").Text("strategy"),
				app.Th().Scope("col").Text("rounds"),
				app.Th().Scope("col").Text("partitions moved"),
				app.Th().Scope("col").Text("per round"),
			)),
			app.TBody().Body(app.Range(totals).Slice(func(i int) app.UI {
				t := totals[i]
				return app.Tr().DataSet("strategy-total", t.Strategy).DataSet("moved", t.Moved).Body(
					app.Th().Scope("row").Text(t.Strategy),
					app.Td().Text(strconv.Itoa(t.Rounds)),
					app.Td().Text(strconv.Itoa(t.Moved)),
					app.Td().Text(strconv.FormatFloat(float64(t.Moved)/float64(t.Rounds), 'f', 1, 64)),
				)
			})),
		),
	)
	return chartFigure("moves", id, caption, app.Div().Body(box.svg(id, bars...), legend(entries)), tables)
}

func generationText(r RebalanceMoves) string {
	if r.Round > 1 {
		return fmt.Sprintf("%d (round %d)", r.Generation, r.Round)
	}
	return strconv.Itoa(r.Generation)
}

func roundText(r RebalanceMoves) string {
	return fmt.Sprintf("%s generation %s (%s): %s, %d moved", r.Group, generationText(r), r.Strategy, r.Cause, r.Moved)
}
