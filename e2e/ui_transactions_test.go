package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// A learner, from an empty page and with its controls only, makes a topic
// of two partitions, a read_committed and a read_uncommitted group, and a
// transactional producer; commits a transaction over both partitions,
// aborts a second, leaves a third open; sees the markers at their offsets,
// the records drawn open, committed and aborted, the last stable offset
// beside the high watermark and the producer in the picture; polls both
// groups and sees side by side what each read and where each stopped;
// then commits the open transaction and sees the read_committed group read
// it.
func TestUITransactions(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	waitLine := func(prefix string) {
		t.Helper()
		b.waitFor(t, fmt.Sprintf(`(document.querySelector("#timeline-script li:last-child .script-line") || {}).textContent.trim().startsWith(%s)`, js(prefix)))
	}
	lane := func(partition int) string {
		return fmt.Sprintf(`.lane[data-topic=orders][data-partition="%d"]`, partition)
	}
	cell := func(partition int, offset int64) string {
		return fmt.Sprintf(`%s [data-offset="%d"]`, lane(partition), offset)
	}

	b.click(t, "#dock-tab-topics")
	b.createTopic(t, "orders", 2)
	for _, g := range []struct{ group, member string }{{"rc", "c1"}, {"ru", "u1"}} {
		b.joinMember(t, g.group, g.member, "orders", "", "")
		b.waitCount(t, member(g.group, g.member), 1)
		inspector := b.groupInspector(t, g.group)
		b.fill(t, inspector+` .group-config [name="auto.offset.reset"]`, "earliest")
		waitLine("config group " + g.group + " auto.offset.reset=earliest")
	}
	b.fill(t, b.groupInspector(t, "rc")+` .group-config [name="isolation.level"]`, "read_committed")
	waitLine("config group rc isolation.level=read_committed")
	b.click(t, "#dock-tab-time")
	for range 4 {
		b.advanceSecond(t) // the groups' first rebalance
	}

	// A transactional producer.
	b.click(t, "#dock-tab-produce")
	b.fill(t, "#named-producer-name", "tp")
	b.fill(t, "#named-producer-transactional-id", "tx")
	b.click(t, "#named-producer-make")
	card := "[data-producer=tp]"
	b.waitCount(t, card+"[data-producer-state=uninitialized]", 1)
	b.click(t, card+" [data-command=txn][data-action=init]")
	b.waitCount(t, card+"[data-producer-state=ready]", 1)
	b.waitCount(t, `[data-producer-column] [data-producer=tp][data-producer-state=ready]`, 1)
	step := func(action string) {
		t.Helper()
		b.click(t, card+" [data-command=txn][data-action="+action+"]")
		waitLine("txn tp " + action)
	}
	send := func(partition int, value string) {
		t.Helper()
		b.fill(t, "#produce-producer", "tp")
		b.fill(t, "#produce-partition", fmt.Sprint(partition))
		b.fill(t, "#produce-value", value)
		b.click(t, "#produce-send")
		waitLine("produce orders key=acct-1 value=" + value)
		if got := b.lastLine(t); !strings.Contains(got, "producer=tp") || !strings.Contains(got, fmt.Sprintf("partition=%d", partition)) {
			t.Fatalf("the produce form sent %q", got)
		}
	}
	step("begin")
	send(0, "a") // orders/0@0
	send(1, "b") // orders/1@0
	b.waitCount(t, cell(0, 0)+"[data-txn=open]", 1)
	b.waitCount(t, `[data-producer=tp] [data-sequence="orders/1"][data-next-sequence="1"]`, 1)
	step("commit") // markers at orders/0@1 and orders/1@1
	step("begin")
	send(0, "c")  // orders/0@2
	send(1, "d")  // orders/1@2
	step("abort") // markers at orders/0@3 and orders/1@3
	step("begin")
	send(1, "e") // orders/1@4, open

	for _, c := range []struct {
		selector string
		what     string
	}{
		{cell(0, 0) + "[data-txn=committed]", "orders/0@0 committed"},
		{cell(1, 0) + "[data-txn=committed]", "orders/1@0 committed"},
		{cell(0, 1) + "[data-marker=commit]", "the commit marker at orders/0@1"},
		{cell(1, 1) + "[data-marker=commit]", "the commit marker at orders/1@1"},
		{cell(0, 2) + "[data-txn=aborted]", "orders/0@2 aborted"},
		{cell(1, 2) + "[data-txn=aborted]", "orders/1@2 aborted"},
		{cell(0, 3) + "[data-marker=abort]", "the abort marker at orders/0@3"},
		{cell(1, 3) + "[data-marker=abort]", "the abort marker at orders/1@3"},
		{cell(1, 4) + "[data-txn=open]", "orders/1@4 open"},
		{lane(0) + `[data-last-stable-offset="4"][data-high-watermark="4"]`, "orders/0's LSO at its high watermark, 4"},
		{lane(1) + `[data-last-stable-offset="4"][data-high-watermark="5"]`, "orders/1's LSO 4 below its high watermark 5"},
		{lane(1) + ` [data-lso-mark="4"]`, "orders/1's LSO mark"},
		{`[data-producer=tp][data-producer-state=in-transaction][data-producer-epoch="2"]`, "tp in the picture, in a transaction at epoch 2"},
	} {
		if !b.shown(t, c.selector) {
			t.Errorf("the page does not show %s (%s)", c.what, c.selector)
		}
	}
	// The LSO mark stands before the open record, beside the lane's end.
	if got := eval[string](t, b, fmt.Sprintf(`document.querySelector(%s).nextElementSibling.dataset.offset`, js(lane(1)+` [data-lso-mark="4"]`))); got != "4" {
		t.Errorf("orders/1's LSO mark stands before offset %q, want 4, the open transaction's record", got)
	}

	// Both groups poll.
	for _, g := range []struct{ group, member string }{{"rc", "c1"}, {"ru", "u1"}} {
		b.click(t, member(g.group, g.member)+" [data-action=poll]")
		waitLine("poll " + g.group + " " + g.member)
	}
	row := func(group string, partition int) string {
		return fmt.Sprintf(`[data-isolation-view] [data-isolation-group=%s] [data-isolation-partition="orders/%d"]`, group, partition)
	}
	b.waitCount(t, `[data-isolation-group=rc][data-isolation-level=read_committed]`, 1)
	b.waitCount(t, `[data-isolation-group=ru][data-isolation-level=read_uncommitted]`, 1)
	for _, c := range []struct {
		group                         string
		partition                     int
		readsBelow, read, aborted, in string
	}{
		{"rc", 0, "4", "0", "2", "skipped aborted 2"},
		{"rc", 1, "4", "0", "2", "stops at LSO 4 (HW 5)"},
		{"ru", 0, "4", "0 2", "2", "read aborted 2"},
		{"ru", 1, "5", "0 2 4", "2", "stops at HW 5"},
	} {
		r := row(c.group, c.partition)
		b.waitFor(t, fmt.Sprintf(`(el => !!el && el.dataset.read === %s)(document.querySelector(%s))`, js(c.read), js(r)))
		if got := b.attr(t, r, "data-reads-below"); got != c.readsBelow {
			t.Errorf("%s on orders/%d stops at %s, want %s", c.group, c.partition, got, c.readsBelow)
		}
		if got := b.attr(t, r, "data-aborted"); got != c.aborted {
			t.Errorf("%s on orders/%d: aborted records %q, want %q", c.group, c.partition, got, c.aborted)
		}
		if text := b.text(t, r); !strings.Contains(text, c.in) {
			t.Errorf("%s on orders/%d says %q, want %q in it", c.group, c.partition, text, c.in)
		}
	}

	// The open transaction commits: its marker at orders/1@5 moves the LSO
	// to 6, and the read_committed group reads orders/1@4.
	step("commit")
	b.waitCount(t, cell(1, 4)+"[data-txn=committed]", 1)
	b.waitCount(t, cell(1, 5)+"[data-marker=commit]", 1)
	b.waitCount(t, lane(1)+`[data-last-stable-offset="6"]`, 1)
	// Its consumer is now 2 behind the LSO: the record and the marker.
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.recordsLag === "2"`, js(row("rc", 1))))
	b.click(t, member("rc", "c1")+" [data-action=poll]")
	waitLine("poll rc c1")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.read === "0 4"`, js(row("rc", 1))))

	// An idempotent producer's answer is lost: under the lanes, the page
	// says the broker dropped the retry, by its producer id and sequence.
	b.fill(t, "#named-producer-name", "idem")
	b.fill(t, "#named-producer-transactional-id", "")
	b.click(t, "#named-producer-make")
	b.waitCount(t, "[data-producer=idem][data-producer-state=idempotent]", 1)
	b.click(t, "[data-producer=idem] [data-command=wire][data-action=lose-response]")
	waitLine("wire idem lose-response")
	b.fill(t, "#produce-producer", "idem")
	b.fill(t, "#produce-partition", "0")
	b.fill(t, "#produce-value", "once")
	b.click(t, "#produce-send")
	waitLine("produce orders key=acct-1 value=once")
	dropped := `[data-wire-event=duplicate-dropped][data-wire-producer=idem][data-wire-partition="orders/0"]`
	b.waitCount(t, dropped, 1)
	id := b.attr(t, "[data-producer=idem]", "data-producer-id")
	if text := b.text(t, dropped); !strings.Contains(text, "producer id "+id+" sequence 0 is already at offset 4") {
		t.Errorf("the wire note says %q, want the producer id %s and sequence 0 the broker already holds at offset 4", text, id)
	}
	if n := b.count(t, lane(0)+` [data-offset]:not([data-marker])`); n != 3 {
		t.Errorf("orders/0 holds %d records besides its markers, want 3: the retry was not written again", n)
	}
	b.noErrors(t)
}
