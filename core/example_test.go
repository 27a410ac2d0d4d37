package core_test

import (
	"fmt"

	"plog/core"
)

func ExamplePartitionFor() {
	// Kafka's Java client sends a keyed record to
	// (murmur2(key) & 0x7fffffff) % partitions.
	fmt.Println(core.Murmur2([]byte("foobar")))
	fmt.Println(core.PartitionFor("foobar", 4))
	// Output:
	// -790332482
	// 2
}

func ExamplePartitionedLog_Produce() {
	l := core.NewPartitionedLog(42)
	if err := l.CreateTopic("orders", 4, nil); err != nil {
		panic(err)
	}
	for _, key := range []string{"acct-1", "acct-2", "acct-1"} {
		res, _ := l.Produce(core.ProduceRequest{Topic: "orders", Partition: -1, Key: key, HasKey: true, Value: "created"})
		fmt.Printf("%s/%d@%d %s\n", res.Topic, res.Partition, res.Offset, res.Reason())
	}
	res, _ := l.Produce(core.ProduceRequest{Topic: "orders", Partition: -1, Value: "no key"})
	fmt.Printf("%s/%d@%d %s\n", res.Topic, res.Partition, res.Offset, res.Reason())
	// Output:
	// orders/2@0 murmur2("acct-1") % 4 = 2
	// orders/3@0 murmur2("acct-2") % 4 = 3
	// orders/2@1 murmur2("acct-1") % 4 = 2
	// orders/1@0 built-in partitioner: keyless records stick to orders/1, chosen at random, until batch.size (16384 bytes) have gone there
}

func ExamplePartitionedLog_Truncate() {
	l := core.NewPartitionedLog(1)
	_ = l.CreateTopic("orders", 1, nil)
	for range 5 {
		_, _ = l.Produce(core.ProduceRequest{Topic: "orders", Partition: 0, Value: "v"})
	}
	_ = l.Truncate("orders", 0, 3) // Kafka's DeleteRecords
	start, _ := l.LogStartOffset("orders", 0)
	hw, _ := l.HighWatermark("orders", 0)
	records, _ := l.Consume("orders", 0, start, 10)
	fmt.Println(start, hw, len(records), records[0].Offset)
	_, err := l.Consume("orders", 0, 1, 10)
	fmt.Println(err)
	// Output:
	// 3 5 2 3
	// orders/0: offset 1 is out of range: the partition holds offsets 3 up to the high watermark 5 (OFFSET_OUT_OF_RANGE)
}
