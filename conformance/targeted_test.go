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
	"github.com/twmb/franz-go/pkg/kmsg"

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

// brokerDeadline bounds every wait of the suite for a state of the broker:
// long enough for a loaded machine (make test runs the suite beside the
// rest, four cases at a time, on two cores), so that only a broker that
// never gets there fails a test. A wait that ends well never waits it out.
const brokerDeadline = 2 * time.Minute

// waitFor polls until done says yes, failing the test after
// brokerDeadline. done looks at the broker (or the clients' view of it):
// the suite waits for states, never for a fixed time.
func waitFor(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(brokerDeadline); ; time.Sleep(100 * time.Millisecond) {
		if done() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gave up after %s waiting for %s", brokerDeadline, what)
		}
	}
}

// waitForTopic waits until every broker of the cluster has topic, each
// partition with a leader, in its metadata, and the leaders serve the
// partitions (ListOffsets). A client asks any broker for metadata, and
// each broker learns of a new topic on its own, as it replays the metadata
// log; a leader serves a partition only once it leads it, a moment after
// its metadata shows it (Kafka 4.4's BrokerMetadataPublisher sets the
// metadata cache, then ReplicaManager.applyDelta makes the broker leader).
func waitForTopic(t *testing.T, ctx context.Context, client *kgo.Client, topic string) {
	t.Helper()
	admin := kadm.NewClient(client)
	waitFor(t, topic+" to be known to every broker and served by its leaders", func() bool {
		nodes, err := admin.ListBrokers(ctx)
		if err != nil || len(nodes) == 0 {
			return false
		}
		for _, n := range nodes {
			req := kmsg.NewPtrMetadataRequest()
			rt := kmsg.NewMetadataRequestTopic()
			rt.Topic = kmsg.StringPtr(topic)
			req.Topics = append(req.Topics, rt)
			resp, err := req.RequestWith(ctx, client.Broker(int(n.NodeID)))
			if err != nil || len(resp.Topics) != 1 || resp.Topics[0].ErrorCode != 0 || len(resp.Topics[0].Partitions) == 0 {
				return false
			}
			for _, p := range resp.Topics[0].Partitions {
				if p.ErrorCode != 0 || p.Leader < 0 {
					return false
				}
			}
		}
		ends, err := admin.ListEndOffsets(ctx, topic)
		if err != nil {
			return false
		}
		served := true
		ends.Each(func(o kadm.ListedOffset) { served = served && o.Err == nil })
		return served
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
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	const retentionMs, segmentMs = 8000, 100
	retention, segment := strconv.Itoa(retentionMs), strconv.Itoa(segmentMs)
	if _, err := admin.CreateTopic(ctx, 1, 1, map[string]*string{"retention.ms": &retention, "segment.ms": &segment}, "ret"); err != nil {
		t.Fatal(err)
	}
	waitForTopic(t, ctx, client, "ret")
	// produce writes count records and returns the last one's timestamp,
	// which the broker's time rules count from (message.timestamp.type
	// CreateTime): retention from a segment's largest, the roll from its
	// first (Kafka 4.4's UnifiedLog.deletableSegments, LogSegment.shouldRoll).
	produce := func(value string) time.Time {
		var last time.Time
		for range 3 {
			r, err := client.ProduceSync(ctx, &kgo.Record{Topic: "ret", Partition: 0, Value: []byte(value)}).First()
			if err != nil {
				t.Fatal(err)
			}
			last = r.Timestamp
		}
		return last
	}
	aWritten := produce("a")
	// The broker runs on this machine's clock: b goes once a's segment is
	// older than segment.ms, so that b rolls a new one, and 4 s after a,
	// so that their expiries are that far apart.
	time.Sleep(time.Until(aWritten.Add(4 * time.Second)))
	bWritten := produce("b")
	logStart := func() int64 { return offsetOf(admin.ListStartOffsets(ctx, "ret")) }
	// a's segment expires retention.ms after a's last timestamp, b's 4 s
	// later: the log start is 3 in between. A machine stalled past that
	// window (the test's polls and the broker's checks both) sees 6 at
	// once, which Kafka does too when its check comes that late; only then
	// is the step between not seen.
	var first int64
	var seen time.Time
	waitFor(t, "the first segment to expire", func() bool {
		first, seen = logStart(), time.Now()
		return first >= 3
	})
	switch bExpires := bWritten.Add(retentionMs * time.Millisecond); {
	case first == want.LogStartOffset:
	case first == 6 && seen.After(bExpires):
		t.Logf("kafka: log start 6 when first read, %s after b's segment expired too: the step through 3 was not seen", seen.Sub(bExpires))
	default:
		t.Fatalf("kafka: log start %d once the first segment expired, playground %d", first, want.LogStartOffset)
	}

	// The playground's next check after 30s is at 5m30s (log.retention.
	// check.interval.ms, 5m, under rules 3).
	want = playground(t, steps+"advance 310s\n", "ret")
	if want.LogStartOffset != 6 || want.HighWatermark != 6 {
		t.Fatalf("playground: log start %d, high watermark %d once every record expired; want 6 and 6", want.LogStartOffset, want.HighWatermark)
	}
	waitFor(t, "the active segment to expire", func() bool { return logStart() >= 6 })
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
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	two := "2"
	if _, err := admin.CreateTopic(ctx, 1, 3, map[string]*string{"min.insync.replicas": &two}, "r"); err != nil {
		t.Fatal(err)
	}
	waitForTopic(t, ctx, client, "r")
	var leader int32
	var followers []int32
	waitFor(t, "r/0 to have a leader and three in-sync replicas", func() bool {
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
	waitFor(t, "the ISR to lose the stopped follower", func() bool { return len(isr()) == 2 })
	if err := produceTo(ctx, client, "r", "b"); err != nil {
		t.Fatalf("acks=all with two in sync of min.insync.replicas=2: %v", err)
	}
	if err := c.StopNode(int(followers[1]) - 1); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the ISR to shrink to the leader", func() bool { return slices.Equal(isr(), []int32{leader}) })
	// NOT_ENOUGH_REPLICAS is retriable: a client that does not retry
	// shows it, as the playground's refusal does.
	once, err := kgo.NewClient(kgo.SeedBrokers(c.Brokers()...), kgo.RecordRetries(0), kgo.DisableIdempotentWrite())
	if err != nil {
		t.Fatal(err)
	}
	defer once.Close()
	bounded, cancelBounded := context.WithTimeout(ctx, brokerDeadline)
	err = produceTo(bounded, once, "r", "c")
	cancelBounded()
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
	// The leader decided its high watermark as it appended d, before it
	// answered (Partition.appendRecordsToLeader, maybeIncrementLeaderHW),
	// and decides again only when a follower fetches or the ISR changes:
	// with both followers stopped, what it says now stays.
	if got := hw(); got != 2 || len(isr()) != 1 || want.HighWatermark != 2 {
		t.Errorf("high watermark with the leader alone: kafka %d (ISR %v), playground %d; want 2 (a and b; d held back)", got, isr(), want.HighWatermark)
	}
	// The stopped follower comes back and catches up into the ISR, and
	// with two in sync the high watermark covers d, on both sides.
	if err := c.RestartNode(ctx, int(followers[0])-1, 2*time.Minute); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the restarted follower to rejoin the ISR", func() bool { return len(isr()) == 2 })
	waitFor(t, "the high watermark to cover d", func() bool { return hw() == 3 })
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
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
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
`, runOptions())
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
		ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
		res, err := kafkarun.Run(ctx, `
topic events partitions=6
join g a topics=events strategy=`+strategy+` instance=host-a
join g b topics=events
advance 5s
leave g a
advance 5s
join g a topics=events instance=host-a
advance 5s
`, runOptions())
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
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	res, err := kafkarun.Run(ctx, script, runOptions())
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
