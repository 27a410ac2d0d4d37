package scenario

import (
	"fmt"
	"strconv"
	"strings"
	"text/tabwriter"
)

// The rows the parts of a state add to its partitions, and the tables
// the text writes of them (state_replicas.go, state_producers.go).

// eachPartition calls fill with every partition of the state's topics, for
// a part of the engine to add what it knows of the partition.
func eachPartition(st *State, fill func(topic string, p *PartitionState)) {
	for ti := range st.Topics {
		t := &st.Topics[ti]
		for pi := range t.Partitions {
			fill(t.Name, &t.Partitions[pi])
		}
	}
}

// newTable begins a table of the text after a blank line, its columns
// aligned as kafka-topics and kafka-consumer-groups align theirs.
func newTable(b *strings.Builder, header ...string) *tabwriter.Writer {
	b.WriteByte('\n')
	tw := tabwriter.NewWriter(b, 0, 8, 2, ' ', 0)
	tableRow(tw, header...)
	return tw
}

// tableRow writes one row of a table.
func tableRow(tw *tabwriter.Writer, cells ...string) {
	fmt.Fprintln(tw, strings.Join(cells, "\t"))
}

// writePartitionTable writes a table of every partition of the state's
// topics: TOPIC and PARTITION, then the columns header names, which row
// fills for a partition.
func writePartitionTable(b *strings.Builder, st State, header []string, row func(p PartitionState) []string) {
	tw := newTable(b, append([]string{"TOPIC", "PARTITION"}, header...)...)
	for _, t := range st.Topics {
		for _, p := range t.Partitions {
			tableRow(tw, append([]string{t.Name, strconv.Itoa(p.Partition)}, row(p)...)...)
		}
	}
	tw.Flush()
}

// deref is the number a field points to, 0 for none.
func deref[N int | int64](n *N) N {
	if n == nil {
		return 0
	}
	return *n
}
