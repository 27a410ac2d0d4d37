package kafkarun

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
	"plog/core/assign"
	"plog/core/scenario"
)

// Groups of Kafka 4's consumer group protocol (KIP-848) on the cluster.
//
// A member the script joins with group.protocol=consumer is a franz-go
// client with kgo.ServerSideBalancer: it sends ConsumerGroupHeartbeat
// (v1, the client making its member id) and the coordinator assigns
// (Kafka 4.4 GroupMetadataManager.consumerGroupHeartbeat). franz-go runs
// the new protocol only with that option and a range or sticky balancer
// first, and names the server-side assignor it asks for after that
// balancer (kgo's manage848: sticky asks for uniform, range for range):
// a member without the option, every classic member of a script, runs
// the classic protocol whatever the broker supports
// (kgo's groupConsumer.should848). A broker that does not serve the new
// protocol answers UNSUPPORTED_VERSION, on which franz-go falls back to
// the classic protocol by itself; the run checks the group's type once a
// member joined and fails rather than compare a classic group with the
// playground's consumer group.
//
// franz-go draws its member ids at random (kgo's newStringUUID) and gives
// the caller no way to set one, so the cluster's ids are not the
// playground's, which it draws from the seed: the server-side assignors
// order members by id (Kafka 4.4 UniformAssignor, RangeAssignor), so who
// owns what may differ (ReasonMemberIDs). conformance/
// consumer_protocol_test.go sends the heartbeats itself, with the
// playground's ids, and compares the target assignments exactly.

// ReasonMemberIDs: see above.
const ReasonMemberIDs Reason = "the client draws its own member ids (franz-go's KIP-848 member makes a random UUID and lets no caller set it), " +
	"the playground draws them from the seed, and Kafka's server-side assignors (UniformAssignor, RangeAssignor of Kafka 4.4) order members by id: " +
	"which member owns which partitions may differ; how many each owns, and that every partition is owned, are compared"

// ReasonFirstEpoch: Kafka 4.4 makes a consumer group at group epoch 1
// (ModernGroup's constructor), so its first member makes it 2; under rules
// 4 the playground's group starts at 0, one behind. Rules 5 start where
// Kafka does (core/group_consumer.go, newConsumerGroupEpoch), and their
// epochs are compared exactly: markFirstEpoch marks the consumer groups of
// a scenario under rules 4 only, and epochReason excuses an epoch exactly
// one more on the cluster, no other.
const ReasonFirstEpoch Reason = "under rules 4 the playground's consumer group starts at group epoch 0, where Kafka 4.4 makes one at 1 (ModernGroup) and its first member's heartbeat makes it 2: " +
	"every group, assignment and member epoch on the cluster is one more (rules 5 start where Kafka does)"

// markFirstEpoch marks a consumer group of a scenario under rules 4 with
// ReasonFirstEpoch, unless another reason explains its epochs already.
func (r *runner) markFirstEpoch(g *groupRun) {
	if core.Follows(r.session.Rules(), core.ConsumerGroupEpochFromOne) {
		return
	}
	if _, ok := r.marks.generations[g.name]; !ok {
		r.marks.generations[g.name] = ReasonFirstEpoch
	}
}

// epochReason is the reason for an epoch row of a consumer group:
// ReasonFirstEpoch only where the cluster's epoch is exactly one more,
// any other reason as it is.
func epochReason(why Reason, want, got int) Reason {
	if why == ReasonFirstEpoch && got != want+1 {
		return ""
	}
	return why
}

// ReasonSubscriptionHeartbeats: see resubscribeConsumer.
const ReasonSubscriptionHeartbeats Reason = "a member's new subscription that adds and drops topics reached the cluster's coordinator " +
	"in franz-go's heartbeats for each, which may be two group epochs where the playground's one join is one"

// serverBalancer is the franz-go balancer that makes a member ask the
// coordinator for the server-side assignor (kgo's manage848 names it
// after the first balancer). A member that asks for none asks for
// uniform, the coordinator's default: the same pick, since the script's
// members of a group all ask for one assignor or none
// (checkServerAssignors).
func serverBalancer(assignor string) kgo.GroupBalancer {
	if assignor == assign.ServerRange {
		return kgo.RangeBalancer()
	}
	return kgo.StickyBalancer()
}

// consumerHeartbeatMs is the heartbeat interval the run gives its
// consumer groups on the cluster, as a group config
// (consumer.heartbeat.interval.ms, KIP-848's per-group override of the
// broker's group.consumer.heartbeat.interval.ms): a partition moves from
// one member to another over two heartbeats, and at Kafka's 5 s a run
// would wait that long at each change. A broker whose
// group.consumer.min.heartbeat.interval.ms (5 s by default, Kafka 4.4
// GroupCoordinatorConfig) refuses it keeps its own interval, and the run
// is only slower.
const consumerHeartbeatMs = "200"

// setConsumerGroupConfigs gives a consumer group the run's heartbeat
// interval on the cluster, once, before its first member joins.
func (r *runner) setConsumerGroupConfigs(ctx context.Context, g *groupRun) {
	r.markFirstEpoch(g)
	if g.configured {
		return
	}
	g.configured = true
	err := r.alterGroupConfig(ctx, g, kmsg.IncrementalAlterConfigOpSet)
	if err != nil {
		r.marks.note(fmt.Sprintf("group %s: the cluster refused consumer.heartbeat.interval.ms=%sms (%v): its members heartbeat at the broker's interval, and the run takes longer", g.name, consumerHeartbeatMs, err))
		g.configured = false
		return
	}
	g.hasConfig = true
}

// alterGroupConfig sets, and waits for the brokers to have, or deletes the
// run's consumer.heartbeat.interval.ms of a group.
func (r *runner) alterGroupConfig(ctx context.Context, g *groupRun, op kmsg.IncrementalAlterConfigOp) error {
	configs := map[string]string{"consumer.heartbeat.interval.ms": consumerHeartbeatMs}
	if op == kmsg.IncrementalAlterConfigOpSet {
		return r.setGroupConfigs(ctx, g.id, configs)
	}
	return r.alterGroupConfigs(ctx, g.id, op, configs)
}

// consumerMemberOpts are the options that make a member a consumer-protocol
// member asking for assignor.
func consumerMemberOpts(assignor string) []kgo.Opt {
	return []kgo.Opt{kgo.ServerSideBalancer(), kgo.Balancers(serverBalancer(assignor))}
}

// consumerGroupDesc is a consumer group as ConsumerGroupDescribe
// (KIP-848) describes it, with the script's topic names.
type consumerGroupDesc struct {
	State                  string
	Epoch, AssignmentEpoch int32
	Assignor               string
	Members                []consumerMemberDesc
}

type consumerMemberDesc struct {
	ClientID, MemberID string
	InstanceID         *string
	Epoch              int32
	Subscribed         []string // script names
	Assignment, Target []tp
}

// describeConsumerGroup describes a consumer group (ConsumerGroupDescribe,
// KIP-848); a group the broker does not know (yet) is described with no
// members. A group id the broker holds as a classic group is an error: the
// run's members did not run the consumer protocol.
func (r *runner) describeConsumerGroup(ctx context.Context, g *groupRun) (consumerGroupDesc, error) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{g.id}
	resp, err := req.RequestWith(ctx, r.base)
	if err != nil {
		return consumerGroupDesc{}, err
	}
	if len(resp.Groups) != 1 {
		return consumerGroupDesc{}, fmt.Errorf("describing consumer group %s: %d groups in the answer", g.id, len(resp.Groups))
	}
	rg := resp.Groups[0]
	if err := kerr.ErrorForCode(rg.ErrorCode); err != nil {
		if !isGroupGone(err) {
			return consumerGroupDesc{}, err
		}
		if classic, err := r.isClassicGroup(ctx, g); err != nil || classic {
			return consumerGroupDesc{}, errors.Join(err, fmt.Errorf("group %s runs the classic protocol on the cluster, not the consumer protocol the script joined it with: does the broker serve KIP-848 (Kafka 4.0+, group.coordinator.rebalance.protocols includes consumer)?", g.id))
		}
		return consumerGroupDesc{}, nil
	}
	d := consumerGroupDesc{State: rg.State, Epoch: rg.Epoch, AssignmentEpoch: rg.AssignmentEpoch, Assignor: rg.AssignorName}
	for _, rm := range rg.Members {
		m := consumerMemberDesc{ClientID: rm.ClientID, MemberID: rm.MemberID, InstanceID: rm.InstanceID, Epoch: rm.MemberEpoch}
		for _, t := range rm.SubscribedTopics {
			m.Subscribed = append(m.Subscribed, r.unprefix(t))
		}
		if m.Assignment, err = r.describedPartitions(ctx, rm.Assignment); err == nil {
			m.Target, err = r.describedPartitions(ctx, rm.TargetAssignment)
		}
		if err != nil {
			return consumerGroupDesc{}, err
		}
		d.Members = append(d.Members, m)
	}
	return d, nil
}

// describedPartitions turns a described assignment into the script's
// partitions, sorted. Kafka names each topic by id and name; a broker that
// gives only the id (kfake) has it looked up.
func (r *runner) describedPartitions(ctx context.Context, a kmsg.Assignment) ([]tp, error) {
	var out []tp
	for _, t := range a.TopicPartitions {
		name := t.Topic
		if name == "" {
			var err error
			if name, err = r.topicName(ctx, t.TopicID); err != nil {
				return nil, err
			}
		}
		for _, p := range t.Partitions {
			out = append(out, tp{r.unprefix(name), int(p)})
		}
	}
	slices.SortFunc(out, compareTP)
	return out, nil
}

// topicName looks a topic id up in the cluster's metadata.
func (r *runner) topicName(ctx context.Context, id [16]byte) (string, error) {
	md, err := r.admin.Metadata(ctx, r.prefixed(r.created)...)
	if err != nil {
		return "", err
	}
	for name, t := range md.Topics {
		if t.ID == id {
			return name, nil
		}
	}
	return "", fmt.Errorf("the cluster names no topic of the run by id %s", kadm.TopicID(id))
}

// isClassicGroup says the broker lists the group id as a classic group
// (ListGroups v5's group type, KIP-848).
func (r *runner) isClassicGroup(ctx context.Context, g *groupRun) (bool, error) {
	listed, err := r.admin.ListGroupsByType(ctx, []string{"classic"})
	if err != nil {
		return false, err
	}
	_, ok := listed[g.id]
	return ok, nil
}

// settleConsumer waits until the consumer group is Stable on the cluster
// (every member at the target assignment's epoch, nothing left to revoke
// or assign: Kafka 4.4 ConsumerGroup.maybeUpdateGroupState) with exactly
// the live members, each client holding what the broker says it owns, and
// every partition of the topics they subscribe to owned.
func (r *runner) settleConsumer(ctx context.Context, g *groupRun) error {
	what := fmt.Sprintf("consumer group %s to be stable with members %s", g.id, strings.Join(g.liveNames(), ", "))
	return r.waitFor(ctx, what, func() (bool, error) {
		d, err := r.describeConsumerGroup(ctx, g)
		if err != nil || d.State != "Stable" {
			return false, err
		}
		seen := map[string]bool{}
		owned := map[tp]bool{}
		for _, dm := range d.Members {
			assigned := dm.Assignment
			for _, t := range assigned {
				owned[t] = true
			}
			m := g.members[dm.ClientID]
			if m == nil {
				if _, gone := g.goneStatic[dm.ClientID]; gone {
					continue // kept, with its partitions, until its session ends
				}
				return false, nil // a member that left is still listed
			}
			seen[dm.ClientID] = true
			if dm.Epoch != d.Epoch || !slices.Equal(assigned, m.assignment()) {
				return false, nil
			}
		}
		for name, m := range g.members {
			if !seen[name] {
				return false, nil
			}
			for _, topic := range m.topics {
				for p := range r.partitions[topic] {
					if !owned[tp{topic, p}] {
						return false, nil
					}
				}
			}
		}
		return true, nil
	})
}

// clusterConsumerState maps a consumer group's state as
// ConsumerGroupDescribe names it (Kafka 4.4 ConsumerGroup.ConsumerGroupState)
// to the playground's.
func clusterConsumerState(state string) string {
	switch state {
	case "Stable":
		return core.GroupStable
	case "Assigning":
		return core.GroupAssigning
	case "Reconciling":
		return core.GroupReconciling
	case "Dead":
		return core.GroupDead
	}
	return core.GroupEmpty
}

// readConsumerGroup reads a consumer group's protocol, epochs, assignor
// and members, with each member's epoch and target assignment, into gs.
// It returns who owns what and the partitions the members subscribe to.
func (r *runner) readConsumerGroup(ctx context.Context, g *groupRun, gs *scenario.GroupState) (owners map[tp]string, read map[tp]bool, err error) {
	d, err := r.describeConsumerGroup(ctx, g)
	if err != nil {
		return nil, nil, err
	}
	epoch, assignmentEpoch := int(d.Epoch), int(d.AssignmentEpoch)
	gs.Protocol, gs.Generation, gs.GroupEpoch, gs.AssignmentEpoch = core.ProtocolConsumer, epoch, &epoch, &assignmentEpoch
	gs.Assignor, gs.State = d.Assignor, clusterConsumerState(d.State)
	owners, read = map[tp]string{}, map[tp]bool{}
	for _, dm := range d.Members {
		memberEpoch := int(dm.Epoch)
		ms := scenario.MemberState{ID: dm.ClientID, MemberID: dm.MemberID, Epoch: &memberEpoch, Assignment: stateAssignment(dm.Assignment)}
		if len(dm.Target) > 0 {
			ms.Target = stateAssignment(dm.Target)
		}
		if dm.InstanceID != nil {
			ms.Instance = *dm.InstanceID
		}
		if _, gone := g.goneStatic[dm.ClientID]; gone {
			ms.Down = "left"
		}
		for _, t := range dm.Assignment {
			owners[t] = dm.ClientID
		}
		for _, topic := range dm.Subscribed {
			for p := range r.partitions[topic] {
				read[tp{topic, p}] = true
			}
		}
		gs.Members = append(gs.Members, ms)
	}
	return owners, read, nil
}

// stateAssignment writes sorted partitions as a MemberState's assignment.
func stateAssignment(tps []tp) []scenario.AssignmentState {
	out := []scenario.AssignmentState{}
	for _, t := range tps {
		if n := len(out); n == 0 || out[n-1].Topic != t.topic {
			out = append(out, scenario.AssignmentState{Topic: t.topic})
		}
		a := &out[len(out)-1]
		a.Partitions = append(a.Partitions, t.partition)
	}
	return out
}

// settlePlaygroundConsumer advances the playground's clock until its
// consumer group is stable (or empty): its members reconcile at their
// heartbeats, every consumer.heartbeat.interval.ms of virtual time, and a
// crashed member's partitions move once its session ends (Kafka 4.4
// GroupMetadataManager: the member is fenced at
// group.consumer.session.timeout.ms). The cluster's members reconcile
// within a moment of wall time, so both sides let it end before the next
// command of the group. It returns how far the clock advanced.
func (r *runner) settlePlaygroundConsumer(v core.GroupView, line int) (int64, error) {
	start := r.session.Log().Now()
	step := max(v.Config.ConsumerHeartbeatIntervalMs, 1)
	// A member fenced at its session's end, and the heartbeats after it
	// that reconcile the others.
	for range int(v.Config.ConsumerSessionTimeoutMs/step) + 8 {
		if v.State == core.GroupStable || v.State == core.GroupEmpty {
			break
		}
		c, ok, err := scenario.ParseLine("advance "+strconv.FormatInt(step, 10)+"ms", line)
		if err != nil || !ok {
			return 0, err
		}
		events, err := r.session.ApplyCommand(c)
		if err == nil {
			err = r.markAfter(c, events)
		}
		if err != nil {
			return 0, err
		}
		r.timingEvents(events)
		if v, err = r.session.Log().Group(v.Name); err != nil {
			return 0, err
		}
	}
	return r.session.Log().Now() - start, nil
}

// checkServerAssignors refuses, before the cluster is touched, a script
// whose consumer group has members asking for different server-side
// assignors (group.remote.assignor), or some for one and some for none. A
// franz-go member always names one (serverBalancer: uniform for none), so
// the cluster's coordinator would count members the playground counts for
// none (ConsumerGroup.computePreferredServerAssignor, Kafka 4.4); and a
// group whose members ask for different ones was seen on Kafka 4.4 to
// change its pick from heartbeat to heartbeat, a new group epoch each time,
// and never become Stable.
func checkServerAssignors(cmds []scenario.Command) error {
	asked := map[string]string{}
	for _, c := range cmds {
		if p, _ := c.Value("group.protocol"); c.Name != scenario.CmdJoin || p != core.ProtocolConsumer {
			continue
		}
		group := c.Positional(0)
		assignor, _ := c.Value("group.remote.assignor")
		if first, ok := asked[group]; ok && first != assignor {
			return fmt.Errorf("line %d: group %s: %s asks for group.remote.assignor=%s where an earlier member asked for %s: "+
				"plogsim kafka runs a consumer group whose members all ask for the same server-side assignor (or all for none), "+
				"since its client always names one and Kafka's coordinator, counting them, picks another than the playground",
				c.Line, group, c.Positional(1), orNone(assignor), orNone(first))
		}
		asked[group] = assignor
	}
	return nil
}

// resubscribeConsumer changes a consumer-protocol member's subscription:
// the client's next heartbeat carries it, the coordinator bumps the group
// epoch and computes a new target (Kafka 4.4 GroupMetadataManager.
// consumerGroupHeartbeat). franz-go sends a heartbeat for the added topics
// and another for the dropped ones, which may be two group epochs where
// the playground's one join is one: the run notes it.
func (r *runner) resubscribeConsumer(ctx context.Context, g *groupRun, m *member, topics, added, dropped []string) error {
	if err := r.settleConsumer(ctx, g); err != nil {
		return err
	}
	if err := r.awaitCoordinator(ctx, g.id, added); err != nil {
		return err
	}
	m.client.AddConsumeTopics(r.prefixed(added)...)
	m.client.PurgeTopicsFromConsuming(r.prefixed(dropped)...)
	m.setTopics(topics, dropped)
	if len(added) > 0 && len(dropped) > 0 {
		if why, ok := r.marks.generations[g.name]; !ok || why == ReasonFirstEpoch {
			r.marks.generations[g.name] = ReasonSubscriptionHeartbeats
		}
	}
	want := slices.Sorted(slices.Values(topics))
	return r.waitFor(ctx, fmt.Sprintf("member %s of group %s to subscribe to %s", m.name, g.id, strings.Join(topics, ",")), func() (bool, error) {
		d, err := r.describeConsumerGroup(ctx, g)
		if err != nil {
			return false, err
		}
		for _, dm := range d.Members {
			if dm.ClientID == m.name {
				return slices.Equal(slices.Sorted(slices.Values(dm.Subscribed)), want), nil
			}
		}
		return false, nil
	})
}

// compareConsumerGroup adds the rows of a consumer group: its protocol, its
// target assignment's epoch and assignor, and, since the member ids differ
// (ReasonMemberIDs), the shape of its assignment: how many partitions each
// member owns, largest first, and which partitions are owned at all.
func (c *comparer) compareConsumerGroup(want, got scenario.GroupState, why Reason) {
	c.row(want.Name+" protocol", orNone(want.Protocol), orNone(got.Protocol), "")
	epochWhy := why
	if epochWhy == "" {
		epochWhy = c.marks.generations[want.Name]
	}
	if want.AssignmentEpoch != nil && got.AssignmentEpoch != nil {
		epochWhy = epochReason(epochWhy, *want.AssignmentEpoch, *got.AssignmentEpoch)
	}
	if target, ok := c.marks.targets[want.Name]; ok && why == "" {
		epochWhy = target
	}
	c.row(want.Name+" assignment epoch", epochText(want.AssignmentEpoch), epochText(got.AssignmentEpoch), epochWhy)
	ownsWhy := why
	if ownsWhy == "" {
		ownsWhy = c.marks.owners[want.Name]
	}
	if want.Assignor != "" && got.Assignor != "" {
		c.row(want.Name+" assignor", want.Assignor, got.Assignor, cmp.Or(ownsWhy, c.emptiedAssignor(want, got)))
	}
	c.row(want.Name+" partitions per member", shapeText(want.Members), shapeText(got.Members), ownsWhy)
	c.row(want.Name+" partitions owned", ownedText(want.Members), ownedText(got.Members), ownsWhy)
}

// ReasonEmptiedAssignor: Kafka 4.4 describes an emptied consumer group's
// assignor as the brokers' default; see emptiedAssignor.
const ReasonEmptiedAssignor Reason = "the group's last member left: Kafka 4.4 describes the emptied group's assignor as the brokers' default, uniform " +
	"(ConsumerGroup.asDescribedGroup: the members' preferred server assignor, else the default), " +
	"where the playground under rules 5 and before names the last target assignment's (rules 6 follow Kafka)"

// emptiedAssignor explains the assignor of a consumer group that ends
// without members, which the cluster describes as uniform and the
// playground, under rules older than 6, as its last target's: the rule
// the playground follows from rules 6 on, under which it is not excused.
func (c *comparer) emptiedAssignor(want, got scenario.GroupState) Reason {
	if core.Follows(c.marks.rules, core.EmptiedGroupDefaultAssignor) || len(want.Members) > 0 || len(got.Members) > 0 || got.Assignor != assign.Uniform {
		return ""
	}
	return ReasonEmptiedAssignor
}

func epochText(n *int) string {
	if n == nil {
		return "-"
	}
	return strconv.Itoa(*n)
}

// shapeText writes how many partitions each member owns, largest first.
func shapeText(members []scenario.MemberState) string {
	var counts []int
	for _, m := range members {
		n := 0
		for _, a := range m.Assignment {
			n += len(a.Partitions)
		}
		counts = append(counts, n)
	}
	if len(counts) == 0 {
		return "none"
	}
	slices.Sort(counts)
	slices.Reverse(counts)
	parts := make([]string, len(counts))
	for i, n := range counts {
		parts[i] = strconv.Itoa(n)
	}
	return strings.Join(parts, " ")
}

// ownedText writes every partition some member owns.
func ownedText(members []scenario.MemberState) string {
	var all []tp
	for _, m := range members {
		for _, a := range m.Assignment {
			for _, p := range a.Partitions {
				all = append(all, tp{a.Topic, p})
			}
		}
	}
	slices.SortFunc(all, compareTP)
	return assignmentText(stateAssignment(all))
}
