package conformance

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"plog/core/lesson"
	"plog/internal/kafkabroker"
	"plog/kafkarun"
)

// The suite runs against one broker, started in TestMain and shared: each
// case's topics and groups carry their own prefix (kafkarun), so cases run
// side by side.
var brokers []string

// How many random scenarios to run (PLOG_CONFORMANCE_RANDOM; `make
// conformance` asks for 300), and of how many commands each. CI runs the
// fixed sample: seeds 1 to ciRandom. PLOG_CONFORMANCE_SEEDS=24,58 runs
// those seeds instead, to replay failures.
const (
	ciRandom    = 16
	randomSteps = 25
)

func TestMain(m *testing.M) {
	configs := maps.Clone(consumerProtocolConfigs)
	maps.Copy(configs, shareGroupConfigs)
	c, err := kafkabroker.Start(context.Background(), kafkabroker.Options{Configs: configs})
	if err != nil {
		fmt.Fprintf(os.Stderr, "conformance: starting Kafka %s: %v\n", kafkabroker.Version, err)
		os.Exit(1)
	}
	brokers = c.Brokers()
	code := m.Run()
	if err := c.Close(); err != nil {
		fmt.Fprintln(os.Stderr, "conformance: stopping Kafka:", err)
		code = 1
	}
	if path := os.Getenv("PLOG_FIDELITY"); path != "" {
		if err := os.WriteFile(path, []byte(results.fidelity()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "conformance:", err)
			code = 1
		}
	}
	os.Exit(code)
}

// The deadlines of the cases run through kafkarun: each wait of a run on
// the broker (a group settling, a poll filling) may take runWait, one
// command three times that, and a whole case or targeted test
// caseDeadline. Generous: make test runs the suite four cases at a time
// beside the other tests on two cores, and a run that goes well never
// waits them out.
const (
	runWait      = time.Minute
	caseDeadline = 10 * time.Minute
)

// runOptions are kafkarun's options for a case on the suite's broker: its
// connections, too, wait as long as a loaded machine may need.
func runOptions() kafkarun.Options {
	return kafkarun.Options{Brokers: brokers, WaitTimeout: runWait, DialTimeout: runWait}
}

// keptRunOptions are runOptions that keep the run's topics and groups.
func keptRunOptions() kafkarun.Options {
	opts := runOptions()
	opts.Keep = true
	return opts
}

// runCase runs one scenario on the broker through kafkarun and fails the
// test on an error or a difference without a reason, writing the scenario
// out as a .plog file named in the failure.
func runCase(t *testing.T, kind, name, script string) {
	t.Helper()
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	res, err := kafkarun.Run(ctx, script, runOptions())
	var rows, bad []kafkarun.Row
	if err == nil {
		rows, bad = res.Comparison.Rows, res.Comparison.Unexpected()
	}
	if err == nil && len(bad) == 0 {
		results.add(kind, name, rows, "")
		return
	}
	path := writeScenario(t, name, script)
	if err != nil {
		results.add(kind, name, nil, "error: "+err.Error())
		t.Errorf("%s: kafkarun: %v\nscenario written to %s", name, err, path)
		return
	}
	results.add(kind, name, rows, fmt.Sprintf("%d differences without a reason", len(bad)))
	var b strings.Builder
	for _, row := range bad {
		fmt.Fprintf(&b, "  %s: playground %s, cluster %s\n", row.What, row.Playground, row.Cluster)
	}
	t.Errorf("%s: %d differences without a reason:\n%sscenario written to %s\ncomparison:\n%s",
		name, len(bad), b.String(), path, res.Comparison.Text())
}

// writeScenario writes a failing case's script into the artifact folder,
// $PLOG_CONFORMANCE_OUT or plog-conformance in the temporary folder, and
// returns its path.
func writeScenario(t *testing.T, name, script string) string {
	dir := os.Getenv("PLOG_CONFORMANCE_OUT")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "plog-conformance")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Logf("cannot write the scenario: %v", err)
		return "(not written)"
	}
	path := filepath.Join(dir, strings.NewReplacer("/", "-", " ", "-").Replace(name)+".plog")
	if err := os.WriteFile(path, []byte("# conformance case "+name+": replay with plogsim kafka\n"+script), 0o644); err != nil {
		t.Logf("cannot write the scenario: %v", err)
		return "(not written)"
	}
	return path
}

func TestConformanceLessons(t *testing.T) {
	for _, l := range lesson.All() {
		t.Run(l.Name+"/start", func(t *testing.T) { runCase(t, "lesson", "lesson-"+l.Name+"-start", l.Script) })
		t.Run(l.Name+"/solution", func(t *testing.T) {
			runCase(t, "lesson", "lesson-"+l.Name+"-solution", l.Script+"\n"+l.Solution)
		})
	}
}

func TestConformanceGolden(t *testing.T) {
	files, err := filepath.Glob("../core/scenario/testdata/golden/*.plog")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden scenarios found (%v)", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := "golden-" + strings.TrimSuffix(filepath.Base(f), ".plog")
		t.Run(filepath.Base(f), func(t *testing.T) { runCase(t, "golden", name, string(b)) })
	}
}

func TestConformanceRandom(t *testing.T) {
	n := ciRandom
	if v := os.Getenv("PLOG_CONFORMANCE_RANDOM"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("PLOG_CONFORMANCE_RANDOM=%q: want a number of scenarios", v)
		}
	}
	seeds := make([]uint64, n)
	for i := range seeds {
		seeds[i] = uint64(i + 1)
	}
	if v := os.Getenv("PLOG_CONFORMANCE_SEEDS"); v != "" {
		seeds = nil
		for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' }) {
			seed, err := strconv.ParseUint(f, 10, 64)
			if err != nil || seed < 1 {
				t.Fatalf("PLOG_CONFORMANCE_SEEDS=%q: want seeds, numbers from 1, separated by commas", v)
			}
			seeds = append(seeds, seed)
		}
	}
	for _, seed := range seeds {
		name := fmt.Sprintf("random-%d", seed)
		t.Run(name, func(t *testing.T) { runCase(t, "random", name, Generate(seed, randomSteps)) })
	}
}

// results collects every case's rows for FIDELITY.md.
var results = &collector{}

type collector struct {
	mu    sync.Mutex
	cases []caseResult
	// oracle holds a line per strategy from TestAssignorsAgainstKafkaClients.
	oracle []string
}

func (c *collector) addOracle(line string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.oracle = append(c.oracle, line)
}

type caseResult struct {
	kind, name string
	rows       []kafkarun.Row
	problem    string // an error, or why the case was left out
}

func (c *collector) add(kind, name string, rows []kafkarun.Row, problem string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cases = append(c.cases, caseResult{kind, name, rows, problem})
}

// behaviour names what a comparison row checks, from its What.
func behaviour(what string) string {
	for _, b := range []string{"keyless placement", "keyed records", "all records", "total lag", "log start", "high watermark", "records", "partitions",
		"state", "strategy", "generation", "members", "owns", "committed", "lag",
		"protocol", "assignment epoch", "epoch", "assignor", "partitions per member", "partitions owned"} {
		if strings.HasSuffix(what, " "+b) {
			return b
		}
	}
	if strings.HasPrefix(what, "topic ") {
		return "topic exists"
	}
	if strings.Contains(what, " delete-group (line ") {
		return "delete-group"
	}
	return what
}

// behaviourText says in words what each behaviour is.
var behaviourText = map[string]string{
	"topic exists":   "the scenario's topics exist",
	"partitions":     "each topic's partition count (topic, partitions)",
	"log start":      "each partition's log start offset (truncate, retention)",
	"high watermark": "each partition's high watermark",
	"records":        "each partition's records: offset, key, value (murmur2 partitioner, round-robin, explicit partitions, tombstones)",
	"state":          "each group's state (Stable, Empty, ...)",
	"keyless placement": "where the producer's partitioner put keyless records, against its rule (round-robin's counter; " +
		"a sticky partitioner's one partition for the records sent together)",
	"all records":   "a topic's records as a whole, whatever partition a sticky partitioner put keyless ones in",
	"keyed records": "each partition's keyed records, in order, on a topic where a sticky partitioner placed keyless ones",
	"strategy":      "each group's assignment strategy",
	"generation":    "each group's generation",
	"members":       "each group's members",
	"owns":          "which partitions each member owns (range, roundrobin, sticky, cooperative-sticky)",
	"committed":     "each group's committed offsets (commit, commit offset=, reset)",
	"lag":           "each group's lag per partition",
	"total lag":     "each group's total lag",
	// A consumer group's (group.protocol=consumer, KIP-848).
	"protocol":              "each group's protocol, classic or consumer, and each member's in a consumer group (an online upgrade's classic members)",
	"delete-group":          "each delete-group's answer: the group deleted, or Kafka's error",
	"assignment epoch":      "a consumer group's target assignment epoch",
	"epoch":                 "each consumer group member's epoch",
	"assignor":              "a consumer group's server-side assignor (uniform, range)",
	"partitions per member": "how many partitions each member of a consumer group owns",
	"partitions owned":      "which partitions a consumer group's members own",
}

func (c *collector) fidelity() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	sort.Slice(c.cases, func(i, j int) bool {
		if c.cases[i].kind != c.cases[j].kind {
			return c.cases[i].kind < c.cases[j].kind
		}
		return c.cases[i].name < c.cases[j].name
	})
	type tally struct{ same, expected, unexpected int }
	byBehaviour := map[string]*tally{}
	reasons := map[kafkarun.Reason]int{}
	kinds := map[string]int{}
	var problems []string
	for _, cr := range c.cases {
		kinds[cr.kind]++
		if cr.problem != "" {
			problems = append(problems, cr.name+": "+cr.problem)
		}
		for _, row := range cr.rows {
			b := behaviour(row.What)
			if byBehaviour[b] == nil {
				byBehaviour[b] = &tally{}
			}
			switch {
			case row.Match:
				byBehaviour[b].same++
			case row.Reason != "":
				byBehaviour[b].expected++
				reasons[row.Reason]++
			default:
				byBehaviour[b].unexpected++
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Fidelity: plog against Apache Kafka %s\n\n", kafkabroker.Version)
	fmt.Fprintf(&b, "Written by `make conformance` (conformance/conformance_test.go) on %s: every case ran through\n", time.Now().UTC().Format("2006-01-02"))
	b.WriteString("`plogsim kafka`'s runner (kafkarun) against Apache Kafka's own broker from Maven Central\n")
	b.WriteString("(`org.apache.kafka:kafka_2.13`, internal/kafkabroker): one KRaft node, broker and controller,\n")
	b.WriteString("with Kafka's default configs but for those internal/kafkabroker/broker.go names.\n\n")
	fmt.Fprintf(&b, "Cases: %d lesson scenarios (every lesson's start and solution), %d golden scenarios\n", kinds["lesson"], kinds["golden"])
	fmt.Fprintf(&b, "(core/scenario/testdata/golden), %d random scenarios (conformance.Generate, seeds 1 to %d, %d commands each).\n\n",
		kinds["random"], kinds["random"], randomSteps)
	b.WriteString("## Each behaviour checked\n\n")
	b.WriteString("| behaviour | rows the same | differ, with a reason | differ, without a reason |\n|---|---|---|---|\n")
	var names []string
	for name := range byBehaviour {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		t := byBehaviour[name]
		text := behaviourText[name]
		if text == "" {
			text = name
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d |\n", text, t.same, t.expected, t.unexpected)
	}
	b.WriteString("\n## Result\n\n")
	if len(problems) == 0 {
		fmt.Fprintf(&b, "%d cases ran; none failed.\n", len(c.cases))
	} else {
		fmt.Fprintf(&b, "%d cases ran; %d failed (their scenarios are in $PLOG_CONFORMANCE_OUT, by default plog-conformance in the temporary folder):\n\n", len(c.cases), len(problems))
		for _, p := range problems {
			fmt.Fprintf(&b, "- %s\n", p)
		}
	}
	b.WriteString("\n## Expected differences, by reason\n\n")
	var rs []string
	for r := range reasons {
		rs = append(rs, string(r))
	}
	sort.Strings(rs)
	for _, r := range rs {
		fmt.Fprintf(&b, "- %d rows: %s\n", reasons[kafkarun.Reason(r)], r)
	}
	b.WriteString("\n## Targeted cases\n\n")
	b.WriteString("What one scenario cannot show on a cluster in seconds, conformance/targeted_test.go checks against the broker\n")
	b.WriteString("directly, beside the playground running the same steps in virtual time:\n\n")
	b.WriteString("- TestRetentionDeletesWholeSegmentsLikeKafka: time retention deletes the closed segment, then the active one\n")
	b.WriteString("  (rolled), on a broker checking every 500 ms (log.retention.check.interval.ms, log.initial.task.delay.ms=0).\n")
	b.WriteString("- TestReplicationAcksLikeKafkaWithFollowersDown: on three nodes, replication.factor=3 and min.insync.replicas=2,\n")
	b.WriteString("  acks=all goes on with one follower stopped and fails with NOT_ENOUGH_REPLICAS with two, acks=1 still\n")
	b.WriteString("  writes, and a follower that comes back rejoins the ISR.\n")
	b.WriteString("- TestGenerationIsTheBrokers: kafkarun reads a group's generation from the broker's group coordinator\n")
	b.WriteString("  (__consumer_offsets), and with every rebalance let to end it is the playground's.\n")
	b.WriteString("- TestStaticReturnOfACooperativeMemberRebalancesOnKafka: a static member's return rebalances the group on\n")
	b.WriteString("  Kafka under cooperative-sticky (the new client owns nothing), not under range or sticky, nor in the playground.\n")
	b.WriteString("\n")
	if len(c.oracle) > 0 {
		b.WriteString("## The assignors against kafka-clients\n\n")
		b.WriteString("conformance/assign_oracle_test.go gives random groups (one to four topics, equal and unequal subscriptions,\n")
		b.WriteString("static members, members leaving and joining over several generations with what they owned, stale and doubled\n")
		b.WriteString("claims) to plog's assignors under the latest rules and to Kafka's own\n")
		b.WriteString("(internal/kafkabroker/maven/src/main/java/plog/AssignOracle.java), the members listed in Kafka's assignor\n")
		b.WriteString("order; every case must give the same partitions.\n\n")
		for _, line := range c.oracle {
			fmt.Fprintf(&b, "- %s\n", line)
		}
		b.WriteString("\n")
	}
	b.WriteString(simplifications())
	return b.String()
}
