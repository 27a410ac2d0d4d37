package e2e

import (
	"strings"
	"testing"
)

// A consumer-protocol member's card as a learner watches a partition move
// (KIP-848's incremental reconciliation, core/group_consumer.go): two
// members joined by the page's join forms, the clock advanced by its +1 s
// button. When c2 joins, c1's card says orders/1 waits to be revoked and
// c2's that it waits to be assigned; at c1's heartbeat c1 gives it up and
// takes epoch 3 while c2 still waits; at c2's own heartbeat c2 gets it.
// Under rules 5 the group starts at epoch 1, as Kafka 4.4's does, so c1's
// first heartbeat takes it to 2.
func TestUIConsumerMemberCardsShowAPartitionMoving(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "rules 5\ntopic orders partitions=2\n")
	b.waitCount(t, `[data-topic][data-partition]`, 2)
	b.openJoinForm(t)
	b.fill(t, `.join-form [name=group]`, "billing")
	b.fill(t, `.join-form [name=member]`, "c1")
	b.fill(t, `.join-form [name=topics]`, "orders")
	b.fill(t, `.join-form [name="group.protocol"]`, "consumer")
	if got, want := b.clickAndLine(t, `.join-form button[type=submit]`), "join billing c1 topics=orders group.protocol=consumer"; got != want {
		t.Fatalf("the join form wrote %q, want %q", got, want)
	}
	c1, c2 := member("billing", "c1"), member("billing", "c2")
	b.waitCount(t, c1+`[data-member-epoch="2"][data-member-state=stable][data-assigned="orders/0 orders/1"]`, 1)
	if n := len(strings.Fields(b.attr(t, c1+` [data-target]`, "data-target"))); n != 2 {
		t.Errorf("c1's card shows %d target partitions, want its 2", n)
	}
	b.advanceSecond(t)
	b.advanceSecond(t) // c1's heartbeat is now 3 s away, c2's will be 5 s

	form := group("billing") + " .member-join"
	b.click(t, group("billing")+" [data-action=join-member]")
	b.waitCount(t, form, 1)
	b.fill(t, form+" [name=member]", "c2")
	b.fill(t, form+` [name="group.protocol"]`, "consumer")
	if got, want := b.clickAndLine(t, form+" button[type=submit]"), "join billing c2 topics=orders group.protocol=consumer"; got != want {
		t.Fatalf("billing's join form wrote %q, want %q", got, want)
	}
	// The target moves orders/1 to c2: c1 must revoke it first, c2 waits.
	b.waitCount(t, c2+`[data-member-epoch="3"][data-member-state=unreleased_partitions]`, 1)
	b.waitCount(t, c2+` [data-pending-assign~="orders/1"]`, 1)
	b.waitCount(t, c1+`[data-member-epoch="2"] [data-pending-revoke~="orders/1"]`, 1)
	if b.count(t, c1+` [data-target~="orders/0"]`) != 1 || b.count(t, c1+` [data-target~="orders/1"]`) != 0 {
		t.Errorf("c1's target reads %q, want orders/0 alone", b.text(t, c1+" .member-target"))
	}
	if b.count(t, c2+` [data-target~="orders/1"]`) != 1 || b.attr(t, c2, "data-assigned") != "" {
		t.Errorf("c2's card: target %q, assigned %q; want target orders/1 and nothing yet",
			b.text(t, c2+" .member-target"), b.attr(t, c2, "data-assigned"))
	}

	// c1's heartbeat: it revokes orders/1 and takes epoch 3; c2 has not
	// heartbeated, so orders/1 is nobody's and c2 still waits for it.
	for range 3 {
		b.advanceSecond(t)
	}
	b.waitCount(t, c1+`[data-member-epoch="3"][data-assigned="orders/0"]`, 1)
	if n := b.count(t, `[data-pending-revoke]`); n != 0 {
		t.Errorf("%d partitions still wait to be revoked after c1's heartbeat", n)
	}
	if b.count(t, c2+` [data-pending-assign~="orders/1"]`) != 1 || b.attr(t, c2, "data-assigned") != "" {
		t.Errorf("c2 has %q before its own heartbeat, want it still waiting for orders/1", b.attr(t, c2, "data-assigned"))
	}

	// c2's heartbeat: it gets orders/1 and the group is stable.
	b.advanceSecond(t)
	b.advanceSecond(t)
	b.waitCount(t, c2+`[data-member-epoch="3"][data-member-state=stable][data-assigned="orders/1"]`, 1)
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	if n := b.count(t, `[data-pending-revoke], [data-pending-assign]`); n != 0 {
		t.Errorf("%d partitions still wait to move once the group is stable", n)
	}
	b.noErrors(t)
}

// advanceSecond clicks the clock's +1 s and waits for its line.
func (b *browser) advanceSecond(t *testing.T) {
	t.Helper()
	if got := b.clickAndLine(t, "#advance-1s"); got != "advance 1s" {
		t.Fatalf("+1 s wrote %q, want advance 1s", got)
	}
}
