package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// commandLine is the command line's box.
const commandLine = `[data-command-line]`

// typeInCommandLine clicks into the command line, as a learner does, and
// types keys there.
func (b *browser) typeInCommandLine(t *testing.T, keys ...string) {
	t.Helper()
	b.do(t, chromedp.Click(chromedp.CSS(commandLine)))
	for _, k := range keys {
		b.do(t, chromedp.KeyEvent(k))
	}
}

// commandLineValue is what the command line's box holds.
func (b *browser) commandLineValue(t *testing.T) string {
	t.Helper()
	return eval[string](t, b, `document.querySelector("[data-command-line]").value`)
}

// A learner types lines of the scenario language: Tab completes commands,
// topics and configs, Enter runs a line as one step of the timeline, a
// malformed line is refused beside the box and changes nothing, ↑ brings
// back the lines entered, and undo takes a command-line step back.
func TestUICommandLine(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "topic orders partitions=2\ntopic other\n")
	b.waitCount(t, `[data-topic][data-partition]`, 3)

	// A partial command: Tab fills in what produce, producer and
	// producer-config share and lists them, over the box.
	b.typeInCommandLine(t, "pro", kb.Tab)
	b.waitCount(t, `[data-completion]`, 3)
	if got := b.commandLineValue(t); got != "produce" {
		t.Fatalf("Tab on pro gives %q, want produce", got)
	}
	for _, c := range []string{"produce", "producer", "producer-config"} {
		if b.count(t, `[data-completion=`+js(c)+`]`) != 1 {
			t.Errorf("%s is not listed", c)
		}
	}
	if b.attr(t, commandLine, "aria-expanded") != "true" {
		t.Error("the box does not say its list is open")
	}
	// The arrow keys move through the list, Enter picks.
	b.do(t, chromedp.KeyEvent(kb.ArrowDown))
	b.waitFor(t, `document.querySelector("[data-command-line]").getAttribute("aria-activedescendant") === "command-line-completion-0"`)
	b.do(t, chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, `document.querySelector("[data-command-line]").value === "produce "`)
	// The box is written in the key's handler, the list closes as the page
	// draws again.
	b.waitCount(t, `[data-completion]`, 0)
	if b.count(t, `[data-completion]`) != 0 || b.steps(t) != "2" {
		t.Fatalf("picking produce: %d candidates still listed, %s steps", b.count(t, `[data-completion]`), b.steps(t))
	}

	// A topic's name: two start with o, one with or.
	b.do(t, chromedp.KeyEvent("o"), chromedp.KeyEvent(kb.Tab))
	b.waitCount(t, `[data-completion]`, 2)
	b.do(t, chromedp.KeyEvent("r"), chromedp.KeyEvent(kb.Tab))
	b.waitFor(t, `document.querySelector("[data-command-line]").value === "produce orders "`)

	// Enter runs the line: the record lands, the timeline grows by one,
	// the box empties. The page's shortcuts (p produces) did not fire
	// while typing: the timeline holds only the line.
	b.do(t, chromedp.KeyEvent("key=acct-1 value=typed"), chromedp.KeyEvent(kb.Enter))
	b.waitCount(t, `[data-topic=orders] [data-key="acct-1"]`, 1)
	b.waitFor(t, `document.querySelector(".timeline").dataset.length === "3"`)
	if got := b.commandLineValue(t); got != "" {
		t.Errorf("the box holds %q after its line ran", got)
	}
	if last := b.text(t, `#timeline-current`); !strings.Contains(last, "produce orders key=acct-1 value=typed") {
		t.Errorf("the timeline's current step is %q", last)
	}

	// A config's name, with its default said in the list.
	b.typeInCommandLine(t, "config topic or", kb.Tab, "retention.", kb.Tab)
	b.waitCount(t, `[data-completion="retention.ms="]`, 1)
	if note := b.text(t, `[data-completion="retention.ms="]`); !strings.Contains(note, "Kafka's default 7d") {
		t.Errorf("retention.ms's entry says %q, want Kafka's default", note)
	}
	b.do(t, chromedp.KeyEvent("m"), chromedp.KeyEvent(kb.Tab))
	b.waitFor(t, `document.querySelector("[data-command-line]").value === "config topic orders retention.ms="`)
	b.do(t, chromedp.KeyEvent("2h"), chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, `document.querySelector(".timeline").dataset.length === "4"`)

	// A malformed line: the language's message beside the box, the state
	// and the box as they were.
	b.typeInCommandLine(t, "produce orders count=x", kb.Enter)
	b.waitCount(t, `[data-control="command-line"][role=alert]`, 1)
	if msg := b.alertOf(t, "command-line"); msg != `count: expected a whole number, got "x"` {
		t.Errorf("the refusal says %q", msg)
	}
	if b.steps(t) != "4" || b.count(t, `[data-topic=orders] [data-offset]`) != 1 {
		t.Errorf("a refused line changed the page: %s steps, %d records", b.steps(t), b.count(t, `[data-topic=orders] [data-offset]`))
	}
	if got := b.commandLineValue(t); got != "produce orders count=x" {
		t.Errorf("the refused line is not kept to fix: %q", got)
	}

	// ↑ walks back through the lines entered, the refused one too.
	b.do(t, chromedp.KeyEvent(kb.ArrowUp))
	b.do(t, chromedp.KeyEvent(kb.ArrowUp))
	b.waitFor(t, `document.querySelector("[data-command-line]").value === "config topic orders retention.ms=2h"`)
	b.do(t, chromedp.KeyEvent(kb.ArrowDown))
	b.waitFor(t, `document.querySelector("[data-command-line]").value === "produce orders count=x"`)

	// Undo takes the command line's last step back, as any control's.
	b.click(t, "#undo")
	b.waitFor(t, `document.querySelector(".timeline").dataset.position === "3"`)

	// With the list open and an entry highlighted, axe-core finds nothing
	// serious in the command line.
	b.do(t, chromedp.Click(chromedp.CSS(commandLine)))
	b.do(t, chromedp.KeyEvent(kb.End))
	for range 30 {
		b.do(t, chromedp.KeyEvent(kb.Backspace))
	}
	b.do(t, chromedp.KeyEvent("produce orders "), chromedp.KeyEvent(kb.Tab), chromedp.KeyEvent(kb.Tab))
	b.waitFor(t, `document.querySelector("[data-command-line]").getAttribute("aria-activedescendant") === "command-line-completion-0"`)
	for _, v := range runAxe(t, b) {
		for _, target := range v.Targets {
			if strings.Contains(target, "command-line") || strings.Contains(target, "completion") {
				t.Errorf("axe: %s (%s): %s at %s", v.ID, v.Impact, v.Help, target)
			}
		}
	}
	// A click picks too, and the box keeps the focus to type on.
	b.do(t, chromedp.Click(chromedp.CSS(`[data-completion="count="]`)))
	b.waitFor(t, `document.querySelector("[data-command-line]").value === "produce orders count="`)
	b.do(t, chromedp.KeyEvent("2"), chromedp.KeyEvent(kb.Enter))
	b.waitFor(t, `document.querySelector(".timeline").dataset.length === "4" && document.querySelector("[data-command-line]").value === ""`)
	if got := b.text(t, `#timeline-current`); !strings.Contains(got, "produce orders count=2") {
		t.Errorf("after a click and typing on, the current step is %q", got)
	}
	// That line, at an earlier step, put the steps after it aside: the
	// timeline says so above its script, and the box keeps the focus.
	b.waitCount(t, `[data-branch-at]`, 1)
	if !eval[bool](t, b, `document.activeElement === document.querySelector("[data-command-line]")`) {
		t.Error("the box lost the focus when the timeline drew its notice")
	}
	// Escape closes the list.
	b.do(t, chromedp.KeyEvent("p"), chromedp.KeyEvent(kb.Tab))
	b.waitCount(t, `[data-completion]`, 5) // partitions, poll, produce, producer, producer-config
	b.do(t, chromedp.KeyEvent(kb.Escape))
	b.waitCount(t, `[data-completion]`, 0)
	b.noErrors(t)

	// A read-only page takes no commands: it shows no command line.
	ro := startPlogServer(t, build.rootSite, "/")
	b.open(t, ro.URL+linkOf(t, "topic orders\n")+"&readonly=1")
	if n := b.count(t, commandLine); n != 0 {
		t.Errorf("a read-only page shows %d command lines", n)
	}
}

// The command line's example runs where it is shown: a learner on an
// empty scenario who types what the box suggests gets a topic, and then,
// typing the new suggestion, a record in it.
func TestUICommandLineExampleRunsHere(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL)
	b.startEmpty(t)
	placeholder := func() string {
		return strings.TrimPrefix(b.attr(t, commandLine, "placeholder"), "e.g. ")
	}
	if got := placeholder(); got != "topic orders partitions=3" {
		t.Fatalf("on an empty scenario the command line suggests %q", got)
	}
	b.typeInCommandLine(t, placeholder(), kb.Enter)
	b.waitCount(t, `[data-topic="orders"][data-partition]`, 3)
	b.waitFor(t, `document.querySelector("[data-command-line]").placeholder === "e.g. produce orders key=k1 value=hello"`)
	b.typeInCommandLine(t, placeholder(), kb.Enter)
	b.waitCount(t, `[data-topic="orders"] [data-offset]`, 1)
	if where := onScreen(t, b, commandLine); where != "" {
		t.Errorf("the command line is %s", where)
	}
}
