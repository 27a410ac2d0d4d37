package core

import (
	"fmt"
	"strings"
)

// dumpReplication writes the cluster and every partition's replication
// state, for tests that compare states.
func dumpReplication(l *PartitionedLog) string {
	var b strings.Builder
	fmt.Fprintf(&b, "cluster %+v\n", l.cluster)
	for _, name := range l.topicNames {
		for i, p := range l.topics[name].partitions {
			rs := p.replicas
			fmt.Fprintf(&b, "%s/%d leader=%d current=%d epoch=%d hw=%d acks=%v offline=%q\n", name, i, rs.leader, rs.current, rs.epoch, rs.hw, rs.acks, rs.offline)
			for _, r := range rs.replicas {
				fmt.Fprintf(&b, "  %+v\n", r)
			}
		}
	}
	return b.String()
}
