package lesson

import (
	"fmt"
	"slices"

	"plog/core"
	"plog/core/units"
)

// Lessons about reading: offsets, commits, and what a crash does to the
// records being processed.

var offsets = Lesson{
	Name:  "offsets",
	Title: "Offsets are addresses; reading does not consume",
	Text: []string{
		"Every record in a partition has an offset: its place in the log, given when it is appended and never changed. Offsets are not renumbered when old records go. Here the first two records were deleted (Kafka's DeleteRecords), and the first record left is still offset 2.",
		"Reading removes nothing. A consumer fetches from an offset of its choosing and the log stays as it is for every other reader. Each consumer group keeps its own position, so any number of groups read the same records independently.",
		"A group can also go back: resetting its offsets (kafka-consumer-groups --reset-offsets) makes it read the same records again, a replay. Kafka only resets the offsets of a group with no active members.",
		"Where a new group begins is its consumers' auto.offset.reset: by Kafka's default, latest, at the end of the log, reading only what comes after it. The groups audit and search here are set to earliest, the log start (their cards show it), so that they read what is already there.",
	},
	Goal: "Let two consumer groups each read every record of events/0, then make one of them read them all again.",
	Script: `seed 2
topic events partitions=1
produce events value=signup
produce events value=login
produce events value=search
produce events value=add-to-cart
produce events value=checkout
produce events value=logout
truncate events/0 before=2
config group audit auto.offset.reset=earliest
config group search auto.offset.reset=earliest
`,
	Hints: []string{
		"Join a group and read: in Consumer groups, type the group `audit`, the member `a1` and the topic `events` and press Join, press +1 s three times (the group's first rebalance), then press Poll on a1. Do the same with the second group, search (both start at the log start: auto.offset.reset=earliest).",
		"Pressing a1's Poll once more reads nothing new: a member goes on from its position. Going back means resetting the group's offsets.",
		"A reset needs a group without active members: press Leave on a1, then in audit's Reset offsets choose to-earliest, type `events` as the topic and press Reset; then join again, press +1 s three times and poll.",
	},
	Solution: `join audit a1 topics=events
join search s1 topics=events
advance 3s
poll audit a1
poll search s1
leave audit a1
reset audit to-earliest topic=events
join audit a1 topics=events
advance 3s
poll audit a1
`,
	WrongAttempt: `join audit a1 topics=events
join search s1 topics=events
advance 3s
poll audit a1
poll search s1
poll audit a1
`,
	check: checkOffsets,
}

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

var commitResume = Lesson{
	Name:  "commit-resume",
	Title: "Commit, restart, resume",
	Text: []string{
		"A consumer group shares the work of reading a topic: each partition is read by one member. The group remembers how far it got by committing offsets to Kafka (in the internal topic __consumer_offsets). A committed offset is the next record the group will read.",
		"When a consumer restarts, or a partition moves to another member, reading begins again at the committed offset. Whatever was read but not committed is read again. With no committed offset at all, auto.offset.reset decides where to begin: latest by default in Kafka, the end of the log, so that a new group reads only what comes after it; earliest, the log start. billing and audit are set to earliest here, and billing commits only when told (enable.auto.commit=false; by default Kafka's consumer commits by itself, every auto.commit.interval.ms, 5 s).",
		"Committed offsets belong to one group. Another group reading the same topic has offsets of its own, and neither disturbs the other.",
	},
	Goal: "Let billing read the first five records of orders/2, commit, restart its consumer and resume at offset 5 without reading anything twice; then let a second group read the same records.",
	Script: `seed 3
topic orders partitions=3
produce orders key=acct-1 value=order count=5
produce orders key=acct-2 value=order count=3
config group billing auto.offset.reset=earliest enable.auto.commit=false
config group audit auto.offset.reset=earliest
join billing b1 topics=orders
advance 3s
`,
	Hints: []string{
		"Press Poll on b1 with max 5: it reads five records; press Commit on b1 to store offset 5 for orders/2.",
		"Restart the consumer: press Leave on b1, join billing again as b1 on orders with the join form, press +1 s three times for the rebalance, then press Poll on b1.",
		"Restarting without pressing Commit on b1 after polling with max 5 makes the new b1 begin at offset 0 and read the five records again.",
		"A second group: join group `audit` as member `a1` on orders, press +1 s three times, then press Poll on a1.",
	},
	Solution: `poll billing b1 max=5
commit billing b1
leave billing b1
join billing b1 topics=orders
advance 3s
poll billing b1
join audit a1 topics=orders
advance 3s
poll audit a1
`,
	WrongAttempt: `poll billing b1 max=5
leave billing b1
join billing b1 topics=orders
advance 3s
poll billing b1
join audit a1 topics=orders
advance 3s
poll audit a1
`,
	check: checkCommitResume,
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

var deliverySemantics = Lesson{
	Name:  "at-least-once",
	Title: "At-least-once, at-most-once, idempotence",
	Text: []string{
		"A consumer polls records, processes them and commits their offsets. What a crash does depends on the order of the last two steps.",
		"Process, then commit (group safe): a consumer that crashes after processing but before committing leaves the committed offset behind. The next owner of the partition begins there and receives those records again. Nothing is lost; some records are processed twice. This is at-least-once, what Kafka consumers give by default.",
		"Commit, then process (group risky): a consumer that crashes after committing but before it finished processing leaves records that are marked done and were never processed. Nobody receives them again: at-most-once.",
		"Redelivery is harmless when processing is idempotent, when doing it twice has the effect of doing it once. Charging payment pay-3 again is not; recording that pay-3 is charged, keyed by the payment id, is, and so a redelivery or a replay changes nothing. (Kafka's transactions give exactly-once from topic to topic; effects outside Kafka still need idempotence.)",
		"Each group's delivery setting, a playground config, says in which order its consumers' code processes and commits. Both groups here commit only when told (enable.auto.commit=false, where Kafka's default commits by itself every 5 s) and start at the log start (auto.offset.reset=earliest). With one partition, a2 and r2 idle until the first member of their group stops.",
	},
	Goal: "Crash a consumer of each group in the middle of its work: safe must receive payments again and lose none, risky must lose payments, and every payment must reach safe.",
	Script: `seed 12
topic payments partitions=1
produce payments key=pay-1 value=10EUR
produce payments key=pay-2 value=25EUR
produce payments key=pay-3 value=7EUR
produce payments key=pay-4 value=40EUR
produce payments key=pay-5 value=12EUR
produce payments key=pay-6 value=3EUR
config group safe auto.offset.reset=earliest enable.auto.commit=false
config group risky auto.offset.reset=earliest delivery=at-most-once enable.auto.commit=false
join safe a1 topics=payments
join safe a2 topics=payments
join risky r1 topics=payments
join risky r2 topics=payments
advance 6s
`,
	Hints: []string{
		"Press Poll on a1 in safe with max 3, then Crash on a1 before it commits. a2 takes over once a1's session times out: press +1 m, then Poll on a2 (its poll rejoins the rebalance, which ends at once: a2 is the only member left).",
		"Crashing after the commit, pressing Commit on a1 and then Crash, redelivers nothing: the group had finished those records.",
		"For risky: press Poll on r1 with max 3, Commit on r1 (at-most-once: the commit comes before the processing), Crash on r1, +1 m, then Poll on r2.",
	},
	Solution: `poll safe a1 max=3
crash safe a1
advance 1m
poll safe a2
commit safe a2
poll risky r1 max=3
commit risky r1
crash risky r1
advance 1m
poll risky r2
commit risky r2
`,
	WrongAttempt: `poll safe a1 max=3
commit safe a1
crash safe a1
advance 1m
poll safe a2
commit safe a2
poll risky r1 max=3
commit risky r1
crash risky r1
advance 1m
poll risky r2
commit risky r2
`,
	check: checkDelivery,
}

func checkDelivery(c *ctx) Result {
	safe, ok1 := c.group("safe")
	risky, ok2 := c.group("risky")
	if !ok1 || !ok2 {
		return pending("groups safe and risky must both be there: reload the lesson")
	}
	if safe.Totals.Redelivered == 0 {
		baseSafe, _ := c.baseline().Group("safe")
		_, down := downMember(safe)
		crashed := down || liveMembers(safe) < liveMembers(baseSafe)
		unprocessed := slices.ContainsFunc(safe.Deliveries, func(d core.DeliveryLogEntry) bool { return d.Outcome == core.OutcomeUnprocessed })
		switch {
		case crashed && !unprocessed:
			return pending("safe's consumer stopped after committing what it had polled, so its successor began where it finished: nothing came twice; crash a member between its poll and its commit")
		case unprocessed:
			return pending("safe's crashed member left records unprocessed; once its session times out the other member takes over: advance the clock and poll with it")
		}
		return pending("nothing has reached safe twice yet: poll with a member of safe, and crash it before it commits")
	}
	if safe.Totals.LostUnprocessed > 0 {
		return pending("safe lost %s: its delivery is no longer at-least-once; reload the lesson", units.Plural(safe.Totals.LostUnprocessed, "record"))
	}
	recs := c.records("payments", 0)
	processed := map[int64]int64{}
	for _, d := range safe.Deliveries {
		if d.Outcome == core.OutcomeProcessed || d.Outcome == core.OutcomeProcessing {
			processed[d.Record.Offset] = d.Time
		}
	}
	if missing := missingOffsets(recs, processed); len(missing) > 0 {
		return pending("safe has not processed the payments at offsets %s yet: poll with its running member", joinInts(missing))
	}
	if risky.Totals.LostUnprocessed == 0 {
		return pending("safe is done; risky has lost nothing yet: poll with a member of risky, commit, and crash it before its next poll")
	}
	return solved("safe received %d deliveries for %s (%d of them twice) and lost none; keyed by payment id, the repeats change nothing. risky lost %s, committed before they were processed.",
		safe.Totals.Delivered, units.Plural(int64(len(recs)), "payment"), safe.Totals.Redelivered,
		units.Plural(risky.Totals.LostUnprocessed, "payment"))
}
