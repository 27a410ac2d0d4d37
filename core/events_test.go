package core

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestEventLogKeepsTheLatest adds runs of events of many lengths around
// the chunk and ring sizes, clones half way through each run and adds more
// to both, and checks that each drains exactly its latest
// maxPendingEvents events in order.
func TestEventLogKeepsTheLatest(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, eventChunkSize - 1, eventChunkSize, eventChunkSize + 1,
		maxPendingEvents - 1, maxPendingEvents, maxPendingEvents + 1, maxPendingEvents + eventChunkSize, 3*maxPendingEvents + 5} {
		t.Run(fmt.Sprint(n, " events"), func(t *testing.T) {
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
		})
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

// TestEventLogKeepsProducedEventsWhole adds produced events, with keys of
// many lengths and several topics, between other events, through the chunk
// and ring sizes and a clone, and checks that each drains exactly the
// events added, in order: a produced event comes back as the Event it
// stands for, and a reused chunk shows nothing of the events it held.
func TestEventLogKeepsProducedEventsWhole(t *testing.T) {
	topics := []string{"orders", "payments", "audit"}
	event := func(i int) Event {
		if i%5 == 4 {
			return Event{Kind: EventCommitted, Time: int64(i), Topic: topics[i%3], Partition: i % 7, Offset: int64(i),
				From: 1, To: 2, Count: 3, Group: "g", Member: "c1", Generation: 4, Detail: "d", Broker: 5}
		}
		reason := partitionReason{how: reasonRoundRobin}
		if i%2 == 0 {
			reason = partitionReason{key: strings.Repeat("k", i%11), partitions: int32(i%9 + 1), how: reasonKeyed}
		}
		// Each at its own time: no two make a run.
		return Event{Kind: EventProduced, Time: int64(i), Topic: topics[i%3], Partition: i % 7, Offset: int64(i),
			From: int64(i), To: int64(i) + 1, Count: 1, reasons: []partitionReason{reason}}
	}
	add := func(el *eventLog, e Event) {
		if e.Kind == EventProduced {
			el.addProduced(e.Time, e.Topic, e.Partition, e.Offset, e.reasons[0])
		} else {
			el.add(e)
		}
	}
	for _, n := range []int{1, eventChunkSize + 3, maxPendingEvents + 2*eventChunkSize + 1} {
		t.Run(fmt.Sprint(n, " records"), func(t *testing.T) {
			var el eventLog
			var want []Event
			for round := range 2 { // the second round reuses the first's chunks
				for i := range n {
					e := event(i + round)
					add(&el, e)
					want = append(want, e)
				}
				clone := el.clone()
				want = want[max(0, len(want)-maxPendingEvents):]
				for name, got := range map[string][]Event{"log": el.drain(), "clone": clone.drain()} {
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%d events, round %d: the %s drained %d events, not the %d added", n, round, name, len(got), len(want))
					}
				}
				want = nil
			}
		})
	}
}

// TestProducedRecordsMakeRuns produces records to interleaved partitions
// and checks the runs drained against a model: a record joins its
// partition's run when it follows it at the same instant with no other
// event between, and a run keeps its first three distinct reasons.
func TestProducedRecordsMakeRuns(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var el eventLog
		var want []Event
		open := map[string]int{} // topic/partition: index in want of its open run
		next := map[string]int64{}
		now := int64(0)
		for range rapid.IntRange(1, 300).Draw(t, "steps") {
			switch rapid.IntRange(0, 9).Draw(t, "op") {
			case 0: // another kind of event ends every run
				e := Event{Kind: EventCommitted, Time: now, Group: "g"}
				el.add(e)
				want = append(want, e)
				clear(open)
			case 1: // the clock moves: runs do not span it
				now++
			default:
				topic := rapid.SampledFrom([]string{"orders", "audit"}).Draw(t, "topic")
				partition := rapid.IntRange(0, 3).Draw(t, "partition")
				reason := partitionReason{key: rapid.SampledFrom([]string{"a", "b", "c", "d", ""}).Draw(t, "key"), partitions: 4, how: reasonKeyed}
				k := fmt.Sprint(topic, "/", partition)
				if rapid.Bool().Draw(t, "gap") {
					next[k] += 2 // a record from elsewhere, as after a truncation
				}
				offset := next[k]
				next[k]++
				el.addProduced(now, topic, partition, offset, reason)
				if i, ok := open[k]; ok && want[i].Time == now && want[i].To == offset {
					r := &want[i]
					r.To++
					r.Count++
					if len(r.reasons) < maxRunReasons && !slices.Contains(r.reasons, reason) {
						r.reasons = append(r.reasons, reason)
					}
					continue
				}
				if len(open) > 0 {
					for key := range open {
						if !strings.HasPrefix(key, topic+"/") {
							clear(open) // runs are kept open for one topic at a time
							break
						}
					}
				}
				open[k] = len(want)
				want = append(want, Event{Kind: EventProduced, Time: now, Topic: topic, Partition: partition,
					Offset: offset, From: offset, To: offset + 1, Count: 1, reasons: []partitionReason{reason}})
			}
		}
		if got := el.drain(); !reflect.DeepEqual(got, want) {
			t.Fatalf("drained\n%v\nwant\n%v", got, want)
		}
	})
}
