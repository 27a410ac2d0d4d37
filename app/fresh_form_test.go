package app

import "testing"

// startAfresh keeps what the parent gave a form and go-app's own state,
// and puts what was typed back to the form's defaults.
func TestStartAfreshKeepsTheParentsFields(t *testing.T) {
	f := &ProduceForm{Links: 2, Step: 7, Producers: []string{"p"}}
	f.OnInit()
	f.key, f.value, f.noKey, f.partition, f.linksSeen = "pay-2", "refund", true, "3", 1
	startAfresh(f, (*ProduceForm).OnInit)
	if f.Links != 2 || f.Step != 7 || len(f.Producers) != 1 {
		t.Errorf("the parent's fields changed: links %d, step %d, producers %v", f.Links, f.Step, f.Producers)
	}
	fresh := &ProduceForm{}
	fresh.OnInit()
	if f.key != fresh.key || f.value != fresh.value || f.noKey || f.partition != "" || f.linksSeen != 0 {
		t.Errorf("what was typed stays: key %q, value %q, no key %v, partition %q", f.key, f.value, f.noKey, f.partition)
	}
}
