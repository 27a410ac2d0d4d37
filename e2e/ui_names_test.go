package e2e

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"plog/core/scenario"
)

// waitSaved waits until the page's URL holds a script that has text, and
// the browser's storage holds that same link: the page's delayed save has
// happened.
func (b *browser) waitSaved(t *testing.T, text string) {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	for {
		f, err := scenario.ParseFragment(b.fragment(t))
		script, derr := scenario.DecodeLink(f.Link)
		if err == nil && derr == nil && strings.Contains(script, text) &&
			eval[bool](t, b, `(localStorage.getItem("plog.workspace") || "").includes(`+js(f.Link)+`)`) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the page never saved a script with %q (URL script %q, %v %v)", text, script, err, derr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// alerts is the text of every alert on the page, "" for none.
func alerts(t *testing.T, b *browser) string {
	t.Helper()
	return eval[string](t, b, `Array.from(document.querySelectorAll("[role=alert]")).map(el => el.textContent).join(" ").trim()`)
}

// dropFile drops a file on the page as a learner drags one from their
// desktop.
func (b *browser) dropFile(t *testing.T, name, text string) {
	t.Helper()
	eval[bool](t, b, `(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([`+js(text)+`], `+js(name)+`, {type: "text/plain"}));
		for (const type of ["dragenter", "dragover", "drop"]) {
			document.body.dispatchEvent(new DragEvent(type, {dataTransfer: dt, bubbles: true, cancelable: true}));
		}
		return true })()`)
}

// A topic named like a flag word (tombstone) is made and produced to with
// the page's controls, and its records are still there after a reload and
// in the reopened workspace; a dropped .plog that produces to it is saved
// too, and one saved with a byte-order mark opens.
func TestTopicNamedLikeAFlagKeepsItsRecords(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL)
	b.startEmpty(t)
	b.createTopic(t, "tombstone", 2)
	b.fill(t, "#produce-key", "k")
	b.fill(t, "#produce-value", "v")
	b.fill(t, "#produce-count", "3")
	b.click(t, "#produce-send")
	records := `[data-topic=tombstone] [data-offset]`
	b.waitCount(t, records, 3)
	if alert := alerts(t, b); alert != "" {
		t.Errorf("producing to topic tombstone: alert %q", alert)
	}
	b.waitSaved(t, `produce "tombstone" key=k value=v count=3`)
	b.reload(t)
	b.waitCount(t, records, 3)
	b.reopen(t, srv.URL)
	b.waitCount(t, records, 3)

	dropped := "topic tombstone partitions=1\nproduce \"tombstone\" key=k value=dropped count=2\n"
	b.dropFile(t, "dropped.plog", dropped)
	b.waitCount(t, `[data-topic=tombstone][data-partition]`, 1)
	b.waitSaved(t, "value=dropped count=2")
	b.reload(t)
	checkLanes(t, b, dropped)

	withBOM := "\uFEFFtopic bom partitions=2\nproduce bom key=k count=2\n"
	b.dropFile(t, "notepad.plog", withBOM)
	b.waitCount(t, `[data-topic=bom][data-partition]`, 2)
	checkLanes(t, b, withBOM)
	b.noErrors(t)
}

// A link whose payload carries base64's '=' padding, one that names a topic
// tombstone without quotes (as links were written before), and one whose
// script starts with a byte-order mark, open their scenarios.
func TestPaddedAndByteOrderMarkedLinksOpen(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	// The first of these scripts whose link base64 pads.
	var script, padded string
	for n := 1; padded == ""; n++ {
		script = fmt.Sprintf("topic orders partitions=2\nproduce orders key=a count=%d\n", n)
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(linkOf(t, script), "#v1."))
		if err != nil {
			t.Fatal(err)
		}
		if p := base64.URLEncoding.EncodeToString(raw); strings.HasSuffix(p, "=") {
			padded = "#v1." + p
		}
	}
	b.reopen(t, srv.URL+padded)
	checkLanes(t, b, script)
	b.reopen(t, srv.URL+padded+"&at=1")
	b.waitCount(t, `[data-topic=orders][data-partition]`, 2)
	if got := b.position(t); got != "1/2" {
		t.Errorf("a padded link with at=1 opened at %s", got)
	}
	// A link written before names spelled like flags were quoted.
	unquoted := "topic tombstone partitions=2\nproduce tombstone key=a count=2\nproduce tombstone key=a tombstone\n"
	b.reopen(t, srv.URL+linkOf(t, unquoted))
	b.waitCount(t, `[data-topic=tombstone] [data-offset]`, 3)
	checkLanes(t, b, unquoted)

	bom := "\uFEFFtopic marked partitions=2\nproduce marked key=a count=2\n"
	b.reopen(t, srv.URL+linkOf(t, bom))
	b.waitCount(t, `[data-topic=marked][data-partition]`, 2)
	checkLanes(t, b, bom)
	if alert := alerts(t, b); alert != "" {
		t.Errorf("a link with a byte-order mark: alert %q", alert)
	}
	b.noErrors(t)
}
