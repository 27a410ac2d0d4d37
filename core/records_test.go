package core

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// checkRecordLog checks a record log's own structure: no empty or
// oversized chunk, offsets increasing across chunks, and the count.
func checkRecordLog(rl *recordLog) error {
	n := 0
	last := int64(math.MinInt64)
	for c, chunk := range rl.chunks {
		if len(chunk.records) == 0 || len(chunk.records) > recordChunkSize {
			return fmt.Errorf("chunk %d holds %d records", c, len(chunk.records))
		}
		for i, r := range chunk.records {
			offset := chunk.offsetOf(i)
			if offset <= last {
				return fmt.Errorf("chunk %d: offset %d after %d", c, offset, last)
			}
			if end := int(r.keyAt + r.keyLen); end > len(chunk.data) {
				return fmt.Errorf("chunk %d: offset %d's key ends at byte %d of %d", c, offset, end, len(chunk.data))
			}
			if end := int(r.valueAt + r.valueLen); end > len(chunk.data) {
				return fmt.Errorf("chunk %d: offset %d's value ends at byte %d of %d", c, offset, end, len(chunk.data))
			}
			last = offset
		}
		n += len(chunk.records)
	}
	if n != rl.count {
		return fmt.Errorf("chunks hold %d records, count says %d", n, rl.count)
	}
	return nil
}

// modelBetween is what recordLog.between yields, from a plain slice.
func modelBetween(model []Record, from, to int64) []Record {
	var out []Record
	for _, r := range model {
		if r.Offset >= from && r.Offset < to {
			out = append(out, r)
		}
	}
	return out
}

// TestRecordLogMatchesSlice runs random appends, drops, truncations,
// filters and clones on record logs and on plain slices beside them, and
// checks after every step that every log, clones included, reads as its
// slice: a clone shares chunks, so a change to one log must never show in
// another. It also keeps the records read after each step and checks that
// they never change: their keys and values point into the logs' bytes.
func TestRecordLogMatchesSlice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		logs := []*recordLog{{}}
		models := [][]Record{nil}
		next := []int64{0}
		took := []int64{0} // what each log's appends and filters said they took, with its clones'
		// Keys and values repeat, in runs and in turn, and some are large
		// enough to fill a chunk's bytes: a chunk stores a repeated one once.
		texts := []string{"", "a", "bb", strings.Repeat("v", 3000), strings.Repeat("w", 3000), strings.Repeat("v", 2999) + "x"}
		var read, readCopies []Record
		now := int64(0) // timestamps only grow, in every log
		for step := range rapid.IntRange(1, 60).Draw(t, "steps") {
			k := rapid.IntRange(0, len(logs)-1).Draw(t, "log")
			rl := logs[k]
			offsets := func(label string) int64 {
				return rapid.Int64Range(-2, next[k]+2).Draw(t, label)
			}
			switch rapid.IntRange(0, 5).Draw(t, "op") {
			case 0, 1: // append a run, with gaps now and then
				n := rapid.IntRange(1, 3*recordChunkSize).Draw(t, "appends")
				gapEvery := rapid.IntRange(1, 4*recordChunkSize).Draw(t, "gap every")
				if rapid.IntRange(0, 3).Draw(t, "far") == 0 {
					// Beyond what a chunk keeps as a distance from its
					// first record's offset and timestamp.
					next[k] += 1 << 33
					now += 1 << 33
				}
				keyRun := rapid.IntRange(1, 7).Draw(t, "key run")
				valueRun := rapid.IntRange(1, 7).Draw(t, "value run")
				for i := range n {
					next[k] += 1 + int64(min(1, i%gapEvery)^1)
					now += int64(i % 2)
					key := fmt.Sprint(step, i/keyRun)
					if i%5 == 0 {
						key = texts[(i/keyRun)%len(texts)]
					}
					r := Record{Offset: next[k] - 1, Timestamp: now, Key: key, Value: texts[(i/valueRun)%len(texts)]}
					took[k] += rl.append(&r)
					models[k] = append(models[k], r)
				}
			case 2:
				offset := offsets("drop")
				removed := rl.dropBefore(offset)
				kept := modelBetween(models[k], offset, math.MaxInt64)
				if want := len(models[k]) - len(kept); removed != want {
					t.Fatalf("dropBefore(%d) removed %d, want %d", offset, removed, want)
				}
				models[k] = kept
			case 3:
				offset := offsets("truncate")
				rl.truncateFrom(offset)
				models[k] = modelBetween(models[k], math.MinInt64, offset)
			case 4: // keep every third record below an offset
				offset := offsets("filter")
				var want []Record
				for _, r := range models[k] {
					if r.Offset >= offset || r.Offset%3 == 0 {
						want = append(want, r)
					}
				}
				removed, filterTook := rl.filterBelow(offset, func(r Record) bool { return r.Offset%3 == 0 })
				took[k] += filterTook
				if removed != len(models[k])-len(want) {
					t.Fatalf("filterBelow(%d) removed %d, want %d", offset, removed, len(models[k])-len(want))
				}
				models[k] = want
			case 5:
				c := rl.clone()
				logs = append(logs, &c)
				models = append(models, slices.Clone(models[k]))
				next = append(next, next[k])
				took = append(took, took[k])
			}
			for i, l := range logs {
				checkRecordLogAgainst(t, l, models[i], next[i])
				if held := l.heldBytes(); held > took[i] {
					t.Fatalf("log %d's records cost %d bytes, but its appends said they took %d", i, held, took[i])
				}
			}
			// At most readPerStep records of each step's read are kept to
			// be checked again at every later step: all of them, 60 steps
			// of logs of thousands, took gigabytes, past what the wasm's
			// 4 GB of memory holds.
			all := logs[k].all()
			for i := 0; i < len(all); i += max(1, len(all)/readPerStep) {
				r := all[i]
				read = append(read, r)
				readCopies = append(readCopies, Record{Offset: r.Offset, Timestamp: r.Timestamp, Key: strings.Clone(r.Key), Value: strings.Clone(r.Value)})
			}
			for i, r := range read {
				if r.Key != readCopies[i].Key || r.Value != readCopies[i].Value {
					t.Fatalf("record %d read earlier changed from %q=%q to %q=%q", r.Offset, readCopies[i].Key, readCopies[i].Value, r.Key, r.Value)
				}
			}
		}
	})
}

// heldBytes is what rl's records cost, as append counts it: their chunks'
// entries and bytes, and the chunks.
func (rl *recordLog) heldBytes() int64 {
	var n int64
	for _, c := range rl.chunks {
		n += chunkBytes + int64(len(c.records))*storedRecordBytes + int64(len(c.data))
	}
	return n
}

// TestRecordChunkStoresARepeatOnce: a run of records with one key and one
// value (a produce of many copies) and records that take turns among a few
// values (producers writing to one partition) store each once a chunk.
func TestRecordChunkStoresARepeatOnce(t *testing.T) {
	big := strings.Repeat("v", 3800)
	others := []string{strings.Repeat("a", 3800), strings.Repeat("b", 3800), strings.Repeat("c", 3800)}
	var rl recordLog
	var took int64
	for i := range 3 * recordChunkSize {
		took += rl.append(&Record{Offset: int64(i), Key: "acct-1", HasKey: true, Value: big})
	}
	for i := range 3 * recordChunkSize {
		took += rl.append(&Record{Offset: int64(3*recordChunkSize + i), Key: fmt.Sprint("k", i), HasKey: true, Value: others[i%len(others)]})
	}
	// The entries and keys of six chunks, and in each the distinct values once.
	limit := int64(6) * (int64(recordChunkSize)*(storedRecordBytes+8) + chunkBytes + 4*3800)
	if took > limit {
		t.Errorf("%d records of four values of 3,800 bytes took %d bytes, want at most %d", 6*recordChunkSize, took, limit)
	}
	if took < rl.heldBytes() {
		t.Errorf("appends said %d bytes, the chunks hold %d", took, rl.heldBytes())
	}
	for i, r := range rl.all() {
		want := big
		if i >= 3*recordChunkSize {
			want = others[(i-3*recordChunkSize)%len(others)]
		}
		if r.Value != want {
			t.Fatalf("record %d's value is %.10q…, want %.10q…", i, r.Value, want)
		}
	}
}

// readPerStep bounds the records of one step's read that
// TestRecordLogMatchesSlice checks again at later steps.
const readPerStep = 256

func checkRecordLogAgainst(t *rapid.T, rl *recordLog, model []Record, end int64) {
	if err := checkRecordLog(rl); err != nil {
		t.Fatal(err)
	}
	if got := rl.all(); !slices.Equal(got, model) || len(got) != rl.len() {
		t.Fatalf("log holds %d records %v, want %d %v", rl.len(), got, len(model), model)
	}
	from := rapid.Int64Range(-2, end+2).Draw(t, "from")
	to := rapid.Int64Range(-2, end+2).Draw(t, "to")
	want := modelBetween(model, from, to)
	if got := rl.countBetween(from, to); got != len(want) {
		t.Fatalf("countBetween(%d, %d) = %d, want %d", from, to, got, len(want))
	}
	var got []Record
	for r := range rl.between(from, to) {
		got = append(got, r)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("between(%d, %d) = %v, want %v", from, to, got, want)
	}
	limit := rapid.IntRange(1, 2*recordChunkSize).Draw(t, "limit")
	if got := rl.collect(from, to, limit); !slices.Equal(got, want[:min(limit, len(want))]) {
		t.Fatalf("collect(%d, %d, %d) gave %d records, want %d", from, to, limit, len(got), min(limit, len(want)))
	}
	after := modelBetween(model, from, math.MaxInt64)
	r, ok := rl.first(from)
	if ok != (len(after) > 0) || ok && r != after[0] {
		t.Fatalf("first(%d) = %v %v, want %v", from, r, ok, after)
	}
	skip := rapid.SampledFrom([]int{0, 1, recordChunkSize - 1, recordChunkSize, math.MaxInt}).Draw(t, "skip")
	wantOffset := end
	if skip < len(after) {
		wantOffset = after[skip].Offset
	}
	if got := rl.offsetAfter(from, skip, end); got != wantOffset {
		t.Fatalf("offsetAfter(%d, %d) = %d, want %d", from, skip, got, wantOffset)
	}
}

// TestRecordLogAppendCopiesNothingOnceChunked checks that a long log keeps
// its full chunks where they are as it grows: appending never moves them.
func TestRecordLogAppendCopiesNothingOnceChunked(t *testing.T) {
	var rl recordLog
	for i := range 3 * recordChunkSize {
		rl.append(&Record{Offset: int64(i)})
	}
	first := &rl.chunks[0].records[0]
	for i := 3 * recordChunkSize; i < 10*recordChunkSize; i++ {
		rl.append(&Record{Offset: int64(i)})
	}
	if &rl.chunks[0].records[0] != first {
		t.Fatal("a full chunk moved")
	}
	if len(rl.chunks) != 10 {
		t.Fatalf("%d chunks for %d records, want 10", len(rl.chunks), rl.len())
	}
}
