package kafkarun

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
)

// A scenario of Kafka 4's consumer protocol runs on a cluster as one: its
// members heartbeat with ConsumerGroupHeartbeat (kfake serves KIP-848), the
// cluster's group is read with ConsumerGroupDescribe, and the comparison
// has the group's protocol, epochs and assignment's shape. kfake's
// assignor is its own, not Kafka's: conformance/consumer_protocol_test.go
// compares the assignments and epochs with a real broker's.
func TestConsumerProtocolGroupRunsAsOne(t *testing.T) {
	t.Parallel()
	// kfake takes no group configs: its heartbeats come at the
	// broker's interval, as short as the run's.
	brokers := startKfake(t, kfake.BrokerConfigs(map[string]string{"group.consumer.heartbeat.interval.ms": "200"}))
	// The records go to orders/0 by name: keyless records under rules 4
	// go where each side's sticky partitioner picks at random, and
	// orders/0's committed offset would then be 8 on one side and 0 on
	// the other whenever they picked differently. a owns orders/0 on
	// both sides when it polls and commits (the first member to join is
	// given every partition and sheds the last ones to b), so the row
	// compares the 8 a read.
	res := runOn(t, testOptions(brokers), `rules 4
topic orders partitions=4
produce orders count=8 partition=0
join g a topics=orders group.protocol=consumer
join g b topics=orders group.protocol=consumer
advance 20s
poll g a
commit g a
join g c topics=orders group.protocol=consumer
leave g b
advance 20s
`)
	g := res.Cluster.Groups[0]
	if g.Protocol != "consumer" || g.GroupEpoch == nil || len(g.Members) != 2 || g.Members[1].ID != "c" {
		t.Fatalf("cluster's group: %+v, want a consumer group of a and c with an epoch", g)
	}
	rows := map[string]Row{}
	for _, row := range res.Comparison.Rows {
		rows[row.What] = row
	}
	for _, what := range []string{"g protocol", "g state", "g members", "g partitions per member", "g partitions owned", "g generation", "g a epoch", "g c epoch", "g orders/0 committed", "orders/0 records"} {
		if row, ok := rows[what]; !ok || !row.Match {
			t.Errorf("row %q: %+v (present %v), want it to match\n%s", what, row, ok, res.Comparison.Text())
		}
	}
	for _, what := range []string{"g a owns", "g c owns"} {
		if row := rows[what]; !row.Match && row.Reason != ReasonMemberIDs {
			t.Errorf("%s: %+v, want it the same or explained by the member ids", what, row)
		}
	}
	if !res.Comparison.OK() {
		t.Errorf("unexpected differences:\n%s", res.Comparison.Text())
	}
}

// A classic group's members stay classic: franz-go runs KIP-848 only with
// kgo.ServerSideBalancer, which the run gives consumer-protocol members
// alone (consumerMemberOpts); conformance/consumer_protocol_test.go checks
// it on a real broker, which serves both protocols.
func TestClassicMembersDoNotAskForTheServerSideBalancer(t *testing.T) {
	t.Parallel()
	for _, protocol := range []string{"", "consumer"} {
		var opts []kgo.Opt
		if protocol == "consumer" {
			opts = consumerMemberOpts("range")
		}
		cl, err := kgo.NewClient(append(opts, kgo.ConsumerGroup("g"), kgo.ConsumeTopics("t"))...)
		if err != nil {
			t.Fatal(err)
		}
		on, _ := cl.OptValue(kgo.ServerSideBalancer).(bool)
		cl.Close()
		if on != (protocol == "consumer") {
			t.Errorf("group.protocol=%q: ServerSideBalancer %v", protocol, on)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := Run(ctx, "rules 4\ntopic t\njoin g c1 topics=t group.protocol=consumer group.remote.assignor=bogus\n", testOptions([]string{"127.0.0.1:1"})); err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("an assignor the playground refuses: %v, want it refused at line 3 before the cluster", err)
	}
	// Members of one group asking for different assignors, or one for
	// none, are refused before the cluster (checkServerAssignors).
	for _, second := range []string{"", " group.remote.assignor=uniform"} {
		script := "rules 4\ntopic t\njoin g c1 topics=t group.protocol=consumer group.remote.assignor=range\njoin g c2 topics=t group.protocol=consumer" + second + "\n"
		if _, err := Run(ctx, script, testOptions([]string{"127.0.0.1:1"})); err == nil || !strings.Contains(err.Error(), "line 4: group g: c2 asks for group.remote.assignor=") {
			t.Errorf("c2 asking %q beside c1's range: %v, want it refused at line 4 before the cluster", second, err)
		}
	}
}
