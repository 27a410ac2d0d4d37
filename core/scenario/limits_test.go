package scenario

import (
	"strings"
	"testing"
)

// The compact commands of a scenario read at most MaxCompactedRecords
// records in all; past that a compact is refused and changes nothing.
func TestCompactionLimit(t *testing.T) {
	s := mustLoad(t, "topic t partitions=2 cleanup.policy=compact\nproduce t key=a value=1 count=6\nproduce t key=b value=2 count=4\ncompact t\n")
	if s.cur.compacted != 10 {
		t.Fatalf("a compaction of 10 records counted %d", s.cur.compacted)
	}
	if _, err := s.Apply("produce t key=c value=3 count=8"); err != nil {
		t.Fatal(err)
	}
	// A compaction reads what the topic holds now.
	counts, _ := s.Log().PartitionRecordCounts("t")
	held := int64(counts[0] + counts[1])
	w := s.cur.clone()
	w.compacted = MaxCompactedRecords - held + 1
	state := StateText(w.log)
	if err := w.compact("t"); err == nil || !strings.Contains(err.Error(), "at most 10000000 records") {
		t.Fatalf("got %v", err)
	}
	if StateText(w.log) != state || w.compacted != MaxCompactedRecords-held+1 {
		t.Fatal("a refused compaction changed the state")
	}
	w.compacted = MaxCompactedRecords - held
	if err := w.compact("t"); err != nil {
		t.Fatalf("a compaction up to the limit: %v", err)
	}
	if w.compacted != MaxCompactedRecords {
		t.Fatalf("compacted %d, want the limit", w.compacted)
	}
	if err := w.compact("nosuch"); err == nil || w.compacted != MaxCompactedRecords {
		t.Fatalf("compacting a missing topic: %v, compacted %d", err, w.compacted)
	}

	// The count is part of the state: going back and forth keeps it.
	s = mustLoad(t, "topic t cleanup.policy=compact\nproduce t key=a value=1 count=5\ncompact t\ncompact t\n")
	if err := s.Seek(3); err != nil {
		t.Fatal(err)
	}
	if s.cur.compacted != 5 {
		t.Fatalf("after going back a step, compacted %d, want 5", s.cur.compacted)
	}
	if err := s.Redo(); err != nil {
		t.Fatal(err)
	}
	if s.cur.compacted != 10 {
		t.Fatalf("after redo, compacted %d, want 10: the active segment is never cleaned", s.cur.compacted)
	}
}
