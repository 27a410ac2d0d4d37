package e2e

import (
	"strings"
	"testing"
)

// A learner reads a control's help, follows its "differs from Kafka" link,
// and lands on that entry of "How plog differs from Kafka", in the help
// panel, unfolded and focused; under a sub-path the masthead's Help button
// opens the panel, whose fold opens the list.
func TestUIDifferencesFromHelp(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=2\nproduce orders key=k value=v count=3\n")
	b.waitCount(t, `[data-topic=orders][data-partition]`, 2)
	if open := eval[bool](t, b, `document.getElementById("differences-details").open`); open {
		t.Fatal("the list of differences is open before anything asked for it")
	}

	// The segment's help, in the lanes' legend, says where plog differs.
	// The legend is folded: the learner opens it first.
	help := `.legend [data-help="segment"]`
	b.mouseClick(t, `.legend-fold > summary`)
	b.waitCount(t, help+" .help-button", 1)
	b.click(t, help+" .help-button")
	b.waitCount(t, help+` .help-popover [data-difference-link="segment.records"]`, 1)
	b.click(t, help+` .help-popover [data-difference-link="segment.records"]`)
	b.waitFor(t, `document.getElementById("differences-details").open === true`)
	b.waitFor(t, `document.activeElement && document.activeElement.dataset.difference === "segment.records"`)
	if where := onScreen(t, b, `[data-difference="segment.records"] h3`); where != "" {
		t.Errorf("the entry the link opened is %s", where)
	}
	entry := b.text(t, `[data-difference="segment.records"]`)
	for _, want := range []string{"segment.records (the playground's own)", "Kafka 4.4: Kafka has no such config. Segments roll by size", "plog: The active segment rolls once it holds this many records", "Why: So that segments"} {
		if !strings.Contains(entry, want) {
			t.Errorf("the entry says %q, want %q in it", entry, want)
		}
	}
	if got := b.text(t, "#differences"); !strings.Contains(got, "plog follows Apache Kafka 4.4") {
		t.Errorf("the list does not name the Kafka version: %q", got)
	}

	// The topic config form's help links to the chosen config's entry.
	b.fill(t, "#config-name", "retention.ms")
	b.waitCount(t, `#config-help [data-difference-link="retention.ms"]`, 1)
	b.click(t, `#config-help [data-difference-link="retention.ms"]`)
	b.waitFor(t, `document.activeElement && document.activeElement.dataset.difference === "retention.ms"`)
	if got := b.text(t, `[data-difference="retention.ms"]`); !strings.Contains(got, "Kafka 4.4: Default 7d.") || !strings.Contains(got, "plog: Default 1h") {
		t.Errorf("retention.ms's entry says %q", got)
	}

	// Under a sub-path, the masthead's button opens the list.
	s := startPlogServer(t, build.subSite, subPath)
	sub := newBrowser(t)
	sub.open(t, s.URL)
	sub.mouseClick(t, "#help-open")
	sub.waitFor(t, `!document.getElementById("help").hidden`)
	sub.mouseClick(t, `#differences-details > summary`)
	sub.waitFor(t, `document.getElementById("differences-details").open === true`)
	sub.waitCount(t, `[data-difference="virtual-time"]`, 1)
}

// The list's entries are drawn once the fold first opens: a learner who
// opens it by its summary reads every entry, on screen.
func TestUIDifferencesOpenByTheirSummary(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=2\n")
	if n := b.count(t, `#differences [data-difference]`); n != 0 {
		t.Errorf("the folded list drew %d entries before it opened", n)
	}
	b.mouseClick(t, "#help-open")
	b.waitFor(t, `!document.getElementById("help").hidden`)
	b.mouseClick(t, `#differences-details > summary`)
	b.waitFor(t, `document.getElementById("differences-details").open === true`)
	b.waitFor(t, `document.querySelectorAll("#differences [data-difference]").length > 10`)
	if got := b.text(t, `[data-difference="segment.records"]`); !strings.Contains(got, "Kafka 4.4: Kafka has no such config.") {
		t.Errorf("segment.records's entry says %q", got)
	}
	// Scrolled to, as a learner scrolls down to it, the first entry is on
	// screen and nothing covers it.
	seen := eval[bool](t, b, `(() => {
		const el = document.querySelector("#differences [data-difference]");
		el.scrollIntoView({block: "nearest"});
		const r = el.getBoundingClientRect();
		if (r.height < 10 || r.top < 0 || r.bottom > innerHeight || r.left < 0 || r.right > innerWidth) return false;
		const at = document.elementFromPoint(r.left + r.width / 2, r.top + 5);
		return !!at && el.contains(at) && el.textContent.includes("Why:") })()`)
	if !seen {
		t.Error("the opened list's first entry is not on screen")
	}
}
