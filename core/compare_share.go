package core

import (
	"fmt"
	"slices"
	"strconv"

	"plog/core/units"
)

// CompareShareConsumer runs one workload through a consumer group and a
// share group side by side, each on its own copy of the engine, with the
// share group's running members and subscriptions: who got which record,
// in which order, and what a crash of one member costs each. The real
// groups do not change.
//
// Each run follows the engine's own rules, nothing modelled apart:
//
//   - the consumer group (groups.go; Kafka 4.4's classic protocol under the
//     scenario's rules): each partition belongs to one member, which reads
//     it in offset order; a crashed member keeps its partitions until its
//     session times out (session.timeout.ms), the group then rebalances,
//     and the partitions' new owners read again from the committed offset
//     (auto-commit, every auto.commit.interval.ms), so what the crashed
//     member read since is delivered twice;
//   - the share group (share.go, share_partition.go; Kafka 4.4's
//     SharePartition): every member reads every partition it is assigned,
//     more members than partitions all get records, each record is lent
//     to one member under a lock; a crashed member's records come back
//     when their locks expire (share.record.lock.duration.ms, the share
//     group's own) and go to whoever polls next, delivered a second time.
//
// Both groups start at the log end, their positions (the consumer group's
// committed offsets, the share group's SPSO) at the records that follow,
// as groups that had run a while would; the workload is then produced,
// Records keyless records spread over the subscribed partitions in turn,
// and each running member polls PollMax records every PollIntervalMs, the
// share group's members in implicit mode, the consumer group's processing
// what a poll returned before the next (at-least-once): in both a record
// is done with when the member that got it polls again. With Crash, that
// member crashes right after its CrashAfterPolls-th poll, before it
// processes what it got. A run ends when every record is done with, or at
// the comparison's bounds.
func (l *PartitionedLog) CompareShareConsumer(shareGroup string, w ShareWorkload) (ShareComparison, error) {
	g, err := l.shareGroup(shareGroup)
	if err != nil {
		return ShareComparison{}, err
	}
	out := ShareComparison{Group: shareGroup}
	topics := map[string]bool{}
	for _, m := range g.members {
		if m.crashedAt < 0 {
			out.Members = append(out.Members, m.name)
			for _, t := range m.topics {
				topics[t] = true
			}
		}
	}
	if len(out.Members) == 0 {
		return ShareComparison{}, fmt.Errorf("share group %s has no running member: there is no one to run the workload", shareGroup)
	}
	slices.Sort(out.Members)
	for t := range topics {
		if _, err := l.topic(t); err == nil {
			out.Topics = append(out.Topics, t)
		}
	}
	slices.Sort(out.Topics)
	if w, err = w.filled(out.Members); err != nil {
		return ShareComparison{}, err
	}
	out.Workload = w
	subs := map[string][]string{}
	for _, m := range g.members {
		subs[m.name] = m.topics
	}
	for _, kind := range []string{CompareConsumerGroup, CompareShareGroup} {
		run := l.runWorkload(kind, g, out.Members, subs, out.Topics, w)
		if w.Crash != "" && run.Unavailable == "" {
			calm := w
			calm.Crash = ""
			base := l.runWorkload(kind, g, out.Members, subs, out.Topics, calm)
			if base.Done && run.Done {
				run.CrashCostMs = run.DoneMs - base.DoneMs
				run.CostKnown = true
			}
			run.CrashFreeDoneMs = base.DoneMs
		}
		if kind == CompareConsumerGroup {
			out.Consumer = run
		} else {
			out.Share = run
		}
	}
	return out, nil
}

// The two groups a workload runs through.
const (
	CompareConsumerGroup = "consumer"
	CompareShareGroup    = "share"
)

// ShareWorkload is the workload of a comparison, and the crash in it.
type ShareWorkload struct {
	Records        int   // how many records; 0: DefaultShareWorkloadRecords
	PollMax        int   // the most records one poll returns; 0: DefaultShareWorkloadPollMax
	PollIntervalMs int64 // how often each member polls; 0: DefaultShareWorkloadPollMs
	// Crash is the member that crashes, "" for none; it crashes right
	// after its CrashAfterPolls-th poll (0: its first).
	Crash           string
	CrashAfterPolls int
}

// The workload's defaults and bounds.
const (
	DefaultShareWorkloadRecords = 12
	DefaultShareWorkloadPollMax = 2
	DefaultShareWorkloadPollMs  = 1000
	maxShareWorkloadRecords     = 200
	maxShareWorkloadPollMax     = 100
	maxShareWorkloadMs          = 30 * minuteMs
	maxShareWorkloadRounds      = 5000
)

// filled checks a workload and fills in its defaults.
func (w ShareWorkload) filled(members []string) (ShareWorkload, error) {
	if w.Records == 0 {
		w.Records = DefaultShareWorkloadRecords
	}
	if w.PollMax == 0 {
		w.PollMax = DefaultShareWorkloadPollMax
	}
	if w.PollIntervalMs == 0 {
		w.PollIntervalMs = DefaultShareWorkloadPollMs
	}
	if w.CrashAfterPolls == 0 {
		w.CrashAfterPolls = 1
	}
	switch {
	case w.Records < 1 || w.Records > maxShareWorkloadRecords:
		return w, fmt.Errorf("the workload has 1 to %d records, not %d", maxShareWorkloadRecords, w.Records)
	case w.PollMax < 1 || w.PollMax > maxShareWorkloadPollMax:
		return w, fmt.Errorf("a poll returns 1 to %d records, not %d", maxShareWorkloadPollMax, w.PollMax)
	case w.PollIntervalMs < minReplayPollMs || w.PollIntervalMs > maxReplayPollMs:
		return w, fmt.Errorf("the members poll every %s to %s, not %s", units.Duration(minReplayPollMs), units.Duration(maxReplayPollMs), units.Duration(w.PollIntervalMs))
	case w.CrashAfterPolls < 1 || w.CrashAfterPolls > maxShareWorkloadRecords:
		return w, fmt.Errorf("the member crashes after its 1st to %dth poll, not %d", maxShareWorkloadRecords, w.CrashAfterPolls)
	case w.Crash != "" && !slices.Contains(members, w.Crash):
		return w, fmt.Errorf("%s is not a running member of the share group: the one that crashes must be", w.Crash)
	}
	return w, nil
}

// ShareComparison is one workload through both groups.
type ShareComparison struct {
	Group    string
	Members  []string // the running members, sorted
	Topics   []string // their subscriptions, sorted
	Workload ShareWorkload
	Consumer WorkloadRun
	Share    WorkloadRun
}

// WorkloadRun is what one group did with the workload.
type WorkloadRun struct {
	Kind string // CompareConsumerGroup or CompareShareGroup
	// Unavailable says why the run could not be made; the rest is then
	// empty.
	Unavailable string
	Records     int // the records produced
	// Deliveries are every record a poll returned, in the order the
	// members got them.
	Deliveries []WorkloadDelivery
	// Done says every record was done with (its member polled again),
	// DoneMs when, after the workload was produced.
	Done   bool
	DoneMs int64
	// Redelivered counts the deliveries of a record delivered before.
	Redelivered int
	// CrashAtMs is when the member crashed; StalledMs how long, from then,
	// the crashed member's work waited before another member got it: a
	// record of a partition it owned (consumer group), or one of the
	// records it held (share group); StallKnown says that happened.
	CrashAtMs  int64
	StalledMs  int64
	StallKnown bool
	// CrashCostMs is how much later the run was done than the same
	// workload without the crash (CrashFreeDoneMs); CostKnown says both
	// were done.
	CrashCostMs     int64
	CrashFreeDoneMs int64
	CostKnown       bool
}

// WorkloadDelivery is one record a poll returned.
type WorkloadDelivery struct {
	AtMs   int64 // after the workload was produced
	Member string
	TopicPartition
	Offset int64
	// Delivery counts this record's deliveries so far: 1 the first.
	Delivery int
	// Done says the member polled again after it, so processed it (the
	// consumer group) or accepted it (the share group); a crashed member's
	// last records are not.
	Done bool
}

// runWorkload runs the workload through one kind of group on a copy of
// the engine that has no other group.
func (l *PartitionedLog) runWorkload(kind string, sg *shareGroup, members []string, subs map[string][]string, topics []string, w ShareWorkload) WorkloadRun {
	c := l.Clone()
	c.groups.groups, c.groups.names = nil, nil
	c.shares = shareGroups{}
	c.DrainEvents()
	run := WorkloadRun{Kind: kind, Records: w.Records}
	r := &workloadRunner{l: c, kind: kind, group: sg.name, members: members, w: w}
	if err := r.setUp(sg, subs); err != nil {
		run.Unavailable = err.Error()
		return run
	}
	if err := r.produce(topics); err != nil {
		run.Unavailable = "the workload cannot be produced: " + err.Error()
		return run
	}
	r.run(&run)
	return run
}

// workloadRunner is one run of a comparison.
type workloadRunner struct {
	l       *PartitionedLog
	kind    string
	group   string
	members []string
	w       ShareWorkload
	startAt int64
	// pending are the records produced, by partition and offset, that no
	// member is done with yet.
	pending map[TopicPartition]map[int64]bool
	left    int
	// last is each member's last poll, as indexes into the deliveries.
	last    map[string][]int
	polls   map[string]int
	crashed map[string]bool
}

// setUp makes the group of its kind with the share group's members and
// subscriptions, and brings it to rest at the log end.
func (r *workloadRunner) setUp(sg *shareGroup, subs map[string][]string) error {
	l := r.l
	r.last, r.polls, r.crashed = map[string][]int{}, map[string]int{}, map[string]bool{}
	if r.kind == CompareShareGroup {
		for _, m := range r.members {
			if err := l.ShareJoin(r.group, m, ShareJoinOptions{Topics: subs[m], AckMode: AckModeImplicit, MaxPollRecords: r.w.PollMax}); err != nil {
				return err
			}
		}
		g := l.shares.lookup(r.group)
		g.cfg = sg.cfg.clone()
		g.cfg.AutoOffsetReset = ShareResetLatest
		for _, m := range r.members {
			if _, err := l.SharePoll(r.group, m, r.w.PollMax); err != nil {
				return err
			}
		}
		return nil
	}
	for _, kv := range [][2]string{{"auto.offset.reset", "latest"}, {"enable.auto.commit", "true"}} {
		if err := l.SetGroupConfig(r.group, kv[0], kv[1]); err != nil {
			return err
		}
	}
	for _, m := range r.members {
		if err := l.Join(r.group, m, JoinOptions{Topics: subs[m]}); err != nil {
			return err
		}
	}
	g := l.groups.groups[r.group]
	for range maxShareWorkloadRounds {
		if err := l.Advance(r.w.PollIntervalMs); err != nil {
			return err
		}
		for _, m := range r.members {
			_, _ = l.Poll(r.group, m, r.w.PollMax)
		}
		if g.settled() && g.state() == GroupStable {
			for _, m := range r.members {
				if err := l.Commit(r.group, m); err != nil {
					return err
				}
			}
			return nil
		}
	}
	return fmt.Errorf("the consumer group did not settle within %d polls", maxShareWorkloadRounds)
}

// produce appends the workload, keyless records to the subscribed
// partitions in turn, at the clock's time.
func (r *workloadRunner) produce(topics []string) error {
	l := r.l
	var tps []TopicPartition
	for _, t := range topics {
		n, _ := l.Partitions(t)
		for p := range n {
			tps = append(tps, TopicPartition{Topic: t, Partition: p})
		}
	}
	if len(tps) == 0 {
		return fmt.Errorf("the members subscribe to no partition")
	}
	r.pending = map[TopicPartition]map[int64]bool{}
	for i := range r.w.Records {
		tp := tps[i%len(tps)]
		res, err := l.Produce(ProduceRequest{Topic: tp.Topic, Partition: tp.Partition, Value: "w" + strconv.Itoa(i+1)})
		if err != nil {
			return err
		}
		if r.pending[tp] == nil {
			r.pending[tp] = map[int64]bool{}
		}
		r.pending[tp][res.Offset] = true
	}
	r.left = r.w.Records
	r.startAt = l.now
	return nil
}

// run polls round after round until every record is done with.
func (r *workloadRunner) run(run *WorkloadRun) {
	l := r.l
	count := map[TopicPartition]map[int64]int{}
	var crashAt int64 = -1
	var held map[TopicPartition]map[int64]bool // the crashed member's: partitions (consumer) or records (share)
	for round := 0; round < maxShareWorkloadRounds && r.left > 0 && l.now-r.startAt < maxShareWorkloadMs; round++ {
		if err := l.Advance(r.w.PollIntervalMs); err != nil {
			run.Unavailable = err.Error()
			return
		}
		for _, m := range r.members {
			if r.crashed[m] {
				continue
			}
			got := r.poll(m)
			// The member's last poll is done with: it polled again.
			for _, i := range r.last[m] {
				d := &run.Deliveries[i]
				d.Done = true
				if r.pending[d.TopicPartition][d.Offset] {
					delete(r.pending[d.TopicPartition], d.Offset)
					r.left--
				}
			}
			r.last[m] = nil
			for _, d := range got {
				if count[d.TopicPartition] == nil {
					count[d.TopicPartition] = map[int64]int{}
				}
				count[d.TopicPartition][d.Offset]++
				d.Delivery = count[d.TopicPartition][d.Offset]
				d.AtMs = l.now - r.startAt
				if d.Delivery > 1 {
					run.Redelivered++
				}
				if crashAt >= 0 && !run.StallKnown && held[d.TopicPartition] != nil &&
					(r.kind == CompareConsumerGroup || held[d.TopicPartition][d.Offset]) {
					run.StalledMs, run.StallKnown = d.AtMs-crashAt, true
				}
				r.last[m] = append(r.last[m], len(run.Deliveries))
				run.Deliveries = append(run.Deliveries, d)
			}
			r.polls[m]++
			if m == r.w.Crash && r.polls[m] == r.w.CrashAfterPolls {
				held = r.holding(m, run)
				r.crash(m)
				crashAt = l.now - r.startAt
				run.CrashAtMs = crashAt
			}
		}
	}
	run.Done = r.left == 0
	if run.Done {
		// Done with at the last round's polls.
		run.DoneMs = l.now - r.startAt
	}
}

// poll is one member's poll, its records as deliveries.
func (r *workloadRunner) poll(member string) []WorkloadDelivery {
	var out []WorkloadDelivery
	if r.kind == CompareShareGroup {
		got, _ := r.l.SharePoll(r.group, member, r.w.PollMax)
		for _, p := range got {
			out = append(out, WorkloadDelivery{Member: member, TopicPartition: p.TopicPartition, Offset: p.Offset})
		}
		return out
	}
	// A refused poll (a rebalance under way that the member rejoins in
	// it, with nothing to give) is what the member would meet.
	got, _ := r.l.Poll(r.group, member, r.w.PollMax)
	for _, d := range got {
		out = append(out, WorkloadDelivery{Member: member, TopicPartition: TopicPartition{Topic: d.Topic, Partition: d.Partition}, Offset: d.Record.Offset})
	}
	return out
}

// holding is what a member's crash leaves waiting: in a consumer group
// its partitions, in a share group the records its last poll returned.
func (r *workloadRunner) holding(member string, run *WorkloadRun) map[TopicPartition]map[int64]bool {
	held := map[TopicPartition]map[int64]bool{}
	if r.kind == CompareConsumerGroup {
		if m := r.l.groups.groups[r.group].member(member); m != nil {
			for _, tp := range m.assigned {
				held[tp] = map[int64]bool{}
			}
		}
		return held
	}
	for _, i := range r.last[member] {
		d := run.Deliveries[i]
		if held[d.TopicPartition] == nil {
			held[d.TopicPartition] = map[int64]bool{}
		}
		held[d.TopicPartition][d.Offset] = true
	}
	return held
}

func (r *workloadRunner) crash(member string) {
	r.crashed[member] = true
	r.last[member] = nil
	if r.kind == CompareShareGroup {
		_ = r.l.ShareCrash(r.group, member)
		return
	}
	_ = r.l.Crash(r.group, member)
}
