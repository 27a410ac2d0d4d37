package app

import (
	"fmt"
	"strings"
	"testing"

	"plog/core/scenario"
)

// BenchmarkSnapshotTransactions takes the page's snapshot of a topic of
// four partitions after 1,000 transactions, each a record on one partition
// and its marker, committed and aborted by turns, read by a read_committed
// and a read_uncommitted group: what each command costs the page in
// transactions' state (each drawn record's transaction, each group's
// isolation view).
func BenchmarkSnapshotTransactions(b *testing.B) {
	var script strings.Builder
	script.WriteString("topic orders partitions=4\nproducer-config tp transactional.id=tx\ntxn tp init\n")
	for _, g := range []string{"rc", "ru"} {
		fmt.Fprintf(&script, "config group %s auto.offset.reset=earliest\njoin %s m topics=orders\n", g, g)
	}
	script.WriteString("config group rc isolation.level=read_committed\nadvance 4s\n")
	for i := range 1000 {
		end := "commit"
		if i%2 == 1 {
			end = "abort"
		}
		fmt.Fprintf(&script, "txn tp begin\nproduce orders producer=tp value=v%d partition=%d\ntxn tp %s\n", i, i%4, end)
	}
	script.WriteString("poll rc m max=500\npoll ru m max=500\n")
	s, err := scenario.Load(script.String())
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := snapshotOf(s, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
}
