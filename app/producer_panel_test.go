package app

import (
	"strings"
	"testing"

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
