package core

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// Each engine benchmark has a baseline here: the same work done by the
// simplest code that could do it on a plain slice or map, with none of the
// engine's checks, segments, events or history. BENCHMARKS.md sets each
// engine figure beside its baseline from the same run, as a ratio, so that
// figures from a busy machine still compare.

// baselineRecords returns n records of one partition, keyed in turn by keys,
// as filledLog stores them (timestamps left at zero).
func baselineRecords(n int, keys []string) []Record {
	records := make([]Record, n)
	for i := range records {
		records[i] = Record{Offset: int64(i), Key: keys[i%len(keys)], HasKey: true, Value: "created"}
	}
	return records
}

// BenchmarkBaselineAppendKeyed is the floor for BenchmarkProduceKeyed:
// appending the same keyed records (the same 1,024 keys in turn) to a
// preallocated slice. The slice's memory is touched before the clock
// starts, so the operating system's first-touch page faults, which vary with
// the machine's load, stay out of the floor, and a collection runs first, so
// that no write barrier is on during the loop. No engine whose storage grows
// as records arrive comes within 3x of it: the produce budget holds
// BenchmarkProduceKeyed to BenchmarkBaselineGrowingStoreKeyed instead, and
// this one stays in BENCHMARKS.md as information.
func BenchmarkBaselineAppendKeyed(b *testing.B) {
	keys := benchKeys(1024)
	records := make([]Record, b.N)
	clear(records)
	records = records[:0]
	runtime.GC()
	b.ReportAllocs()
	faults, sys, _ := kernelUse()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		records = append(records, Record{Offset: int64(i), Key: keys[i&1023], HasKey: true, Value: "created"})
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
	reportKernelUse(b, faults, sys)
}

// BenchmarkBaselineGrowingStoreKeyed is the floor the produce budget holds
// BenchmarkProduceKeyed to: the same keyed records (the same 1,024 keys in
// turn) appended to a store of the engine's shape, freshly allocated and
// grown under the clock, as the engine's log is. The store has 16
// partitions, taken in turn rather than hashed; each is a list of chunks of
// recordChunkSize pointer-free storedRecords, with their keys and values
// as bytes beside them (core/records.go); a partition's next chunk is
// allocated when its last one is full. That is all: no partitioner, checks,
// segments, events or acknowledgement, which are what stands between it
// and a produce (docs/performance.md).
func BenchmarkBaselineGrowingStoreKeyed(b *testing.B) {
	type chunk struct {
		records []storedRecord
		data    []byte
	}
	const partitions = 16
	keys := benchKeys(1024)
	const value = "created"
	runtime.GC() // the garbage of the benchmarks before is not this one's
	b.ReportAllocs()
	faults, sys, _ := kernelUse()
	b.ResetTimer()
	var store [partitions][]chunk
	for i := 0; i < b.N; i++ {
		key := keys[i&1023]
		chunks := store[i%partitions]
		n := len(chunks)
		if n == 0 || len(chunks[n-1].records) == recordChunkSize {
			size := len(key) + len(value)
			chunks = append(chunks, chunk{
				records: make([]storedRecord, 0, recordChunkSize),
				data:    make([]byte, 0, min(recordChunkSize*(size+size/4+2), maxChunkData)),
			})
			store[i%partitions] = chunks
			n++
		}
		c := &chunks[n-1]
		at := len(c.data)
		c.data = append(append(c.data, key...), value...)
		c.records = append(c.records, storedRecord{offset: uint32(len(c.records)), keyAt: uint32(at),
			keyLen: uint32(len(key)), valueAt: uint32(at + len(key)), valueLen: uint32(len(value)), hasKey: true})
	}
	b.StopTimer()
	runtime.KeepAlive(&store)
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
	reportKernelUse(b, faults, sys)
}

// BenchmarkBaselineConsume is the floor for BenchmarkConsume: copying 500
// records out of a slice of 1M.
func BenchmarkBaselineConsume(b *testing.B) {
	const n = 1 << 20
	records := baselineRecords(n, benchKeys(1024))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		offset := (i * 7919) % (n - 500)
		out := make([]Record, 500)
		copy(out, records[offset:])
		if out[499].Offset != int64(offset+499) {
			b.Fatal("wrong records")
		}
	}
}

// BenchmarkBaselinePoll is the floor for BenchmarkPoll: wrapping 500 records
// of a slice in deliveries.
func BenchmarkBaselinePoll(b *testing.B) {
	const n = 100_000
	records := baselineRecords(n, []string{"k"})
	offset := 0
	for b.Loop() {
		deliveries := make([]Delivery, 0, 500)
		for _, r := range records[offset : offset+500] {
			deliveries = append(deliveries, Delivery{Topic: "orders", Partition: 0, Record: r, Member: "c1", Generation: 1})
		}
		offset = (offset + 500) % n
		if len(deliveries) != 500 {
			b.Fatal("wrong deliveries")
		}
	}
}

// groupHolding100Partitions returns a log whose group g has one member, c1,
// holding the 100 partitions of orders (1,000 records each) with a
// position on every one of them.
func groupHolding100Partitions(b *testing.B) *PartitionedLog {
	b.Helper()
	l := NewPartitionedLog(1)
	if err := l.CreateTopic("orders", 100, map[string]string{"segment.records": "-1", "segment.bytes": "1GB"}); err != nil {
		b.Fatal(err)
	}
	for i := range 100_000 {
		mustProduce(b, l, ProduceRequest{Topic: "orders", Partition: i % 100, Value: "v"})
	}
	mustJoin(b, l, "g", "c1", StrategyRange)
	settle(b, l)
	// A partition that gave records moves to the back of the poll order,
	// so 100 small polls read a little of every partition.
	for range 100 {
		mustPoll(b, l, "g", "c1", 10)
	}
	l.DrainEvents()
	return l
}

// BenchmarkCommit commits the positions of a member holding 100
// partitions, as a consumer's commitSync after each poll does.
func BenchmarkCommit(b *testing.B) {
	l := groupHolding100Partitions(b)
	if err := l.Commit("g", "c1"); err != nil {
		b.Fatal(err)
	}
	if offsets, err := l.GroupOffsets("g"); err != nil || len(offsets) != 100 {
		b.Fatalf("%d committed offsets (%v), want 100", len(offsets), err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Commit("g", "c1"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBaselineCommit is the floor for BenchmarkCommit: writing 100
// positions into a map of committed offsets.
func BenchmarkBaselineCommit(b *testing.B) {
	type position struct {
		tp     TopicPartition
		offset int64
	}
	positions := make([]position, 100)
	committed := make(map[TopicPartition]int64, 100)
	for i := range positions {
		positions[i] = position{TopicPartition{Topic: "orders", Partition: i}, 10}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range positions {
			committed[p.tp] = p.offset
		}
	}
	if len(committed) != 100 {
		b.Fatal("wrong commits")
	}
}

// BenchmarkBaselineAssign is the floor for
// BenchmarkAssign1000PartitionsTo100Members: dealing 1,000 sorted
// partitions to 100 members in turn.
func BenchmarkBaselineAssign(b *testing.B) {
	var partitions []TopicPartition
	for _, t := range []struct {
		name  string
		count int
	}{{"audit", 200}, {"orders", 500}, {"payments", 300}} {
		for i := range t.count {
			partitions = append(partitions, TopicPartition{Topic: t.name, Partition: i})
		}
	}
	members := make([]string, 100)
	for i := range members {
		members[i] = fmt.Sprintf("c%03d", i+1)
	}
	b.ReportAllocs()
	for b.Loop() {
		out := make(Assignment, len(members))
		for i, tp := range partitions {
			m := members[i%len(members)]
			out[m] = append(out[m], tp)
		}
		if len(out) != 100 {
			b.Fatal("wrong assignment")
		}
	}
}

// retentionRecords is how many records the retention benchmarks hold.
const retentionRecords = 1_000_000

// BenchmarkRetention1M lets retention.ms delete about half of a partition
// of 1M records in segments of 1,000: the records were produced 1,000 per
// virtual second, and the clock then moves 25 minutes on, through the
// retention checks that delete the oldest segments.
func BenchmarkRetention1M(b *testing.B) {
	const limitMs, perSecond = 2_000_000, 1000
	template := NewPartitionedLog(1)
	configs := map[string]string{"retention.ms": fmt.Sprint(limitMs), "segment.records": "1000", "segment.bytes": "1GB"}
	if err := template.CreateTopic("orders", 1, configs); err != nil {
		b.Fatal(err)
	}
	keys := benchKeys(1024)
	for i := range retentionRecords {
		if i > 0 && i%perSecond == 0 {
			mustAdvance(b, template, 1000)
		}
		mustProduce(b, template, ProduceRequest{Topic: "orders", Partition: 0, Key: keys[i%len(keys)], HasKey: true, Value: "created"})
	}
	template.DrainEvents()
	// Now is 999 s. The clock moves to 2,499 s. Retention checks run every
	// log.retention.check.interval.ms (5m) after log.initial.task.delay.ms
	// (30s), Kafka's defaults since rules 3: the last, at 2,430 s, deletes
	// the segments whose newest record is more than 2,000 s old, those of
	// seconds 0 to 429.
	const wantLeft = retentionRecords - 430*perSecond
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		l := template.Clone()
		b.StartTimer()
		mustAdvance(b, l, 1_500_000)
		if got, _ := l.RecordCount("orders", 0); got != wantLeft {
			b.Fatalf("%d records left, want %d", got, wantLeft)
		}
	}
	b.ReportMetric(float64(retentionRecords)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkBaselineRetention1M is the floor for BenchmarkRetention1M:
// finding the first record young enough to keep in a slice of 1M and
// dropping those before it.
func BenchmarkBaselineRetention1M(b *testing.B) {
	const limitMs, now = 2_000_000, 2_430_000 // BenchmarkRetention1M's last check
	template := baselineRecords(retentionRecords, benchKeys(1024))
	for i := range template {
		template[i].Timestamp = int64(i/1000) * 1000
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		records := slices.Clone(template)
		b.StartTimer()
		keep := 0
		for keep < len(records) && now-records[keep].Timestamp > limitMs {
			keep++
		}
		clear(records[:keep])
		records = records[keep:]
		if len(records) != retentionRecords-430_000 {
			b.Fatalf("%d records left", len(records))
		}
	}
	b.ReportMetric(float64(retentionRecords)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkBaselineCompact1M is the floor for BenchmarkCompact1M: keeping
// the latest record of each of 10,000 keys out of 1M, with a map.
func BenchmarkBaselineCompact1M(b *testing.B) {
	const n = 1_000_000
	records := baselineRecords(n, benchKeys(10_000))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		latest := make(map[string]int, 10_000)
		for j, r := range records {
			latest[r.Key] = j
		}
		kept := make([]Record, 0, len(latest))
		for j, r := range records {
			if latest[r.Key] == j {
				kept = append(kept, r)
			}
		}
		if len(kept) != 10_000 {
			b.Fatalf("%d records kept", len(kept))
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkBaselineBytesPerRecord is the floor for BenchmarkBytesPerRecord:
// the heap that 1,048,576 records take in a preallocated slice. Their key
// and value strings are shared, not held per record, so no payload is
// taken off.
func BenchmarkBaselineBytesPerRecord(b *testing.B) {
	const n = 1 << 20
	keys := benchKeys(1024)
	reportHeapPerRecord(b, n, 0, func() any { return baselineRecords(n, keys) })
}
