package lesson

import (
	"fmt"
	"slices"

	"plog/core"
	"plog/core/units"
)

// The goals of the lessons about reading: offsets, commits, and what a crash does to the
// records being processed.

func checkOffsets(c *ctx) Result {
	recs := c.records("events", 0)
	baseRecs, _ := c.baseline().Records("events", 0)
	for _, b := range baseRecs {
		i := slices.IndexFunc(recs, func(r core.Record) bool { return r.Offset == b.Offset })
		if i < 0 {
			return pending("offset %d (%s) is gone from events/0: reading never removes records, but truncation and retention do; reload the lesson", b.Offset, b.Value)
		}
	}
	var readers []string
	partial := ""
	for _, name := range c.log.GroupNames() {
		v, _ := c.group(name)
		got := deliveredOffsets(v, "events", 0)
		switch {
		case len(got) > 0 && len(missingOffsets(recs, got)) == 0:
			readers = append(readers, name)
		case len(got) > 0 && partial == "":
			partial = name
		}
	}
	span := fmt.Sprintf("offsets %d to %d", recs[0].Offset, recs[len(recs)-1].Offset)
	switch {
	case len(readers) == 0 && partial != "":
		return pending("group %s has read part of events/0; poll until it has read %s", partial, span)
	case len(readers) == 0:
		return pending("no group has read events/0 yet: join a group, advance the clock for its rebalance, and poll")
	case len(readers) == 1:
		return pending("group %s has read %s; let a second group read them too: it has its own position and gets the same records", readers[0], span)
	}
	for _, name := range readers {
		v, _ := c.group(name)
		for _, d := range v.Deliveries {
			if d.Topic == "events" && d.Redelivery {
				return solved("groups %s read %s, %s twice, and events/0 still holds them at the same offsets: reading consumed nothing.",
					joinWords(readers), span, name)
			}
		}
	}
	return pending("%s each read %s once; a poll goes on from the member's position, so to read them again, reset one group's offsets to the earliest",
		joinWords(readers), span)
}

func checkCommitResume(c *ctx) Result {
	v, ok := c.group("billing")
	if !ok {
		return pending("group billing is gone: reload the lesson")
	}
	var reads []core.DeliveryLogEntry
	for _, d := range v.Deliveries {
		if d.Topic == "orders" && d.Partition == 2 {
			reads = append(reads, d)
		}
	}
	got := deliveredOffsets(v, "orders", 2)
	if len(got) == 0 {
		return pending("billing has not read orders/2 yet: poll billing b1 max=5")
	}
	if len(got) < 5 {
		return pending("billing has read %s of orders/2: poll billing b1 max=5", units.Plural(int64(len(got)), "record"))
	}
	firstGen := reads[0].Generation
	restartAt := slices.IndexFunc(reads, func(d core.DeliveryLogEntry) bool { return d.Generation > firstGen })
	if restartAt < 0 {
		return pending("billing has read orders/2 in one run; commit, then restart b1 (leave and join again) and poll")
	}
	var again []int64
	for _, d := range reads {
		if d.Redelivery {
			again = append(again, d.Record.Offset)
		}
	}
	if len(again) > 0 {
		return pending("after the restart billing read offsets %s of orders/2 again: they had not been committed, so the restarted consumer began before them",
			joinInts(again))
	}
	p, _ := partitionView(v, "orders", 2)
	if !p.HasCommitted || p.Committed < 5 {
		committed := "none"
		if p.HasCommitted {
			committed = fmt.Sprint(p.Committed)
		}
		return pending("billing's committed offset on orders/2 is %s: commit after reading five records, before the restart", committed)
	}
	first := reads[0:restartAt]
	for _, name := range c.log.GroupNames() {
		if name == "billing" {
			continue
		}
		other, _ := c.group(name)
		seen := deliveredOffsets(other, "orders", 2)
		all := true
		for _, d := range first {
			if _, ok := seen[d.Record.Offset]; !ok {
				all = false
			}
		}
		if all {
			return solved("billing committed %d on orders/2, restarted and went on at offset %d without reading anything twice; %s read the same records with offsets of its own.",
				p.Committed, reads[restartAt].Record.Offset, name)
		}
	}
	return pending("billing resumed after its commit; now let a second group read orders/2 from the start")
}
