package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Short links can ask for big scenarios: a thousand partitions, hundreds
// of groups or topics, a hundred brokers, or work that would take hours.
// Whatever a link asks within the language's limits, the page draws a
// bounded part of it, says what it left out, refuses what is too much with
// an alert, and keeps working.

// numberedLines writes line once for each i in [0, n), with %d as i.
func numberedLines(n int, line string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, line+"\n", i)
	}
	return b.String()
}

// bigScenarios are links of a few hundred characters at most that once
// killed the page.
var bigScenarios = []struct {
	name   string
	script string
	alert  string // a phrase the page's alert must hold; "" for none
	window string // the list the page draws a window of, with how many it holds
	total  int
	// long says the replay is long, seconds in the browser: the page must
	// keep answering through it. (The others replay in a moment, then
	// draw; a busy machine may take seconds to draw them.)
	long bool
}{
	{"a thousand partitions of three replicas", "brokers 3\ntopic t partitions=1000 replication.factor=3\n", "", "lanes-t", 1000, false},
	{"250 groups of one member", "topic t\n" + numberedLines(250, "join g%d m topics=t"), "", "groups", 250, false},
	{"1,400 topics", numberedLines(1400, "topic t%d"), "", "topics", 1400, false},
	{"a group of 600 members", "topic t partitions=4\n" + numberedLines(600, "join g m%d topics=t"), "", "members-g", 600, false},
	{"a hundred brokers and ten topics of 1,000 partitions at replication.factor=100",
		"brokers 100\n" + numberedLines(10, "topic t%d partitions=1000 replication.factor=100"), "", "lanes-t0", 1000, false},
	{"a hundred brokers, ten topics of 1,000 partitions at replication.factor=100 and 19,989 advances of 1s",
		"brokers 100\n" + numberedLines(10, "topic t%d partitions=1000 replication.factor=100") + strings.Repeat("advance 1s\n", 19_989), "units of work", "lanes-t0", 1000, false},
	{"a consumer polling through 19,997 advances of 1000s",
		"topic t\njoin g m topics=t\nconsumer g m rate=1000/s\n" + strings.Repeat("advance 1000s\n", 19_997), "units of work", "", 0, true},
}

// goExited says whether the page's Go program has died: it writes Go's
// fatal error to the console, and every later event throws.
func (b *browser) goExited() string {
	for _, m := range b.consoleTexts() {
		if strings.Contains(m, "fatal error") || strings.Contains(m, "has already exited") || strings.Contains(m, "out of memory") {
			return m
		}
	}
	return ""
}

// maxStall is the longest the page may go without answering while it
// replays a long scenario: the browser runs scripts and paints between the
// slices of the replay's work. Without them, the link of endless work
// below kept the page from answering for ten seconds.
const maxStall = 5 * time.Second

// openAnswering opens url as a fresh page, and asks the page a question
// every moment until it is ready. From the moment the playground is drawn
// (main is there, not yet ready: it replays the link's scenario) until it is
// ready, it notes how long the page took to answer each question; it returns
// the longest of these, and how long the replay took.
func (b *browser) openAnswering(t *testing.T, url string) (stall, loading time.Duration, said string) {
	t.Helper()
	b.do(t, chromedp.Navigate("about:blank"))
	b.do(t, chromedp.Navigate(url))
	var drawn time.Time
	deadline := time.Now().Add(readyTimeout)
	for {
		asked := time.Now()
		state, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](
			`document.querySelector(`+js(ready)+`) ? "ready" : document.querySelector("main") ? "loading" : "starting"`))
		if err == nil && state == "loading" && said == "" {
			said = eval[string](t, b, `(document.querySelector("main > .opening[role=status]") || {}).textContent || ""`)
		}
		if !drawn.IsZero() {
			stall = max(stall, time.Since(asked))
		}
		switch {
		case err == nil && state == "ready":
			if !drawn.IsZero() {
				loading = time.Since(drawn)
			}
			return stall, loading, said
		case err == nil && state == "loading" && drawn.IsZero():
			drawn = asked
		case time.Now().After(deadline):
			t.Fatalf("page not ready after %s (last error: %v)", readyTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// lanesPerPage is the most items any window of the page draws.
const lanesPerPage = 24

// maxElements bounds what the page may draw of any scenario: the small
// ones draw a few thousand elements.
const maxElements = 20_000

func TestUIBigScenariosLeaveAWorkingPage(t *testing.T) {
	t.Parallel()
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, srv.URL) // the service worker makes the reopenings below quick
	for _, tc := range bigScenarios {
		link := linkOf(t, tc.script)
		stall, loading, said := b.openAnswering(t, srv.URL+link)
		t.Logf("%s: a link of %d characters; the page replayed it in %s, answering within %s at worst", tc.name, len(link), loading, stall)
		if tc.long && stall > maxStall {
			t.Errorf("%s: the page did not answer for %s while it loaded", tc.name, stall)
		}
		if tc.long && !strings.Contains(said, "Opening") {
			t.Errorf("%s: while it replayed the scenario the page said %q, not that it was opening it", tc.name, said)
		}
		if died := b.goExited(); died != "" {
			t.Fatalf("%s: the page died: %s", tc.name, died)
		}
		alert := eval[string](t, b, `Array.from(document.querySelectorAll("main > [role=alert]")).map(el => el.textContent).join(" ")`)
		if tc.alert != "" && !strings.Contains(alert, tc.alert) {
			t.Errorf("%s: alert %q, want it to say what was refused (%q)", tc.name, alert, tc.alert)
		}
		if tc.alert == "" && alert != "" {
			t.Errorf("%s: unexpected alert %q", tc.name, alert)
		}
		n := b.count(t, "main *")
		t.Logf("%s: %d elements", tc.name, n)
		if n > maxElements {
			t.Errorf("%s: the page draws %d elements, more than %d", tc.name, n, maxElements)
		}
		if tc.window != "" {
			// The page says what it left out, and the learner pages
			// through the rest.
			nav := fmt.Sprintf(`[data-window=%q]`, tc.window)
			if got := b.attr(t, nav, "data-total"); got != fmt.Sprint(tc.total) {
				t.Errorf("%s: the window of %s holds %q items, want %d", tc.name, tc.window, got, tc.total)
			} else if text := b.text(t, nav); !strings.Contains(text, "not drawn") {
				t.Errorf("%s: the window of %s says %q, not what it leaves out", tc.name, tc.window, text)
			}
			start := fmt.Sprintf(`Number((document.querySelector(%s) || {dataset: {}}).dataset.start)`, js(nav))
			b.click(t, "#"+tc.window+"-next")
			b.waitFor(t, start+` > 0`)
			// The last items are one number away.
			b.fill(t, "#"+tc.window+"-from", fmt.Sprint(tc.total))
			b.waitFor(t, fmt.Sprintf(`%s >= %d`, start, tc.total-lanesPerPage))
		}
		// A click after it still works: the Time tab, then its 1s.
		before := b.attr(t, ".clock", "data-time-ms")
		b.click(t, "[data-dock-tab=time]")
		b.waitFor(t, shown("#advance-1s"))
		b.click(t, "#advance-1s")
		b.waitFor(t, fmt.Sprintf(`document.querySelector(".clock").dataset.timeMs !== %s || !!document.querySelector("[data-control=time][role=alert]")`, js(before)))
		if died := b.goExited(); died != "" {
			t.Fatalf("%s: the page died after a click: %s", tc.name, died)
		}
	}
	b.noErrors(t)
}

// Every window at its fullest at once: topics of 200 partitions, one of them
// with all its lanes drawn, groups of many members, the replicas view.
func TestUIEveryWindowFullAtOnce(t *testing.T) {
	t.Parallel()
	var script strings.Builder
	script.WriteString("brokers 3\n")
	script.WriteString(numberedLines(12, "topic t%02d partitions=200 replication.factor=3"))
	for g := range 8 {
		script.WriteString(numberedLines(20, fmt.Sprintf("join g%d m%%d topics=t00,t01", g)))
	}
	script.WriteString("advance 5s\nproduce t00 value=v count=500\n") // keyless: it lands in every partition
	b := openPlayground(t, script.String())
	b.click(t, "#more-lanes-t00")
	b.waitCount(t, `[data-topic=t00][data-partition][data-log-start]`, 200)
	b.click(t, "#advance-1s")
	b.waitFor(t, `document.querySelector(".clock").dataset.timeMs === "6000"`)
	if n := b.count(t, "main *"); n > maxElements {
		t.Errorf("the page draws %d elements, more than %d", n, maxElements)
	}
	// What the learner creates beyond the windows is drawn at once: the
	// windows move to it.
	b.createTopic(t, "zz", 1)
	b.joinMember(t, "zz", "c1", "t00", "range", "")
	b.waitCount(t, group("zz"), 1)
	b.joinMember(t, "g7", "zz", "t00,t01", "", "")
	b.waitCount(t, member("g7", "zz"), 1)
	if died := b.goExited(); died != "" {
		t.Fatalf("the page died: %s", died)
	}
	b.noErrors(t)
}
