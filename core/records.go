package core

import (
	"iter"
	"math"
	"slices"
)

// recordChunkSize is the most records one chunk of a partition's log holds.
const recordChunkSize = 1024

// recordLog holds a partition's records in offset order, in chunks of at
// most recordChunkSize records. Appending never moves the records already
// held (a single growing slice would copy each record several times as it
// grows), memory stays within one chunk of the records held, and a clone
// shares the chunks instead of copying them, which keeps checkpoints cheap.
//
// Sharing is safe because no chunk is ever written below its length: a
// chunk's records may be seen by clones, so the log only appends into a
// chunk's spare capacity, which no clone sees (clone leaves its own chunks
// without any), and otherwise replaces chunks or reslices them with no
// spare capacity. Compaction leaves offset gaps, so lookups by offset
// search the chunks and then the chunk.
type recordLog struct {
	chunks [][]Record // none is empty
	count  int
}

// recordPos is where a record sits: record i of chunk c. The end of the log
// is {len(chunks), 0}.
type recordPos struct{ c, i int }

func (rl *recordLog) clone() recordLog {
	c := recordLog{chunks: slices.Clone(rl.chunks), count: rl.count}
	if n := len(c.chunks); n > 0 {
		c.chunks[n-1] = slices.Clip(c.chunks[n-1])
	}
	return c
}

func (rl *recordLog) len() int { return rl.count }

func (rl *recordLog) end() recordPos { return recordPos{len(rl.chunks), 0} }

// append adds a record after the last one, whose offset it exceeds.
func (rl *recordLog) append(r Record) {
	n := len(rl.chunks)
	switch {
	case n == 0:
		rl.chunks = append(rl.chunks, make([]Record, 0, 8))
		n++
	case len(rl.chunks[n-1]) == recordChunkSize:
		rl.chunks = append(rl.chunks, make([]Record, 0, recordChunkSize))
		n++
	case len(rl.chunks[n-1]) == cap(rl.chunks[n-1]):
		// The first chunk of a small log grows by doubling, and a chunk a
		// clone shares (it has no spare capacity) is copied.
		last := rl.chunks[n-1]
		grown := make([]Record, len(last), min(2*len(last), recordChunkSize))
		copy(grown, last)
		rl.chunks[n-1] = grown
	}
	last := rl.chunks[n-1]
	last = last[:len(last)+1]
	rl.chunks[n-1] = last
	rl.count++
	// Field by field: while the GC runs, copying a whole struct that holds
	// pointers goes through the runtime's bulk write barrier, several times
	// slower than the barriers of single fields.
	dst := &last[len(last)-1]
	dst.Offset, dst.Timestamp = r.Offset, r.Timestamp
	dst.Key, dst.Value = r.Key, r.Value
	dst.HasKey, dst.Tombstone = r.HasKey, r.Tombstone
}

// seek returns the position of the first record with an offset at or after
// offset, or the end.
func (rl *recordLog) seek(offset int64) recordPos {
	// The first chunk whose last record is at or after offset.
	c, _ := slices.BinarySearchFunc(rl.chunks, offset, func(chunk []Record, o int64) int {
		if chunk[len(chunk)-1].Offset < o {
			return -1
		}
		return 1
	})
	if c == len(rl.chunks) {
		return rl.end()
	}
	return recordPos{c, chunkIndex(rl.chunks[c], offset)}
}

// chunkIndex returns the index in chunk of the first record at or after
// offset, which the chunk's last record is.
func chunkIndex(chunk []Record, offset int64) int {
	first := chunk[0].Offset
	if offset <= first {
		return 0
	}
	n := len(chunk)
	if chunk[n-1].Offset-first == int64(n-1) { // no gaps: direct
		return int(offset - first)
	}
	i, _ := slices.BinarySearchFunc(chunk, offset, func(r Record, o int64) int {
		if r.Offset < o {
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
	n := len(rl.chunks[a.c]) - a.i + b.i
	for c := a.c + 1; c < b.c; c++ {
		n += len(rl.chunks[c])
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
		for span := range rl.spans(from, to) {
			for _, r := range span {
				if !yield(r) {
					return
				}
			}
		}
	}
}

// spans yields the records with offsets in [from, to) as runs of the
// chunks, in offset order, for the loops over a million records
// (compaction) that a call per record would slow. The runs are the log's
// own memory: they are only read.
func (rl *recordLog) spans(from, to int64) iter.Seq[[]Record] {
	return func(yield func([]Record) bool) {
		if to <= from {
			return
		}
		a, b := rl.seek(from), rl.seek(to)
		for c := a.c; c <= b.c && c < len(rl.chunks); c++ {
			span := rl.chunks[c]
			if c == b.c {
				span = span[:b.i]
			}
			if c == a.c {
				span = span[a.i:]
			}
			if len(span) > 0 && !yield(span) {
				return
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
		chunk := rl.chunks[c]
		if chunk[len(chunk)-1].Offset >= to {
			n += chunkIndex(chunk, to) - i
			break
		}
		n += len(chunk) - i
	}
	n = min(n, limit)
	out := make([]Record, 0, n)
	for c := a.c; len(out) < n; c++ {
		chunk := rl.chunks[c][a.i:]
		out = append(out, chunk[:min(len(chunk), n-len(out))]...)
		a.i = 0
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
	return rl.chunks[pos.c][pos.i], true
}

// offsetAfter returns the offset of the record skip records after the first
// one at or after from, or end when the log holds fewer.
func (rl *recordLog) offsetAfter(from int64, skip int, end int64) int64 {
	pos := rl.seek(from)
	for c := pos.c; c < len(rl.chunks); c++ {
		left := len(rl.chunks[c]) - pos.i
		if skip < left {
			return rl.chunks[c][pos.i+skip].Offset
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
		rl.chunks[0] = rl.chunks[0][pos.i:]
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
		// No spare capacity: a clone may see the records cut off.
		rl.chunks[pos.c] = rl.chunks[pos.c][:pos.i:pos.i]
		keep++
	}
	clear(rl.chunks[keep:])
	rl.chunks = rl.chunks[:keep]
}

// filterBelow keeps, of the records below offset, those keep accepts, and
// returns how many went. keep sees every record below offset once, in
// offset order. The records kept are packed into new chunks.
func (rl *recordLog) filterBelow(offset int64, keep func(r *Record) bool) int {
	pos := rl.seek(offset)
	left := rl.distance(recordPos{}, pos)
	var chunks [][]Record
	var cur []Record
	kept := 0
	for span := range rl.spans(math.MinInt64, offset) {
		for i := range span {
			left--
			if !keep(&span[i]) {
				continue
			}
			if len(cur) == cap(cur) {
				if cur != nil {
					chunks = append(chunks, cur)
				}
				cur = make([]Record, 0, min(left+1, recordChunkSize))
			}
			cur = append(cur, span[i])
			kept++
		}
	}
	if cur != nil {
		chunks = append(chunks, cur)
	}
	removed := rl.distance(recordPos{}, pos) - kept
	if pos.c < len(rl.chunks) {
		chunks = append(chunks, rl.chunks[pos.c][pos.i:])
		chunks = append(chunks, rl.chunks[pos.c+1:]...)
	}
	rl.chunks = chunks
	rl.count -= removed
	return removed
}
