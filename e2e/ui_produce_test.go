package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"plog/core"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// A learner with an empty page creates a topic, produces keyed, keyless and
// explicitly placed records, uses the generators and adds partitions; the
// page shows each record where the engine put it, and says why.
func TestUICreateTopicAndProduce(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")

	b.fill(t, "#topic-name", "orders")
	b.fill(t, "#topic-partitions", "4")
	b.click(t, "#topic-create")
	b.waitCount(t, `[data-topic=orders][data-partition]`, 4)

	// A keyed record goes where Kafka's murmur2 partitioner sends it.
	want := core.PartitionFor("acct-1", 4)
	b.fill(t, "#produce-key", "acct-1")
	b.fill(t, "#produce-value", "created")
	b.click(t, "#produce-send")
	lane := fmt.Sprintf(`[data-topic=orders][data-partition="%d"]`, want)
	b.waitCount(t, lane+` [data-offset="0"][data-key="acct-1"]`, 1)
	reason := fmt.Sprintf(`murmur2("acct-1") %% 4 = %d`, want)
	b.waitText(t, ".landing", reason)
	if b.count(t, lane+` [data-offset="0"][data-landed]`) != 1 {
		t.Error("the record just produced is not highlighted")
	}
	// The value is drawn under the key, where the learner reads it;
	// the record's title holds it whole.
	value := lane + ` [data-offset="0"] .record-value`
	if problem := onScreen(t, b, value); problem != "" || b.text(t, value) != "created" {
		t.Errorf("the record's value %q is %s", b.text(t, value), problem)
	}
	if title := b.attr(t, lane+` [data-offset="0"]`, "title"); !strings.Contains(title, "created") {
		t.Errorf("the record's title %q lacks its value", title)
	}
	// A headless page never has the window's focus: emulate it, as a
	// learner's open tab has.
	if _, err := chromedp.Call(b.ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	eval[bool](t, b, fmt.Sprintf(`(() => { document.querySelector(%s).focus(); return true })()`, js(lane+` [data-offset="0"]`)))
	// The arrow keys move between records.
	b.fill(t, "#produce-count", "2")
	b.click(t, "#produce-send")
	b.waitCount(t, lane+` [data-offset="2"]`, 1)
	if b.attr(t, lane+` [data-offset="2"]`, "tabindex") != "0" || b.attr(t, lane+` [data-offset="1"]`, "tabindex") != "-1" {
		t.Error("the lane's one tab stop is not its newest record")
	}
	eval[bool](t, b, fmt.Sprintf(`(() => { document.querySelector(%s).focus(); return true })()`, js(lane+` [data-offset="2"]`)))
	b.do(t, chromedp.KeyEvent(kb.ArrowLeft))
	b.waitFor(t, `document.activeElement.dataset.offset === "1"`)
	b.do(t, chromedp.KeyEvent(kb.ArrowRight))
	b.waitFor(t, `document.activeElement.dataset.offset === "2"`)
	b.fill(t, "#produce-count", "1")
	if got := b.attr(t, lane, "data-high-watermark"); got != "3" {
		t.Errorf("high watermark of orders/%d = %s, want 3", want, got)
	}

	// Three more of the same key land after them, in order.
	b.fill(t, "#produce-count", "3")
	b.click(t, "#produce-send")
	b.waitCount(t, lane+` [data-key="acct-1"]`, 6)
	b.waitText(t, ".landing", "offsets 3–5")

	// Without a key: Kafka's built-in partitioner.
	b.fill(t, "#produce-count", "1")
	b.setChecked(t, "#produce-no-key", true)
	b.click(t, "#produce-send")
	b.waitText(t, ".landing", "built-in partitioner")
	b.waitCount(t, `[data-topic=orders] [data-offset]:not([data-key])`, 1)

	// An explicit partition wins over the partitioner.
	b.setChecked(t, "#produce-no-key", false)
	b.fill(t, "#produce-key", "acct-1")
	other := (want + 1) % 4
	b.fill(t, "#produce-partition", strconv.Itoa(other))
	b.click(t, "#produce-send")
	b.waitText(t, ".landing", "the partition was given")
	b.waitCount(t, fmt.Sprintf(`[data-topic=orders][data-partition="%d"] [data-key="acct-1"]`, other), 1)
	b.fill(t, "#produce-partition", "")

	// One hot key: every record in one partition, which the page calls hot.
	b.fill(t, "#generate-count", "30")
	b.click(t, "#generate-hot")
	hot := fmt.Sprintf(`[data-topic=orders][data-partition="%d"]`, core.PartitionFor("hot", 4))
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.count >= 30`, js(hot)))
	b.waitText(t, hot+" .lane-count", "hot")

	// Sequential and random keys come from producer workloads, as
	// scenario lines, and add as many records as asked.
	before := totalRecords(t, b, "orders")
	b.fill(t, "#generate-count", "12")
	b.click(t, "#generate-sequence")
	b.waitFor(t, fmt.Sprintf(`%s === %d`, totalJS("orders"), before+12))
	b.click(t, "#generate-uniform")
	b.waitFor(t, fmt.Sprintf(`%s === %d`, totalJS("orders"), before+24))
	b.waitFor(t, `document.querySelectorAll('[data-topic=orders] [data-key="key-11"]').length >= 1`)
	script := b.text(t, ".script")
	for _, want := range []string{"producer burst-", "keys=sequence", "keys=uniform", "stop burst-"} {
		if !strings.Contains(script, want) {
			t.Errorf("the timeline lacks %q:\n%s", want, script)
		}
	}

	// Partitions: the topic grows to 6 lanes.
	b.fill(t, "#partitions-orders", "6")
	b.click(t, "#partitions-go-orders")
	b.waitCount(t, `[data-topic=orders][data-partition]`, 6)
	b.noErrors(t)
}

// totalJS sums the retained record counts of a topic's lanes.
func totalJS(topic string) string {
	return fmt.Sprintf(`Array.from(document.querySelectorAll('[data-topic=%s][data-partition]')).reduce((n, el) => n + Number(el.dataset.count), 0)`, topic)
}

func totalRecords(t *testing.T, b *browser, topic string) int {
	t.Helper()
	return eval[int](t, b, totalJS(topic))
}

// A lane draws a window of its records and counts the rest; its buttons
// move the window and come back to the newest.
func TestUILaneWindowMoves(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic t partitions=1\nproduce t key=k value=v count=100\n")
	lane := `[data-topic=t][data-partition="0"]`
	b.waitCount(t, lane+" [data-offset]", 40)
	if b.count(t, lane+` [data-offset="99"]`) != 1 || b.count(t, lane+` [data-offset="59"]`) != 0 {
		t.Fatal("the lane does not show its newest 40 records")
	}
	b.waitText(t, lane+" .lane-nav", "60 older")
	b.click(t, lane+` .lane-nav[aria-label^="show older"]`)
	b.waitCount(t, lane+` [data-offset="20"]`, 1)
	b.waitCount(t, lane+" [data-offset]", 40)
	if got := b.text(t, lane+` .lane-nav[aria-label^="show older"]`); !strings.Contains(got, "20 older") {
		t.Errorf("older button says %q, want 20 older", got)
	}
	b.click(t, lane+` .lane-nav[aria-label^="show newer"]`)
	b.waitCount(t, lane+` [data-offset="99"]`, 1)
	b.waitCount(t, lane+` .lane-nav[aria-label^="show newer"]`, 0)
	b.noErrors(t)
}

// A topic of many partitions draws the first lanes, and the one a produce
// lands in; the rest on request.
func TestUIManyPartitions(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic wide partitions=200\n")
	b.waitCount(t, `[data-topic=wide][data-partition]`, 24)
	b.fill(t, "#produce-partition", "150")
	b.click(t, "#produce-send")
	b.waitCount(t, `[data-topic=wide][data-partition="150"] [data-offset="0"]`, 1)
	b.click(t, "#more-lanes-wide")
	b.waitCount(t, `[data-topic=wide][data-partition]`, 200)
	b.click(t, "#more-lanes-wide")
	b.waitCount(t, `[data-topic=wide][data-partition]`, 25)
	b.noErrors(t)
}

// What the last command did is said under the lanes, kept in view at the
// foot of the picture, even when the lanes fill more than the window: it
// was squeezed to no height there (a flex item that scrolls may shrink to
// nothing) and a learner never saw why a record landed where it did.
func TestUILandingNoteShowsOverManyLanes(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic big partitions=1000\ntopic small partitions=3\n")
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.waitFor(t, `innerWidth === 1280 && innerHeight === 800`)
	b.fill(t, "#produce-topic", "big")
	b.fill(t, "#produce-partition", "999")
	b.click(t, "#produce-send")
	b.waitCount(t, `[data-topic=big][data-partition="999"] [data-offset="0"]`, 1)
	b.waitCount(t, `.stage-notes .landing:not(.empty)`, 1)
	if got := b.text(t, `.stage-notes .landing`); !strings.Contains(got, "big/999") {
		t.Errorf("the note says %q, not where the record landed", got)
	}
	if problem := onScreen(t, b, ".stage-notes .landing"); problem != "" {
		t.Errorf("at 1280x800 the note of the last command is %s", problem)
	}
	if dir := os.Getenv("PLOG_SCREENSHOTS"); dir != "" {
		png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, "landing-note-1280x800.png"), png, 0o644)
	}
	// A partition past the last is refused beside the form; the refusal
	// goes when the learner picks another topic, where it means nothing.
	b.fill(t, "#produce-partition", "1000")
	b.click(t, "#produce-send")
	b.waitText(t, `[data-control=produce][role=alert]`, "larger than 999")
	b.fill(t, "#produce-topic", "small")
	b.waitCount(t, `[data-control=produce][role=alert]`, 0)
	b.noErrors(t)
}

// A key keeps its colour and shape as new keys come. acct-9 and acct-18
// share their hash's look; drawn afresh, acct-18 (first in text order)
// takes it and acct-9 moves to the next, so acct-9's records changed colour
// under the learner's eyes the moment acct-18 arrived.
func TestAKeyKeepsItsColourAsNewKeysCome(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	b.createTopic(t, "orders", 1)
	look := func(key string) string {
		t.Helper()
		sel := fmt.Sprintf(`[data-topic=orders] .record[data-key=%s]`, js(key))
		// The copy flying to the lane passes over the records (flights.js).
		b.waitFor(t, `document.getAnimations().every(a => a.playState !== "running" || a.effect.getTiming().iterations === Infinity)`)
		if problem := onScreen(t, b, sel); problem != "" {
			t.Fatalf("%s's record is %s", key, problem)
		}
		return eval[string](t, b, fmt.Sprintf(`(() => { const el = document.querySelector(%s); return [...el.classList].filter(c => c.startsWith("key-")).join(" ") + " shape " + el.dataset.keyShape })()`, js(sel)))
	}
	produce := func(key string) {
		t.Helper()
		b.fill(t, "#produce-key", key)
		b.fill(t, "#produce-value", "v")
		b.click(t, "#produce-send")
		b.waitCount(t, fmt.Sprintf(`[data-topic=orders] .record[data-key=%s]`, js(key)), 1)
	}
	produce("acct-9")
	was := look("acct-9")
	produce("acct-18")
	if now := look("acct-9"); now != was {
		t.Errorf("acct-9's record changed its look from %q to %q when acct-18 came", was, now)
	}
	if look("acct-18") == look("acct-9") {
		t.Errorf("acct-9 and acct-18 look alike: %q", look("acct-9"))
	}
}

// Ticking tombstone empties the value box and says why, and unticking it
// brings back what was typed: disabled with its text, the box read as the
// value the tombstone would carry. No key does the same to the key.
func TestATombstoneShowsNoValue(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=1\n")
	b.fill(t, "#produce-value", "created")
	b.mouseClick(t, "#produce-tombstone")
	b.waitFor(t, `document.querySelector("#produce-value").disabled`)
	if v, p := b.attr(t, "#produce-value", "value"), eval[string](t, b, `document.querySelector("#produce-value").value`); v != "" || p != "" {
		t.Errorf("the tombstone's value box holds %q (attribute %q)", p, v)
	}
	if p := b.attr(t, "#produce-value", "placeholder"); !strings.Contains(p, "tombstone has no value") {
		t.Errorf("the tombstone's value box says %q", p)
	}
	b.mouseClick(t, "#produce-tombstone")
	b.waitFor(t, `!document.querySelector("#produce-value").disabled && document.querySelector("#produce-value").value === "created"`)
	b.mouseClick(t, "#produce-no-key")
	b.waitFor(t, `document.querySelector("#produce-key").disabled && document.querySelector("#produce-key").value === ""`)
}

// Pressing Produce says, under the button, where the record went: on a
// phone the lanes are out of sight below the form, and a walk saw nothing
// change but the lesson's progress. Another command's records are not the
// form's, and the line goes.
func TestProduceSaysWhereTheRecordWent(t *testing.T) {
	t.Parallel()
	b := lessonOnAPhone(t, "key-order")
	// The tools start folded in a lesson: the lesson's start opens the form.
	b.mouseClick(t, `[data-lesson-start] button[data-control-ref="produce-key"]`)
	b.waitFor(t, `document.activeElement && document.activeElement.id === "produce-key"`)
	b.fill(t, "#produce-key", "acct-1")
	b.fill(t, "#produce-value", "created")
	b.mouseClick(t, "#produce-send")
	want := fmt.Sprintf(`→ orders/%d, offset`, core.PartitionFor("acct-1", 4))
	b.waitText(t, ".produce-landed", want)
	if text := b.text(t, ".produce-landed"); !strings.Contains(text, `murmur2("acct-1") % 4`) {
		t.Errorf("under the button: %q, want why the partition", text)
	}
	if problem := onScreen(t, b, ".produce-landed"); problem != "" {
		t.Errorf("where the record went is %s", problem)
	}
	b.mouseClick(t, "#undo")
	b.waitCount(t, ".produce-landed", 0)
}

// A compacted topic shows, under its lanes, the table its changelog
// builds, and a tombstone the learner sends strikes its key out: lesson 13
// asks for acct-3 to leave "the table", which a walk never saw.
func TestACompactedTopicShowsItsTable(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	x := learnerFromList(t, s, "compaction")
	b := x.b
	table := `[data-topic-table="balances"]`
	acct3 := table + ` [data-table-key="acct-3"]`
	b.waitText(t, acct3, "acct-3 = 75")
	if problem := onScreen(t, b, table); problem != "" {
		t.Errorf("balances' table is %s", problem)
	}
	x.tombstone("balances", "acct-3")
	b.waitCount(t, acct3+` [data-table-deleted]`, 1)
	if text := b.text(t, acct3); !strings.Contains(text, "acct-3 (deleted)") {
		t.Errorf("acct-3 in the table after its tombstone: %q", text)
	}
}
