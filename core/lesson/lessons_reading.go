package lesson

import (
	"fmt"
	"slices"

	"plog/core"
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
