package e2e

import (
	"strings"
	"testing"

	"plog/core/scenario"
)

// The share dialog offers the command that runs the scenario, as far as the
// page has stepped, on a real cluster with plogsim kafka.
func TestShareOffersTheClusterCommand(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	// Three steps applied, the rest kept for redo: a cluster cannot seek,
	// so the command carries the three.
	b.open(t, srv.URL+linkOf(t, ordersScenario)+"&at=3")
	b.openShareDialog(t)

	command := eval[string](t, b, `document.getElementById("cluster-command").value`)
	const prefix = "plogsim kafka --brokers localhost:9092 --link '#"
	if !strings.HasPrefix(command, prefix) || !strings.HasSuffix(command, "'") {
		t.Fatalf("cluster command %q, want %s…'", command, prefix)
	}
	script, err := scenario.DecodeLink(strings.TrimSuffix(strings.TrimPrefix(command, prefix), "'"))
	if err != nil {
		t.Fatalf("the command's link does not decode: %v", err)
	}
	want := strings.Join(strings.Split(ordersScenario, "\n")[:3], "\n")
	if withoutRules(script) != want {
		t.Errorf("the command runs\n%s\nwant the three applied steps\n%s", script, want)
	}
	b.noErrors(t)
}
