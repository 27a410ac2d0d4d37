package app

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"

	"plog/core/scenario"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// LagChart draws one group's lag over virtual time, sampled by the session
// after every command and through each advance of the clock: the total as a
// thick line, each partition as a thin one, and the lag.alert.records
// threshold as a dashed line. A lone sample is drawn as a dot with its
// value. Its table lists the samples.
type LagChart struct {
	app.Compo

	Group        string
	Samples      []scenario.LagSample // the session's LagHistory: read only
	AlertRecords int64
}

// maxLagPoints bounds the samples drawn and listed: the latest ones.
const maxLagPoints = 120

// lagPartitionsShown bounds the partitions charted beside the total: the
// first ones. A group may read a thousand partitions, and the table would
// have a column for each (list_window.go).
const lagPartitionsShown = 12

// noLag marks a sample where a partition had no commit, hence no lag.
const noLag = -1

// lagSeries is one line of the chart.
type lagSeries struct {
	Name      string // "total" or "orders/0"
	Topic     string
	Partition int
	Lag       []float64
}

// Render draws figure[data-chart=lag][data-chart-group=billing].
func (c *LagChart) Render() app.UI {
	times, steps, during, series := c.series()
	id := "chart-lag-" + c.Group
	caption := "Lag of " + c.Group + " over virtual time, in records"
	if hidden := len(series) - 1 - lagPartitionsShown; hidden > 0 {
		series = series[:1+lagPartitionsShown]
		caption += fmt.Sprintf(" (the total and the first %d partitions: %d more partitions are not drawn)", lagPartitionsShown, hidden)
	}
	if len(times) == 0 {
		return app.Figure().Class("chart").DataSet("chart", "lag").DataSet("chart-group", c.Group).Body(
			app.FigCaption().ID(id).Text(caption),
			app.P().Class("chart-empty").Text(c.Group+" has committed nothing yet, so it has no lag to chart."),
		)
	}
	box := newChartBox(360, 150)
	xs := make([]float64, len(times))
	for i, t := range times {
		xs[i] = float64(t)
	}
	box.xMin, box.xMax = xs[0], xs[len(xs)-1]
	if box.xMax == box.xMin { // no time passed: spread the commands out
		for i := range xs {
			xs[i] = float64(i)
		}
		box.xMin, box.xMax = 0, float64(len(xs)-1)
	}
	top := float64(c.AlertRecords)
	for _, s := range series {
		for _, v := range s.Lag {
			top = max(top, v)
		}
	}
	box.yMax = max(top, 1)

	lines := []app.UI{box.axes(units.Duration(times[0]), units.Duration(times[len(times)-1]), strconv.FormatFloat(box.yMax, 'f', 0, 64))}
	if c.AlertRecords > 0 {
		y := num(box.y(float64(c.AlertRecords)))
		lines = append(lines, svgElem("line").DataSet("series", "alert").
			Attr("x1", num(box.left)).Attr("x2", num(box.width-box.right)).Attr("y1", y).Attr("y2", y))
	}
	for i, s := range series {
		if len(xs) == 1 { // one sample: a dot at its value, as a line needs two
			lag := atLeastZero(s.Lag)[0]
			lines = append(lines, svgElem("circle").
				DataSet("series", s.Name).
				DataSet("index", i%8).
				DataSet("lag", strconv.FormatFloat(lag, 'f', 0, 64)).
				Attr("r", "3").
				Attr("cx", num(box.x(xs[0]))).Attr("cy", num(box.y(lag))))
			continue
		}
		lines = append(lines, svgElem("polyline").
			DataSet("series", s.Name).
			DataSet("index", i%8).
			Attr("fill", "none").
			Attr("points", points(box, stepXs(xs), stepYs(atLeastZero(s.Lag)))))
	}
	if len(xs) == 1 {
		total := series[0].Lag[0]
		lines = append(lines, svgElem("text").Class("chart-value").
			Attr("x", num(box.x(xs[0])+6)).Attr("y", num(box.y(total)-4)).
			Text(strconv.FormatFloat(total, 'f', 0, 64)))
	}
	entries := []legendEntry{}
	for i, s := range series {
		entries = append(entries, legendEntry{Series: s.Name, Index: i % 8, Text: s.Name})
	}
	if c.AlertRecords > 0 {
		entries = append(entries, legendEntry{Series: "alert", Text: fmt.Sprintf("alert at %d", c.AlertRecords)})
	}
	chart := app.Div().Body(box.svg(id, lines...), legend(entries))
	figure := chartFigure("lag", id, caption, chart, c.table(times, steps, during, series))
	return figure.DataSet("chart-group", c.Group)
}

// series picks the group's samples (the latest maxLagPoints in which it has
// a commit, those taken during an advance included) and splits them into
// lines. It walks the history from its end, so a long history costs no more
// than the samples drawn. during[i] says sample i was taken while its step
// advanced the clock, before the step's end.
func (c *LagChart) series() (times []int64, steps []int, during []bool, series []lagSeries) {
	var picked []scenario.GroupLag
	pick := func(s scenario.LagSample, inside bool) {
		for _, g := range s.Groups {
			if g.Group == c.Group && g.HasCommitted() {
				times, steps, during = append(times, s.TimeMs), append(steps, s.Step), append(during, inside)
				picked = append(picked, g)
			}
		}
	}
	for i := len(c.Samples) - 1; i >= 0 && len(picked) < maxLagPoints; i-- {
		s := c.Samples[i]
		pick(s, false)
		for j := len(s.During) - 1; j >= 0 && len(picked) < maxLagPoints; j-- {
			pick(s.During[j], true)
		}
	}
	if len(picked) == 0 {
		return nil, nil, nil, nil
	}
	slices.Reverse(times)
	slices.Reverse(steps)
	slices.Reverse(during)
	slices.Reverse(picked)
	total := lagSeries{Name: "total"}
	index := map[string]int{}
	for i, g := range picked {
		total.Lag = append(total.Lag, float64(g.Total))
		for _, p := range g.Partitions { // those with a commit
			name := p.Topic + "/" + strconv.Itoa(p.Partition)
			k, ok := index[name]
			if !ok {
				k = len(series)
				index[name] = k
				missing := make([]float64, len(picked))
				for j := range missing {
					missing[j] = noLag
				}
				series = append(series, lagSeries{Name: name, Topic: p.Topic, Partition: p.Partition, Lag: missing})
			}
			series[k].Lag[i] = float64(p.Lag)
		}
	}
	slices.SortFunc(series, func(a, b lagSeries) int {
		return cmp.Or(cmp.Compare(a.Topic, b.Topic), cmp.Compare(a.Partition, b.Partition))
	})
	return times, steps, during, append([]lagSeries{total}, series...)
}

// stepXs and stepYs turn samples into a staircase: lag holds its value
// until the next sample.
func stepXs(xs []float64) []float64 {
	out := make([]float64, 0, 2*len(xs))
	for i, x := range xs {
		if i > 0 {
			out = append(out, x)
		}
		out = append(out, x)
	}
	return out
}

func stepYs(ys []float64) []float64 {
	out := make([]float64, 0, 2*len(ys))
	for i, y := range ys {
		if i > 0 {
			out = append(out, ys[i-1])
		}
		out = append(out, y)
	}
	return out
}

// atLeastZero draws a partition with no commit yet at zero.
func atLeastZero(vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = max(v, 0)
	}
	return out
}

// table lists the samples: the text the chart draws.
func (c *LagChart) table(times []int64, steps []int, during []bool, series []lagSeries) app.UI {
	return app.Table().Class("chart-table").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("command"),
			app.Th().Scope("col").Text("time"),
			app.Range(series).Slice(func(j int) app.UI {
				return app.Th().Scope("col").Text(series[j].Name)
			}),
		)),
		app.TBody().Body(
			app.Range(times).Slice(func(i int) app.UI {
				command := fmt.Sprintf("#%d", steps[i])
				row := app.Tr().DataSet("step", steps[i])
				if during[i] {
					command = fmt.Sprintf("during #%d", steps[i])
					row = row.DataSet("during", true)
				}
				return row.Body(
					app.Th().Scope("row").Text(command),
					app.Td().Text(units.Duration(times[i])),
					app.Range(series).Slice(func(j int) app.UI {
						if series[j].Lag[i] == noLag {
							return app.Td().Text("-")
						}
						return app.Td().Text(strconv.FormatFloat(series[j].Lag[i], 'f', 0, 64))
					}),
				)
			}),
		),
	)
}
