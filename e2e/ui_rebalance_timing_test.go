package e2e

import (
	"strings"
	"testing"
)

// Rebalance timing and liveness under rules 4, driven as a learner does: an
// empty group's first rebalance waits for more members; a later one waits
// for the members that have not polled, which the page names, and ends
// when they poll; a member that does not poll within max.poll.interval.ms
// leaves the group, and the page says when each must poll and why one left.
func TestUIRebalanceWaitsForPollsAndRemovesMembersThatStopPolling(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "rules 4\ntopic orders partitions=2\n")

	// The first member: an empty group's first rebalance waits
	// group.initial.rebalance.delay.ms (3s) for more.
	b.joinMember(t, "g", "c1", "orders", "", "")
	b.waitCount(t, group("g")+`[data-state=rebalancing] [data-rebalance-initial]`, 1)
	for range 3 {
		b.click(t, "#advance-1s")
	}
	b.waitCount(t, group("g")+`[data-state=stable][data-generation="1"]`, 1)

	// max.poll.interval.ms 1m, with the group's config form.
	g := b.groupInspector(t, "g")
	b.fill(t, g+` .group-config [name="max.poll.interval.ms"]`, "1m")
	b.click(t, g+` .group-config button[type=submit]`)
	b.waitText(t, group("g")+` [data-poll-deadline=c1]`, "must poll within 57s")

	// A second member: the rebalance waits for c1, which has not polled.
	b.joinMember(t, "g", "c2", "orders", "", "")
	b.waitCount(t, group("g")+`[data-state=rebalancing] [data-rebalance-waits-for=c1]`, 1)
	if n := b.count(t, group("g")+` [data-rebalance-waits-for=c2]`); n != 0 {
		t.Error("the rebalance says it waits for c2, whose join was its rejoin")
	}
	if got := b.attr(t, group("g")+` [data-rebalance=running] [data-timeout-at]`, "data-timeout-at"); got != "63000" {
		t.Errorf("the rebalance timeout is at %sms, want 63000 (3s + max.poll.interval.ms)", got)
	}
	if text := b.text(t, group("g")+` [data-rebalance=running]`); !strings.Contains(text, "next poll") || !strings.Contains(text, "63s") {
		t.Errorf("the running rebalance does not say it waits for a poll, until 63s: %q", text)
	}
	for range 5 {
		b.click(t, "#advance-1s")
	}
	if got := b.attr(t, group("g"), "data-state"); got != "rebalancing" {
		t.Fatalf("5s later, with c1 not polled, the group is %s, want rebalancing", got)
	}
	// c1 polls: it rejoins, and the rebalance ends.
	b.click(t, member("g", "c1")+` [data-action=poll]`)
	b.waitCount(t, group("g")+`[data-state=stable][data-generation="2"]`, 1)
	if a, c := b.attr(t, member("g", "c1"), "data-assigned"), b.attr(t, member("g", "c2"), "data-assigned"); a == "" || c == "" {
		t.Errorf("after c1 polled each should own a partition: c1 %q, c2 %q", a, c)
	}

	// c2 polls 30s later and c1 does not poll again: at 1m after its poll
	// (at 8s) c1 leaves, and the group waits for c2 to rejoin.
	b.fill(t, "#advance-duration", "30s")
	b.click(t, "#advance-go")
	b.click(t, member("g", "c2")+` [data-action=poll]`)
	b.waitText(t, group("g")+` [data-poll-deadline=c2]`, "must poll within 1m")
	b.fill(t, "#advance-duration", "31s")
	b.click(t, "#advance-go")
	b.waitCount(t, member("g", "c1"), 0)
	b.waitCount(t, group("g")+`[data-state=rebalancing] [data-rebalance-waits-for=c2]`, 1)
	if text := b.text(t, group("g")+` [data-rebalance=running]`); !strings.Contains(text, "c1 left: no poll within max.poll.interval.ms") {
		t.Errorf("the rebalance does not say c1 left for not polling: %q", text)
	}
	b.click(t, member("g", "c2")+` [data-action=poll]`)
	b.waitCount(t, group("g")+`[data-state=stable][data-generation="3"]`, 1)
	if got := b.attr(t, member("g", "c2"), "data-assigned"); got != "orders/0 orders/1" {
		t.Errorf("c2, alone, owns %q, want orders/0 orders/1", got)
	}
	b.noErrors(t)
}
