package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// A commit from outside a group, through the group's "Commit an offset"
// form with no member running: while the crashed member's session lasts,
// the form warns of it and, when the learner commits, says Kafka's refusal (UNKNOWN_MEMBER_ID), naming the member and
// when its session times out, and nothing changes; once the clock has
// passed it, the group is empty and the same commit goes through.
func TestUICommitFromOutsideAGroup(t *testing.T) {
	t.Parallel()
	// A link without a rules line opens under rules 1: this one says 3.
	b := openPlayground(t, `rules 3
topic orders partitions=1
produce orders value=v count=6
join g c1 topics=orders
advance 5s
poll g c1 max=100
commit g c1
`)
	b.waitCount(t, group("g")+`[data-state=stable]`, 1)
	g := b.groupInspector(t, "g")
	committed := func() string {
		return b.attr(t, g+` [data-lag-of="orders/0"]`, "data-group-committed")
	}
	if got := committed(); got != "6" {
		t.Fatalf("orders/0 committed %s, want 6", got)
	}
	b.click(t, member("g", "c1")+` [data-action=crash]`)
	b.waitFor(t, `document.querySelector('article[data-group=g] [data-action=come-back]') !== null`)
	steps := b.steps(t)

	commitForm := g + ` .group-commit`
	// Before the learner tries, the form says what Kafka will answer.
	b.waitText(t, commitForm+` [data-commit-refused]`, "a commit comes from outside the group: it is not empty (c1, crashed")
	b.fill(t, commitForm+` [name=partition]`, "orders/0")
	b.fill(t, commitForm+` [name=offset]`, "1")
	b.click(t, commitForm+` button[type=submit]`)
	b.waitText(t, `[data-control="g/commit"][role=alert]`, "UNKNOWN_MEMBER_ID")
	alert := b.text(t, `[data-control="g/commit"][role=alert]`)
	for _, want := range []string{"from outside the group", "c1, crashed, kept until its session times out at 50s"} {
		if !strings.Contains(alert, want) {
			t.Errorf("the commit's error %q does not say %q", alert, want)
		}
	}
	if got := committed(); got != "6" {
		t.Errorf("a refused commit changed orders/0's committed offset to %s", got)
	}
	if got := b.steps(t); got != steps {
		t.Errorf("the refused commit changed the script: %s lines, was %s", got, steps)
	}

	// The session times out, the group is empty: the commit goes through.
	b.fill(t, "#advance-duration", "1m")
	b.click(t, "#advance-go")
	b.waitCount(t, group("g")+`[data-state=empty]`, 1)
	b.waitCount(t, commitForm+` [data-commit-refused]`, 0)
	b.fill(t, commitForm+` [name=partition]`, "orders/0")
	b.fill(t, commitForm+` [name=offset]`, "1")
	b.click(t, commitForm+` button[type=submit]`)
	if !b.eventually(fmt.Sprintf(`document.querySelector(%s).dataset.groupCommitted === "1"`, js(g+` [data-lag-of="orders/0"]`))) {
		t.Fatalf("the commit on the empty group did not go through; its form says %q", b.alertOf(t, "g/commit"))
	}
	if b.count(t, `[data-control="g/commit"][role=alert]`) != 0 {
		t.Error("the commit's error stayed after it went through")
	}
	b.noErrors(t)
}

// The high watermark under min.insync.replicas, through the page's
// controls: with both followers crashed, an acks=1 record is drawn not
// committed, the lane's high watermark stays, and the produce note and the
// replication view say why (Kafka 3.7+); once a follower is back and has
// fetched, it is committed.
func TestUIHighWatermarkHeldBelowMinInsync(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "rules 3\ntopic orders replication.factor=3 min.insync.replicas=2\n")
	lane := `[data-topic=orders][data-partition="0"]`
	b.waitCount(t, lane, 1)
	for _, id := range []string{"2", "3"} {
		b.click(t, `.broker[data-broker="`+id+`"] [data-broker-action=crash]`)
		b.waitFor(t, `document.querySelector('.broker[data-broker="`+id+`"]').dataset.status === "down"`)
	}
	b.fill(t, "#produce-value", "v")
	b.fill(t, "#produce-count", "2")
	b.fill(t, "#produce-acks", "1")
	b.click(t, "#produce-send")
	b.waitCount(t, lane+` [data-offset][data-uncommitted]`, 2)
	b.waitText(t, `.landing [data-uncommitted="2"]`, "the high watermark stays at 0, and consumers read only below it. It stays because the ISR (broker 1) is smaller than min.insync.replicas=2")
	steps := b.steps(t)
	b.click(t, "#advance-1s")
	b.waitFor(t, `document.querySelector(".timeline").dataset.length !== "`+steps+`"`)
	if got := b.attr(t, lane, "data-high-watermark"); got != "0" {
		t.Errorf("lane high watermark %q a second later, with the leader alone in sync; want 0", got)
	}
	b.waitText(t, `[data-replicas-of="orders/0"] [data-hw-held]`, "KAFKA-15583")

	b.click(t, `.broker[data-broker="2"] [data-broker-action=restart]`)
	b.waitFor(t, `document.querySelector('.broker[data-broker="2"]').dataset.status === "up"`)
	b.click(t, "#advance-1s")
	b.waitFor(t, `document.querySelector('[data-topic=orders][data-partition="0"]').dataset.highWatermark === "2"`)
	b.waitCount(t, lane+` [data-uncommitted]`, 0)
	b.waitCount(t, `[data-replicas-of="orders/0"] [data-hw-held]`, 0)
	b.noErrors(t)
}
