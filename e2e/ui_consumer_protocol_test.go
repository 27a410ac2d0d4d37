package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"
)

// Kafka 4's consumer group protocol on the page, as a learner uses it: the
// join form's Group protocol and Server assignor write group.protocol and
// group.remote.assignor, the group's card says consumer with its epochs,
// the member's Commit carries its epoch, and a commit with a stale epoch
// typed on the command line is refused beside it (STALE_MEMBER_EPOCH).
func TestUIConsumerProtocolGroup(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "rules 5\ntopic orders partitions=2\nproduce orders key=a count=2\n")
	b.waitCount(t, `[data-topic][data-partition]`, 2)
	b.openJoinForm(t)
	if b.count(t, `.join-form [name="group.remote.assignor"]`) != 0 {
		t.Error("the join form offers a server assignor before the consumer protocol is chosen")
	}
	b.fill(t, `.join-form [name=group]`, "billing")
	b.fill(t, `.join-form [name=member]`, "c1")
	b.fill(t, `.join-form [name=topics]`, "orders")
	b.fill(t, `.join-form [name="group.protocol"]`, "consumer")
	b.waitCount(t, `.join-form [name="group.remote.assignor"]`, 1)
	b.fill(t, `.join-form [name="group.remote.assignor"]`, "range")
	if got, want := b.clickAndLine(t, `.join-form button[type=submit]`), "join billing c1 topics=orders group.protocol=consumer group.remote.assignor=range"; got != want {
		t.Fatalf("the join form wrote %q, want %q", got, want)
	}
	b.waitCount(t, group("billing")+` [data-protocol=consumer]`, 1)
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	if head := b.text(t, group("billing")+` .group-head`); !strings.Contains(head, "range") || !strings.Contains(head, "epoch 2, target 2") {
		t.Errorf("the card's head says %q, want its assignor range and epoch 2, target 2 (a new group at epoch 1, its first member making it 2, as in Kafka 4.4)", head)
	}
	if got, want := b.clickAndLine(t, member("billing", "c1")+" [data-action=commit]"), "commit billing c1 epoch=2"; got != want {
		t.Errorf("c1's Commit wrote %q, want %q", got, want)
	}
	steps := b.steps(t)
	// An epoch newer than c1's is refused (Kafka 4.4 ConsumerGroup.
	// validateOffsetCommit); an older one would be taken for partitions c1
	// has owned since, and c1 has read none to commit.
	b.typeInCommandLine(t, "commit billing c1 epoch=3", kb.Enter)
	b.waitCount(t, `[data-control="command-line"][role=alert]`, 1)
	if alert := b.alertOf(t, "command-line"); !strings.Contains(alert, "STALE_MEMBER_EPOCH") {
		t.Errorf("the stale commit's error says %q, want STALE_MEMBER_EPOCH", alert)
	}
	if got := b.steps(t); got != steps {
		t.Errorf("the refused commit made a step: %s steps, were %s", got, steps)
	}
	b.noErrors(t)
}

// Under rules 5 a classic member takes a consumer-protocol static member's
// place, as Kafka 4.4 lets it (GroupMetadataManager.
// classicGroupJoinToConsumerGroup): the learner joins k1 with c1's
// instance id through the group's join form, and k1's card has c1's
// partitions, the classic protocol, and c1's card is gone.
func TestUIClassicMemberTakesAStaticMembersPlace(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "rules 5\ntopic orders partitions=2\njoin billing c1 topics=orders group.protocol=consumer instance=i1\n"+
		"advance 2s\njoin billing c2 topics=orders group.protocol=consumer\nadvance 20s\n")
	c1 := member("billing", "c1")
	b.waitCount(t, group("billing")+`[data-state=stable]`, 1)
	owned := b.attr(t, c1, "data-assigned")
	if owned == "" {
		t.Fatal("c1 owns nothing in the stable group")
	}
	form := group("billing") + " .member-join"
	b.click(t, group("billing")+" [data-action=join-member]")
	b.waitCount(t, form, 1)
	b.fill(t, form+" [name=member]", "k1")
	b.fill(t, form+" [name=instance]", "i1")
	if got, want := b.clickAndLine(t, form+" button[type=submit]"), "join billing k1 topics=orders instance=i1"; got != want {
		t.Fatalf("billing's join form wrote %q, want %q", got, want)
	}
	k1 := member("billing", "k1")
	b.waitCount(t, c1, 0)
	b.waitCount(t, k1+` [data-member-protocol=classic]`, 1)
	if got := b.attr(t, k1, "data-assigned"); got != owned {
		t.Errorf("k1 owns %q, want c1's %q", got, owned)
	}
	b.waitCount(t, group("billing")+` .group-head [data-protocol=consumer]`, 1)
	b.noErrors(t)
}
