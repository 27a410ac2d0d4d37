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
// a run of offsets, as Kafka's produce response reports a batch's base
// offset and count. A produce of ten thousand records is thus one event per
// partition, not ten thousand, which is most of the work a produce did
// besides storing the record. A run is kept small and without pointers
// (eventEntry), and DrainEvents turns it into an Event.
type eventLog struct {
	chunks []eventChunk // oldest first; events are added to the last
	head   int          // index in chunks[0] of the oldest event
	count  int
	first  int64       // the sequence number of the oldest event held
	spare  *eventChunk // an emptied chunk kept for reuse
	topics []string    // the topics of produced events, by eventEntry.topic

	// The runs a produce may still extend: those since the last event of
	// another kind, of one topic, by partition: the run's sequence number
	// plus one, 0 for none.
	openTopic int
	open      []int64
}

// eventChunk is a run of pending events.
type eventChunk struct {
	entries []eventEntry
	keys    []byte  // the keys of the runs' reasons
	others  []Event // the events other than produced ones, in order
}

// eventEntry is one pending event: a run of produced records in full, or,
// when other is not -1, the index in its chunk's others of another event.
type eventEntry struct {
	time       int64
	from, to   int64 // the run's offsets, to excluded
	partition  int32
	partitions int32  // the topic's partition count, for keyed reasons
	topic      uint32 // index in eventLog.topics
	other      int32
	reasons    [maxRunReasons]runReason
	nReasons   uint8
}

// runReason is a partitionReason whose key is bytes of the chunk's keys.
type runReason struct {
	keyAt, keyLen uint32
	how           reasonKind
}

func (el *eventLog) add(e Event) {
	el.open = el.open[:0] // another kind of event ends every run
	c := el.next()
	c.entries = append(c.entries, eventEntry{other: int32(len(c.others))})
	c.others = append(c.others, e)
}

// addProduced notes a record produced to topic's partition at offset, at
// time now, and why it went there: it extends the partition's open run if
// the record follows it, and starts a run otherwise.
func (el *eventLog) addProduced(now int64, topic string, partition int, offset int64, reason partitionReason) {
	t := el.topicIndex(topic)
	if t != el.openTopic {
		el.open, el.openTopic = el.open[:0], t
	}
	if partition < len(el.open) && el.open[partition] > el.first {
		c, e := el.entry(el.open[partition] - 1)
		if e.time == now && e.to == offset {
			e.to++
			c.addReason(e, reason)
			return
		}
	}
	c := el.next()
	c.entries = append(c.entries, eventEntry{
		time: now, from: offset, to: offset + 1,
		partition: int32(partition), partitions: reason.partitions, topic: uint32(t), other: -1,
	})
	c.addReason(&c.entries[len(c.entries)-1], reason)
	for len(el.open) <= partition {
		el.open = append(el.open, 0)
	}
	el.open[partition] = el.first + int64(el.count) // the new run's sequence number plus one
}

// addReason adds reason to the run e of chunk c, unless the run has it or
// has maxRunReasons already.
func (c *eventChunk) addReason(e *eventEntry, reason partitionReason) {
	if int(e.nReasons) == maxRunReasons {
		return
	}
	for _, r := range e.reasons[:e.nReasons] {
		if r.how == reason.how && string(c.keys[r.keyAt:r.keyAt+r.keyLen]) == reason.key {
			return
		}
	}
	e.reasons[e.nReasons] = runReason{keyAt: uint32(len(c.keys)), keyLen: uint32(len(reason.key)), how: reason.how}
	e.nReasons++
	c.keys = append(c.keys, reason.key...)
}

// entry returns the event with sequence number seq, which the log holds,
// and its chunk. Every chunk but the last is full.
func (el *eventLog) entry(seq int64) (*eventChunk, *eventEntry) {
	i := int(seq-el.first) + el.head
	c := &el.chunks[i/eventChunkSize]
	return c, &c.entries[i%eventChunkSize]
}

// topicIndex returns topic's index in el.topics, adding it if new. A log
// has a handful of topics and a run of produces goes to one, which is
// looked at first.
func (el *eventLog) topicIndex(topic string) int {
	if el.openTopic < len(el.topics) && el.topics[el.openTopic] == topic {
		return el.openTopic
	}
	for i, name := range el.topics {
		if name == topic {
			return i
		}
	}
	el.topics = append(el.topics, topic)
	return len(el.topics) - 1
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
	el.first++
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
	*el = eventLog{chunks: el.chunks[:0], spare: keep, topics: el.topics, open: el.open[:0]}
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
		// part of it: one allocation per chunk, not one per reason.
		keys := string(c.keys)
		for _, e := range entries {
			if e.other >= 0 {
				events = append(events, c.others[e.other])
				continue
			}
			reasons := make([]partitionReason, e.nReasons)
			for j, r := range e.reasons[:e.nReasons] {
				reasons[j] = partitionReason{key: keys[r.keyAt : r.keyAt+r.keyLen], partitions: e.partitions, how: r.how}
			}
			events = append(events, Event{
				Kind:      EventProduced,
				Time:      e.time,
				Topic:     el.topics[e.topic],
				Partition: int(e.partition),
				Offset:    e.from,
				From:      e.from,
				To:        e.to,
				Count:     int(e.to - e.from),
				reasons:   reasons,
			})
		}
	}
	return events
}

// clone returns a copy that shares no chunk: chunks are reused, so sharing
// one would let the copy see later events.
func (el *eventLog) clone() eventLog {
	c := eventLog{head: el.head, count: el.count, first: el.first,
		topics:    el.topics[:len(el.topics):len(el.topics)],
		openTopic: el.openTopic, open: append([]int64(nil), el.open...)}
	for _, chunk := range el.chunks {
		c.chunks = append(c.chunks, eventChunk{
			entries: append([]eventEntry(nil), chunk.entries...),
			keys:    append([]byte(nil), chunk.keys...),
			others:  append([]Event(nil), chunk.others...),
		})
	}
	return c
}
