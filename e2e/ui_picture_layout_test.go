package e2e

import (
	"fmt"
	"strings"
	"testing"

	"plog/core/lesson"

	"github.com/chromedp/chromedp"
)

// pictureScenario is the largest scenario the page promises to show whole
// at 1280x800: two topics of four partitions, two groups of three members,
// three brokers. It names the latest rules, as a link made today does: a
// link made under older rules gets a notice in the timeline, a line more.
var pictureScenario = latestRulesLine + `brokers 3
topic orders partitions=4 replication.factor=3 retention.ms=2h
topic payments partitions=4 replication.factor=2 cleanup.policy=compact
produce orders key=acct-1 value=a count=5
produce orders key=acct-2 value=b count=4
produce orders key=acct-3 value=c count=3
produce payments key=p1 value=x count=3
produce payments key=p2 value=y count=2
join billing c1 topics=orders,payments
join billing c2 topics=orders,payments
join billing c3 topics=orders,payments
join audit a1 topics=orders
join audit a2 topics=orders
join audit a3 topics=orders
advance 6s
poll billing c1 max=5
commit billing c1
broker crash 2
`

// outsideTheScreen lists what of the picture is not wholly inside the
// window (every lane and the timeline, and every member when members), and
// says so when the page itself scrolls; empty when all of it shows.
func outsideTheScreen(members bool) string {
	things := ".lane[data-topic][data-partition], [data-timeline]"
	if members {
		things += ", li[data-member]"
	}
	return fmt.Sprintf(`(() => {
	const out = [];
	const name = el => el.tagName.toLowerCase() + ["topic", "partition", "group", "member", "timeline"]
		.filter(a => el.hasAttribute("data-" + a)).map(a => "[" + a + "=" + el.getAttribute("data-" + a) + "]").join("");
	for (const el of document.querySelectorAll(%s)) {
		const r = el.getBoundingClientRect();
		if (r.width === 0 || r.height === 0 || r.left < 0 || r.top < 0 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5) {
			out.push(name(el) + " at " + Math.round(r.left) + "," + Math.round(r.top) + "–" + Math.round(r.right) + "," + Math.round(r.bottom));
			continue;
		}
		// Inside the window is not enough: a region that scrolls must not
		// hide it either.
		for (let up = el.parentElement; up; up = up.parentElement) {
			if (!/(auto|scroll|hidden)/.test(getComputedStyle(up).overflowY)) continue;
			const box = up.getBoundingClientRect();
			if (r.top < box.top - 0.5 || r.bottom > box.bottom + 0.5) {
				out.push(name(el) + " at " + Math.round(r.top) + "–" + Math.round(r.bottom) + ", scrolled out of its region (" + Math.round(box.top) + "–" + Math.round(box.bottom) + ")");
				break;
			}
		}
	}
	const h = document.scrollingElement.scrollHeight;
	if (h > innerHeight) out.push("the page is " + h + " px tall");
	return out })()`, js(things))
}

// pictureCase is a scenario the page shows whole at 1280x800, with how
// many lanes and members it draws.
type pictureCase struct {
	what, fragment string
	lanes, members int
}

// pictureCases are each built-in lesson's starting scenario and a scenario
// of two topics of four partitions, two groups of three members and three
// brokers.
func pictureCases(t *testing.T) []pictureCase {
	t.Helper()
	var cases []pictureCase
	for _, l := range lesson.All() {
		s, err := l.Start()
		if err != nil {
			t.Fatal(err)
		}
		c := pictureCase{what: "lesson " + l.Name, fragment: "#lesson=" + l.Name}
		for _, topic := range s.Log().TopicNames() {
			n, _ := s.Log().Partitions(topic)
			c.lanes += n
		}
		for _, g := range s.Log().GroupNames() {
			v, _ := s.Log().Group(g)
			c.members += len(v.Members)
		}
		cases = append(cases, c)
	}
	return append(cases, pictureCase{"2 topics × 4 partitions, 2 groups × 3 members, 3 brokers", linkOf(t, pictureScenario), 8, 6})
}

// openPicture opens a case at 1280x800 and waits until its lanes and
// members are drawn: the first in a page of its own, the next ones in the
// same page, as a learner goes from lesson to lesson (a fresh start of the
// page's program for each took 7 s of a busy machine, 22 times).
func (b *browser) openPicture(t *testing.T, url string, c pictureCase) {
	t.Helper()
	if eval[bool](t, b, `location.href.startsWith(`+js(url)+`)`) {
		eval[bool](t, b, `(location.hash = `+js(c.fragment)+`, true)`)
		b.waitReady(t)
		// The lesson the case opens, or none, is the one on the page.
		lesson, _ := strings.CutPrefix(c.fragment, "#lesson=")
		if lesson == c.fragment {
			lesson = ""
		}
		b.waitFor(t, `((document.querySelector("[data-lesson-panel]") || {dataset: {}}).dataset.lesson || "") === `+js(lesson))
	} else {
		b.open(t, url+c.fragment)
	}
	b.waitFor(t, `window.innerWidth === 1280 && window.innerHeight === 800`)
	b.waitCount(t, `.lane[data-topic][data-partition]`, c.lanes)
	b.waitCount(t, `li[data-member]`, c.members)
}

// At 1280x800 each lesson's scenario, and the largest scenario the page
// promises to show whole, is one picture: every lane, the timeline and
// every member (in the groups column beside the lanes) inside the window,
// and the page does not scroll. (One page a case: members are checked on
// the page that checks the lanes.)
func TestUIPictureFitsTheScreen(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.do(t, chromedp.EmulateViewport(1280, 800))
	for _, c := range pictureCases(t) {
		b.openPicture(t, s.URL, c)
		if out := eval[[]string](t, b, outsideTheScreen(true)); len(out) > 0 {
			t.Errorf("%s: outside the 1280x800 window: %s", c.what, strings.Join(out, "; "))
		}
		// The picture (the stage: brokers, producers, lanes and their
		// narration; and the groups' column beside it) takes at least half
		// the window, the measure of a picture rather than a
		// console.
		if share := eval[float64](t, b, pictureShare); share < 0.5 {
			t.Errorf("%s: the picture covers %.0f%% of the window, want at least half", c.what, 100*share)
		}
	}
	if n := b.count(t, `[data-replicas-of]`); n != 8 {
		t.Errorf("%d lanes draw their replicas, want 8", n)
	}
	b.noErrors(t)
}

// pictureShare is the part of the window the picture covers: the stage
// and the groups' column, each clipped to the window (they do not
// overlap).
const pictureShare = `(() => {
	let area = 0;
	for (const el of document.querySelectorAll(".stage, .groups-column")) {
		const r = el.getBoundingClientRect();
		const w = Math.max(0, Math.min(r.right, innerWidth) - Math.max(r.left, 0));
		const h = Math.max(0, Math.min(r.bottom, innerHeight) - Math.max(r.top, 0));
		area += w * h;
	}
	return area / (innerWidth * innerHeight);
})()`

// shown is a JavaScript test that the element a selector finds is drawn.
func shown(selector string) string {
	return fmt.Sprintf(`(el => !!el && el.getClientRects().length > 0)(document.querySelector(%s))`, js(selector))
}

// waitLine waits until the timeline holds a line that starts with prefix.
func (b *browser) waitLine(t *testing.T, prefix string) {
	t.Helper()
	b.waitFor(t, fmt.Sprintf(`Array.from(document.querySelectorAll("[data-timeline] .script-line")).some(el => el.textContent.startsWith(%s))`, js(prefix)))
}

// Selecting a thing where it is drawn opens the inspector beside the
// picture: a topic's name, a lane, a broker in the strip. It shows the
// thing's settings with Kafka's defaults and the changed values marked,
// and what the learner changes there becomes a line of the timeline; a
// topic produces from its own button, a lane truncates from its own.
func TestUIInspectorActsWhereTheThingIs(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, pictureScenario)
	b.do(t, chromedp.EmulateViewport(1280, 800))
	b.waitCount(t, `.lane[data-topic][data-partition]`, 8)
	if eval[bool](t, b, shown(`[data-inspector]`)) {
		t.Error("the inspector shows before anything is selected")
	}

	// A topic's name: its configs against their defaults.
	b.click(t, `[data-inspect-topic="orders"]`)
	b.waitFor(t, shown(`[data-inspector="topic"][data-inspects="orders"]`))
	row := `[data-inspector] tr[data-config="retention.ms"]`
	if got := b.attr(t, row, "data-changed"); got != "true" {
		t.Errorf("retention.ms=2h is not marked changed (data-changed=%q)", got)
	}
	if text := b.text(t, row); !strings.Contains(text, "2h") || !strings.Contains(text, "Kafka 7d, plog 1h") {
		t.Errorf("retention.ms in the inspector reads %q, want its value 2h, Kafka's default 7d and the playground's 1h", text)
	}
	if got := b.attr(t, `[data-inspector] tr[data-config="cleanup.policy"]`, "data-changed"); got != "false" {
		t.Errorf("cleanup.policy, at its default, is marked changed=%q", got)
	}
	if !eval[bool](t, b, shown(`#config-set`)) || !eval[bool](t, b, shown(`#partitions-orders`)) {
		t.Error("the topic's config form and its add-partitions form are not in the inspector")
	}
	if eval[bool](t, b, shown(`#partitions-payments`)) {
		t.Error("another topic's add-partitions form shows in the inspector of orders")
	}
	// A change made there is a line of the timeline, and the table marks it.
	b.click(t, `[data-inspect-topic="payments"]`)
	b.waitFor(t, shown(`[data-inspector="topic"][data-inspects="payments"]`))
	if got := eval[string](t, b, `document.querySelector("#config-topic").value`); got != "payments" {
		t.Errorf("the inspector of payments changes the configs of %q", got)
	}
	b.fill(t, "#config-name", "retention.bytes")
	b.fill(t, "#config-value", "4KB")
	b.click(t, "#config-set")
	b.waitLine(t, "config topic payments retention.bytes=4KB")
	b.waitFor(t, `document.querySelector('[data-inspector] tr[data-config="retention.bytes"]').dataset.changed === "true"`)

	// A lane: its offsets and replicas, and the truncate form on it.
	b.click(t, `[data-inspect-partition="orders/2"]`)
	b.waitFor(t, shown(`[data-inspector="partition"][data-inspects="orders/2"]`))
	b.waitText(t, `[data-inspector] .inspector-facts`, "high watermark")
	b.waitCount(t, `[data-inspector] .replica-detail .replica-track`, 3)
	if got := eval[string](t, b, `document.querySelector("#truncate-topic").value + "/" + document.querySelector("#truncate-partition").value`); got != "orders/2" {
		t.Errorf("the inspector of orders/2 truncates %q", got)
	}

	// Truncate from a lane's own button.
	b.click(t, `[data-truncate-lane="orders/3"]`)
	b.waitFor(t, shown(`[data-inspector="partition"][data-inspects="orders/3"] #truncate-go`))
	b.fill(t, "#truncate-before", "2")
	b.click(t, "#truncate-go")
	b.waitLine(t, "truncate orders/3 before=2")
	b.waitFor(t, `document.querySelector('.lane[data-topic="orders"][data-partition="3"]').dataset.logStart === "2"`)

	// A broker in the strip: its state and its actions.
	b.click(t, `[data-inspect-broker="3"]`)
	b.waitFor(t, shown(`[data-inspector="broker"][data-inspects="broker 3"]`))
	b.waitText(t, `[data-inspector] .inspector-details`, "leads")
	b.click(t, `[data-inspector] [data-broker-action=crash]`)
	b.waitLine(t, "broker crash 3")
	b.waitFor(t, `document.querySelector('.broker[data-broker="3"]').dataset.status === "down"`)
	b.click(t, `.broker[data-broker="3"] [data-broker-action=restart]`)
	b.waitLine(t, "broker restart 3")

	// Produce from a topic's own button: the produce tool opens on it.
	b.click(t, `[data-topic="payments"] [data-produce-to="payments"]`)
	b.waitFor(t, shown(`#produce-send`))
	if got := eval[string](t, b, `document.querySelector("#produce-topic").value`); got != "payments" {
		t.Errorf("payments' produce button opened the produce form on %q", got)
	}
	// Its key box takes the focus, in sight: the learner sees where the
	// button led.
	b.waitFor(t, `document.activeElement && document.activeElement.id === "produce-key"`)
	if where := onScreen(t, b, "#produce-key"); where != "" {
		t.Errorf("after payments' produce button, the key box is %s", where)
	}
	b.fill(t, "#produce-key", "p9")
	b.click(t, "#produce-send")
	b.waitLine(t, "produce payments key=p9")

	// Closing the inspector gives the dock back to the tools.
	b.click(t, `[data-inspect-topic="orders"]`)
	b.waitFor(t, shown(`[data-inspector]`))
	b.click(t, `#inspector-close`)
	b.waitFor(t, `!(`+shown(`[data-inspector]`)+`)`)
	if out := eval[[]string](t, b, outsideTheScreen(false)); len(out) > 0 {
		t.Errorf("after all that, outside the window: %s", strings.Join(out, "; "))
	}
	b.noErrors(t)
}

// On a 360 px phone the regions stack: the lanes, then the groups below
// them, the timeline docked at the bottom of the screen; a help opened on a
// lane stays inside the screen, and nothing scrolls sideways.
func TestUIPicturePhoneLayout(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, pictureScenario)
	b.do(t, chromedp.EmulateViewport(360, 740))
	b.waitFor(t, `window.innerWidth === 360`)
	b.waitCount(t, `.lane[data-topic][data-partition]`, 8)
	b.waitCount(t, `li[data-member]`, 6)
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("at 360 px the page is %d px wide", w)
	}
	below := eval[bool](t, b, `(() => {
		const lanes = Array.from(document.querySelectorAll(".lane[data-topic]")).map(el => el.getBoundingClientRect().bottom + scrollY);
		const members = Array.from(document.querySelectorAll("li[data-member]")).map(el => el.getBoundingClientRect().top + scrollY);
		return members.length > 0 && Math.min(...members) >= Math.max(...lanes) })()`)
	if !below {
		t.Error("on a phone the groups are not below the lanes")
	}
	docked := `(() => { const r = document.querySelector("[data-timeline]").getBoundingClientRect();
		return r.top >= 0 && Math.abs(r.bottom - innerHeight) < 2 })()`
	if !eval[bool](t, b, docked) {
		t.Error("on a phone the timeline is not docked at the bottom of the screen")
	}
	eval[bool](t, b, `(scrollTo(0, document.scrollingElement.scrollHeight / 2), true)`)
	if !eval[bool](t, b, docked) {
		t.Error("scrolled, the timeline does not stay docked at the bottom")
	}
	// Wherever the page is scrolled, nothing covers the docked timeline's
	// buttons: not the notes of the last step, which a produce writes.
	b.fill(t, "#produce-key", "k")
	b.click(t, "#produce-send")
	b.waitFor(t, `!!document.querySelector(".stage-notes > .landing:not(.empty)")`)
	// The page scrolled so that the note passes behind the timeline's top.
	eval[bool](t, b, `(scrollBy(0, document.querySelector(".stage-notes > .landing").getBoundingClientRect().top -
		document.querySelector("[data-timeline]").getBoundingClientRect().top), true)`)
	for _, control := range []string{"#undo", "#redo"} {
		if where := onScreen(t, b, control); where != "" {
			t.Errorf("on a phone, with the notes behind the timeline, its %s is %s", control, where)
		}
	}

	button := `[data-replicas-of="orders/3"] [data-help=isr] button.help-button`
	eval[bool](t, b, fmt.Sprintf(`(document.querySelector(%s).scrollIntoView({block: "center"}), true)`, js(button)))
	b.click(t, button)
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).getAttribute("aria-expanded") === "true"`, js(button)))
	problem := eval[string](t, b, fmt.Sprintf(`(() => {
		const r = document.querySelector(%s).parentElement.querySelector(".help-popover").getBoundingClientRect();
		if (document.documentElement.scrollWidth > innerWidth) return "the page is " + document.documentElement.scrollWidth + " px wide";
		if (r.left < 0 || r.right > innerWidth || r.top < 0 || r.bottom > innerHeight) return Math.round(r.left) + "–" + Math.round(r.right) + " × " + Math.round(r.top) + "–" + Math.round(r.bottom);
		return "" })()`, js(button)))
	if problem != "" {
		t.Errorf("the help popover on a lane, on a phone: %s", problem)
	}

	// A group's name opens its inspector in the dock, stacked below: the
	// page brings it into view.
	eval[bool](t, b, `(scrollTo(0, 0), true)`)
	b.click(t, group("billing")+" [data-action=inspect-group]")
	b.waitFor(t, `(el => { if (!el) return false; const r = el.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight })(document.querySelector("[data-inspector=group] .inspector-head"))`)
	if w := eval[int](t, b, `document.documentElement.scrollWidth`); w > 360 {
		t.Errorf("with a group's inspector open, at 360 px the page is %d px wide", w)
	}
	b.noErrors(t)
}
