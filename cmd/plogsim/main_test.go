package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"plog/core/scenario"
)

// plogsim runs the program with args and stdin, returning its exit status,
// standard output and standard error.
func plogsim(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "scenario.plog")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const script = `seed 42
rules 1
topic orders partitions=2
produce orders key=acct-1 value=created count=2
produce orders value=no-key
produce orders key=acct-1 tombstone
advance 10m
`

func TestRunPrintsTopicsLikeKafkaTools(t *testing.T) {
	code, out, errOut := plogsim(t, "", "run", writeFile(t, script))
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"time 10m (600000 ms)",
		"TOPIC   PARTITION  LOG-START-OFFSET  LOG-END-OFFSET  RECORDS",
		"orders/0: 0:acct-1=created 1:acct-1=created 2:null=no-key 3:acct-1=null",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

// The JSON contract: these names and shapes may not change.
func TestRunJSONContract(t *testing.T) {
	code, out, errOut := plogsim(t, "", "run", "--json", writeFile(t, script))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var state struct {
		TimeMs *int64 `json:"time_ms"`
		Topics []struct {
			Name       string `json:"name"`
			Partitions []struct {
				Partition      *int   `json:"partition"`
				LogStartOffset *int64 `json:"log_start_offset"`
				HighWatermark  *int64 `json:"high_watermark"`
				Records        []map[string]any
			} `json:"partitions"`
		} `json:"topics"`
		Groups []any `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &state); err != nil {
		t.Fatal(err)
	}
	if state.TimeMs == nil || *state.TimeMs != 600000 || state.Groups == nil || len(state.Topics) != 1 {
		t.Fatalf("top level: %s", out)
	}
	parts := state.Topics[0].Partitions
	if len(parts) != 2 || *parts[0].Partition != 0 || *parts[1].Partition != 1 || *parts[0].HighWatermark != 4 || *parts[0].LogStartOffset != 0 {
		t.Fatalf("partitions: %s", out)
	}
	keyless := parts[0].Records[2]
	if v, ok := keyless["key"]; !ok || v != nil || keyless["value"] != "no-key" {
		t.Fatalf("a keyless record has key null: %v", keyless)
	}
	tomb := parts[0].Records[3]
	if v, ok := tomb["value"]; !ok || v != nil || tomb["key"] != "acct-1" || tomb["offset"] != 3.0 || tomb["timestamp_ms"] != 0.0 {
		t.Fatalf("a tombstone has value null: %v", tomb)
	}
}

func TestRunErrorsNameLineAndColumn(t *testing.T) {
	path := writeFile(t, "seed 1\ntopic t\nproduce t kye=a\n")
	code, out, errOut := plogsim(t, "", "run", path)
	if code != 1 || out != "" || errOut != path+`:3:11: unknown argument kye= for produce (did you mean "key"?); usage: produce TOPIC [key=K] [value=V | tombstone] [count=N] [partition=P] [acks=0|1|all] [partitioner=default|round-robin] [producer=NAME [values=A,B,...]]`+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, _, errOut = plogsim(t, "seed 1\n\nproduce nope key=a\n", "run", "-")
	if code != 1 || errOut != "<stdin>:3:1: unknown topic \"nope\"\n" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, args := range [][]string{{"run"}, {"run", "a", "b"}, {"frobnicate"}, {"run", "--at", "-5", "-"}, {"link"}} {
		if code, _, errOut := plogsim(t, "", args...); code != 2 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
	if code, _, errOut := plogsim(t, "", "run", filepath.Join(t.TempDir(), "missing")); code != 1 || !strings.Contains(errOut, "no such file") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
}

func TestRunAt(t *testing.T) {
	// --at stops before a failing command, which then does not matter.
	path := writeFile(t, script+"produce nope key=a\n")
	code, out, errOut := plogsim(t, "", "run", path, "--at", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, `"high_watermark": 2`) || strings.Contains(out, "no-key") {
		t.Fatalf("--at 3 did not stop after three commands:\n%s", out)
	}
	if code, _, _ := plogsim(t, "", "run", path); code != 1 {
		t.Fatal("the failing command was not reached without --at")
	}
}

func TestRunEvents(t *testing.T) {
	code, out, _ := plogsim(t, "", "run", "--events", writeFile(t, script))
	if code != 0 || !strings.Contains(out, "line 4: produce orders key=acct-1 value=created count=2\n  0ms produced orders/0 offsets=0..2 records=2\n") {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	code, out, _ = plogsim(t, "", "run", "--events", "--json", writeFile(t, script))
	var events []map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &events) != nil || len(events) < 5 || events[1]["kind"] != "produced" || events[1]["line"] != 4.0 {
		t.Fatalf("exit %d:\n%s", code, out)
	}
}

func TestLinkRoundTrip(t *testing.T) {
	path := writeFile(t, script)
	code, link, errOut := plogsim(t, "", "link", path)
	if code != 0 || !strings.HasPrefix(link, "#v1.") {
		t.Fatalf("exit %d: %q %s", code, link, errOut)
	}
	_, fromFile, _ := plogsim(t, "", "run", "--json", path)
	code, fromLink, errOut := plogsim(t, "", "run", "--json", "--link", strings.TrimSpace(link))
	if code != 0 || fromLink != fromFile {
		t.Fatalf("exit %d: %s\nthe link's state differs from the file's", code, errOut)
	}
	code, _, errOut = plogsim(t, "", "run", "--link", "#v1.!!!")
	if code != 1 || !strings.Contains(errOut, "not valid base64url") {
		t.Fatalf("bad link: exit %d, %q", code, errOut)
	}
	code, _, errOut = plogsim(t, "advance 5\n", "link", "-")
	if code != 1 || errOut != "<stdin>:1:9: duration: expected a duration like 500ms, 10s, 5m, 2h or 7d, got \"5\"\n" {
		t.Fatalf("bad script: exit %d, %q", code, errOut)
	}
}

// The demo checks its own claims; it must pass and show them.
func TestDemo(t *testing.T) {
	code, out, errOut := plogsim(t, "")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, want := range []string{
		`murmur2("acct-1") % 4 = 2: orders/2 holds acct-1 at 0:created, 1:paid, 2:shipped, in order`,
		"log start offset 4, high watermark 6",
		"orders/2: c1 read [0 1]; c2 went on from offset 2; committed 3, lag 0",
		"by-range (range): a owns [0 1 2], b owns [3 4]",
		"by-turns (roundrobin): a owns [0 2 4], b owns [1 3]",
		"#v1.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q", want)
		}
	}
	// The demo's script, as printed, runs to the same end.
	i := strings.Index(out, "paste in the playground):\n")
	j := strings.Index(out, "Its link fragment:")
	demoScript := strings.ReplaceAll(out[i+len("paste in the playground):\n"):j], "   ", "")
	if _, err := scenario.Load(demoScript); err != nil {
		t.Fatalf("the demo's script does not load: %v", err)
	}
}

// The groups half of the JSON contract.
func TestRunJSONContractGroups(t *testing.T) {
	path := writeFile(t, `seed 42
topic orders partitions=2
produce orders key=acct-1 value=created count=3
config group billing auto.offset.reset=earliest enable.auto.commit=false max.poll.interval.ms=1h
join billing c1 topics=orders strategy=range
advance 3s
poll billing c1 max=2
commit billing c1
commit billing orders/1 offset=0
config group empty auto.commit=true
advance 10m
`)
	code, out, errOut := plogsim(t, "", "run", "--json", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var state struct {
		Groups []struct {
			Name       string `json:"name"`
			Generation int    `json:"generation"`
			Strategy   string `json:"strategy"`
			State      string `json:"state"`
			Members    []struct {
				ID         string `json:"id"`
				Assignment []struct {
					Topic      string `json:"topic"`
					Partitions []int  `json:"partitions"`
				} `json:"assignment"`
			} `json:"members"`
			Offsets []map[string]any `json:"offsets"`
		} `json:"groups"`
	}
	if err := json.Unmarshal([]byte(out), &state); err != nil {
		t.Fatal(err)
	}
	if len(state.Groups) != 2 || state.Groups[0].Name != "billing" || state.Groups[1].Name != "empty" || state.Groups[1].State != "empty" {
		t.Fatalf("groups sorted by name: %s", out)
	}
	g := state.Groups[0]
	if g.Generation != 1 || g.Strategy != "range" || g.State != "stable" || len(g.Members) != 1 || g.Members[0].ID != "c1" {
		t.Fatalf("group: %+v", g)
	}
	a := g.Members[0].Assignment
	if len(a) != 1 || a[0].Topic != "orders" || len(a[0].Partitions) != 2 || a[0].Partitions[0] != 0 || a[0].Partitions[1] != 1 {
		t.Fatalf("assignment: %+v", a)
	}
	// acct-1 is on orders/0: 2 of its 3 records committed; orders/1 is empty.
	o := g.Offsets
	if len(o) != 2 || o[0]["topic"] != "orders" || o[0]["partition"] != 0.0 || o[0]["committed"] != 2.0 || o[0]["lag"] != 1.0 || o[0]["lag_ms"] != 603000.0 {
		t.Fatalf("offsets: %v", o)
	}
	if o[1]["committed"] != 0.0 || o[1]["lag"] != 0.0 || o[1]["lag_ms"] != 0.0 {
		t.Fatalf("offsets: %v", o)
	}
	// Before any commit, committed, lag and lag_ms are null.
	code, out, _ = plogsim(t, "", "run", "--json", "--at", "5", path)
	var early struct {
		Groups []struct {
			Offsets []map[string]any `json:"offsets"`
		} `json:"groups"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &early) != nil || len(early.Groups) != 1 {
		t.Fatalf("exit %d: %s", code, out)
	}
	for _, off := range early.Groups[0].Offsets {
		for _, field := range []string{"committed", "lag", "lag_ms"} {
			if v, ok := off[field]; !ok || v != nil {
				t.Fatalf("%s should be null without a commit: %v", field, off)
			}
		}
	}
}

// The usage names every command the dispatcher runs, in plogsim --help and
// after an unknown command, and each command it names is one run dispatches.
func TestUsageListsEveryCommand(t *testing.T) {
	code, help, _ := plogsim(t, "", "--help")
	if code != 0 {
		t.Fatalf("--help exits %d", code)
	}
	code, _, unknown := plogsim(t, "", "nope")
	if code != 2 || !strings.HasPrefix(unknown, `plogsim: unknown command "nope"`) {
		t.Fatalf("unknown command: exit %d, %q", code, unknown)
	}
	names := map[string]bool{}
	for _, c := range commands {
		names[c.name] = true
		for _, text := range []string{help, unknown} {
			if !strings.Contains(text, "  plogsim "+c.name+" ") {
				t.Errorf("usage leaves out %q:\n%s", c.name, text)
			}
		}
		// Dispatched: a command's own --help is never "unknown command".
		_, _, errOut := plogsim(t, "", c.name, "--help")
		if strings.Contains(errOut, "unknown command") {
			t.Errorf("%s is in the usage but run does not dispatch it: %s", c.name, errOut)
		}
	}
	for _, want := range []string{"run", "link", "lesson", "kafka"} {
		if !names[want] {
			t.Errorf("no command %q in the table", want)
		}
	}
}

// The example scenario of docs/language.md does what it shows: its poll gets
// records and its commit commits them.
func TestLanguageDocExampleScenarioPollsRecords(t *testing.T) {
	doc, err := os.ReadFile("../../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "topic configs use\nKafka's own names:\n\n```\n")
	example, _, closed := strings.Cut(rest, "```")
	if !ok || !closed || !strings.Contains(example, "poll billing c1") {
		t.Fatalf("no example scenario in docs/language.md after \"Kafka's own names:\"")
	}
	code, out, errOut := plogsim(t, "", "run", writeFile(t, example))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "got nothing") {
		t.Errorf("the example's poll gets nothing:\n%s", out)
	}
	if !strings.Contains(out, "billing  orders  2          2               3               1    c1") {
		t.Errorf("the example's commit does not commit the two records polled:\n%s", out)
	}
}
