package core

import (
	"fmt"
	"strconv"
)

// chooser picks among n alternatives; rapid and the fuzzer's bytes both
// drive the same random operations through it.
type chooser interface {
	choose(n int, label string) int
}

// bytesChooser reads choices from fuzz input; past its end every choice is 0.
type bytesChooser struct {
	data []byte
}

func (b *bytesChooser) choose(n int, _ string) int {
	if len(b.data) == 0 || n <= 1 {
		return 0
	}
	c := int(b.data[0]) % n
	b.data = b.data[1:]
	return c
}

func (b *bytesChooser) done() bool { return len(b.data) == 0 }

func pick[T any](c chooser, label string, options ...T) T {
	return options[c.choose(len(options), label)]
}

// The operations draw from small sets so that they collide: the same keys,
// topics that exist and ones that do not, valid and invalid values.
var (
	opTopics  = []string{"orders", "accounts", "orders", "accounts", "missing", "bad name"}
	opKeys    = []string{"", "a", "b", "acct-1", "acct-2", "ü"}
	opConfigs = []struct {
		name   string
		values []string
	}{
		{"retention.ms", []string{"-1", "0", "1s", "1m", "1h", "7x"}},
		{"retention.bytes", []string{"-1", "0", "40", "100B", "1KB", "-5"}},
		{"segment.records", []string{"1", "2", "3", "-1", "0"}},
		{"segment.bytes", []string{"14", "40", "1KB", "13"}},
		{"segment.ms", []string{"1", "1s", "1m", "0"}},
		{"cleanup.policy", []string{"delete", "compact", "compact,delete", "shred"}},
		{"delete.retention.ms", []string{"0", "1s", "1m"}},
		{"min.compaction.lag.ms", []string{"0", "1s", "1m"}},
		{"partitioner", []string{"sticky", "round-robin", "random"}},
		{"bogus", []string{"1"}},
	}
)

// newOpsLog returns an engine with two small topics the operations find:
// orders (delete) and accounts (compact), both with tiny segments.
func newOpsLog(seed int64) (*PartitionedLog, *shadow) {
	l := NewPartitionedLog(seed)
	sh := newShadow()
	l.CreateTopic("orders", 3, map[string]string{"segment.records": "2", "retention.ms": "1m"})
	l.CreateTopic("accounts", 2, map[string]string{"segment.records": "2", "cleanup.policy": "compact", "delete.retention.ms": "1s"})
	sh.noteTopic(l, "orders")
	sh.noteTopic(l, "accounts")
	return l, sh
}

// step runs one random operation. It returns what it did, the operation's
// own error (bad input is expected and fine), and a broken invariant, if any:
// a failed or read-only operation that changed the state, a produce that went
// wrong, or one of shadow.checkInvariants.
func step(l *PartitionedLog, sh *shadow, c chooser, seq int) (string, error, error) {
	before := dumpLog(l)
	topicName := pick(c, "topic", opTopics...)
	partition := pick(c, "partition", 0, 1, 0, 1, 2, -1, 7)
	var what string
	var opErr error
	readOnly := false
	switch c.choose(12, "op") {
	case 0:
		partitions := pick(c, "partitions", 1, 2, 3, 5, 0, -1, 1001)
		configs := map[string]string{}
		for range c.choose(3, "configs") {
			spec := opConfigs[c.choose(len(opConfigs), "config")]
			configs[spec.name] = pick(c, "value", spec.values...)
		}
		what = fmt.Sprintf("create %s partitions=%d %v", topicName, partitions, configs)
		opErr = l.CreateTopic(topicName, partitions, configs)
		sh.noteTopic(l, topicName)
	case 1, 2, 3, 4:
		req := ProduceRequest{Topic: topicName, Partition: pick(c, "partition", -1, -1, -1, partition)}
		if c.choose(4, "keyed") > 0 {
			req.HasKey, req.Key = true, pick(c, "key", opKeys...)
		}
		req.Value = "v" + strconv.Itoa(seq)
		switch c.choose(8, "tombstone") {
		case 0:
			req.Tombstone, req.Value = true, ""
		case 1:
			req.Tombstone = true
		}
		partitionsBefore, _ := l.Partitions(topicName)
		what = fmt.Sprintf("produce %+v", req)
		res, err := l.Produce(req)
		opErr = err
		if err == nil {
			if err := sh.noteProduce(l, req, res, partitionsBefore); err != nil {
				return what, nil, err
			}
		}
	case 5:
		ms := pick(c, "ms", int64(1), 999, 1000, 30*secondMs, minuteMs, hourMs, 0, -1, MaxAdvanceMs+1)
		what = fmt.Sprintf("advance %dms", ms)
		opErr = l.Advance(ms)
	case 6:
		hw, _ := l.HighWatermark(topicName, partition)
		before := pick(c, "before", hw/2, hw, 0, hw+1, -1, 1)
		what = fmt.Sprintf("truncate %s/%d before=%d", topicName, partition, before)
		opErr = l.Truncate(topicName, partition, before)
	case 7:
		what = "compact " + topicName
		opErr = l.Compact(topicName)
	case 8:
		spec := opConfigs[c.choose(len(opConfigs), "config")]
		value := pick(c, "value", spec.values...)
		what = fmt.Sprintf("set %s %s=%s", topicName, spec.name, value)
		opErr = l.SetTopicConfig(topicName, spec.name, value)
		sh.noteTopic(l, topicName)
	case 9:
		n, _ := l.Partitions(topicName)
		count := pick(c, "count", n+1, n+2, n, n-1, 0, 1001)
		what = fmt.Sprintf("add partitions %s count=%d", topicName, count)
		opErr = l.AddPartitions(topicName, count)
	case 10, 11:
		readOnly = true
		offset := pick(c, "offset", int64(0), 1, 5, -1, 100)
		max := pick(c, "max", 1, 3, 100, 0)
		what = fmt.Sprintf("consume %s/%d offset=%d max=%d", topicName, partition, offset, max)
		records, err := l.Consume(topicName, partition, offset, max)
		opErr = err
		if err == nil && len(records) > max {
			return what, nil, fmt.Errorf("%d records for max %d", len(records), max)
		}
		l.FirstRecordAtOrAfter(topicName, partition, offset)
		l.Segments(topicName, partition)
		l.Skew(topicName)
	}
	if (opErr != nil || readOnly) && dumpLog(l) != before {
		return what, opErr, fmt.Errorf("%s changed the state (error: %v)", what, opErr)
	}
	return what, opErr, sh.checkInvariants(l)
}
