//go:build !js

package core_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
)

// TestGroupSameAsKfake runs a consumer group through kgo against kfake
// (franz-go's in-process Kafka) and the same group in the engine: the
// members kfake names get the same range assignment, and after consuming
// and committing, the committed offsets and the lag kadm reports are the
// engine's.
func TestGroupSameAsKfake(t *testing.T) {
	const group = "billing"
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(3, "orders"), kfake.SeedTopics(1, "payments"))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	engine := core.NewPartitionedLog(1)
	// The rules 3 timing (rebalance.ms): kfake's coordinator does not
	// wait for members to rejoin by polling as Kafka's does (rules 4).
	if err := engine.UseRules(core.RulesV3); err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(engine.CreateTopic("orders", 3, nil), engine.CreateTopic("payments", 1, nil)); err != nil {
		t.Fatal(err)
	}
	producer, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer producer.Close()
	next := 0
	produceBoth := func(topic string, partitions, n int) {
		t.Helper()
		for range n {
			p := next % partitions
			next++
			value := fmt.Sprint("v", next)
			rec := &kgo.Record{Topic: topic, Partition: int32(p), Value: []byte(value)}
			if err := producer.ProduceSync(ctx, rec).FirstErr(); err != nil {
				t.Fatal(err)
			}
			res, err := engine.Produce(core.ProduceRequest{Topic: topic, Partition: p, Value: value})
			if err != nil {
				t.Fatal(err)
			}
			if res.Offset != rec.Offset {
				t.Fatalf("%s/%d: engine offset %d, kfake %d", topic, p, res.Offset, rec.Offset)
			}
		}
	}
	produceBoth("orders", 3, 30)
	produceBoth("payments", 1, 10)

	admin := kadm.NewClient(producer)
	newConsumer := func(topics ...string) *kgo.Client {
		t.Helper()
		c, err := kgo.NewClient(
			kgo.SeedBrokers(cluster.ListenAddrs()...),
			kgo.ConsumerGroup(group),
			kgo.ConsumeTopics(topics...),
			kgo.Balancers(kgo.RangeBalancer()),
			kgo.DisableAutoCommit(),
			kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), // the engine's default auto.offset.reset
			kgo.FetchMaxWait(50*time.Millisecond),
		)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	consumers := []*kgo.Client{newConsumer("orders", "payments"), newConsumer("orders", "payments")}
	defer func() {
		for _, c := range consumers {
			c.Close()
		}
	}()

	// Wait until kfake's group is stable with both members assigned.
	var described kadm.DescribedGroup
	for {
		time.Sleep(20 * time.Millisecond) // kgo joins in the background
		groups, err := admin.DescribeGroups(ctx, group)
		if err != nil {
			t.Fatal(err)
		}
		described = groups[group]
		assignedCount := 0
		for _, topic := range described.AssignedPartitions().Sorted() {
			assignedCount += len(topic.Partitions)
		}
		if described.State == "Stable" && len(described.Members) == 2 && assignedCount == 4 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("kfake's group never settled: %+v", described)
		}
	}

	// The same members in the engine, under the member ids kfake gave.
	for _, m := range described.Members {
		if err := engine.Join(group, m.MemberID, core.JoinOptions{Topics: []string{"orders", "payments"}, Strategy: core.StrategyRange}); err != nil {
			t.Fatal(err)
		}
	}
	if err := engine.Advance(core.DefaultGroupConfigUnder(core.RulesV3).RebalanceMs); err != nil {
		t.Fatal(err)
	}
	view, err := engine.Group(group)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range described.Members {
		kafkaAssigned, _ := m.Assigned.AsConsumer()
		var want []string
		for _, topic := range kafkaAssigned.Topics {
			for _, p := range topic.Partitions {
				want = append(want, fmt.Sprintf("%s/%d", topic.Topic, p))
			}
		}
		slices.Sort(want)
		var got []string
		for _, mv := range view.Members {
			if mv.ID == m.MemberID {
				for _, tp := range mv.Assignment {
					got = append(got, tp.String())
				}
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("member %s: engine assigns %v, kgo's leader assigned %v", m.MemberID, got, want)
		}
	}

	// Each kgo member reads everything it owns and commits; each engine
	// member polls until it has nothing left and commits.
	for !readToTheEnd(t, engine, consumers, described) {
		for _, c := range consumers {
			pollCtx, stop := context.WithTimeout(ctx, 50*time.Millisecond)
			c.PollFetches(pollCtx)
			stop()
		}
		if ctx.Err() != nil {
			t.Fatal("kgo consumers did not read all records")
		}
	}
	for _, c := range consumers {
		if err := c.CommitUncommittedOffsets(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for _, m := range view.Members {
		for {
			ds, err := engine.Poll(group, m.ID, 7)
			if err != nil {
				t.Fatal(err)
			}
			if len(ds) == 0 {
				break
			}
		}
		if err := engine.Commit(group, m.ID); err != nil {
			t.Fatal(err)
		}
	}
	compareOffsetsAndLag(ctx, t, admin, engine, group)

	// New records raise the lag on both sides; an explicit commit moves one
	// partition back.
	produceBoth("orders", 3, 8)
	produceBoth("payments", 1, 5)
	var commitErr error
	consumers[0].CommitOffsetsSync(ctx, map[string]map[int32]kgo.EpochOffset{"orders": {1: {Epoch: -1, Offset: 4}}},
		func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
			commitErr = err
			for _, topic := range resp.Topics {
				for _, p := range topic.Partitions {
					if e := kerr.ErrorForCode(p.ErrorCode); e != nil {
						commitErr = e
					}
				}
			}
		})
	if commitErr != nil {
		t.Fatal(commitErr)
	}
	if err := engine.CommitOffset(group, "orders", 1, 4); err != nil {
		t.Fatal(err)
	}
	compareOffsetsAndLag(ctx, t, admin, engine, group)
}

// readToTheEnd reports whether every kgo consumer has read every partition
// kfake assigned it up to the high watermark.
func readToTheEnd(t *testing.T, engine *core.PartitionedLog, consumers []*kgo.Client, described kadm.DescribedGroup) bool {
	t.Helper()
	for _, c := range consumers {
		memberID, _ := c.GroupMetadata()
		read := c.UncommittedOffsets()
		for _, m := range described.Members {
			if m.MemberID != memberID {
				continue
			}
			assigned, _ := m.Assigned.AsConsumer()
			for _, topic := range assigned.Topics {
				for _, p := range topic.Partitions {
					hw, err := engine.HighWatermark(topic.Topic, int(p))
					if err != nil {
						t.Fatal(err)
					}
					if read[topic.Topic][p].Offset != hw {
						return false
					}
				}
			}
		}
	}
	return true
}

// compareOffsetsAndLag compares, partition by partition, the committed
// offsets and the lag kadm reports with the engine's group view.
func compareOffsetsAndLag(ctx context.Context, t *testing.T, admin *kadm.Client, engine *core.PartitionedLog, group string) {
	t.Helper()
	lags, err := admin.Lag(ctx, group)
	if err != nil {
		t.Fatal(err)
	}
	kafkaLag := lags[group].Lag
	view, err := engine.Group(group)
	if err != nil {
		t.Fatal(err)
	}
	var kafkaTotal int64
	for _, pv := range view.Partitions {
		l, ok := kafkaLag.Lookup(pv.Topic, int32(pv.Partition))
		if !ok || l.Err != nil {
			t.Fatalf("%s/%d: kadm has no lag: %+v", pv.Topic, pv.Partition, l)
		}
		kafkaTotal += l.Lag
		if !pv.HasCommitted || pv.Committed != l.Commit.At || pv.Lag != l.Lag || pv.HighWatermark != l.End.Offset {
			t.Fatalf("%s/%d: engine committed %d lag %d end %d; kafka committed %d lag %d end %d",
				pv.Topic, pv.Partition, pv.Committed, pv.Lag, pv.HighWatermark, l.Commit.At, l.Lag, l.End.Offset)
		}
	}
	if view.TotalLag != kafkaTotal {
		t.Fatalf("total lag: engine %d, kafka %d", view.TotalLag, kafkaTotal)
	}
	offsets, err := engine.GroupOffsets(group)
	if err != nil {
		t.Fatal(err)
	}
	if len(offsets) != len(view.Partitions) {
		t.Fatalf("GroupOffsets has %d partitions, the view %d", len(offsets), len(view.Partitions))
	}
}
