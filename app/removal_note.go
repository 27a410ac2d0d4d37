package app

import (
	"fmt"

	"plog/core"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Removal is what the last command removed from the log: sentences that say
// it, and the removed records that were drawn, which the lanes show leaving
// for a moment.
type Removal struct {
	Lines  []string
	Ghosts map[string][]core.Record // by laneKey
}

// removalOf puts the removal events of one command into words.
func removalOf(events []core.Event) Removal {
	var r Removal
	for _, e := range events {
		tp := fmt.Sprintf("%s/%d", e.Topic, e.Partition)
		switch e.Kind {
		case core.EventTruncated:
			r.Lines = append(r.Lines, fmt.Sprintf("Truncate removed %s of %s (%s); its log start offset is now %d.",
				offsetRange(e.From, e.To-1), tp, countOf(e.Count, "record"), e.To))
		case core.EventSegmentDeleted:
			why := e.Detail
			if why == "" {
				why = "retention"
			}
			line := fmt.Sprintf("Retention deleted the segment holding %s of %s (%s), because of %s.",
				offsetRange(e.From, e.To-1), tp, countOf(e.Count, "record"), why)
			if e.RolledActive {
				line += fmt.Sprintf(" It was the active segment: as Kafka does, the log first rolled a new, empty active segment at offset %d, so the log start offset is now %d and the next record gets offset %d.",
					e.To, e.To, e.To)
			}
			r.Lines = append(r.Lines, line)
		case core.EventCompacted:
			r.Lines = append(r.Lines, fmt.Sprintf("Compaction removed %s from %s: below offset %d each key keeps only its latest record, and expired tombstones go; the survivors keep their offsets, leaving gaps. From offset %d on nothing is cleaned yet: the cleaner never touches the active segment, nor one holding records younger than min.compaction.lag.ms, so a key may still have older records there. What the topic builds read whole (its table) is the same as before: compaction shrinks the log, not the state it holds.",
				countOf(e.Count, "record"), tp, e.To, e.To))
		}
	}
	return r
}

// removedRecords finds the drawn records of before that after no longer
// holds: below the new log start, at or past a log end that went down, or
// missing from the middle of the new window. Records that merely scrolled out of a window are not removed.
func removedRecords(before, after LogSnapshot) map[string][]core.Record {
	var ghosts map[string][]core.Record
	// By topic, not by lane: a step of a scenario of 10,000 partitions
	// made a key and a map entry for each, a fifth of its time in the
	// browser.
	now := make(map[string][]PartitionSnapshot, len(after.Topics))
	for _, t := range after.Topics {
		now[t.Name] = t.Partitions
	}
	for _, t := range before.Topics {
		for _, p := range t.Partitions {
			var q PartitionSnapshot
			parts, ok := now[p.Topic]
			if ok = ok && p.Partition < len(parts); ok {
				q = parts[p.Partition]
			}
			// An unclean election can cut records off the log's end: the
			// log end then goes down, and those records are removed too.
			appended := max(0, q.LogEnd-p.LogEnd)
			if !ok || q.Count >= p.Count+int(appended) {
				continue // nothing was removed here
			}
			present := map[int64]bool{}
			for _, r := range q.Records {
				present[r.Offset] = true
			}
			first, last := q.LogEnd, q.LogEnd
			if len(q.Records) > 0 {
				first, last = q.Records[0].Offset, q.Records[len(q.Records)-1].Offset
			}
			for _, r := range p.Records {
				gone := r.Offset < q.LogStart || r.Offset >= q.LogEnd || (r.Offset >= first && r.Offset <= last && !present[r.Offset])
				if gone {
					if ghosts == nil {
						ghosts = map[string][]core.Record{}
					}
					k := laneKey(p.Topic, p.Partition)
					ghosts[k] = append(ghosts[k], r)
				}
			}
		}
	}
	return ghosts
}

// maxRemovalLines bounds the summary; the rest is counted.
const maxRemovalLines = 8

// RemovalNote summarises in words what truncation, retention or compaction
// just removed.
type RemovalNote struct {
	app.Compo

	Removal Removal
}

// Render draws nothing when the last command removed nothing.
func (n *RemovalNote) Render() app.UI {
	lines := n.Removal.Lines
	if len(lines) == 0 {
		return app.Div().Class("removal", "empty")
	}
	more := 0
	if len(lines) > maxRemovalLines {
		lines, more = lines[:maxRemovalLines], len(lines)-maxRemovalLines
	}
	return app.Section().Class("removal").Aria("live", "polite").Aria("label", "what was removed").Body(
		app.Ul().Body(
			app.Range(lines).Slice(func(i int) app.UI {
				return app.Li().Text(lines[i])
			}),
			app.If(more > 0, app.Li().Text(fmt.Sprintf("and %d more removals", more))),
		),
	)
}
