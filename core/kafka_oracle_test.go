//go:build !js

package core_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
)

// randomKeys returns n keys of 0 to 40 random bytes (an empty key is a key),
// from a fixed seed.
func randomKeys(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, seed))
	keys := make([]string, n)
	for i := range keys {
		b := make([]byte, r.IntN(41))
		for j := range b {
			b[j] = byte(r.IntN(256))
		}
		keys[i] = string(b)
	}
	return keys
}

// TestPartitionForMatchesFranzGo compares the engine's partitioner with
// franz-go's Kafka-compatible key partitioner for thousands of random keys
// and partition counts.
func TestPartitionForMatchesFranzGo(t *testing.T) {
	partitioner := kgo.StickyKeyPartitioner(nil).ForTopic("t")
	r := rand.New(rand.NewPCG(7, 7))
	for _, key := range randomKeys(1, 5000) {
		n := 1 + r.IntN(core.MaxPartitions)
		want := partitioner.Partition(&kgo.Record{Key: []byte(key)}, n)
		if got := core.PartitionFor(key, n); got != want {
			t.Fatalf("key %q, %d partitions: engine %d, franz-go %d", key, n, got, want)
		}
	}
	// The empty key is hashed, not treated as "no key".
	for n := 1; n <= 100; n++ {
		if got, want := core.PartitionFor("", n), partitioner.Partition(&kgo.Record{Key: []byte{}}, n); got != want {
			t.Fatalf("empty key, %d partitions: engine %d, franz-go %d", n, got, want)
		}
	}
}

// TestSameAsKfake produces the same keyed records through kgo into kfake
// (franz-go's in-process Kafka) and into the engine: they land on the same
// partitions and offsets, adding partitions remaps new records the same way,
// and DeleteRecords leaves the same log start offsets as Truncate.
func TestSameAsKfake(t *testing.T) {
	const topicName = "orders"
	cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(4, topicName))
	if err != nil {
		t.Fatal(err)
	}
	defer cluster.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	engine := core.NewPartitionedLog(1)
	if err := engine.CreateTopic(topicName, 4, map[string]string{"segment.records": "-1", "segment.bytes": "1GB"}); err != nil {
		t.Fatal(err)
	}

	produceBoth := func(keys []string) {
		t.Helper()
		client, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.DefaultProduceTopic(topicName))
		if err != nil {
			t.Fatal(err)
		}
		defer client.Close()
		records := make([]*kgo.Record, len(keys))
		for i, key := range keys {
			records[i] = &kgo.Record{Key: []byte(key), Value: []byte(fmt.Sprint("v", i))}
		}
		// One record at a time, so that kgo keeps the order across
		// partitions too and the two logs see the same sequence.
		for i, rec := range records {
			if err := client.ProduceSync(ctx, rec).FirstErr(); err != nil {
				t.Fatal(err)
			}
			res, err := engine.Produce(core.ProduceRequest{Topic: topicName, Partition: -1, Key: keys[i], HasKey: true, Value: string(rec.Value)})
			if err != nil {
				t.Fatal(err)
			}
			if int32(res.Partition) != rec.Partition || res.Offset != rec.Offset {
				t.Fatalf("key %q: engine %d@%d, kfake %d@%d", keys[i], res.Partition, res.Offset, rec.Partition, rec.Offset)
			}
		}
	}
	produceBoth(randomKeys(2, 300))

	admin := kadm.NewClient(func() *kgo.Client {
		client, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...))
		if err != nil {
			t.Fatal(err)
		}
		return client
	}())
	defer admin.Close()

	if _, err := admin.CreatePartitions(ctx, 2, topicName); err != nil {
		t.Fatal(err)
	}
	if err := engine.AddPartitions(topicName, 6); err != nil {
		t.Fatal(err)
	}
	produceBoth(randomKeys(3, 200))

	// DeleteRecords: to the middle, to the high watermark, to 0, then
	// further. (Below the log start Kafka changes nothing, as Truncate
	// does, but kfake answers OFFSET_OUT_OF_RANGE, so that case is tested
	// against Kafka's rule in TestTruncate only.)
	compareStarts := func(targets map[int32]int64) {
		t.Helper()
		var offsets kadm.Offsets
		for p, at := range targets {
			offsets.AddOffset(topicName, p, at, -1)
			if err := engine.Truncate(topicName, int(p), at); err != nil {
				t.Fatal(err)
			}
		}
		responses, err := admin.DeleteRecords(ctx, offsets)
		if err != nil {
			t.Fatal(err)
		}
		if err := responses.Error(); err != nil {
			t.Fatal(err)
		}
		starts, err := admin.ListStartOffsets(ctx, topicName)
		if err != nil {
			t.Fatal(err)
		}
		for p := range int32(6) {
			listed, _ := starts.Lookup(topicName, p)
			engineStart, _ := engine.LogStartOffset(topicName, int(p))
			if listed.Offset != engineStart {
				t.Fatalf("partition %d: kfake log start %d, engine %d", p, listed.Offset, engineStart)
			}
			if r, ok := responses.Lookup(topicName, p); ok && r.LowWatermark != engineStart {
				t.Fatalf("partition %d: DeleteRecords low watermark %d, engine %d", p, r.LowWatermark, engineStart)
			}
		}
	}
	highWatermark := func(p int) int64 {
		hw, err := engine.HighWatermark(topicName, p)
		if err != nil {
			t.Fatal(err)
		}
		return hw
	}
	compareStarts(map[int32]int64{0: highWatermark(0) / 2, 1: highWatermark(1), 2: 0, 4: 1})
	compareStarts(map[int32]int64{0: highWatermark(0) * 3 / 4, 3: highWatermark(3) / 3})
	produceBoth(randomKeys(4, 50))
}
