package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
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

// A named producer is an actor in the picture: on a wide screen its card
// stands left of the lanes, as the groups' members stand right of them;
// where the lanes need the width (1280x800, with the lesson and the
// groups beside them) it stands above them. Its buttons act on it, its
// own produce sends through it, and the record sent flies from its card
// to its lane.
func TestProducersStandBesideTheLanes(t *testing.T) {
	t.Parallel()
	r := openLesson(t, "transactions")
	b := r.b
	card := `[data-producer-column] [data-producer=shop]`
	lane := `[data-topic=orders][data-partition="0"]`
	b.do(t, chromedp.EmulateViewport(1800, 900))
	b.waitFor(t, `innerWidth === 1800`)
	if problem := onScreen(t, b, card); problem != "" {
		t.Fatalf("at 1800x900 shop's card is %s", problem)
	}
	producer, member := boxOf(t, b, card), boxOf(t, b, `[data-group=audit] [data-member=a1]`)
	if l := boxOf(t, b, lane); producer.Right > l.Left || l.Right > member.Left {
		t.Errorf("at 1800x900 producer %+v, lane %+v, member %+v: want them left to right", producer, l, member)
	}

	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.waitFor(t, `innerWidth === 1280`)
	if problem := onScreen(t, b, card); problem != "" {
		t.Fatalf("at 1280x800 shop's card is %s", problem)
	}
	producer, stage := boxOf(t, b, card), boxOf(t, b, ".stage")
	if l := boxOf(t, b, lane); producer.Bottom > l.Top || l.Right-l.Left < 0.9*(stage.Right-stage.Left) {
		t.Errorf("at 1280x800 producer %+v, lane %+v in the stage %+v: want the card above a lane as wide as the stage", producer, l, stage)
	}

	b.mouseClick(t, card+` [data-action=begin]`)
	r.did(t, "txn shop begin")
	b.waitCount(t, card+`[data-producer-state=in-transaction]`, 1)

	send := card + ` [data-action=produce]`
	for _, el := range []string{card + ` input[aria-label^="key"]`, card + ` select[aria-label^="topic"]`, send} {
		if problem := onScreen(t, b, el); problem != "" {
			t.Fatalf("%s is %s", el, problem)
		}
	}
	b.fill(t, card+` input[aria-label^="key"]`, "acct-7")
	b.fill(t, card+` select[aria-label^="topic"]`, "payments")
	before := eval[int](t, b, `window.plogFlights.length`)
	b.mouseClick(t, send)
	r.did(t, "produce payments key=acct-7 value=created producer=shop")
	f := flightsAfter(t, b, before)
	if from := boxOf(t, b, card); f.Kind != "produce" || !from.holds(f.From) {
		t.Errorf("the record flew %+v, want a produce from shop's card %+v", f, from)
	}

	// On a phone the card stands above the lanes, its buttons and folds
	// finger-sized.
	b.do(t, chromedp.EmulateViewport(390, 844))
	b.waitFor(t, `innerWidth === 390`)
	if producer, l := boxOf(t, b, card), boxOf(t, b, lane); producer.Bottom > l.Top {
		t.Errorf("on a phone producer %+v, lane %+v: want the card above", producer, l)
	}
	small := eval[[]string](t, b, `[...document.querySelectorAll(`+js(card+` :is(button:not(.help-button), summary)`)+`)].
		filter(el => { const r = el.getBoundingClientRect(); return r.width < 44 || r.height < 44 }).map(el => el.textContent)`)
	if len(small) > 0 {
		t.Errorf("on a phone these of shop's controls are under a finger's 44 px: %q", small)
	}
	b.noErrors(t)
}
