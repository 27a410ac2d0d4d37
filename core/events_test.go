package core

import (
	"reflect"
	"testing"
)

// TestEventLogKeepsTheLatest adds runs of events of many lengths around
// the chunk and ring sizes, clones half way through each run and adds more
// to both, and checks that each drains exactly its latest
// maxPendingEvents events in order.
func TestEventLogKeepsTheLatest(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, eventChunkSize - 1, eventChunkSize, eventChunkSize + 1,
		maxPendingEvents - 1, maxPendingEvents, maxPendingEvents + 1, maxPendingEvents + eventChunkSize, 3*maxPendingEvents + 5} {
		var el eventLog
		for i := range n / 2 {
			el.add(Event{Offset: int64(i)})
		}
		clone := el.clone()
		for i := n / 2; i < n; i++ {
			el.add(Event{Offset: int64(i)})
			clone.add(Event{Offset: -int64(i)})
		}
		checkDrained(t, n, el.drain(), 1)
		checkDrained(t, n, clone.drain(), -1)
		if more := el.drain(); more != nil {
			t.Fatalf("second drain gave %d events", len(more))
		}
	}
}

// checkDrained checks that events are the latest of n events numbered
// 0..n-1, the second half of them multiplied by sign.
func checkDrained(t *testing.T, n int, events []Event, sign int64) {
	t.Helper()
	want := min(n, maxPendingEvents)
	if len(events) != want {
		t.Fatalf("%d events: drained %d, want %d", n, len(events), want)
	}
	for j, e := range events {
		i := int64(n - want + j)
		if i >= int64(n/2) {
			i *= sign
		}
		if e.Offset != i {
			t.Fatalf("%d events: event %d has offset %d, want %d", n, j, e.Offset, i)
		}
	}
}

// TestPutProducedSetsEveryField fills an event's every field, then writes a
// produced event over it: nothing of the older event may show through.
func TestPutProducedSetsEveryField(t *testing.T) {
	if n := reflect.TypeFor[Event]().NumField(); n != 14 {
		t.Fatalf("Event has %d fields, putProduced knows of 14: update it and this test", n)
	}
	var e Event
	v := reflect.ValueOf(&e).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); {
		case !f.CanSet():
			e.reason = partitionReason{key: "old", partitions: 9, how: reasonSticky}
		case f.Kind() == reflect.String:
			f.SetString("old")
		default:
			f.SetInt(7)
		}
	}
	reason := partitionReason{key: "k", partitions: 4, how: reasonKeyed}
	putProduced(&e, 5, "orders", 2, 3, reason)
	want := Event{Kind: EventProduced, Time: 5, Topic: "orders", Partition: 2, Offset: 3, reason: reason}
	if e != want {
		t.Fatalf("got %+v, want %+v", e, want)
	}
}
