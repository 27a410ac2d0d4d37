package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario/hostile"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// Links that asked the page for gigabytes before the scenario's memory
// budget (core/scenario/memory.go) or for minutes of work, each of the
// engine's hostile scripts (core/scenario/hostile), opened one after the
// other in one tab: each opens to the step before the line that crosses a
// limit, says which line and which limit where the learner reads it, or
// opens whole; keeps the wasm's memory far below its 4 GB; and leaves a tab
// in which a good link, opened next, shows its scenario.
func TestLinksPastTheBudgetsOpenTheirStartAndLeaveTheTabWorking(t *testing.T) {
	t.Parallel()
	value := func(i int) string { return fmt.Sprint(i) + strings.Repeat("x", 3900) }
	var turns strings.Builder
	turns.WriteString("topic t partitions=2\n")
	for i := range 8 {
		// Eight producers of values of 3.9 KB that all differ, in turn:
		// 312 MB of records in the first advance.
		fmt.Fprintf(&turns, "producer p%d t rate=100/s keys=sequence value=%s\n", i, value(i))
	}
	turns.WriteString(strings.Repeat("advance 100s\n", 20))
	var zipfs strings.Builder
	zipfs.WriteString("topic t partitions=2\n")
	for i := range 2000 {
		fmt.Fprintf(&zipfs, "producer z%d t rate=1/s keys=zipf keyspace=100000 exponent=1\nstop z%d\n", i, i)
	}
	cases := []hostileLink{
		// A link's script starts with its rules line: line 1.
		{"records of 3.9 KB by eight workloads", turns.String(), 11, "memory budget"},
		{"two thousand zipf tables", zipfs.String(), 101, "units of work"},
		{"a producer retrying ninety sends of ten thousand", "topic t partitions=2\nproducer-config p acks=all\nwire p lose-response count=100000\n" +
			strings.Repeat("produce t key=k value=v producer=p count=10000\n", 90), 5, "units of work"},
	}
	openHostileLinks(t, append(cases, hostileLinks(0)...))
}

// The other half of the engine's hostile scripts, beside the first: each
// half takes a minute or two in one tab.
func TestHostileLinksLeaveTheTabWorking(t *testing.T) {
	t.Parallel()
	openHostileLinks(t, hostileLinks(1))
}

type hostileLink struct {
	name, script string
	line         int    // the line the page stops at, 0 for any
	limit        string // what its alert says, "" for any limit or none
}

// hostileLinks are the links of every other hostile script, from the first
// (half 0) or the second (half 1). A script that has a variant ten times its
// size ("… x10") is opened in the browser as that variant alone: both stop
// at the same limit after the same work, which in the browser is half a
// minute of the suite's time for each, and the engine's own tests load
// both, natively and under wasm (core/scenario/hostile).
func hostileLinks(half int) []hostileLink {
	var links []hostileLink
	scripts := hostile.Scripts()
	names := map[string]bool{}
	for _, h := range scripts {
		names[h.Name] = true
	}
	scripts = slices.DeleteFunc(scripts, func(h hostile.Script) bool { return names[h.Name+" x10"] })
	for i, h := range scripts {
		if i%2 != half {
			continue
		}
		// A link without a rules line runs under rules 1, as links made
		// before rules versions did.
		links = append(links, hostileLink{name: h.Name, script: fmt.Sprintf("rules %d\n%s", core.LatestRules, h.Text)})
	}
	return links
}

// openHostileLinks opens each link in one tab, then a good one.
func openHostileLinks(t *testing.T, cases []hostileLink) {
	srv := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	// Keep the wasm's instance, whose linear memory is the page's Go heap.
	if _, err := chromedp.Call(b.ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `(() => {
  // The longest task that held the main thread, for the log: a figure
  // of this machine, not asserted.
  window.plogLongestTask = 0;
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) window.plogLongestTask = Math.max(window.plogLongestTask, e.duration);
  }).observe({type: "longtask", buffered: true});
  for (const name of ["instantiateStreaming", "instantiate"]) {
    const original = WebAssembly[name];
    if (!original) continue;
    WebAssembly[name] = async function (...args) {
      const result = await original.apply(WebAssembly, args);
      if (result && result.instance) window.plogWasm = result.instance;
      return result;
    };
  }
})()`}); err != nil {
		t.Fatal(err)
	}
	b.open(t, srv.URL)
	good := linkOf(t, ordersScenario)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b.reopen(t, srv.URL+linkOf(t, tc.script))
			alert := eval[string](t, b, `Array.from(document.querySelectorAll("main > [role=alert]")).map(el => el.textContent).join(" ")`)
			switch {
			case tc.line != 0:
				if !strings.Contains(alert, fmt.Sprintf("line %d", tc.line)) || !strings.Contains(alert, tc.limit) {
					t.Errorf("the alert says %q; want it to name line %d and the %s", alert, tc.line, tc.limit)
				}
			case strings.TrimSpace(alert) == "":
				// Opened whole: its lanes are drawn.
				if b.count(t, `[data-topic][data-partition]`) == 0 {
					t.Error("no alert and no lane")
				}
			case !slices.ContainsFunc(hostile.Refusals, func(p string) bool { return strings.Contains(alert, p) }):
				t.Errorf("the alert says %q, which names no limit", alert)
			}
			if strings.TrimSpace(alert) == "" {
				t.Logf("opened whole")
			} else {
				t.Logf("the alert says %.160q", alert)
			}
			for _, size := range [][2]int64{{1280, 800}, {390, 844}} {
				if strings.TrimSpace(alert) == "" {
					break
				}
				b.do(t, chromedp.EmulateViewport(size[0], size[1]))
				b.waitFor(t, fmt.Sprintf(`innerWidth === %d && innerHeight === %d`, size[0], size[1]))
				if where := shownAt(t, b, "main > [role=alert]"); where != "shown" {
					t.Errorf("at %dx%d the alert is %s", size[0], size[1], where)
				}
				if dir := os.Getenv("PLOG_SCREENSHOTS"); dir != "" {
					png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
					if err != nil {
						t.Fatal(err)
					}
					os.WriteFile(filepath.Join(dir, fmt.Sprintf("budget-%s-%dx%d.png", strings.ReplaceAll(tc.name, " ", "-"), size[0], size[1])), png, 0o644)
				}
			}
			b.do(t, chromedp.EmulateViewport(1280, 800))
			if n := b.count(t, `[data-topic="t"][data-partition]`); tc.line != 0 && n != 2 {
				t.Errorf("%d lanes of topic t, want its 2: the steps before the line", n)
			}
			memory := eval[float64](t, b, `window.plogWasm ? window.plogWasm.exports.mem.buffer.byteLength : -1`)
			if memory <= 0 || memory > 1<<30 {
				t.Errorf("the wasm holds %.0f MB", memory/(1<<20))
			}
			t.Logf("the wasm holds %.0f MB; the longest task on the main thread took %.0f ms", memory/(1<<20), eval[float64](t, b, `window.plogLongestTask`))
			// The same tab opens a good link next.
			eval[string](t, b, fmt.Sprintf(`location.hash = %s`, js(good)))
			b.waitCount(t, `[data-topic="orders"][data-partition]`, 3)
			if topics := eval[string](t, b, `Array.from(document.querySelectorAll("article.topic[data-topic]")).map(el => el.dataset.topic).join(",")`); topics != "audit,orders" {
				t.Errorf("after the good link, the page draws the topics %s, want audit,orders", topics)
			}
		})
	}
	b.noErrors(t)
}
