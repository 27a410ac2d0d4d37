package core

import (
	"slices"
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// With idempotence on, no pattern of lost requests and lost answers makes
// a duplicate or changes the order: the partition holds each value written
// once, in the order sent (ProducerStateManager's duplicate check and
// OUT_OF_ORDER_SEQUENCE_NUMBER, core/producer_send.go).
func TestIdempotenceNeverDuplicatesNorReorders(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := NewPartitionedLog(1)
		if err := l.CreateTopic("orders", 1, nil); err != nil {
			t.Fatal(err)
		}
		inFlight := rapid.IntRange(1, 5).Draw(t, "in-flight")
		if err := l.NewProducer("p", map[string]string{"max.in.flight.requests.per.connection": strconv.Itoa(inFlight)}); err != nil {
			t.Fatal(err)
		}
		n := rapid.IntRange(1, 12).Draw(t, "records")
		for i := range rapid.IntRange(0, 6).Draw(t, "faults") {
			kind := rapid.SampledFrom([]WireFault{LoseRequest, LoseResponse}).Draw(t, "kind"+strconv.Itoa(i))
			after := rapid.Int64Range(0, 15).Draw(t, "after"+strconv.Itoa(i))
			if err := l.AddWireFault("p", kind, after, 1); err != nil {
				t.Fatal(err)
			}
		}
		var values []string
		for i := range n {
			values = append(values, "v"+strconv.Itoa(i))
		}
		outcomes, err := l.ProduceAs("p", ProduceRequest{Topic: "orders", Partition: -1}, values, 1)
		if err != nil {
			t.Fatal(err)
		}
		// A record whose lost requests outlast delivery.timeout.ms (each
		// costs request.timeout.ms) fails, as in Kafka; the others are in
		// the log once each, in the order sent.
		var written []string
		for i, o := range outcomes {
			if o.Err == "" {
				written = append(written, values[i])
			} else if o.Offset != -1 {
				t.Fatalf("record %d failed (%s) and has offset %d", i, o.Err, o.Offset)
			}
			if len(o.Duplicates) > 0 {
				t.Fatalf("record %d: %+v", i, o)
			}
		}
		records, _ := l.Records("orders", 0)
		var got []string
		for j, r := range records {
			got = append(got, r.Value)
			if r.Offset != int64(j) {
				t.Fatalf("the log's record %d is at offset %d", j, r.Offset)
			}
		}
		if !slices.Equal(got, written) {
			t.Fatalf("the log holds %v, sent %v of which %v were written", got, values, written)
		}
	})
}
