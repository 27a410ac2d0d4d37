package core

import (
	"runtime"
	"strconv"
	"testing"
)

func benchKeys(n int) []string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = "acct-" + strconv.Itoa(i)
	}
	return keys
}

// BenchmarkProduceKeyed produces keyed records through the partitioner into
// a 16-partition topic with Kafka-sized segments.
func BenchmarkProduceKeyed(b *testing.B) {
	l := newTestLog(b, "orders", 16, map[string]string{"segment.records": "-1", "segment.bytes": "1GB", "retention.ms": "-1"})
	keys := benchKeys(1024)
	b.ReportAllocs()
	faults, sys, _ := kernelUse()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := l.Produce(ProduceRequest{Topic: "orders", Partition: -1, Key: keys[i&1023], HasKey: true, Value: "created"}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "records/s")
	reportKernelUse(b, faults, sys)
}

func filledLog(b *testing.B, records int, configs map[string]string, keys []string) *PartitionedLog {
	b.Helper()
	l := newTestLog(b, "orders", 1, configs)
	for i := range records {
		if _, err := l.Produce(ProduceRequest{Topic: "orders", Partition: 0, Key: keys[i%len(keys)], HasKey: true, Value: "created"}); err != nil {
			b.Fatal(err)
		}
	}
	l.DrainEvents()
	return l
}

// BenchmarkConsume reads 500 records at a time from a partition of 1M.
func BenchmarkConsume(b *testing.B) {
	const n = 1 << 20
	l := filledLog(b, n, map[string]string{"retention.ms": "-1"}, benchKeys(1024))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		offset := int64(i*7919) % (n - 500)
		records, err := l.Consume("orders", 0, offset, 500)
		if err != nil || len(records) != 500 {
			b.Fatal(err, len(records))
		}
	}
}

// BenchmarkTruncate moves the log start of a 1M-record partition (segments
// of 10 records) up by 100 records per call.
func BenchmarkTruncate(b *testing.B) {
	const n = 1 << 20
	template := filledLog(b, n, map[string]string{"retention.ms": "-1"}, benchKeys(1024))
	l := template.Clone()
	before := int64(0)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		before += 100
		if before > n {
			b.StopTimer()
			l, before = template.Clone(), 100
			b.StartTimer()
		}
		if err := l.Truncate("orders", 0, before); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompact1M cleans a partition of 1M records over 10,000 keys in
// segments of 1,000 records.
func BenchmarkCompact1M(b *testing.B) {
	const n = 1_000_000
	template := filledLog(b, n, map[string]string{"cleanup.policy": "compact", "segment.records": "1000", "segment.bytes": "1GB"}, benchKeys(10_000))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		l := template.Clone()
		b.StartTimer()
		if err := l.Compact("orders"); err != nil {
			b.Fatal(err)
		}
		if got, _ := l.RecordCount("orders", 0); got != 10_000+1000 {
			b.Fatalf("%d records left", got)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkBytesPerRecord reports the heap the engine holds per record
// beyond the key and value, with the playground's default segments of 10
// records. The engine keeps its own copy of each record's key and value
// bytes, so those are taken off: they are the records' payload, not the
// engine's cost.
func BenchmarkBytesPerRecord(b *testing.B) {
	const n = 1 << 20
	keys := benchKeys(1024)
	payload := 0
	for i := range n {
		payload += len(keys[i%len(keys)]) + len("created")
	}
	reportHeapPerRecord(b, n, payload, func() any {
		return filledLog(b, n, map[string]string{"retention.ms": "-1"}, keys)
	})
}

// reportHeapPerRecord reports the heap that what build makes holds, per
// record of n, less the payload bytes of keys and values it holds in all,
// measured between two collections.
func reportHeapPerRecord(b *testing.B, n, payload int, build func() any) {
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		held := build()
		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric((float64(after.HeapAlloc-before.HeapAlloc)-float64(payload))/float64(n), "bytes/record")
		runtime.KeepAlive(held)
	}
}
