package app

import (
	"strconv"
	"strings"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The charts are inline SVG drawn from the snapshot, each with a table
// that says the same in text. SVG elements must be created in SVG's
// namespace, and their class cannot be set the way go-app sets an HTML
// element's, so the charts are styled by their data- attributes.

const svgNamespace = "http://www.w3.org/2000/svg"

// svgElem is an SVG element.
func svgElem(tag string) app.HTMLElem {
	return app.Elem(tag).XMLNS(svgNamespace)
}

// chartBox is a chart's drawing area in SVG units: the plot sits inside
// the margins, which hold the axis labels.
type chartBox struct {
	width, height            float64
	left, right, top, bottom float64
	xMin, xMax, yMin, yMax   float64
}

func newChartBox(width, height float64) chartBox {
	return chartBox{width: width, height: height, left: 44, right: 8, top: 8, bottom: 22, xMax: 1, yMax: 1}
}

// x and y map data to SVG coordinates.
func (b chartBox) x(v float64) float64 {
	span := b.xMax - b.xMin
	if span <= 0 {
		span = 1
	}
	return b.left + (v-b.xMin)/span*(b.width-b.left-b.right)
}

func (b chartBox) y(v float64) float64 {
	span := b.yMax - b.yMin
	if span <= 0 {
		span = 1
	}
	return b.height - b.bottom - (v-b.yMin)/span*(b.height-b.top-b.bottom)
}

// svg is the chart's root element, described by the element with id
// labelledBy (its caption).
func (b chartBox) svg(labelledBy string, children ...app.UI) app.UI {
	return svgElem("svg").
		Attr("viewBox", "0 0 "+num(b.width)+" "+num(b.height)).
		Attr("preserveAspectRatio", "xMinYMin meet").
		Attr("role", "img").
		Attr("aria-labelledby", labelledBy).
		Attr("focusable", "false").
		Body(children...)
}

// axes draws the two axes with their end labels.
func (b chartBox) axes(xFrom, xTo, yTo string) app.UI {
	x0, y0 := b.left, b.height-b.bottom
	return svgElem("g").DataSet("part", "axes").Body(
		svgElem("line").Attr("x1", num(x0)).Attr("y1", num(b.top)).Attr("x2", num(x0)).Attr("y2", num(y0)),
		svgElem("line").Attr("x1", num(x0)).Attr("y1", num(y0)).Attr("x2", num(b.width-b.right)).Attr("y2", num(y0)),
		svgText(x0-4, b.top+8, "end", yTo),
		svgText(x0-4, y0, "end", "0"),
		svgText(x0, b.height-6, "start", xFrom),
		svgText(b.width-b.right, b.height-6, "end", xTo),
	)
}

func svgText(x, y float64, anchor, text string) app.UI {
	return svgElem("text").Attr("x", num(x)).Attr("y", num(y)).Attr("text-anchor", anchor).Text(text)
}

// points writes a polyline's points attribute.
func points(b chartBox, xs, ys []float64) string {
	var sb strings.Builder
	for i := range xs {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(num(b.x(xs[i])))
		sb.WriteByte(',')
		sb.WriteString(num(b.y(ys[i])))
	}
	return sb.String()
}

// num writes an SVG coordinate with at most one decimal.
func num(v float64) string {
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// legendEntry names one series of a chart; Index picks its colour.
type legendEntry struct {
	Series string
	Index  int
	Text   string
}

// legend lists a chart's series with their colours. Colour is not the only
// cue: the table under the chart names every value.
func legend(entries []legendEntry) app.UI {
	return app.Ul().Class("chart-legend").Aria("label", "Legend").Body(
		app.Range(entries).Slice(func(i int) app.UI {
			e := entries[i]
			return app.Li().DataSet("series", e.Series).DataSet("index", e.Index).Text(e.Text)
		}),
	)
}

// chartFigure is a chart with its caption and, folded under it, the table
// that says the same in text.
func chartFigure(kind, id, caption string, chart app.UI, table app.UI) app.HTMLFigure {
	return app.Figure().Class("chart").DataSet("chart", kind).Body(
		app.FigCaption().ID(id).Text(caption),
		chart,
		app.Details().Class("chart-text").Body(
			app.Summary().Text(caption+" as a table"),
			table,
		),
	)
}
