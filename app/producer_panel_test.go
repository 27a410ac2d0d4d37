package app

import (
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The producers panel shows each named producer as the engine has it: an
// idempotent producer's id, and a transactional producer's epoch, bumped
// by the abort (a transaction's end, under KIP-890), and state; only the transactional one has the
// transaction's buttons, and the produce form offers both producers.
func TestProducerPanelShowsTheEnginesProducers(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, strings.Join([]string{
		"topic orders",
		"producer-config idem",
		"producer-config plain acks=1",
		"producer-config pay transactional.id=pay-tx",
		"produce orders producer=idem values=a,b",
		"txn pay init",
		"txn pay begin",
		"produce orders producer=pay value=x",
		"txn pay abort",
	}, "\n")))
	if p.err != "" {
		t.Fatalf("unexpected alert: %s", p.err)
	}
	page := app.HTMLString(p)
	for _, c := range []struct{ name, id, epoch, state string }{
		{"idem", "0", "0", "idempotent"},
		{"plain", "-1", "0", "plain"},
		{"pay", "1", "1", "ready"},
	} {
		tags := tagsWith(page, "data-producer", c.name)
		if len(tags) != 1 {
			t.Fatalf("producer %s: %d cards", c.name, len(tags))
		}
		for _, attr := range []string{`data-producer-id="` + c.id + `"`, `data-producer-epoch="` + c.epoch + `"`, `data-producer-state="` + c.state + `"`} {
			if !strings.Contains(tags[0], attr) {
				t.Errorf("producer %s: want %s in %s", c.name, attr, tags[0])
			}
		}
	}
	if n := len(tagsWith(page, "data-command", scenario.CmdTxn)); n != len(scenario.TxnActions) {
		t.Errorf("%d transaction buttons, want one of each step for the one transactional producer", n)
	}
	if n := len(tagsWith(page, "data-command", scenario.CmdWire)); n != 3*len(scenario.WireFaults) {
		t.Errorf("%d wire buttons, want each fault for each of the 3 producers", n)
	}
	if !strings.Contains(page, "transactional.id pay-tx") {
		t.Error("the transactional producer's card does not say its transactional.id")
	}
	for _, name := range []string{"idem", "plain", "pay"} {
		if len(tagsWith(page, "value", name)) == 0 {
			t.Errorf("the produce form's producer select does not offer %s", name)
		}
	}
	if _, problem := (&ProducerPanel{}).Line(); problem == "" {
		t.Error("a producer with no name must be refused before the engine sees it")
	}
}

// A producer's card says which of its next requests an armed wire fault
// will hit, and draws the next step of its transaction filled.
func TestProducerCardSaysWhatIsArmed(t *testing.T) {
	for _, c := range []struct {
		faults []core.PendingFault
		want   string
	}{
		{[]core.PendingFault{{Fault: core.LoseResponse, After: 0, Count: 1}}, "armed: the answer to the next request will be lost"},
		{[]core.PendingFault{{Fault: core.LoseRequest, After: 0, Count: 3}}, "armed: the next 3 requests will be lost before the broker"},
		{[]core.PendingFault{{Fault: core.LoseRequest, After: 2, Count: 1}, {Fault: core.LoseResponse, After: 0, Count: 1}},
			"armed: 1 request after the next 2 will be lost before the broker; the answer to the next request will be lost"},
	} {
		if got := armedText(c.faults); got != c.want {
			t.Errorf("armedText(%+v) = %q, want %q", c.faults, got, c.want)
		}
	}
	for state, next := range map[string]string{"uninitialized": "init", "ready": "begin", "in-transaction": "commit"} {
		for _, action := range []string{"init", "begin", "commit"} {
			if filled := txnRole(state, action) == rolePrimary; filled != (action == next) {
				t.Errorf("in state %s, %s is drawn filled: %v", state, action, filled)
			}
		}
	}
}
