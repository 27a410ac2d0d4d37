package lesson

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"
	"plog/core/units"
)

// Lessons about what the log keeps: retention by time, the lag that tells
// a group is about to lose records, and compaction.

var retentionCliff = Lesson{
	Name:  "retention-cliff",
	Title: "Retention is a cliff behind the slowest consumer",
	Text: []string{
		"Kafka does not delete records when they are read. It deletes them by retention: with cleanup.policy=delete, a whole segment goes once its newest record is older than retention.ms, 5 minutes on this topic. The log start offset moves forward like the edge of a cliff, whether or not anyone has read what falls off.",
		"Group fast keeps up. Group slow reads one record a second while two arrive: its lag, the records between its committed offset and the end of the log, grows every second, and its oldest unread record gets older.",
		"When slow's position falls off the cliff, its next fetch is out of range and auto.offset.reset moves it: with Kafka's default, latest, to the end of the log, not to the log start, so slow skips every record there, those retention deleted and those still there (earliest would move it to the log start and skip only the deleted ones). No error, only a jump. Lag is the signal to watch. An alert on time lag set below retention.ms fires while there is still time to act. (lag.alert.ms is the playground's stand-in for the alert a monitoring system would raise.)",
	},
	Goal: "Give slow a lag alert that can fire before retention takes its records, see it fire, then see slow fall off the cliff while fast loses nothing.",
	Script: `seed 5
topic clicks partitions=1 retention.ms=5m segment.records=30
join fast f1 topics=clicks
join slow s1 topics=clicks
advance 3s
producer web clicks rate=2/s
consumer fast f1 rate=1/s max=10 commit
consumer slow s1 rate=1/s max=1 commit
advance 1m
`,
	Hints: []string{
		"In slow's card, type `2m` in lag alert (time) and press Set: slow then alerts once its oldest unread record is 2 minutes old.",
		"Advance a few minutes at a time (type `5m` in Advance by and press Advance) and watch slow's lag and its alert.",
		"An alert of `2h` in slow's lag alert (time) never fires in time: records older than 5 minutes are deleted, so slow loses records long before it is 2 hours behind.",
		"Keep advancing until slow's position jumps: the lost-to-reset event counts the records it never read.",
	},
	Solution: `config group slow lag.alert.ms=2m
advance 5m
advance 10m
`,
	WrongAttempt: `config group slow lag.alert.ms=2h
advance 5m
advance 10m
`,
	check: checkRetentionCliff,
}

// alertRule writes a group's lag alert settings.
func alertRule(cfg core.GroupConfig) string {
	var rules []string
	if cfg.LagAlertRecords > 0 {
		rules = append(rules, fmt.Sprintf("lag.alert.records=%d", cfg.LagAlertRecords))
	}
	if cfg.LagAlertMs > 0 {
		rules = append(rules, "lag.alert.ms="+units.Duration(cfg.LagAlertMs))
	}
	if len(rules) == 0 {
		return "no alert"
	}
	return strings.Join(rules, " and ")
}

func checkRetentionCliff(c *ctx) Result {
	slow, ok1 := c.group("slow")
	fast, ok2 := c.group("fast")
	topic, err := c.log.TopicConfig("clicks")
	if !ok1 || !ok2 || err != nil {
		return pending("groups fast and slow and topic clicks must be there: reload the lesson")
	}
	if slow.Config.LagAlertMs == 0 && slow.Config.LagAlertRecords == 0 {
		return pending("slow has no lag alert yet: give it one, on time lag (lag.alert.ms) or on records (lag.alert.records)")
	}
	retained := int64(len(c.records("clicks", 0)))
	inTime := slow.Config.LagAlertMs > 0 && slow.Config.LagAlertMs < topic.RetentionMs ||
		slow.Config.LagAlertRecords > 0 && slow.Config.LagAlertRecords < retained
	if !inTime {
		return pending("slow's alert (%s) cannot fire before the cliff: retention deletes records older than retention.ms=%s (clicks holds about %s), so slow loses records before it is that far behind",
			alertRule(slow.Config), units.Duration(topic.RetentionMs), units.Plural(retained, "record"))
	}
	if slow.Totals.SkippedByReset == 0 {
		if slow.Alert {
			return pending("slow's alert is on (%s) and slow has lost nothing yet; keep advancing: two records arrive for each one slow reads, until retention deletes records it has not read",
				slow.AlertReason)
		}
		return pending("slow's alert has not fired yet: advance the clock a few minutes at a time and watch slow's time lag grow")
	}
	// slow has lost records. Only a replay tells whether its alert was seen
	// first, so the replay waits until now: it re-runs every workload.
	warnedAt, lostAt := int64(-1), int64(-1)
	var lost int64
	c.replay(func(step int, l core.ReadOnlyLog, events []core.Event) {
		for _, e := range events {
			if e.Kind == core.EventLostToReset && e.Group == "slow" {
				if lostAt < 0 {
					lostAt = e.Time
				}
				lost += int64(e.Count)
			}
		}
		if step <= c.startLen || lostAt >= 0 || warnedAt >= 0 {
			return
		}
		if v, err := l.Group("slow"); err == nil && v.Alert {
			warnedAt = l.Now()
		}
	})
	if warnedAt < 0 {
		return pending("slow lost records at %s before you saw its alert fire: go back to before the loss and advance a few minutes at a time",
			units.SpanToSecond(lostAt))
	}
	if fast.Totals.SkippedByReset > 0 {
		return pending("fast lost records too: it must keep up for the comparison; reload the lesson")
	}
	to := "the end"
	if slow.Config.AutoOffsetReset == "earliest" {
		to = "the log start"
	}
	return solved("slow's alert (%s) fired by %s; at %s retention deleted records slow had not read, and auto.offset.reset=%s moved it to %s, over %s, while fast lost none.",
		alertRule(slow.Config), units.SpanToSecond(warnedAt), units.SpanToSecond(lostAt), slow.Config.AutoOffsetReset, to, units.Plural(lost, "record"))
}

var timeLag = Lesson{
	Name:  "time-lag",
	Title: "Lag in time, not only in records",
	Text: []string{
		"Consumer lag is usually counted in records: the log end offset minus the committed offset. But a count means different things on different topics. 12,000 clicks at 100 a second are two minutes of traffic; 40 payments at one a minute are 40 minutes.",
		"Time lag asks how old the oldest record the group has not processed is: the time now minus the timestamp of the record at the committed offset. It is the delay users feel, and it compares across topics. Kafka's own tools show lag in records; monitoring tools work out time lag from record timestamps.",
		"Here analytics is 12,000 records but about two minutes behind; ledger is 40 records and 39 minutes behind.",
	},
	Goal: "Give analytics and ledger the same alert rule, one that fires for ledger and stays quiet for analytics.",
	Script: `seed 6
topic clicks partitions=1
topic payments partitions=1
join analytics a1 topics=clicks
join ledger l1 topics=payments
advance 3s
commit analytics clicks/0 offset=0
commit ledger payments/0 offset=0
producer pay payments rate=1/m
advance 38m
producer click clicks rate=100/s
advance 2m
stop click
stop pay
`,
	Hints: []string{
		"Compare the two groups' lag in records and in time.",
		"An alert on records, typing `1000` in lag alert (records) of analytics and of ledger and pressing Set, fires for analytics and not for ledger: the wrong way round.",
		"Alert on time instead: type `10m` in lag alert (time) of analytics and of ledger and press Set on each. A group with both settings alerts when either is reached; a lag alert (records) of 0 turns the records alert off.",
	},
	Solution: `config group analytics lag.alert.ms=10m
config group ledger lag.alert.ms=10m
`,
	WrongAttempt: `config group analytics lag.alert.records=1000
config group ledger lag.alert.records=1000
`,
	check: checkTimeLag,
}

func checkTimeLag(c *ctx) Result {
	analytics, ok1 := c.group("analytics")
	ledger, ok2 := c.group("ledger")
	if !ok1 || !ok2 {
		return pending("groups analytics and ledger must be there: reload the lesson")
	}
	a, l := analytics.Config, ledger.Config
	if alertRule(a) == "no alert" || alertRule(l) == "no alert" {
		return pending("give both groups an alert rule: lag.alert.ms or lag.alert.records, on analytics and on ledger")
	}
	if a.LagAlertMs != l.LagAlertMs || a.LagAlertRecords != l.LagAlertRecords {
		return pending("analytics has %s and ledger %s: use one rule for both, as a team's alerting does for every group",
			alertRule(a), alertRule(l))
	}
	if analytics.Alert {
		return pending("analytics alerts (%s) though its oldest unread click is only %s old: a count of records says how much, not how late",
			analytics.AlertReason, units.SpanToSecond(analytics.MaxTimeLagMs))
	}
	if !ledger.Alert {
		return pending("ledger is %s behind (%s) and does not alert", units.SpanToSecond(ledger.MaxTimeLagMs), units.Plural(ledger.TotalLag, "record"))
	}
	return solved("one rule, %s: ledger alerts, %s and %s behind; analytics stays quiet, %s but only %s behind.",
		alertRule(l), units.Plural(ledger.TotalLag, "record"), units.SpanToSecond(ledger.MaxTimeLagMs),
		units.Plural(analytics.TotalLag, "record"), units.SpanToSecond(analytics.MaxTimeLagMs))
}

var compaction = Lesson{
	Name:  "compaction",
	Title: "A compacted changelog builds current state",
	Text: []string{
		"balances is a changelog: each record holds the latest balance of the account in its key. With cleanup.policy=compact, Kafka's log cleaner keeps at least the latest record of every key and removes older ones, so the topic grows with the number of keys, not the number of updates.",
		"Kafka's cleaner runs by itself: when it has nothing to do it looks again every log.cleaner.backoff.ms (15 s), and it cleans a partition once more than half of it is dirty, not cleaned yet (min.cleanable.dirty.ratio, 0.5). Run the cleaner now is the playground's shortcut, which cleans at once. The cleaner never touches the active segment, and the records it keeps keep their offsets, so a compacted log has gaps. Reading it from the start and keeping the last value of each key rebuilds the current table. That is how a new or restarted service builds its read model, and how Kafka Streams restores a state store.",
		"To delete a key, write a tombstone: the key with a null value. Readers drop the key; the cleaner removes its older records and, once delete.retention.ms has passed, the tombstone itself. An empty value is not a tombstone: it is a value like any other.",
	},
	Goal: "Close account acct-3 so that it disappears from the table, compact balances, and rebuild the table with a group that reads the compacted log from the start.",
	Script: `seed 13
topic balances partitions=1 cleanup.policy=compact segment.records=3 delete.retention.ms=1m
produce balances key=acct-1 value=100
produce balances key=acct-2 value=50
produce balances key=acct-3 value=70
produce balances key=acct-1 value=120
produce balances key=acct-2 value=40
produce balances key=acct-1 value=90
produce balances key=acct-3 value=75
config group rebuild auto.offset.reset=earliest
`,
	Hints: []string{
		"In Produce, type `acct-3` as the key, tick tombstone and press Produce: that writes a tombstone.",
		"Setting the balance to nothing, producing acct-3 with an empty value, leaves acct-3 in the table with an empty balance.",
		"The cleaner skips the active segment (3 records a segment here): produce a few more updates so that the tombstone's segment rolls, then press Run the cleaner now for balances (or let 15 s pass: the cleaner runs by itself).",
		"Join group `rebuild` as member `r1` on balances (it is set to read from the log start, auto.offset.reset=earliest), press +1 s three times, then Poll on r1: its deliveries are the compacted log. To see the tombstone go too, press +1 m and run the cleaner again.",
	},
	Solution: `produce balances key=acct-3 tombstone
produce balances key=acct-2 value=45
produce balances key=acct-1 value=80
compact balances
join rebuild r1 topics=balances
advance 3s
poll rebuild r1
`,
	WrongAttempt: `produce balances key=acct-3 value=""
produce balances key=acct-2 value=45
produce balances key=acct-1 value=80
compact balances
join rebuild r1 topics=balances
advance 3s
poll rebuild r1
`,
	check: checkCompaction,
}

// table folds records into the state they describe: the latest value of
// each key, without the keys whose latest record is a tombstone.
func table(recs []core.Record) map[string]string {
	t := map[string]string{}
	for _, r := range recs {
		switch {
		case !r.HasKey:
		case r.Tombstone:
			delete(t, r.Key)
		default:
			t[r.Key] = r.Value
		}
	}
	return t
}

// tableText writes a table as "acct-1=80 acct-2=45", keys sorted.
func tableText(t map[string]string) string {
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + t[k]
	}
	if len(parts) == 0 {
		return "(empty)"
	}
	return strings.Join(parts, " ")
}

func checkCompaction(c *ctx) Result {
	recs := c.records("balances", 0)
	var acct3 *core.Record
	for i := range recs {
		if recs[i].HasKey && recs[i].Key == "acct-3" {
			acct3 = &recs[i]
		}
	}
	switch {
	case acct3 != nil && !acct3.Tombstone && acct3.Value == "":
		return pending("acct-3's latest record has an empty value: that is a value like any other, so acct-3 stays in the table with an empty balance; a tombstone has no value at all")
	case acct3 != nil && !acct3.Tombstone:
		return pending("acct-3 still has a balance, %s: write a tombstone for it", acct3.Value)
	}
	hw, _ := c.log.HighWatermark("balances", 0)
	start, _ := c.log.LogStartOffset("balances", 0)
	if int64(len(recs)) == hw-start {
		return pending("balances still holds every record written to it: compact it (the cleaner skips the active segment, 3 records here)")
	}
	want := table(recs)
	partial := ""
	for _, name := range c.log.GroupNames() {
		v, _ := c.group(name)
		got := deliveredOffsets(v, "balances", 0)
		if len(got) == 0 {
			continue
		}
		if missing := missingOffsets(recs, got); len(missing) > 0 {
			partial = fmt.Sprintf("%s has not read offsets %s of balances yet: poll", name, joinInts(missing))
			continue
		}
		if int64(len(got)) >= hw-start {
			partial = fmt.Sprintf("%s read balances before it was compacted; read the compacted log with a new group", name)
			continue
		}
		var read []core.Record
		for _, d := range v.Deliveries {
			if d.Topic == "balances" {
				read = append(read, d.Record)
			}
		}
		if built := table(read); tableText(built) != tableText(want) {
			partial = fmt.Sprintf("%s built the table %s, but the log says %s", name, tableText(built), tableText(want))
			continue
		}
		return solved("%s read %d of balances' %d offsets, skipping what compaction removed, and rebuilt the table %s: acct-3 is gone.",
			name, len(got), hw-start, tableText(want))
	}
	if partial != "" {
		return pending("%s", partial)
	}
	return pending("balances is compacted; now rebuild the table: a new group reading balances from the start")
}

var timeRetention = Lesson{
	Name:  "time-retention",
	Title: "Retention by age, by whole segments",
	Text: []string{
		"Every record carries a timestamp. With cleanup.policy=delete, retention.ms says how long records are kept: 10 minutes on this topic.",
		"Kafka does not delete record by record. A partition is stored as segment files, and retention deletes a whole segment once its newest record is older than retention.ms. A record older than the limit therefore lives on while its segment holds a younger record. Deletion also goes from the oldest segment forward and stops at the first one too young to go. And it is not instant: the broker looks for expired segments 30 s after it starts, then every log.retention.check.interval.ms (5 minutes), so a segment goes at the first check after it expires.",
		"A segment closes (rolls) when it is full, by segment.bytes or here by 4 records, or when it is older than segment.ms. In this topic the first segment holds 4 boot records from time 0; two warmup records went into the next one at 5 minutes, and it still has room.",
	},
	Goal: "Make retention delete a segment by age, while a record older than retention.ms survives in a segment with a younger record.",
	Script: `seed 14
topic logs partitions=1 retention.ms=10m segment.records=4
produce logs value=boot count=4
advance 5m
produce logs value=warmup count=2
`,
	Hints: []string{
		"Past 10 minutes the boot segment goes. The warmup records reach 10 minutes of age at 15 minutes; what could keep their segment alive after that?",
		"Waiting long, advancing by `20m`, deletes every segment, the warmup one included: nothing older than 10 minutes is left.",
		"Put younger records in the warmup segment before it expires: advance by `4m`, produce two records with the value `late` (Count 2, no key), then advance by `8m`.",
	},
	Solution: `advance 4m
produce logs value=late count=2
advance 8m
`,
	WrongAttempt: `advance 20m
`,
	check: checkTimeRetention,
}

func checkTimeRetention(c *ctx) Result {
	cfg, err := c.log.TopicConfig("logs")
	if err != nil {
		return pending("topic logs is gone: reload the lesson")
	}
	var byAge *core.Event
	truncated := false
	c.replay(func(_ int, _ core.ReadOnlyLog, events []core.Event) {
		for _, e := range events {
			switch {
			case e.Topic != "logs":
			case e.Kind == core.EventTruncated:
				truncated = true
			case e.Kind == core.EventSegmentDeleted && strings.HasPrefix(e.Detail, "retention.ms") && byAge == nil:
				byAge = &e
			}
		}
	})
	if byAge == nil {
		if truncated {
			return pending("the log start moved by DeleteRecords (truncate), not by retention: go back and let the clock delete a segment by age")
		}
		return pending("retention has not deleted anything yet: the boot segment goes once its newest record is more than %s old", units.Duration(cfg.RetentionMs))
	}
	now := c.log.Now()
	recs := c.records("logs", 0)
	if len(recs) == 0 {
		return pending("retention deleted every segment, so nothing older than %s survived; go back, and put a younger record in the warmup segment before it expires",
			units.Duration(cfg.RetentionMs))
	}
	for _, r := range recs {
		if now-r.Timestamp <= cfg.RetentionMs {
			continue
		}
		newest := r.Timestamp
		segments, _ := c.log.Segments("logs", 0)
		for _, s := range segments {
			if s.BaseOffset <= r.Offset && r.Offset < s.EndOffset {
				newest = s.MaxTimestamp
			}
		}
		return solved("retention deleted offsets %d to %d at %s, a whole segment; offset %d (%s) is %s old yet still there, because its segment's newest record is %s old.",
			byAge.From, byAge.To-1, units.SpanToSecond(byAge.Time), r.Offset, r.Value, units.SpanToSecond(now-r.Timestamp), units.SpanToSecond(now-newest))
	}
	return pending("every record left is younger than retention.ms=%s; one older than that survives only in a segment that also holds a younger record",
		units.Duration(cfg.RetentionMs))
}
