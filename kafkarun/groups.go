package kafkarun

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
	"plog/core/scenario"
)

// tp is a partition of a topic, by the script's (unprefixed) topic name.
type tp struct {
	topic     string
	partition int
}

func (t tp) String() string { return t.topic + "/" + strconv.Itoa(t.partition) }

func compareTP(a, b tp) int {
	if c := strings.Compare(a.topic, b.topic); c != 0 {
		return c
	}
	return a.partition - b.partition
}

// groupRun is a consumer group of the script on the cluster.
type groupRun struct {
	name, id string // the script's name; the prefixed group id
	members  map[string]*member
	// goneStatic holds static members that left or crashed, by name, with
	// their instance id: they send no LeaveGroup, so the broker keeps
	// them until their session times out.
	goneStatic map[string]string
	// consumer says the group runs Kafka 4's consumer protocol
	// (consumer_protocol.go); configured that the run tried to give it
	// its heartbeat interval on the cluster, hasConfig that it did, for
	// the cleanup to take back.
	consumer, configured, hasConfig bool
	// made says the run made the group on the cluster (a member joined,
	// or offsets were committed from outside); deleted that a delete-group
	// deleted it there, until a join or commit makes it again.
	made, deleted bool

	// revokedAt holds the generations at which a cooperative member gave
	// up partitions since the group last settled (markSplitRevocation).
	revokedMu sync.Mutex
	revokedAt map[int32]bool
}

// noteRevoked records that a cooperative member gave up partitions at
// generation.
func (g *groupRun) noteRevoked(generation int32) {
	g.revokedMu.Lock()
	defer g.revokedMu.Unlock()
	if g.revokedAt == nil {
		g.revokedAt = map[int32]bool{}
	}
	g.revokedAt[generation] = true
}

// takeRevocationGenerations returns how many generations cooperative
// members gave up partitions in since the last call, and starts counting
// anew.
func (g *groupRun) takeRevocationGenerations() int {
	g.revokedMu.Lock()
	defer g.revokedMu.Unlock()
	n := len(g.revokedAt)
	g.revokedAt = nil
	return n
}

// member is one member of a group: a consumer client of its own.
type member struct {
	name     string
	instance string   // group.instance.id of a static member
	consumer bool     // it runs the consumer protocol (group.protocol=consumer)
	topics   []string // script names
	client   *kgo.Client
	// blocked hears from the client when a rebalance of its waits for
	// the hold resubscribe puts on it (kgo.OnPartitionsCallbackBlocked).
	blocked chan struct{}

	mu        sync.Mutex
	assigned  map[tp]bool  // what the group gave it, kept by the client's callbacks
	positions map[tp]int64 // next offset to read, as the Java consumer keeps them
}

// closeMembers takes the members out of the group run and returns their
// clients, to close.
func (g *groupRun) closeMembers() []*kgo.Client {
	var clients []*kgo.Client
	for _, name := range slices.Sorted(maps.Keys(g.members)) {
		clients = append(clients, g.members[name].client)
	}
	g.members = map[string]*member{}
	return clients
}

func (g *groupRun) liveNames() []string {
	return slices.Sorted(maps.Keys(g.members))
}

// balancer returns franz-go's balancer for a playground strategy.
func balancer(strategy string) kgo.GroupBalancer {
	switch strategy {
	case core.StrategyRoundRobin:
		return kgo.RoundRobinBalancer()
	case core.StrategySticky:
		return kgo.StickyBalancer()
	case core.StrategyCooperativeSticky:
		return kgo.CooperativeStickyBalancer()
	}
	return kgo.RangeBalancer()
}

// resetOffset is the client's auto.offset.reset, as the group's config says
// it in the playground, whatever either side's default: a default that
// changes on one side must not part the two silently.
func resetOffset(autoOffsetReset string) (kgo.Offset, error) {
	switch autoOffsetReset {
	case "earliest":
		return kgo.NewOffset().AtStart(), nil
	case "latest":
		return kgo.NewOffset().AtEnd(), nil
	case "none":
		return kgo.NoResetOffset(), nil
	}
	return kgo.Offset{}, fmt.Errorf("auto.offset.reset=%s has no counterpart in the client the run uses", autoOffsetReset)
}

func (r *runner) group(name string) *groupRun {
	g, ok := r.groups[name]
	if !ok {
		g = &groupRun{name: name, id: r.opts.Prefix + name, members: map[string]*member{}, goneStatic: map[string]string{}}
		r.groups[name] = g
		r.groupNames = append(r.groupNames, name)
	}
	return g
}

// unprefix turns a cluster topic name back into the script's.
func (r *runner) unprefix(topic string) string {
	return strings.TrimPrefix(topic, r.opts.Prefix)
}

// maxPollRecords is max.poll.records' default in Kafka's Java client, the
// most records a poll without max= returns.
const maxPollRecords = 500

func (r *runner) applyGroupCommand(ctx context.Context, c scenario.Command) error {
	g, name := r.group(c.Positional(0)), c.Positional(1)
	switch c.Name {
	case scenario.CmdJoin:
		return r.join(ctx, g, name, c)
	case scenario.CmdLeave, scenario.CmdCrash:
		m := g.members[name]
		if m == nil {
			return fmt.Errorf("group %s has no member %s on the cluster", g.name, name)
		}
		// Close sends LeaveGroup, except for a static member; a real
		// crash would send nothing and the broker would notice after
		// session.timeout.ms (markAfter notes the difference).
		r.markMigrationLeave(ctx, g, name)
		delete(g.members, name)
		if m.instance != "" {
			g.goneStatic[name] = m.instance
		}
		return within(ctx, func() error { closeClient(ctx, m.client); return nil })
	case scenario.CmdPoll:
		max, err := c.CountOr("max", maxPollRecords)
		if err != nil {
			return err
		}
		return r.poll(ctx, g, name, int(max))
	case scenario.CmdCommit:
		if !c.Has("offset") {
			return r.commitMember(ctx, g, name)
		}
		topic, partition, offset, err := c.PartitionOffset(1, "offset")
		if err != nil {
			return err
		}
		return r.commitOffset(ctx, g, tp{topic, partition}, offset)
	}
	return r.reset(ctx, g, c)
}

func (r *runner) join(ctx context.Context, g *groupRun, name string, c scenario.Command) error {
	topics, err := c.Names("topics")
	if err != nil {
		return err
	}
	if m := g.members[name]; m != nil {
		return r.resubscribe(ctx, g, m, topics)
	}
	// The member runs the protocol its join names, classic when none
	// (core.JoinOptions.Protocol): in an online upgrade a consumer group
	// holds classic members, and a classic group's first consumer member
	// converts it (migration.go).
	protocol := core.ProtocolClassic
	if p, ok := c.Value("group.protocol"); ok {
		protocol = p
	}
	if err := r.checkMigrationJoin(ctx, g, c, g.clusterProtocol(), protocol); err != nil {
		return err
	}
	known, err := r.memberIDs(ctx, g)
	if err != nil {
		return err
	}
	strategy := core.StrategyRange
	if v, err := r.session.Log().Group(g.name); err == nil {
		if v.Strategy != "" {
			strategy = v.Strategy
		}
		// The playground has applied the join: its group's protocol
		// is the one the group runs from now on (an empty group takes
		// the protocol of the member that joins it).
		g.consumer = v.Protocol == core.ProtocolConsumer
	}
	if protocol == core.ProtocolConsumer {
		r.setConsumerGroupConfigs(ctx, g)
	}
	g.made, g.deleted = true, false
	cfg := r.groupConfig(g.name)
	m := &member{name: name, topics: topics, consumer: protocol == core.ProtocolConsumer, assigned: map[tp]bool{}, positions: map[tp]int64{}, blocked: make(chan struct{}, 1)}
	sessionTimeout := time.Duration(cfg.SessionTimeoutMs) * time.Millisecond
	reset, err := resetOffset(cfg.AutoOffsetReset)
	if err != nil {
		return err
	}
	opts := append([]kgo.Opt{
		kgo.SeedBrokers(r.opts.Brokers...),
		kgo.DialTimeout(r.opts.DialTimeout),
		kgo.RetryTimeout(r.opts.WaitTimeout),
		// The broker names members clientID-uuid and balancers sort
		// members by that id: the member's name as client id keeps the
		// playground's order.
		kgo.ClientID(name),
		kgo.ConsumerGroup(g.id),
		kgo.ConsumeTopics(r.prefixed(topics)...),
		kgo.Balancers(balancer(strategy)),
		// Every config of the group the client has is set from the
		// playground's (core.GroupConfig): auto.offset.reset,
		// session.timeout.ms, enable.auto.commit and its interval below.
		kgo.ConsumeResetOffset(reset),
		kgo.SessionTimeout(sessionTimeout),
		// Frequent heartbeats let members learn of a rebalance quickly,
		// so the run settles in a fraction of a second.
		kgo.HeartbeatInterval(200 * time.Millisecond),
		kgo.FetchMaxWait(100 * time.Millisecond),
		kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, added map[string][]int32) {
			m.change(r, added, true)
		}),
		kgo.OnPartitionsRevoked(func(_ context.Context, cl *kgo.Client, revoked map[string][]int32) {
			if strategy == core.StrategyCooperativeSticky && len(revoked) > 0 {
				_, generation := cl.GroupMetadata()
				g.noteRevoked(generation)
			}
			m.change(r, revoked, false)
		}),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, lost map[string][]int32) {
			m.change(r, lost, false)
		}),
		// A rebalance waits while a poll's records are being handled,
		// as the Java consumer rebalances only inside poll(): poll
		// allows it when it is done, and resubscribe holds it to make
		// a change of subscription one rejoin.
		kgo.BlockRebalanceOnPoll(),
		kgo.OnPartitionsCallbackBlocked(func(context.Context, *kgo.Client) {
			select {
			case m.blocked <- struct{}{}:
			default:
			}
		}),
	}, r.opts.ClientOpts...)
	if m.consumer {
		// After kgo.Balancers above: the last one set wins.
		assignor, _ := c.Value("group.remote.assignor")
		opts = append(opts, consumerMemberOpts(assignor)...)
	}
	if instance, ok := c.Value("instance"); ok {
		// A static member's session ends in the playground's virtual
		// time, and the run removes it from the cluster then (see
		// expireStatic): a session as long as staticSession keeps the
		// wall clock from ending it first.
		opts = append(opts, kgo.InstanceID(instance), kgo.SessionTimeout(max(sessionTimeout, staticSession)))
		m.instance = instance
		// The consumer takes the gone member's place, under its old
		// name or a new one (core's replaceStaticMember).
		for gone, id := range g.goneStatic {
			if id == instance {
				delete(g.goneStatic, gone)
			}
		}
	}
	if m.consumer || g.consumer {
		// The coordinator assigns the member (a classic member of a
		// consumer group too): from its own view of the topics.
		if err := r.awaitCoordinator(ctx, g.id, topics); err != nil {
			return err
		}
	}
	if cfg.AutoCommit {
		// The client commits on its own timer, on the wall clock
		// (markAfter notes that this differs).
		opts = append(opts, kgo.AutoCommitInterval(time.Duration(cfg.AutoCommitIntervalMs)*time.Millisecond))
	} else {
		opts = append(opts, kgo.DisableAutoCommit())
	}
	opts = append(opts, timingOpts(cfg)...)
	if cfg.IsolationLevel == core.ReadCommitted {
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	if cfg.Has("group.initial.rebalance.delay.ms") && cfg.InitialRebalanceDelayMs != brokerInitialDelayMs {
		r.marks.note(fmt.Sprintf("group %s: group.initial.rebalance.delay.ms=%dms is the playground's; the cluster's brokers keep their own", g.name, cfg.InitialRebalanceDelayMs))
	}
	client, err := kgo.NewClient(opts...)
	if err != nil {
		return err
	}
	m.client = client
	g.members[name] = m
	// The client joins in the background. The join is the member's
	// JoinGroup reaching the coordinator, which adds it to the group
	// (Kafka 4.x GroupMetadataManager, classic groups): until then a
	// later command (another member's leave, a static member's session
	// ending) would rebalance the group without it, one more generation
	// than the playground's, where both fall in one rebalance.
	return r.waitFor(ctx, fmt.Sprintf("member %s to join group %s", name, g.id), func() (bool, error) {
		listed, err := r.memberIDs(ctx, g)
		if err != nil {
			return false, err
		}
		for id, client := range listed {
			if _, before := known[id]; client == name && !before {
				return true, nil
			}
		}
		return false, nil
	})
}

// describeGroup describes a group on the cluster; a group the broker does
// not know (yet) is described with no members.
func (r *runner) describeGroup(ctx context.Context, g *groupRun) (kadm.DescribedGroup, error) {
	described, err := r.admin.DescribeGroups(ctx, g.id)
	if err != nil {
		return kadm.DescribedGroup{}, err
	}
	d := described[g.id]
	if d.Err != nil {
		if isGroupGone(d.Err) {
			return kadm.DescribedGroup{Group: g.id}, nil
		}
		return d, d.Err
	}
	return d, nil
}

// memberIDs returns the member ids the broker lists in a group, with each
// member's client id, whichever protocol the group runs on the cluster:
// Kafka 4.4 describes a classic group only to DescribeGroups and a
// consumer group, its classic members too, only to ConsumerGroupDescribe
// (GroupMetadataManager.describeGroups, consumerGroupDescribe), and a join
// may convert the group from one to the other (migration.go).
func (r *runner) memberIDs(ctx context.Context, g *groupRun) (map[string]string, error) {
	ids := map[string]string{}
	d, err := r.describeGroup(ctx, g)
	if err != nil && !isGroupGone(err) {
		return ids, err
	}
	for _, dm := range d.Members {
		ids[dm.MemberID] = dm.ClientID
	}
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{g.id}
	resp, err := req.RequestWith(ctx, r.base)
	if err != nil {
		return ids, err
	}
	for _, rg := range resp.Groups {
		if err := kerr.ErrorForCode(rg.ErrorCode); err != nil {
			if isGroupGone(err) {
				continue
			}
			return ids, err
		}
		for _, dm := range rg.Members {
			ids[dm.MemberID] = dm.ClientID
		}
	}
	return ids, nil
}

// staticSession is the least session timeout a static member has on the
// cluster: longer than a run takes, so that only expireStatic ends the
// session of one that left, when the playground's ends. It is within
// Kafka's group.max.session.timeout.ms (30 minutes by default, Kafka 4.x
// GroupCoordinatorConfig).
const staticSession = 5 * time.Minute

// expireStatic removes from the cluster's groups the static members that
// left or crashed and whose session the playground has ended, in virtual
// time: the coordinator removes a member whose session timed out and
// rebalances (Kafka 4.x GroupMetadataManager, classic groups), and an
// admin's removal by group.instance.id (KIP-345, AdminClient's
// removeMembersFromConsumerGroup) does the same on the cluster at the same
// point of the script.
func (r *runner) expireStatic(ctx context.Context) error {
	for _, name := range r.groupNames {
		g := r.groups[name]
		if len(g.goneStatic) == 0 {
			continue
		}
		listed := map[string]bool{}
		if v, err := r.session.Log().Group(name); err == nil {
			for _, m := range v.Members {
				listed[m.ID] = true
			}
		}
		var expired []string
		for _, member := range slices.Sorted(maps.Keys(g.goneStatic)) {
			if !listed[member] {
				expired = append(expired, member)
			}
		}
		var ids []string
		for _, member := range expired {
			ids = append(ids, g.goneStatic[member])
		}
		if err := r.removeStatic(ctx, g, ids); err != nil {
			return fmt.Errorf("removing the static members %s of group %s, whose sessions ended in the playground: %w", strings.Join(ids, ", "), g.id, err)
		}
		for _, member := range expired {
			delete(g.goneStatic, member)
		}
	}
	return nil
}

// removeStatic removes static members from a group as an admin does, by
// instance id. A member the broker does not know is not an error: it
// never fully joined, or its session ended already.
func (r *runner) removeStatic(ctx context.Context, g *groupRun, ids []string) error {
	for _, id := range ids {
		resp, err := r.admin.LeaveGroup(ctx, kadm.LeaveGroup(g.id).InstanceIDs(id))
		if err == nil {
			err = resp.Error()
		}
		if err != nil && !errors.Is(err, kerr.UnknownMemberID) && !isGroupGone(err) {
			return err
		}
	}
	return nil
}

// resubscribe changes the subscription of a member that is already in its
// group, as the playground's join does (core.PartitionedLog.Join): the same
// consumer subscribes to other topics, keeps its member id, and the group
// rebalances once. It is what the Java consumer does when subscribe() is
// called again (Kafka 4.x KafkaConsumer.subscribe; ConsumerCoordinator
// rejoins once, in its next poll, with the new subscription). franz-go
// adds and purges topics in the live client, and each would make it rejoin
// on its own (AddConsumeTopics once the client's metadata has the new
// topics, PurgeTopicsFromConsuming at once), two JoinGroups and two
// generations: the coordinator rebalances when the leader, or a member
// whose subscription changed, rejoins a stable group (Kafka 4.x
// GroupMetadataManager, classic groups). So the run holds the member's
// rebalance (a poll under kgo.BlockRebalanceOnPoll) until both changes
// are in and the client wants to rejoin, then lets it rejoin once.
func (r *runner) resubscribe(ctx context.Context, g *groupRun, m *member, topics []string) error {
	var added, dropped []string
	for _, t := range topics {
		if !slices.Contains(m.topics, t) {
			added = append(added, t)
		}
	}
	for _, t := range m.topics {
		if !slices.Contains(topics, t) {
			dropped = append(dropped, t)
		}
	}
	if g.consumer {
		return r.resubscribeConsumer(ctx, g, m, topics, added, dropped)
	}
	// From a settled group: the client's only rebalance is then the one
	// the change makes.
	if err := r.settle(ctx, g); errors.Is(err, errHeldByGoneStatic) {
		// The group is rebalancing already: the changes fall in that
		// rebalance, as the client has not rejoined.
		m.client.AddConsumeTopics(r.prefixed(added)...)
		m.client.PurgeTopicsFromConsuming(r.prefixed(dropped)...)
		m.setTopics(topics, dropped)
		return nil
	} else if err != nil {
		return err
	}
	select {
	case <-m.blocked:
	default:
	}
	// A poll with a done context returns at once and holds the group's
	// rebalances until AllowRebalance.
	done, cancel := context.WithCancel(ctx)
	cancel()
	m.client.PollRecords(done, 1)
	held := true
	defer func() {
		if held {
			m.client.AllowRebalance()
		}
	}()
	wantsRejoin := func(what string) error {
		select {
		case <-m.blocked:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.opts.WaitTimeout):
			return fmt.Errorf("gave up after %s waiting for member %s of group %s to rejoin %s", r.opts.WaitTimeout, m.name, g.id, what)
		}
	}
	if len(added) > 0 {
		m.client.AddConsumeTopics(r.prefixed(added)...)
		if err := wantsRejoin("with " + strings.Join(added, ",")); err != nil {
			return err
		}
	}
	if len(dropped) > 0 {
		m.client.PurgeTopicsFromConsuming(r.prefixed(dropped)...)
		if len(added) == 0 {
			if err := wantsRejoin("without " + strings.Join(dropped, ",")); err != nil {
				return err
			}
		}
	}
	m.setTopics(topics, dropped)
	held = false
	m.client.AllowRebalance()
	// As a join does, this one returns once the coordinator has the
	// member's JoinGroup: the group rebalances, or it has its new
	// subscription.
	want := r.prefixed(topics)
	slices.Sort(want)
	return r.waitFor(ctx, fmt.Sprintf("member %s of group %s to rejoin with %s", m.name, g.id, strings.Join(topics, ",")), func() (bool, error) {
		d, err := r.describeGroup(ctx, g)
		if err != nil || d.State != "Stable" {
			return err == nil, err
		}
		for _, dm := range d.Members {
			if meta, ok := dm.Join.AsConsumer(); ok && dm.ClientID == m.name {
				subscribed := slices.Sorted(slices.Values(meta.Topics))
				return slices.Equal(subscribed, want), nil
			}
		}
		return false, nil
	})
}

// setTopics records a member's new subscription: it no longer owns, nor
// has positions on, the topics it dropped.
func (m *member) setTopics(topics, dropped []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.topics = topics
	for t := range m.assigned {
		if slices.Contains(dropped, t.topic) {
			delete(m.assigned, t)
			delete(m.positions, t)
		}
	}
}

// change applies an assignment change the client reports. A member loses
// its positions on the partitions it gives up, as the Java consumer does.
func (m *member) change(r *runner, partitions map[string][]int32, added bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for topic, ps := range partitions {
		for _, p := range ps {
			t := tp{r.unprefix(topic), int(p)}
			if added {
				m.assigned[t] = true
			} else {
				delete(m.assigned, t)
				delete(m.positions, t)
			}
		}
	}
}

func (m *member) assignment() []tp {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.SortedFunc(maps.Keys(m.assigned), compareTP)
}

// describedAssignment returns what the broker says a member owns.
func (r *runner) describedAssignment(d kadm.DescribedGroupMember) []tp {
	var out []tp
	if a, ok := d.Assigned.AsConsumer(); ok {
		for _, t := range a.Topics {
			for _, p := range t.Partitions {
				out = append(out, tp{r.unprefix(t.Topic), int(p)})
			}
		}
	}
	slices.SortFunc(out, compareTP)
	return out
}

// settle waits until the group is stable with exactly the live members,
// each holding what the broker says it holds, and every partition of the
// topics they subscribe to assigned. The script cannot say when a
// rebalance ends on a real cluster; settling before each poll and commit
// makes the run deterministic.
func (r *runner) settle(ctx context.Context, g *groupRun) error {
	if g.consumer {
		return r.settleConsumer(ctx, g)
	}
	if v, err := r.session.Log().Group(g.name); err == nil && v.Rebalance != nil && len(v.Rebalance.WaitingFor) > 0 {
		// The playground's rebalance waits for stopped members whose
		// sessions have not ended; the cluster's waits for the same
		// static members, until expireStatic removes them.
		return nil
	}
	what := fmt.Sprintf("group %s to settle with members %s", g.id, strings.Join(g.liveNames(), ", "))
	var owns map[string][]tp // what each member owns once settled, by name
	held := false
	err := r.waitFor(ctx, what, func() (bool, error) {
		owns = map[string][]tp{}
		described, err := r.admin.DescribeGroups(ctx, g.id)
		if err != nil {
			return false, err
		}
		d := described[g.id]
		if d.Err != nil {
			if isGroupGone(d.Err) {
				return false, nil
			}
			return false, d.Err
		}
		if d.State != "Stable" {
			why := r.heldByGoneStatic(g, d)
			if held = why != ""; held {
				r.marks.group(g.name, why)
			}
			return held, nil
		}
		seen := map[string]bool{}
		owned := map[tp]bool{}
		for _, dm := range d.Members {
			m := g.members[dm.ClientID]
			if m == nil {
				if _, gone := g.goneStatic[dm.ClientID]; !gone {
					return false, nil // a member that left is still listed
				}
				// The broker holds a static member's partitions
				// until its session times out, as the playground
				// does.
				for _, t := range r.describedAssignment(dm) {
					owned[t] = true
				}
				owns[dm.ClientID] = r.describedAssignment(dm)
				continue
			}
			seen[dm.ClientID] = true
			assigned := r.describedAssignment(dm)
			owns[dm.ClientID] = assigned
			if !slices.Equal(assigned, m.assignment()) {
				return false, nil // the client has not taken its share yet
			}
			for _, t := range assigned {
				owned[t] = true
			}
		}
		unseen := r.unseenPartitions(g)
		for name, m := range g.members {
			if !seen[name] {
				return false, nil
			}
			for _, topic := range m.topics {
				for p := range r.partitions[topic] {
					if !owned[tp{topic, p}] && !unseen[tp{topic, p}] {
						return false, nil
					}
				}
			}
		}
		return true, nil
	})
	split := g.takeRevocationGenerations() > 1
	switch {
	case err == nil && held:
		return errHeldByGoneStatic
	case err == nil:
		r.markCooperativePlan(g, owns)
		r.markSplitRevocation(g, split)
	}
	return err
}

// markSplitRevocation notes a settled cooperative group whose members gave
// up partitions in more than one generation since it last settled: a
// member revoked a round late, and the cluster's group took one more
// (ReasonSplitRevocation). A cooperative rebalance revokes in its first
// round only, as the playground's does.
func (r *runner) markSplitRevocation(g *groupRun, split bool) {
	if _, marked := r.marks.generations[g.name]; split && !marked {
		r.marks.generations[g.name] = ReasonSplitRevocation
	}
}

// unseenPartitions are the partitions of the group's topics that its
// leader's metadata does not hold yet in the playground (rules 4: added
// since its last refresh, core.GroupView.MetadataRefreshAt), which nobody
// is assigned in the playground until it refreshes (timing.go): those the
// cluster has and the playground's group does not list (its Partitions are
// the leader's view), and those it lists that nobody owns.
func (r *runner) unseenPartitions(g *groupRun) map[tp]bool {
	v, err := r.session.Log().Group(g.name)
	if err != nil || v.MetadataRefreshAt == 0 {
		return nil
	}
	owned := map[tp]bool{}
	for _, m := range v.Members {
		for _, a := range m.Assignment {
			owned[tp{a.Topic, a.Partition}] = true
		}
	}
	listed := map[tp]bool{}
	unseen := map[tp]bool{}
	for _, p := range v.Partitions {
		t := tp{p.Topic, p.Partition}
		listed[t] = true
		if !owned[t] {
			unseen[t] = true
		}
	}
	for _, m := range v.Members {
		for _, topic := range m.Topics {
			for p := range r.partitions[topic] {
				if t := (tp{topic, p}); !listed[t] {
					unseen[t] = true
				}
			}
		}
	}
	return unseen
}

// errHeldByGoneStatic is settle's answer for a group whose rebalance on the
// cluster cannot end (heldByGoneStatic).
var errHeldByGoneStatic = errors.New("the cluster's group is rebalancing and waits for static members that left")

// heldByGoneStatic says a group's rebalance on the cluster waits for static
// members that left, while the playground's group is not rebalancing, and
// why the two differ there (ReasonCrash or ReasonRefreshHeld; "" when the
// group is not held). Static members send no LeaveGroup and never rejoin,
// so such a rebalance ends only when expireStatic removes them, at the end
// of their sessions in the playground. The cluster's group rebalances
// where the playground's does not when a crashed member's client left at
// once (ReasonCrash explains the group's every row), which the
// playground's group does not see until the session ends, or when its
// clients saw new partitions at once (topics.go's addPartitions) that the
// playground's leader has not refreshed its metadata for yet (rules 4).
// The commands that need the group settled are then not run on the
// cluster.
func (r *runner) heldByGoneStatic(g *groupRun, d kadm.DescribedGroup) Reason {
	if d.State != "PreparingRebalance" {
		return ""
	}
	why := r.marks.groups[g.name]
	if why != ReasonCrash {
		if len(r.unseenPartitions(g)) == 0 {
			return ""
		}
		why = ReasonRefreshHeld
	}
	if v, err := r.session.Log().Group(g.name); err != nil || v.Rebalance != nil {
		return ""
	}
	for _, dm := range d.Members {
		if _, gone := g.goneStatic[dm.ClientID]; gone {
			return why
		}
	}
	return ""
}

// notRunWhileHeld notes a command not run on the cluster because its group
// is held (errHeldByGoneStatic), and passes any other error on.
func (r *runner) notRunWhileHeld(err error, g *groupRun, what string) error {
	if !errors.Is(err, errHeldByGoneStatic) {
		return err
	}
	r.marks.note(fmt.Sprintf("%s in group %s: not run: %s (%s)", what, g.name, err, shortReasons[r.marks.groups[g.name]]))
	return nil
}

// markCooperativePlan notes where a settled cooperative-sticky group's
// members own other partitions on the cluster than in the playground: its
// balancer is franz-go's, not Kafka's (balancer), and how many rounds a
// cooperative rebalance takes depends on the partitions its plan moves (a
// second round follows one that revoked any), so from then on the
// group's generation may differ.
func (r *runner) markCooperativePlan(g *groupRun, owns map[string][]tp) {
	v, err := r.session.Log().Group(g.name)
	if err != nil || v.Strategy != core.StrategyCooperativeSticky || v.Rebalance != nil {
		return
	}
	if _, ok := r.marks.generations[g.name]; ok {
		return
	}
	for _, m := range v.Members {
		var want []tp
		for _, t := range m.Assignment {
			want = append(want, tp{t.Topic, t.Partition})
		}
		slices.SortFunc(want, compareTP)
		if !slices.Equal(want, owns[m.ID]) {
			r.marks.generations[g.name] = ReasonCooperativePlan
			return
		}
	}
}

// isGroupGone says the broker does not know the group (yet or any more).
func isGroupGone(err error) bool {
	return errors.Is(err, kerr.GroupIDNotFound) || errors.Is(err, kerr.CoordinatorNotAvailable) ||
		errors.Is(err, kerr.CoordinatorLoadInProgress)
}

// offsets lists the log start and end offsets of topics, by partition.
func (r *runner) offsets(ctx context.Context, topics ...string) (starts, ends map[tp]int64, err error) {
	names := r.prefixed(topics)
	listed := [2]kadm.ListedOffsets{}
	if listed[0], err = r.admin.ListStartOffsets(ctx, names...); err == nil {
		listed[1], err = r.admin.ListEndOffsets(ctx, names...)
	}
	if err != nil {
		return nil, nil, err
	}
	out := [2]map[tp]int64{{}, {}}
	for i, l := range listed {
		if err := l.Error(); err != nil {
			return nil, nil, err
		}
		l.Each(func(o kadm.ListedOffset) {
			out[i][tp{r.unprefix(o.Topic), int(o.Partition)}] = o.Offset
		})
	}
	return out[0], out[1], nil
}

// committed returns the group's committed offsets.
func (r *runner) committed(ctx context.Context, g *groupRun) (map[tp]int64, error) {
	resp, err := r.admin.FetchOffsets(ctx, g.id)
	if err == nil {
		err = resp.Error()
	}
	if err != nil && !isGroupGone(err) {
		return nil, err
	}
	out := map[tp]int64{}
	resp.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At >= 0 {
			out[tp{r.unprefix(o.Topic), int(o.Partition)}] = o.At
		}
	})
	return out, nil
}

// poll reads up to max records for a member: it waits for the group to
// settle, then fetches until the member holds max records or has read
// every partition it owns to its end, or WaitTimeout passes. Afterwards the
// member has a position on every partition it owns, as the Java consumer
// has after a poll, so that commit commits them all.
func (r *runner) poll(ctx context.Context, g *groupRun, name string, max int) error {
	m := g.members[name]
	if m == nil {
		return fmt.Errorf("group %s has no member %s on the cluster", g.name, name)
	}
	var read []tpOffset // what the poll gave, for txn.go's rows
	defer func() { r.txns.clusterPolled(g.name, name, read) }()
	if err := r.settle(ctx, g); err != nil {
		return r.notRunWhileHeld(err, g, "poll "+name)
	}
	assigned := m.assignment()
	if len(assigned) == 0 {
		return nil
	}
	starts, ends, err := r.offsets(ctx, m.topics...)
	if err != nil {
		return err
	}
	committed, err := r.committed(ctx, g)
	if err != nil {
		return err
	}
	cfg := r.groupConfig(g.name)
	from := map[tp]int64{}
	available := 0
	m.mu.Lock()
	for _, t := range assigned {
		pos, ok := m.positions[t]
		if !ok || pos < starts[t] {
			pos, ok = committed[t]
			if !ok || pos < starts[t] {
				pos = starts[t]
				if cfg.AutoOffsetReset == "latest" {
					pos = ends[t]
				}
			}
		}
		from[t] = pos
		available += int(max64(0, ends[t]-pos))
	}
	m.mu.Unlock()
	// Named producers' markers take offsets, and read_committed skips
	// aborted records and stops at the last stable offset (txn.go).
	var layout *fetchLayout
	if r.txns.used() {
		if layout, err = r.layoutFrom(ctx, cfg.IsolationLevel, from); err != nil {
			return err
		}
		available = layout.available
	}
	// The client took its positions when it was assigned and has fetched
	// ahead from them; the Java consumer takes them in its first poll
	// (KafkaConsumer.poll's updateFetchPositions: the committed offset, or
	// auto.offset.reset against the log as it is then) and keeps them.
	// Setting the client's positions to those drops what it fetched ahead
	// from elsewhere, so that what it delivers, and later commits, is
	// what the Java consumer's would be.
	set := map[string]map[int32]kgo.EpochOffset{}
	for t, pos := range from {
		topic := r.opts.Prefix + t.topic
		if set[topic] == nil {
			set[topic] = map[int32]kgo.EpochOffset{}
		}
		set[topic][int32(t.partition)] = kgo.EpochOffset{Epoch: -1, Offset: pos}
	}
	m.client.SetOffsets(set)

	// The client holds rebalances from its first poll of records
	// (kgo.BlockRebalanceOnPoll) until the command is done, as the Java
	// consumer rebalances only inside poll().
	defer m.client.AllowRebalance()
	want := min(max, available)
	got := 0
	deadline := time.Now().Add(r.opts.WaitTimeout)
	for got < want && time.Now().Before(deadline) {
		pollCtx, cancel := context.WithDeadline(ctx, deadline)
		fetches := m.client.PollRecords(pollCtx, want-got)
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var fetchErr error
		fetches.EachError(func(topic string, p int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				fetchErr = fmt.Errorf("fetching %s/%d: %w", topic, p, err)
			}
		})
		if fetchErr != nil {
			return fetchErr
		}
		m.mu.Lock()
		fetches.EachRecord(func(rec *kgo.Record) {
			t := tp{r.unprefix(rec.Topic), int(rec.Partition)}
			if m.assigned[t] && layout.gives(t, rec.Offset) {
				m.positions[t] = rec.Offset + 1
				got++
				read = append(read, tpOffset{t, rec.Offset})
			}
		})
		m.mu.Unlock()
	}
	if got < want {
		r.marks.note(fmt.Sprintf("poll %s %s max=%d: the cluster gave %d of the %d records available within %s", g.name, name, max, got, want, r.opts.WaitTimeout))
	}
	m.mu.Lock()
	for t, pos := range from {
		if _, ok := m.positions[t]; !ok && m.assigned[t] {
			m.positions[t] = pos
		}
	}
	layout.pass(m.positions, got == max)
	m.mu.Unlock()
	return nil
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// commitMember commits a member's positions with its generation, as the
// Java consumer's commitSync() does.
func (r *runner) commitMember(ctx context.Context, g *groupRun, name string) error {
	m := g.members[name]
	if m == nil {
		return fmt.Errorf("group %s has no member %s on the cluster", g.name, name)
	}
	if err := r.settle(ctx, g); err != nil {
		return r.notRunWhileHeld(err, g, "commit "+name)
	}
	m.mu.Lock()
	offsets := map[tp]int64{}
	for t, pos := range m.positions {
		if m.assigned[t] {
			offsets[t] = pos
		}
	}
	m.mu.Unlock()
	return r.commitThrough(ctx, m.client, offsets)
}

// commitThrough commits offsets through a member's client.
func (r *runner) commitThrough(ctx context.Context, client *kgo.Client, offsets map[tp]int64) error {
	if len(offsets) == 0 {
		return nil
	}
	request := map[string]map[int32]kgo.EpochOffset{}
	for t, offset := range offsets {
		topic := r.opts.Prefix + t.topic
		if request[topic] == nil {
			request[topic] = map[int32]kgo.EpochOffset{}
		}
		request[topic][int32(t.partition)] = kgo.EpochOffset{Epoch: -1, Offset: offset}
	}
	var commitErr error
	// The commit waits for a rebalance in progress, which a frozen broker
	// never ends.
	if err := within(ctx, func() error {
		client.CommitOffsetsSync(ctx, request, func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
			if err != nil {
				commitErr = err
				return
			}
			for _, t := range resp.Topics {
				for _, p := range t.Partitions {
					if err := kerr.ErrorForCode(p.ErrorCode); err != nil {
						commitErr = fmt.Errorf("committing %s/%d: %w", t.Topic, p.Partition, err)
					}
				}
			}
		})
		return nil
	}); err != nil {
		return err
	}
	return commitErr
}

// commitOffset commits one offset for the group: through a live member
// (commitSync with explicit offsets), or as an admin when it has none.
func (r *runner) commitOffset(ctx context.Context, g *groupRun, t tp, offset int64) error {
	if names := g.liveNames(); len(names) > 0 {
		if err := r.settle(ctx, g); err != nil {
			return r.notRunWhileHeld(err, g, fmt.Sprintf("commit %s offset=%d", t, offset))
		}
		return r.commitThrough(ctx, g.members[names[0]].client, map[tp]int64{t: offset})
	}
	err := r.adminCommit(ctx, g, map[tp]int64{t: offset})
	if errors.Is(err, kerr.UnknownMemberID) {
		// The group has no live member but is not empty on the broker:
		// static members that left stay until their sessions end, and
		// Kafka takes a commit from outside the group only when it is
		// Empty (Kafka 4.x ClassicGroup.validateOffsetCommit).
		gp := groupPartition{g.name, t}
		if _, ok := r.marks.refused[gp]; !ok {
			r.marks.refused[gp] = ReasonOutsideCommit
		}
		r.marks.note(fmt.Sprintf("commit %s %s offset=%d: refused by the broker (%v)", g.name, t, offset, err))
		return nil
	}
	return err
}

func (r *runner) adminCommit(ctx context.Context, g *groupRun, offsets map[tp]int64) error {
	var os kadm.Offsets
	for t, offset := range offsets {
		os.AddOffset(r.opts.Prefix+t.topic, int32(t.partition), offset, -1)
	}
	resp, err := r.admin.CommitOffsets(ctx, g.id, os)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		return fmt.Errorf("committing offsets of group %s: %w", g.id, err)
	}
	g.made, g.deleted = true, false
	return nil
}

// reset moves committed offsets as kafka-consumer-groups --reset-offsets
// does, on the partitions the playground resets.
func (r *runner) reset(ctx context.Context, g *groupRun, c scenario.Command) error {
	if c.Has("to-datetime") {
		return nil // record times differ from virtual time: markAfter notes it
	}
	committed, err := r.committed(ctx, g)
	if err != nil {
		return err
	}
	var targets []tp
	if c.Has("topic") {
		topic, partition, err := c.TopicOrPartition("topic")
		if err != nil {
			return err
		}
		if partition >= 0 {
			targets = []tp{{topic, partition}}
		} else {
			for p := range r.partitions[topic] {
				targets = append(targets, tp{topic, p})
			}
		}
	} else {
		targets = slices.SortedFunc(maps.Keys(committed), compareTP)
	}
	var topics []string
	for _, t := range targets {
		if !slices.Contains(topics, t.topic) {
			topics = append(topics, t.topic)
		}
	}
	starts, ends, err := r.offsets(ctx, topics...)
	if err != nil {
		return err
	}
	var to int64
	if !c.HasFlag("to-earliest") && !c.HasFlag("to-latest") {
		if to, err = c.Count("to-offset"); err != nil {
			return err
		}
	}
	offsets := map[tp]int64{}
	for _, t := range targets {
		switch {
		case c.HasFlag("to-earliest"):
			offsets[t] = starts[t]
		case c.HasFlag("to-latest"):
			offsets[t] = ends[t]
		default:
			offsets[t] = min(max(to, starts[t]), ends[t])
		}
	}
	return r.adminCommit(ctx, g, offsets)
}
