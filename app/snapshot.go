package app

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"
	"plog/picture"
)

// LogSnapshot is what the page shows of the engine: a copy taken after each
// command through the engine's read-only face (core.ReadOnlyLog). Components
// render from it and never reach into the engine, so a render can never
// change state, and the rules the page shows (the retention cliff, a
// rebalance's rounds, the ack tallies) are the engine's own.
//
// A partition may hold a million records in a hundred thousand segments;
// the snapshot copies only the window of each lane that is drawn, with
// counts for the rest, and asks the engine only about that window (counts
// and segments by offset range), so that taking it and rendering it costs
// the same whatever the log holds.
type LogSnapshot struct {
	TimeMs int64 // the virtual clock
	// Brokers is the cluster's size, and ReplicaLagTimeMaxMs its
	// replica.lag.time.max.ms, for the cluster's controls.
	Brokers             int
	ReplicaLagTimeMaxMs int64
	Topics              []TopicSnapshot
	Groups              []GroupSnapshot       // in name order
	ShareGroups         []core.ShareGroupView // in name order (share_group_panel.go)
	// ShareCompared is the workload the share group the inspector shows
	// runs through a consumer group beside it, when the learner asked.
	ShareCompared *ShareCompared
	Producers     []core.ProducerView // the named producers, by name
	// Isolation is what each group reads under its isolation.level, set
	// while named producers are in use (snapshot_transactions.go).
	Isolation []core.GroupIsolation
	// PollTarget is the member the poll and commit shortcuts act for: the
	// first running member of the first group. Zero when there is none.
	PollTarget MemberRef
}

// MemberRef names one member of one group.
type MemberRef struct {
	Group, Member string
}

// TopicSnapshot is one topic and its partitions in partition order.
type TopicSnapshot struct {
	Name     string
	Configs  []core.ConfigEntry
	Compacts bool // cleanup.policy includes compact
	// Skew is the largest partition's record count over the mean (1 is
	// even); MaxCount the largest count, which the skew bars scale to.
	Skew       float64
	MaxCount   int
	Total      int // the records of all its partitions
	Partitions []PartitionSnapshot
	// Table is what a compacted topic's changelog builds, read whole: each
	// key's latest record, by key (tableOf); nil for another topic, or one
	// past the records the page reads for tables at every step (addTables).
	Table []TableEntry
}

// TableEntry is one key of a compacted topic's table: its latest record's
// value, or Deleted when that record is a tombstone (the key leaves the
// table; the tombstone itself goes after delete.retention.ms).
type TableEntry struct {
	Key     string
	Value   string
	Deleted bool
}

// maxTableRecords bounds the records the page reads to build a compacted
// topic's table at each step: the lessons' changelogs hold a few dozen.
const maxTableRecords = 2000

// tableRecordsRead bounds the records read for all the tables of a step.
const tableRecordsRead = 10 * maxTableRecords

// PartitionSnapshot is one partition: the offsets that bound it (the log
// start offset, the first retained offset; the high watermark, below which
// records are committed; the log end, the offset the next record will
// get), how many records it retains, and the window of them that its lane
// draws.
type PartitionSnapshot struct {
	Topic         string
	Partition     int
	LogStart      int64
	HighWatermark int64
	// LogEnd is the offset the next record will get. Records from the high
	// watermark up to it are stored but not committed yet: the followers
	// in the ISR have not fetched them, and no consumer may read them.
	LogEnd int64
	// HWHeld says why the high watermark does not move (under rules 3, an
	// ISR smaller than min.insync.replicas); "" when it is not held.
	HWHeld string
	Count  int // records retained, committed or not

	Records []core.Record // the window drawn, in offset order
	// Looks are the drawn records' looks where a key's differs from its
	// hash's (assignLooks), one per record; nil where none does.
	Looks  []keyLook
	Before int // retained records older than the window
	After  int // retained records newer than the window

	// SegmentStarts are the base offsets of the segments that begin inside
	// the window; Segments is how many segments the partition has.
	SegmentStarts []int64
	Segments      int
	// Cliff is the retention cliff: records below it are older than
	// retention.ms and go at the next retention check. -1 for none
	// (core.RetentionCliff).
	Cliff int64
	// CliffCheckAt is when that check runs, by the virtual clock; -1 when
	// the topic's cleaner deletes instead (core.RetentionCliff.CheckAt).
	CliffCheckAt int64
	// NextExpiry says when the next records fall over the cliff, e.g.
	// "offsets 10–19 in 5m"; "" when none will.
	NextExpiry string

	Marks []GroupMark // the groups reading this partition

	// Offline says why the partition has no leader ("" while it has one),
	// and OfflineBrokers where its replicas are: its records are drawn, as
	// its replicas keep them, but nothing can be produced to or read from it.
	Offline        string
	OfflineBrokers []int

	// TimestampClock says whose clock the records' timestamps are, from
	// the topic's message.timestamp.type (core.TopicConfig.TimestampClock).
	TimestampClock string

	// Txn is what transactions made of the partition, while named
	// producers are in use (snapshot_transactions.go).
	Txn PartitionTxn
}

// laneWindow is how many records a lane draws. Enough to see segments and
// keys; few enough that a repaint touches a few hundred elements at most.
const laneWindow = 40

// laneStride is how far a lane that follows its newest records moves its
// first record at a time: its window starts on a multiple of laneStride, so
// it draws laneWindow to laneWindow+laneStride-1 records. A produce then
// adds a record to the end of the lane instead of shifting every record
// drawn by one, which would rewrite each of them in the page.
const laneStride = laneWindow / 2

// followTail is the lane view that shows the newest records.
const followTail = int64(-1)

// laneKey names a lane in the page's view state.
func laneKey(topic string, partition int) string {
	return fmt.Sprintf("%s/%d", topic, partition)
}

// snapshotLog copies what the page shows out of the engine. views says where
// each lane's window starts (its first offset), by laneKey; a lane missing
// from it follows the newest records. The engine only fails these reads for a
// topic or partition that does not exist, which would mean the engine
// contradicts its own TopicNames: that is reported, not hidden, and the
// snapshot keeps all it could read, so that one unreadable part never
// blanks the page.
func snapshotLog(l core.ReadOnlyLog, views map[string]int64) (LogSnapshot, error) {
	return snapshotLooking(l, views, nil)
}

// snapshotLooking is snapshotLog drawing keys with the looks a memory kept
// (assignLooks): the page's own snapshots, in which a key keeps its colour
// and shape from step to step.
func snapshotLooking(l core.ReadOnlyLog, views map[string]int64, looks *picture.LookMemory) (LogSnapshot, error) {
	groups, groupsErr := snapshotGroups(l)
	shareGroups, shareErr := snapshotShareGroups(l)
	snap := LogSnapshot{
		ShareGroups:         shareGroups,
		TimeMs:              l.Now(),
		Brokers:             len(l.Brokers()),
		ReplicaLagTimeMaxMs: l.ReplicaLagTimeMaxMs(),
		Groups:              groups,
		Producers:           l.Producers(),
		PollTarget:          pollTarget(groups),
	}
	errs := []error{groupsErr, shareErr}
	marks := snap.groupMarks()
	for _, name := range l.TopicNames() {
		topic, err := snapshotTopic(l, name, views)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for i := range topic.Partitions {
			topic.Partitions[i].Marks = marks[core.TopicPartition{Topic: name, Partition: i}]
		}
		snap.Topics = append(snap.Topics, topic)
	}
	assignLooks(snap.Topics, looks) // key_colour.go
	errs = append(errs, addTables(l, snap.Topics))
	errs = append(errs, addTransactions(l, &snap))
	return snap, errors.Join(errs...)
}

// partition finds one partition in the snapshot.
func (s LogSnapshot) partition(topic string, partition int) (PartitionSnapshot, bool) {
	for _, t := range s.Topics {
		if t.Name == topic && partition >= 0 && partition < len(t.Partitions) {
			return t.Partitions[partition], true
		}
	}
	return PartitionSnapshot{}, false
}

// snapshotOf is the snapshot of a session's engine, views as for
// snapshotLog, looks as for snapshotLooking (nil: a fresh memory). The page
// reads the engine in its snapshot files only (a test checks it), and
// through core.ReadOnlyLog.
func snapshotOf(s *scenario.Session, views map[string]int64, looks *picture.LookMemory) (LogSnapshot, error) {
	return snapshotLooking(s.Log(), views, looks)
}

// pollTarget is the first running member of the first group that has one.
func pollTarget(groups []GroupSnapshot) MemberRef {
	for _, g := range groups {
		for _, m := range g.Members {
			if m.Down == "" {
				return MemberRef{Group: g.Name, Member: m.ID}
			}
		}
	}
	return MemberRef{}
}

func snapshotTopic(l core.ReadOnlyLog, name string, views map[string]int64) (TopicSnapshot, error) {
	n, err := l.Partitions(name)
	if err != nil {
		return TopicSnapshot{}, err
	}
	config, err := l.TopicConfig(name)
	if err != nil {
		return TopicSnapshot{}, err
	}
	skew, err := l.Skew(name)
	if err != nil {
		return TopicSnapshot{}, err
	}
	topic := TopicSnapshot{
		Name:       name,
		Configs:    config.Entries(),
		Compacts:   config.CleanupPolicy != core.PolicyDelete,
		Skew:       skew,
		Partitions: make([]PartitionSnapshot, n),
	}
	for p := range n {
		view := int64(followTail)
		if len(views) > 0 { // a lane's key is a string made: most snapshots have no views
			if at, ok := views[laneKey(name, p)]; ok {
				view = at
			}
		}
		part, err := snapshotPartition(l, name, p, view)
		if err != nil {
			return TopicSnapshot{}, fmt.Errorf("reading %s/%d: %w", name, p, err)
		}
		part.TimestampClock = config.TimestampClock()
		topic.MaxCount = max(topic.MaxCount, part.Count)
		topic.Total += part.Count
		topic.Partitions[p] = part
	}
	return topic, nil
}

// addTables builds the compacted topics' tables (tableOf), each of at most
// maxTableRecords records, and at most tableRecordsRead records in all, in
// the topics' order: a scenario of a thousand compacted topics reads some,
// not all, at every step.
func addTables(l core.ReadOnlyLog, topics []TopicSnapshot) error {
	budget := tableRecordsRead
	for i := range topics {
		t := &topics[i]
		if !t.Compacts || t.Total > maxTableRecords || t.Total > budget {
			continue
		}
		budget -= t.Total
		table, err := tableOf(l, t.Name, len(t.Partitions))
		if err != nil {
			return err
		}
		t.Table = table
	}
	return nil
}

// tableOf reads a compacted topic whole into the table it builds, as a
// consumer rebuilding its state from the log's start would: a key's later
// record replaces its earlier one, a tombstone deletes the key; records
// without a key and transactions' markers build nothing.
func tableOf(l core.ReadOnlyLog, topic string, partitions int) ([]TableEntry, error) {
	latest := map[string]TableEntry{}
	for p := range partitions {
		records, err := l.Records(topic, p)
		if err != nil {
			return nil, fmt.Errorf("reading %s/%d: %w", topic, p, err)
		}
		for _, r := range records {
			if r.HasKey && r.Control == core.ControlNone {
				latest[r.Key] = TableEntry{Key: r.Key, Value: r.Value, Deleted: r.Tombstone}
			}
		}
	}
	table := make([]TableEntry, 0, len(latest))
	for _, e := range latest {
		table = append(table, e)
	}
	slices.SortFunc(table, func(a, b TableEntry) int { return strings.Compare(a.Key, b.Key) })
	return table, nil
}

func snapshotPartition(l core.ReadOnlyLog, topic string, p int, view int64) (PartitionSnapshot, error) {
	part := PartitionSnapshot{Topic: topic, Partition: p}
	var err error
	if part.LogStart, err = l.LogStartOffset(topic, p); err != nil {
		return part, err
	}
	if part.HighWatermark, err = l.HighWatermark(topic, p); err != nil {
		return part, err
	}
	if part.LogEnd, err = l.LogEndOffset(topic, p); err != nil {
		return part, err
	}
	if part.HWHeld, err = l.HighWatermarkHeld(topic, p); err != nil {
		return part, err
	}
	if part.Count, err = l.RecordCount(topic, p); err != nil {
		return part, err
	}
	if part.Segments, err = l.SegmentCount(topic, p); err != nil {
		return part, err
	}
	if part.Offline, part.OfflineBrokers, err = l.Offline(topic, p); err != nil {
		return part, err
	}
	if part.Records, err = window(l, topic, p, part.LogStart, part.LogEnd, view); err != nil {
		return part, err
	}
	if len(part.Records) > 0 {
		first, last := part.Records[0].Offset, part.Records[len(part.Records)-1].Offset
		if part.Before, err = l.CountBetween(topic, p, part.LogStart, first); err != nil {
			return part, err
		}
		// The segments that begin inside the window, after its first record.
		segments, err := l.SegmentsBetween(topic, p, first+1, last+1)
		if err != nil {
			return part, err
		}
		for _, s := range segments {
			if s.BaseOffset > first && s.BaseOffset <= last {
				part.SegmentStarts = append(part.SegmentStarts, s.BaseOffset)
			}
		}
	}
	part.After = part.Count - part.Before - len(part.Records)
	cliff, err := l.RetentionCliff(topic, p)
	if err != nil {
		return part, err
	}
	part.Cliff, part.CliffCheckAt, part.NextExpiry = cliff.Below, cliff.CheckAt, expiryNote(cliff, l.Now())
	return part, nil
}

// expiryNote says when the next records go, "" when none will: at the
// retention check that deletes them, by the virtual clock, as the masthead
// tells it. A walk read "deletes offsets 570–599 in 1ms" step after step
// with nothing deleted: records go at the checks, not as they pass
// retention.ms. A topic that also compacts says when they pass it, as its
// cleaner deletes them.
func expiryNote(cliff core.RetentionCliff, now int64) string {
	if cliff.NextAt < 0 {
		return ""
	}
	in := units.Span(cliff.NextAt-now, 2)
	offsets, pass, goes := fmt.Sprintf("offsets %d–%d", cliff.NextFrom, cliff.NextTo-1), "pass", "go"
	if cliff.NextTo-cliff.NextFrom == 1 {
		offsets, pass, goes = fmt.Sprintf("offset %d", cliff.NextFrom), "passes", "goes"
	}
	if cliff.GoneAt < 0 { // a topic that also compacts: its cleaner deletes them
		return fmt.Sprintf("%s %s retention.ms in %s", offsets, pass, in)
	}
	// One short line under the lane, as long as the old one: a longer one
	// wrapped in a narrow lane and grew a 640x400 embed past its frame.
	return fmt.Sprintf("%s %s at %s (retention.ms)", offsets, goes, units.Duration(cliff.GoneAt))
}

// window returns up to laneWindow records of a partition from offset view.
// The window reaches the log end, past the high watermark: the records the
// followers have not fetched yet are drawn, as not committed. It reads what
// the partition's log holds, not a fetch: an offline partition's records are
// drawn too, as its replicas keep them. When view is followTail or at the
// log end, it returns the newest laneWindow records and the older ones back
// to a multiple of laneStride. A view below the log start starts there.
func window(l core.ReadOnlyLog, topic string, p int, logStart, logEnd, view int64) ([]core.Record, error) {
	if logEnd == logStart {
		return nil, nil
	}
	if view != followTail && view < logEnd {
		return l.LogRecords(topic, p, max(view, logStart), laneWindow)
	}
	newest, err := newestRecords(l, topic, p, logStart, logEnd)
	if err != nil || len(newest) < laneWindow {
		return newest, err
	}
	first := newest[0].Offset
	start := max(logStart, first/laneStride*laneStride)
	if start == first {
		return newest, nil
	}
	// The records in [start, first): fewer than laneStride offsets, and
	// with compaction's gaps maybe fewer records, so the read may run on
	// past first.
	older, err := l.LogRecords(topic, p, start, int(first-start))
	if err != nil {
		return nil, err
	}
	for len(older) > 0 && older[len(older)-1].Offset >= first {
		older = older[:len(older)-1]
	}
	return append(older, newest...), nil
}

// newestRecords returns the newest laneWindow records below the log end,
// or all of them when there are fewer. Compaction leaves gaps, so it widens
// its reach until it holds enough of them or reaches the log start.
func newestRecords(l core.ReadOnlyLog, topic string, p int, logStart, logEnd int64) ([]core.Record, error) {
	for reach := int64(laneWindow); ; reach *= 4 {
		from := max(logEnd-reach, logStart)
		records, err := l.LogRecords(topic, p, from, int(min(logEnd-from, core.MaxConsume)))
		if err != nil || len(records) >= laneWindow || from == logStart {
			return records[max(0, len(records)-laneWindow):], err
		}
	}
}
