package main

import (
	"encoding/json"
	"strings"
	"testing"
)

const replicationScript = `topic orders replication.factor=3 min.insync.replicas=2
produce orders value=a count=2 acks=all
advance 1s
produce orders value=b acks=1
broker crash 1
`

// With replication in use, the text output adds the brokers and, like
// kafka-topics --describe, each partition's leader, replicas and ISR.
func TestRunPrintsBrokersAndISR(t *testing.T) {
	code, out, errOut := plogsim(t, "", "run", writeFile(t, replicationScript))
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"BROKER  STATUS  LEADS  FOLLOWS",
		"1       down    0      1",
		"TOPIC   PARTITION  LEADER  EPOCH  REPLICAS  ISR  HIGH-WATERMARK  LOG-END-OFFSETS",
		"orders  0          2       1      1,2,3     2,3  2               1:3(diverges@2) 2:2 3:2",
		"orders/0 acks: 0..2 acknowledged",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	_, plain, _ := plogsim(t, "", "run", writeFile(t, script))
	if strings.Contains(plain, "BROKER") {
		t.Errorf("brokers shown without replication:\n%s", plain)
	}
}

// The replication fields of the JSON state: present when replication is in
// use, absent otherwise, so the contract of one-replica scenarios stays.
func TestRunJSONReplicationFields(t *testing.T) {
	_, out, _ := plogsim(t, "", "run", "--json", writeFile(t, replicationScript))
	var state struct {
		Brokers []struct {
			ID   int  `json:"id"`
			Down bool `json:"down"`
		} `json:"brokers"`
		Topics []struct {
			Partitions []struct {
				HighWatermark int64 `json:"high_watermark"`
				LogEndOffset  *int64
				Leader        *int  `json:"leader"`
				ISR           []int `json:"isr"`
				Replicas      []struct {
					Broker       int   `json:"broker"`
					InSync       bool  `json:"in_sync"`
					LogEndOffset int64 `json:"log_end_offset"`
				} `json:"replicas"`
				Records []struct {
					Ack string `json:"ack"`
				} `json:"records"`
			} `json:"partitions"`
		} `json:"topics"`
	}
	if err := json.Unmarshal([]byte(out), &state); err != nil {
		t.Fatal(err)
	}
	if len(state.Brokers) != 3 || !state.Brokers[0].Down {
		t.Fatalf("brokers: %s", out)
	}
	p := state.Topics[0].Partitions[0]
	if p.Leader == nil || *p.Leader != 2 || len(p.ISR) != 2 || p.HighWatermark != 2 || len(p.Replicas) != 3 || p.Replicas[0].LogEndOffset != 3 || p.Replicas[0].InSync {
		t.Fatalf("partition: %s", out)
	}
	if len(p.Records) != 2 || p.Records[0].Ack != "acknowledged" {
		t.Fatalf("records: %s", out)
	}
	_, plain, _ := plogsim(t, "", "run", "--json", writeFile(t, script))
	for _, field := range []string{`"brokers"`, `"replicas"`, `"isr"`, `"leader"`, `"ack"`} {
		if strings.Contains(plain, field) {
			t.Errorf("%s in the state of a scenario without replication", field)
		}
	}
}
