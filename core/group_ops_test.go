package core

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// Random sequences of group operations, driven by rapid or by fuzz input
// through the package's chooser. The choices come from small sets so that
// operations collide: the same members join, crash and come back, valid and
// invalid values mix.

var (
	groupOpGroups    = []string{"g1", "g1", "g2", "bad group"}
	groupOpMembers   = []string{"c1", "c2", "c3", "c10", "c1", "c2", ""}
	groupOpInstances = []string{"", "", "h1", "h2"}
	groupOpTopics    = [][]string{{"orders"}, {"orders"}, {"audit"}, {"orders", "audit"}, {"missing"}, nil}
	groupOpConfigs   = []struct {
		name   string
		values []string
	}{
		{"session.timeout.ms", []string{"6s", "10s", "45s", "1s"}},
		{"rebalance.ms", []string{"1ms", "3s", "10s", "11s"}},
		{"auto.commit", []string{"true", "false", "maybe"}},
		{"auto.commit.interval.ms", []string{"1s", "5s", "0"}},
		{"auto.offset.reset", []string{"earliest", "latest", "none", "smallest"}},
		{"delivery", []string{AtLeastOnce, AtMostOnce, "exactly-once"}},
		{"lag.alert.records", []string{"0", "5", "-1"}},
		{"lag.alert.ms", []string{"0", "10s"}},
		{"fetch.min.bytes", []string{"1"}},
	}
)

func newGroupOpsLog(seed int64) *PartitionedLog {
	l := NewPartitionedLog(seed)
	l.CreateTopic("orders", 3, map[string]string{"segment.records": "2", "retention.ms": "2m"})
	l.CreateTopic("audit", 1, nil)
	for i := range 12 {
		l.Produce(ProduceRequest{Topic: "orders", Partition: -1, Key: fmt.Sprint("k", i%5), HasKey: true, Value: "v"})
	}
	return l
}

// groupStep runs one random operation and returns what it did, its own
// error (bad input is expected) and a broken invariant, if any.
func groupStep(l *PartitionedLog, c chooser) (string, error, error) {
	before := l.Clone()
	beforeEvents := l.events.count
	group := pick(c, "group", groupOpGroups...)
	member := pick(c, "member", groupOpMembers...)
	var what string
	var opErr error
	readOnly := false
	switch c.choose(14, "op") {
	case 0, 1:
		opts := JoinOptions{
			Topics:     pick(c, "topics", groupOpTopics...),
			Strategy:   pick(c, "strategy", "", StrategyRange, StrategyRoundRobin, StrategySticky, StrategyCooperativeSticky, "fair"),
			InstanceID: pick(c, "instance", groupOpInstances...),
		}
		what = fmt.Sprintf("join %s %s %+v", group, member, opts)
		opErr = l.Join(group, member, opts)
	case 2:
		what = fmt.Sprintf("leave %s %s", group, member)
		opErr = l.Leave(group, member)
	case 3:
		what = fmt.Sprintf("crash %s %s", group, member)
		opErr = l.Crash(group, member)
	case 4, 5:
		max := pick(c, "max", 1, 3, 100, 0)
		what = fmt.Sprintf("poll %s %s max=%d", group, member, max)
		_, opErr = l.Poll(group, member, max)
		if opErr == nil {
			if err := checkPolledPositions(l, group, member); err != nil {
				return what, nil, err
			}
		}
	case 6:
		what = fmt.Sprintf("commit %s %s", group, member)
		opErr = l.Commit(group, member)
	case 7:
		partition := pick(c, "partition", 0, 1, 2, 5)
		offset := pick(c, "offset", int64(-1), 0, 2, 5, 12, 40)
		what = fmt.Sprintf("commit %s orders/%d offset=%d", group, partition, offset)
		opErr = l.CommitOffset(group, "orders", partition, offset)
	case 8:
		spec := ResetSpec{
			To:       pick(c, "to", ResetToEarliest, ResetToLatest, ResetToOffset, ResetToDatetime, "to-nowhere"),
			Offset:   pick(c, "offset", int64(-3), 1, 7, 1000),
			Datetime: pick(c, "datetime", int64(0), 5000, 1<<40),
			Topic:    pick(c, "topic", "", "orders", "audit", "missing"),
		}
		if spec.Topic != "" {
			spec.Partitions = pick(c, "partitions", []int(nil), []int{0}, []int{2, 1}, []int{9})
		}
		what = fmt.Sprintf("reset %s %+v", group, spec)
		opErr = l.ResetOffsets(group, spec)
		if opErr == nil {
			if err := checkResetOffsets(l, group, spec); err != nil {
				return what, nil, err
			}
		}
	case 9:
		config := pick(c, "config", groupOpConfigs...)
		value := pick(c, "value", config.values...)
		what = fmt.Sprintf("config %s %s=%s", group, config.name, value)
		opErr = l.SetGroupConfig(group, config.name, value)
	case 10, 11:
		ms := pick(c, "ms", int64(1), 500, 3000, 10_000, 45_000, 120_000)
		what = fmt.Sprintf("advance %dms", ms)
		opErr = l.Advance(ms)
	case 12:
		switch c.choose(3, "log op") {
		case 0:
			what = "produce"
			_, opErr = l.Produce(ProduceRequest{Topic: pick(c, "topic", "orders", "audit"), Partition: -1, Value: "v"})
		case 1:
			partition := pick(c, "partition", 0, 1, 2)
			hw, _ := l.HighWatermark("orders", partition)
			what = fmt.Sprintf("truncate orders/%d before=%d", partition, hw)
			opErr = l.Truncate("orders", partition, hw)
		default:
			n, _ := l.Partitions("orders")
			what = fmt.Sprintf("partitions orders count=%d", n+1)
			opErr = l.AddPartitions("orders", n+1)
		}
	default:
		readOnly = true
		what = "read " + group
		l.Group(group)
		l.GroupOffsets(group)
		_, opErr = l.CompareMovement(group, MembershipChange{
			Join:  []AssignMember{{ID: "new", Topics: []string{"orders"}}},
			Leave: pick(c, "leave", []string(nil), []string{member}),
		})
	}
	if opErr != nil || readOnly {
		if !reflect.DeepEqual(before.groups, l.groups) || dumpLog(before) != dumpLog(l) {
			return what, opErr, fmt.Errorf("a failed or read-only operation changed the state (error: %v)", opErr)
		}
		if l.events.count != beforeEvents {
			return what, opErr, fmt.Errorf("a failed or read-only operation emitted %v", l.events.flatten()[beforeEvents:])
		}
	}
	return what, opErr, checkGroupInvariants(l)
}

// checkGroupInvariants checks what must hold for every group at all times.
func checkGroupInvariants(l *PartitionedLog) error {
	if !slices.IsSorted(l.groups.names) || len(l.groups.names) != len(l.groups.groups) {
		return fmt.Errorf("group names %v out of order or out of step", l.groups.names)
	}
	for _, name := range l.groups.names {
		g := l.groups.groups[name]
		owner := map[TopicPartition]string{}
		for i, m := range g.members {
			if i > 0 && g.members[i-1].id >= m.id {
				return fmt.Errorf("%s: members out of order", name)
			}
			for _, tp := range m.assigned {
				if other, taken := owner[tp]; taken {
					return fmt.Errorf("%s: %s is owned by both %s and %s", name, tp, other, m.id)
				}
				owner[tp] = m.id
				if !slices.Contains(m.topics, tp.Topic) {
					return fmt.Errorf("%s: %s owns %s without subscribing to %s", name, m.id, tp, tp.Topic)
				}
				if n := len(l.topics[tp.Topic].partitions); tp.Partition >= n {
					return fmt.Errorf("%s: %s owns %s, which does not exist", name, m.id, tp)
				}
			}
			for tp, pos := range m.positions {
				hw, _ := l.HighWatermark(tp.Topic, tp.Partition)
				if !slices.Contains(m.assigned, tp) || pos < 0 || pos > hw {
					return fmt.Errorf("%s: %s has position %d on %s (assigned %v, high watermark %d)", name, m.id, pos, tp, m.assigned, hw)
				}
			}
		}
		for tp, offset := range g.committed {
			hw, err := l.HighWatermark(tp.Topic, tp.Partition)
			if err != nil || offset < 0 || offset > hw {
				return fmt.Errorf("%s: committed %d on %s, above the high watermark %d", name, offset, tp, hw)
			}
		}
		if g.state() == GroupStable {
			for topic, n := range l.partitionCounts(g) {
				for p := range n {
					if _, ok := owner[TopicPartition{Topic: topic, Partition: p}]; !ok {
						return fmt.Errorf("%s: stable, but %s/%d has no owner", name, topic, p)
					}
				}
			}
		}
		if g.rebalance != nil {
			for _, tp := range g.rebalance.paused {
				if _, ok := owner[tp]; !ok {
					return fmt.Errorf("%s: paused %s has no owner", name, tp)
				}
			}
		}
		if len(g.deliveries) > 2*maxDeliveryLog || len(g.history) > maxRebalanceHistory {
			return fmt.Errorf("%s: unbounded logs", name)
		}
	}
	return nil
}

// checkPolledPositions checks that after a poll every partition the member
// read from has a position between the log start and the high watermark.
func checkPolledPositions(l *PartitionedLog, group, member string) error {
	g := l.groups.groups[group]
	m := g.member(member)
	for _, tp := range m.assigned {
		if g.isPaused(tp) {
			continue
		}
		pos, ok := m.positions[tp]
		p := l.topics[tp.Topic].partitions[tp.Partition]
		if !ok || pos < p.logStart || pos > p.next {
			return fmt.Errorf("after a poll %s is at %d (set %v) on %s, outside %d..%d", member, pos, ok, tp, p.logStart, p.next)
		}
	}
	return nil
}

// checkResetOffsets checks that a reset left every offset it set between
// the log start and the high watermark.
func checkResetOffsets(l *PartitionedLog, group string, spec ResetSpec) error {
	g := l.groups.groups[group]
	for tp, offset := range g.committed {
		if spec.Topic != "" && (tp.Topic != spec.Topic || len(spec.Partitions) > 0 && !slices.Contains(spec.Partitions, tp.Partition)) {
			continue
		}
		p := l.topics[tp.Topic].partitions[tp.Partition]
		if offset < p.logStart || offset > p.next {
			return fmt.Errorf("after %+v, %s is at %d, outside %d..%d", spec, tp, offset, p.logStart, p.next)
		}
	}
	return nil
}

func TestGroupInvariantsUnderRandomOperations(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		l := newGroupOpsLog(rapid.Int64().Draw(rt, "seed"))
		c := rapidChooser{rt}
		var done []string
		for i := range rapid.IntRange(1, 120).Draw(rt, "steps") {
			what, _, broken := groupStep(l, c)
			done = append(done, what)
			if broken != nil {
				rt.Fatalf("step %d, %s: %v\nafter:\n%s", i, what, broken, strings.Join(done, "\n"))
			}
		}
	})
}

// The same operations on two engines, and on a clone taken halfway, give
// the same groups.
func TestGroupOperationsAreDeterministic(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		seed := rapid.Int64().Draw(rt, "seed")
		input := rapid.SliceOfN(rapid.Byte(), 0, 800).Draw(rt, "input")
		run := func(l *PartitionedLog, data []byte) {
			c := &bytesChooser{data: data}
			for !c.done() {
				groupStep(l, c)
			}
		}
		a, b := newGroupOpsLog(seed), newGroupOpsLog(seed)
		half := len(input) / 2
		run(a, input[:half])
		clone := a.Clone()
		run(a, input[half:])
		run(clone, input[half:])
		run(b, input[:half])
		run(b, input[half:])
		if !reflect.DeepEqual(a.groups, b.groups) || dumpLog(a) != dumpLog(b) {
			rt.Fatal("the same operations gave different groups")
		}
		if !reflect.DeepEqual(a.groups, clone.groups) || dumpLog(a) != dumpLog(clone) {
			rt.Fatal("the same operations on a clone gave different groups")
		}
	})
}

// FuzzGroupOperations decodes the input into group operations mixed with
// log operations. No input may panic the engine; failed operations change
// nothing; the group invariants hold after every step.
func FuzzGroupOperations(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 10, 3, 4, 0, 0, 0, 6, 0, 0, 3, 10, 4})
	f.Add([]byte("join join poll commit crash advance advance poll reset"))
	f.Add([]byte{2, 0, 0, 0, 4, 0, 0, 1, 0, 1, 4, 2, 1, 1, 0, 1, 11, 2, 1, 0, 5, 0, 3, 0, 0, 3, 11, 5, 0, 2, 8, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 4096 {
			data = data[:4096]
		}
		l := newGroupOpsLog(int64(len(data)))
		c := &bytesChooser{data: data}
		for i := 0; !c.done(); i++ {
			what, _, broken := groupStep(l, c)
			if broken != nil {
				t.Fatalf("step %d, %s: %v", i, what, broken)
			}
		}
	})
}
