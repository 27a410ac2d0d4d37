package scenario

import (
	"fmt"

	"plog/core"
)

// The memory budget. A link is shared by strangers, and the page's wasm has
// 4 GB at most, which it never gives back: a scenario may hold at most
// MaxMemoryBytes of counted memory, whatever its records' sizes. The count
// is the engine's own tally of what its records took (core's StoredBytes:
// entries, keys and values, a repeated key or value once a chunk), a fixed
// recordOverheadBytes per record produced for what grows beside them
// (segments, the lists a checkpoint copies), and the workloads' tables.
// A produce and a workload check each record before they make it, so the
// memory past the budget is never taken; the session checks the count again
// after every command, for the records the engine makes on its own
// (retries, transaction markers, the cleaner's copies).
const (
	// MaxMemoryBytes is the budget: 256 MiB. A million records with keys
	// and values of a few dozen bytes take about 110 MiB of it; records of
	// 4 KB that all differ, about 64,000. The Go heap holds about 1.2 times
	// the count (TestMemoryCountBoundsTheHeap), and the collector lets it
	// grow to twice its live size, so a scenario at the budget stays near
	// 600 MB of wasm memory, well inside the 4 GB a page may have.
	MaxMemoryBytes = 256 << 20
	// recordOverheadBytes is what a record produced costs besides its
	// entry in a chunk and its key and value.
	recordOverheadBytes = 64
	// zipfRankBytes is what a zipf workload's table takes per key of its
	// keyspace.
	zipfRankBytes = 8
)

// memoryLimitError is the error of a command that would take the
// scenario's memory past MaxMemoryBytes.
type memoryLimitError struct {
	held int64 // what the scenario held when the command asked for more
}

func (e memoryLimitError) Error() string {
	return fmt.Sprintf("this command would take the scenario past its memory budget of %s (its records and tables hold %s), "+
		"so none of it was applied: make fewer records, or smaller keys and values",
		formatBytes(MaxMemoryBytes), formatBytes(e.held))
}

// memory is the scenario's counted memory so far.
func (w *world) memory() int64 {
	return w.log.StoredBytes() + w.produced*recordOverheadBytes + w.tables
}

// reserve refuses n more bytes that would take the scenario's memory past
// MaxMemoryBytes, before they are taken.
func (w *world) reserve(n int64) error {
	if held := w.memory(); n > MaxMemoryBytes-held {
		return memoryLimitError{held: held}
	}
	// Copying bytes takes time that units of work do not see: records
	// of a few KB take a quarter of a second in the browser between two
	// pauses by work. So the browser may also run every pauseBytes.
	before := w.reserved
	w.reserved += n
	w.breathe(crosses(before, w.reserved, pauseBytes))
	return nil
}

// pauseBytes is how many bytes of records pass between two calls of
// world.pause from reserve: a few milliseconds of copying.
const pauseBytes = 1 << 20

// reserveRecord is reserve for one record the scenario is about to
// produce: the most the engine may count for it, and its overhead.
func (w *world) reserveRecord(req *core.ProduceRequest) error {
	return w.reserve(core.MaxRecordCost(len(req.Key), len(req.Value)) + recordOverheadBytes)
}

// formatBytes writes n in the unit a person reads it in.
func formatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
