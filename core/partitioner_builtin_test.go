package core

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Twelve small keyless records on four partitions: Kafka's built-in
// partitioner (rules 2) puts them all in one partition, chosen by the
// seed; rules 1 spreads them round-robin, 3/3/3/3.
func TestTwelveSmallKeylessRecords(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Int64().Draw(t, "seed")
		value := strings.Repeat("v", rapid.IntRange(0, 40).Draw(t, "value bytes"))
		for _, rules := range []int{RulesV1, RulesV2} {
			l := NewPartitionedLog(seed)
			if err := l.UseRules(rules); err != nil {
				t.Fatal(err)
			}
			if err := l.CreateTopic("orders", 4, nil); err != nil {
				t.Fatal(err)
			}
			counts := make([]int, 4)
			for range 12 {
				res, err := l.Produce(ProduceRequest{Topic: "orders", Partition: -1, Value: value})
				if err != nil {
					t.Fatal(err)
				}
				counts[res.Partition]++
			}
			switch rules {
			case RulesV1:
				for p, n := range counts {
					if n != 3 {
						t.Fatalf("rules 1: partition %d got %d records, want 3 each: %v", p, n, counts)
					}
				}
			case RulesV2:
				if !containsInt(counts, 12) {
					t.Fatalf("rules 2: the records spread %v, want all 12 in one partition", counts)
				}
			}
		}
	})
}

func containsInt(list []int, n int) bool {
	for _, x := range list {
		if x == n {
			return true
		}
	}
	return false
}

// fillingValue is the length of a keyless record's value that makes its
// batch exactly batch.size: the 61 bytes of the batch's header and 16323
// of the record (DefaultRecord.sizeInBytes: 8 bytes of attributes, deltas,
// a null key, the value's length in 3 bytes and no headers, and 3 bytes of
// the record's length).
const fillingValue = BatchSizeBytes - recordBatchOverhead - 11

// The built-in partitioner moves on once batch.size bytes have gone to its
// partition and the batch is full, and says why.
func TestBuiltInSwitchesAtBatchSize(t *testing.T) {
	if got := defaultRecordSize(0, 0, false, 0, fillingValue); got != BatchSizeBytes-recordBatchOverhead {
		t.Fatalf("a record of %d value bytes takes %d bytes", fillingValue, got)
	}
	l := newTestLog(t, "orders", 4, nil)
	first := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: strings.Repeat("v", fillingValue-1)})
	second := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1})
	if second.Partition != first.Partition {
		t.Fatalf("16383 bytes moved the partitioner from %d to %d", first.Partition, second.Partition)
	}

	l = newTestLog(t, "orders", 4, nil)
	full := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: strings.Repeat("v", fillingValue)})
	if want := "built-in partitioner: keyless records stick to orders/"; !strings.HasPrefix(full.Reason(), want) {
		t.Fatalf("reason %q", full.Reason())
	}
	// The next partition is drawn at random: it may be the same one.
	// Over several switches, the reason names both.
	moved := false
	prev := full.Partition
	for range 8 {
		next := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1})
		want := "batch.size 16384 bytes reached on orders/" + itoa(prev) + ": the built-in partitioner moved to orders/" + itoa(next.Partition)
		if next.Reason() != want {
			t.Fatalf("after a full batch: reason %q, want %q", next.Reason(), want)
		}
		moved = moved || next.Partition != prev
		fill := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: strings.Repeat("v", fillingValue-7)})
		if fill.Partition != next.Partition {
			t.Fatalf("the batch filling record went to %d, not %d", fill.Partition, next.Partition)
		}
		prev = next.Partition
	}
	// The two records of each batch make 61 + 7 + 16316 = 16384 bytes.
	if got := recordBatchOverhead + defaultRecordSize(0, 0, false, 0, 0) + defaultRecordSize(1, 0, false, 0, fillingValue-7); got != BatchSizeBytes {
		t.Fatalf("the batches hold %d bytes", got)
	}
	if !moved {
		t.Fatal("eight switches all drew the same partition")
	}
}

// Records produced at different instants each start a batch: no batch is
// ever full, so the partitioner moves once twice batch.size bytes have gone
// to the partition (BuiltInPartitioner.updatePartitionInfo).
func TestBuiltInSwitchesAtTwiceBatchSizeWhenBatchesAreSent(t *testing.T) {
	l := newTestLog(t, "orders", 4, nil)
	value := strings.Repeat("v", 100)
	per := int64(recordBatchOverhead + defaultRecordSize(0, 0, false, 0, len(value)))
	first := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: value})
	produced := per
	for produced < 2*BatchSizeBytes {
		mustAdvance(t, l, 1)
		res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: value})
		if res.Partition != first.Partition {
			t.Fatalf("moved after %d bytes, before twice batch.size", produced)
		}
		produced += per
	}
	mustAdvance(t, l, 1)
	if res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: value}); !strings.HasPrefix(res.Reason(), "batch.size 16384 bytes reached on orders/") {
		t.Fatalf("after %d bytes: reason %q", produced, res.Reason())
	}
}

// Under rules 2, round-robin is the producer's choice and ignores keys, as
// Java's RoundRobinPartitioner does; the topic's partitioner config is
// refused; under rules 1 the producer's partitioner is refused.
func TestProducerPartitionerUnderEachRules(t *testing.T) {
	l := newTestLog(t, "orders", 3, nil)
	var got []int
	for range 4 {
		res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Key: "same", HasKey: true, Partitioner: PartitionerRoundRobin})
		got = append(got, res.Partition)
	}
	if got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != 0 {
		t.Errorf("round-robin with one key: %v, want 0 1 2 0", got)
	}
	if err := l.SetTopicConfig("orders", "partitioner", "sticky"); err == nil || !strings.Contains(err.Error(), "the partitioner is the producer's") {
		t.Errorf("topic partitioner under rules 2: %v", err)
	}
	old := newTestLogUnder(t, RulesV1, "orders", 3, nil)
	if _, err := old.Produce(ProduceRequest{Topic: "orders", Partition: -1, Partitioner: PartitionerRoundRobin}); err == nil || !strings.Contains(err.Error(), "comes with rules 2") {
		t.Errorf("producer partitioner under rules 1: %v", err)
	}
}

func itoa(n int) string { return string(rune('0' + n)) }
