package e2e

import "testing"

// A learner starts a consumer workload on a share group's member with the
// Workloads form: the form leaves commit out (a share group commits no
// offsets, and says so), each poll at the workload's rate accepts the
// records of the one before, and the start offset moves past them as time
// passes. A crash stops the workload.
func TestUIShareWorkload(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=1\nproduce orders key=k value=v count=6\nshare-join work w1 topics=orders\nconfig group work share.auto.offset.reset=earliest\n")
	use := func(selector string) string { t.Helper(); return b.use(t, selector) }
	b.click(t, use("#dock-tab-time"))
	b.fill(t, use("#consumer-group"), "work")
	b.waitFor(t, shown(`[data-share-workload]`))
	b.waitFor(t, `document.querySelector("#consumer-commit").disabled && !document.querySelector("#consumer-commit").checked`)
	b.fill(t, use("#consumer-member"), "w1")
	b.fill(t, use("#consumer-rate"), "1/s")
	b.fill(t, use("#consumer-max"), "2")
	b.click(t, use("#consumer-start"))
	b.waitLine(t, "consumer work w1 rate=1/s max=2")
	b.waitCount(t, `[data-workload="work w1"]`, 1)

	b.fill(t, use("#advance-duration"), "2s")
	b.click(t, use("#advance-go"))
	b.waitLine(t, "advance 2s")
	// At 1 s the first poll took 0 and 1; at 2 s the second accepted them
	// and took 2 and 3.
	strip := `[data-share-group=work] [data-share-partition="orders/0"]`
	b.waitFor(t, `document.querySelector(`+js(strip)+`).dataset.spso === "2"`)
	for _, o := range []int{2, 3} {
		b.waitCount(t, shareRecord("work", "orders/0", o, "Acquired", "w1", 1), 1)
	}

	b.click(t, use(shareMember("work", "w1")+` [data-action=crash]`))
	b.waitCount(t, shareMember("work", "w1")+`[data-crashed]`, 1)
	b.waitCount(t, `[data-workload="work w1"]`, 0)
	b.fill(t, use("#advance-duration"), "3s")
	b.click(t, use("#advance-go"))
	b.waitLine(t, "advance 3s")
	if got := b.attr(t, strip, "data-spso"); got != "2" {
		t.Errorf("after the crash the start offset is %s: the workload polled a crashed member", got)
	}
	b.noErrors(t)
}
