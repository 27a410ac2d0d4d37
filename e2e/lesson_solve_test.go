package e2e

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"plog/core/lesson"

	"github.com/chromedp/chromedp"
)

// Each lesson solved as a learner solves it: opened from the Lessons list or
// its #lesson= link (which opens it at its start, holding no solution), then
// worked through the page's forms and buttons only. After every action the
// test reads the lines the controls wrote into the timeline, checks the same
// lines natively, and expects the page's lesson panel to say what the
// engine says; the last action, and only it, solves the lesson.

// learner works through one lesson on the page.
type learner struct {
	t      *testing.T
	b      *browser
	l      lesson.Lesson
	start  int  // timeline length once the lesson opened
	solved bool // the lesson was solved before the current action
}

// learnerAt opens a lesson from its #lesson= link in a fresh browser.
func learnerAt(t *testing.T, s *server, name string) *learner {
	t.Helper()
	b := newBrowser(t)
	b.open(t, s.URL+"#lesson="+name)
	return newLearner(t, b, name)
}

// learnerFromList opens the page, unfolds the Lessons list with the
// masthead's button and picks a lesson in it.
func learnerFromList(t *testing.T, s *server, name string) *learner {
	t.Helper()
	b := newBrowser(t)
	b.open(t, s.URL)
	b.click(t, "#lessons-open")
	b.waitFor(t, `document.querySelector("[data-lesson-list] details").open`)
	b.click(t, fmt.Sprintf(`[data-lesson-list] [data-lesson=%s] a`, js(name)))
	return newLearner(t, b, name)
}

// learnerAtALaptop is learnerFromList in a window of 1280x800, the
// laptop the issues measure the page at.
func learnerAtALaptop(t *testing.T, s *server, name string) *learner {
	t.Helper()
	x := learnerFromList(t, s, name)
	x.b.do(t, chromedp.EmulateViewport(1280, 800))
	x.b.waitFor(t, `innerWidth === 1280`)
	return x
}

// newLearner waits for the lesson's panel and checks that it opened at its
// start, unsolved.
func newLearner(t *testing.T, b *browser, name string) *learner {
	t.Helper()
	l, err := lesson.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	b.waitCount(t, panel(name), 1)
	x := &learner{t: t, b: b, l: l}
	x.start = x.length()
	if x.start == 0 {
		t.Fatalf("%s opened with an empty timeline", name)
	}
	if r := x.check(); r.Solved {
		t.Fatalf("%s is solved at its start: %s", name, r.Progress)
	}
	return x
}

// length is how many lines the timeline holds.
func (x *learner) length() int {
	x.t.Helper()
	n, err := strconv.Atoi(x.b.steps(x.t))
	if err != nil {
		x.t.Fatalf("the timeline's data-length: %v", err)
	}
	return n
}

// lines are the lines the learner's actions wrote, as the timeline shows
// them.
func (x *learner) lines() []string {
	x.t.Helper()
	var lines []string
	for step := x.start + 1; step <= x.length(); step++ {
		lines = append(lines, x.b.text(x.t, fmt.Sprintf(`.timeline .script-line[data-step="%d"]`, step)))
	}
	return lines
}

// check waits until the lesson panel shows what the engine says of the
// lesson's start plus the learner's lines, and returns it.
func (x *learner) check() lesson.Result {
	x.t.Helper()
	want := lessonResult(x.t, x.l, x.lines()...)
	x.b.waitProgress(x.t, x.l.Name, want.Progress)
	if got := x.b.attr(x.t, panel(x.l.Name), "data-solved"); got != strconv.FormatBool(want.Solved) {
		x.t.Fatalf("%s: data-solved = %s with progress %q, want %v", x.l.Name, got, want.Progress, want.Solved)
	}
	return want
}

// act does one thing on the page, waits until the timeline holds the
// line it writes, checks that line says what the learner meant (every
// word of want is in it) and checks the lesson's progress. A control that
// refuses the action fails the test with its message.
func (x *learner) act(want string, action func()) {
	x.t.Helper()
	if x.solved {
		x.t.Fatalf("%s was solved before %q", x.l.Name, want)
	}
	before := x.length()
	action()
	x.b.waitFor(x.t, fmt.Sprintf(`+document.querySelector(".timeline").dataset.length > %d ||
		!!document.querySelector(".control-error[role=alert]")`, before))
	if alert := x.b.text(x.t, ".control-error[role=alert]"); alert != "" {
		x.t.Fatalf("%s: the page refused %q: %s", x.l.Name, want, alert)
	}
	if n := x.length(); n != before+1 {
		x.t.Fatalf("%s: %q wrote %d lines, want 1", x.l.Name, want, n-before)
	}
	lines := x.lines()
	got := lines[len(lines)-1]
	words := strings.Fields(got)
	for _, w := range strings.Fields(want) {
		if !slices.Contains(words, w) {
			x.t.Fatalf("%s: the page wrote %q for %q", x.l.Name, got, want)
		}
	}
	x.solved = x.check().Solved
}

// done checks that the last action solved the lesson: the panel, its
// announcement and the lanes agree with the engine.
func (x *learner) done() {
	x.t.Helper()
	if !x.solved {
		x.t.Fatalf("%s is not solved after %q", x.l.Name, x.lines())
	}
	lines := x.lines()
	x.t.Logf("%s solved by the lines the controls wrote:\n%s", x.l.Name, strings.Join(lines, "\n"))
	x.b.waitText(x.t, panel(x.l.Name)+" [role=status][aria-live]", "Solved!")
	// Seen, not only there: a walk found lesson 20's Solved! scrolled
	// under the progress that sticks at the lesson box's top.
	if problem := onScreenSoon(x.t, x.b, panel(x.l.Name)+" [data-lesson-status]"); problem != "" {
		x.t.Errorf("%s's Solved! line is %s", x.l.Name, problem)
	}
	checkDrawnLanes(x.t, x.b, x.l.Script+strings.Join(lines, "\n"))
	x.b.noErrors(x.t)
}

// checkDrawnLanes fails the test unless the page shows the partitions the
// script makes, with their log starts and high watermarks, and each record
// it draws (a lane draws a window of a long partition) at its offset with
// its key.
func checkDrawnLanes(t *testing.T, b *browser, script string) {
	t.Helper()
	want := lanesOfLoaded(t, script)
	got := lanesOnPage(t, b)
	if len(got) != len(want) {
		t.Fatalf("the page draws %d lanes, want %d", len(got), len(want))
	}
	for i, g := range got {
		w := want[i]
		if g.Topic != w.Topic || g.Partition != w.Partition || g.LogStart != w.LogStart || g.HighWater != w.HighWater {
			t.Errorf("lane %d is %s/%s from %s to %s, want %s/%s from %s to %s",
				i, g.Topic, g.Partition, g.LogStart, g.HighWater, w.Topic, w.Partition, w.LogStart, w.HighWater)
		}
		if len(g.Records) == 0 && len(w.Records) > 0 {
			t.Errorf("lane %s/%s draws no record of its %d", g.Topic, g.Partition, len(w.Records))
		}
		for offset, key := range g.Records {
			if k, ok := w.Records[offset]; !ok || k != key {
				t.Errorf("lane %s/%s draws offset %s with key %q, want %q (present: %v)", g.Topic, g.Partition, offset, key, k, ok)
			}
		}
	}
}

// produce sends records through the produce form: key "" ticks "no key".
func (x *learner) produce(topic, key, value string, count int) {
	x.t.Helper()
	want := "produce " + topic + " value=" + value
	if key != "" {
		want += " key=" + key
	}
	if count != 1 {
		want += fmt.Sprintf(" count=%d", count)
	}
	x.act(want, func() {
		x.fillRecord(topic, key, false)
		x.b.fill(x.t, "#produce-value", value)
		x.b.openProduceOptions(x.t)
		x.b.fill(x.t, "#produce-count", strconv.Itoa(count))
		x.b.click(x.t, "#produce-send")
	})
}

// tombstone sends a tombstone for a key through the produce form.
func (x *learner) tombstone(topic, key string) {
	x.t.Helper()
	x.act("produce "+topic+" key="+key+" tombstone", func() {
		x.fillRecord(topic, key, true)
		x.b.openProduceOptions(x.t)
		x.b.fill(x.t, "#produce-count", "1")
		x.b.click(x.t, "#produce-send")
	})
}

// fillRecord picks the topic, the key (or no key) and the tombstone box,
// and waits until the key and value boxes are enabled or disabled to match.
func (x *learner) fillRecord(topic, key string, tombstone bool) {
	x.t.Helper()
	x.b.fill(x.t, "#produce-topic", topic)
	x.b.setChecked(x.t, "#produce-no-key", key == "")
	x.b.setChecked(x.t, "#produce-tombstone", tombstone)
	x.b.waitFor(x.t, fmt.Sprintf(`document.querySelector("#produce-key").disabled === %v &&
		document.querySelector("#produce-value").disabled === %v`, key == "", tombstone))
	if key != "" {
		x.b.fill(x.t, "#produce-key", key)
	}
}

// advance moves the clock: the +1 s, +1 m and +1 h buttons, or any
// duration typed into "Advance by".
func (x *learner) advance(d string) {
	x.t.Helper()
	x.act("advance "+d, func() {
		switch d {
		case "1s", "1m", "1h":
			x.b.click(x.t, "#advance-"+d)
		default:
			x.b.fill(x.t, "#advance-duration", d)
			x.b.click(x.t, "#advance-go")
		}
	})
}

// createTopic creates a topic with the New topic form's defaults.
func (x *learner) createTopic(name string, partitions int) {
	x.t.Helper()
	x.act(fmt.Sprintf("topic %s partitions=%d", name, partitions), func() {
		x.b.fill(x.t, "#topic-name", name)
		x.b.fill(x.t, "#topic-partitions", strconv.Itoa(partitions))
		x.b.click(x.t, "#topic-create")
	})
}

// compact runs the log cleaner on a topic with "Run the cleaner now", the
// playground's shortcut.
func (x *learner) compact(topic string) {
	x.t.Helper()
	x.act("compact "+topic, func() {
		x.b.fill(x.t, "#compact-topic", topic)
		x.b.click(x.t, "#compact-go")
	})
}

// join adds a member to a group with the join form; strategy and instance
// may be "".
func (x *learner) join(groupName, id, topics, strategy, instance string) {
	x.t.Helper()
	want := fmt.Sprintf("join %s %s topics=%s", groupName, id, topics)
	if strategy != "" {
		want += " strategy=" + strategy
	}
	if instance != "" {
		want += " instance=" + instance
	}
	x.act(want, func() { x.b.joinMember(x.t, groupName, id, topics, strategy, instance) })
}

// poll types a max into a member's max box and clicks its Poll button.
func (x *learner) poll(groupName, id string, max int) {
	x.t.Helper()
	x.act(fmt.Sprintf("poll %s %s max=%d", groupName, id, max), func() {
		x.b.waitCount(x.t, member(groupName, id)+" [name=max]", 1)
		x.b.fill(x.t, member(groupName, id)+" [name=max]", strconv.Itoa(max))
		x.b.click(x.t, member(groupName, id)+" [data-action=poll]")
	})
}

// memberButton clicks one of a member's buttons: commit, leave, crash.
func (x *learner) memberButton(groupName, id, action string) {
	x.t.Helper()
	x.act(action+" "+groupName+" "+id, func() {
		x.b.waitCount(x.t, member(groupName, id)+" [data-action="+action+"]", 1)
		x.b.click(x.t, member(groupName, id)+" [data-action="+action+"]")
	})
}

// comeBack clicks a stopped static member's "Come back as" button.
func (x *learner) comeBack(groupName, id, topics string) {
	x.t.Helper()
	x.act(fmt.Sprintf("join %s %s topics=%s instance=%s", groupName, id, topics, id), func() {
		x.b.waitCount(x.t, member(groupName, id)+" [data-action=come-back]", 1)
		x.b.click(x.t, member(groupName, id)+" [data-action=come-back]")
	})
}

// groupConfig types a value into a group's config field and clicks Set.
func (x *learner) groupConfig(groupName, name, value string) {
	x.t.Helper()
	x.act(fmt.Sprintf("config group %s %s=%s", groupName, name, value), func() {
		inspector := x.b.groupInspector(x.t, groupName)
		x.b.fill(x.t, fmt.Sprintf(`%s .group-config [name=%s]`, inspector, js(name)), value)
		x.b.click(x.t, inspector+" .group-config button[type=submit]")
	})
}

// resetOffsets resets a group's offsets with its Reset offsets form, to
// the earliest or latest offset of a topic.
func (x *learner) resetOffsets(groupName, mode, topic string) {
	x.t.Helper()
	x.act(fmt.Sprintf("reset %s %s topic=%s", groupName, mode, topic), func() {
		inspector := x.b.groupInspector(x.t, groupName)
		x.b.fill(x.t, inspector+" .group-reset [name=mode]", mode)
		x.b.fill(x.t, inspector+" .group-reset [name=scope]", topic)
		x.b.click(x.t, inspector+" .group-reset button[type=submit]")
	})
}

// producerStep presses one of a named producer's buttons in the Produce
// tab's Producers panel: a wire fault (wire, lose-request or
// lose-response) or a transaction's step (txn, init, begin, commit or
// abort).
func (x *learner) producerStep(name, command, action string) {
	x.t.Helper()
	x.act(command+" "+name+" "+action, func() {
		button := fmt.Sprintf(`[data-producer=%s] [data-command=%s][data-action=%s]`, js(name), command, action)
		x.b.waitCount(x.t, button, 1)
		x.b.click(x.t, button)
	})
}

// sendOffsets picks a group in a transactional producer's card and
// presses Send offsets.
func (x *learner) sendOffsets(name, groupName string) {
	x.t.Helper()
	x.act(fmt.Sprintf("txn %s send-offsets group=%s", name, groupName), func() {
		x.b.fill(x.t, "#producer-"+name+"-group", groupName)
		x.b.click(x.t, fmt.Sprintf(`[data-producer=%s] [data-command=txn][data-action=send-offsets]`, js(name)))
	})
}

// produceThrough sends through a named producer with the produce form:
// its Producer picker, then one value, or Values (a,b,c, one record
// each); key "" ticks "no key".
func (x *learner) produceThrough(topic, key, producer, value, values string) {
	x.t.Helper()
	want := "produce " + topic + " producer=" + producer
	if key != "" {
		want += " key=" + key
	}
	if values != "" {
		want += " values=" + values
	} else {
		want += " value=" + value
	}
	x.act(want, func() {
		x.fillRecord(topic, key, false)
		x.b.fill(x.t, "#produce-producer", producer)
		x.b.waitCount(x.t, "#produce-values", 1)
		x.b.fill(x.t, "#produce-values", values)
		if values == "" {
			x.b.fill(x.t, "#produce-value", value)
		}
		x.b.openProduceOptions(x.t)
		x.b.fill(x.t, "#produce-count", "1")
		x.b.click(x.t, "#produce-send")
	})
}

// shareJoin adds a member to a share group with the form behind
// "+ New share group" (opened once), with its max.poll.records.
func (x *learner) shareJoin(groupName, id, topics string, maxPoll int) {
	x.t.Helper()
	x.act(fmt.Sprintf("share-join %s %s topics=%s max.poll.records=%d", groupName, id, topics, maxPoll), func() {
		if x.b.attr(x.t, `[data-action=new-share-group]`, "aria-expanded") != "true" {
			x.b.click(x.t, `[data-action=new-share-group]`)
		}
		x.b.fill(x.t, `.share-join-form [name=group]`, groupName)
		x.b.fill(x.t, `.share-join-form [name=member]`, id)
		x.b.fill(x.t, `.share-join-form [name=topics]`, topics)
		x.b.fill(x.t, `.share-join-form [name="max.poll.records"]`, strconv.Itoa(maxPoll))
		x.b.click(x.t, `.share-join-form button[type=submit]`)
	})
}

// shareButton clicks one of a share group member's buttons (share-poll,
// accept, release, reject, renew, share-leave, crash); want is the line
// it writes.
func (x *learner) shareButton(groupName, id, action, want string) {
	x.t.Helper()
	sel := fmt.Sprintf(`[data-share-group=%s] [data-share-member=%s] [data-action=%s]`, js(groupName), js(id), js(action))
	x.act(want, func() {
		x.b.waitCount(x.t, sel, 1)
		x.b.click(x.t, sel)
	})
}

// The steps of each lesson, as a learner takes them from its text and
// hints. key-order is TestLessonSolvedThroughTheControls.
var lessonSteps = map[string]func(x *learner){
	"offsets": func(x *learner) {
		x.join("audit", "a1", "events", "", "")
		x.join("search", "s1", "events", "", "")
		x.advance("3s")
		x.poll("audit", "a1", 5)
		x.poll("search", "s1", 5)
		x.memberButton("audit", "a1", "leave")
		x.resetOffsets("audit", "to-earliest", "events")
		x.join("audit", "a1", "events", "", "")
		x.advance("3s")
		x.poll("audit", "a1", 5)
	},
	"commit-resume": func(x *learner) {
		x.poll("billing", "b1", 5)
		x.memberButton("billing", "b1", "commit")
		x.memberButton("billing", "b1", "leave")
		x.join("billing", "b1", "orders", "", "")
		x.advance("3s")
		x.poll("billing", "b1", 5)
		x.join("audit", "a1", "orders", "", "")
		x.advance("3s")
		x.poll("audit", "a1", 10)
	},
	"at-least-once": func(x *learner) {
		x.poll("safe", "a1", 3)
		x.memberButton("safe", "a1", "crash")
		x.advance("1m")
		x.poll("safe", "a2", 10)
		x.memberButton("safe", "a2", "commit")
		// at-most-once: the commit comes before the processing, so the
		// crash loses the records r1 was working on.
		x.poll("risky", "r1", 3)
		x.memberButton("risky", "r1", "commit")
		x.memberButton("risky", "r1", "crash")
	},
	"assignors": func(x *learner) {
		x.join("robin", "c1", "orders", "roundrobin", "")
		x.join("robin", "c2", "orders", "", "")
		x.join("shipping", "c5", "payments", "", "")
		// c2 joined in robin's first wait, which waits 3s more.
		x.advance("6s")
	},
	"rebalance-moves": func(x *learner) {
		x.memberButton("eager", "e1", "leave")
		x.memberButton("coop", "c1", "leave")
		// The others rejoin in their polls, which end the rebalances.
		x.poll("eager", "e2", 10)
		x.poll("eager", "e3", 10)
		x.poll("coop", "c2", 10)
		x.poll("coop", "c3", 10)
	},
	"rolling-deploy": func(x *learner) {
		for _, id := range []string{"k1", "k2", "k3"} {
			x.join("calm", id, "events", "", id)
		}
		x.advance("6s") // each joined in the first wait, 3s longer
		// Each restart takes 5s, well within session.timeout.ms.
		for i, id := range []string{"k1", "k2", "k3"} {
			if i > 0 {
				x.advance("5s")
			}
			x.memberButton("calm", id, "leave")
			x.advance("5s")
			x.comeBack("calm", id, "events")
		}
	},
	"out-of-order": func(x *learner) {
		for _, order := range []string{"order-8", "order-9"} {
			for _, event := range []string{"created", "updated", "shipped"} {
				// The key names the order and the value the event, as
				// a learner who has not read the hints writes them.
				x.produce("orders", order, event, 1)
			}
		}
		x.poll("shipping", "s1", 10)
	},
	"repartition": func(x *learner) {
		x.poll("ledger", "l1", 5)
		x.memberButton("ledger", "l1", "commit")
		x.createTopic("accounts-v2", 3)
		x.join("ledger", "l1", "accounts,accounts-v2", "", "")
		x.advance("3s")
		x.produce("accounts-v2", "alice", "withdrawal", 1)
		x.produce("accounts-v2", "carol", "withdrawal", 1)
		x.produce("accounts-v2", "dave", "deposit", 1)
		x.poll("ledger", "l1", 5)
	},
	"retention-cliff": func(x *learner) {
		x.groupConfig("slow", "lag.alert.ms", "2m")
		x.advance("5m")
		x.advance("10m")
	},
	"time-lag": func(x *learner) {
		x.groupConfig("analytics", "lag.alert.ms", "10m")
		x.groupConfig("ledger", "lag.alert.ms", "10m")
	},
	"compaction": func(x *learner) {
		x.tombstone("balances", "acct-3")
		x.produce("balances", "acct-2", "45", 1)
		x.produce("balances", "acct-1", "80", 1)
		x.compact("balances")
		x.join("rebuild", "r1", "balances", "", "")
		x.advance("3s")
		x.poll("rebuild", "r1", 20)
	},
	"share-groups": func(x *learner) {
		x.shareJoin("workers", "w3", "jobs", 2)
		for _, id := range []string{"w1", "w2", "w3"} {
			x.shareButton("workers", id, "share-poll", "share-poll workers "+id)
		}
		x.shareButton("workers", "w3", "crash", "crash workers w3")
		x.advance("30s")
		x.shareButton("workers", "w1", "share-poll", "share-poll workers w1")
		for range 5 {
			x.shareButton("refunds", "r1", "share-poll", "share-poll refunds r1")
			x.shareButton("refunds", "r1", "release", "acknowledge refunds r1 release payments/0 offsets=0")
		}
	},
	"time-retention": func(x *learner) {
		x.advance("4m")
		x.produce("logs", "", "late", 2)
		x.advance("8m")
	},
	"idempotence": func(x *learner) {
		x.producerStep("plain", "wire", "lose-response")
		x.produceThrough("payments", "pay-1", "plain", "10EUR", "")
		x.producerStep("safe", "wire", "lose-response")
		x.produceThrough("payments", "pay-2", "safe", "25EUR", "")
	},
	"transactions": func(x *learner) {
		x.producerStep("shop", "txn", "begin")
		x.produceThrough("orders", "order-1", "shop", "placed", "")
		x.produceThrough("payments", "order-1", "shop", "charged", "")
		x.producerStep("shop", "txn", "commit")
		x.producerStep("shop", "txn", "begin")
		x.produceThrough("orders", "order-2", "shop", "placed", "")
		x.produceThrough("payments", "order-2", "shop", "charged", "")
		x.producerStep("shop", "txn", "abort")
		x.poll("audit", "a1", 10)
		x.poll("raw", "r1", 10)
	},
	"zombie-fencing": func(x *learner) {
		x.producerStep("new", "txn", "init")
		x.producerStep("new", "txn", "begin")
		x.produceThrough("payments", "pay-2", "new", "25EUR", "")
		x.producerStep("new", "txn", "commit")
		x.poll("ledger", "l1", 10)
	},
	"exactly-once": func(x *learner) {
		x.poll("billing", "b1", 3)
		x.producerStep("out-1", "txn", "begin")
		x.produceThrough("receipts", "", "out-1", "", "pay-1,pay-2,pay-3")
		x.sendOffsets("out-1", "billing")
		// The first instance dies before it commits; the second takes
		// its transactional.id, which aborts the open transaction.
		x.memberButton("billing", "b1", "crash")
		x.producerStep("out-2", "txn", "init")
		x.advance("1m")
		x.poll("billing", "b2", 10)
		x.producerStep("out-2", "txn", "begin")
		x.produceThrough("receipts", "", "out-2", "", "pay-1,pay-2,pay-3")
		x.sendOffsets("out-2", "billing")
		x.producerStep("out-2", "txn", "commit")
		x.poll("audit", "a1", 10)
	},
}

// TestLessonSolvedByLearner solves every lesson of lessonSteps through the
// page's controls. offsets is opened from the Lessons list, the others from
// their #lesson= links.
func TestLessonSolvedByLearner(t *testing.T) {
	t.Parallel()
	s := startPlogServer(t, build.rootSite, "/")
	for _, l := range lesson.All() {
		steps, ok := lessonSteps[l.Name]
		if !ok {
			continue
		}
		t.Run(l.Name, func(t *testing.T) {
			t.Parallel()
			var x *learner
			if l.Name == "offsets" {
				x = learnerFromList(t, s, l.Name)
			} else {
				x = learnerAt(t, s, l.Name)
			}
			steps(x)
			x.done()
		})
	}
}

// openProduceOptions unfolds the produce form's count, acks and
// partitioner, as a learner clicks their summary, unless they are open.
func (b *browser) openProduceOptions(t *testing.T) {
	t.Helper()
	if !eval[bool](t, b, `document.getElementById("produce-options").open`) {
		b.click(t, "#produce-options > summary")
		b.waitFor(t, `document.getElementById("produce-options").open`)
	}
}
