package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// pageState is what a learner sees besides the lanes: the clock, the
// groups and their members, and the topics the produce form offers.
func pageState(t *testing.T, b *browser) string {
	t.Helper()
	return eval[string](t, b, `JSON.stringify({
		clock: document.querySelector(".clock").dataset.timeMs,
		groups: Array.from(document.querySelectorAll("article[data-group]")).map(g =>
			g.dataset.group + ":" + Array.from(g.querySelectorAll("[data-member]")).map(m => m.dataset.member).join(",")),
		produceTopics: Array.from(document.querySelectorAll("#produce-topic option")).map(o => o.value),
	})`)
}

// A broker crash takes a partition whose only replica it held offline. The
// page draws that partition as offline, its records kept and marked
// unavailable, says why, and changes nothing else; a link at that step
// opens the same way.
func TestUIBrokerCrashLeavesAnOfflinePartitionDrawn(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	b.fill(t, "#topic-configs", "replication.factor=1")
	b.createTopic(t, "solo", 2)
	b.fill(t, "#topic-configs", "replication.factor=3")
	b.createTopic(t, "safe", 1)

	for _, p := range []struct{ topic, partition, count string }{{"solo", "0", "3"}, {"safe", "", "2"}} {
		b.fill(t, "#produce-topic", p.topic)
		b.fill(t, "#produce-partition", p.partition)
		b.fill(t, "#produce-key", "k")
		b.fill(t, "#produce-count", p.count)
		b.click(t, "#produce-send")
	}
	b.waitCount(t, `[data-topic=solo][data-partition="0"] [data-offset]`, 3)
	b.waitFor(t, `document.querySelector('[data-replicas-of="safe/0"]') && document.querySelector('[data-replicas-of="safe/0"]').dataset.logEnd === "2"`)
	b.joinMember(t, "billing", "c1", "safe", "range", "")
	b.waitCount(t, member("billing", "c1"), 1)
	b.click(t, "#advance-1s")
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "1000"`)
	b.waitCount(t, `[data-topic=safe][data-partition="0"] [data-offset]`, 2)

	lanesBefore, stateBefore := lanesOnPage(t, b), pageState(t, b)
	b.click(t, `.broker[data-broker="1"] [data-broker-action=crash]`)
	b.waitFor(t, `document.querySelector('.broker[data-broker="1"]').dataset.status === "down"`)

	checkOffline := func(when string) {
		t.Helper()
		solo := `[data-topic=solo][data-partition="0"]`
		b.waitFor(t, fmt.Sprintf(`!!document.querySelector(%s)`, js(solo+`[data-offline=true]`)))
		if n := b.count(t, solo+` [data-offset]`); n != 3 {
			t.Errorf("%s: the offline partition draws %d records, want its 3", when, n)
		}
		b.waitText(t, solo+" .lane-offline", "its only replica is on broker 1, which is down")
		if got := fmt.Sprint(lanesOnPage(t, b)); got != fmt.Sprint(lanesBefore) {
			t.Errorf("%s: lanes\n%s\nwant as before the crash\n%v", when, got, lanesBefore)
		}
		if got := pageState(t, b); got != stateBefore {
			t.Errorf("%s: the page shows %s, before the crash %s", when, got, stateBefore)
		}
		if n := b.count(t, `[data-topic][data-offline=true]`); n != 1 {
			t.Errorf("%s: %d lanes offline, want 1", when, n)
		}
		if alert := b.text(t, "main > [role=alert]"); alert != "" {
			t.Errorf("%s: the page alerts %q", when, alert)
		}
	}
	checkOffline("after the crash")
	for _, v := range runAxe(t, b) {
		t.Errorf("with an offline partition: %s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}

	// The link of that step opens the same way.
	b.waitURLSteps(t, 7)
	b.reopen(t, eval[string](t, b, `location.href`))
	checkOffline("opened from its link")
	b.noErrors(t)
}
