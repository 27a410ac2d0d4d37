package app

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// RecordsChart draws, for each topic, the records each partition retains as
// bars, with the topic's skew (largest count over the mean): a hot key shows
// as one tall bar. Its table lists the counts.
//
// It charts a window of chartTopicsShown topics, and its table lists at
// most chartRowsShown partitions of each, saying how many it leaves out
// (list_window.go): ten topics of a thousand partitions would be forty
// thousand elements.
type RecordsChart struct {
	app.Compo

	Topics []TopicRecordCounts
	// HideSkew leaves each topic's skew out of its caption, as TopicList
	// does.
	HideSkew bool

	start int // the first topic charted
}

const (
	chartTopicsShown = 4
	chartRowsShown   = 50
	chartBarsShown   = 120
)

// Render draws figure[data-chart=records][data-chart-topic=orders] per topic.
func (c *RecordsChart) Render() app.UI {
	if len(c.Topics) == 0 {
		return app.Div().Class("chart-empty").Text("No topics yet, so no records to chart.")
	}
	window := windowAt(c.start, chartTopicsShown, len(c.Topics))
	shown := c.Topics[window.start:window.end()]
	return app.Div().Class("records-charts").Body(
		windowNav("chart-topics", "topics", 1, window, func(ctx app.Context, start int) { c.start = start }),
		app.Range(shown).Slice(func(i int) app.UI { return recordsFigure(shown[i], c.HideSkew) }),
	)
}

func recordsFigure(t TopicRecordCounts, hideSkew bool) app.UI {
	id := "chart-records-" + t.Topic
	caption := fmt.Sprintf("Records per partition of %s (skew %s)", t.Topic, countsSkew(t.Counts))
	skew := countsSkew(t.Counts)
	if hideSkew {
		caption, skew = "Records per partition of "+t.Topic, ""
	}
	box := newChartBox(360, 130)
	most := 1
	for _, n := range t.Counts {
		most = max(most, n)
	}
	// Past chartBarsShown partitions a bar stands for a run of them, as
	// tall as the fullest: a hot partition still stands out, and a topic
	// of a thousand partitions is not a thousand rectangles narrower than
	// a pixel, which took the page a second to draw.
	per := (len(t.Counts) + chartBarsShown - 1) / chartBarsShown
	if per > 1 {
		caption += fmt.Sprintf("; each bar is the fullest of %d partitions", per)
	}
	box.xMin, box.xMax, box.yMax = 0, float64(len(t.Counts)), float64(most)
	bars := []app.UI{box.axes("partition 0", fmt.Sprintf("partition %d", len(t.Counts)-1), strconv.Itoa(most))}
	width := (box.x(float64(per)) - box.x(0)) * 0.8
	for first := 0; first < len(t.Counts); first += per {
		run := t.Counts[first:min(first+per, len(t.Counts))]
		top := box.y(float64(slices.Max(run)))
		bar := svgElem("rect").
			DataSet("series", "records").
			DataSet("partition", first).
			Attr("x", num(box.x(float64(first))+width*0.1)).
			Attr("y", num(top)).
			Attr("width", num(width)).
			Attr("height", num(box.y(0)-top))
		if len(run) > 1 {
			bar = bar.DataSet("partitions", len(run))
		}
		bars = append(bars, bar)
	}
	rows := t.Counts[:min(len(t.Counts), chartRowsShown)]
	table := app.Table().Class("chart-table").Body(
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("partition"),
			app.Th().Scope("col").Text("records"),
		)),
		app.TBody().Body(
			app.Range(rows).Slice(func(p int) app.UI {
				return app.Tr().DataSet("records-of", t.Topic+"/"+strconv.Itoa(p)).Body(
					app.Th().Scope("row").Text(t.Topic+"/"+strconv.Itoa(p)),
					app.Td().Text(strconv.Itoa(t.Counts[p])),
				)
			}),
			app.If(len(rows) < len(t.Counts),
				app.Tr().Class("chart-more").Body(
					app.Td().ColSpan(2).Text(fmt.Sprintf("%d more partitions are not listed; their lanes show their records.", len(t.Counts)-len(rows))),
				),
			),
		),
	)
	return chartFigure("records", id, caption, box.svg(id, bars...), table).
		DataSet("chart-topic", t.Topic).
		DataSet("skew", skew)
}

// countsSkew is the largest count over the mean, "1.00" for an even or empty
// topic.
func countsSkew(counts []int) string {
	total, most := 0, 0
	for _, n := range counts {
		total += n
		most = max(most, n)
	}
	if total == 0 {
		return "1.00"
	}
	mean := float64(total) / float64(len(counts))
	return strconv.FormatFloat(float64(most)/mean, 'f', 2, 64)
}
