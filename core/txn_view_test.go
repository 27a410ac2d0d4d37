package core

import (
	"slices"
	"testing"
)

// A committed transaction on orders/0 and an aborted one on orders/0 and
// orders/1, a transaction left open on orders/1: the read_committed group
// stops at each partition's last stable offset and skips the aborted
// records, the read_uncommitted one reads up to the high watermark,
// aborted records included; neither is given a marker, and the lag of the
// read_committed group is measured against the last stable offset.
func TestGroupIsolationSideBySide(t *testing.T) {
	l := NewPartitionedLog(1)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	send := func(partition int, value string) {
		t.Helper()
		_, err := l.ProduceAs("tp", ProduceRequest{Topic: "orders", Partition: partition}, []string{value}, 1)
		must(err)
	}
	must(l.CreateTopic("orders", 2, nil))
	must(l.NewProducer("tp", map[string]string{TransactionalIDConfig: "tx"}))
	for _, g := range []string{"rc", "ru"} {
		must(l.SetGroupConfig(g, "auto.offset.reset", "earliest"))
		must(l.SetGroupConfig(g, "enable.auto.commit", "false"))
		must(l.Join(g, "m", JoinOptions{Topics: []string{"orders"}}))
	}
	must(l.SetGroupConfig("rc", "isolation.level", ReadCommitted))
	must(l.Advance(4000))
	must(l.InitTransactions("tp"))
	must(l.BeginTransaction("tp"))
	send(0, "a") // orders/0@0
	must(l.CommitTransaction("tp"))
	// orders/0@1 is the commit marker.
	must(l.BeginTransaction("tp"))
	send(0, "b") // orders/0@2
	send(1, "c") // orders/1@0
	must(l.AbortTransaction("tp"))
	// orders/0@3 and orders/1@1 are the abort markers.
	must(l.BeginTransaction("tp"))
	send(1, "d") // orders/1@2, open
	for _, g := range []string{"rc", "ru"} {
		if _, err := l.Poll(g, "m", 500); err != nil {
			t.Fatal(err)
		}
		must(l.Commit(g, "m"))
	}

	rc, err := l.GroupIsolation("rc")
	must(err)
	ru, err := l.GroupIsolation("ru")
	must(err)
	if rc.IsolationLevel != ReadCommitted || ru.IsolationLevel != ReadUncommitted {
		t.Fatalf("isolation levels %s and %s", rc.IsolationLevel, ru.IsolationLevel)
	}
	type want struct {
		readsBelow, position, lag int64
		read, aborted, markers    []int64
	}
	check := func(v GroupIsolation, partition int, w want) {
		t.Helper()
		r := v.Partitions[partition]
		if r.Partition != partition || r.ReadsBelow != w.readsBelow || !r.HasPosition || r.Position != w.position ||
			!r.HasCommitted || r.Lag != w.lag || !slices.Equal(r.Read, w.read) || !slices.Equal(r.Aborted, w.aborted) || !slices.Equal(r.Markers, w.markers) {
			t.Errorf("%s orders/%d: %+v, want %+v", v.Group, partition, r, w)
		}
	}
	// orders/0: HW 4, nothing open, so the LSO is 4 too.
	check(rc, 0, want{readsBelow: 4, position: 4, lag: 0, read: []int64{0}, aborted: []int64{2}, markers: []int64{1, 3}})
	check(ru, 0, want{readsBelow: 4, position: 4, lag: 0, read: []int64{0, 2}, aborted: []int64{2}, markers: []int64{1, 3}})
	// orders/1: HW 3, the open transaction holds the LSO at 2.
	check(rc, 1, want{readsBelow: 2, position: 2, lag: 0, read: nil, aborted: []int64{0}, markers: []int64{1}})
	check(ru, 1, want{readsBelow: 3, position: 3, lag: 0, read: []int64{0, 2}, aborted: []int64{0}, markers: []int64{1}})
	if lso := rc.Partitions[1].LastStableOffset; lso != 2 || rc.Partitions[1].HighWatermark != 3 {
		t.Errorf("orders/1: LSO %d HW %d, want 2 and 3", lso, rc.Partitions[1].HighWatermark)
	}

	// Committing the open transaction moves the LSO past its marker; the
	// read_committed group's lag, against the LSO, is then 2 (offset 2,
	// and the marker's offset 3).
	must(l.CommitTransaction("tp"))
	rc, err = l.GroupIsolation("rc")
	must(err)
	if r := rc.Partitions[1]; r.ReadsBelow != 4 || r.Lag != 2 || r.RecordsLag != 2 {
		t.Errorf("after the commit, rc on orders/1 reads below %d with lag %d and records-lag %d, want 4, 2 and 2", r.ReadsBelow, r.Lag, r.RecordsLag)
	}
	if _, err := l.GroupIsolation("nobody"); err == nil {
		t.Error("an unknown group's isolation was given")
	}
}
