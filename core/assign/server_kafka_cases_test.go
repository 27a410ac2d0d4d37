package assign

import (
	"strings"
	"testing"

	"plog/internal/assigncases"
)

// Kafka's own tests of the server-side assignors, case by case with their
// expected assignments (internal/assigncases/kafka_server_cases.txt; the conformance
// suite checks the same expectations against Kafka's classes).
func TestKafkaServerCases(t *testing.T) {
	cases, idText, err := assigncases.Kafka()
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	ids := map[string]TopicID{}
	for topic, s := range idText {
		ids[topic] = kafkaTopicID(t, s)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var members []TargetMember
			for _, m := range c.Members {
				tm := TargetMember{ID: m.ID, InstanceID: m.Instance, Topics: m.Topics}
				for _, p := range m.Target {
					tm.Target = append(tm.Target, TopicPartition{p.Topic, p.Partition})
				}
				members = append(members, tm)
			}
			g, err := newServerGroup(members, c.Partitions, ids)
			if err != nil {
				t.Fatal(err)
			}
			if c.Heterogeneous {
				if !g.homogeneous {
					t.Fatal("type heterogeneous is for a group the coordinator would call homogeneous")
				}
				g.homogeneous = false
			}
			a, err := g.assign(c.Assignor)
			if err != nil {
				t.Fatal(err)
			}
			sortTargets(a)
			got := formatTargets(a)
			for _, m := range members {
				if want := strings.Join(c.Want[m.ID], " "); got[m.ID] != want {
					t.Errorf("%s: got %q, want %q", m.ID, got[m.ID], want)
				}
			}
			if len(c.Want) != len(members) {
				t.Errorf("%d members, %d wants", len(members), len(c.Want))
			}
			checkTargetComplete(t, members, c.Partitions, a)
		})
	}
}
