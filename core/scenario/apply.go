package scenario

import (
	"fmt"
	"maps"
	"slices"

	"plog/core"
)

// Event kinds the session adds to the engine's.
const (
	// EventError reports a failure: a command that was refused (Detail is
	// the message), or a workload that stopped.
	EventError core.EventKind = "error"
	// EventRevoked and EventAssigned follow a rebalance-done event, one per
	// partition a member lost or gained in that round (Group, Member,
	// Topic, Partition, Generation), so the page can animate the move.
	EventRevoked  core.EventKind = "revoked"
	EventAssigned core.EventKind = "assigned"
)

// workLimitError is the error of a command that takes the scenario's work
// past MaxWork.
type workLimitError struct{ before int64 }

func (e workLimitError) Error() string {
	return fmt.Sprintf("this command takes the scenario past its limit of %d units of work "+
		"(one per command, record produced or delivered and event, %d per poll, one per replica for a broker command or a topic's config change and per %d replicas for an advance, "+
		"one per partition for a transaction's send-offsets and per key of a zipf workload's table, over all its commands); "+
		"the commands before it had done %d", MaxWork, PollWork, ReplicasPerAdvanceWork, e.before)
}

// meter counts the work the engine tells of as it does it (core's
// SetWorkMeter), before it does it. Work past MaxWork stops the engine
// there: the meter panics with the limit's error, which Session.step turns
// back into that error, and the session goes back to the last good step
// (the world the engine was changing is dropped). It lets the page's
// browser run every so often, as spend does, so that a long call does not
// hold the page.
func (w *world) meter(units int64) {
	before := w.work
	if units > MaxWork-w.work {
		panic(workLimitError{before: w.workBefore})
	}
	afterLong := w.longWork
	w.longWork = units >= pauseEvery
	if w.longWork {
		// A piece of work that long (an assignment over thousands of
		// partitions) cannot pause inside: let the browser run first, so
		// that it does not add to what came before, and again at the next
		// step, so that what follows it does not add to it.
		w.breathe(true)
	}
	w.work += units
	w.ticks++
	w.breathe(afterLong || crosses(before, w.work, pauseEvery) || w.ticks%pauseTicks == 0)
}

// breathe calls pause, if the world has one and now is the time.
func (w *world) breathe(now bool) {
	if now && w.pause != nil {
		w.pause()
	}
}

// crosses says whether a count going from before to after passes a
// multiple of every.
func crosses(before, after, every int64) bool { return before/every != after/every }

// pauseTicks is how many of the engine's steps pass between two calls of
// world.pause from the meter: a few milliseconds of work at most. A step
// is a heartbeat, a send, a retention pass: a member's heartbeat in a
// group over 10,000 partitions is a millisecond in the browser, and 256 of
// them held the page for a quarter of a second. pause itself only reads
// the clock unless it is time to yield.
const pauseTicks = 16

// spend counts n units of work, and refuses them when they would take the
// scenario past MaxWork; the session then goes back to the last good step.
func (w *world) spend(n int64) error {
	if n > MaxWork-w.work {
		return workLimitError{before: w.workBefore}
	}
	w.breathe(crosses(w.work, w.work+n, pauseEvery))
	w.work += n
	return nil
}

// MaxTotalPartitions bounds the partitions of all topics together, so that a
// script of many large topics cannot exhaust the page's memory.
const MaxTotalPartitions = 10_000

// defaultPollMax is max.poll.records' default in Kafka's Java client.
const defaultPollMax = 500

// world is everything a script's fold produces: the engine and the running
// workloads. Checkpoints hold clones of it.
type world struct {
	log      *core.PartitionedLog
	loads    []workload // running workloads, in the order they started
	produced int64      // records produced so far, by commands and workloads
	// compacted counts the records the compact commands found in their
	// topics, the cleaner's work so far (MaxCompactedRecords).
	compacted int64
	// work counts the scenario's work so far (MaxWork), and workBefore
	// what it was before the command being applied, for the error.
	work, workBefore int64
	// tables counts the bytes the workloads' tables took (memory.go): it
	// never goes down, as a checkpoint may hold a stopped workload's.
	tables int64
	errors []core.Event // workload failures since the last drain
	// answers are the learner's answers to a lesson's questions, by
	// question (CmdAnswer); a new answer copies the map, so clones share
	// it.
	answers map[string]string
	// lag samples the lag while the command the session applies advances
	// the clock; nil otherwise (replays, clones).
	lag *lagSampler

	// pause, when set, is called every pauseEvery units of work and
	// pauseTicks steps the engine tells of (meter), so that the page can
	// let the browser breathe in a long command. It changes nothing in
	// the world.
	pause    func()
	ticks    int64 // the engine's steps the meter was told of
	longWork bool  // the last step the meter was told of was pauseEvery or more
	reserved int64 // bytes reserved for records and tables, for pause
}

// pauseEvery is how much work passes between two calls of world.pause: a
// few tens of milliseconds in the browser.
const pauseEvery = 1 << 14

func newWorld(seed int64, rules int) *world {
	l := core.NewPartitionedLog(seed)
	_ = l.UseRules(rules) // the session checks rules before it makes a world with them
	return &world{log: l}
}

// clone returns an independent copy.
func (w *world) clone(breathe func()) *world {
	return &world{
		log:        w.log.CloneBreathing(breathe),
		loads:      slices.Clone(w.loads),
		produced:   w.produced,
		compacted:  w.compacted,
		work:       w.work,
		workBefore: w.workBefore,
		tables:     w.tables,
		errors:     slices.Clone(w.errors),
		answers:    w.answers,
	}
}

// drainEvents returns the engine's events and the workload errors since the
// last drain, in time order (stable, so the engine's own order is kept).
// Each counts as a unit of work: the session refuses the command whose
// events take the work past MaxWork.
func (w *world) drainEvents() []core.Event {
	events := w.drainAll()
	w.work += int64(len(events))
	return events
}

// drainAll is drainEvents before the events are counted.
func (w *world) drainAll() []core.Event {
	events := w.withMoves(lastClockAdvance(w.log.DrainEvents()))
	if len(w.errors) > 0 {
		events = append(events, w.errors...)
		w.errors = nil
		slices.SortStableFunc(events, func(a, b core.Event) int {
			switch {
			case a.Time < b.Time:
				return -1
			case a.Time > b.Time:
				return 1
			}
			return 0
		})
	}
	return events
}

// lastClockAdvance keeps only the last clock-advanced event: an advance
// with workloads moves the engine's clock in many steps, but it is one
// move of the clock to the command's reader.
func lastClockAdvance(events []core.Event) []core.Event {
	last := -1
	for i, e := range events {
		if e.Kind == core.EventClockAdvanced {
			last = i
		}
	}
	kept := events[:0]
	for i, e := range events {
		if e.Kind != core.EventClockAdvanced || i == last {
			kept = append(kept, e)
		}
	}
	return kept
}

// withMoves inserts after each rebalance-done event the partitions each
// member lost and gained, from the group's rebalance history.
func (w *world) withMoves(events []core.Event) []core.Event {
	var out []core.Event
	for i, e := range events {
		if e.Kind != core.EventRebalanceDone {
			if out != nil {
				out = append(out, e)
			}
			continue
		}
		if out == nil {
			out = append(make([]core.Event, 0, len(events)+8), events[:i]...)
		}
		out = append(out, e)
		v, err := w.log.Group(e.Group)
		if err != nil {
			continue
		}
		for _, r := range v.History {
			if r.Generation != e.Generation || r.CompletedAt != e.Time {
				continue
			}
			for _, m := range r.Members {
				for _, tp := range m.Revoked {
					out = append(out, core.Event{Kind: EventRevoked, Time: e.Time, Group: e.Group, Member: m.Member, Topic: tp.Topic, Partition: tp.Partition, Generation: e.Generation})
				}
				for _, tp := range m.Assigned {
					out = append(out, core.Event{Kind: EventAssigned, Time: e.Time, Group: e.Group, Member: m.Member, Topic: tp.Topic, Partition: tp.Partition, Generation: e.Generation})
				}
			}
		}
	}
	if out == nil {
		return events
	}
	return out
}

// replicas counts the replicas of every partition (one for a partition of
// replication.factor=1): what an advance, a broker command and a topic's
// config change go through, for MaxWork.
func (w *world) replicas() int64 {
	var n int64
	for _, t := range w.log.TopicNames() {
		p, _ := w.log.Partitions(t)
		cfg, _ := w.log.TopicConfig(t)
		n += int64(p) * max(cfg.ReplicationFactor, 1)
	}
	return n
}

// totalPartitions counts the partitions of every topic.
func (w *world) totalPartitions() int {
	n := 0
	for _, t := range w.log.TopicNames() {
		p, _ := w.log.Partitions(t)
		n += p
	}
	return n
}

// apply runs one command. step is its 0-based place in the script (seed
// must come first). On error the world may be part-changed: the session
// restores it from a checkpoint.
func (w *world) apply(c Command, step int) error {
	w.workBefore = w.work
	if err := w.spend(1); err != nil {
		return err
	}
	if w.shareCommand(c) {
		return w.applyShareCommand(c)
	}
	switch c.Name {
	case CmdSeed:
		if step != 0 {
			return fmt.Errorf("seed must be the first command: it chooses every random draw from the start")
		}
		n, err := c.CountAt(0)
		if err != nil {
			return err
		}
		*w = *newWorld(n, w.log.Rules())
		return nil
	case CmdRules:
		// The session reads the rules line (Session.UseRules): it is
		// the scenario's, not a step of its history.
		return fmt.Errorf("rules must come first, or right after seed: a scenario runs under one version of the rules from its start")
	case CmdTopic:
		return w.createTopic(c)
	case CmdProduce:
		return w.produce(c)
	case CmdAdvance:
		ms, err := c.DurationAt(0)
		if err != nil {
			return err
		}
		if err := w.spend(w.replicas() / ReplicasPerAdvanceWork); err != nil {
			return err
		}
		return w.advanceWithWorkloads(ms)
	case CmdPartitions:
		return w.addPartitions(c)
	case CmdConfig:
		if c.Positional(0) == "group" {
			return w.configGroup(c)
		}
		if err := w.spend(w.replicas()); err != nil { // it changes a copy of the whole log
			return err
		}
		return w.configTopic(c)
	case CmdTruncate:
		topic, partition, before, err := c.PartitionOffset(0, "before")
		if err != nil {
			return err
		}
		return w.log.Truncate(topic, partition, before)
	case CmdCompact:
		return w.compact(c.Positional(0))
	case CmdProducer:
		return w.startProducer(c)
	case CmdConsumer:
		return w.startConsumer(c)
	case CmdStop:
		return w.stop(c)
	case CmdAnswer:
		// The last answer to a question is the learner's answer.
		w.answers = maps.Clone(w.answers)
		if w.answers == nil {
			w.answers = map[string]string{}
		}
		w.answers[c.Positional(0)] = c.Positional(1)
		return nil
	case CmdBrokers, CmdBroker:
		if err := w.spend(w.replicas()); err != nil {
			return err
		}
		return w.applyBrokerCommand(c)
	}
	if handled, err := w.applyProducerCommand(c); handled {
		return err
	}
	return w.applyGroupCommand(c)
}

func (w *world) addPartitions(c Command) error {
	count, err := c.Count("count")
	if err != nil {
		return err
	}
	current, err := w.log.Partitions(c.Positional(0))
	if err != nil {
		return err
	}
	if int64(w.totalPartitions()-current)+count > MaxTotalPartitions {
		return fmt.Errorf("a scenario may have at most %d partitions over all topics", MaxTotalPartitions)
	}
	return w.log.AddPartitions(c.Positional(0), int(count))
}

// configs returns the command's config=value arguments.
func configs(c Command) map[string]string {
	spec := specByName[c.Name]
	m := map[string]string{}
	for _, a := range c.Args {
		if a.Name == "" || a.Flag {
			continue
		}
		if _, known := findSpec(spec.named, a.Name); !known {
			m[a.Name] = a.Value
		}
	}
	return m
}

func (w *world) createTopic(c Command) error {
	partitions, err := c.CountOr("partitions", 1) // Kafka's num.partitions default
	if err != nil {
		return err
	}
	if int64(w.totalPartitions())+partitions > MaxTotalPartitions {
		return fmt.Errorf("a scenario may have at most %d partitions over all topics", MaxTotalPartitions)
	}
	return w.log.CreateTopic(c.Positional(0), int(partitions), configs(c))
}

// configTopic sets several configs at once, all or none.
func (w *world) configTopic(c Command) error {
	topic := c.Positional(1)
	if _, err := w.log.TopicConfig(topic); err != nil {
		return err
	}
	// Configs are checked against each other and the topic's fixed
	// replication factor on a copy, which replaces the engine only when
	// every one is accepted.
	scratch := w.log.Clone()
	for _, a := range c.Args[2:] {
		if err := scratch.SetTopicConfig(topic, a.Name, a.Value); err != nil {
			return err
		}
	}
	w.log = scratch
	return nil
}

func (w *world) produce(c Command) error {
	count, err := c.CountOr("count", 1)
	if err != nil {
		return err
	}
	partition, err := c.CountOr("partition", -1) // -1: the partitioner chooses
	if err != nil {
		return err
	}
	if w.produced+count > MaxRecords {
		return fmt.Errorf("this produce would take the scenario to %d records; a scenario may produce at most %d (it has produced %d)", w.produced+count, MaxRecords, w.produced)
	}
	if err := w.spend(count); err != nil {
		return err
	}
	req := core.ProduceRequest{Topic: c.Positional(0), Partition: int(partition), Tombstone: c.HasFlag("tombstone")}
	req.Key, req.HasKey = c.Value("key")
	req.Value, _ = c.Value("value")
	req.Acks, _ = c.Value("acks")
	req.Partitioner, _ = c.Value("partitioner")
	if c.Has("producer") || c.Has("values") {
		return w.produceAs(c, req, count) // apply_producers.go
	}
	// Every copy of the record passes the same checks, so if the first is
	// accepted, so are the others.
	for range count {
		if err := w.reserveRecord(&req); err != nil {
			return err
		}
		if _, err := w.log.Produce(req); err != nil {
			return err
		}
		w.produced++
	}
	return nil
}

// compact runs the cleaner on a topic, within the scenario's budget of
// compacted records.
func (w *world) compact(topic string) error {
	counts, err := w.log.PartitionRecordCounts(topic)
	if err != nil {
		return err
	}
	var records int64
	for _, n := range counts {
		records += int64(n)
	}
	if w.compacted+records > MaxCompactedRecords {
		return fmt.Errorf("compacting %s would take the records this scenario's compactions read to %d; a scenario may compact at most %d records in all (it has compacted %d)",
			topic, w.compacted+records, MaxCompactedRecords, w.compacted)
	}
	if err := w.log.Compact(topic); err != nil {
		return err
	}
	w.compacted += records
	return nil
}

func (w *world) findLoad(producer bool, name string) int {
	for i := range w.loads {
		if w.loads[i].producer == producer && w.loads[i].name == name {
			return i
		}
	}
	return -1
}

func (w *world) startProducer(c Command) error {
	name := c.Positional(0)
	if w.findLoad(true, name) >= 0 {
		// One rule for the page and a file: the page's Workloads form,
		// replacing one under a running name, writes the stop line first.
		return fmt.Errorf("producer %s is already running: write stop %s before a new one (the page's Replace producer does)", name, name)
	}
	topic := c.Positional(1)
	if _, err := w.log.Partitions(topic); err != nil {
		return err
	}
	if _, ok := c.Value("partitioner"); ok && !core.Follows(w.log.Rules(), core.BuiltInPartitioner) {
		return fmt.Errorf("a producer's partitioner (partitioner.class) comes with rules 2: under rules %d the topic's partitioner config chooses", w.log.Rules())
	}
	cfg, _ := w.log.TopicConfig(topic)
	if v, _ := c.Value("keys"); cfg.Compacts() && (v == "" || v == "none") {
		return fmt.Errorf("topic %q is compacted (cleanup.policy=%s): a producer to it needs keys", topic, cfg.CleanupPolicy)
	}
	if err := w.checkWorkloads(); err != nil {
		return err
	}
	if v, _ := c.Value("keys"); v == "zipf" {
		// Its table of the keyspace's cumulative weights, built now.
		keyspace, err := workloadKeyspace(c)
		if err != nil {
			return err
		}
		if err := w.reserve(keyspace * zipfRankBytes); err != nil {
			return err
		}
		if err := w.spend(keyspace); err != nil {
			return err
		}
		w.tables += keyspace * zipfRankBytes
	}
	p, err := newProducer(c, w.log.Seed(), w.log.Now(), w.pause)
	if err != nil {
		return err
	}
	p.command = c.String()
	w.loads = append(w.loads, p)
	return nil
}

// checkWorkloads refuses a workload more than MaxWorkloads.
func (w *world) checkWorkloads() error {
	if len(w.loads) >= MaxWorkloads {
		return fmt.Errorf("a scenario may run at most %d workloads at once; stop one first", MaxWorkloads)
	}
	return nil
}

func (w *world) startConsumer(c Command) error {
	if err := w.checkWorkloads(); err != nil {
		return err
	}
	l, err := newConsumer(c, w.log.Now())
	if err != nil {
		return err
	}
	if w.findLoad(false, l.name) >= 0 {
		return fmt.Errorf("consumer %s/%s is already running: write stop %s %s before a new one (the page's Replace consumer does)", l.group, l.member, l.group, l.member)
	}
	if w.log.IsShareGroup(l.group) {
		if err := w.checkShareWorkload(l); err != nil {
			return err
		}
		l.share = true
		if _, ok := c.Value("max"); !ok {
			l.max = 0 // the member's max.poll.records, as share-poll
		}
	} else if err := w.checkMember(l.group, l.member); err != nil {
		return err
	}
	l.command = c.String()
	w.loads = append(w.loads, l)
	return nil
}

func (w *world) stop(c Command) error {
	producer, name := true, c.Positional(0)
	if m := c.Positional(1); m != "" {
		producer, name = false, name+" "+m
	}
	i := w.findLoad(producer, name)
	if i < 0 {
		if producer {
			return fmt.Errorf("no producer named %s is running", name)
		}
		return fmt.Errorf("no consumer %s/%s is running", c.Positional(0), c.Positional(1))
	}
	w.loads = slices.Delete(w.loads, i, i+1)
	return nil
}

// stopConsumer ends the consumer workload of a member that left or crashed:
// a member that is gone no longer polls.
func (w *world) stopConsumer(group, member string) {
	if i := w.findLoad(false, group+" "+member); i >= 0 {
		w.loads = slices.Delete(w.loads, i, i+1)
	}
}
