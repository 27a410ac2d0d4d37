package core

// maxPendingEvents bounds the events kept between two DrainEvents calls, so
// that producing millions of records does not also keep millions of events.
const maxPendingEvents = 1 << 16

// eventChunkSize is the most events one chunk of an eventLog holds.
const eventChunkSize = 256

// eventLog holds the events pending for DrainEvents, oldest first, in
// chunks: appending never copies the events already held, and once
// maxPendingEvents are held each new event pushes out the oldest, the chunk
// emptied that way being reused for the newest. A produce of a million
// records thus appends its events without copying or allocating once the
// log is full.
type eventLog struct {
	chunks [][]Event // oldest first; events are added to the last
	head   int       // index in chunks[0] of the oldest event
	count  int
	spare  []Event // an emptied chunk kept for reuse
}

func (el *eventLog) add(e Event) {
	*el.next() = e
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
	*el = eventLog{chunks: chunks[:0], spare: el.spare}
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
// one would let the copy see later events.
func (el *eventLog) clone() eventLog {
	if el.count == 0 {
		return eventLog{}
	}
	return eventLog{chunks: [][]Event{el.flatten()}, count: el.count}
}

// putProduced writes a produced event into e, a slot from next, field by
// field (see recordLog.append: a whole-Event copy goes through the bulk
// write barrier while the GC marks). It sets every field, since the slot
// may hold an older event; TestPutProducedSetsEveryField keeps it in step
// with Event.
func putProduced(e *Event, now int64, topic string, partition int, offset int64, reason partitionReason) {
	e.Kind, e.Time, e.Topic, e.Partition, e.Offset = EventProduced, now, topic, partition, offset
	e.From, e.To, e.Count, e.Generation, e.Broker = 0, 0, 0, 0, 0
	// Texts a produced event leaves empty are cleared only if set: the
	// slot most often held another produced event, and a write, even of
	// "", pays the write barrier.
	if e.Group != "" {
		e.Group = ""
	}
	if e.Member != "" {
		e.Member = ""
	}
	if e.Detail != "" {
		e.Detail = ""
	}
	e.reason = reason
}
