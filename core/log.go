package core

import (
	"fmt"
	"slices"
	"unsafe"

	"plog/core/units"
)

// PartitionedLog is the engine: topics of partitions of records, a virtual
// clock, and the consumer groups reading them. The zero value is not ready:
// use NewPartitionedLog.
type PartitionedLog struct {
	rules  int // the rules version (rules.go)
	seed   int64
	now    int64  // virtual milliseconds since the scenario began
	random uint64 // state of the seeded generator (splitmix64)

	topics     map[string]*topic
	topicNames []string // sorted; every loop over topics goes through it
	// lastTopic is the topic last looked up: a run of produces to one
	// topic skips the map. Topics are never deleted, so it stays valid.
	lastTopic *topic

	events eventLog // pending for DrainEvents

	groups groupState
	shares shareGroups // share groups (share.go)

	cluster cluster // the brokers the partitions' replicas live on

	producers producerState // named producers and the transaction coordinator (producer.go, txn.go)

	// meter, when set, is told of the engine's work as it does it
	// (SetWorkMeter); a clone has none.
	meter func(units int64)

	// stored counts the bytes of memory the partitions' records have
	// taken since the log began (StoredBytes): it never goes down, since
	// the records a retention check, a truncation or the cleaner lets go
	// may still be held by a clone.
	stored int64
}

// SetWorkMeter sets the function the engine calls as it works inside one
// call, with the units of work it did since the last (0 for a step too
// small to count, which lets the caller see time pass): a retried
// request, an assignment's partitions for each member, a partition a
// retention check or the cleaner visits, a record the cleaner reads. A
// caller counts them against a budget, and may let the browser run
// between two calls; it must not call the engine from it. Clones do not
// keep it.
func (l *PartitionedLog) SetWorkMeter(meter func(units int64)) { l.meter = meter }

// work tells the meter of n units of work.
func (l *PartitionedLog) work(n int64) {
	if l.meter != nil {
		l.meter(n)
	}
}

// StoredBytes returns the bytes of memory the log has allocated for records
// (their entries, keys and values) since it began, with those its clones
// had before they were taken: a bound on what the records of the log and of
// all its clones hold together, which a caller can check against a budget
// as the log grows. A key or value repeated in a run of records, as a
// produce of many copies or a workload makes, is held once a chunk of the
// records (records.go).
func (l *PartitionedLog) StoredBytes() int64 { return l.stored }

// RetentionCheckIntervalMs is how often retention ran under rules 1 and 2
// as virtual time advanced, at every multiple of it since the scenario
// began: 30 seconds, so that retention showed soon after records expired.
// Under rules 3 the checks follow Kafka's log.retention.check.interval.ms
// (5 minutes) after log.initial.task.delay.ms (retention.go); the registry
// holds both versions' intervals.
var RetentionCheckIntervalMs = durationDefaultUnder(OnCluster, "log.retention.check.interval.ms", RulesV2)

// MaxAdvanceMs is the longest single Advance (100 years).
const MaxAdvanceMs = maxDurationMs

// maxGroupRunsAtInstant bounds how often the group timers fire at one
// instant of an Advance.
const maxGroupRunsAtInstant = 64

// maxClockMs bounds the virtual clock so that no time arithmetic overflows.
const maxClockMs = 10 * maxDurationMs

// NewPartitionedLog returns an empty engine under the latest rules
// (LatestRules; UseRules sets another) whose random choices (the
// partitioners') all derive from seed.
func NewPartitionedLog(seed int64) *PartitionedLog {
	return &PartitionedLog{
		rules:   LatestRules,
		seed:    seed,
		random:  uint64(seed),
		topics:  map[string]*topic{},
		cluster: newCluster(),
	}
}

// Seed returns the seed the engine was made with.
func (l *PartitionedLog) Seed() int64 { return l.seed }

// Now returns the virtual clock: milliseconds since the scenario began.
func (l *PartitionedLog) Now() int64 { return l.now }

// Advance moves the virtual clock forward by ms milliseconds, running what
// falls due on the way in time order: retention checks (every
// RetentionCheckIntervalMs), replication (follower fetches and ISR
// changes, see replica.go) and the consumer groups' timers. What falls due
// at the same instant runs in that order.
func (l *PartitionedLog) Advance(ms int64) error {
	if ms <= 0 {
		return fmt.Errorf("advance needs a positive duration, got %dms", ms)
	}
	if ms > MaxAdvanceMs {
		return fmt.Errorf("advance of %s is longer than the limit of %s", units.Duration(ms), units.Duration(MaxAdvanceMs))
	}
	if l.now > maxClockMs-ms {
		return fmt.Errorf("the virtual clock cannot pass %s", units.Duration(maxClockMs))
	}
	target := l.now + ms
	groupsRanAt, runsAtInstant, groupsStuck := int64(-1), 0, false
	for {
		check := l.nextRetentionCheck()
		group, hasGroup := l.nextGroupDeadline()
		hasGroup = hasGroup && !groupsStuck
		if hasGroup {
			// A timer already due fires now. Timers may fire again at the
			// same instant (one rebalance ending starts the next), but a
			// timer that keeps asking without moving on is left for the
			// next Advance rather than stall the clock.
			group = max(group, l.now)
		}
		replication := l.nextReplication()
		cleaner := l.nextCleanerRun(target)
		next := min(check, replication, cleaner)
		if hasGroup && group < next {
			next = group
		}
		txnTimeout, hasTxn := l.nextTxnTimeout()
		if hasTxn && txnTimeout < next {
			next = txnTimeout
		}
		share, hasShare := l.nextShareDeadline()
		share = max(share, l.now) // a deadline a shorter config left behind fires now
		if hasShare && share < next {
			next = share
		}
		if next > target {
			break
		}
		l.now = next
		if check == next {
			l.runRetention()
		}
		if cleaner == next {
			l.runCleaner()
		}
		if replication == next {
			l.runReplication()
		}
		if hasGroup && group == next {
			if next == groupsRanAt {
				runsAtInstant++
			} else {
				groupsRanAt, runsAtInstant = next, 1
			}
			if runsAtInstant > maxGroupRunsAtInstant {
				groupsStuck = true
				continue
			}
			l.runGroupTimers(next)
		}
		if hasTxn && txnTimeout == next {
			l.abortTimedOut() // TransactionCoordinator (txn.go)
		}
		if hasShare && share == next {
			l.runShareTimers(next)
		}
	}
	l.now = target
	l.emit(Event{Kind: EventClockAdvanced, Offset: target})
	return nil
}

// Clone returns a deep, independent copy of the engine (for checkpoints and
// time travel). Pending events are copied too.
func (l *PartitionedLog) Clone() *PartitionedLog { return l.CloneBreathing(nil) }

// CloneBreathing is Clone that calls breathe, when it is not nil, between
// pieces of its work: after each partition, and every cloneSlice segments
// of a partition's list of them. A clone is the engine's longest piece of
// work that no work unit counts: a million records of a few KB each is a
// million segments, 32 MB to copy, a tenth of a second natively and half
// a second in the browser; breathe lets a caller in the browser yield in
// it. It changes nothing in the clone.
func (l *PartitionedLog) CloneBreathing(breathe func()) *PartitionedLog {
	if breathe == nil {
		breathe = func() {}
	}
	c := &PartitionedLog{
		rules:      l.rules,
		seed:       l.seed,
		now:        l.now,
		random:     l.random,
		topics:     make(map[string]*topic, len(l.topics)),
		topicNames: slices.Clone(l.topicNames),
		events:     l.events.clone(),
		groups:     l.groups.clone(),
		shares:     l.shares.clone(),
		cluster:    l.cluster.clone(),
		producers:  l.producers.clone(),
		stored:     l.stored,
	}
	for name, t := range l.topics {
		c.topics[name] = t.clone(breathe)
	}
	return c
}

// CloneBytes returns the bytes of memory a clone of the log holds on its
// own, O(partitions): every partition's list of segments and of chunks of
// records, which a clone copies, and its last chunk, which the log copies
// on its next append there. The rest (the records of the other chunks, the
// groups, the producers) is shared, or small beside these.
func (l *PartitionedLog) CloneBytes() int64 {
	var n int64
	for _, name := range l.topicNames {
		for _, p := range l.topics[name].partitions {
			n += int64(cap(p.segments))*int64(unsafe.Sizeof(segment{})) +
				int64(len(p.records.chunks))*int64(unsafe.Sizeof(recordChunk{}))
			if last := len(p.records.chunks) - 1; last >= 0 {
				n += p.records.chunks[last].allocated()
			}
		}
	}
	return n
}

// DrainEvents returns the events appended since the last call, oldest first,
// and forgets them. Only the latest 65,536 are kept between two calls: a
// caller that shows every record drains after each command.
func (l *PartitionedLog) DrainEvents() []Event {
	return l.events.drain()
}

func (l *PartitionedLog) emit(e Event) {
	e.Time = l.now
	l.events.add(e)
}

// randomIntn returns a number in [0, n) from the seeded generator
// (splitmix64), for n > 0.
func (l *PartitionedLog) randomIntn(n int) int {
	l.random += 0x9e3779b97f4a7c15
	z := l.random
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return int(z % uint64(n))
}

// topic returns the named topic or an error naming it.
func (l *PartitionedLog) topic(name string) (*topic, error) {
	if t := l.lastTopic; t != nil && t.name == name {
		return t, nil
	}
	t, ok := l.topics[name]
	if !ok {
		return nil, fmt.Errorf("unknown topic %q", name)
	}
	l.lastTopic = t
	return t, nil
}

// partition returns a topic's partition or an error naming both.
func (l *PartitionedLog) partition(topicName string, partition int) (*topic, *partition, error) {
	t, err := l.topic(topicName)
	if err != nil {
		return nil, nil, err
	}
	if partition < 0 || partition >= len(t.partitions) {
		return nil, nil, fmt.Errorf("partition %d does not exist: topic %q has partitions 0..%d", partition, topicName, len(t.partitions)-1)
	}
	return t, t.partitions[partition], nil
}

// nextRetentionCheck returns when the next retention check that could delete
// something runs: the first check of the schedule (retentionSchedule) after
// now, or a later one when no segment can expire before then. Skipping the
// checks that would find nothing keeps a long Advance fast; the result is
// the same.
func (l *PartitionedLog) nextRetentionCheck() int64 {
	first, interval := l.retentionSchedule()
	return nextTick(l.now, l.retentionWakeupOf(l.retentionChecks), first, interval)
}
