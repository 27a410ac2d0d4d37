package conformance

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core/scenario"
	"plog/internal/kafkabroker"
)

// The high watermark under min.insync.replicas, on a three-node cluster
// beside the playground (rules 3, core/replica.go): since Kafka 3.7
// (KAFKA-15583) the leader does not move the high watermark while the ISR
// is smaller than min(min.insync.replicas, replication factor)
// (kafka.cluster.Partition.maybeIncrementLeaderHW and effectiveMinIsr), so
// an acks=1 record written then is not visible; and a min.insync.replicas
// above the replication factor is accepted, meaning every replica.
//
// Topic held has min.insync.replicas=2, topic above 4, both three replicas
// on nodes 1 to 3 (the playground's brokers 1 to 3). With one of held's
// followers stopped, held commits acks=1 records and above holds them
// (2 in sync, 3 needed) and refuses acks=all; with both stopped, held holds
// them too; once one is back and caught up, held's high watermark covers
// them, and above's, two of three in sync, stays. At each step the broker's high watermark (ListOffsets latest), log
// end and ISR are the playground's.
func TestHighWatermarkHeldBelowMinInsyncLikeKafka(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	c := kafkabroker.StartT(t, kafkabroker.Options{Nodes: 3})
	client, admin := adminOf(t, c.Brokers())
	// Both topics on the same three nodes with node 1 first, so that both
	// have node 1 as leader and the followers stopped below are followers
	// of both (left to the controller, above's leader could be one of them).
	for topic, minISR := range map[string]string{"held": "2", "above": "4"} {
		req := kmsg.NewPtrCreateTopicsRequest()
		rt := kmsg.NewCreateTopicsRequestTopic()
		rt.Topic, rt.NumPartitions, rt.ReplicationFactor = topic, -1, -1
		ra := kmsg.NewCreateTopicsRequestTopicReplicaAssignment()
		ra.Partition, ra.Replicas = 0, []int32{1, 2, 3}
		rt.ReplicaAssignment = append(rt.ReplicaAssignment, ra)
		cfg := kmsg.NewCreateTopicsRequestTopicConfig()
		cfg.Name, cfg.Value = "min.insync.replicas", kmsg.StringPtr(minISR)
		rt.Configs = append(rt.Configs, cfg)
		req.Topics = append(req.Topics, rt)
		req.TimeoutMillis = 30_000
		resp, err := req.RequestWith(ctx, client)
		if err == nil && len(resp.Topics) == 1 {
			err = kerr.ErrorForCode(resp.Topics[0].ErrorCode)
		}
		if err != nil {
			t.Fatalf("kafka: creating %s with min.insync.replicas=%s on 3 replicas: %v", topic, minISR, err)
		}
		waitForTopic(t, ctx, client, topic)
	}
	isr := func(topic string) []int32 {
		m, err := admin.Metadata(ctx, topic)
		if err != nil {
			return nil
		}
		got := slices.Clone(m.Topics[topic].Partitions[0].ISR)
		slices.Sort(got)
		return got
	}
	hw := func(topic string) int64 { return offsetOf(admin.ListEndOffsets(ctx, topic)) }
	var followers []int32
	waitFor(t, "both topics to have three in-sync replicas", func() bool {
		m, err := admin.Metadata(ctx, "held")
		if err != nil {
			return false
		}
		p := m.Topics["held"].Partitions[0]
		followers = nil
		for _, r := range p.Replicas {
			if r != p.Leader {
				followers = append(followers, r)
			}
		}
		return p.Leader >= 0 && len(isr("held")) == 3 && len(isr("above")) == 3
	})
	noRetry, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.RecordRetries(0), kgo.DisableIdempotentWrite())
	if err != nil {
		t.Fatal(err)
	}
	defer noRetry.Close()
	acks1, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
	if err != nil {
		t.Fatal(err)
	}
	defer acks1.Close()
	produceAll := func(topic, value string) error {
		bounded, cancel := context.WithTimeout(ctx, brokerDeadline)
		defer cancel()
		return produceTo(bounded, noRetry, topic, value)
	}

	// The playground's side, step by step, the brokers named as Kafka's
	// node ids.
	script := "brokers 3\ntopic held partitions=1 replication.factor=3 min.insync.replicas=2\n" +
		"topic above partitions=1 replication.factor=3 min.insync.replicas=4\n"
	session, err := scenario.Load(script)
	if err != nil {
		t.Fatalf("playground: %v", err)
	}
	apply := func(line string) error {
		_, err := session.Apply(line)
		return err
	}
	must := func(line string) {
		t.Helper()
		if err := apply(line); err != nil {
			t.Fatalf("playground: %s: %v", line, err)
		}
	}
	compare := func(when string, topic string, wantHW int64) {
		t.Helper()
		var p scenario.PartitionState
		for _, tt := range scenario.Snapshot(session.Log()).Topics {
			if tt.Name == topic {
				p = tt.Partitions[0]
			}
		}
		var pISR []int32
		for _, id := range p.ISR {
			pISR = append(pISR, int32(id))
		}
		slices.Sort(pISR)
		// Right after a restart the partition's leader may not answer
		// ListOffsets yet (hw is -1 then): wait until it does.
		waitFor(t, topic+"'s high watermark to be readable", func() bool { return hw(topic) >= 0 })
		kISR, kHW := isr(topic), hw(topic)
		if kHW != wantHW || p.HighWatermark != wantHW || !slices.Equal(kISR, pISR) {
			t.Errorf("%s, %s: kafka high watermark %d ISR %v; playground %d ISR %v; want high watermark %d on both, the same ISR",
				when, topic, kHW, kISR, p.HighWatermark, pISR, wantHW)
		}
		if wantHW < *p.LogEndOffset && !strings.Contains(p.HighWatermarkHeld, "KAFKA-15583") {
			t.Errorf("%s, %s: the playground does not say why its high watermark is held: %q", when, topic, p.HighWatermarkHeld)
		}
	}
	// caughtUp says whether every replica in the ISR of topic's partition
	// holds the bytes its leader holds (DescribeLogDirs): the followers
	// have fetched all there is, and the leader, which decides its high
	// watermark as followers fetch (Kafka 4.4's
	// Partition.updateFollowerFetchState, maybeIncrementLeaderHW), hears so
	// at their next fetch, sent as soon as that one is written.
	caughtUp := func(topic string) bool {
		m, err := admin.Metadata(ctx, topic)
		if err != nil {
			return false
		}
		p := m.Topics[topic].Partitions[0]
		size := func(node int32) int64 {
			dirs, err := admin.DescribeBrokerLogDirs(ctx, node, kadm.TopicsSet{topic: {0: {}}})
			if err != nil {
				return -1
			}
			d, ok := dirs.LookupPartition(topic, 0)
			if !ok {
				return -1
			}
			return d.Size
		}
		want := size(p.Leader)
		for _, node := range p.ISR {
			if want < 0 || size(node) != want {
				return false
			}
		}
		return true
	}
	// settle lets the followers fetch: Kafka at once, the playground on its
	// fetch ticks. The high watermark that moves is waited for; one held
	// is checked once the followers in sync hold all of both topics, the
	// state in which it would have moved were it not held.
	settle := func(topic string, wantHW int64) {
		t.Helper()
		must("advance 1s")
		waitFor(t, fmt.Sprintf("%s's high watermark to reach %d", topic, wantHW), func() bool { return hw(topic) >= wantHW })
		waitFor(t, "the in-sync followers to hold all of held and above", func() bool { return caughtUp("held") && caughtUp("above") })
	}

	// All three in sync: acks=all is taken on both topics, above's needing
	// every replica.
	for _, topic := range []string{"held", "above"} {
		if err := produceAll(topic, "a"); err != nil {
			t.Fatalf("kafka: acks=all to %s with three in sync: %v", topic, err)
		}
		must("produce " + topic + " partition=0 value=a acks=all")
	}
	settle("held", 1)
	compare("three in sync", "held", 1)
	compare("three in sync", "above", 1)

	// One follower of held stopped (node ids are 1 to 3, the cluster's
	// nodes 0 to 2).
	first, second := followers[0], followers[1]
	if err := c.StopNode(int(first) - 1); err != nil {
		t.Fatal(err)
	}
	must(fmt.Sprintf("broker crash %d", first))
	waitFor(t, "both ISRs to lose the stopped follower", func() bool { return len(isr("held")) == 2 && len(isr("above")) == 2 })
	if err := produceAll("above", "x"); !errors.Is(err, kerr.NotEnoughReplicas) {
		t.Errorf("kafka: acks=all to above with 2 in sync of min.insync.replicas=4: %v, want NOT_ENOUGH_REPLICAS", err)
	}
	if err := apply("produce above partition=0 value=x acks=all"); err == nil || !strings.Contains(err.Error(), "NOT_ENOUGH_REPLICAS") {
		t.Errorf("playground: acks=all to above with 2 in sync of min.insync.replicas=4: %v, want NOT_ENOUGH_REPLICAS", err)
	}
	for _, topic := range []string{"held", "above"} {
		if err := produceTo(ctx, acks1, topic, "b"); err != nil {
			t.Fatalf("kafka: acks=1 to %s: %v", topic, err)
		}
		must("produce " + topic + " partition=0 value=b acks=1")
	}
	settle("held", 2)
	compare("one follower stopped", "held", 2)
	compare("one follower stopped", "above", 1)

	// Both followers of held stopped: the leader alone is the ISR.
	if err := c.StopNode(int(second) - 1); err != nil {
		t.Fatal(err)
	}
	must(fmt.Sprintf("broker crash %d", second))
	waitFor(t, "held's ISR to shrink to its leader", func() bool { return len(isr("held")) == 1 })
	if err := produceAll("held", "y"); !errors.Is(err, kerr.NotEnoughReplicas) {
		t.Errorf("kafka: acks=all to held with the leader alone: %v, want NOT_ENOUGH_REPLICAS", err)
	}
	if err := apply("produce held partition=0 value=y acks=all"); err == nil || !strings.Contains(err.Error(), "NOT_ENOUGH_REPLICAS") {
		t.Errorf("playground: acks=all to held with the leader alone: %v, want NOT_ENOUGH_REPLICAS", err)
	}
	// The leader appends c at offset 2 and answers: it is stored, above
	// the high watermark.
	r, err := acks1.ProduceSync(ctx, &kgo.Record{Topic: "held", Partition: 0, Value: []byte("c")}).First()
	if err != nil {
		t.Fatalf("kafka: acks=1 to held with the leader alone: %v", err)
	}
	if r.Offset != 2 {
		t.Errorf("kafka: acks=1 to held appended c at %d, want 2", r.Offset)
	}
	must("produce held partition=0 value=c acks=1")
	settle("held", 2)
	compare("the leader alone", "held", 2)

	// The first follower back: it catches up, rejoins, and the high
	// watermark covers c.
	if err := c.RestartNode(ctx, int(first)-1, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	must(fmt.Sprintf("broker restart %d", first))
	waitFor(t, "the restarted follower to rejoin held's ISR", func() bool { return len(isr("held")) == 2 })
	settle("held", 3)
	compare("a follower back", "held", 3)
	// above has two in sync again, still fewer than the three it needs:
	// its high watermark stays.
	waitFor(t, "the restarted follower to rejoin above's ISR", func() bool { return len(isr("above")) == 2 })
	compare("a follower back", "above", 1)
}
