package e2e

import (
	"testing"
)

// Replication: a link with three brokers and a crashed leader shows the
// brokers, each partition's leader, ISR and the log end of every replica
// against the high watermark; the broker buttons restart and crash brokers
// until the partition is offline.
func TestUIReplication(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `topic orders replication.factor=3 min.insync.replicas=2
produce orders value=a count=3 acks=all
advance 1s
produce orders value=lost acks=1
broker crash 1
`)
	b.waitCount(t, `.broker[data-broker]`, 3)
	if got := b.attr(t, `.broker[data-broker="1"]`, "data-status"); got != "down" {
		t.Errorf("broker 1 status %q, want down", got)
	}
	part := `[data-replicas-of="orders/0"]`
	for name, want := range map[string]string{
		"data-leader": "2", "data-isr": "2 3", "data-high-watermark": "3", "data-log-end": "3", "data-offline": "false",
	} {
		if got := b.attr(t, part, name); got != want {
			t.Errorf("orders/0 %s=%q, want %q", name, got, want)
		}
	}
	// The crashed leader still holds the acks=1 record the new leader lacks.
	old := part + ` .replica[data-broker="1"]`
	if got := b.attr(t, old, "data-log-end"); got != "4" {
		t.Errorf("crashed broker 1 log end %q, want 4", got)
	}
	if got := b.attr(t, old, "data-in-sync"); got != "false" {
		t.Errorf("crashed broker 1 in sync %q", got)
	}
	if got := b.attr(t, part+` .replica[data-broker="2"]`, "data-leader"); got != "true" {
		t.Errorf("broker 2's replica is not marked leader: %q", got)
	}
	if got := b.attr(t, `[data-topic=orders][data-partition="0"]`, "data-high-watermark"); got != "3" {
		t.Errorf("lane high watermark %q, want 3", got)
	}

	// Restart broker 1: it truncates the record nobody else has, catches
	// up and rejoins the ISR.
	b.click(t, `.broker[data-broker="1"] [data-broker-action=restart]`)
	b.waitFor(t, `document.querySelector('.broker[data-broker="1"]').dataset.status === "up"`)
	b.click(t, "#advance-1s")
	b.waitFor(t, `document.querySelector('[data-replicas-of="orders/0"]').dataset.isr === "1 2 3"`)
	if got := b.attr(t, old, "data-log-end"); got != "3" {
		t.Errorf("restarted broker 1 log end %q, want 3 after truncation", got)
	}

	// Crash every broker: the partition is offline and says why.
	for _, id := range []string{"1", "2", "3"} {
		b.click(t, `.broker[data-broker="`+id+`"] [data-broker-action=crash]`)
		b.waitFor(t, `document.querySelector('.broker[data-broker="`+id+`"]').dataset.status === "down"`)
	}
	b.waitFor(t, `document.querySelector('[data-replicas-of="orders/0"]').dataset.offline === "true"`)
	if got := b.attr(t, part, "data-leader"); got != "none" {
		t.Errorf("offline partition leader %q, want none", got)
	}
	b.waitText(t, part+" .offline", "no live in-sync replica")
	b.noErrors(t)
}

// Records produced to a replicated topic are drawn at once, marked not
// committed above the high watermark, and the produce note says why no
// consumer reads them yet; a tick of the clock later the followers have
// fetched them and they are committed.
func TestUIRecordsAboveTheHighWatermark(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	b.fill(t, "#topic-name", "orders")
	b.fill(t, "#topic-partitions", "1")
	b.fill(t, "#topic-configs", "replication.factor=3")
	b.click(t, "#topic-create")
	lane := `[data-topic=orders][data-partition="0"]`
	b.waitCount(t, lane, 1)
	b.fill(t, "#produce-value", "v")
	b.fill(t, "#produce-count", "3")
	b.click(t, "#produce-send")
	b.waitCount(t, lane+` [data-offset][data-uncommitted]`, 3)
	if got := b.attr(t, lane, "data-high-watermark"); got != "0" {
		t.Errorf("high watermark %q right after the produce, want 0", got)
	}
	if b.count(t, lane+` [data-hw-mark="0"]`) != 1 {
		t.Error("no high watermark mark before the records above it")
	}
	if n := b.count(t, lane+` .lane-nav`); n != 0 {
		t.Errorf("the lane offers %d buttons to other records, though it draws all 3: %q", n, b.text(t, lane+` .lane-nav`))
	}
	b.waitText(t, `.landing [data-uncommitted="3"]`, "not committed yet: the high watermark is 0, and consumers read only below it")
	b.waitText(t, lane+` .lane-offsets`, "log end 3 (3 records not committed yet)")

	b.click(t, "#advance-1s")
	b.waitFor(t, `document.querySelector('[data-topic=orders][data-partition="0"]').dataset.highWatermark === "3"`)
	b.waitCount(t, lane+` [data-uncommitted]`, 0)
	b.waitCount(t, lane+` [data-offset]`, 3)
}
