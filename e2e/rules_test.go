package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"
)

// latestLinkOf is the fragment (with '#') of a script as the page and
// plogsim link write it today: with its rules line, the latest rules' when
// the script has none. linkOf writes a script as it is, as links made
// before rules were numbered hold it.
func latestLinkOf(t *testing.T, script string) string {
	t.Helper()
	link, err := scenario.EncodeLink(script)
	if err != nil {
		t.Fatal(err)
	}
	return "#" + link
}

// withoutRules drops a script's rules line: it is the scenario's, not a
// step.
func withoutRules(script string) string {
	var steps []string
	for _, l := range strings.Split(strings.TrimSpace(script), "\n") {
		if !strings.HasPrefix(l, scenario.CmdRules+" ") {
			steps = append(steps, l)
		}
	}
	return strings.Join(steps, "\n")
}

// laneHighWatermarks reads each lane's high watermark, by "topic/partition".
func laneHighWatermarks(t *testing.T, b *browser) string {
	t.Helper()
	return eval[string](t, b, `Array.from(document.querySelectorAll("[data-topic][data-partition][data-high-watermark]")).map(el =>
		el.dataset.topic + "/" + el.dataset.partition + "=" + el.dataset.highWatermark).join(" ")`)
}

// A link made before rules were numbered (its script has no rules line)
// replays under rules 1, and the timeline says so; Use the latest rules
// replays it under the latest, and the old rules come back by a click.
func TestOldLinkOffersTheLatestRules(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "seed 3\ntopic orders partitions=4\nproduce orders value=v count=12\n") // no rules line: an old link
	b.waitText(t, `.rules-notice[data-rules="1"]`, "Made under plog's rules 1: this link replays as it was made. The latest rules, "+strconv.Itoa(core.LatestRules)+", bring: "+core.RulesBrought(1, core.LatestRules)+".")
	if got := laneHighWatermarks(t, b); got != "orders/0=3 orders/1=3 orders/2=3 orders/3=3" {
		t.Fatalf("under rules 1 the lanes hold %s, want 3 each (round-robin)", got)
	}
	b.click(t, "#use-latest-rules")
	b.waitText(t, `.rules-notice[data-rules="`+strconv.Itoa(core.LatestRules)+`"]`, "Now under plog's rules "+strconv.Itoa(core.LatestRules)+", replayed from the start. They bring: "+core.RulesBrought(1, core.LatestRules)+".")
	if got := laneHighWatermarks(t, b); strings.Count(got, "=12") != 1 || strings.Count(got, "=0") != 3 {
		t.Errorf("under rules 2 the lanes hold %s, want all 12 records in one", got)
	}
	if got := b.steps(t); got != "3" {
		t.Errorf("the timeline has %s steps, want the same 3: the rules line is no step", got)
	}
	b.waitFor(t, `location.hash.length > 4`)
	b.click(t, "#use-earlier-rules")
	b.waitText(t, `.rules-notice[data-rules="1"]`, "Made under plog's rules 1")
	if got := laneHighWatermarks(t, b); got != "orders/0=3 orders/1=3 orders/2=3 orders/3=3" {
		t.Errorf("back under rules 1 the lanes hold %s", got)
	}
	b.noErrors(t)
}

// Keyless records produced with the controls land together, as Kafka's
// built-in partitioner puts them, and the landing note says so; once
// batch.size bytes have gone to the partition the note says why it moved;
// the producer's round-robin spreads them.
func TestKeylessRecordsLandTogether(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, fmt.Sprintf("rules %d\ntopic orders partitions=4\n", core.LatestRules))
	if b.count(t, ".rules-notice") != 0 {
		t.Error("a scenario under the latest rules shows a rules notice")
	}
	b.setChecked(t, "#produce-no-key", true)
	b.fill(t, "#produce-count", "12")
	b.click(t, "#produce-send")
	b.waitCount(t, `.landing li[data-landed-topic="orders"]`, 1)
	b.waitText(t, `.landing li`, "offsets 0–11 · why: built-in partitioner: keyless records stick to orders/")
	if got := laneHighWatermarks(t, b); strings.Count(got, "=12") != 1 {
		t.Errorf("the lanes hold %s, want the 12 records in one", got)
	}

	// A producer of keyless records at 50/s for 20 s: each record is its
	// own batch, so the partitioner moves on after twice batch.size.
	b.fill(t, "#producer-keys", "none")
	b.fill(t, "#producer-rate", "50/s")
	b.click(t, "#producer-start")
	b.waitCount(t, `[data-workload="web"]`, 1)
	b.fill(t, "#advance-duration", "20s")
	b.click(t, "#advance-go")
	b.waitText(t, `.landing`, "batch.size 16384 bytes reached on orders/")

	b.click(t, `[data-workload="web"] button`)
	b.waitCount(t, `[data-workload="web"]`, 0)
	b.fill(t, "#produce-partitioner", "round-robin")
	b.fill(t, "#produce-count", "4")
	b.click(t, "#produce-send")
	b.waitCount(t, `.landing li[data-landed-topic="orders"]`, 4)
	if got := b.lastLine(t); got != "produce orders value=created count=4 partitioner=round-robin" {
		t.Errorf("the form sent %q", got)
	}
	b.waitText(t, `.landing li`, "why: round-robin")
	b.noErrors(t)
}
