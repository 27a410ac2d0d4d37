package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// LaneLegend says what the marks on the lanes mean, each with its help: the
// learner meets every concept of a lane once, above the lanes.
//
// Its entries are drawn once the fold first opens (drawFoldedBodies): folded,
// they are out of sight, and their 18 items and their helps were a tenth of the
// render that shows a link's scenario as the page opens.
type LaneLegend struct {
	app.Compo

	opened bool // the fold has been opened: its entries are drawn
}

// legendEntries are the lanes' marks: a sample of each, its words, and the
// help topic that explains it. The retention cliff is a clock face (◔,
// which the fonts of a plain Linux desktop have; an hourglass is not): a
// walk read its scissors as the truncate button's, beside every lane's
// name.
var legendEntries = []struct{ class, sample, words, help string }{
	{"record key-1", "3▲", "a record at its offset, its key told by colour and shape", "offset"},
	{"record keyless", "4", "hover a record: its key, value and timestamp", "timestamp"},
	{"edge log-start-edge", "start", "log start offset", "log-start"},
	{"edge hw-edge", "next", "next offset: the log end, and the high watermark unless marked", "high-watermark"},
	{"edge hw-mark", "HW", "high watermark, before records not committed yet", "high-watermark"},
	{"record keyless segment-start", "10", "a segment begins", "segment"},
	{"record keyless", "5 ∅", "a record without a key: the partitioner picks its partition", "partitioner"},
	{"cliff", "◔", "retention cliff: older records go at the next retention check", "retention"},
	{"gap", "gap", "offsets compaction removed", "compaction"},
	{"record key-4 tombstone", "✝", "tombstone", "tombstone"},
	{"flag", "⚑", "a group's committed offset", "committed-offset"},
	{"flag position-flag", "▸ c1", "where a member reads next: its position", "position"},
	{"record keyless txn-open", "5…", "a transaction's record, still open", "transaction"},
	{"record keyless txn-committed", "6✓", "a committed transaction's record", "transaction"},
	{"record keyless txn-aborted", "7✗", "an aborted transaction's record", "transaction"},
	{"record marker marker-commit", "✓ C", "a commit or abort marker, at its own offset", "transaction"},
	{"edge lso-mark", "LSO", "last stable offset: read_committed reads below it", "last-stable-offset"},
	{"skew-bar hot", "", "partition fill; hot at twice its siblings' mean, 20 records or more", "skew"},
}

// Render draws the legend as a list, folded above the lanes so that the
// picture keeps its room: the learner opens it when a mark needs words.
func (l *LaneLegend) Render() app.UI {
	var list app.UI
	if l.opened || drawFoldedBodies {
		list = l.list()
	}
	return app.Details().Class("legend-fold").On("toggle", l.onToggle).Body(
		app.Summary().Text("What the lanes show"),
		list,
	)
}

// onToggle draws the entries the first time the learner opens the fold.
func (l *LaneLegend) onToggle(ctx app.Context, e app.Event) {
	if ctx.JSSrc().Get("open").Bool() {
		l.opened = true
	}
}

// list is the legend's entries.
func (l *LaneLegend) list() app.UI {
	return app.Ul().Class("legend").Aria("label", "what the lanes show").Body(
		app.Range(legendEntries).Slice(func(i int) app.UI {
			e := legendEntries[i]
			return app.Li().Body(
				app.Span().Class("legend-sample", e.class).Aria("hidden", "true").Text(e.sample),
				app.Text(" "+e.words+" "),
				&Help{Topic: e.help},
			)
		}),
	)
}
