package e2e

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// Bad input is answered beside the control that got it, and changes
// nothing: not the lanes, not the script. The message goes at the next
// action.
func TestUIBadInputIsRefusedInPlace(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "")
	unchanged := func(what string, check func()) {
		t.Helper()
		lanes, steps := lanesOnPage(t, b), b.steps(t)
		check()
		if got := lanesOnPage(t, b); !reflect.DeepEqual(got, lanes) {
			t.Errorf("%s changed the lanes: %v, was %v", what, got, lanes)
		}
		if got := b.steps(t); got != steps {
			t.Errorf("%s changed the script: %s steps, was %s", what, got, steps)
		}
	}
	// refused waits for a new message beside the control: each case's
	// message differs from the one before, so a stale one is not taken.
	lastAlert := ""
	refused := func(control, what, wantText string) {
		t.Helper()
		b.waitFor(t, fmt.Sprintf(`(() => { const el = document.querySelector('[data-control=%s][role=alert]'); return !!el && el.textContent !== %s })()`, js(control), js(lastAlert)))
		lastAlert = b.alertOf(t, control)
		if msg := b.alertOf(t, control); !strings.Contains(msg, wantText) {
			t.Errorf("%s: the alert says %q, want it to mention %q", what, msg, wantText)
		}
		if n := b.count(t, "[role=alert]"); n != 1 {
			t.Errorf("%s: %d alerts on the page, want the one beside the control", what, n)
		}
	}

	for _, c := range []struct{ name, partitions, want string }{
		{"", "3", "name"},
		{"orders", "0", "partitions"},
		{"orders", "10000", "partitions"},
		{"orders", "three", "partitions"},
		{"bad name!", "1", "name"},
	} {
		what := fmt.Sprintf("topic %q with %q partitions", c.name, c.partitions)
		unchanged(what, func() {
			b.fill(t, "#topic-name", c.name)
			b.fill(t, "#topic-partitions", c.partitions)
			b.click(t, "#topic-create")
			refused("topic", what, c.want)
		})
	}

	// A good topic clears the message.
	b.fill(t, "#topic-name", "orders")
	b.fill(t, "#topic-partitions", "2")
	b.click(t, "#topic-create")
	b.waitCount(t, `[data-topic=orders][data-partition]`, 2)
	b.waitCount(t, "[role=alert]", 0)
	b.fill(t, "#produce-count", "4")
	b.click(t, "#produce-send")
	b.waitFor(t, totalJS("orders")+` === 4`)

	cases := []struct {
		what, control, want string
		do                  func()
	}{
		{"a non-numeric offset", "truncate", "before", func() {
			b.fill(t, "#truncate-before", "abc")
			b.click(t, "#truncate-go")
		}},
		{"an offset past the high watermark", "truncate", "high watermark", func() {
			b.fill(t, "#truncate-before", "99")
			b.click(t, "#truncate-go")
		}},
		{"a count of 0", "produce", "count", func() {
			b.fill(t, "#produce-count", "0")
			b.click(t, "#produce-send")
		}},
		{"a count that is no number", "produce", "count", func() {
			b.fill(t, "#produce-count", "many")
			b.click(t, "#produce-send")
		}},
		{"a tombstone without a key", "produce", "key", func() {
			b.fill(t, "#produce-count", "1")
			b.setChecked(t, "#produce-no-key", true)
			b.setChecked(t, "#produce-tombstone", true)
			b.click(t, "#produce-send")
			b.setChecked(t, "#produce-no-key", false)
			b.setChecked(t, "#produce-tombstone", false)
		}},
		{"fewer partitions", "partitions:orders", "partitions", func() {
			b.fill(t, "#partitions-orders", "1")
			b.click(t, "#partitions-go-orders")
		}},
		{"a duration that is none", "time", "duration", func() {
			b.fill(t, "#advance-duration", "soon")
			b.click(t, "#advance-go")
		}},
		{"a generator count that is no number", "generate", "number", func() {
			b.fill(t, "#generate-count", "lots")
			b.click(t, "#generate-sequence")
		}},
		{"a poll by nobody", "shortcuts", "member", func() {
			b.press(t, "o")
		}},
	}
	for _, c := range cases {
		unchanged(c.what, func() {
			c.do()
			refused(c.control, c.what, c.want)
		})
	}
	b.noErrors(t)
}

// badValues are what a careless or curious learner types.
var badValues = []string{"", "-1", "0", "abc", "99999999999999999999", `"`, "a b=c #x", "orders/0", "1e9", "🦀", strings.Repeat("x", 5000)}

// Every control, fed bad values and clicked, leaves a page that still
// answers: no panic, no uncaught error, and a produce still works.
func TestUIClickThroughWithBadValues(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `topic orders partitions=2 segment.records=3
produce orders key=k value=v count=5
join billing c1 topics=orders
advance 5s
`)
	for round, v := range badValues {
		eval[int](t, b, fmt.Sprintf(`(() => {
			const v = %s;
			const boxes = Array.from(document.querySelectorAll("main input[type=text], main input:not([type])"));
			for (const el of boxes) {
				el.value = v;
				el.dispatchEvent(new Event("input", {bubbles: true}));
				el.dispatchEvent(new Event("change", {bubbles: true}));
			}
			return boxes.length })()`, js(v)))
		// Play would keep the page changing for good, from any of its three
		// buttons (the timeline's, the presenter's, the embed's). A round queues
		// thousands of dispatches (a refused line sets a state each of the
		// page's many ControlErrors observes): more than go-app's channel
		// holds, which once stopped the program (third_party/go-app/PLOG.md).
		buttons := eval[int](t, b, `(() => {
			const leftOut = ["play", "present-play", "embed-play"];
			const all = Array.from(document.querySelectorAll("main button:not(:disabled)"));
			for (const el of all) { if (el.isConnected && !leftOut.includes(el.id)) el.click(); }
			return all.length })()`)
		if buttons < 10 {
			t.Fatalf("round %d: only %d buttons to click", round, buttons)
		}
		b.waitFor(t, `document.querySelector('main[data-ready="true"]') !== null`)
	}
	// The clicks of the last round may still be queued on the page's one
	// thread (a late undo, a late New topic): the page finishes them
	// before the check acts, or the check's own steps race them.
	b.waitQuiet(t)
	// The page still answers. The storm may have left anything: a lesson,
	// the presenter's view, every broker stopped (where no topic can be
	// made, rightly), so the check starts afresh and makes its own topic.
	if b.count(t, "#present-exit") > 0 {
		b.click(t, "#present-exit")
		b.waitCount(t, ".presenter-bar", 0)
	}
	b.startEmpty(t)
	b.fill(t, "#topic-name", "after-clicks")
	b.fill(t, "#topic-partitions", "1")
	b.fill(t, "#topic-retention", "")
	b.fill(t, "#topic-segment", "")
	b.fill(t, "#topic-configs", "")
	b.fill(t, "#topic-policy", "delete")
	b.click(t, "#topic-create")
	b.waitCount(t, `[data-topic=after-clicks][data-partition]`, 1)
	b.fill(t, "#produce-topic", "after-clicks")
	b.fill(t, "#produce-key", "still-here")
	b.fill(t, "#produce-value", "v")
	b.fill(t, "#produce-count", "1")
	b.setChecked(t, "#produce-no-key", false)
	b.setChecked(t, "#produce-tombstone", false)
	b.fill(t, "#produce-partition", "")
	b.click(t, "#produce-send")
	if !b.eventually(`document.querySelectorAll('[data-key="still-here"]').length >= 1`) {
		t.Errorf("after the click-through a produce shows nothing; alerts: %q; topics: %q; console: %v",
			eval[[]string](t, b, `Array.from(document.querySelectorAll("[role=alert]")).map(el => el.textContent)`),
			eval[[]string](t, b, `Array.from(document.querySelectorAll("[data-topic][data-partition]")).map(el => el.dataset.topic + "/" + el.dataset.partition)`),
			b.consoleTexts())
	}
	b.noErrors(t)
}
