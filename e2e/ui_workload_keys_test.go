package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// A teacher's lesson names its keys: a learner starts a producer workload
// through the Workloads form with keys of their own, a list drawn with
// zipf skew and then a pattern, and the lanes hold records with those
// keys and no key-N.
func TestUIWorkloadWithTheLearnersKeys(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic payments partitions=3")
	b.waitCount(t, `[data-topic=payments][data-partition]`, 3)
	b.click(t, `[data-dock-tab=time]`)
	b.waitFor(t, shown("#producer-key-names"))
	eval[bool](t, b, `(document.getElementById("producer-key-names").scrollIntoView({block: "center"}), true)`)
	for _, el := range []string{"#producer-key-names", "#producer-key-names-help"} {
		if problem := onScreen(t, b, el); problem != "" {
			t.Errorf("%s is %s", el, problem)
		}
	}
	if help := b.text(t, "#producer-key-names-help"); !contains(help, "acct-1,acct-2,acct-3", "tenant-{n}") {
		t.Errorf("the box's help says %q", help)
	}
	// The box and its help meet what the rest of the page meets.
	for _, v := range runAxe(t, b) {
		t.Errorf("the Time tab: %s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(v.Targets, ", "))
	}

	// A list, with the space a learner types after a comma: zipf makes
	// its first key the hottest, and the list is the keyspace.
	b.fill(t, "#producer-name", "tenants")
	b.fill(t, "#producer-topic", "payments")
	b.fill(t, "#producer-rate", "20/s")
	b.fill(t, "#producer-keys", "zipf")
	b.fill(t, "#producer-exponent", "2")
	b.fill(t, "#producer-key-names", "acct-1, acct-2, acct-3")
	b.waitFor(t, `document.getElementById("producer-keyspace").disabled`)
	b.click(t, "#producer-start")
	b.waitCount(t, `[data-workload="tenants"]`, 1)
	const listLine = "producer tenants payments rate=20/s keys=zipf exponent=2 keylist=acct-1,acct-2,acct-3"
	if got := b.text(t, `[data-workload="tenants"] code`); got != listLine {
		t.Errorf("the running producer shows %q, want %q", got, listLine)
	}
	b.fill(t, "#advance-duration", "2s")
	b.click(t, "#advance-go")
	b.waitFor(t, fmt.Sprintf(`%s === 40`, totalJS("payments")))
	keys := `[data-topic=payments] [data-key]`
	if n, own := b.count(t, keys), b.count(t, `[data-topic=payments] :is([data-key="acct-1"], [data-key="acct-2"], [data-key="acct-3"])`); n == 0 || own != n {
		t.Errorf("%d of the %d keyed records the lanes draw have the list's keys", own, n)
	}
	if hot, cold := b.count(t, `[data-topic=payments] [data-key="acct-1"]`), b.count(t, `[data-topic=payments] [data-key="acct-3"]`); hot <= cold {
		t.Errorf("acct-1 drawn %d times, acct-3 %d: the first key is not the hottest", hot, cold)
	}

	// A pattern: the number drawn goes where {n} is.
	b.fill(t, "#producer-keys", "uniform")
	b.fill(t, "#producer-keyspace", "5")
	b.fill(t, "#producer-key-names", "tenant-{n}")
	b.waitText(t, "#producer-start", "Replace producer tenants")
	b.click(t, "#producer-start")
	b.waitText(t, `[data-workload="tenants"] code`, "key=tenant-{n}")
	b.click(t, "#advance-go")
	b.waitFor(t, `document.querySelectorAll('[data-topic=payments] [data-key^="tenant-"]').length > 0`)
	if n := b.count(t, `[data-topic=payments] [data-key^="key-"]`); n != 0 {
		t.Errorf("%d records have key-N keys", n)
	}
	b.noErrors(t)
}

// contains reports whether s holds every one of parts.
func contains(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
