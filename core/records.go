package core

import (
	"iter"
	"math"
	"slices"
	"unsafe"
)

// recordChunkSize is the most records one chunk of a partition's log holds.
const recordChunkSize = 1024

// recordLog holds a partition's records in offset order, in chunks of at
// most recordChunkSize records. Appending never moves the records already
// held (a single growing slice would copy each record several times as it
// grows), memory stays within one chunk of the records held, and a clone
// shares the chunks instead of copying them, which keeps checkpoints cheap.
//
// A chunk holds its records as storedRecords, which have no pointers, and
// their keys and values as bytes, one after another, in the chunk's data.
// A log may hold millions of records: with no pointer among them, the
// garbage collector never scans them and appending one pays no write
// barrier, which more than halves the cost of a produce.
//
// Sharing is safe because no chunk is ever written below its length: a
// chunk's records and bytes may be seen by clones, and the keys and values
// handed out as strings point into the bytes, so the log only appends into
// a chunk's spare capacity, which no clone sees (clone leaves its own
// chunks without any), and otherwise replaces chunks or reslices them with
// no spare capacity. Compaction leaves offset gaps, so lookups by offset
// search the chunks and then the chunk.
type recordLog struct {
	chunks []recordChunk // none is empty
	count  int
}

type recordChunk struct {
	records []storedRecord
	data    []byte // the records' keys and values, in append order
	// keys and values are the last distinct keys and values written to
	// data: one found there is not written again. They are apart so that
	// keys that all differ (key-1, key-2, ...) do not push out the values
	// they come with. A clone's chunk keeps them, so its next append shares
	// them too.
	keys, values recentTexts
	// The records' offsets and timestamps are kept as distances from
	// these, the first record's, which keeps an entry at 24 bytes: a
	// record that is too far from them starts a new chunk.
	baseOffset, baseTime int64
}

// storedRecord is a Record as a chunk holds it: its key is the keyLen bytes
// of the chunk's data at keyAt, and its value the valueLen bytes at
// valueAt. Two records of a chunk may point at the same bytes: a key or a
// value equal to one the chunk stored a moment before is not stored again
// (recordChunk.place), so the thousand copies a "count=" or a workload
// makes of one value cost a few bytes each, not the value's length.
type storedRecord struct {
	offset    uint32 // from the chunk's baseOffset
	timestamp uint32 // milliseconds from the chunk's baseTime
	keyAt     uint32
	keyLen    uint32
	valueAt   uint32
	valueLen  uint32
	hasKey    bool
	tombstone bool
	control   ControlType // a transaction marker's (txn.go); 0 for a record
}

// maxChunkData is the most bytes a new chunk sets aside for keys and
// values before it needs them; past that, its data grows as a slice does,
// up to maxChunkBytes: a record whose bytes would take a chunk's data past
// that starts a new chunk instead, so that a chunk of large records never
// holds a doubled slice's spare half (a chunk of 1,024 records of 4 KB
// would otherwise grow to 8 MB for 4 MB of bytes).
const (
	maxChunkData  = 64 << 10
	maxChunkBytes = 1 << 20
)

// storedRecordBytes is what a record costs a chunk besides its key's and
// value's bytes.
const storedRecordBytes = int64(unsafe.Sizeof(storedRecord{}))

// recentSpans is how many of the last distinct keys and values a chunk
// remembers, to store a repeated one once: a few producers writing fixed
// values to one partition in turn still share them.
const recentSpans = 4

// span is where some bytes of a chunk's data are.
type span struct{ at, n uint32 }

// recentTexts are the last recentSpans distinct texts a chunk wrote, the
// newest at spans[(next-1)%recentSpans].
type recentTexts struct {
	spans [recentSpans]span
	next  uint8
}

// record returns the chunk's record i. Its key and value are strings over
// the chunk's bytes, not copies: those bytes are never written again (see
// recordLog), so the strings stay as they were for as long as they live.
func (c *recordChunk) record(i int) Record {
	s := &c.records[i]
	return Record{
		Offset:    c.baseOffset + int64(s.offset),
		Timestamp: c.baseTime + int64(s.timestamp),
		Key:       c.text(s.keyAt, s.keyLen),
		Value:     c.text(s.valueAt, s.valueLen),
		HasKey:    s.hasKey,
		Tombstone: s.tombstone,
		Control:   s.control,
	}
}

func (c *recordChunk) text(at, n uint32) string {
	if n == 0 {
		return ""
	}
	return unsafe.String(&c.data[at], n)
}

func (c *recordChunk) offsetOf(i int) int64 { return c.baseOffset + int64(c.records[i].offset) }

func (c *recordChunk) lastOffset() int64 { return c.offsetOf(len(c.records) - 1) }

// holds reports whether r's offset and timestamp are near enough the
// chunk's base to be kept as distances from it.
func (c *recordChunk) holds(r *Record) bool {
	return r.Offset-c.baseOffset >= 0 && r.Offset-c.baseOffset <= math.MaxUint32 &&
		r.Timestamp-c.baseTime >= 0 && r.Timestamp-c.baseTime <= math.MaxUint32
}

// add appends r to the chunk, which has room for one more record, and
// returns the bytes it wrote to the chunk's data: r's key and value where
// the chunk did not hold them already. It writes in place rather than
// through append, which a produce would pay for three times.
func (c *recordChunk) add(r *Record) int64 {
	before := len(c.data)
	keyAt := c.place(&c.keys, r.Key)
	valueAt := c.place(&c.values, r.Value)
	n := len(c.records)
	c.records = c.records[:n+1]
	s := &c.records[n]
	s.offset, s.timestamp = uint32(r.Offset-c.baseOffset), uint32(r.Timestamp-c.baseTime)
	s.keyAt, s.keyLen, s.valueAt, s.valueLen = keyAt, uint32(len(r.Key)), valueAt, uint32(len(r.Value))
	s.hasKey, s.tombstone, s.control = r.HasKey, r.Tombstone, r.Control
	return int64(len(c.data) - before)
}

// allocated is the memory a chunk holds: its entries and its bytes, spare
// capacity included.
func (c *recordChunk) allocated() int64 {
	return int64(cap(c.records))*storedRecordBytes + int64(cap(c.data))
}

// chunkBytes is what a chunk costs besides its records' entries and bytes.
const chunkBytes = int64(unsafe.Sizeof(recordChunk{}))

// MaxRecordCost is the most a record of a key and a value of these lengths
// adds to StoredBytes: its entry, its bytes were none of them held already,
// and a new chunk.
func MaxRecordCost(keyLen, valueLen int) int64 {
	return storedRecordBytes + int64(keyLen+valueLen) + chunkBytes
}

// place returns where text's bytes are in the chunk's data: where the
// chunk put the same bytes a moment before (one of recent), or after the
// last bytes, where it writes them.
func (c *recordChunk) place(recent *recentTexts, text string) uint32 {
	if text == "" {
		return 0
	}
	for _, sp := range recent.spans {
		if int(sp.n) == len(text) && string(c.data[sp.at:sp.at+sp.n]) == text {
			return sp.at
		}
	}
	at, end := len(c.data), len(c.data)+len(text)
	if end > cap(c.data) {
		c.data = slices.Grow(c.data, len(text))
	}
	c.data = c.data[:end]
	copy(c.data[at:], text)
	recent.spans[recent.next%recentSpans] = span{uint32(at), uint32(len(text))}
	recent.next++
	return uint32(at)
}

// fits reports whether the chunk's data can take r's bytes, were they all
// new, within maxChunkBytes (an empty chunk takes any). It reads lengths,
// not capacities, which a clone's copy changes: where chunks end must not
// depend on when clones were taken.
func (c *recordChunk) fits(r *Record) bool {
	return len(c.records) == 0 || len(c.data)+len(r.Key)+len(r.Value) <= maxChunkBytes
}

// newRecordChunk returns an empty chunk with room for capacity records like
// r, sized by r's key and value with a quarter more, since keys such as
// acct-9 and acct-10 grow as a run goes on, and growing the bytes copies
// them.
func newRecordChunk(capacity int, r *Record) recordChunk {
	size := len(r.Key) + len(r.Value)
	data := min(capacity*(size+size/4+2), maxChunkData)
	return recordChunk{records: make([]storedRecord, 0, capacity), data: make([]byte, 0, data),
		baseOffset: r.Offset, baseTime: r.Timestamp}
}

// clip returns the chunk with no spare capacity, so that an append to it
// copies rather than writes into memory another log may use.
func (c recordChunk) clip() recordChunk {
	c.records, c.data = slices.Clip(c.records), slices.Clip(c.data)
	return c
}

func (rl *recordLog) clone() recordLog {
	c := recordLog{chunks: slices.Clone(rl.chunks), count: rl.count}
	if n := len(c.chunks); n > 0 {
		c.chunks[n-1] = c.chunks[n-1].clip()
	}
	return c
}

func (rl *recordLog) len() int { return rl.count }

func (rl *recordLog) end() recordPos { return recordPos{len(rl.chunks), 0} }

// recordPos is where a record sits: record i of chunk c. The end of the log
// is {len(chunks), 0}.
type recordPos struct{ c, i int }

// append adds a record after the last one, whose offset it exceeds, and
// returns what the record costs the log: its entry, the bytes of its key
// and value that its chunk did not hold already, and a new chunk's header.
// The cost is the records' own, whatever clones were taken: a replay from
// a checkpoint counts what the first run counted. (The spare capacity of
// chunks and the copy of a last chunk a clone shares are not counted: they
// are at most the size of the last chunks, which a checkpoint's cost
// counts.)
func (rl *recordLog) append(r *Record) int64 {
	n := len(rl.chunks)
	var took int64
	switch {
	case n == 0:
		// A small log's first chunk starts small and grows by doubling.
		rl.chunks = append(rl.chunks, newRecordChunk(8, r))
		n++
		took += chunkBytes
	case len(rl.chunks[n-1].records) == recordChunkSize || !rl.chunks[n-1].holds(r) || !rl.chunks[n-1].fits(r):
		rl.chunks = append(rl.chunks, newRecordChunk(recordChunkSize, r))
		n++
		took += chunkBytes
	case len(rl.chunks[n-1].records) == cap(rl.chunks[n-1].records):
		// The first chunk doubles, and a chunk a clone shares (it has no
		// spare capacity) is copied.
		last := &rl.chunks[n-1]
		grown := make([]storedRecord, len(last.records), min(2*len(last.records), recordChunkSize))
		copy(grown, last.records)
		last.records = grown
	}
	took += storedRecordBytes + rl.chunks[n-1].add(r)
	rl.count++
	return took
}

// seek returns the position of the first record with an offset at or after
// offset, or the end.
func (rl *recordLog) seek(offset int64) recordPos {
	// The first chunk whose last record is at or after offset.
	c, _ := slices.BinarySearchFunc(rl.chunks, offset, func(chunk recordChunk, o int64) int {
		if chunk.lastOffset() < o {
			return -1
		}
		return 1
	})
	if c == len(rl.chunks) {
		return rl.end()
	}
	return recordPos{c, rl.chunks[c].index(offset)}
}

// index returns the index of the chunk's first record at or after offset,
// which its last record is.
func (c *recordChunk) index(offset int64) int {
	records := c.records
	first := int64(records[0].offset)
	if offset <= c.baseOffset+first {
		return 0
	}
	o := offset - c.baseOffset // above first, at most the last record's distance
	n := len(records)
	if int64(records[n-1].offset)-first == int64(n-1) { // no gaps: direct
		return int(o - first)
	}
	i, _ := slices.BinarySearchFunc(records, o, func(r storedRecord, o int64) int {
		if int64(r.offset) < o {
			return -1
		}
		return 1
	})
	return i
}

// distance counts the records from a up to b, with a at or before b.
func (rl *recordLog) distance(a, b recordPos) int {
	if a.c == b.c {
		return b.i - a.i
	}
	n := len(rl.chunks[a.c].records) - a.i + b.i
	for c := a.c + 1; c < b.c; c++ {
		n += len(rl.chunks[c].records)
	}
	return n
}

// countBetween counts the records with offsets in [from, to).
func (rl *recordLog) countBetween(from, to int64) int {
	if to <= from {
		return 0
	}
	return rl.distance(rl.seek(from), rl.seek(to))
}

// between yields the records with offsets in [from, to) in offset order.
func (rl *recordLog) between(from, to int64) iter.Seq[Record] {
	return func(yield func(Record) bool) {
		if to <= from {
			return
		}
		a, b := rl.seek(from), rl.seek(to)
		for c := a.c; c <= b.c && c < len(rl.chunks); c++ {
			chunk := &rl.chunks[c]
			i, j := 0, len(chunk.records)
			if c == a.c {
				i = a.i
			}
			if c == b.c {
				j = b.i
			}
			for ; i < j; i++ {
				if !yield(chunk.record(i)) {
					return
				}
			}
		}
	}
}

// collect returns a copy of the records with offsets in [from, to), at most
// limit of them.
func (rl *recordLog) collect(from, to int64, limit int) []Record {
	a := rl.seek(from)
	// Count first, so that the copy is allocated once, walking no further
	// than limit records: a read near the start of a long log stays short.
	n := 0
	for c, i := a.c, a.i; to > from && n < limit && c < len(rl.chunks); c, i = c+1, 0 {
		chunk := &rl.chunks[c]
		if chunk.lastOffset() >= to {
			n += chunk.index(to) - i
			break
		}
		n += len(chunk.records) - i
	}
	n = min(n, limit)
	out := make([]Record, 0, n)
	for c, i := a.c, a.i; len(out) < n; c, i = c+1, 0 {
		chunk := &rl.chunks[c]
		for ; i < len(chunk.records) && len(out) < n; i++ {
			out = append(out, chunk.record(i))
		}
	}
	return out
}

// all returns a copy of every record.
func (rl *recordLog) all() []Record {
	return rl.collect(math.MinInt64, math.MaxInt64, rl.count)
}

// first returns the first record at or after offset.
func (rl *recordLog) first(offset int64) (Record, bool) {
	pos := rl.seek(offset)
	if pos.c == len(rl.chunks) {
		return Record{}, false
	}
	return rl.chunks[pos.c].record(pos.i), true
}

// offsetAfter returns the offset of the record skip records after the first
// one at or after from, or end when the log holds fewer.
func (rl *recordLog) offsetAfter(from int64, skip int, end int64) int64 {
	pos := rl.seek(from)
	for c := pos.c; c < len(rl.chunks); c++ {
		chunk := &rl.chunks[c]
		left := len(chunk.records) - pos.i
		if skip < left {
			return chunk.offsetOf(pos.i + skip)
		}
		skip -= left
		pos.i = 0
	}
	return end
}

// dropBefore removes the records below offset and returns how many went.
// Whole chunks go; the first one left may keep a few removed records
// alive until it goes too.
func (rl *recordLog) dropBefore(offset int64) int {
	pos := rl.seek(offset)
	removed := rl.distance(recordPos{}, pos)
	if len(rl.chunks) == 0 {
		return 0
	}
	clear(rl.chunks[:pos.c]) // let the chunks be collected
	rl.chunks = rl.chunks[pos.c:]
	if len(rl.chunks) > 0 {
		// The data stays whole: the records left find their bytes by
		// position in it.
		rl.chunks[0].records = rl.chunks[0].records[pos.i:]
	} else {
		rl.chunks = nil
	}
	rl.count -= removed
	return removed
}

// truncateFrom removes the records at and after offset.
func (rl *recordLog) truncateFrom(offset int64) {
	pos := rl.seek(offset)
	rl.count -= rl.distance(pos, rl.end())
	keep := pos.c
	if pos.i > 0 {
		// No spare capacity: a clone may see the records cut off, and
		// strings handed out may point into their bytes.
		cut := rl.chunks[pos.c]
		cut.records = cut.records[:pos.i]
		rl.chunks[pos.c] = cut.clip()
		keep++
	}
	clear(rl.chunks[keep:])
	rl.chunks = rl.chunks[:keep]
}

// filterBelow keeps, of the records below offset, those keep accepts, and
// returns how many went and the bytes of memory the new chunks took. keep
// sees every record below offset once, in offset order. The records kept
// are packed into new chunks.
func (rl *recordLog) filterBelow(offset int64, keep func(r Record) bool) (int, int64) {
	pos := rl.seek(offset)
	left := rl.distance(recordPos{}, pos)
	var chunks []recordChunk
	var cur recordChunk
	kept := 0
	var took int64
	for r := range rl.between(math.MinInt64, offset) {
		left--
		if !keep(r) {
			continue
		}
		if len(cur.records) == cap(cur.records) || !cur.holds(&r) || !cur.fits(&r) {
			if cur.records != nil {
				chunks = append(chunks, cur)
			}
			cur = newRecordChunk(min(left+1, recordChunkSize), &r)
			took += chunkBytes
		}
		took += storedRecordBytes + cur.add(&r)
		kept++
	}
	if cur.records != nil {
		chunks = append(chunks, cur)
	}
	removed := rl.distance(recordPos{}, pos) - kept
	if pos.c < len(rl.chunks) {
		first := rl.chunks[pos.c]
		first.records = first.records[pos.i:]
		chunks = append(chunks, first)
		chunks = append(chunks, rl.chunks[pos.c+1:]...)
	}
	rl.chunks = chunks
	rl.count -= removed
	return removed, took
}
