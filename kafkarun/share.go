package kafkarun

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"
)

// This file runs share groups (KIP-932) on the cluster, through franz-go's
// share consumer (kgo.ShareGroup, pkg/kgo/consumer_share.go of franz-go
// 1.22.3), one client per member:
//
//   - share-join: a client with the member's name as client id, fetching
//     only when polled (MaxConcurrentFetches 0) and at most the member's
//     poll size per fetch in record_limit mode (ShareMaxRecordsStrict,
//     KIP-1206), so that a poll acquires what the playground's acquires and
//     no more. The run sets the group's share.record.lock.duration.ms on
//     the cluster to the longest the brokers allow, so that no lock expires
//     by the wall clock within a run, and share.heartbeat.interval.ms as
//     short as they allow, so that members learn their partitions quickly.
//   - share-poll: polls until the records come (or, when the playground's
//     poll found none, until the broker has said so twice), then flushes
//     the acknowledgements; an implicit member's next poll accepts what
//     the last one returned, as franz-go's does. Two things follow the
//     wall clock there, and the run says when they happened
//     (ReasonShareRotation, ReasonSharePrefetch): which of a member's
//     partitions the broker serves first, and one more fetch the client
//     may send as a poll returns.
//   - acknowledge: MarkAcks of the records the playground's member
//     acknowledged, then FlushAcks.
//   - share-leave: an implicit member first accepts what it holds, as
//     KafkaShareConsumer.close does (franz-go's close would release it);
//     then the client closes, which releases the rest.
//   - crash: the client stays connected and stops polling, a hung process.
//   - advance: the playground's locks expire in virtual time; the run
//     releases the same records through their holders' clients (RELEASE,
//     which Kafka 4.4's SharePartition treats as an expired lock: Available
//     again with the delivery count kept, Archived at
//     share.delivery.count.limit), and closes the members whose sessions
//     the playground ended. The conformance suite checks real lock expiry
//     on a broker whose least lock is short.
//   - the comparison: the start offset and lag the admin API reports
//     (DescribeShareGroupOffsets) are the share coordinator's, one write
//     behind the broker's start offset; the playground's prediction of
//     them is core.SharePartitionView.ReportedStartOffset.
//   - config group: the share configs but the lock's and the session's go
//     to the cluster's group configs (IncrementalAlterConfigs, GROUP).

// The reasons share groups' rows may differ.
const (
	ReasonShareInFlight Reason = "Kafka's admin API shows a share-partition's start offset and lag " +
		"(DescribeShareGroupOffsets), not its in-flight records' states, owners, locks or delivery counts"
	ReasonShareRenew Reason = "franz-go's share consumer accepts a renewed record at the next poll, " +
		"where Kafka's KafkaShareConsumer, which the playground follows, returns it again (KIP-1222)"
	ReasonShareFetchSize Reason = "the member polled with differing max: franz-go fixes a share consumer's " +
		"fetch size (ShareMaxRecords) for its life, so a fetch acquired max.poll.records where the playground's poll took max"
	ReasonShareAssignor Reason = "Kafka 4.4's SimpleAssignor walks hash sets of members and partitions; " +
		"the playground walks them in join and partition order, so members that share partitions may share others"
	ReasonShareRotation Reason = "a member with several partitions polled them in another order: Kafka 4.4's broker starts each share fetch " +
		"at a partition that moves on with the share session's epoch (PartitionRotateStrategy.rotateRoundRobin), which every ShareFetch and ShareAcknowledge " +
		"of the client bumps, empty fetches while it waits for records too, so on the wall clock; the playground's moves on once a poll"
	ReasonSharePrefetch Reason = "a member's franz-go client sent one more ShareFetch as its poll returned " +
		"(its poll-driven fetching grants a fetch while the poll is still active), which acquired records no poll asked for: " +
		"a later poll returned those, or the broker counted a delivery the playground's did not"
)

// shareRuns are the run's share groups.
type shareRuns struct {
	groups map[string]*shareRun
	names  []string // in order of first join
	// events are the playground's events of the command being run.
	events []core.Event
	script []scenario.Command
}

// shareRun is one share group on the cluster.
type shareRun struct {
	name, id   string
	members    map[string]*shareMember
	configured []string // group configs the run set on the cluster
	// deliveries are what polls returned, in order, on each side.
	predicted, got []shareDelivery
	// acks counts the records accepted; failed the acknowledgements the
	// broker refused, by partition; archived the playground's.
	predictedAcks, gotAcks     int
	predictedFailed            int
	gotFailed                  atomic.Int64
	predictedArchived          int
	reason                     Reason // set by what the run cannot do alike
	heartbeatSet, configureErr bool
	// unpolled says a topic the group reads gained partitions that the
	// playground, under rules older than 6, gives the members at a poll,
	// a join or a leave alone, where the cluster's members have them at
	// their next heartbeat (ReasonShareNewPartitions).
	unpolled bool
	// prefetched says a member's client acquired records outside a
	// poll (sharePrefetchHook).
	prefetched atomic.Bool
}

type shareMember struct {
	name     string
	client   *kgo.Client
	explicit bool
	fetch    int // the records one fetch acquires
	last     []*kgo.Record
	acked    map[*kgo.Record]bool
	// polling is true from the start of a PollRecords until it takes
	// what a fetch buffered, or returns; fetching counts the client's
	// ShareFetch requests in flight, and sent those it has sent.
	polling  atomic.Bool
	fetching atomic.Int64
	sent     atomic.Int64
	// held counts the records the client buffered and no poll took.
	held atomic.Int64
	// idle, while a poll waits to learn that the broker has nothing for
	// the member, ends the poll at the ShareFetch it waits for
	// (sharePoll).
	idle atomic.Pointer[fetchWatch]
}

// fetchWatch ends a poll once the client has sent its ShareFetch number
// at.
type fetchWatch struct {
	at  int64
	end context.CancelFunc
}

// awaitFetches waits until no ShareFetch of the member's client is in
// flight (a poll's wait at the broker is FetchMaxWait at most), so that
// what one more fetch acquired is buffered, and seen by sharePrefetchHook,
// before the run acknowledges or polls again.
//
// A fetch may also be answered, and buffer its records, before the poll
// that granted it takes what the fetch before buffered, so that the hook
// sees the poll still active: each of a member's fetches acquires what
// one of its polls takes (ShareMaxRecordsStrict), so records still held
// once no fetch is in flight were acquired outside a poll, and the group
// is marked prefetched.
func (m *shareMember) awaitFetches(ctx context.Context, g *shareRun, limit time.Duration) {
	for deadline := time.Now().Add(limit); m.fetching.Load() > 0 && time.Now().Before(deadline) && ctx.Err() == nil; {
		time.Sleep(5 * time.Millisecond)
	}
	if m.fetching.Load() == 0 && m.held.Load() > 0 {
		g.prefetched.Store(true)
	}
}

// sharePrefetchHook tells when a member's client acquired records no poll
// asked for. franz-go's poll-driven share consumer (MaxConcurrentFetches
// 0) grants a fetch whenever a poll is active and none is in flight
// (kgo's manageFetchConcurrency), and a poll takes the buffered records
// before it stops being active: in that window the client may send one
// more ShareFetch, and the broker acquires records for it (a loaded
// machine widens the window). The records a fetch buffers between a
// poll's taking its records and the next poll's start are such a
// fetch's: the group's rows then differ for ReasonSharePrefetch, which
// the run cannot prevent from outside the client.
type sharePrefetchHook struct {
	g *shareRun
	m *shareMember
}

func (h sharePrefetchHook) OnFetchRecordBuffered(*kgo.Record) {
	h.m.held.Add(1)
	if !h.m.polling.Load() {
		h.g.prefetched.Store(true)
	}
}

func (h sharePrefetchHook) OnBrokerWrite(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, err error) {
	if key == shareFetchKey && err == nil {
		h.m.fetching.Add(1)
		if n, w := h.m.sent.Add(1), h.m.idle.Load(); w != nil && n >= w.at {
			w.end()
		}
	}
}

func (h sharePrefetchHook) OnBrokerRead(_ kgo.BrokerMetadata, key int16, _ int, _, _ time.Duration, _ error) {
	if key == shareFetchKey {
		h.m.fetching.Add(-1)
	}
}

var shareFetchKey = kmsg.NewPtrShareFetchRequest().Key()

// OnFetchRecordUnbuffered runs in PollRecords once it took the buffered
// records (kgo's runDeferredFetchHooks), before it returns.
func (h sharePrefetchHook) OnFetchRecordUnbuffered(_ *kgo.Record, polled bool) {
	h.m.held.Add(-1)
	if polled {
		h.m.polling.Store(false)
	}
}

type shareDelivery struct {
	member string
	tp     tp
	offset int64
	count  int
}

func (d shareDelivery) String() string {
	return fmt.Sprintf("%s %s@%d×%d", d.member, d.tp, d.offset, d.count)
}

// Cluster settings the run asks for: locks that outlast a run, heartbeats
// as frequent as the brokers allow (Kafka 4.4's defaults for
// group.share.max.record.lock.duration.ms and
// group.share.min.heartbeat.interval.ms are 60 s and 5 s).
const (
	shareClusterLockMs      = "60000"
	shareClusterHeartbeatMs = "200"
)

// isShareCommand reports whether c is a share group's: the playground has
// applied it already, so crash and config group name a share group there.
func (r *runner) isShareCommand(c scenario.Command) bool {
	switch c.Name {
	case scenario.CmdShareJoin, scenario.CmdSharePoll, scenario.CmdAcknowledge, scenario.CmdShareLeave:
		return true
	case scenario.CmdCrash:
		return r.isShareGroup(c.Positional(0))
	case scenario.CmdConfig:
		return c.Positional(0) == "group" && r.isShareGroup(c.Positional(1))
	}
	return false
}

func (r *runner) isShareGroup(name string) bool {
	_, err := r.session.Log().ShareGroup(name)
	return err == nil
}

func (r *runner) shareGroup(name string) *shareRun {
	if r.shares.groups == nil {
		r.shares.groups = map[string]*shareRun{}
	}
	g, ok := r.shares.groups[name]
	if !ok {
		g = &shareRun{name: name, id: r.opts.Prefix + name, members: map[string]*shareMember{}}
		r.shares.groups[name] = g
		r.shares.names = append(r.shares.names, name)
	}
	return g
}

// applyShare runs one share group command on the cluster.
func (r *runner) applyShare(ctx context.Context, c scenario.Command) error {
	if c.Name == scenario.CmdConfig {
		return r.shareConfig(ctx, r.shareGroup(c.Positional(1)), c)
	}
	g := r.shareGroup(c.Positional(0))
	name := c.Positional(1)
	if c.Name == scenario.CmdShareJoin || c.Name == scenario.CmdSharePoll || c.Name == scenario.CmdShareLeave {
		g.unpolled = false // the playground's group took the new partitions
	}
	switch c.Name {
	case scenario.CmdShareJoin:
		return r.shareJoin(ctx, g, c)
	case scenario.CmdSharePoll:
		return r.sharePoll(ctx, g, g.members[name], c)
	case scenario.CmdAcknowledge:
		return r.shareAcknowledge(ctx, g, g.members[name], c)
	case scenario.CmdShareLeave:
		m := g.members[name]
		if !m.explicit {
			if err := r.shareAck(ctx, g, m, kgo.AckAccept, m.pending()); err != nil {
				return err
			}
		}
		r.shareClose(ctx, g, m)
	case scenario.CmdCrash:
		// A hung member: its client stays connected, heartbeating, and
		// polls no more.
	}
	return nil
}

// ReasonShareNewPartitions: under rules older than 6 the playground's
// share group takes a topic's new partitions at a member's poll.
const ReasonShareNewPartitions Reason = "a topic the share group reads gained partitions and no member polled since: Kafka 4.4's share consumer " +
	"heartbeats on its background thread and gets them at its next heartbeat (ShareHeartbeatRequestManager), " +
	"where the playground under rules 5 and before gives them at the next poll (rules 6 follow Kafka)"

// sharePartitionsAdded follows a topic's new partitions into the share
// groups that read it: under rules 6 the playground's members have them
// at once, and the cluster's at their next heartbeat, which the run waits
// for (settleShare); under older rules the playground's wait for a poll,
// which the group's rows say until one comes (unpolled).
func (r *runner) sharePartitionsAdded(ctx context.Context, topic string) error {
	for _, name := range r.shares.names {
		g := r.shares.groups[name]
		v, err := r.session.Log().ShareGroup(name)
		if err != nil || !slices.ContainsFunc(v.Members, func(m core.ShareMemberView) bool { return slices.Contains(m.Topics, topic) }) {
			continue
		}
		if !core.Follows(r.session.Rules(), core.ShareNewPartitionsAtHeartbeat) {
			g.unpolled = true
			continue
		}
		if err := r.settleShare(ctx, g); err != nil {
			return err
		}
	}
	return nil
}

// shareConfig sets the script's share configs on the cluster's group,
// but for the lock's and the session's (see the file's comment).
func (r *runner) shareConfig(ctx context.Context, g *shareRun, c scenario.Command) error {
	configs := map[string]string{}
	for _, a := range c.Args[2:] {
		switch a.Name {
		case "share.record.lock.duration.ms", "share.session.timeout.ms", "share.heartbeat.interval.ms":
			r.marks.note(fmt.Sprintf("line %d: %s=%s: the playground's; the run keeps its own on the cluster (locks that outlast the run, frequent heartbeats)", c.Line, a.Name, a.Value))
			continue
		}
		d, ok := core.LookupShareConfig(core.OnShareGroup, a.Name)
		if !ok {
			continue
		}
		value := a.Value
		if d.Kind == core.KindDuration {
			ms, err := core.ParseDuration(value)
			if err != nil {
				return err
			}
			value = strconv.FormatInt(ms, 10)
		}
		configs[d.Name] = value
	}
	if len(configs) == 0 {
		return nil
	}
	return r.alterShareConfigs(ctx, g, configs)
}

// alterShareConfigs sets group configs of a share group on the cluster,
// and waits until the brokers have them (setGroupConfigs).
func (r *runner) alterShareConfigs(ctx context.Context, g *shareRun, configs map[string]string) error {
	if err := r.setGroupConfigs(ctx, g.id, configs); err != nil {
		return err
	}
	for name := range configs {
		if !slices.Contains(g.configured, name) {
			g.configured = append(g.configured, name)
		}
	}
	slices.Sort(g.configured)
	return nil
}

// configureShareGroup sets, before the group's first member joins, the
// lock and heartbeat the run needs; a broker whose bounds refuse them
// keeps its own, which the notes say.
func (r *runner) configureShareGroup(ctx context.Context, g *shareRun) {
	if g.heartbeatSet || g.configureErr {
		return
	}
	if err := r.alterShareConfigs(ctx, g, map[string]string{"share.record.lock.duration.ms": shareClusterLockMs}); err != nil {
		r.marks.note(fmt.Sprintf("share group %s: the cluster's locks keep their length (%v): a run longer than a lock sees it expire by the wall clock", g.name, explain(err)))
	}
	if err := r.alterShareConfigs(ctx, g, map[string]string{"share.heartbeat.interval.ms": shareClusterHeartbeatMs}); err != nil {
		g.configureErr = true
		r.marks.note(fmt.Sprintf("share group %s: its members heartbeat at the brokers' interval (%v), so they learn their partitions more slowly", g.name, explain(err)))
		return
	}
	g.heartbeatSet = true
}

// shareJoin starts a member's client and waits until the cluster's group
// has the playground's members and assignment.
func (r *runner) shareJoin(ctx context.Context, g *shareRun, c scenario.Command) error {
	name := c.Positional(1)
	topics, err := c.Names("topics")
	if err != nil {
		return err
	}
	v, err := r.session.Log().ShareGroup(g.name)
	if err != nil {
		return err
	}
	var mv core.ShareMemberView
	for _, m := range v.Members {
		if m.Name == name {
			mv = m
		}
	}
	r.configureShareGroup(ctx, g)
	if err := r.awaitCoordinator(ctx, g.id, topics); err != nil {
		return err
	}
	m := &shareMember{name: name, explicit: mv.AckMode == core.AckModeExplicit, acked: map[*kgo.Record]bool{}}
	m.fetch = r.shareFetchSize(g, c, mv.MaxPoll)
	opts := append([]kgo.Opt{
		kgo.SeedBrokers(r.opts.Brokers...),
		kgo.DialTimeout(r.opts.DialTimeout),
		kgo.RetryTimeout(r.opts.WaitTimeout),
		kgo.ClientID(name),
		kgo.ShareGroup(g.id),
		kgo.ConsumeTopics(r.prefixed(topics)...),
		kgo.ShareMaxRecords(int32(m.fetch)),
		kgo.ShareMaxRecordsStrict(),
		kgo.MaxConcurrentFetches(0),
		kgo.FetchMaxWait(200 * time.Millisecond),
		kgo.WithHooks(sharePrefetchHook{g, m}),
		kgo.ShareAckCallback(func(_ *kgo.Client, results kgo.ShareAckResults) {
			for _, res := range results {
				if res.Err != nil {
					g.gotFailed.Add(1)
				}
			}
		}),
	}, r.opts.ClientOpts...)
	client, err := kgo.NewClient(opts...)
	if err != nil {
		return err
	}
	m.client = client
	g.members[name] = m
	return r.settleShare(ctx, g)
}

// shareFetchSize is the records each of a member's fetches acquires: the
// max of its polls in the script, when they all poll alike, else its
// max.poll.records (and the group's rows may differ for it).
func (r *runner) shareFetchSize(g *shareRun, join scenario.Command, maxPoll int) int {
	sizes := map[int]bool{}
	for _, c := range r.shares.script {
		if c.Line <= join.Line || c.Positional(0) != g.name || c.Positional(1) != join.Positional(1) {
			continue
		}
		if c.Name == scenario.CmdShareLeave || c.Name == scenario.CmdShareJoin {
			break
		}
		if c.Name == scenario.CmdSharePoll {
			n, err := c.CountOr("max", int64(maxPoll))
			if err == nil {
				sizes[int(n)] = true
			}
		}
	}
	switch len(sizes) {
	case 0:
		return maxPoll
	case 1:
		for n := range sizes {
			return n
		}
	}
	g.reason = ReasonShareFetchSize
	return maxPoll
}

// settleShare waits until the cluster's group lists the playground's
// members, each with its partitions. When the partitions still differ
// after WaitTimeout, the group's rows say why (Kafka's SimpleAssignor
// walks hash sets) and later commands wait for its members only.
func (r *runner) settleShare(ctx context.Context, g *shareRun) error {
	v, err := r.session.Log().ShareGroup(g.name)
	if err != nil {
		return err
	}
	want := map[string]string{}
	for _, m := range v.Members {
		want[m.Name] = tpsText(m.Assignment)
	}
	membersOnly := g.reason == ReasonShareAssignor
	var last kadm.DescribedShareGroup
	err = r.waitFor(ctx, fmt.Sprintf("share group %s to have its members and partitions", g.id), func() (bool, error) {
		d, err := r.describeShareGroup(ctx, g)
		if err != nil {
			return false, err
		}
		last = d
		if len(d.Members) != len(want) {
			return false, nil
		}
		for _, m := range d.Members {
			if got, ok := want[m.ClientID]; !ok || !membersOnly && got != r.shareAssignmentText(m.Assignment) {
				return false, nil
			}
		}
		return true, nil
	})
	if err == nil || ctx.Err() != nil || !strings.HasPrefix(err.Error(), "gave up") {
		return err
	}
	if len(last.Members) == len(want) && !membersOnly {
		if g.reason == "" {
			g.reason = ReasonShareAssignor
		}
		var parts []string
		for _, m := range last.Members {
			parts = append(parts, m.ClientID+" "+r.shareAssignmentText(m.Assignment))
		}
		r.marks.note(fmt.Sprintf("share group %s: the cluster's coordinator assigned %s", g.name, strings.Join(parts, ", ")))
		return nil
	}
	return err
}

func (r *runner) describeShareGroup(ctx context.Context, g *shareRun) (kadm.DescribedShareGroup, error) {
	described, err := r.admin.DescribeShareGroups(ctx, g.id)
	if err != nil {
		return kadm.DescribedShareGroup{}, err
	}
	d := described[g.id]
	if d.Err != nil && !isGroupGone(d.Err) {
		return d, d.Err
	}
	return d, nil
}

// tpsText writes partitions as orders/0,1 audit/2.
func tpsText(tps []core.TopicPartition) string {
	var out []scenario.AssignmentState
	for _, t := range tps {
		if len(out) == 0 || out[len(out)-1].Topic != t.Topic {
			out = append(out, scenario.AssignmentState{Topic: t.Topic})
		}
		out[len(out)-1].Partitions = append(out[len(out)-1].Partitions, t.Partition)
	}
	return assignmentText(out)
}

// shareAssignmentText writes the cluster's assignment, unprefixed, as
// tpsText does.
func (r *runner) shareAssignmentText(set kadm.TopicsSet) string {
	var tps []core.TopicPartition
	for topic, ps := range set {
		for p := range ps {
			tps = append(tps, core.TopicPartition{Topic: strings.TrimPrefix(topic, r.opts.Prefix), Partition: int(p)})
		}
	}
	slices.SortFunc(tps, func(a, b core.TopicPartition) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		return a.Partition - b.Partition
	})
	return tpsText(tps)
}

// pending are the records of the member's last poll the run has not
// acknowledged.
func (m *shareMember) pending() []*kgo.Record {
	var out []*kgo.Record
	for _, rec := range m.last {
		if !m.acked[rec] {
			out = append(out, rec)
		}
	}
	return out
}

// sharePoll polls a member as the playground's poll did: until records
// come, when the playground's came with some, or until the broker has
// twice answered that it has none, when it found none.
func (r *runner) sharePoll(ctx context.Context, g *shareRun, m *shareMember, c scenario.Command) error {
	expected, first := 0, len(g.predicted)
	for _, e := range r.shares.events {
		switch {
		case e.Group != g.name:
		case e.Kind == core.EventSharePolled:
			expected = e.Count
		case e.Kind == core.EventShareAcquired:
			g.predicted = append(g.predicted, shareDelivery{member: e.Member, tp: tp{e.Topic, e.Partition}, offset: e.Offset, count: e.Count})
		}
	}
	if err := r.settleShare(ctx, g); err != nil {
		return err
	}
	if !m.explicit {
		g.gotAcks += len(m.pending())
	}
	n, err := c.CountOr("max", int64(m.fetch))
	if err != nil {
		return err
	}
	m.awaitFetches(ctx, g, r.opts.WaitTimeout)
	deadline := time.Now().Add(r.opts.WaitTimeout)
	var got []*kgo.Record
	for {
		pollCtx, cancel := context.WithDeadline(ctx, deadline)
		if expected == 0 {
			// The playground's poll found nothing: the cluster's ends
			// once its broker has said the same, twice. franz-go's
			// poll-driven share consumer sends a ShareFetch only once
			// the one before it was answered and what it held taken
			// (kgo's loopShareFetch), and Kafka 4.4's broker answers a
			// fetch that finds nothing to acquire after its MaxWait
			// (DelayedShareFetch): the poll's third ShareFetch going out
			// says two came back empty. Twice, because the first fetch
			// of a share-partition starts initializing it
			// (SharePartition.maybeInitialize, which reads the start
			// offset then) and may come back before that is done.
			m.idle.Store(&fetchWatch{at: m.sent.Load() + 3, end: cancel})
		}
		m.polling.Store(true)
		fetches := m.client.PollRecords(pollCtx, int(n))
		m.idle.Store(nil)
		m.polling.Store(false)
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var errs []error
		fetches.EachError(func(_ string, _ int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				errs = append(errs, err)
			}
		})
		if len(errs) > 0 {
			return fmt.Errorf("share-poll %s %s: %v", g.id, m.name, errors.Join(errs...))
		}
		got = fetches.Records()
		if len(got) > 0 || expected == 0 || time.Now().After(deadline) {
			break
		}
	}
	if err := m.client.FlushAcks(ctx); err != nil {
		return err
	}
	m.last, m.acked = got, map[*kgo.Record]bool{}
	var polled []shareDelivery
	for _, rec := range got {
		polled = append(polled, shareDelivery{member: m.name, tp: tp{strings.TrimPrefix(rec.Topic, r.opts.Prefix), int(rec.Partition)}, offset: rec.Offset, count: int(rec.DeliveryCount())})
	}
	// The order of one poll's partitions is the broker's fetch order on
	// the cluster: both sides' are sorted by partition and offset.
	sortDeliveries(polled)
	sortDeliveries(g.predicted[first:])
	if g.reason == "" && r.sharePartitions(g, m.name) > 1 && !slices.Equal(partitionsOf(polled), partitionsOf(g.predicted[first:])) {
		g.reason = ReasonShareRotation
		r.marks.note(fmt.Sprintf("line %d: %s: the cluster's broker served %s's partitions from another one than the playground's (its share session's epoch)", c.Line, c, m.name))
	}
	if g.reason == "" && g.prefetched.Load() {
		g.reason = ReasonSharePrefetch
		r.marks.note(fmt.Sprintf("line %d: %s: a client of share group %s had acquired records outside a poll", c.Line, c, g.name))
	}
	g.got = append(g.got, polled...)
	return nil
}

// sharePartitions counts the partitions the playground's member is
// assigned.
func (r *runner) sharePartitions(g *shareRun, member string) int {
	v, err := r.session.Log().ShareGroup(g.name)
	if err != nil {
		return 0
	}
	for _, m := range v.Members {
		if m.Name == member {
			return len(m.Assignment)
		}
	}
	return 0
}

// partitionsOf lists the partitions of sorted deliveries, each once.
func partitionsOf(ds []shareDelivery) []tp {
	var out []tp
	for _, d := range ds {
		if len(out) == 0 || out[len(out)-1] != d.tp {
			out = append(out, d.tp)
		}
	}
	return out
}

func sortDeliveries(ds []shareDelivery) {
	slices.SortFunc(ds, func(a, b shareDelivery) int {
		if c := compareTP(a.tp, b.tp); c != 0 {
			return c
		}
		return int(a.offset - b.offset)
	})
}

// shareEvents keeps the playground's events of the command being run, for
// the share commands to follow, and counts its share groups'
// acknowledgements, refusals and archivals.
func (r *runner) shareEvents(events []core.Event) {
	r.shares.events = events
	for _, e := range events {
		g, ok := r.shares.groups[e.Group]
		if !ok {
			continue
		}
		switch e.Kind {
		case core.EventShareAcknowledged:
			g.predictedAcks++
		case core.EventShareAckFailed:
			g.predictedFailed++
		case core.EventShareArchived:
			g.predictedArchived++
		}
	}
}

// shareAcknowledge acknowledges the records the playground's member
// acknowledged with this command.
func (r *runner) shareAcknowledge(ctx context.Context, g *shareRun, m *shareMember, c scenario.Command) error {
	status := map[string]kgo.AckStatus{core.AckAccept: kgo.AckAccept, core.AckRelease: kgo.AckRelease, core.AckReject: kgo.AckReject, core.AckRenew: kgo.AckRenew}[c.Positional(2)]
	if status == kgo.AckRenew {
		g.reason = ReasonShareRenew
	}
	var offsets []int64
	var only *tp
	if c.Positional(3) != "" {
		topic, p, err := c.TopicPartitionAt(3)
		if err != nil {
			return err
		}
		only = &tp{topic, p}
		if text, ok := c.Value("offsets"); ok {
			if offsets, err = scenario.ParseAckOffsets(text); err != nil {
				return err
			}
		}
	}
	var recs []*kgo.Record
	for _, rec := range m.pending() {
		at := tp{strings.TrimPrefix(rec.Topic, r.opts.Prefix), int(rec.Partition)}
		if only != nil && at != *only || len(offsets) > 0 && !slices.Contains(offsets, rec.Offset) {
			continue
		}
		recs = append(recs, rec)
	}
	return r.shareAck(ctx, g, m, status, recs)
}

// shareAck marks records with an acknowledgement and flushes it.
func (r *runner) shareAck(ctx context.Context, g *shareRun, m *shareMember, status kgo.AckStatus, recs []*kgo.Record) error {
	if len(recs) == 0 {
		return nil
	}
	m.awaitFetches(ctx, g, r.opts.WaitTimeout)
	if status == kgo.AckAccept {
		g.gotAcks += len(recs)
	}
	m.client.MarkAcks(status, recs...)
	for _, rec := range recs {
		if status != kgo.AckRenew {
			m.acked[rec] = true
		}
	}
	return m.client.FlushAcks(ctx)
}

// shareClose closes a member's client, leaving the group.
func (r *runner) shareClose(ctx context.Context, g *shareRun, m *shareMember) {
	closeClient(ctx, m.client)
	delete(g.members, m.name)
}

// shareAdvance follows the playground's advance: the records whose locks
// expired go back through their holders, and the members whose sessions
// ended leave.
func (r *runner) shareAdvance(ctx context.Context, c scenario.Command) error {
	released := map[*shareRun]map[string][]shareDelivery{}
	type member struct{ group, name string }
	var gone []member
	for _, e := range r.shares.events {
		g, ok := r.shares.groups[e.Group]
		if !ok {
			continue
		}
		switch e.Kind {
		case core.EventShareReleased, core.EventShareArchived:
			if released[g] == nil {
				released[g] = map[string][]shareDelivery{}
			}
			released[g][e.Member] = append(released[g][e.Member], shareDelivery{member: e.Member, tp: tp{e.Topic, e.Partition}, offset: e.Offset})
		case core.EventShareMemberLeft:
			gone = append(gone, member{e.Group, e.Member})
		}
	}
	for _, name := range r.shares.names {
		g := r.shares.groups[name]
		for _, member := range slices.Sorted(maps.Keys(released[g])) {
			m := g.members[member]
			if m == nil {
				continue
			}
			var recs []*kgo.Record
			for _, rec := range m.pending() {
				for _, d := range released[g][member] {
					if d.tp == (tp{strings.TrimPrefix(rec.Topic, r.opts.Prefix), int(rec.Partition)}) && d.offset == rec.Offset {
						recs = append(recs, rec)
					}
				}
			}
			if len(recs) == 0 {
				continue
			}
			r.marks.note(fmt.Sprintf("line %d: %s: %s's acquisition locks on %s expired in the playground's virtual time; the run released those records through %s's client on the cluster (RELEASE)",
				c.Line, c, member, units.Plural(int64(len(recs)), "record"), member))
			if err := r.shareAck(ctx, g, m, kgo.AckRelease, recs); err != nil {
				return err
			}
		}
	}
	for _, leave := range gone {
		g := r.shares.groups[leave.group]
		if m := g.members[leave.name]; m != nil {
			r.shareClose(ctx, g, m)
		}
	}
	return nil
}

// closeShares closes every share member's client, until ctx is done.
func (r *runner) closeShares(ctx context.Context) {
	for _, name := range r.shares.names {
		g := r.shares.groups[name]
		for _, member := range slices.Sorted(maps.Keys(g.members)) {
			r.shareClose(ctx, g, g.members[member])
		}
	}
}

// deleteShares deletes the run's share groups and the group configs the
// run set on them (they outlive the group), and says what it could not.
func (r *runner) deleteShares(ctx context.Context) (problems, left []string) {
	for _, name := range r.shares.names {
		g := r.shares.groups[name]
		resp, err := r.admin.DeleteGroups(ctx, g.id)
		if err == nil {
			err = resp[g.id].Err
		}
		if err != nil && !isGroupGone(err) {
			problems = append(problems, fmt.Sprintf("share group %s: %v", g.id, explain(err)))
			left = append(left, g.id)
		}
		if len(g.configured) == 0 {
			continue
		}
		configured := map[string]string{}
		for _, c := range g.configured {
			configured[c] = ""
		}
		if err := r.alterGroupConfigs(ctx, g.id, kmsg.IncrementalAlterConfigOpDelete, configured); err != nil {
			problems = append(problems, fmt.Sprintf("share group %s's configs: %v", g.id, explain(err)))
		}
	}
	return problems, left
}

// readShareGroups reads the run's share groups from the cluster: the
// group as DescribeShareGroups has it, each share-partition's start
// offset and lag as DescribeShareGroupOffsets has them (kafka-share-groups
// --describe's), and no in-flight records, which Kafka does not show.
func (r *runner) readShareGroups(ctx context.Context) ([]scenario.ShareGroupState, error) {
	var out []scenario.ShareGroupState
	for _, name := range r.shares.names {
		g := r.shares.groups[name]
		d, err := r.describeShareGroup(ctx, g)
		if err != nil {
			return nil, err
		}
		st := scenario.ShareGroupState{Name: name, State: d.GroupState, GroupEpoch: int(d.GroupEpoch), AssignmentEpoch: int(d.AssignmentEpoch),
			Members: []scenario.ShareMemberState{}, Partitions: []scenario.SharePartitionState{}}
		if st.State == "Dead" || st.State == "" {
			st.State = core.ShareGroupEmpty // never read or all gone: the broker describes it as Dead
		}
		for _, m := range d.Members {
			ms := scenario.ShareMemberState{ID: m.ClientID, MemberID: m.MemberID, Epoch: int(m.MemberEpoch)}
			ms.Topics = m.SubscribedTopicNames
			for i, t := range ms.Topics {
				ms.Topics[i] = strings.TrimPrefix(t, r.opts.Prefix)
			}
			for topic, ps := range m.Assignment {
				a := scenario.AssignmentState{Topic: strings.TrimPrefix(topic, r.opts.Prefix)}
				for p := range ps {
					a.Partitions = append(a.Partitions, int(p))
				}
				slices.Sort(a.Partitions)
				ms.Assignment = append(ms.Assignment, a)
			}
			slices.SortFunc(ms.Assignment, func(a, b scenario.AssignmentState) int { return strings.Compare(a.Topic, b.Topic) })
			st.Members = append(st.Members, ms)
		}
		slices.SortFunc(st.Members, func(a, b scenario.ShareMemberState) int { return strings.Compare(a.ID, b.ID) })
		offsets, err := r.admin.DescribeShareGroupOffsets(ctx, g.id)
		if err != nil {
			return nil, err
		}
		for topic, ps := range offsets[g.id].Offsets {
			for p, o := range ps {
				if o.Err != nil {
					continue
				}
				st.Partitions = append(st.Partitions, scenario.SharePartitionState{Topic: strings.TrimPrefix(topic, r.opts.Prefix), Partition: int(p),
					StartOffset: -1, Lag: -1, ReportedStartOffset: o.StartOffset, ReportedLag: o.Lag, InFlight: []scenario.InFlightState{}})
			}
		}
		slices.SortFunc(st.Partitions, func(a, b scenario.SharePartitionState) int {
			return compareTP(tp{a.Topic, a.Partition}, tp{b.Topic, b.Partition})
		})
		out = append(out, st)
	}
	return out, nil
}

// compareShares sets the cluster's share groups beside the playground's.
func (r *runner) compareShares(prediction, cluster scenario.State) []Row {
	c := &comparer{}
	got := map[string]scenario.ShareGroupState{}
	for _, g := range cluster.ShareGroups {
		got[g.Name] = g
	}
	for _, want := range prediction.ShareGroups {
		g, run := got[want.Name], r.shares.groups[want.Name]
		if run == nil {
			continue
		}
		why := run.reason
		what := "share " + want.Name
		c.row(what+" state", want.State, orNone(g.State), why)
		var wantNames, gotNames []string
		for _, m := range want.Members {
			wantNames = append(wantNames, m.ID)
		}
		gotMembers := map[string]scenario.ShareMemberState{}
		for _, m := range g.Members {
			gotNames = append(gotNames, m.ID)
			gotMembers[m.ID] = m
		}
		c.row(what+" members", wordsOrNone(wantNames), wordsOrNone(gotNames), why)
		for _, m := range want.Members {
			if gm, ok := gotMembers[m.ID]; ok {
				ownsWhy := why
				if ownsWhy == "" && run.unpolled {
					ownsWhy = ReasonShareNewPartitions
				}
				if ownsWhy == "" && len(want.Members) > 1 {
					ownsWhy = ReasonShareAssignor
				}
				c.row(what+" "+m.ID+" owns", assignmentText(m.Assignment), assignmentText(gm.Assignment), ownsWhy)
			}
		}
		gotParts := map[tp]scenario.SharePartitionState{}
		for _, p := range g.Partitions {
			gotParts[tp{p.Topic, p.Partition}] = p
		}
		for _, p := range want.Partitions {
			t := tp{p.Topic, p.Partition}
			gp, ok := gotParts[t]
			start, lag := "-", "-"
			if ok {
				start, lag = reportedText(gp.ReportedStartOffset), reportedText(gp.ReportedLag)
			}
			// The admin API's start offset and lag, on both sides: the
			// share coordinator's, one write behind the broker's
			// (core.SharePartitionView.ReportedStartOffset).
			c.row(what+" "+t.String()+" reported start offset", reportedText(p.ReportedStartOffset), start, why)
			c.row(what+" "+t.String()+" reported lag", reportedText(p.ReportedLag), lag, why)
			c.row(what+" "+t.String()+" in flight", inFlightWords(p.InFlight), "not shown", ReasonShareInFlight)
		}
		c.row(what+" acquired", units.Plural(int64(len(run.predicted)), "record"), units.Plural(int64(len(run.got)), "record"), why)
		pw, pg := deliveriesDigest(run.predicted, run.got)
		c.row(what+" deliveries", pw, pg, why)
		c.row(what+" accepted", units.Plural(int64(run.predictedAcks), "record"), units.Plural(int64(run.gotAcks), "record"), why)
		c.row(what+" acknowledgements refused", strconv.Itoa(run.predictedFailed), strconv.FormatInt(run.gotFailed.Load(), 10), why)
		c.row(what+" archived", units.Plural(int64(run.predictedArchived), "record"), "not shown", ReasonShareInFlight)
	}
	return c.rows
}

func reportedText(n int64) string {
	if n < 0 {
		return "-"
	}
	return itoa(n)
}

func wordsOrNone(words []string) string {
	if len(words) == 0 {
		return "none"
	}
	return strings.Join(words, " ")
}

// inFlightWords writes in-flight records as 0:Acquired×1 1:Available×2.
func inFlightWords(records []scenario.InFlightState) string {
	if len(records) == 0 {
		return "none"
	}
	var parts []string
	for _, rec := range records {
		parts = append(parts, fmt.Sprintf("%d:%s×%d", rec.Offset, rec.State, rec.DeliveryCount))
	}
	return strings.Join(parts, " ")
}

// deliveriesDigest describes two lists of deliveries: their count when
// they are the same, else the first where they part.
func deliveriesDigest(a, b []shareDelivery) (string, string) {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	count := func(n int) string { return fmt.Sprintf("%d %s", n, units.Noun(int64(n), "delivery", "deliveries")) }
	if i == len(a) && i == len(b) {
		return count(len(a)), count(len(b))
	}
	at := func(ds []shareDelivery) string {
		s := count(len(ds))
		if i < len(ds) {
			s += fmt.Sprintf(", #%d: %s", i, ds[i])
		}
		return s
	}
	return at(a), at(b)
}
