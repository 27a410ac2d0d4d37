package e2e

import (
	"testing"
)

// Time, retention, truncation and compaction: each removes records, which
// the lanes show leaving and the page sums up in words.
func TestUITimeRetentionTruncateCompact(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `topic orders partitions=1 segment.records=3 retention.ms=1m
produce orders key=k value=v count=7
topic profiles partitions=1 cleanup.policy=compact segment.records=2
produce profiles key=ann value=v1
produce profiles key=bob value=v1
produce profiles key=ann value=v2
produce profiles key=bob tombstone
produce profiles key=cy value=v1
produce profiles key=cy value=v2
`)
	lane := `[data-topic=orders][data-partition="0"]`
	b.waitCount(t, lane+" [data-segment-start]", 2) // segments start at 3 and 6 inside the window

	// Run the cleaner now (compact), the playground's shortcut, before the
	// cleaner's own first look at 15s: older values of each key go,
	// leaving gaps; the tombstone stays for delete.retention.ms.
	b.fill(t, "#compact-topic", "profiles")
	b.click(t, "#compact-go")
	b.waitText(t, ".removal", "Compaction removed")
	profiles := `[data-topic=profiles][data-partition="0"]`
	if b.count(t, profiles+" [data-gap]") == 0 {
		t.Error("compaction left no gap drawn")
	}
	if b.count(t, profiles+` [data-offset="0"]`) != 0 {
		t.Error("ann's first value survived compaction")
	}
	if b.count(t, profiles+` [data-tombstone][data-key="bob"]`) != 1 {
		t.Error("bob's tombstone is not drawn as one")
	}
	// +1 s, +1 m: the clock moves, and past retention.ms the closed
	// segments go at the next check (30s, then every 5m).
	b.click(t, "#advance-1s")
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "1000"`)
	b.click(t, "#advance-1m")
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "61000"`)
	b.click(t, "#advance-1h")
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "3661000"`)
	b.waitText(t, ".removal", "Retention deleted")
	// Every segment had expired, the active one too: the note says the
	// log rolled a new active segment first, as Kafka does.
	b.waitText(t, ".removal", "It was the active segment: as Kafka does, the log first rolled a new, empty active segment at offset 7")
	if got := b.attr(t, lane, "data-log-start"); got == "0" {
		t.Errorf("retention removed nothing: log start still 0")
	}
	if got := b.attr(t, lane, "data-high-watermark"); got != "7" {
		t.Errorf("high watermark %s after retention, want 7: offsets are never reused", got)
	}

	// Any duration.
	b.fill(t, "#advance-duration", "90s")
	b.click(t, "#advance-go")
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "3751000"`)

	// Truncate a fresh partition before an offset.
	b.fill(t, "#topic-name", "t")
	b.fill(t, "#topic-partitions", "1")
	b.click(t, "#topic-create")
	b.waitCount(t, `[data-topic=t][data-partition]`, 1)
	b.fill(t, "#produce-topic", "t")
	b.fill(t, "#produce-count", "5")
	b.click(t, "#produce-send")
	b.waitCount(t, `[data-topic=t] [data-offset]`, 5)
	b.fill(t, "#truncate-topic", "t")
	b.fill(t, "#truncate-before", "3")
	b.click(t, "#truncate-go")
	// What went is drawn leaving for a moment, then gone.
	b.waitCount(t, `[data-topic=t] .ghost[data-removed-offset]`, 3)
	b.waitCount(t, `[data-topic=t] .ghost`, 0)
	b.waitFor(t, `document.querySelector('[data-topic=t][data-partition="0"]').dataset.logStart === "3"`)
	b.waitText(t, ".removal", "Truncate removed offsets 0–2 of t/0 (3 records)")
	b.waitCount(t, `[data-topic=t] [data-offset]`, 2)

	b.noErrors(t)
}
