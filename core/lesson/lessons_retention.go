package lesson

import (
	"fmt"
	"strings"

	"plog/core"
	"plog/core/units"
)

// The goals of the lessons about what the log keeps: retention by time, the lag that tells
// a group is about to lose records, and compaction.

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
