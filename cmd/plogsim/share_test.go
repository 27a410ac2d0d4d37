package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The share group example of docs/language.md does what it says: b accepts four
// records and releases two, a crashes, b leaves; plogsim run prints the
// group as kafka-share-groups --describe does, and --json holds the
// share-partition's offsets and in-flight records.
func TestLanguageDocShareGroupExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "\n## Share groups: a queue on the log\n")
	_, rest, opened := strings.Cut(rest, "```\n")
	example, _, closed := strings.Cut(rest, "```")
	if !ok || !opened || !closed || !strings.Contains(example, "share-poll work b") {
		t.Fatalf("no share group example in docs/language.md under \"Share groups: a queue on the log\"")
	}
	file := writeFile(t, example)
	code, out, errOut := plogsim(t, "", "run", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"share group work: state Stable, group epoch 3, assignment epoch 3, 1 members",
		"GROUP  TOPIC   PARTITION  START-OFFSET  LAG\nwork   orders  0          4             2\n",
		"GROUP  CONSUMER-ID             CLIENT-ID  #PARTITIONS  MEMBER-EPOCH  ASSIGNMENT\n",
		"member a: crashed at 0ms; removed when its session times out at 45s",
		"orders/0: SPSO 4, SPEO 5, high watermark 6, in flight: 4:Available×1 5:Available×1",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plogsim run lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = plogsim(t, "", "run", "--json", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var st struct {
		ShareGroups []struct {
			Name       string
			Partitions []struct {
				StartOffset int64 `json:"start_offset"`
				EndOffset   int64 `json:"end_offset"`
				Lag         int64
				InFlight    []struct {
					Offset        int64
					State         string
					DeliveryCount int `json:"delivery_count"`
				} `json:"in_flight"`
			}
		} `json:"share_groups"`
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.ShareGroups) != 1 || len(st.ShareGroups[0].Partitions) != 1 {
		t.Fatalf("share_groups: %+v", st.ShareGroups)
	}
	p := st.ShareGroups[0].Partitions[0]
	if p.StartOffset != 4 || p.EndOffset != 5 || p.Lag != 2 || len(p.InFlight) != 2 || p.InFlight[0].State != "Available" || p.InFlight[1].DeliveryCount != 1 {
		t.Errorf("the share-partition in JSON: %+v", p)
	}
}
