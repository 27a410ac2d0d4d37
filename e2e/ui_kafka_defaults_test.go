package e2e

import (
	"strings"
	"testing"
)

// Kafka's defaults on the page (rules 3): the compact button says it is the
// playground's shortcut for running the cleaner now, the cleaner also runs by
// itself, a new group starts at the end of the log, and the playground's own
// configs are marked.
func TestUIKafkaDefaults(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `rules 3
topic orders partitions=1
produce orders key=k value=old count=3
topic profiles partitions=1 cleanup.policy=compact segment.records=2
produce profiles key=ann value=v1
produce profiles key=ann value=v2
produce profiles key=bob value=v1
produce profiles key=bob value=v2
produce profiles key=cy value=v1
topic users partitions=1 cleanup.policy=compact segment.records=2
produce users key=ann value=v1
produce users key=ann value=v2
produce users key=bob value=v1
`)
	// The button and its note say what it is.
	if got := b.text(t, "#compact-go"); got != "Run the cleaner now" {
		t.Errorf("the compact button reads %q", got)
	}
	if got := b.attr(t, "#compact-go", "title"); got == "" || !strings.Contains(got, "A playground shortcut: Kafka's log cleaner runs by itself") {
		t.Errorf("the compact button's title %q", got)
	}
	b.waitText(t, "[data-shortcut-note=cleaner]", "playground shortcut")
	b.waitText(t, "[data-shortcut-note=cleaner]", "Kafka's log cleaner runs by itself")

	// The shortcut cleans users at once, at 0s.
	b.fill(t, "#compact-topic", "users")
	b.click(t, "#compact-go")
	b.waitText(t, ".removal", "Compaction removed")
	users := `[data-topic=users][data-partition="0"]`
	b.waitCount(t, users+` [data-offset="0"]`, 0)
	b.waitText(t, ".timeline", "compact users")
	// profiles is all dirty: the cleaner's own look at 15s cleans it, not
	// before.
	profiles := `[data-topic=profiles][data-partition="0"]`
	b.fill(t, "#advance-duration", "14s")
	b.click(t, "#advance-go")
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "14000"`)
	if n := b.count(t, profiles+" [data-offset]"); n != 5 {
		t.Fatalf("profiles holds %d records at 14s, want all 5: the cleaner looks at 15s", n)
	}
	b.click(t, "#advance-1s")
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "15000"`)
	b.waitCount(t, profiles+` [data-offset="0"]`, 0)
	b.waitCount(t, profiles+` [data-offset="2"]`, 0)
	b.waitCount(t, profiles+" [data-gap]", 1)

	// A new group starts at the end: joined with the join form, it polls
	// nothing of the three old records, then reads the one produced after.
	b.joinMember(t, "fresh", "f1", "orders", "", "")
	c1 := member("fresh", "f1")
	b.waitCount(t, c1, 1)
	for range 3 {
		b.click(t, "#advance-1s")
	}
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "18000"`)
	fresh := b.groupInspector(t, "fresh")
	cfg := fresh + " .group-config"
	if got := eval[string](t, b, `document.querySelector(`+js(cfg+` select[name="auto.offset.reset"]`)+`).value`); got != "latest" {
		t.Errorf("the group's auto.offset.reset shows %q, want latest", got)
	}
	if !eval[bool](t, b, `document.querySelector(`+js(cfg+` input[name="enable.auto.commit"]`)+`).checked`) {
		t.Error("the group's auto-commit is not ticked: Kafka's default is on")
	}
	b.click(t, c1+" [data-action=poll]")
	b.waitText(t, c1+" [data-poll-empty]", "it is at the end of its partitions")
	b.fill(t, "#produce-topic", "orders")
	b.fill(t, "#produce-key", "k")
	b.fill(t, "#produce-value", "new")
	b.fill(t, "#produce-count", "1")
	b.click(t, "#produce-send")
	b.waitCount(t, `[data-topic=orders] [data-offset="3"]`, 1)
	b.click(t, c1+" [data-action=poll]")
	b.waitCount(t, fresh+` [data-delivery="orders/0@3"]`, 1)
	for _, old := range []string{"0", "1", "2"} {
		if n := b.count(t, fresh+` [data-delivery="orders/0@`+old+`"]`); n != 0 {
			t.Errorf("the new group read the old record at offset %s", old)
		}
	}

	// segment.records is marked as the playground's own in the New topic
	// form.
	if got := b.text(t, `.topic-form [data-playground-only="segment.records"]`); got != "playground only" {
		t.Errorf("segment.records' mark reads %q", got)
	}
	b.noErrors(t)
}
