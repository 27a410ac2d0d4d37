package app

import (
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// transactionsScript commits a transaction over both partitions of
// orders, aborts a second one, leaves a third open on orders/1, and has a
// read_committed and a read_uncommitted group poll.
var transactionsScript = strings.Join([]string{
	"topic orders partitions=2",
	"config group rc auto.offset.reset=earliest",
	"config group ru auto.offset.reset=earliest",
	"join rc c1 topics=orders",
	"join ru u1 topics=orders",
	"config group rc isolation.level=read_committed",
	"advance 6s",
	"producer-config idem",
	"produce orders producer=idem value=once partition=0", // orders/0@0
	"producer-config tp transactional.id=tx",
	"txn tp init",
	"txn tp begin",
	"produce orders producer=tp value=a partition=0", // orders/0@1
	"produce orders producer=tp value=b partition=1", // orders/1@0
	"txn tp commit",                                  // markers at orders/0@2 and orders/1@1
	"txn tp begin",
	"produce orders producer=tp value=c partition=0", // orders/0@3
	"produce orders producer=tp value=d partition=1", // orders/1@2
	"txn tp abort",                                   // markers at orders/0@4 and orders/1@3
	"txn tp begin",
	"produce orders producer=tp value=e partition=1", // orders/1@4, open
	"poll rc c1",
	"poll ru u1",
}, "\n")

// The lanes draw a transaction's records as open, committed or aborted,
// its markers at their offsets, and each lane's last stable offset beside
// its high watermark; the producers show in the picture with their ids,
// epochs and sequences; the two groups stand side by side, the
// read_committed one stopped at the LSO and past the aborted records, the
// read_uncommitted one at the high watermark with the aborted records
// read.
func TestThePictureDrawsTransactions(t *testing.T) {
	p, d := mountAt(t, mustLink(t, transactionsScript))
	if p.err != "" {
		t.Fatalf("unexpected alert: %s", p.err)
	}
	page := app.HTMLString(p)
	count := func(pairs ...string) int { return len(tagsWith(page, pairs...)) }
	for _, c := range []struct {
		pairs []string
		want  int
	}{
		{[]string{"data-txn", "committed"}, 2},
		{[]string{"data-txn", "aborted"}, 2},
		{[]string{"data-txn", "open"}, 1},
		{[]string{"data-marker", "commit"}, 2},
		{[]string{"data-marker", "abort"}, 2},
		{[]string{"data-marker", "commit", "data-offset", "2"}, 1},
		{[]string{"data-marker", "abort", "data-offset", "3"}, 1},
		{[]string{"data-topic", "orders", "data-partition", "0", "data-last-stable-offset", "5", "data-high-watermark", "5"}, 1},
		{[]string{"data-topic", "orders", "data-partition", "1", "data-last-stable-offset", "4", "data-high-watermark", "5"}, 1},
		{[]string{"data-lso-mark", "4"}, 1},
		{[]string{"data-lso-mark", "5"}, 1},
		// The producers in the picture: tp's epoch went 0, 1 (commit), 2
		// (abort); its sequences started again with the epoch.
		{[]string{"data-producer", "tp", "data-producer-id", "1", "data-producer-epoch", "2", "data-producer-state", "in-transaction"}, 1},
		{[]string{"data-producer", "idem", "data-producer-id", "0", "data-producer-state", "idempotent"}, 1},
		{[]string{"data-sequence", "orders/1", "data-next-sequence", "1"}, 1},
		{[]string{"data-sequence", "orders/0", "data-next-sequence", "1"}, 1}, // idem's
		// Side by side.
		{[]string{"data-isolation-group", "rc", "data-isolation-level", "read_committed"}, 1},
		{[]string{"data-isolation-group", "ru", "data-isolation-level", "read_uncommitted"}, 1},
	} {
		if got := count(c.pairs...); got != c.want {
			t.Errorf("%d elements with %v, want %d", got, c.pairs, c.want)
		}
	}
	// The idempotent producer's record is no transaction's.
	if tags := tagsWith(page, "data-topic", "orders", "data-partition", "0", "data-offset", "0"); len(tags) > 0 {
		t.Errorf("a lane's attributes hold a record's: %v", tags)
	}
	// The partition's inspector says its last stable offset too.
	inspect(t, p, d, selection{Kind: selectPartition, Topic: "orders", Partition: 1})
	if n := len(tagsWith(app.HTMLString(p), "data-inspector-lso", "4")); n != 1 {
		t.Errorf("the inspector of orders/1 shows %d last stable offsets of 4, want 1", n)
	}
	isolation := func(group string) string {
		t.Helper()
		start := strings.Index(page, `data-isolation-group="`+group+`"`)
		if start < 0 {
			t.Fatalf("no column for %s", group)
		}
		end := strings.Index(page[start:], "</article>")
		return page[start : start+end]
	}
	rc, ru := isolation("rc"), isolation("ru")
	row := func(column, tp string) string {
		t.Helper()
		tags := tagsWith(column, "data-isolation-partition", tp)
		if len(tags) != 1 {
			t.Fatalf("%d rows of %s", len(tags), tp)
		}
		return tags[0]
	}
	for _, c := range []struct {
		column, tp             string
		readsBelow, read, skip string
	}{
		{rc, "orders/0", "5", "0 1", "3"},
		{rc, "orders/1", "4", "0", "2"},
		{ru, "orders/0", "5", "0 1 3", "3"},
		{ru, "orders/1", "5", "0 2 4", "2"},
	} {
		r := row(c.column, c.tp)
		for _, attr := range []string{`data-reads-below="` + c.readsBelow + `"`, `data-read="` + c.read + `"`, `data-aborted="` + c.skip + `"`} {
			if !strings.Contains(r, attr) {
				t.Errorf("want %s in %s", attr, r)
			}
		}
	}
	for _, c := range []struct{ column, what string }{
		{rc, "stops at LSO 4 (HW 5)"},
		{rc, "skipped aborted 3"},
		{ru, "read aborted 3"},
		{ru, "stops at HW 5"},
	} {
		if !strings.Contains(c.column, c.what) {
			t.Errorf("want %s in %s", c.what, c.column)
		}
	}
}

// A retry after a lost answer: the page says the broker dropped the
// duplicate, by the producer id and sequence it already holds; with
// idempotence off, that the retry is written again.
func TestTheWireNoteSaysWhyADuplicateWasDropped(t *testing.T) {
	for _, c := range []struct {
		producer, event, says string
	}{
		{"producer-config idem", "duplicate-dropped", "producer id 0 sequence 0 is already at offset 0"},
		{"producer-config idem enable.idempotence=false", "response-lost", "the retry is written again"},
	} {
		p, d := mountAt(t, mustLink(t, strings.Join([]string{"topic orders", c.producer, "wire idem lose-response"}, "\n")))
		d.Context().NewActionWithValue(applyAction, applyRequest{Lines: []string{"produce orders producer=idem value=once"}})
		d.Consume()
		if p.err != "" {
			t.Fatalf("unexpected alert: %s", p.err)
		}
		page := app.HTMLString(p)
		tags := tagsWith(page, "data-wire-event", c.event, "data-wire-producer", "idem", "data-wire-partition", "orders/0")
		if len(tags) != 1 {
			t.Fatalf("%s: %d lines of %s in the wire note", c.producer, len(tags), c.event)
		}
		if !strings.Contains(page, c.says) {
			t.Errorf("%s: the wire note does not say %q", c.producer, c.says)
		}
	}
}
