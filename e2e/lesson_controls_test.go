package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"plog/core/lesson"
	"plog/core/scenario"
)

// These tests solve the lessons that need the cluster's and the workloads'
// controls by clicking and typing only, as a learner does, and check that
// every command of the scenario language has a control on the page.

// lastLine is the timeline's last line: the command the last gesture sent.
func (b *browser) lastLine(t *testing.T) string {
	t.Helper()
	return strings.TrimSpace(b.text(t, "#timeline-script li:last-child .script-line"))
}

// walk follows a lesson through the page: after each gesture it checks
// that the timeline holds the lines the gesture sends and that the lesson
// panel says what the goal's check says of the lines so far.
type walk struct {
	b     *browser
	l     lesson.Lesson
	lines []string
}

// did checks the gesture just made sent lines, and the panel's progress.
func (r *walk) did(t *testing.T, lines ...string) lesson.Result {
	t.Helper()
	r.lines = append(r.lines, lines...)
	r.b.waitFor(t, fmt.Sprintf(`document.querySelector(".timeline").dataset.length === "%d"`, r.startLen(t)+len(r.lines)))
	if got := r.b.lastLine(t); got != lines[len(lines)-1] {
		t.Fatalf("the gesture sent %q, want %q", got, lines[len(lines)-1])
	}
	want := lessonResult(t, r.l, r.lines...)
	r.b.waitProgress(t, r.l.Name, want.Progress)
	r.b.waitCount(t, panel(r.l.Name)+fmt.Sprintf(`[data-solved="%v"]`, want.Solved), 1)
	return want
}

// startLen is how many commands the lesson's start holds.
func (r *walk) startLen(t *testing.T) int {
	t.Helper()
	cmds, err := scenario.Parse(r.l.Script)
	if err != nil {
		t.Fatal(err)
	}
	return len(cmds)
}

// openLesson opens a lesson from its start, as the lesson list's links do.
func openLesson(t *testing.T, name string) *walk {
	t.Helper()
	l, err := lesson.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	s := startPlogServer(t, build.rootSite, "/")
	b := newBrowser(t)
	b.open(t, s.URL+"#lesson="+name)
	b.waitCount(t, panel(name)+`[data-solved="false"]`, 1)
	return &walk{b: b, l: l}
}

// replication: acks on the produce form, the brokers' buttons and the
// topic config form.
func TestReplicationSolvedFromThePage(t *testing.T) {
	t.Parallel()
	r := openLesson(t, "replication")
	b := r.b
	brokerButton := func(id int, action string) string {
		return fmt.Sprintf(`li.broker[data-broker="%d"] [data-broker-action=%s]`, id, action)
	}

	b.fill(t, "#produce-key", "order-3")
	b.fill(t, "#produce-acks", "1")
	b.click(t, "#produce-send")
	r.did(t, "produce orders key=order-3 value=created acks=1")
	b.click(t, brokerButton(1, "crash"))
	r.did(t, "broker crash 1")

	b.fill(t, "#config-topic", "orders")
	b.fill(t, "#config-name", "min.insync.replicas")
	b.fill(t, "#config-value", "2")
	b.click(t, "#config-set")
	r.did(t, "config topic orders min.insync.replicas=2")
	if got := b.attr(t, `[data-replicas-of="orders/0"]`, "data-isr"); got != "2" {
		t.Errorf("ISR after broker 1's crash = %q, want broker 2 alone", got)
	}
	b.waitText(t, `[data-replicas-of="orders/0"] .replica-summary`, "min.insync.replicas=2")

	b.click(t, brokerButton(1, "restart"))
	r.did(t, "broker restart 1")
	b.click(t, "#advance-1s")
	r.did(t, "advance 1s")

	b.fill(t, "#produce-key", "order-4")
	b.fill(t, "#produce-acks", "all")
	b.click(t, "#produce-send")
	r.did(t, "produce orders key=order-4 value=created acks=all")
	b.click(t, "#advance-1s")
	r.did(t, "advance 1s")
	b.click(t, brokerButton(2, "crash"))
	if res := r.did(t, "broker crash 2"); !res.Solved {
		t.Fatalf("the reference solution through the page does not solve it: %s", res.Progress)
	}
	b.waitText(t, panel("replication")+" [role=status][aria-live]", "Solved!")
	b.noErrors(t)
}

// hot-partition: the workloads' Stop button and producer form.
func TestHotPartitionSolvedFromThePage(t *testing.T) {
	t.Parallel()
	r := openLesson(t, "hot-partition")
	b := r.b
	b.waitCount(t, `[data-workload]`, 5)
	if got := b.text(t, `[data-workload="web"] code`); got != "producer web views rate=40/s keys=zipf keyspace=50 exponent=2" {
		t.Errorf("the running producer shows %q", got)
	}

	b.click(t, `[data-workload="web"] [data-command=stop]`)
	r.did(t, "stop web")
	b.waitCount(t, `[data-workload="web"]`, 0)

	b.fill(t, "#producer-name", "web")
	b.fill(t, "#producer-topic", "views")
	b.fill(t, "#producer-rate", "40/s")
	b.fill(t, "#producer-keys", "uniform")
	b.fill(t, "#producer-keyspace", "10000")
	b.click(t, "#producer-start")
	r.did(t, "producer web views rate=40/s keys=uniform keyspace=10000")
	b.waitCount(t, `[data-workload="web"]`, 1)

	b.fill(t, "#advance-duration", "5m")
	b.click(t, "#advance-go")
	if res := r.did(t, "advance 5m"); !res.Solved {
		t.Fatalf("the reference solution through the page does not solve it: %s", res.Progress)
	}
	// The fix holds: a minute later the lesson is still solved.
	b.click(t, "#advance-1m")
	if res := r.did(t, "advance 1m"); !res.Solved {
		t.Errorf("a minute after the fix: %s", res.Progress)
	}
	b.noErrors(t)
}

// A burst of random keys from the quick generator evens out the last minute
// while the skewed producer still runs: the page does not call that solved.
func TestHotPartitionBurstIsNotTheFix(t *testing.T) {
	t.Parallel()
	r := openLesson(t, "hot-partition")
	b := r.b
	b.fill(t, "#generate-count", "1000")
	for range 8 {
		b.click(t, "#generate-uniform")
		// The generator names its workload after the step it starts.
		name := fmt.Sprintf("burst-%d", r.startLen(t)+len(r.lines)+1)
		r.did(t, "producer "+name+" views rate=1000/s keys=uniform keyspace=1000", "advance 1s", "stop "+name)
	}
	// Faster consumers, replaced from the consumer form.
	b.fill(t, "#consumer-group", "stats")
	b.fill(t, "#consumer-rate", "100/s")
	b.fill(t, "#consumer-max", "100")
	for _, m := range []string{"s1", "s2", "s3", "s4"} {
		b.fill(t, "#consumer-member", m)
		b.waitText(t, "#consumer-start", "Replace consumer stats "+m)
		b.click(t, "#consumer-start")
		r.did(t, "stop stats "+m, "consumer stats "+m+" rate=100/s max=100 commit")
	}
	b.fill(t, "#advance-duration", "20s")
	b.click(t, "#advance-go")
	res := r.did(t, "advance 20s")
	if res.Solved || !strings.Contains(res.Progress, "a producer with skewed keys still runs") {
		t.Errorf("with web still running: %+v", res)
	}
	b.noErrors(t)
}

// everyControlScenario brings out every control of the page; the native
// test of app/ opens it too.
const everyControlScenario = "../app/testdata/every_control.plog"

// Every command of the language, from the table the parser reads, has a
// control on the page that sends it, named by data-command, in sight or a
// click away: in one of the dock's tabs, or in the inspector of a topic, a
// lane or a group.
func TestEveryCommandHasAControlOnThePage(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile(everyControlScenario)
	if err != nil {
		t.Fatal(err)
	}
	b := openPlayground(t, string(script))
	b.waitCount(t, `[data-workload]`, 2)
	// A group's join form is behind "+ Join a member": the learner opens it.
	b.click(t, `article[data-group] [data-action=join-member]`)
	// The share groups' join form is behind "+ New share group".
	b.click(t, `[data-action=new-share-group]`)
	// Each way to a control: what to click, and what shows once it has.
	ways := []struct{ click, shows string }{{"", "true"}}
	for _, tab := range []string{"produce", "topics", "time", "cluster"} {
		ways = append(ways, struct{ click, shows string }{"[data-dock-tab=" + tab + "]", "!document.querySelector('#dock-" + tab + "').hidden"})
	}
	ways = append(ways,
		struct{ click, shows string }{"[data-inspect-topic]", `!document.querySelector('#dock-inspector').hidden && document.querySelector('[data-inspector]').dataset.inspector === "topic"`},
		struct{ click, shows string }{"[data-inspect-partition]", `document.querySelector('[data-inspector]').dataset.inspector === "partition"`},
		struct{ click, shows string }{"[data-action=inspect-group]", `document.querySelector('[data-inspector]').dataset.inspector === "group"`})
	for _, name := range scenario.CommandNames() {
		if name == scenario.CmdAnswer {
			continue // under a lesson's question: TestLearnerAnswersALessonsQuestion clicks it
		}
		visible := fmt.Sprintf(`[...document.querySelectorAll('[data-command=%s]')].some(el => el.getClientRects().length > 0)`, js(name))
		found := false
		for _, way := range ways {
			if way.click != "" {
				b.click(t, way.click)
			}
			b.waitFor(t, way.shows)
			if eval[bool](t, b, visible) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("no control on the page sends %q (%s), in sight or in a tab of the dock or the inspector", name, scenario.Usage(name))
		}
	}
	b.noErrors(t)
}

// The new controls in free play: acks, a topic's config, producers and
// consumers started, replaced and stopped, the cluster, an explicit
// commit, and the seed; a refused line shows beside its control and
// changes nothing.
func TestWorkloadConfigAndClusterControls(t *testing.T) {
	t.Parallel()
	b := openPlayground(t, "seed 1\ntopic views partitions=2\njoin stats s1 topics=views\nadvance 3s\n")
	length := 4
	sent := func(line string) {
		t.Helper()
		length++
		b.waitFor(t, fmt.Sprintf(`document.querySelector(".timeline").dataset.length === "%d"`, length))
		if got := b.lastLine(t); got != line {
			t.Fatalf("sent %q, want %q", got, line)
		}
	}
	refused := func(control, want string) {
		t.Helper()
		b.waitText(t, fmt.Sprintf(`[data-control=%s][role=alert]`, js(control)), want)
		if got := b.steps(t); got != fmt.Sprint(length) {
			t.Errorf("a refused line changed the timeline to %s steps", got)
		}
	}

	// acks on the produce form.
	b.fill(t, "#produce-acks", "0")
	b.click(t, "#produce-send")
	sent("produce views key=acct-1 value=created acks=0")

	// A topic's config, changed; picking it says what it does and where the
	// playground's default departs from Kafka's; a bad value is refused
	// beside the form.
	b.fill(t, "#config-name", "segment.records")
	b.waitText(t, `#config-help[data-config-help="segment.records"]`, "A config of the playground's own, not Kafka's (default 10).")
	b.fill(t, "#config-name", "retention.ms")
	b.waitText(t, `#config-help[data-config-help="retention.ms"]`, "Kafka's default is 7d; the playground's is 1h.")
	b.fill(t, "#config-value", "soon")
	b.click(t, "#config-set")
	refused("config-topic", "retention.ms")
	b.fill(t, "#config-value", "1h")
	b.click(t, "#config-set")
	sent("config topic views retention.ms=1h")
	b.waitText(t, `[data-topic="views"] .configs`, "retention.ms=1h")

	// A producer started, then replaced under its name, then stopped.
	b.fill(t, "#producer-name", "clicks")
	b.fill(t, "#producer-rate", "5/s")
	b.fill(t, "#producer-keys", "zipf")
	b.fill(t, "#producer-keyspace", "20")
	b.fill(t, "#producer-exponent", "1.5")
	b.fill(t, "#producer-acks", "1")
	b.click(t, "#producer-start")
	sent("producer clicks views rate=5/s keys=zipf keyspace=20 exponent=1.5 acks=1")
	b.waitText(t, "#producer-start", "Replace producer clicks")
	b.fill(t, "#producer-keys", "sequence")
	b.fill(t, "#producer-acks", "")
	b.click(t, "#producer-start")
	length++ // stop, then the new producer: one gesture
	sent("producer clicks views rate=5/s keys=sequence")
	if got := b.text(t, `#timeline-script li:nth-last-child(2) .script-line`); strings.TrimSpace(got) != "stop clicks" {
		t.Errorf("the replacement's first line is %q, want stop clicks", got)
	}
	b.waitCount(t, `[data-workload="clicks"]`, 1)
	b.click(t, "#advance-1s")
	sent("advance 1s")
	b.waitFor(t, `+document.querySelector('[data-topic="views"][data-partition="0"]').dataset.highWatermark + +document.querySelector('[data-topic="views"][data-partition="1"]').dataset.highWatermark === 6`)
	b.click(t, `[data-workload="clicks"] [data-command=stop]`)
	sent("stop clicks")
	b.waitCount(t, `[data-workload]`, 0)

	// A consumer started for a member, then stopped.
	b.fill(t, "#consumer-group", "stats")
	b.fill(t, "#consumer-member", "s1")
	b.click(t, "#consumer-start")
	sent("consumer stats s1 rate=2/s max=5 commit")
	b.click(t, "#advance-1s")
	sent("advance 1s")
	stats := b.groupInspector(t, "stats")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.delivered === "6"`, js(stats+" [data-delivered]")))
	b.click(t, `[data-workload="stats s1"] [data-command=stop]`)
	sent("stop stats s1")

	// An explicit commit of one partition.
	b.fill(t, stats+` .group-commit [name=partition]`, "views/0")
	b.fill(t, stats+` .group-commit [name=offset]`, "1")
	b.click(t, stats+` .group-commit button[type=submit]`)
	sent("commit stats views/0 offset=1")
	b.waitFor(t, fmt.Sprintf(`document.querySelector(%s).dataset.groupCommitted === "1"`, js(stats+` [data-lag-of="views/0"]`)))

	// The cluster: five brokers, one slowed to a pace.
	b.fill(t, "#brokers-count", "5")
	b.click(t, "#brokers-set")
	sent("brokers 5")
	b.waitCount(t, "li.broker", 5)
	b.fill(t, "#broker-slow-id", "2")
	b.fill(t, "#broker-slow-pace", "5/s")
	b.click(t, "#broker-slow-go")
	sent("broker slow 2 pace=5/s")
	b.waitCount(t, `li.broker[data-broker="2"][data-status="slowed"]`, 1)

	// The seed is only the first command.
	b.click(t, "#seed-set")
	refused("seed", "seed must be the first command")
	b.noErrors(t)
}
