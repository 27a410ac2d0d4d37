package app

import (
	"fmt"
	"html"
	"slices"
	"strconv"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// PartitionLane shows one partition as a lane of records between its log
// start offset and its log end: a window of its records (counts for the
// rest), segment boundaries, the retention cliff, tombstones, the gaps
// compaction leaves, the high watermark with the records above it drawn as
// not committed yet, where each consumer group stands, and the records the
// last command added or removed.
type PartitionLane struct {
	app.Compo

	Partition PartitionSnapshot
	// Share is the partition's count over the topic's largest, in percent
	// as the skew bar draws it (to a tenth). It is the bar's width rather
	// than the largest count so that a produce into the largest partition
	// leaves the other lanes as they were, and go-app does not draw them
	// again.
	Share  string
	Hot    bool // this partition holds far more than its share
	Landed LandedRange
	Read   readRange         // the records the last poll read, highlighted (motion_reads.go)
	Moves  map[string]string // by group, what the last command's rebalance did here (motion_rebalance.go)
	Ghosts []core.Record     // removed records still drawn, leaving
	// Replicas are the partition's replicas in a cluster, drawn when
	// Replicated; Down lists the brokers that are down.
	Replicas   ReplicaPartition
	Replicated bool
	Down       []int
	Selected   bool // the inspector shows this partition
	// Shares are the share groups that read the partition, each drawn
	// as a strip under the lane (share_lane_strip.go).
	Shares []ShareStrip
}

// laneItem is one cell of the lane's strip: a record, or a record leaving.
type laneItem struct {
	record core.Record
	ghost  bool
	look   keyLook // how its key is drawn (assignLooks)
}

// Render draws the lane with the test attributes of docs/ARCHITECTURE.md:
// [data-topic][data-partition] with data-log-start and data-high-watermark
// (and data-last-stable-offset while named producers are in use), one
// [data-offset] per record with data-key (data-txn for a transaction's
// record, data-marker for a marker), and [data-group][data-committed] per
// group that has committed here.
func (l *PartitionLane) Render() app.UI {
	p := l.Partition
	name := fmt.Sprintf("%s/%d", p.Topic, p.Partition)
	lane := app.Div().Class("lane")
	if p.Offline != "" {
		lane = lane.Class("offline")
	}
	if l.Selected {
		lane = lane.Class("selected")
	}
	if p.Txn.InUse {
		lane = lane.DataSet("last-stable-offset", p.Txn.LastStableOffset)
	}
	inspect := selection{Kind: selectPartition, Topic: p.Topic, Partition: p.Partition}
	return lane.
		DataSet("offline", p.Offline != "").
		DataSet("topic", p.Topic).
		DataSet("partition", p.Partition).
		DataSet("log-start", p.LogStart).
		DataSet("high-watermark", p.HighWatermark).
		DataSet("count", p.Count).
		DataSet("segments", p.Segments).
		DataSet("cliff", p.Cliff).
		Body(
			app.Div().Class("lane-head").Body(
				app.Button().Type("button").Class("lane-name", "quiet").DataSet("inspect-partition", name).
					Aria("label", "inspect "+name).Title("inspect "+name+": its offsets, replicas and settings").
					OnClick(selectThing(inspect), name).Text(name),
				app.Button().Type("button").Class("lane-truncate", "quiet", "small").DataSet("truncate-lane", name).
					Aria("label", "truncate "+name).Title("truncate "+name+": remove its records below an offset").
					OnClick(selectThing(inspect), name).Text("✂"),
				l.renderCount(),
				// The offsets in words are for screen readers: the strip
				// draws them, and the inspector lists them.
				app.Span().Class("lane-offsets", "visually-hidden").Text(l.offsetsText()),
			),
			app.If(p.Offline != "",
				app.P().Class("lane-offline").Attr("role", "status").Text(offlineNote(p)),
			),
			app.Div().Class("lane-body").Body(
				l.olderButton(name),
				app.Ol().Class("records").Aria("label", "records of "+name+" (arrow keys move between records)").
					OnKeyDown(moveRecordFocus).Body(l.strip()...),
				l.newerButton(name),
			),
			app.Range(l.Shares).Slice(func(i int) app.UI { return &ShareLaneStrip{Strip: l.Shares[i]} }),
			l.renderReplicas(),
			l.renderFoot(),
		)
}

// renderReplicas draws the partition's replicas, in a cluster.
func (l *PartitionLane) renderReplicas() app.UI {
	if !l.Replicated {
		return nil
	}
	return laneReplicas(l.Replicas, l.Down)
}

// offsetsText is the lane's offsets in words; the log end only when records
// above the high watermark make it differ.
func (l *PartitionLane) offsetsText() string {
	p := l.Partition
	text := fmt.Sprintf("log start %d · high watermark %d", p.LogStart, p.HighWatermark)
	if p.Txn.InUse {
		text += fmt.Sprintf(" · last stable offset %d", p.Txn.LastStableOffset)
	}
	if n := p.LogEnd - p.HighWatermark; n > 0 {
		text += fmt.Sprintf(" · log end %d (%s not committed yet)", p.LogEnd, countOf(int(n), "record"))
	}
	return text + " · " + countOf(p.Segments, "segment")
}

// olderButton moves the window back, when older records are not drawn.
// (go-app keeps a mounted element's handler while its function and scope
// stay the same, so the offset the handler moves to is its scope too.)
func (l *PartitionLane) olderButton(name string) app.UI {
	p := l.Partition
	if p.Before == 0 || len(p.Records) == 0 {
		return nil
	}
	to := max(p.Records[0].Offset-laneWindow, p.LogStart)
	return app.Button().Type("button").Class("lane-nav").
		Aria("label", fmt.Sprintf("show older records of %s", name)).
		OnClick(l.show(to), to).
		Text(olderText(p))
}

// newerButton moves the window on, when newer records are not drawn: one
// window on, or back to following the newest records when fewer than a
// window remain.
func (l *PartitionLane) newerButton(name string) app.UI {
	p := l.Partition
	if p.After == 0 {
		return nil
	}
	to := followTail
	if p.After > laneWindow && len(p.Records) > 0 {
		to = p.Records[len(p.Records)-1].Offset + 1
	}
	return app.Button().Type("button").Class("lane-nav").
		Aria("label", fmt.Sprintf("show newer records of %s", name)).
		OnClick(l.show(to), to).
		Text(newerText(p))
}

// olderText and newerText are the captions of the buttons that move the
// lane's window: how many retained records are before it and after it.
func olderText(p PartitionSnapshot) string { return fmt.Sprintf("◀ %d older", p.Before) }

func newerText(p PartitionSnapshot) string { return fmt.Sprintf("%d newer ▶", p.After) }

// strip is the lane's cells: the log start edge when the window reaches it,
// the records (with the high watermark before the first record above it),
// and the log end edge when it reaches the newest.
func (l *PartitionLane) strip() []app.UI {
	p := l.Partition
	var cells []app.UI
	if p.Before == 0 {
		cells = append(cells, app.Li().Class("edge", "log-start-edge").
			Title("log start offset: the first offset a reader may ask for").
			Text(logStartText(p)))
	}
	cells = append(cells, l.cells()...)
	if p.After == 0 {
		if p.Txn.InUse && p.Txn.LastStableOffset == p.LogEnd {
			cells = append(cells, lsoMark(p.Txn.LastStableOffset, p.HighWatermark))
		}
		if p.LogEnd == p.HighWatermark {
			cells = append(cells, l.flags(p.LogEnd)...)
		}
		cells = append(cells, app.Li().Class("edge", "hw-edge").DataSet("next-offset", p.LogEnd).
			Title(nextOffsetTitle(p)).
			Text(nextOffsetText(p)))
	}
	return cells
}

// logStartText is the caption of the lane's log start edge: the first
// offset a reader may ask for.
func logStartText(p PartitionSnapshot) string { return fmt.Sprintf("start %d", p.LogStart) }

// nextOffsetText is the caption of the lane's end: the log end offset, the
// offset the next record will get (the high watermark too, unless records
// above it are not committed yet, which the HW mark then shows).
func nextOffsetText(p PartitionSnapshot) string { return fmt.Sprintf("next %d", p.LogEnd) }

func nextOffsetTitle(p PartitionSnapshot) string {
	if p.LogEnd == p.HighWatermark {
		return "high watermark and log end: the offset the next record will get"
	}
	return "log end: the offset the next record will get"
}

// hwMark is drawn before the first record above the high watermark: the
// line consumers read up to.
func hwMark(hw int64) app.UI {
	return app.Li().Class("edge", "hw-mark").DataSet("hw-mark", hw).
		Title("high watermark: consumers read only below it; the records after it are not committed until every follower in the ISR has fetched them").
		Text(hwText(hw))
}

// hwText is the caption of the high watermark's mark.
func hwText(hw int64) string { return fmt.Sprintf("HW %d", hw) }

// uncommittedNote is what a record above the high watermark adds to its
// title.
const uncommittedNote = " · not committed yet: stored on the leader, not yet replicated to every in-sync replica, so no consumer reads it"

// renderCount draws the partition's record count over its skew bar, the
// partition's fill against the topic's fullest (one element: a page may
// draw hundreds of lanes).
func (l *PartitionLane) renderCount() app.UI {
	count := app.Span().Class("lane-count").Style("--fill", l.Share+"%")
	if l.Hot {
		count = count.Class("hot")
	}
	return count.Text(laneCountText(l.Partition.Count, l.Hot))
}

// laneCountText is the caption of a lane's count: the records the
// partition retains, and whether it is hot (TopicSnapshot.hot).
func laneCountText(count int, hot bool) string {
	label := countOf(count, "record")
	if hot {
		label += " · hot"
	}
	return label
}

// offlineNote says why a partition has no leader and what follows: its
// records are kept by its replicas, and nobody can read or add to them.
func offlineNote(p PartitionSnapshot) string {
	where := fmt.Sprintf("%s (its replicas are on brokers %s)", p.Offline, joinIDs(p.OfflineBrokers))
	if len(p.OfflineBrokers) == 1 {
		where = fmt.Sprintf("its only replica is on broker %d, which is down", p.OfflineBrokers[0])
	}
	return fmt.Sprintf("Offline, no leader: %s. Its %s are kept but unavailable: producing to it and reading from it fail (LEADER_NOT_AVAILABLE) until a broker that holds it restarts.",
		where, countOf(p.Count, "record"))
}

// renderFoot draws the retention cliff and the groups' marks in words. The
// marks are in the lane even when their offsets are outside the window.
func (l *PartitionLane) renderFoot() app.UI {
	p := l.Partition
	if p.Cliff < 0 && p.NextExpiry == "" && len(p.Marks) == 0 {
		return app.Div().Class("lane-foot", "empty")
	}
	return app.Div().Class("lane-foot").Body(
		app.If(p.Cliff > p.LogStart,
			app.Span().Class("cliff-note").DataSet("cliff", p.Cliff).
				Text(cliffNote(p)),
		),
		app.If(p.NextExpiry != "", app.Span().Class("expiry-note").Text(p.NextExpiry)),
		app.Range(p.Marks).Slice(func(i int) app.UI {
			m := p.Marks[i]
			chip := app.Span().Class("group-mark").DataSet("group", m.Group)
			if motion := l.Moves[m.Group]; motion != "" {
				chip = chip.DataSet("motion", motion)
			}
			if m.HasCommitted {
				chip = chip.DataSet("committed", m.Committed)
			}
			if m.HasPosition {
				chip = chip.DataSet("position", m.Position)
			}
			return assignmentChip(chip, p.Topic, p.Partition, m, groupChipText(m))
		}),
	)
}

// groupChipText is the caption of a group's chip under a lane: where the
// group has committed, which member owns the partition and where it reads
// next, and how a rebalance moves it.
func groupChipText(m GroupMark) string {
	text := m.Group + ": no commit"
	if m.HasCommitted {
		text = fmt.Sprintf("%s: committed %d", m.Group, m.Committed)
	}
	if m.HasPosition {
		text += fmt.Sprintf(" · %s reads %d", m.Owner, m.Position)
	}
	if m.Paused {
		text += " · paused by a rebalance"
	}
	if m.Owner != "" && !m.HasPosition {
		text += " · " + m.Owner + " owns it"
	}
	if m.Owner != "" && m.Moving == "arriving" {
		text += " · new to " + m.Owner
	}
	return text
}

// items merges the window with the records leaving it, in offset order.
func (l *PartitionLane) items() []laneItem {
	items := make([]laneItem, 0, len(l.Partition.Records)+len(l.Ghosts))
	for i, r := range l.Partition.Records {
		items = append(items, laneItem{record: r, look: l.Partition.lookOf(i)})
	}
	for _, r := range l.Ghosts {
		items = append(items, laneItem{record: r, ghost: true, look: hashLook(r.Key)})
	}
	if len(l.Ghosts) > 0 {
		slices.SortStableFunc(items, func(a, b laneItem) int {
			return int(a.record.Offset - b.record.Offset)
		})
	}
	return items
}

// cells draws every record of the window with what stands just before it:
// a gap that compaction left, the retention cliff, group flags.
func (l *PartitionLane) cells() []app.UI {
	p := l.Partition
	items := l.items()
	cliffAt := int64(-1)
	if p.Cliff > p.LogStart {
		cliffAt = firstAtOrAfter(items, p.Cliff)
	}
	cells := make([]app.UI, 0, len(items)+4)
	for i, it := range items {
		r := it.record
		// The offset before this record that a record should hold: the
		// previous record's, or the log start's when the window reaches it.
		prev, known := int64(0), false
		switch {
		case i > 0 && !items[i-1].ghost:
			prev, known = items[i-1].record.Offset, true
		case i == 0 && p.Before == 0:
			prev, known = p.LogStart-1, true
		}
		if known && !it.ghost {
			if missing := r.Offset - prev - 1; missing > 0 {
				cells = append(cells, app.Li().Class("gap").DataSet("gap", fmt.Sprintf("%d-%d", prev+1, r.Offset-1)).
					Title("offsets no record holds any more: compaction removed them, and offsets are never reused").
					Text(fmt.Sprintf("gap %d", missing)))
			}
		}
		if !it.ghost && r.Offset == cliffAt {
			cells = append(cells, app.Li().Class("cliff").Aria("hidden", "true").Title("retention cliff").Text("◔"))
		}
		if !it.ghost {
			cells = append(cells, l.flags(r.Offset)...)
			if lso := p.Txn.LastStableOffset; p.Txn.InUse && r.Offset >= lso && (i == 0 || items[i-1].record.Offset < lso) && (i > 0 || p.Before == 0 || r.Offset == lso) {
				cells = append(cells, lsoMark(lso, p.HighWatermark))
			}
			if r.Offset >= p.HighWatermark && (i == 0 || items[i-1].record.Offset < p.HighWatermark) {
				cells = append(cells, hwMark(p.HighWatermark))
			}
		}
		cells = append(cells, l.renderRecord(it))
	}
	return cells
}

// flags draws, before offset, where each group has committed (it resumes
// there) and where its member reads next. The words are in the lane's
// foot; these are the picture.
func (l *PartitionLane) flags(offset int64) []app.UI {
	var flags []app.UI
	for _, m := range l.Partition.Marks {
		if m.HasCommitted && m.Committed == offset {
			flags = append(flags, app.Li().Class("flag").Aria("hidden", "true").
				Title(m.Group+" committed: it resumes here").Text("⚑ "+m.Group))
		}
		if m.HasPosition && m.Position == offset && m.Owner != "" {
			flags = append(flags, app.Li().Class("flag", "position-flag").Aria("hidden", "true").
				Title(ownerName(m)+" of "+m.Group+" reads here next").Text("▸ "+m.Owner))
		}
	}
	return flags
}

// ownerName names a partition's owner for a title: its name, and its
// member id when it has one.
func ownerName(m GroupMark) string {
	if m.OwnerMemberID == "" {
		return m.Owner
	}
	return m.Owner + " (member id " + m.OwnerMemberID + ")"
}

// firstAtOrAfter is the first drawn offset at or after offset, or -1.
func firstAtOrAfter(items []laneItem, offset int64) int64 {
	for _, it := range items {
		if !it.ghost && it.record.Offset >= offset {
			return it.record.Offset
		}
	}
	return -1
}

// renderRecord draws one record: its offset and key always, its value on
// hover and focus. A removed record is drawn leaving, without data-offset,
// since the partition no longer holds it.
func (l *PartitionLane) renderRecord(it laneItem) app.UI {
	r := it.record
	p := l.Partition
	// One tab stop per lane, on the newest record drawn; the arrow keys
	// move between records (moveRecordFocus), so tabbing through a page
	// of lanes does not stop at every record.
	n := len(p.Records)
	txn := ""
	if !it.ghost {
		txn = l.txnOf(r.Offset)
	}
	read := !it.ghost && l.Read.holds(r.Offset)
	var readBy readRange
	if read {
		readBy = l.Read // on the records read only: a cell's fields changed redraw it
	}
	return &RecordCell{
		Txn:          txn,
		Record:       r,
		Look:         it.look,
		Clock:        p.TimestampClock,
		Ghost:        it.ghost,
		TabStop:      n > 0 && r.Offset == p.Records[n-1].Offset && !it.ghost,
		Uncommitted:  !it.ghost && r.Offset >= p.HighWatermark,
		SegmentStart: slices.Contains(p.SegmentStarts, r.Offset),
		Expired:      p.Cliff > p.LogStart && r.Offset < p.Cliff,
		Landed:       l.Landed.Count > 0 && r.Offset >= l.Landed.From && r.Offset <= l.Landed.To && !it.ghost,
		Read:         read,
		ReadBy:       readBy,
	}
}

// txnOf is what a transaction made of the drawn record at offset.
func (l *PartitionLane) txnOf(offset int64) string {
	rs := l.Partition.Records
	i, found := slices.BinarySearchFunc(rs, offset, func(r core.Record, o int64) int {
		return int(min(max(r.Offset-o, -1), 1))
	})
	if !found {
		return ""
	}
	return l.Partition.Txn.state(i)
}

// lsoMark is drawn before the first record at or above the last stable
// offset: the line read_committed consumers read up to, beside the high
// watermark.
func lsoMark(lso, hw int64) app.UI {
	title := "last stable offset: read_committed consumers read only below it; it stops before the first record of a transaction still open"
	if lso == hw {
		title += " (no transaction is open here, so it is the high watermark)"
	}
	return app.Li().Class("edge", "lso-mark").DataSet("lso-mark", lso).Title(title).Text(lsoText(lso))
}

// lsoText is the caption of the last stable offset's mark.
func lsoText(lso int64) string { return fmt.Sprintf("LSO %d", lso) }

// RecordCell is one record in a lane's strip. It is a component of its
// own so that a change to a lane draws again only the records it changes
// (a produce: the record it adds, and the one that was the newest): go-app
// leaves a component whose fields are the same as they were, and a lane
// draws up to 59 records.
type RecordCell struct {
	app.Compo

	Record core.Record
	Look   keyLook // how its key is drawn: colour and shape (assignLooks)
	Clock  string  // the topic's timestamp clock in words (recordTitle)
	// Ghost is a removed record, still drawn, leaving.
	Ghost        bool
	TabStop      bool // the lane's one tab stop
	Uncommitted  bool // above the high watermark
	SegmentStart bool
	Expired      bool      // below the retention cliff
	Landed       bool      // the last command added it
	Read         bool      // the last poll read it
	ReadBy       readRange // what the last poll read of the partition, and who read it first
	// Txn is what a transaction made of the record: open, committed or
	// aborted, "" for a record no transaction wrote.
	Txn string
}

// txnGlyphs are the still marks of a transaction's records and markers,
// so that colour is never the only cue.
var txnGlyphs = map[string]string{"open": "…", "committed": "✓", "aborted": "✗"}

// txnNotes is what a transaction's record adds to its title.
var txnNotes = map[string]string{
	"open":      " · in a transaction still open: read_committed consumers stop before it (the last stable offset), read_uncommitted ones read it",
	"committed": " · in a committed transaction: every consumer reads it",
	"aborted":   " · in an aborted transaction: read_committed consumers skip it, read_uncommitted ones read it",
}

// renderMarker draws a commit or abort marker: a control record that
// takes an offset and is never given to a consumer.
func (c *RecordCell) renderMarker() app.UI {
	r := c.Record
	offset := strconv.FormatInt(r.Offset, 10)
	kind, glyph := "commit", "✓"
	words := "the transaction's records before it on this partition are committed"
	if r.Control == core.ControlAbort {
		kind, glyph = "abort", "✗"
		words = "the transaction's records before it on this partition are aborted: read_committed consumers skip them"
	}
	title := fmt.Sprintf("offset %d · %s marker: %s; no consumer is given a marker, its position moves past it", r.Offset, strings.ToUpper(kind), words)
	classes := []string{"record", "marker", "marker-" + kind}
	li := app.Li().TabIndex(-1).Title(title).Attr("aria-label", title).Attr("data-offset", offset).Attr("data-marker", kind)
	if c.TabStop {
		li = li.TabIndex(0)
	}
	if c.Uncommitted {
		classes = append(classes, "uncommitted")
		li = li.Attr("data-uncommitted", "true")
	}
	if c.Landed {
		classes = append(classes, "landed")
	}
	return li.Class(classes...).Body(
		app.Span().Class("record-offset").Text(offset),
		app.Span().Class("record-key").Text(glyph+" "+strings.ToUpper(kind)),
	)
}

// Render draws the record's cell as one piece of HTML, which the browser
// parses into the cell's six elements in one call. Drawn element by
// element, a cell took about thirty calls from the wasm into the browser
// (each element made, each attribute set, each child appended), and a seek
// across a history draws every lane's cells anew: 515 cells, 85% of the
// elements of the page of app/testdata/seek_1000_steps.plog. A cell has no
// handler of its own (the lane's list moves the focus between cells), and
// go-app draws a component again only when its fields change, so that a
// cell changed is a cell replaced.
func (c *RecordCell) Render() app.UI {
	r := c.Record
	if r.Control != core.ControlNone && !c.Ghost {
		return c.renderMarker()
	}
	title := recordTitle(r, c.Clock)
	if c.Uncommitted {
		title += uncommittedNote
	}
	title += txnNotes[c.Txn]
	classes := make([]string, 0, 6)
	classes = append(classes, "record")
	var attrs rawAttrs
	if c.TabStop {
		attrs.add("tabindex", "0")
	} else {
		attrs.add("tabindex", "-1")
	}
	attrs.add("title", title)
	attrs.add("aria-label", title)
	if c.Uncommitted {
		classes = append(classes, "uncommitted")
		attrs.add("data-uncommitted", "true")
	}
	offset := strconv.FormatInt(r.Offset, 10)
	if c.Ghost {
		classes = append(classes, "ghost")
		attrs.add("data-removed-offset", offset)
	} else {
		attrs.add("data-offset", offset)
	}
	if r.HasKey {
		classes = append(classes, colourClass(c.Look))
		attrs.add("data-key", r.Key)
		attrs.add("data-key-shape", strconv.Itoa(c.Look.Shape()))
	} else {
		classes = append(classes, "keyless")
	}
	if r.Tombstone {
		classes = append(classes, "tombstone")
		attrs.add("data-tombstone", "true")
	}
	if c.SegmentStart {
		classes = append(classes, "segment-start")
		attrs.add("data-segment-start", offset)
	}
	if c.Expired {
		classes = append(classes, "expired")
	}
	if c.Landed {
		classes = append(classes, "landed")
		attrs.add("data-landed", "true")
	}
	if c.Read {
		// Who read it: flights.js flies the record to that member's card.
		attrs.add("data-read", "true")
		attrs.add("data-read-group", c.ReadBy.Group)
		attrs.add("data-read-member", c.ReadBy.Member)
	}
	if c.Txn != "" {
		classes = append(classes, "txn-"+c.Txn)
		attrs.add("data-txn", c.Txn)
	}
	value := r.Value
	if r.Tombstone {
		value = "tombstone"
	}
	// The offset and the key on one line, the value under them.
	var b strings.Builder
	b.Grow(256 + 2*len(title) + len(value))
	b.WriteString(`<li class="`)
	b.WriteString(strings.Join(classes, " "))
	b.WriteString(`"`)
	b.WriteString(attrs.String())
	b.WriteString(`><span class="record-head"><span class="record-offset">`)
	b.WriteString(offset)
	b.WriteString(`</span><span class="record-key">`)
	b.WriteString(html.EscapeString(recordKeyLabel(r)))
	b.WriteString(`</span>`)
	if c.Txn != "" {
		b.WriteString(`<span class="record-txn" aria-hidden="true">`)
		b.WriteString(txnGlyphs[c.Txn])
		b.WriteString(`</span>`)
	}
	b.WriteString(`</span><span class="record-value">`)
	b.WriteString(html.EscapeString(value))
	b.WriteString(`</span></li>`)
	return app.Raw(b.String())
}

// rawAttrs writes an element's attributes for app.Raw, escaped.
type rawAttrs struct{ b strings.Builder }

func (a *rawAttrs) add(name, value string) {
	a.b.WriteByte(' ')
	a.b.WriteString(name)
	a.b.WriteString(`="`)
	a.b.WriteString(html.EscapeString(value))
	a.b.WriteByte('"')
}

func (a *rawAttrs) String() string { return a.b.String() }

// moveRecordFocus moves the focus to the record before or after the focused
// one with the left and right arrow keys.
func moveRecordFocus(ctx app.Context, e app.Event) {
	var sibling string
	switch e.Get("key").String() {
	case "ArrowLeft":
		sibling = "previousElementSibling"
	case "ArrowRight":
		sibling = "nextElementSibling"
	default:
		return
	}
	for el := e.Get("target").Get(sibling); el.Truthy(); el = el.Get(sibling) {
		if el.Get("classList").Call("contains", "record").Bool() && !el.Get("classList").Call("contains", "ghost").Bool() {
			e.PreventDefault()
			el.Call("focus")
			return
		}
	}
}

// show moves the window to start at offset, or to follow the newest
// records when offset is followTail.
func (l *PartitionLane) show(offset int64) app.EventHandler {
	topic, partition := l.Partition.Topic, l.Partition.Partition
	return func(ctx app.Context, e app.Event) {
		ctx.NewActionWithValue(viewAction, laneView{Topic: topic, Partition: partition, Offset: offset})
	}
}

// recordKeyLabel is the short text in a record's cell.
func recordKeyLabel(r core.Record) string {
	if !r.HasKey {
		return "∅"
	}
	if r.Key == "" {
		return `""`
	}
	return r.Key
}

// recordTitle is the record's full content, for the tooltip and readers:
// its offset, key, value, and its timestamp with the clock it comes from
// (clock, the topic's message.timestamp.type in words; "" says nothing of
// it).
func recordTitle(r core.Record, clock string) string {
	key := "no key"
	if r.HasKey {
		key = fmt.Sprintf("key %q", r.Key)
	}
	value := fmt.Sprintf("value %q", r.Value)
	if r.Tombstone {
		value = "tombstone (no value: compaction deletes the key)"
	}
	at := units.Duration(r.Timestamp)
	if clock != "" {
		at += " (" + clock + ")"
	}
	return fmt.Sprintf("offset %d · %s · %s · at %s", r.Offset, key, value, at)
}

// cliffNote says where the retention cliff is and when the records below
// it go: at the next retention check, whose time it gives when it knows.
func cliffNote(p PartitionSnapshot) string {
	if p.CliffCheckAt < 0 {
		return fmt.Sprintf("retention cliff at %d: older records go at the next check", p.Cliff)
	}
	return fmt.Sprintf("retention cliff at %d: older records go at %s, the next check", p.Cliff, units.Duration(p.CliffCheckAt))
}
