package core

// maxPendingEvents bounds the events kept between two DrainEvents calls, so
// that producing millions of records does not also keep millions of events.
const maxPendingEvents = 1 << 16

// eventChunkSize is the most events one chunk of an eventLog holds.
const eventChunkSize = 256

// maxRunReasons is how many distinct reasons a run of produced records
// keeps: enough to say how the partitioner chose, not every key.
const maxRunReasons = 3

// eventLog holds the events pending for DrainEvents, oldest first, in
// chunks: appending never copies the events already held, and once
// maxPendingEvents are held each new event pushes out the oldest, the chunk
// emptied that way being reused for the newest.
//
// Records produced one after another to a partition, with no event of
// another kind between them and at one instant, make one produced event:
// a run of offsets, as Kafka's produce response reports a batch by its base
// offset and count. A produce of ten thousand records is thus one event per
// partition, not ten thousand: writing an event per record had been a fifth
// of a produce's time natively and a quarter in wasm.
type eventLog struct {
	chunks [][]Event // oldest first; events are added to the last
	head   int       // index in chunks[0] of the oldest event
	count  int
	first  int64   // the sequence number of the oldest event held
	spare  []Event // an emptied chunk kept for reuse

	// The runs a produce may still extend: those since the last event of
	// another kind, of openTopic, by partition: the run's sequence number
	// plus one, 0 for none.
	openTopic string
	open      []int64
}

func (el *eventLog) add(e Event) {
	el.open = el.open[:0] // another kind of event ends every run
	*el.next() = e
}

// addProduced notes a record produced to topic's partition at offset, at
// time now, and why it went there: it extends the partition's open run if
// the record follows it, and starts a run otherwise.
func (el *eventLog) addProduced(now int64, topic string, partition int, offset int64, reason partitionReason) {
	if topic != el.openTopic {
		el.open, el.openTopic = el.open[:0], topic
	}
	if partition < len(el.open) && el.open[partition] > el.first {
		run := el.fromEnd(int(el.first + int64(el.count) - el.open[partition]))
		if run.Time == now && run.To == offset {
			run.To++
			run.Count++
			run.addReason(reason)
			return
		}
	}
	*el.next() = Event{Kind: EventProduced, Time: now, Topic: topic, Partition: partition,
		Offset: offset, From: offset, To: offset + 1, Count: 1, reasons: []partitionReason{reason}}
	for len(el.open) <= partition {
		el.open = append(el.open, 0)
	}
	el.open[partition] = el.first + int64(el.count) // the new run's sequence number plus one
}

// addReason adds reason to a run's, unless the run has it or has
// maxRunReasons already.
func (e *Event) addReason(reason partitionReason) {
	if len(e.reasons) == maxRunReasons {
		return
	}
	for _, r := range e.reasons {
		if r == reason {
			return
		}
	}
	e.reasons = append(e.reasons, reason)
}

// fromEnd returns the event d events before the newest, which the log
// holds.
func (el *eventLog) fromEnd(d int) *Event {
	for c := len(el.chunks) - 1; ; c-- {
		chunk := el.chunks[c]
		if c == 0 {
			chunk = chunk[el.head:]
		}
		if d < len(chunk) {
			return &chunk[len(chunk)-1-d]
		}
		d -= len(chunk)
	}
}

// next makes room for one more event and returns where it goes. The slot
// may hold an older event: the caller sets every field.
func (el *eventLog) next() *Event {
	if el.count == maxPendingEvents {
		el.dropOldest()
	}
	n := len(el.chunks)
	if n == 0 || len(el.chunks[n-1]) == cap(el.chunks[n-1]) {
		if n == 1 && el.head == 0 && cap(el.chunks[0]) < eventChunkSize {
			// The first chunk grows by doubling, so that a command's few
			// events take little room.
			grown := make([]Event, len(el.chunks[0]), 2*cap(el.chunks[0]))
			copy(grown, el.chunks[0])
			el.chunks[0] = grown
		} else {
			el.chunks = append(el.chunks, el.newChunk(n))
			n++
		}
	}
	last := el.chunks[n-1]
	last = last[:len(last)+1]
	el.chunks[n-1] = last
	el.count++
	return &last[len(last)-1]
}

// newChunk returns an empty chunk to follow n chunks.
func (el *eventLog) newChunk(n int) []Event {
	if el.spare != nil {
		c := el.spare
		el.spare = nil
		return c
	}
	if n == 0 {
		return make([]Event, 0, 1)
	}
	return make([]Event, 0, eventChunkSize)
}

func (el *eventLog) dropOldest() {
	el.head++
	el.count--
	el.first++
	if el.head == len(el.chunks[0]) {
		el.spare = el.chunks[0][:0]
		el.chunks[0] = nil
		el.chunks = el.chunks[1:]
		el.head = 0
	}
}

// drain returns the events, oldest first, and forgets them.
func (el *eventLog) drain() []Event {
	var events []Event
	if len(el.chunks) == 1 && el.head == 0 {
		events = el.chunks[0] // the common case: no copy
	} else if el.count > 0 {
		events = el.flatten()
	}
	// The list of chunks is kept for the next events, so that a command's
	// few events cost one allocation, not two.
	chunks := el.chunks
	clear(chunks)
	*el = eventLog{chunks: chunks[:0], spare: el.spare, open: el.open[:0]}
	return events
}

// flatten returns a copy of the events in one slice.
func (el *eventLog) flatten() []Event {
	events := make([]Event, 0, el.count)
	for i, c := range el.chunks {
		if i == 0 {
			c = c[el.head:]
		}
		events = append(events, c...)
	}
	return events
}

// clone returns a copy that shares no chunk: chunks are reused, so sharing
// one would let the copy see later events. The runs' reasons are copied
// too, since a run may still gain one.
func (el *eventLog) clone() eventLog {
	if el.count == 0 {
		return eventLog{}
	}
	events := el.flatten()
	for i := range events {
		events[i].reasons = append([]partitionReason(nil), events[i].reasons...)
	}
	return eventLog{chunks: [][]Event{events}, count: el.count, first: el.first,
		openTopic: el.openTopic, open: append([]int64(nil), el.open...)}
}
