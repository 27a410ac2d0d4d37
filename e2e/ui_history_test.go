package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"plog/core"
)

// openPlaygroundWith opens the page on a scenario's link followed by
// parameters, such as "&at=3".
func openPlaygroundWith(t *testing.T, script, params string) *browser {
	t.Helper()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL+linkOf(t, script)+params)
	return b
}

// timelineLines is every line the timeline's script shows.
func (b *browser) timelineLines(t *testing.T) []string {
	t.Helper()
	return eval[[]string](t, b, `Array.from(document.querySelectorAll(".script-line")).map(el => el.textContent)`)
}

// waitPosition waits until the timeline says "position/length".
func (b *browser) waitPosition(t *testing.T, want string) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`(() => { const tl = document.querySelector(".timeline"); return tl.dataset.position + "/" + tl.dataset.length === %s })()`, js(want)))
}

// checkSlider fails the test unless the slider's thumb, its label and the
// timeline agree on the position.
func (b *browser) checkSlider(t *testing.T, when string) {
	t.Helper()
	// The thumb is set after the render that writes the label
	// (Timeline.afterRender): a read between the two, on a busy machine,
	// saw it a step behind for the moment before it moved. It must agree
	// within a few frames.
	var got string
	for range 20 {
		got = eval[string](t, b, `(() => {
		const s = document.querySelector("#timeline-slider"), tl = document.querySelector(".timeline");
		const label = document.querySelector('label[for="timeline-slider"]');
		return [s.value, s.max, tl.dataset.position, tl.dataset.length, label ? label.textContent : "no label"].join(" ") })()`)
		f := strings.Fields(got)
		if len(f) >= 4 && f[0] == f[2] && f[1] == f[3] && strings.Contains(got, fmt.Sprintf("Step %s of %s", f[2], f[3])) {
			return
		}
		b.waitFor(t, `new Promise(r => requestAnimationFrame(() => r(true)))`)
	}
	t.Errorf("%s: slider value, max, position, length, label = %s; the thumb must sit where the label says", when, got)
}

// Play from an earlier step walks through the steps that are there, and
// adds clock steps only at the end; a command at an earlier step keeps the
// steps it replaces, to bring back, in the URL too; a read-only embed plays
// its steps and never adds one.
func TestUIPlayAndActingAtAnEarlierStepKeepEveryStep(t *testing.T) {
	t.Parallel()
	script := "topic t partitions=1\n" + strings.Repeat("produce t key=k value=v\n", 7)
	b := openPlayground(t, script)
	b.waitPosition(t, "8/8")
	original := b.timelineLines(t)
	b.click(t, `.script-line[data-step="5"]`)
	b.waitPosition(t, "5/8")

	b.click(t, "#play")
	b.waitPosition(t, "8/8")
	if got := b.timelineLines(t); !slices.Equal(got, original) {
		t.Fatalf("play from step 5 changed the script:\n%q\nwas\n%q", got, original)
	}
	b.waitPosition(t, "10/10")
	b.click(t, "#pause")
	b.waitCount(t, "#play", 1) // paused: no step comes after
	played := b.timelineLines(t)
	if !slices.Equal(played[:8], original) || played[8] != "advance 1s" || played[9] != "advance 1s" {
		t.Fatalf("play at the end should add clock steps after the script's own:\n%q", played)
	}

	// A command at step 3 replaces the steps after it, and keeps them. (A
	// busy machine may play a step more before the pause lands: the steps
	// are those the timeline holds.)
	b.click(t, `.script-line[data-step="3"]`)
	b.waitPosition(t, fmt.Sprintf("3/%d", len(played)))
	b.click(t, "#advance-1m")
	b.waitPosition(t, "4/4")
	b.waitText(t, ".discarded", fmt.Sprintf("Kept aside: %d steps that followed step 3", len(played)-3))
	b.waitURLSteps(t, 4)
	b.waitFor(t, `location.hash.includes("&branch=3.v1.")`)

	// They survive a reload, and come back.
	b.reopen(t, eval[string](t, b, `location.href`))
	b.waitText(t, ".discarded", fmt.Sprintf("Kept aside: %d steps that followed step 3", len(played)-3))
	b.click(t, "#restore")
	b.waitPosition(t, fmt.Sprintf("3/%d", len(played)))
	if got := b.timelineLines(t); !slices.Equal(got, played) {
		t.Fatalf("restored script:\n%q\nwant\n%q", got, played)
	}
	// The step they replaced is kept aside in turn.
	b.waitText(t, ".discarded", "Kept aside: 1 step that followed step 3")
	b.waitURLSteps(t, len(played))
	b.click(t, "#redo")
	b.waitPosition(t, fmt.Sprintf("4/%d", len(played)))

	// A command at step 2 puts other steps aside: the scenario the steps
	// kept aside before made goes to Scenarios → Recent, whole.
	// The Scenarios panel, open as the notice comes, stays the element it
	// was: the notice takes a place of its own (go-app would have made the
	// panel anew had the notice shifted it).
	b.click(t, `.script-line[data-step="2"]`)
	b.waitPosition(t, fmt.Sprintf("2/%d", len(played)))
	b.openScenarios(t)
	eval[bool](t, b, `(document.getElementById("scenarios-panel").plogKept = true)`)
	b.click(t, "#advance-1h")
	b.waitPosition(t, "3/3")
	b.waitText(t, ".discarded", fmt.Sprintf("Kept aside: %d steps that followed step 2", len(played)-2))
	b.waitText(t, ".notice", "are not lost")
	if !eval[bool](t, b, `document.getElementById("scenarios-panel").plogKept === true`) {
		t.Error("the notice made the Scenarios panel anew")
	}
	b.waitText(t, ".recent", "(steps put aside)")
	eval[bool](t, b, `(() => { Array.from(document.querySelectorAll(".recent-open")).find(el => el.textContent.endsWith("(steps put aside)")).click(); return true })()`)
	b.waitPosition(t, "4/4")
	if got := b.timelineLines(t); !slices.Equal(got, append(played[:3:3], "advance 1m")) {
		t.Errorf("the scenario put aside opens as %q", got)
	}
	b.noErrors(t)

	// A read-only embed plays its steps, then stops: its script never grows.
	e := openPlaygroundWith(t, script, "&at=6&embed=1&readonly=1")
	e.waitPosition(t, "6/8")
	e.click(t, "#embed-play")
	e.waitPosition(t, "8/8")
	e.waitFor(t, `document.querySelector("#embed-play").getAttribute("aria-pressed") === "false"`)
	e.waitFor(t, `new Promise(r => setTimeout(() => r(true), 2500))`)
	e.waitPosition(t, "8/8")
	if lines, _ := e.urlScript(t); len(lines) != 8 {
		t.Errorf("the read-only embed's URL holds %d steps, want its 8", len(lines))
	}
	e.noErrors(t)
}

// A gesture whose second line is refused changes nothing at all: the
// position, the steps ahead, the label, the URL.
func TestUIRefusedGestureChangesNothing(t *testing.T) {
	t.Parallel()
	// At step 101 the scenario holds the million records a scenario may
	// produce; three clock steps follow, to redo.
	script := "topic t partitions=1\n" + strings.Repeat("produce t value=v count=10000\n", 100) + strings.Repeat("advance 1s\n", 3)
	b := openPlaygroundWith(t, script, "&at=101")
	if !b.eventually(`document.querySelector(".timeline").dataset.position === "101"`) {
		t.Fatalf("the link opens at %s, alert %q", b.position(t), b.text(t, "main > [role=alert]"))
	}
	b.waitPosition(t, "101/104")
	before := b.timelineLines(t)
	b.fill(t, "#generate-count", "1000")
	b.click(t, "#generate-sequence")
	b.waitFor(t, `(document.querySelector('[data-control="generate"][role=alert]') || {}).textContent > ""`)
	if alert := b.alertOf(t, "generate"); !strings.Contains(alert, "at most 1000000") {
		t.Errorf("the generator's refusal says %q", alert)
	}
	b.waitPosition(t, "101/104")
	if got := b.timelineLines(t); !slices.Equal(got, before) {
		t.Errorf("a refused gesture changed the script:\n%q", got)
	}
	if b.count(t, ".discarded") != 0 {
		t.Error("a refused gesture left steps kept aside")
	}
	b.checkSlider(t, "after a refused gesture")
	if lines, at := b.urlScript(t); len(lines) != 104 || at != 101 {
		t.Errorf("the URL holds %d steps at %d, want 104 at 101", len(lines), at)
	}
	b.click(t, "#redo")
	b.waitPosition(t, "102/104")
	b.noErrors(t)
}

// The slider's thumb sits where its label says, after a link opens, after a
// command, undo, redo and a seek; a seek does not scroll the page.
func TestUISliderAgreesWithItsLabelAndSeekKeepsTheScroll(t *testing.T) {
	t.Parallel()
	// Going back removes topics and groups above the timeline.
	var script strings.Builder
	for _, topic := range []string{"a", "b", "c", "d", "e", "f"} {
		fmt.Fprintf(&script, "topic %s partitions=4\nproduce %s key=k count=30\n", topic, topic)
	}
	for i := range 6 {
		fmt.Fprintf(&script, "join g%d c1 topics=a\n", i)
	}
	script.WriteString(strings.Repeat("advance 1s\n", 52))
	b := openPlayground(t, script.String())
	url := eval[string](t, b, `location.href`)
	for i := range 5 {
		if i > 0 {
			b.reopen(t, url)
		}
		b.waitPosition(t, "70/70")
		b.checkSlider(t, fmt.Sprintf("open %d of the link", i+1))
	}
	b.click(t, "#advance-1s")
	b.waitPosition(t, "71/71")
	b.checkSlider(t, "after +1 s")
	b.click(t, "#undo")
	b.waitPosition(t, "70/71")
	b.checkSlider(t, "after undo")
	b.click(t, "#redo")
	b.waitPosition(t, "71/71")
	b.checkSlider(t, "after redo")

	eval[bool](t, b, `(() => { document.querySelector("#timeline-slider").scrollIntoView({block: "center"}); return true })()`)
	const where = `window.scrollY + " " + Math.round(document.querySelector("#timeline-slider").getBoundingClientRect().top)`
	before := eval[string](t, b, where)
	for _, seek := range []struct{ how, step string }{{"the slider", "2"}, {"a script line", "13"}, {"the slider", "1"}} {
		if seek.how == "the slider" {
			b.fill(t, "#timeline-slider", seek.step)
		} else {
			b.click(t, `.script-line[data-step="`+seek.step+`"]`)
		}
		b.waitPosition(t, seek.step+"/71")
		b.waitFor(t, `new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
		b.checkSlider(t, "after a seek with "+seek.how)
		if after := eval[string](t, b, where); after != before {
			t.Errorf("a seek to step %s with %s moved the page: scroll and slider top %s, before %s", seek.step, seek.how, after, before)
		}
	}
	// A new command lets the page take its own height again.
	b.click(t, "#advance-1s")
	b.waitPosition(t, "2/2")
	b.waitFor(t, `document.querySelector("#workspace").style.minHeight === ""`)
	b.noErrors(t)
}

// A shared scenario opens saying what its last step did, as a step back or
// forward in the timeline does: a reader of the link sees why the records
// it ends with are where they are, and what the last poll read, under a
// note that says it came from a link. Its lanes open at their first
// record, unmarked.
func TestALinkNarratesItsLastStep(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, `topic orders partitions=3
produce orders key=acct-1 value=created
produce orders key=acct-2 value=paid
`)
	why := fmt.Sprintf(`murmur2("acct-2") %% 3 = %d`, core.PartitionFor("acct-2", 3))
	b.waitText(t, ".landing", why)
	if problem := onScreen(t, b, ".landing"); problem != "" {
		t.Errorf("the narration of the link's last step is %s", problem)
	}
	// Its lanes are not marked: they open at their first record
	// (TestLanesFollowTheirNewestRecord).
	if n := b.count(t, `[data-landed]`); n != 0 {
		t.Errorf("%d records are marked as landed as the link opens", n)
	}
	// A note says it is a scenario from a link, built by the timeline's
	// steps, until the reader steps back.
	if problem := onScreen(t, b, "[data-link-note]"); problem != "" {
		t.Errorf("the link's note is %s", problem)
	} else if text := b.text(t, "[data-link-note]"); !strings.Contains(text, "A scenario from a link") || !strings.Contains(text, "3 steps") {
		t.Errorf("the link's note says %q", text)
	}
	b.mouseClick(t, "#undo")
	b.waitFor(t, `!document.querySelector("[data-link-note]")`)

	b = openPlayground(t, `topic orders partitions=1
produce orders key=k value=v count=3
config group billing auto.offset.reset=earliest
join billing c1 topics=orders
advance 3s
poll billing c1
`)
	b.waitText(t, ".stage-notes", "c1 of billing read orders/0 offsets 0–2")
	if problem := onScreen(t, b, ".stage-notes"); problem != "" {
		t.Errorf("the narration of the link's last poll is %s", problem)
	}
}
