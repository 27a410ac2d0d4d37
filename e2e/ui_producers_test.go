package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// A learner makes named producers with the Producers panel of the Produce
// tab: a refused combination says Kafka's words and makes nothing; an
// idempotent producer whose answer is lost retries, and the partition
// holds the record once; a transactional producer inits, begins, produces
// and aborts, and its card shows the epoch the abort bumped; a group's
// configuration reads committed records only.
func TestUIProducers(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=1\njoin billing c1 topics=orders")
	waitLine := func(prefix string) {
		t.Helper()
		b.waitFor(t, fmt.Sprintf(`(document.querySelector("#timeline-script li:last-child .script-line") || {}).textContent.trim().startsWith(%s)`, js(prefix)))
	}
	records := `[data-topic=orders][data-partition="0"] [data-offset]`

	// acks=1 with enable.idempotence=true set: Kafka's ConfigException.
	b.fill(t, "#named-producer-name", "idem")
	b.fill(t, "#named-producer-acks", "1")
	b.fill(t, "#named-producer-idempotence", "true")
	b.click(t, "#named-producer-make")
	b.waitFor(t, `document.querySelector('[data-control="producer-config"][role=alert]') !== null`)
	if alert := b.alertOf(t, "producer-config"); !strings.Contains(alert, "Must set acks to all") {
		t.Errorf("the refusal says %q, want Kafka's ConfigException", alert)
	}
	if b.count(t, "[data-producer]") != 0 {
		t.Fatal("a refused producer-config made a producer")
	}

	// Kafka's defaults: idempotent.
	b.fill(t, "#named-producer-acks", "")
	b.fill(t, "#named-producer-idempotence", "")
	b.click(t, "#named-producer-make")
	b.waitCount(t, `[data-producer=idem][data-producer-state=idempotent]`, 1)
	b.click(t, `[data-producer=idem] [data-command=wire][data-action=lose-response]`)
	waitLine("wire idem lose-response")
	b.fill(t, "#produce-producer", "idem")
	b.fill(t, "#produce-value", "once")
	b.click(t, "#produce-send")
	waitLine("produce orders")
	if got := b.lastLine(t); !strings.Contains(got, "producer=idem") {
		t.Fatalf("the produce form sent %q, not through idem", got)
	}
	b.waitCount(t, records, 1)
	if id := b.attr(t, "[data-producer=idem]", "data-producer-id"); id == "-1" || id == "" {
		t.Errorf("the idempotent producer shows no producer id: %q", id)
	}

	// A transactional producer, aborted.
	b.fill(t, "#named-producer-name", "pay")
	b.fill(t, "#named-producer-transactional-id", "pay-tx")
	b.click(t, "#named-producer-make")
	card := "[data-producer=pay]"
	b.waitCount(t, card+"[data-producer-state=uninitialized]", 1)
	b.click(t, card+" [data-command=txn][data-action=init]")
	b.waitCount(t, card+"[data-producer-state=ready]", 1)
	epoch, err := strconv.Atoi(b.attr(t, card, "data-producer-epoch"))
	if err != nil {
		t.Fatal(err)
	}
	b.click(t, card+" [data-command=txn][data-action=begin]")
	waitLine("txn pay begin")
	b.fill(t, "#produce-producer", "pay")
	b.fill(t, "#produce-values", "x,y")
	b.click(t, "#produce-send")
	waitLine("produce orders")
	if got := b.lastLine(t); !strings.Contains(got, "producer=pay") || !strings.Contains(got, "values=x,y") {
		t.Fatalf("the produce form sent %q", got)
	}
	b.click(t, card+" [data-command=txn][data-action=abort]")
	waitLine("txn pay abort")
	b.waitFor(t, fmt.Sprintf(`Number(document.querySelector(%s).dataset.producerEpoch) > %d`, js(card), epoch))

	g := b.groupInspector(t, "billing")
	b.fill(t, g+` .group-config [name="isolation.level"]`, "read_committed")
	waitLine("config group billing isolation.level=read_committed")
	b.noErrors(t)
}
