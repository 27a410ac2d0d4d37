package e2e

import (
	"fmt"
	"testing"
)

// shareMember is the selector of one member of a share group's card.
func shareMember(group, name string) string {
	return fmt.Sprintf(`[data-share-group=%s] [data-share-member=%s]`, js(group), js(name))
}

// shareRecord is the selector of an in-flight record of a share-partition
// in the given state, held by owner ("" for none) and delivered count
// times.
func shareRecord(group, partition string, offset int, state, owner string, count int) string {
	sel := fmt.Sprintf(`[data-share-group=%s] [data-share-partition=%s] .share-record[data-offset="%d"][data-record-state=%s][data-delivery-count="%d"]`,
		js(group), js(partition), offset, state, count)
	if owner != "" {
		sel += fmt.Sprintf(`[data-owner=%s]`, js(owner))
	}
	return sel
}

// A learner with the page's controls makes a share group of two members on
// a one-partition topic: both read the same partition, each record lent to
// one of them; one crashes, and once the clock passes the 30 s lock its
// records are Available again, and the other member's poll acquires them,
// delivered a second time (KIP-932's acquisition lock, Kafka 4.4's
// SharePartition).
func TestUIShareGroups(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	use := func(selector string) string { t.Helper(); return b.use(t, selector) }
	tab := func(name string) { t.Helper(); b.click(t, use("#dock-tab-"+name)) }
	tab("topics")

	b.fill(t, use("#topic-name"), "orders")
	b.fill(t, use("#topic-partitions"), "1")
	b.click(t, use("#topic-create"))
	b.waitCount(t, `[data-topic=orders][data-partition="0"]`, 1)
	tab("produce")
	b.fill(t, use("#produce-count"), "3")
	b.click(t, use("#produce-send"))
	b.waitCount(t, `[data-topic=orders][data-partition="0"] [data-offset="2"]`, 1)

	b.click(t, use(`[data-action=new-share-group]`))
	b.fill(t, use(`.share-join-form [name=group]`), "workers")
	b.fill(t, use(`.share-join-form [name=member]`), "s1")
	b.fill(t, use(`.share-join-form [name=topics]`), "orders")
	b.click(t, use(`.share-join-form button[type=submit]`))
	b.waitCount(t, shareMember("workers", "s1"), 1)

	// The records came before the group: it reads them from the log start.
	// A lock shorter than the brokers allow is refused, with the engine's
	// words, beside the form.
	config := `[data-share-group=workers] .share-group-config`
	b.fill(t, use(config+` [name="share.record.lock.duration.ms"]`), "5s")
	b.click(t, use(config+` button[type=submit]`))
	b.waitText(t, `[data-control="share/workers/config"][role=alert]`, "share.record.lock.duration.ms")
	// A choice is a select, sent as soon as it is picked.
	b.fill(t, use(config+` select[name="share.auto.offset.reset"]`), "earliest")
	b.waitCount(t, `[data-control="share/workers/config"][role=alert]`, 0)

	b.fill(t, use(`.share-join-form [name=member]`), "s2")
	b.click(t, use(`.share-join-form button[type=submit]`))
	b.waitCount(t, shareMember("workers", "s2"), 1)
	for _, m := range []string{"s1", "s2"} {
		if got := b.attr(t, shareMember("workers", m), "data-assigned"); got != "orders/0" {
			t.Errorf("%s reads %q, want the one partition orders/0", m, got)
		}
	}

	// Both poll the same partition, and get different records.
	b.fill(t, use(shareMember("workers", "s1")+` [name=max]`), "2")
	b.click(t, use(shareMember("workers", "s1")+` [data-action=share-poll]`))
	b.waitCount(t, shareRecord("workers", "orders/0", 1, "Acquired", "s1", 1), 1)
	b.click(t, use(shareMember("workers", "s2")+` [data-action=share-poll]`))
	b.waitCount(t, shareRecord("workers", "orders/0", 2, "Acquired", "s2", 1), 1)
	if b.count(t, shareRecord("workers", "orders/0", 0, "Acquired", "s1", 1)) != 1 {
		t.Error("offset 0 is not s1's")
	}

	b.click(t, use(shareMember("workers", "s1")+` [data-action=crash]`))
	b.waitCount(t, shareMember("workers", "s1")+`[data-crashed]`, 1)
	tab("time")
	b.fill(t, use("#advance-duration"), "31s")
	b.click(t, use("#advance-go"))
	for _, o := range []int{0, 1} {
		b.waitCount(t, shareRecord("workers", "orders/0", o, "Available", "", 1), 1)
	}
	if got := b.text(t, `[data-share-group=workers] [data-share-partition="orders/0"] .share-record[data-offset="0"]`); got == "" {
		t.Error("the record shows no text: its state must not be told by colour alone")
	}

	b.click(t, use(shareMember("workers", "s2")+` [data-action=share-poll]`))
	for _, o := range []int{0, 1} {
		b.waitCount(t, shareRecord("workers", "orders/0", o, "Acquired", "s2", 2), 1)
	}
	b.noErrors(t)
}
