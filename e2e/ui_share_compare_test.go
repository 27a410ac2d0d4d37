package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// laneStripRecord is the selector of an in-flight record in a share
// group's strip under a lane, in the given state.
func laneStripRecord(group string, partition, offset int, state string) string {
	return fmt.Sprintf(`[data-topic=orders][data-partition="%d"][data-log-start] [data-share-strip=%s] [data-inflight="%d"][data-record-state=%s]`,
		partition, js(group), offset, state)
}

// A learner with the page's controls makes a share group of three
// explicit members on a topic of two partitions (more members than
// partitions: each still gets a partition), and watches the strip under
// the lane as one member accepts, releases and rejects records and another
// crashes, its record coming back once the clock passes the 30 s lock;
// the crashed member restarts from its card. The group's inspector counts
// the share-partition's records by state, and its Compare button runs the
// same workload through a consumer group beside it: there the third member
// gets nothing, and a crash stalls the partitions until the session times
// out, longer than the share group's lock.
func TestUIShareCompare(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	// use waits until a control is on the screen, as a learner sees it,
	// and gives its selector to act on.
	use := func(selector string) string { t.Helper(); return b.use(t, selector) }
	tab := func(name string) { t.Helper(); b.click(t, use("#dock-tab-"+name)) }

	tab("topics")
	b.fill(t, use("#topic-name"), "orders")
	b.fill(t, use("#topic-partitions"), "2")
	b.click(t, use("#topic-create"))
	b.waitCount(t, `[data-topic=orders][data-log-start]`, 2)
	tab("produce")
	b.fill(t, use("#produce-partition"), "0")
	b.fill(t, use("#produce-count"), "4")
	b.click(t, use("#produce-send"))
	b.waitCount(t, `[data-topic=orders][data-partition="0"] [data-offset="3"]`, 1)

	b.click(t, use(`[data-action=new-share-group]`))
	b.fill(t, use(`.share-join-form [name=group]`), "workers")
	b.fill(t, use(`.share-join-form [name=member]`), "s1")
	b.fill(t, use(`.share-join-form [name=topics]`), "orders")
	b.fill(t, use(`.share-join-form [name="share.acknowledgement.mode"]`), "explicit")
	for _, m := range []string{"s1", "s2", "s3"} {
		b.click(t, use(`.share-join-form button[type=submit]`))
		b.waitCount(t, shareMember("workers", m)+`[data-ack-mode=explicit]`, 1)
	}
	// The records came before the group: it reads them from the log start.
	b.fill(t, use(`[data-share-group=workers] .share-group-config select[name="share.auto.offset.reset"]`), "earliest")
	b.waitCount(t, `[data-control="share/workers/config"][role=alert]`, 0)

	var onZero []string
	for _, m := range []string{"s1", "s2", "s3"} {
		assigned := b.attr(t, shareMember("workers", m), "data-assigned")
		if assigned == "" {
			t.Errorf("%s got no partition: a share group gives every member work", m)
		}
		if strings.Contains(assigned, "orders/0") {
			onZero = append(onZero, m)
		}
	}
	if len(onZero) < 2 {
		t.Fatalf("members on orders/0: %v, want two sharing it", onZero)
	}
	a, other := onZero[0], onZero[1]
	poll := func(m string) {
		t.Helper()
		b.fill(t, use(shareMember("workers", m)+` [name=max]`), "1")
		b.click(t, use(shareMember("workers", m)+` [data-action=share-poll]`))
	}
	strip := `[data-topic=orders][data-partition="0"][data-log-start] [data-share-strip=workers]`

	// Accept: the record is done with, and SPSO moves past it.
	poll(a)
	b.waitCount(t, laneStripRecord("workers", 0, 0, "Acquired")+fmt.Sprintf(`[data-owner=%s][data-lock-left-ms="30000"]`, js(a)), 1)
	// The strip takes a line under the lane, inside it: the page does not
	// scroll sideways for it.
	if !eval[bool](t, b, fmt.Sprintf(`(() => {
		const lane = document.querySelector('[data-topic=orders][data-partition="0"][data-log-start]').getBoundingClientRect();
		const s = document.querySelector(%s).getBoundingClientRect();
		return s.left >= lane.left - 1 && s.right <= lane.right + 1 && s.top >= lane.top - 1 && s.bottom <= lane.bottom + 1 &&
			document.documentElement.scrollWidth <= window.innerWidth })()`, js(strip))) {
		t.Error("the share group's strip is not inside its lane, or the page scrolls sideways")
	}
	b.click(t, use(shareMember("workers", a)+` [data-action=accept]`))
	b.waitCount(t, strip+`[data-spso="1"]`, 1)
	// Release: available again; its next delivery is its second; Reject
	// archives it, and SPSO moves past it too.
	poll(a)
	b.waitCount(t, laneStripRecord("workers", 0, 1, "Acquired"), 1)
	b.click(t, use(shareMember("workers", a)+` [data-action=release]`))
	b.waitCount(t, laneStripRecord("workers", 0, 1, "Available")+`[data-delivery-count="1"]`, 1)
	poll(a)
	b.waitCount(t, laneStripRecord("workers", 0, 1, "Acquired")+`[data-delivery-count="2"]`, 1)
	b.click(t, use(shareMember("workers", a)+` [data-action=reject]`))
	b.waitCount(t, strip+`[data-spso="2"]`, 1)

	// The other member takes the next record and crashes; past its lock
	// the record is available again.
	poll(other)
	b.waitCount(t, laneStripRecord("workers", 0, 2, "Acquired")+fmt.Sprintf(`[data-owner=%s]`, js(other)), 1)
	b.click(t, use(shareMember("workers", other)+` [data-action=crash]`))
	b.waitCount(t, shareMember("workers", other)+`[data-crashed]`, 1)
	tab("time")
	b.fill(t, use("#advance-duration"), "31s")
	b.click(t, use("#advance-go"))
	b.waitCount(t, laneStripRecord("workers", 0, 2, "Available")+`[data-delivery-count="1"]`, 1)
	b.click(t, use(shareMember("workers", other)+` [data-action=come-back]`))
	b.waitCount(t, shareMember("workers", "s4")+`[data-ack-mode=explicit]`, 1)

	// The inspector, from the group's name.
	b.click(t, use(`[data-share-group=workers] [data-action=inspect-share-group]`))
	inspector := `[data-inspector=share-group][data-inspector-group=workers]`
	b.waitCount(t, inspector, 1)
	row := inspector + ` [data-share-row="orders/0"]`
	// Offsets 0 (accepted) and 1 (rejected) are below SPSO, done with;
	// offset 2 is available again; lag counts 2 and 3.
	if got := b.attr(t, row, "data-available") + "/" + b.attr(t, row, "data-acquired") + "/" + b.attr(t, row, "data-spso") + "/" + b.attr(t, row, "data-share-lag"); got != "1/0/2/2" {
		t.Errorf("the inspector's orders/0 counts available/acquired/SPSO/share lag %s, want 1/0/2/2", got)
	}
	b.waitCount(t, inspector+` [data-inspector-share-member=s4]`, 1)

	// The same workload through a consumer group, side by side.
	b.click(t, use(`[data-share-group=workers] [data-action=share-compare]`))
	consumer, share := inspector+` [data-share-compare-run=consumer]`, inspector+` [data-share-compare-run=share]`
	b.waitCount(t, share+`[data-stalled-ms]`, 1)
	b.waitCount(t, consumer+`[data-stalled-ms]`, 1)
	cs, _ := strconv.Atoi(b.attr(t, consumer, "data-stalled-ms"))
	ss, _ := strconv.Atoi(b.attr(t, share, "data-stalled-ms"))
	if ss < 30_000 || cs <= ss {
		t.Errorf("a crash stalled the consumer group %d ms and the share group %d ms: want the share group's lock (30s) shorter than the consumer group's session timeout", cs, ss)
	}
	if n := b.count(t, share+` .compare-delivery.again`); n == 0 {
		t.Error("the share group's run shows no record delivered a second time after the crash")
	}
	// Without the crash, picked in the form: three members on two
	// partitions leave one consumer group member idle, and none of the
	// share group's; nothing is delivered twice.
	b.fill(t, use(inspector+` .share-compare-form [name=crash]`), "-")
	b.click(t, use(inspector+` [data-action=run-share-compare]`))
	b.waitCount(t, share+`[data-stalled-ms]`, 0)
	b.waitCount(t, share+`[data-redelivered="0"]`, 1)
	if n := b.count(t, consumer+` [data-compare-member][data-records="0"]`); n != 1 {
		t.Errorf("%d consumer group members got nothing, want one: two partitions, three members", n)
	}
	if n := b.count(t, share+` [data-compare-member][data-records="0"]`); n != 0 {
		t.Errorf("%d share group members got nothing", n)
	}

	// On a 360 px phone the strips, the inspector and the runs side by side
	// stack, and nothing scrolls sideways.
	b.do(t, chromedp.EmulateViewport(360, 740))
	b.waitFor(t, `window.innerWidth === 360`)
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("at 360 px the page is %d px wide", w)
	}
	b.noErrors(t)
}
