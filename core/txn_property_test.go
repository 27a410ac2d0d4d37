package core

import (
	"strconv"
	"testing"

	"pgregory.net/rapid"
)

// Whatever transactions commit, abort or stay open, and whenever the
// groups poll: no consumer is given a marker; a read_committed consumer
// is given no record of an aborted or open transaction and nothing at or
// above the last stable offset; a read_uncommitted one is given every
// record below the high watermark, aborted ones too, once each.
func TestIsolationLevels(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		l := NewPartitionedLog(1)
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(l.CreateTopic("out", 2, nil))
		must(l.NewProducer("tp", map[string]string{TransactionalIDConfig: "tx"}))
		must(l.NewProducer("plain", nil))
		for _, g := range []string{"rc", "ru"} {
			must(l.SetGroupConfig(g, "auto.offset.reset", "earliest"))
			must(l.SetGroupConfig(g, "enable.auto.commit", "false"))
			must(l.Join(g, "m", JoinOptions{Topics: []string{"out"}}))
		}
		must(l.SetGroupConfig("rc", "isolation.level", ReadCommitted))
		must(l.Advance(4000))
		must(l.InitTransactions("tp"))
		read := map[string]int{}
		for i := range rapid.IntRange(1, 30).Draw(t, "steps") {
			switch rapid.IntRange(0, 6).Draw(t, "op"+strconv.Itoa(i)) {
			case 0:
				_ = l.BeginTransaction("tp")
			case 1, 2:
				key := "k" + strconv.Itoa(rapid.IntRange(0, 3).Draw(t, "key"))
				_, _ = l.ProduceAs("tp", ProduceRequest{Topic: "out", Key: key, HasKey: true, Partition: -1}, []string{"t"}, 1)
			case 3:
				_, _ = l.ProduceAs("plain", ProduceRequest{Topic: "out", Partition: -1}, []string{"p"}, 1)
			case 4:
				if rapid.Bool().Draw(t, "commit") {
					_ = l.CommitTransaction("tp")
				} else {
					_ = l.AbortTransaction("tp")
				}
			default:
				for _, g := range []string{"rc", "ru"} {
					ds, err := l.Poll(g, "m", 500)
					must(err)
					for _, d := range ds {
						r := d.Record
						if r.Control != ControlNone {
							t.Fatalf("%s was given the marker at %s/%d@%d", g, d.Topic, d.Partition, r.Offset)
						}
						_, state := l.RecordTransaction(d.Topic, d.Partition, r.Offset)
						lso, _ := l.LastStableOffset(d.Topic, d.Partition)
						if g == "rc" && (state == "aborted" || state == "open" || r.Offset >= lso) {
							t.Fatalf("read_committed was given %s/%d@%d, %q, the last stable offset %d", d.Topic, d.Partition, r.Offset, state, lso)
						}
						read[g]++
					}
				}
			}
		}
		// read_uncommitted ends with every record but the markers.
		for {
			ds, err := l.Poll("ru", "m", 500)
			must(err)
			if len(ds) == 0 {
				break
			}
			read["ru"] += len(ds)
		}
		want := 0
		for p := range 2 {
			records, _ := l.Records("out", p)
			for _, r := range records {
				if r.Control == ControlNone {
					want++
				}
			}
		}
		if read["ru"] != want {
			t.Fatalf("read_uncommitted read %d records, the log holds %d besides markers", read["ru"], want)
		}
	})
}
