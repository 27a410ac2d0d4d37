package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kfake"

	"plog/core/scenario"
)

const kafkaScript = `topic orders partitions=3
produce orders key=acct-1 value=created count=2
produce orders key=acct-2 value=paid
join billing c1 topics=orders
advance 5s
poll billing c1
commit billing c1
`

func startKfake(t *testing.T) string {
	t.Helper()
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	return strings.Join(cluster.ListenAddrs(), ",")
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestKafkaPrintsTheClusterAndTheComparison(t *testing.T) {
	brokers := startKfake(t)
	file := filepath.Join(t.TempDir(), "scenario.txt")
	if err := os.WriteFile(file, []byte(kafkaScript), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("kafka", "--brokers", brokers, "--timeout", "5s", file)
	if code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	for _, want := range []string{
		"# the cluster at " + brokers,
		"TOPIC   PARTITION  LOG-START-OFFSET  LOG-END-OFFSET  RECORDS",
		"group billing: state stable",
		"WHAT", "billing orders/",
		"differ unexpectedly",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, " 0 differ unexpectedly") {
		t.Errorf("differences on kfake:\n%s", out)
	}
}

func TestKafkaJSONFromALink(t *testing.T) {
	brokers := startKfake(t)
	link, err := scenario.EncodeLink(kafkaScript)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI("kafka", "--brokers", brokers, "--json", "--prefix", "cli-", "--link", "#"+strings.TrimPrefix(link, "#"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got struct {
		Prefix     string         `json:"prefix"`
		OK         bool           `json:"ok"`
		Cluster    scenario.State `json:"cluster"`
		Playground scenario.State `json:"playground"`
		Comparison struct {
			Rows []struct {
				What  string `json:"what"`
				Match bool   `json:"match"`
			} `json:"rows"`
		} `json:"comparison"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if got.Prefix != "cli-" || !got.OK || len(got.Comparison.Rows) == 0 {
		t.Errorf("prefix %q, ok %v, %d rows", got.Prefix, got.OK, len(got.Comparison.Rows))
	}
	if len(got.Cluster.Topics) != 1 || got.Cluster.Topics[0].Name != "orders" || len(got.Cluster.Topics[0].Partitions) != 3 {
		t.Errorf("cluster topics: %+v", got.Cluster.Topics)
	}
	if len(got.Playground.Groups) != 1 || len(got.Cluster.Groups) != 1 {
		t.Errorf("groups: playground %d, cluster %d", len(got.Playground.Groups), len(got.Cluster.Groups))
	}
}

func TestKafkaMisuseAndUnreachable(t *testing.T) {
	if code, _, errOut := runCLI("kafka", "-"); code != 2 || !strings.Contains(errOut, "--brokers") {
		t.Errorf("no --brokers: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("kafka", "--brokers", "127.0.0.1:1"); code != 2 {
		t.Errorf("no scenario: exit %d, %q", code, errOut)
	}
	code, _, errOut := runCLI("kafka", "--brokers", "127.0.0.1:1", "--dial-timeout", "1s", "--link", mustLink(t, kafkaScript))
	if code != 1 || !strings.Contains(errOut, "cannot reach broker 127.0.0.1:1") {
		t.Errorf("unreachable: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI("kafka", "--brokers", "127.0.0.1:1", "--link", mustLink(t, "topic orders\nproduce nowhere\n"))
	if code != 1 || !strings.Contains(errOut, "link:3:") /* the link writes its rules at line 1 */ {
		t.Errorf("bad script: exit %d, %q", code, errOut)
	}
}

func mustLink(t *testing.T, script string) string {
	t.Helper()
	link, err := scenario.EncodeLink(script)
	if err != nil {
		t.Fatal(err)
	}
	return link
}
