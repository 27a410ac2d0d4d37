package e2e

import (
	"strings"
	"testing"
)

// The online upgrade on the page, as a learner rolls it: a classic group's
// members restart one at a time with the consumer protocol (the card's
// Leave, then its join form with Group protocol consumer). The first one's
// join converts the group: its card says consumer, the member that came
// back runs the consumer protocol and the other stays a classic member
// until it restarts too; the inspector says how the mixed group's classic
// members rejoin. Once every member has left, the inspector's Delete group
// makes the emptied group Dead.
func TestUIConsumerUpgradeRollsAGroup(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "rules 4\ntopic orders partitions=2\njoin billing c1 topics=orders\njoin billing c2 topics=orders\nadvance 7s\n")
	c1, c2 := member("billing", "c1"), member("billing", "c2")
	b.waitCount(t, group("billing")+`[data-state=stable] .group-head [data-protocol=classic]`, 1)

	leave := func(id string) {
		t.Helper()
		if got, want := b.clickAndLine(t, member("billing", id)+" [data-action=leave]"), "leave billing "+id; got != want {
			t.Fatalf("%s's Leave wrote %q, want %q", id, got, want)
		}
		b.waitCount(t, member("billing", id), 0)
	}
	comeBack := func(id string) {
		t.Helper()
		form := group("billing") + " .member-join"
		if b.count(t, form) == 0 {
			b.click(t, group("billing")+" [data-action=join-member]")
		}
		b.waitCount(t, form, 1)
		b.fill(t, form+" [name=member]", id)
		b.fill(t, form+` [name="group.protocol"]`, "consumer")
		if got, want := b.clickAndLine(t, form+" button[type=submit]"), "join billing "+id+" topics=orders group.protocol=consumer"; got != want {
			t.Fatalf("billing's join form wrote %q, want %q", got, want)
		}
	}

	// c1 restarts: the classic group rebalances without it, which c2
	// rejoins by polling, and c1 comes back with the consumer protocol.
	leave("c1")
	b.click(t, c2+" [data-action=poll]")
	b.waitCount(t, c2+`[data-assigned="orders/0 orders/1"]`, 1)
	comeBack("c1")
	b.waitCount(t, group("billing")+` .group-head [data-protocol=consumer]`, 1)
	b.waitCount(t, c1+` [data-member-protocol=consumer]`, 1)
	b.waitCount(t, c2+` [data-member-protocol=classic]`, 1)
	// c2 kept the classic group's assignment at its generation; the
	// target gives c1 a partition c2 still owns, so c1 waits for it.
	if got := b.attr(t, c2, "data-assigned"); got != "orders/0 orders/1" {
		t.Errorf("c2, a classic member now, owns %q, want both partitions it had", got)
	}
	b.waitCount(t, c1+`[data-member-state=unreleased_partitions]`, 1)
	inspector := b.groupInspector(t, "billing")
	b.waitCount(t, inspector+` [data-migration-note=bidirectional]`, 1)
	if note := b.text(t, inspector+` [data-migration-note]`); !strings.Contains(note, "next poll") {
		t.Errorf("the inspector's note on the mixed group says %q: it must say the playground lets classic members rejoin at their next poll", note)
	}

	// c2 rejoins in its poll: an eager classic member first revokes, and
	// at its next rejoin takes the target's epoch.
	epoch := b.attr(t, c2, "data-member-epoch")
	// The poll's line is written before +1 s is pressed: +1 s waits for
	// the next line, which a late poll's would otherwise be.
	b.clickAndLine(t, c2+" [data-action=poll]")
	b.advanceSecond(t)
	b.click(t, c2+" [data-action=poll]")
	b.waitFor(t, `document.querySelector(`+js(c2)+`).dataset.memberEpoch !== `+js(epoch))
	if got := b.attr(t, c2, "data-assigned"); strings.Contains(got, " ") {
		t.Errorf("after its rejoins c2 still owns %q, want one partition", got)
	}

	leave("c2")
	comeBack("c2")
	b.waitCount(t, c2+` [data-member-protocol=consumer]`, 1)
	b.waitCount(t, group("billing")+` [data-member-protocol=classic]`, 0)
	b.waitCount(t, group("billing")+` .group-head [data-protocol=consumer]`, 1)

	leave("c1")
	leave("c2")
	b.waitCount(t, group("billing")+`[data-state=empty]`, 1)
	inspector = b.groupInspector(t, "billing")
	if got, want := b.clickAndLine(t, inspector+` [data-action=delete-group]`), "delete-group billing"; got != want {
		t.Fatalf("Delete group wrote %q, want %q", got, want)
	}
	b.waitCount(t, group("billing")+`[data-state=dead]`, 1)
	b.noErrors(t)
}
