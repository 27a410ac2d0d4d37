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
//
// Nearly every event is a produced one, one per record, so those are kept
// small and without pointers (eventEntry); DrainEvents turns them into
// Events. A full Event is 160 bytes with five strings, and writing one per
// record cost a produce about a fifth of its time, natively and more in
// wasm, where the collector then had ten megabytes of them to scan.
type eventLog struct {
	chunks []eventChunk // oldest first; events are added to the last
	head   int          // index in chunks[0] of the oldest event
	count  int
	spare  *eventChunk // an emptied chunk kept for reuse
	topics []string    // the topics of produced events, by eventEntry.topic
}

// eventChunk is a run of pending events.
type eventChunk struct {
	entries []eventEntry
	keys    []byte  // the keys of the produced events' reasons
	others  []Event // the events other than produced ones, in order
}

// eventEntry is one pending event: a produced one in full, or, when other
// is set, the index in its chunk's others of any other event.
type eventEntry struct {
	time, offset  int64
	partition     int32
	partitions    int32  // of the reason of a keyed record
	topic         uint32 // index in eventLog.topics
	keyAt, keyLen uint32 // the reason's key in the chunk's keys; keyAt is the index in others when other
	how           reasonKind
	other         bool
}

func (el *eventLog) add(e Event) {
	c := el.next()
	c.entries = append(c.entries, eventEntry{keyAt: uint32(len(c.others)), other: true})
	c.others = append(c.others, e)
}

// addProduced adds the event of a record produced to topic's partition at
// offset, at time now, and why it went there.
func (el *eventLog) addProduced(now int64, topic string, partition int, offset int64, reason partitionReason) {
	c := el.next()
	at := len(c.keys)
	c.keys = append(c.keys, reason.key...)
	c.entries = append(c.entries, eventEntry{
		time:       now,
		offset:     offset,
		partition:  int32(partition),
		partitions: reason.partitions,
		topic:      el.topicIndex(topic),
		keyAt:      uint32(at),
		keyLen:     uint32(len(reason.key)),
		how:        reason.how,
	})
}

// topicIndex returns topic's index in el.topics, adding it if new. A log
// has a handful of topics and a run of produces goes to one, which is
// looked at first.
func (el *eventLog) topicIndex(topic string) uint32 {
	for i := len(el.topics) - 1; i >= 0; i-- {
		if el.topics[i] == topic {
			return uint32(i)
		}
	}
	el.topics = append(el.topics, topic)
	return uint32(len(el.topics) - 1)
}

// next makes room for one more event and returns the chunk it goes in,
// where the caller appends one entry.
func (el *eventLog) next() *eventChunk {
	if el.count == maxPendingEvents {
		el.dropOldest()
	}
	n := len(el.chunks)
	if n == 0 || len(el.chunks[n-1].entries) == eventChunkSize {
		el.chunks = append(el.chunks, el.newChunk())
		n++
	}
	el.count++
	return &el.chunks[n-1]
}

// newChunk returns an empty chunk, the spare one if there is one.
func (el *eventLog) newChunk() eventChunk {
	if c := el.spare; c != nil {
		el.spare = nil
		return *c
	}
	return eventChunk{}
}

func (el *eventLog) dropOldest() {
	el.head++
	el.count--
	if first := el.chunks[0]; el.head == len(first.entries) {
		clear(first.others) // let the texts they hold go
		el.spare = &eventChunk{entries: first.entries[:0], keys: first.keys[:0], others: first.others[:0]}
		el.chunks[0] = eventChunk{}
		el.chunks = el.chunks[1:]
		el.head = 0
	}
}

// drain returns the events, oldest first, and forgets them.
func (el *eventLog) drain() []Event {
	var events []Event
	if el.count > 0 {
		events = el.flatten()
	}
	// The first chunk is kept for the next events, so that a command's
	// few events allocate nothing but what they return.
	var keep *eventChunk
	if len(el.chunks) > 0 {
		c := el.chunks[0]
		clear(c.others)
		keep = &eventChunk{entries: c.entries[:0], keys: c.keys[:0], others: c.others[:0]}
	}
	clear(el.chunks)
	*el = eventLog{chunks: el.chunks[:0], spare: keep, topics: el.topics}
	return events
}

// flatten returns the events as Events, oldest first.
func (el *eventLog) flatten() []Event {
	events := make([]Event, 0, el.count)
	for i := range el.chunks {
		c := &el.chunks[i]
		entries := c.entries
		if i == 0 {
			entries = entries[el.head:]
		}
		// One string holds the chunk's keys, and each reason's key is a
		// part of it: one allocation per chunk, not one per event.
		keys := string(c.keys)
		for _, e := range entries {
			if e.other {
				events = append(events, c.others[e.keyAt])
				continue
			}
			events = append(events, Event{
				Kind:      EventProduced,
				Time:      e.time,
				Topic:     el.topics[e.topic],
				Partition: int(e.partition),
				Offset:    e.offset,
				reason:    partitionReason{key: keys[e.keyAt : e.keyAt+e.keyLen], partitions: e.partitions, how: e.how},
			})
		}
	}
	return events
}

// clone returns a copy that shares no chunk: chunks are reused, so sharing
// one would let the copy see later events.
func (el *eventLog) clone() eventLog {
	c := eventLog{head: el.head, count: el.count, topics: el.topics[:len(el.topics):len(el.topics)]}
	for _, chunk := range el.chunks {
		c.chunks = append(c.chunks, eventChunk{
			entries: append([]eventEntry(nil), chunk.entries...),
			keys:    append([]byte(nil), chunk.keys...),
			others:  append([]Event(nil), chunk.others...),
		})
	}
	return c
}
