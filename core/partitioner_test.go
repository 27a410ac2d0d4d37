package core

import (
	"strconv"
	"strings"
	"testing"
)

// Kafka's own vectors, from the Java client's UtilsTest.testMurmur2.
func TestMurmur2KafkaVectors(t *testing.T) {
	vectors := []struct {
		key  string
		want int32
	}{
		{"21", -973932308},
		{"foobar", -790332482},
		{"a-little-bit-long-string", -985981536},
		{"a-little-bit-longer-string", -1486304829},
		{"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971},
		{"abc", 479470107},
	}
	for _, v := range vectors {
		if got := Murmur2([]byte(v.key)); got != v.want {
			t.Errorf("Murmur2(%q) = %d, want %d", v.key, got, v.want)
		}
		if got := murmur2(v.key); got != v.want {
			t.Errorf("murmur2 of the string %q = %d, want %d", v.key, got, v.want)
		}
	}
}

func TestPartitionForIsPositiveModulo(t *testing.T) {
	for _, key := range []string{"", "21", "foobar", "abc", "acct-1", strings.Repeat("x", 1000)} {
		for n := 1; n <= 50; n++ {
			want := int(Murmur2([]byte(key))&0x7fffffff) % n
			if got := PartitionFor(key, n); got != want {
				t.Fatalf("PartitionFor(%q, %d) = %d, want %d", key, n, got, want)
			}
		}
	}
	if got := PartitionFor("k", 0); got != 0 {
		t.Errorf("PartitionFor with 0 partitions = %d, want 0", got)
	}
}

func TestKeyMapsToSamePartition(t *testing.T) {
	l := newTestLog(t, "orders", 6, nil)
	for _, key := range []string{"acct-1", "acct-2", "", "ü-ß"} {
		first := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Key: key, HasKey: true, Value: "v"})
		if first.Partition != PartitionFor(key, 6) {
			t.Fatalf("key %q went to %d, PartitionFor says %d", key, first.Partition, PartitionFor(key, 6))
		}
		for range 5 {
			again := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Key: key, HasKey: true, Value: "v"})
			if again.Partition != first.Partition {
				t.Fatalf("key %q went to %d then %d", key, first.Partition, again.Partition)
			}
		}
	}
	res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Key: "acct-1", HasKey: true})
	if want := `murmur2("acct-1") % 6 = ` + string(rune('0'+PartitionFor("acct-1", 6))); res.Reason() != want {
		t.Errorf("reason %q, want %q", res.Reason(), want)
	}
}

func TestExplicitPartitionWins(t *testing.T) {
	l := newTestLogUnder(t, RulesV1, "orders", 4, map[string]string{"partitioner": "sticky"})
	other := (PartitionFor("acct-1", 4) + 1) % 4
	res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: other, Key: "acct-1", HasKey: true})
	if res.Partition != other || res.Reason() != "explicit" {
		t.Fatalf("explicit partition %d: got %+v", other, res)
	}
	res = mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: 3})
	if res.Partition != 3 || res.Reason() != "explicit" {
		t.Fatalf("explicit keyless partition 3: got %+v", res)
	}
}

func TestKeylessRoundRobin(t *testing.T) {
	l := newTestLogUnder(t, RulesV1, "orders", 3, nil)
	var got []int
	for range 7 {
		res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: "v"})
		if res.Reason() != "round-robin" {
			t.Fatalf("reason %q", res.Reason())
		}
		got = append(got, res.Partition)
	}
	want := []int{0, 1, 2, 0, 1, 2, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("round-robin partitions %v, want %v", got, want)
		}
	}
}

func TestKeylessSticky(t *testing.T) {
	l := newTestLogUnder(t, RulesV1, "orders", 4, map[string]string{"partitioner": "sticky"})
	var got []int
	for range 4 * StickyBatchRecords {
		res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1, Value: "v"})
		if res.Reason() != "sticky" {
			t.Fatalf("reason %q", res.Reason())
		}
		got = append(got, res.Partition)
	}
	for batch := range 4 {
		first := got[batch*StickyBatchRecords]
		for i := range StickyBatchRecords {
			if got[batch*StickyBatchRecords+i] != first {
				t.Fatalf("batch %d is not on one partition: %v", batch, got)
			}
		}
		if batch > 0 && got[(batch-1)*StickyBatchRecords] == first {
			t.Fatalf("batch %d stayed on partition %d: %v", batch, first, got)
		}
	}
	// The same seed makes the same choices.
	again := newTestLogUnder(t, RulesV1, "orders", 4, map[string]string{"partitioner": "sticky"})
	for i := range got {
		res := mustProduce(t, again, ProduceRequest{Topic: "orders", Partition: -1, Value: "v"})
		if res.Partition != got[i] {
			t.Fatalf("same seed, record %d: partition %d then %d", i, got[i], res.Partition)
		}
	}
}

func TestSingleStickyPartition(t *testing.T) {
	l := newTestLogUnder(t, RulesV1, "orders", 1, map[string]string{"partitioner": "sticky"})
	for range 3 * StickyBatchRecords {
		if res := mustProduce(t, l, ProduceRequest{Topic: "orders", Partition: -1}); res.Partition != 0 {
			t.Fatalf("one partition, got %d", res.Partition)
		}
	}
}

func TestAppendQuotedIsStrconvQuote(t *testing.T) {
	for _, key := range []string{"", "acct-1", `a"b`, `a\b`, "tab\there", "ü", "\x00\xff", "~ !"} {
		if got, want := string(appendQuoted(nil, key)), strconv.Quote(key); got != want {
			t.Errorf("appendQuoted(%q) = %s, want %s", key, got, want)
		}
	}
}
