package kafkarun

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
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

// Before a KIP-848 member joins, the run waits until the group's
// coordinator sees the member's topics, asking with a probe group
// (coordinator_image.go), which it deletes. A cluster that refuses the
// probe's heartbeats does not stop the run: it goes on, and says that the
// cluster's group may be an epoch ahead.
func TestCoordinatorProbe(t *testing.T) {
	t.Parallel()
	script := `topic orders partitions=2
join g a topics=orders group.protocol=consumer
advance 5s
`
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.BrokerConfigs(map[string]string{"group.consumer.heartbeat.interval.ms": "200"}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cluster.Close)
	brokers := cluster.ListenAddrs()
	var probes atomic.Int64
	cluster.ControlKey(int16(kmsg.ConsumerGroupHeartbeat), func(req kmsg.Request) (kmsg.Response, error, bool) {
		cluster.KeepControl()
		hb := req.(*kmsg.ConsumerGroupHeartbeatRequest)
		if !strings.Contains(hb.Group, ".plog-probe") {
			return nil, nil, false
		}
		probes.Add(1)
		if strings.HasPrefix(hb.Group, "refused-") {
			resp := hb.ResponseKind().(*kmsg.ConsumerGroupHeartbeatResponse)
			resp.ErrorCode = kerr.GroupAuthorizationFailed.Code
			return resp, nil, true
		}
		return nil, nil, false
	})
	res := runOn(t, testOptions(brokers), script)
	if probes.Load() == 0 {
		t.Fatal("no probe heartbeat before the member joined")
	}
	if got := groupsOn(t, brokers); len(got) != 0 {
		t.Errorf("groups left after the run: %v", got)
	}
	if notes := strings.Join(res.Comparison.NotCompared, "\n"); strings.Contains(notes, "could not learn") {
		t.Errorf("a probe the cluster answered left a note:\n%s", notes)
	}
	// A second run, whose probe the cluster refuses, goes on and says so.
	opts := testOptions(brokers)
	opts.Prefix = "refused-"
	res = runOn(t, opts, script)
	notes := strings.Join(res.Comparison.NotCompared, "\n")
	if !strings.Contains(notes, "could not learn whether its coordinator sees [refused-orders] yet (probe heartbeat of group refused-g.plog-probe: GROUP_AUTHORIZATION_FAILED") {
		t.Errorf("the run refused its probe does not say so:\n%s", notes)
	}
	if len(res.Cluster.Groups) != 1 || len(res.Cluster.Groups[0].Members) != 1 {
		t.Errorf("the run refused its probe did not run its member: %+v", res.Cluster.Groups)
	}
	if got := groupsOn(t, brokers); len(got) != 0 {
		t.Errorf("groups left after the run refused its probe: %v", got)
	}
}
