package conformance

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core/scenario"
	"plog/internal/kafkabroker"
	"plog/kafkarun"
)

// What one scenario cannot show on a cluster in seconds, targeted cases
// check against the broker directly, with its configs set to make it happen
// quickly, beside the playground running the same steps in virtual time.

func adminOf(t *testing.T, brokers []string) (*kgo.Client, *kadm.Client) {
	t.Helper()
	client, err := kgo.NewClient(kgo.SeedBrokers(brokers...), kgo.ProducerLinger(0), kgo.UnknownTopicRetries(-1))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(client.Close)
	return client, kadm.NewClient(client)
}

// playground applies a script and returns the state of partition 0 of
// topic.
func playground(t *testing.T, script string, topic string) scenario.PartitionState {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatalf("playground: %v", err)
	}
	for _, tt := range scenario.Snapshot(s.Log()).Topics {
		if tt.Name == topic {
			return tt.Partitions[0]
		}
	}
	t.Fatalf("playground has no topic %s", topic)
	return scenario.PartitionState{}
}

// waitFor polls until done says yes, failing the test after timeout.
func waitFor(t *testing.T, timeout time.Duration, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(timeout); ; time.Sleep(100 * time.Millisecond) {
		if done() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s waiting for %s", timeout, what)
		}
	}
}

// waitForTopic waits until topic's partition 0 has a leader.
func waitForTopic(t *testing.T, ctx context.Context, admin *kadm.Client, topic string) {
	t.Helper()
	waitFor(t, 30*time.Second, topic+"/0 to have a leader", func() bool {
		m, err := admin.Metadata(ctx, topic)
		if err != nil {
			return false
		}
		p, ok := m.Topics[topic].Partitions[0]
		return ok && p.Leader >= 0 && p.Err == nil
	})
}

// offsetOf is partition 0's offset in a ListStartOffsets or ListEndOffsets
// answer, -1 on an error.
func offsetOf(offsets kadm.ListedOffsets, err error) int64 {
	for _, o := range offsets {
		if p, ok := o[0]; ok && err == nil && p.Err == nil {
			return p.Offset
		}
	}
	return -1
}

func produceTo(ctx context.Context, client *kgo.Client, topic, value string) error {
	return client.ProduceSync(ctx, &kgo.Record{Topic: topic, Partition: 0, Value: []byte(value)}).FirstErr()
}

// Retention by time deletes whole segments from the oldest, the closed one
// first and then the active one, which Kafka rolls so that the log start
// moves to the log end (Kafka 4.4's UnifiedLog.deletableSegments; the
// playground's core/retention.go). The broker checks every 500 ms here
// (log.retention.check.interval.ms) and the timings are the playground's,
// scaled down: on both, the log start goes 0, 3, 6.
func TestRetentionDeletesWholeSegmentsLikeKafka(t *testing.T) {
	t.Parallel()
	const steps = `topic ret partitions=1 retention.ms=25s segment.ms=1s
produce ret partition=0 value=a count=3
advance 20s
produce ret partition=0 value=b count=3
`
	want := playground(t, steps+"advance 10s\n", "ret")
	if want.LogStartOffset != 3 || want.HighWatermark != 6 {
		t.Fatalf("playground: log start %d, high watermark %d after the first segment expired; want 3 and 6", want.LogStartOffset, want.HighWatermark)
	}

	c := kafkabroker.StartT(t, kafkabroker.Options{Configs: map[string]string{
		"log.retention.check.interval.ms": "500",
		// Kafka's retention task first runs 30 s after start (an
		// internal config, ServerLogConfigs).
		"log.initial.task.delay.ms": "0",
	}})
	client, admin := adminOf(t, c.Brokers())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	retention, segment := "6000", "100"
	if _, err := admin.CreateTopic(ctx, 1, 1, map[string]*string{"retention.ms": &retention, "segment.ms": &segment}, "ret"); err != nil {
		t.Fatal(err)
	}
	waitForTopic(t, ctx, admin, "ret")
	for range 3 {
		if err := produceTo(ctx, client, "ret", "a"); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(2 * time.Second) // past segment.ms: the next record rolls a segment
	for range 3 {
		if err := produceTo(ctx, client, "ret", "b"); err != nil {
			t.Fatal(err)
		}
	}
	logStart := func() int64 { return offsetOf(admin.ListStartOffsets(ctx, "ret")) }
	// a expires 6 s after it was written, b 2 s later.
	waitFor(t, 15*time.Second, "the first segment to expire", func() bool { return logStart() >= 3 })
	if got := logStart(); got != want.LogStartOffset {
		t.Fatalf("kafka: log start %d once the first segment expired, playground %d", got, want.LogStartOffset)
	}

	// The playground's next check after 30s is at 5m30s (log.retention.
	// check.interval.ms, 5m, under rules 3).
	want = playground(t, steps+"advance 310s\n", "ret")
	if want.LogStartOffset != 6 || want.HighWatermark != 6 {
		t.Fatalf("playground: log start %d, high watermark %d once every record expired; want 6 and 6", want.LogStartOffset, want.HighWatermark)
	}
	waitFor(t, 15*time.Second, "the active segment to expire", func() bool { return logStart() >= 6 })
	end := offsetOf(admin.ListEndOffsets(ctx, "ret"))
	if got := logStart(); got != want.LogStartOffset || end != want.HighWatermark {
		t.Fatalf("kafka: log start %d, end %d once every record expired; playground %d, %d", got, end, want.LogStartOffset, want.HighWatermark)
	}
}

// With replication.factor=3 and min.insync.replicas=2, acks=all writes go
// on with one follower down and fail with NOT_ENOUGH_REPLICAS with two,
// while acks=1 writes still succeed, on the three-node cluster as in the
// playground (Kafka 4.4's Partition.appendRecordsToLeader; core's
// replication). A stopped node is a crashed broker; its controlled
// shutdown takes it out of the ISR at once, where the playground waits
// replica.lag.time.max.ms, so the script advances past it.
func TestReplicationAcksLikeKafkaWithFollowersDown(t *testing.T) {
	t.Parallel()
	script := `brokers 3
topic r partitions=1 replication.factor=3 min.insync.replicas=2
produce r partition=0 value=a acks=all
broker crash 2
advance 31s
produce r partition=0 value=b acks=all
advance 1s
broker crash 3
advance 31s
`
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply("produce r partition=0 value=c acks=all"); err == nil {
		t.Fatal("playground: acks=all with one in-sync replica of min.insync.replicas=2 was accepted")
	}
	if _, err := s.Apply("produce r partition=0 value=d acks=1"); err != nil {
		t.Fatalf("playground: acks=1 with the leader alone refused: %v", err)
	}
	want := playground(t, script+"produce r partition=0 value=d acks=1\n", "r")

	c := kafkabroker.StartT(t, kafkabroker.Options{Nodes: 3})
	client, admin := adminOf(t, c.Brokers())
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	two := "2"
	if _, err := admin.CreateTopic(ctx, 1, 3, map[string]*string{"min.insync.replicas": &two}, "r"); err != nil {
		t.Fatal(err)
	}
	var leader int32
	var followers []int32
	waitFor(t, 30*time.Second, "r/0 to have a leader and three in-sync replicas", func() bool {
		m, err := admin.Metadata(ctx, "r")
		if err != nil {
			return false
		}
		p := m.Topics["r"].Partitions[0]
		leader, followers = p.Leader, nil
		for _, r := range p.Replicas {
			if r != leader {
				followers = append(followers, r)
			}
		}
		return p.Leader >= 0 && len(p.ISR) == 3
	})
	isr := func() []int32 {
		m, err := admin.Metadata(ctx, "r")
		if err != nil {
			return nil
		}
		return m.Topics["r"].Partitions[0].ISR
	}
	if err := produceTo(ctx, client, "r", "a"); err != nil {
		t.Fatalf("acks=all with three in sync: %v", err)
	}
	// Node ids are 1 to 3, the cluster's nodes 0 to 2.
	if err := c.StopNode(int(followers[0]) - 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the ISR to lose the stopped follower", func() bool { return len(isr()) == 2 })
	if err := produceTo(ctx, client, "r", "b"); err != nil {
		t.Fatalf("acks=all with two in sync of min.insync.replicas=2: %v", err)
	}
	if err := c.StopNode(int(followers[1]) - 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the ISR to shrink to the leader", func() bool { return slices.Equal(isr(), []int32{leader}) })
	// NOT_ENOUGH_REPLICAS is retriable: a client that does not retry
	// shows it, as the playground's refusal does.
	once, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.RecordRetries(0), kgo.DisableIdempotentWrite())
	if err != nil {
		t.Fatal(err)
	}
	defer once.Close()
	shortCtx, shortCancel := context.WithTimeout(ctx, 20*time.Second)
	err = produceTo(shortCtx, once, "r", "c")
	shortCancel()
	if !errors.Is(err, kerr.NotEnoughReplicas) {
		t.Fatalf("acks=all with the leader alone: %v, want NOT_ENOUGH_REPLICAS as the playground says", err)
	}
	acks1, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
	if err != nil {
		t.Fatal(err)
	}
	defer acks1.Close()
	if err := produceTo(ctx, acks1, "r", "d"); err != nil {
		t.Fatalf("acks=1 with the leader alone: %v", err)
	}
	hw := func() int64 { return offsetOf(admin.ListEndOffsets(ctx, "r")) }
	// Kafka advances the high watermark only while the ISR has at least
	// min.insync.replicas replicas (Kafka 3.7+, KAFKA-15583): d is written
	// but not yet visible, on both sides (conformance/isr_test.go checks
	// it step by step).
	waitFor(t, 15*time.Second, "the high watermark to cover b", func() bool { return hw() >= 2 })
	time.Sleep(2 * time.Second) // the high watermark would move at once
	if got := hw(); got != 2 || len(isr()) != 1 || want.HighWatermark != 2 {
		t.Errorf("high watermark with the leader alone: kafka %d (ISR %v), playground %d; want 2 (a and b; d held back)", got, isr(), want.HighWatermark)
	}
	// The stopped follower comes back and catches up into the ISR, and
	// with two in sync the high watermark covers d, on both sides.
	if err := c.RestartNode(ctx, int(followers[0])-1, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 60*time.Second, "the restarted follower to rejoin the ISR", func() bool { return len(isr()) == 2 })
	waitFor(t, 15*time.Second, "the high watermark to cover d", func() bool { return hw() == 3 })
	back := playground(t, script+"produce r partition=0 value=d acks=1\nbroker restart 2\nadvance 31s\n", "r")
	if back.HighWatermark != 3 || len(back.ISR) != 2 {
		t.Errorf("playground: high watermark %d, ISR %v once broker 2 is back; kafka 3 and two in sync", back.HighWatermark, back.ISR)
	}
}

// TestGenerationIsTheBrokers: kafkarun reads a group's generation from the
// broker's group coordinator (its records in __consumer_offsets), and with
// every rebalance let to end it is the playground's: one per membership
// change here, a static member's return none.
func TestGenerationIsTheBrokers(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := kafkarun.Run(ctx, `
topic orders partitions=3
join billing a topics=orders
advance 5s
join billing b topics=orders
advance 5s
join billing c topics=orders instance=host-c
advance 5s
leave billing a
advance 5s
leave billing c
join billing c topics=orders instance=host-c
advance 5s
`, kafkarun.Options{Brokers: brokers, WaitTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var row kafkarun.Row
	for _, r := range res.Comparison.Rows {
		if r.What == "billing generation" {
			row = r
		}
	}
	if !row.Match || row.Cluster != "4" {
		t.Errorf("generation row %+v, want the broker's 4, as the playground's\n%s", row, res.Comparison.Text())
	}
}

// TestStaticReturnOfACooperativeMemberRebalancesOnKafka: a static member
// that comes back rebalances its group on Kafka 4.4 under
// cooperative-sticky (the new client joins owning nothing, so its
// subscription changed), and not under range or sticky; the playground
// rebalances under none, and kafkarun's reason for that generation says
// so. When Kafka or the playground changes, this test says which.
func TestStaticReturnOfACooperativeMemberRebalancesOnKafka(t *testing.T) {
	t.Parallel()
	for _, strategy := range []string{"range", "sticky", "cooperative-sticky"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		res, err := kafkarun.Run(ctx, `
topic events partitions=6
join g a topics=events strategy=`+strategy+` instance=host-a
join g b topics=events
advance 5s
leave g a
advance 5s
join g a topics=events instance=host-a
advance 5s
`, kafkarun.Options{Brokers: brokers, WaitTimeout: 30 * time.Second})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, row := range res.Comparison.Rows {
			if row.What != "g generation" {
				continue
			}
			found = true
			p, _ := strconv.Atoi(row.Playground)
			c, _ := strconv.Atoi(row.Cluster)
			switch {
			case strategy != "cooperative-sticky" && !row.Match:
				t.Errorf("%s: generation %+v, want the same on both sides", strategy, row)
			case strategy == "cooperative-sticky" && (c != p+1 || row.Reason != kafkarun.ReasonStaticReturn):
				t.Errorf("%s: generation %+v, want the broker's one more, for ReasonStaticReturn", strategy, row)
			}
		}
		if !found {
			t.Errorf("%s: no generation row", strategy)
		}
	}
}

// generationRow runs a script on the broker and returns its group's
// generation row.
func generationRow(t *testing.T, group, script string) (kafkarun.Row, *kafkarun.Result) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	res, err := kafkarun.Run(ctx, script, kafkarun.Options{Brokers: brokers, WaitTimeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Comparison.Rows {
		if row.What == group+" generation" {
			return row, res
		}
	}
	t.Fatalf("no generation row for group %s:\n%s", group, res.Comparison.Text())
	return kafkarun.Row{}, nil
}

// TestSubscriptionChangeIsOneRebalanceOnKafka: a member that joins again
// with other topics (some added and some dropped, only added, only
// dropped) makes one rebalance each on the broker, one generation, as the
// Java consumer's subscribe() does and as the playground counts; franz-go's
// AddConsumeTopics and PurgeTopicsFromConsuming would rejoin once each.
func TestSubscriptionChangeIsOneRebalanceOnKafka(t *testing.T) {
	t.Parallel()
	row, res := generationRow(t, "g", `
topic a partitions=2
topic b partitions=2
join g m topics=a
advance 5s
join g m topics=b
advance 5s
join g m topics=a,b
advance 5s
join g m topics=a
advance 5s
`)
	if !row.Match || row.Cluster != "4" {
		t.Errorf("generation row %+v, want 4 on both sides\n%s", row, res.Comparison.Text())
	}
}

// TestJoinReachesTheCoordinatorBeforeTheNextCommand: a member that joins
// while its group waits for a static member that left is in that
// rebalance, which ends when the static member's session does (the run
// removes it then); the generation is one, not two, as in the playground.
// The next join lets the static member's session end in the playground at
// once, so the new member's JoinGroup must have reached the broker first.
func TestJoinReachesTheCoordinatorBeforeTheNextCommand(t *testing.T) {
	t.Parallel()
	row, res := generationRow(t, "g", `
topic orders partitions=2
join g s topics=orders instance=host-s
advance 5s
leave g s
join g a topics=orders
join g b topics=orders
advance 5s
`)
	if !row.Match || row.Cluster != "3" {
		t.Errorf("generation row %+v, want 3 on both sides\n%s", row, res.Comparison.Text())
	}
}
