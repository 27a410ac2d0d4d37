package app

import (
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// The components run natively under go-app's client tester: go-app's
// browser code does not run under Node.

// ordersScenario keys records so both partitions get some.
const ordersScenario = `seed 7
topic orders partitions=2
produce orders key=acct-1 value=created count=3
produce orders key=acct-2 value=created count=2
produce orders value=no-key
truncate orders/0 before=1
`

// mountAt mounts the page, then navigates to a URL whose fragment is link,
// as a learner pasting a link into an open page does; "" is the empty
// scenario, which New scenario starts.
func mountAt(t *testing.T, link string) (*Playground, app.ClientDispatcher) {
	t.Helper()
	p := newTestPlayground()
	d := app.NewClientTester(p)
	t.Cleanup(d.Close)
	if !p.ready {
		t.Fatal("the page is not ready after OnMount")
	}
	u, err := url.Parse("https://plog.test/#" + link)
	if err != nil {
		t.Fatal(err)
	}
	d.Nav(u)
	d.Consume()
	if link == "" {
		// The bare address opens the starter on a first visit
		// (starter.go); Scenarios → New scenario, the empty one.
		d.Context().NewActionWithValue(openAction, openRequest{})
		d.Consume()
	}
	return p, d
}

// Apply sends one line to the page as a gesture of no control, its error
// shown in the page's main alert, as a test does where a learner would use
// a control.
func Apply(ctx app.Context, line string) { ApplyFrom(ctx, "", line) }

func mustLink(t *testing.T, script string) string {
	t.Helper()
	link, err := scenario.EncodeLink(script)
	if err != nil {
		t.Fatal(err)
	}
	return link
}

var htmlTag = regexp.MustCompile(`<[a-z][^>]*>`)

// tagsWith returns the opening tags in page that carry every given
// attribute="value" pair, whatever their order. go-app prints an attribute
// whose value is "true" bare, as HTML's boolean attributes are; the browser
// gets the value itself.
func tagsWith(page string, pairs ...string) []string {
	var found []string
	for _, tag := range htmlTag.FindAllString(page, -1) {
		all := true
		for i := 0; i+1 < len(pairs); i += 2 {
			name, value := pairs[i], pairs[i+1]
			has := strings.Contains(tag, " "+name+`="`+value+`"`)
			if value == "true" {
				has = has || strings.Contains(tag, " "+name+" ") || strings.Contains(tag, " "+name+">")
			}
			if !has {
				all = false
				break
			}
		}
		if all {
			found = append(found, tag)
		}
	}
	return found
}

func TestPlaygroundShowsTheScenarioInTheLink(t *testing.T) {
	p, _ := mountAt(t, mustLink(t, ordersScenario))
	if p.err != "" {
		t.Fatalf("unexpected alert: %s", p.err)
	}
	page := app.HTMLString(p)
	if len(tagsWith(page, "data-ready", "true")) != 1 {
		t.Errorf("want one data-ready=\"true\" element in:\n%s", page)
	}
	if got := tagsWith(page, "role", "alert"); len(got) != 0 {
		t.Errorf("unexpected alert: %v", got)
	}

	// The lanes must show exactly what the engine holds.
	l := p.session.Log()
	total := 0
	for part := range 2 {
		hw, _ := l.HighWatermark("orders", part)
		start, _ := l.LogStartOffset("orders", part)
		records, _ := l.Records("orders", part)
		total += int(hw)
		lane := tagsWith(page, "data-topic", "orders", "data-partition", strconv.Itoa(part),
			"data-log-start", strconv.FormatInt(start, 10),
			"data-high-watermark", strconv.FormatInt(hw, 10))
		if len(lane) != 1 {
			t.Errorf("orders/%d: want one lane with log start %d, high watermark %d in:\n%s", part, start, hw, page)
		}
		for _, r := range records {
			pairs := []string{"data-offset", strconv.FormatInt(r.Offset, 10)}
			if r.HasKey {
				pairs = append(pairs, "data-key", r.Key)
			}
			if len(tagsWith(page, pairs...)) == 0 {
				t.Errorf("orders/%d: record %v not drawn", part, pairs)
			}
		}
	}
	if total != 6 {
		t.Errorf("high watermarks add up to %d, want the 6 records produced", total)
	}
	if start, _ := l.LogStartOffset("orders", 0); start != 1 {
		t.Errorf("orders/0 log start = %d after truncate before=1, want 1", start)
	}
}

func TestPlaygroundReportsAnUnreadableLink(t *testing.T) {
	p, _ := mountAt(t, "v1.not*base64")
	page := app.HTMLString(p)
	if len(tagsWith(page, "role", "alert")) != 1 || p.err == "" {
		t.Fatalf("want an alert for an unreadable link, page:\n%s", page)
	}
	if strings.Contains(page, "data-partition") {
		t.Errorf("an unreadable link must show no lanes:\n%s", page)
	}
	if !p.ready {
		t.Error("the page must stay ready after a bad link")
	}
}

func TestPlaygroundKeepsWhatAppliedBeforeAFailingLine(t *testing.T) {
	script := "topic orders partitions=3\nproduce orders key=k value=v\ntruncate orders/0 before=99\n"
	link := mustLink(t, script)
	p, _ := mountAt(t, link)
	if !strings.Contains(p.err, "stopped early") {
		t.Errorf("alert = %q, want it to say the scenario stopped early", p.err)
	}
	page := app.HTMLString(p)
	if n := strings.Count(page, `data-high-watermark=`); n != 3 {
		t.Errorf("want the 3 lanes of orders created before the failing line, got %d", n)
	}
}

func TestPlaygroundFollowsTheFragment(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic a partitions=1\n"))
	if len(p.view.Topics) != 1 || p.view.Topics[0].Name != "a" {
		t.Fatalf("topics = %+v, want [a]", p.view.Topics)
	}
	u, _ := url.Parse("https://plog.test/#" + mustLink(t, "topic b partitions=2\ntopic c partitions=1\n"))
	d.Nav(u)
	d.Consume()
	if len(p.view.Topics) != 2 || p.view.Topics[0].Name != "b" || p.view.Topics[1].Name != "c" {
		t.Fatalf("after a new fragment, topics = %+v, want [b c]", p.view.Topics)
	}
	u, _ = url.Parse("https://plog.test/")
	d.Nav(u)
	d.Consume()
	if len(p.view.Topics) != 0 || p.err != "" {
		t.Fatalf("after clearing the fragment: topics %+v, alert %q; want the empty scenario", p.view.Topics, p.err)
	}
}

func TestPartitionLaneDrawsOnlyTheNewestRecords(t *testing.T) {
	script := "topic big partitions=1\nproduce big value=v count=" + strconv.Itoa(laneWindow+20) + "\n"
	p, _ := mountAt(t, mustLink(t, script))
	page := app.HTMLString(p)
	if n := strings.Count(page, "data-offset="); n != laneWindow {
		t.Errorf("drew %d records, want %d", n, laneWindow)
	}
	if len(tagsWith(page, "data-offset", strconv.Itoa(laneWindow+19))) != 1 {
		t.Error("the newest record is not drawn")
	}
	if !strings.Contains(page, "20 older") {
		t.Error("the lane does not say how many records it leaves out")
	}
}

func TestApplyChangesTheViewThenTheURL(t *testing.T) {
	opened := mustLink(t, "topic orders partitions=2\n")
	p, d := mountAt(t, opened)
	fragment := func() string { return d.Context().Page().URL().Fragment }
	clock := clockOf(t, p)
	Apply(d.Context(), "produce orders key=acct-1 value=created count=2")
	d.Consume()
	clock.Step(d, urlDebounce-100*time.Millisecond)
	Apply(d.Context(), "produce orders value=no-key")
	d.Consume()
	clock.Step(d, urlDebounce-100*time.Millisecond)
	if fragment() != opened {
		t.Errorf("the URL changed to %q before the commands settled: a burst must rewrite it once", fragment())
	}
	if p.err != "" {
		t.Fatalf("alert: %s", p.err)
	}
	total := 0
	for _, part := range p.view.Topics[0].Partitions {
		total += part.Count
	}
	if total != 3 {
		t.Fatalf("the view shows %d records after producing 3", total)
	}

	before := p.view
	Apply(d.Context(), "produce nosuchtopic value=x")
	d.Consume()
	if p.err == "" {
		t.Error("a failing command must show an alert")
	}
	if fmt.Sprint(p.view) != fmt.Sprint(before) {
		t.Error("a failing command changed the view")
	}

	clock.Step(d, 100*time.Millisecond) // urlDebounce since the last command that applied
	script, err := scenario.DecodeLink(fragment())
	if err != nil {
		t.Fatalf("the URL fragment %q is no link: %v", fragment(), err)
	}
	if script != p.session.Script() {
		t.Errorf("the URL says:\n%s\nthe page shows:\n%s", script, p.session.Script())
	}
	if p.link != fragment() {
		t.Error("the page does not know its URL already shows its state: the next OnNav would replay it")
	}
}

// BenchmarkPlaygroundLoadsALink measures what opening a shared link costs
// before the first render: decode, replay, snapshot.
func BenchmarkPlaygroundLoadsALink(b *testing.B) {
	script := "seed 1\ntopic orders partitions=8\nproduce orders value=v count=10000\n"
	link, err := scenario.EncodeLink(script)
	if err != nil {
		b.Fatal(err)
	}
	p := &Playground{}
	for b.Loop() {
		p.ready = false
		p.applyLink(link)
		if p.err != "" {
			b.Fatal(p.err)
		}
	}
}

// Records a command removes stay drawn as leaving for removalAnimation
// after the latest removal, then go; the records kept stay.
func TestRemovedRecordsLeaveAfterTheAnimation(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic orders partitions=1\nproduce orders key=a count=4\n"))
	clock := clockOf(t, p)
	leaving := func() int { return strings.Count(app.HTMLString(p), "data-removed-offset") }
	Apply(d.Context(), "truncate orders/0 before=2")
	d.Consume()
	if n := leaving(); n != 2 {
		t.Fatalf("%d records drawn leaving after a truncation of 2", n)
	}
	clock.Step(d, removalAnimation-500*time.Millisecond)
	Apply(d.Context(), "truncate orders/0 before=3")
	d.Consume()
	clock.Step(d, 500*time.Millisecond) // the first animation's end
	if n := leaving(); n != 1 {
		t.Errorf("%d records drawn leaving while the second truncation's animation runs, want its 1", n)
	}
	clock.Step(d, removalAnimation-500*time.Millisecond)
	if n := leaving(); n != 0 {
		t.Errorf("%d records still drawn leaving after the animation", n)
	}
	if len(tagsWith(app.HTMLString(p), "data-offset", "3")) != 1 {
		t.Error("the record kept is not drawn")
	}
}

// The narration follows the timeline: going back to a step says what that
// step did, as it did when the step was made, and a step that did nothing
// to say leaves the notes empty.
func TestNarrationFollowsTheTimeline(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic orders partitions=4\nproduce orders key=acct-1 value=a\ntruncate orders/2 before=1\n"))
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "undo"})
	d.Consume()
	page := app.HTMLString(p)
	if !strings.Contains(page, `data-landed-partition="2"`) || !strings.Contains(page, `murmur2(&#34;acct-1&#34;) % 4 = 2`) {
		t.Errorf("back at the produce, the note does not say where acct-1 went and why")
	}
	if len(p.removal.Lines) != 0 {
		t.Errorf("back at the produce, the truncation's note stays: %+v", p.removal)
	}
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "seek", Step: 1})
	d.Consume()
	if p.landing.Count != 0 || len(p.removal.Lines) != 0 {
		t.Errorf("at the topic's creation, the notes say %+v and %+v", p.landing, p.removal)
	}
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "redo"})
	d.Consume()
	if p.landing.Count != 1 {
		t.Errorf("redone, the produce's note says %d records", p.landing.Count)
	}
	d.Context().NewActionWithValue(historyAction, historyMove{Kind: "redo"})
	d.Consume()
	if len(p.removal.Lines) != 1 || !strings.Contains(p.removal.Lines[0], "Truncate removed") {
		t.Errorf("redone, the truncation's note says %q", p.removal.Lines)
	}
}
