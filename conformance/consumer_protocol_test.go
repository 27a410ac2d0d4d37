package conformance

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core/assign"
	"plog/core/scenario"
	"plog/kafkarun"
)

// Kafka 4's consumer group protocol (KIP-848) on the broker beside the
// playground's (core/group_consumer.go). The broker runs it by default
// (Kafka 4.4 GroupCoordinatorConfig: group.coordinator.rebalance.protocols
// is classic,consumer,streams). The tests send ConsumerGroupHeartbeat
// themselves, as the Java consumer does (ConsumerMembershipManager of
// kafka-clients 4.4: a full heartbeat, and the assignment the answer
// carries taken at once, its revocations acknowledged in the next), with
// the member ids the playground drew from the seed: KIP-848's clients make
// their own member ids (ConsumerGroupHeartbeat v1), and franz-go, which
// plogsim kafka runs, lets no caller choose one. So the target
// assignments of uniform and range are compared exactly, beside the group
// and member epochs, the group's states, and the commits the coordinator
// takes and refuses.

// consumerProtocolConfigs are the conformance broker's configs for the
// consumer protocol. Kafka 4.4's least consumer group heartbeat interval
// and session timeout are 5 s and 45 s (GroupCoordinatorConfig:
// group.consumer.min.heartbeat.interval.ms,
// group.consumer.min.session.timeout.ms); lower minimums let the tests
// give their groups, as group configs, a session that ends within a second
// or two, and let plogsim kafka heartbeat every 200 ms
// (kafkarun/consumer_protocol.go), so that the lessons' consumer groups
// settle in moments. The defaults, which the playground follows
// (core/config_registry.go), stay Kafka's.
var consumerProtocolConfigs = map[string]string{
	"group.consumer.min.heartbeat.interval.ms": "100",
	"group.consumer.min.session.timeout.ms":    "1000",
}

// hbMember is one member of a consumer group on the broker, driven by the
// test's heartbeats.
type hbMember struct {
	name, id string // the script's name; the playground's member id
	topics   []string
	assignor string
	epoch    int32
	owned    map[[16]byte][]int32 // by topic id
	// interval is the heartbeat interval the last answer gave, the
	// group's consumer.heartbeat.interval.ms as the coordinator has it.
	interval int32
}

// cpCluster is a consumer group on the broker and what the test knows of
// its topics.
type cpCluster struct {
	t        *testing.T
	ctx      context.Context
	client   *kgo.Client
	admin    *kadm.Client
	group    string
	prefix   string
	ids      map[string][16]byte // topic ids by script name
	names    map[[16]byte]string
	members  []*hbMember
	lastJoin time.Time // when the last join's target was seen
}

func newCPCluster(t *testing.T, ctx context.Context, name string, topics map[string]int) *cpCluster {
	t.Helper()
	client, admin := adminOf(t, brokers)
	c := &cpCluster{t: t, ctx: ctx, client: client, admin: admin, prefix: fmt.Sprintf("cp-%s-%d-", name, time.Now().UnixNano()),
		ids: map[string][16]byte{}, names: map[[16]byte]string{}}
	c.group = c.prefix + "g"
	for _, topic := range slices.Sorted(func(yield func(string) bool) {
		for k := range topics {
			if !yield(k) {
				return
			}
		}
	}) {
		if _, err := admin.CreateTopic(ctx, int32(topics[topic]), 1, nil, c.prefix+topic); err != nil {
			t.Fatalf("creating %s: %v", topic, err)
		}
		waitForTopic(t, ctx, client, c.prefix+topic)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		admin.DeleteGroups(ctx, c.group)
		for topic := range topics {
			admin.DeleteTopics(ctx, c.prefix+topic)
		}
	})
	// The coordinator assigns from its own view of the topics, which may
	// lag the broker's Metadata for a moment.
	seen := map[string]int{}
	for topic, n := range topics {
		seen[c.prefix+topic] = n
	}
	if err := kafkarun.AwaitCoordinatorImage(ctx, client, c.group, seen, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	md, err := admin.Metadata(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for topic := range topics {
		id := md.Topics[c.prefix+topic].ID
		c.ids[topic], c.names[id] = id, topic
	}
	return c
}

// groupConfigs sets the group's configs (IncrementalAlterConfigs on a
// GROUP resource, KIP-848).
func (c *cpCluster) groupConfigs(configs map[string]string) {
	c.t.Helper()
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, c.group
	for k, v := range configs {
		cfg := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		cfg.Name, cfg.Value = k, kmsg.StringPtr(v)
		res.Configs = append(res.Configs, cfg)
	}
	req.Resources = append(req.Resources, res)
	resp, err := req.RequestWith(c.ctx, c.client)
	if err == nil {
		err = kerr.ErrorForCode(resp.Resources[0].ErrorCode)
	}
	if err != nil {
		c.t.Fatalf("group configs %v: %v", configs, err)
	}
}

// heartbeat sends a member's full heartbeat and takes the assignment the
// answer carries.
func (c *cpCluster) heartbeat(m *hbMember) {
	c.t.Helper()
	req := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	req.Group, req.MemberID, req.MemberEpoch = c.group, m.id, m.epoch
	req.RebalanceTimeoutMillis = 30000
	for _, topic := range m.topics {
		req.SubscribedTopicNames = append(req.SubscribedTopicNames, c.prefix+topic)
	}
	if m.assignor != "" {
		req.ServerAssignor = kmsg.StringPtr(m.assignor)
	}
	req.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{}
	for id, ps := range m.owned {
		rt := kmsg.NewConsumerGroupHeartbeatRequestTopic()
		rt.TopicID, rt.Partitions = id, ps
		req.Topics = append(req.Topics, rt)
	}
	resp, err := req.RequestWith(c.ctx, c.client)
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if err != nil {
		c.t.Fatalf("heartbeat of %s (epoch %d): %v", m.name, m.epoch, err)
	}
	m.epoch, m.interval = resp.MemberEpoch, resp.HeartbeatIntervalMillis
	if resp.Assignment != nil {
		m.owned = map[[16]byte][]int32{}
		for _, t := range resp.Assignment.Topics {
			m.owned[t.TopicID] = t.Partitions
		}
	}
}

// join is a member's first heartbeat, at epoch 0. Kafka computes a new
// target assignment at most every group.consumer.assignment.interval.ms
// (1 s, Kafka 4.4 GroupMetadataManager.canComputeNextTargetAssignment):
// the playground's steps are seconds of virtual time apart, so the
// cluster's joins are at least that far apart too. The interval runs from
// the last computation, on the broker's clock, which is this machine's:
// that computation came before the answer that showed its target (lastJoin),
// so a join sent more than the interval after that answer is past it,
// however late the broker handled either.
func (c *cpCluster) join(m *hbMember) {
	time.Sleep(time.Until(c.lastJoin.Add(1100 * time.Millisecond)))
	c.members = append(c.members, m)
	c.heartbeat(m)
	// Kafka 4.4.0 computes the new target assignment within the heartbeat
	// (GroupMetadataManager.maybeUpdateTargetAssignment), as the playground
	// does: its group.consumer.assignor.offload.enable, true by default, is
	// read by nothing in its GroupMetadataManager. The member heartbeats
	// until its epoch is the group's, which takes one heartbeat or two.
	waitFor(c.t, "the target assignment of group "+c.group, func() bool {
		c.heartbeat(m)
		return m.epoch == c.describe().Epoch
	})
	c.lastJoin = time.Now()
}

// settle heartbeats the running members until the group is Stable.
func (c *cpCluster) settle(running ...*hbMember) kmsg.ConsumerGroupDescribeResponseGroup {
	c.t.Helper()
	var d kmsg.ConsumerGroupDescribeResponseGroup
	waitFor(c.t, "group "+c.group+" to be Stable", func() bool {
		for _, m := range running {
			c.heartbeat(m)
		}
		d = c.describe()
		return d.State == "Stable"
	})
	return d
}

func (c *cpCluster) describe() kmsg.ConsumerGroupDescribeResponseGroup {
	c.t.Helper()
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{c.group}
	resp, err := req.RequestWith(c.ctx, c.client)
	if err == nil && len(resp.Groups) != 1 {
		err = fmt.Errorf("%d groups described", len(resp.Groups))
	}
	if err == nil {
		err = kerr.ErrorForCode(resp.Groups[0].ErrorCode)
	}
	if err != nil {
		c.t.Fatalf("describing %s: %v", c.group, err)
	}
	return resp.Groups[0]
}

// commit commits offsets as a member at an epoch (OffsetCommit v9+, whose
// generation is the member epoch for a consumer group) and returns each
// partition's error.
func (c *cpCluster) commit(m *hbMember, epoch int32, offsets map[string]map[int32]int64) map[string]error {
	c.t.Helper()
	req := kmsg.NewPtrOffsetCommitRequest()
	req.Group, req.Generation, req.MemberID = c.group, epoch, m.id
	for topic, ps := range offsets {
		rt := kmsg.NewOffsetCommitRequestTopic()
		rt.Topic, rt.TopicID = c.prefix+topic, c.ids[topic]
		for p, o := range ps {
			rp := kmsg.NewOffsetCommitRequestTopicPartition()
			rp.Partition, rp.Offset = p, o
			rt.Partitions = append(rt.Partitions, rp)
		}
		req.Topics = append(req.Topics, rt)
	}
	resp, err := req.RequestWith(c.ctx, c.client)
	if err != nil {
		c.t.Fatalf("commit: %v", err)
	}
	out := map[string]error{}
	for _, t := range resp.Topics {
		for _, p := range t.Partitions {
			name := t.Topic
			if n, ok := c.names[t.TopicID]; ok {
				name = c.prefix + n
			}
			out[fmt.Sprintf("%s/%d", strings.TrimPrefix(name, c.prefix), p.Partition)] = kerr.ErrorForCode(p.ErrorCode)
		}
	}
	return out
}

// groupText writes what a cluster can show of a consumer group, as
// groupStateText does. The scenarios run under rules 5, whose epochs are
// Kafka 4.4's (a consumer group made at group epoch 1, ModernGroup), and
// are compared as they are.
func (c *cpCluster) groupText(d kmsg.ConsumerGroupDescribeResponseGroup, ids []string) string {
	epoch, assignmentEpoch := int(d.Epoch), int(d.AssignmentEpoch)
	g := scenario.GroupState{State: strings.ToLower(d.State), GroupEpoch: &epoch, AssignmentEpoch: &assignmentEpoch, Assignor: d.AssignorName}
	for _, m := range d.Members {
		memberEpoch := int(m.MemberEpoch)
		g.Members = append(g.Members, scenario.MemberState{MemberID: m.MemberID, Epoch: &memberEpoch, Assignment: c.assignment(m.Assignment), Target: c.assignment(m.TargetAssignment)})
	}
	return groupStateText(g, ids)
}

// assignment is a described assignment by the script's topic names.
func (c *cpCluster) assignment(a kmsg.Assignment) []scenario.AssignmentState {
	var out []scenario.AssignmentState
	for _, t := range a.TopicPartitions {
		ps := make([]int, len(t.Partitions))
		for i, p := range t.Partitions {
			ps[i] = int(p)
		}
		out = append(out, scenario.AssignmentState{Topic: c.names[t.TopicID], Partitions: ps})
	}
	return out
}

// playgroundText writes the same of the playground's group after script.
func playgroundText(t *testing.T, script, group string, ids []string) (string, scenario.GroupState) {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatalf("playground: %v", err)
	}
	var g scenario.GroupState
	for _, gs := range scenario.Snapshot(s.Log()).Groups {
		if gs.Name == group {
			g = gs
		}
	}
	if g.GroupEpoch == nil || g.AssignmentEpoch == nil {
		t.Fatalf("playground: group %s is not a consumer group: %+v", group, g)
	}
	return groupStateText(g, ids), g
}

// groupStateText writes what a cluster can show of a consumer group: its
// state, epochs and assignor, and each member's epoch, assignment and
// target, by member id in the order given.
func groupStateText(g scenario.GroupState, ids []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "state %s, group epoch %d, assignment epoch %d, assignor %s\n", g.State, *g.GroupEpoch, *g.AssignmentEpoch, g.Assignor)
	for _, id := range ids {
		i := slices.IndexFunc(g.Members, func(m scenario.MemberState) bool { return m.MemberID == id })
		if i < 0 {
			fmt.Fprintf(&b, "  %s: not a member\n", id)
			continue
		}
		m := g.Members[i]
		fmt.Fprintf(&b, "  %s: epoch %d, owns %s, target %s\n", id, *m.Epoch, stateText(m.Assignment), stateText(m.Target))
	}
	return b.String()
}

func stateText(a []scenario.AssignmentState) string {
	var parts []string
	for _, t := range a {
		for _, p := range t.Partitions {
			parts = append(parts, fmt.Sprintf("%s/%d", t.Topic, p))
		}
	}
	slices.Sort(parts)
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, ",")
}

// memberIDs are the playground's member ids of the script's members, by
// name.
func memberIDs(t *testing.T, script, group string) map[string]string {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatalf("playground: %v", err)
	}
	out := map[string]string{}
	for _, gs := range scenario.Snapshot(s.Log()).Groups {
		if gs.Name == group {
			for _, m := range gs.Members {
				out[m.ID] = m.MemberID
			}
		}
	}
	return out
}

// The same members join, one crashes, on the playground and on the broker:
// after each step the group's state, epochs and assignor, and each
// member's epoch, assignment and target assignment, are the same. The
// uniform case subscribes every member to one topic (where Kafka's
// UniformAssignor's answer does not depend on the topic's id, which the
// broker draws at random and the playground from the name: the
// assignors' own conformance is conformance/server_assign_oracle_test.go),
// the range case two topics, one of them read by two members of three
// (RangeAssignor's ranges do not depend on topic ids either).
func TestConsumerProtocolLikeKafka(t *testing.T) {
	cases := []struct {
		name, assignor string
		topics         map[string]int
		subs           [3]string // each member's topics
	}{
		{"uniform", "", map[string]int{"orders": 7}, [3]string{"orders", "orders", "orders"}},
		{"range", "range", map[string]int{"orders": 5, "audit": 3}, [3]string{"orders,audit", "orders", "orders,audit"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
			defer cancel()
			c := newCPCluster(t, ctx, tc.name, tc.topics)
			script := "rules 5\nseed 19\n"
			for _, topic := range slices.Sorted(func(yield func(string) bool) {
				for k := range tc.topics {
					if !yield(k) {
						return
					}
				}
			}) {
				script += fmt.Sprintf("topic %s partitions=%d\n", topic, tc.topics[topic])
			}
			assignor := ""
			if tc.assignor != "" {
				assignor = " group.remote.assignor=" + tc.assignor
			}
			names := []string{"a", "b", "c"}
			for i, n := range names {
				script += fmt.Sprintf("join g %s topics=%s group.protocol=consumer%s\n", n, tc.subs[i], assignor)
			}
			ids := memberIDs(t, script, "g")
			order := []string{ids["a"], ids["b"], ids["c"]}
			members := map[string]*hbMember{}
			for i, n := range names {
				members[n] = &hbMember{name: n, id: ids[n], topics: strings.Split(tc.subs[i], ","), assignor: tc.assignor, owned: map[[16]byte][]int32{}}
			}
			// The playground's script, step by step: each join, then
			// time enough for the members' heartbeats to reconcile.
			steps := ""
			header := script[:strings.Index(script, "join ")]
			check := func(what string, d kmsg.ConsumerGroupDescribeResponseGroup) scenario.GroupState {
				t.Helper()
				want, g := playgroundText(t, header+steps, "g", order)
				if got := c.groupText(d, order); got != want {
					t.Errorf("%s:\nplayground:\n%scluster:\n%s", what, want, got)
				}
				return g
			}
			var running []*hbMember
			for i, n := range names {
				steps += fmt.Sprintf("join g %s topics=%s group.protocol=consumer%s\n", n, tc.subs[i], assignor)
				c.join(members[n])
				running = append(running, members[n])
				check("after "+n+"'s first heartbeat", c.describe())
				steps += "advance 10s\n"
				check("once the group reconciled after "+n+" joined", c.settle(running...))
			}

			// A commit carries the member epoch (Kafka 4.4 ConsumerGroup.
			// validateOffsetCommit): at the member's epoch it is taken;
			// newer is refused with STALE_MEMBER_EPOCH; older is taken when
			// the member has owned each partition it commits since that
			// epoch (createAssignmentEpochValidator), refused when it got
			// one later. a is at 4 and commits every partition it owns,
			// on both sides: the same verdict at each epoch. With uniform
			// (sticky) a has owned them all since its first epoch, 2.
			a := members["a"]
			if a.epoch != 4 {
				t.Fatalf("a's epoch on the cluster is %d, want 4", a.epoch)
			}
			offsets := map[string]map[int32]int64{}
			for id, ps := range a.owned {
				for _, p := range ps {
					if offsets[c.names[id]] == nil {
						offsets[c.names[id]] = map[int32]int64{}
					}
					offsets[c.names[id]][p] = 0
				}
			}
			if len(offsets) == 0 {
				t.Fatalf("a owns nothing on the cluster: %v", a.owned)
			}
			steps += "poll g a\n"                                   // a position on each of its partitions, to commit
			verdicts := map[int32]bool{4: true, 5: false, 1: false} // taken
			if tc.name == "uniform" {
				verdicts[3], verdicts[2] = true, true
			}
			for _, epoch := range []int32{4, 5, 3, 2, 1} {
				var clusterErr error
				for _, err := range c.commit(a, epoch, offsets) {
					clusterErr = cmp.Or(clusterErr, err)
				}
				if clusterErr != nil && !errors.Is(clusterErr, kerr.StaleMemberEpoch) {
					t.Errorf("cluster: commit at epoch %d: %v, want it taken or STALE_MEMBER_EPOCH", epoch, clusterErr)
				}
				_, err := scenario.Load(header + steps + fmt.Sprintf("commit g a epoch=%d\n", epoch))
				if err != nil && !strings.Contains(err.Error(), "STALE_MEMBER_EPOCH") {
					t.Errorf("playground: commit at epoch %d: %v, want it taken or STALE_MEMBER_EPOCH", epoch, err)
				}
				taken := clusterErr == nil
				want, known := verdicts[epoch]
				if !known {
					want = taken // range: as the broker says
				}
				if taken != want || (err == nil) != taken {
					t.Errorf("commit at epoch %d (a's is 4): cluster %v, playground %v; want taken %v", epoch, clusterErr, err, want)
				}
			}

			// b crashes: it stops heartbeating. Until its session ends
			// the group keeps it, and its partitions, at the same
			// epoch while the others go on; then the coordinator fences
			// it, bumps the group epoch and gives its partitions to
			// the others.
			// Sessions of 2 s from here (the members heartbeat every
			// 500 ms): the crash is fenced within seconds on the broker.
			// The playground keeps Kafka's 45 s and 5 s, of virtual
			// time, which it does not let go below the brokers' default
			// minimums: each side lets the session end and the members
			// reconcile before the next comparison.
			c.groupConfigs(map[string]string{"consumer.session.timeout.ms": "2000", "consumer.heartbeat.interval.ms": "500"})
			// A group config reaches the coordinator through the
			// cluster's metadata, a moment after the answer to
			// IncrementalAlterConfigs (Kafka 4.4 DynamicConfigPublisher
			// updates GroupConfigManager), and a loaded machine makes the
			// moment long: a heartbeat before it schedules the member's
			// session at the broker's 45 s, longer than the wait for b's
			// fencing below. Each heartbeat reads both configs from the
			// group's one GroupConfig (GroupMetadataManager.
			// consumerGroupHeartbeat), so an answer with the new 500 ms
			// says the coordinator has the 2 s session; one more
			// heartbeat after it schedules each member's session at 2 s.
			waitFor(t, "the coordinator to have group "+c.group+"'s 2 s session", func() bool {
				done := true
				for _, m := range running {
					c.heartbeat(m)
					done = done && m.interval == 500
				}
				return done
			})
			for _, m := range running {
				c.heartbeat(m) // the members' sessions are 2 s from their next heartbeat
			}
			steps += "crash g b\n"
			running = []*hbMember{members["a"], members["c"]}
			for _, m := range running {
				c.heartbeat(m)
			}
			check("just after b crashed", c.describe())
			steps += "advance 45s\nadvance 10s\n"
			waitFor(t, "b to be fenced on the cluster", func() bool {
				for _, m := range running {
					c.heartbeat(m)
				}
				return !slices.ContainsFunc(c.describe().Members, func(m kmsg.ConsumerGroupDescribeResponseGroupMember) bool { return m.MemberID == ids["b"] })
			})
			check("once b's session ended and the others reconciled", c.settle(running...))
		})
	}
}

// A scenario's consumer group through plogsim kafka (franz-go's KIP-848
// member, kgo.ServerSideBalancer) is a consumer group on the broker, and a
// classic group's members stay classic: franz-go does not move them to
// the new protocol on its own, though the broker serves it. The broker's
// ListGroups (v5, KIP-848) names each group's type. Under rules 5 the
// consumer group's epochs are the broker's; under rules 4 they are one
// behind, which the comparison says (ReasonFirstEpoch).
func TestPlogsimKafkaKeepsEachGroupsProtocol(t *testing.T) {
	t.Parallel()
	for _, rules := range []int{4, 5} {
		t.Run(fmt.Sprintf("rules %d", rules), func(t *testing.T) {
			t.Parallel()
			script := fmt.Sprintf("rules %d\n", rules) + `topic orders partitions=4
produce orders count=12
join classic a topics=orders
join classic b topics=orders
join modern a topics=orders group.protocol=consumer group.remote.assignor=range
join modern b topics=orders group.protocol=consumer group.remote.assignor=range
advance 10s
poll classic a
commit classic a
poll modern a
commit modern a
leave modern b
advance 10s
`
			ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
			defer cancel()
			types := map[string]string{}
			res, err := kafkarun.Run(ctx, script, keptRunOptions())
			if err != nil {
				t.Fatal(err)
			}
			_, admin := adminOf(t, brokers)
			t.Cleanup(func() {
				admin.DeleteGroups(context.Background(), res.Prefix+"classic", res.Prefix+"modern")
				admin.DeleteTopics(context.Background(), res.Prefix+"orders")
			})
			listed, err := admin.ListGroups(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range listed {
				types[strings.TrimPrefix(g.Group, res.Prefix)] = g.GroupType
			}
			if types["classic"] != "classic" || types["modern"] != "consumer" {
				t.Errorf("the broker's group types: classic %q, modern %q; want classic and consumer", types["classic"], types["modern"])
			}
			if !res.Comparison.OK() {
				t.Errorf("unexpected differences:\n%s", res.Comparison.Text())
			}
			rows := map[string]kafkarun.Row{}
			for _, row := range res.Comparison.Rows {
				rows[row.What] = row
			}
			for _, what := range []string{"modern protocol", "modern assignor", "modern partitions per member", "modern partitions owned", "modern members", "modern state"} {
				if row, ok := rows[what]; !ok || !row.Match {
					t.Errorf("%s: %+v (present %v), want it the same on both sides\n%s", what, row, ok, res.Comparison.Text())
				}
			}
			if row := rows["modern assignor"]; row.Cluster != "range" {
				t.Errorf("modern assignor: %+v, want the range the members asked for", row)
			}
			for _, what := range []string{"modern generation", "modern assignment epoch", "modern a epoch"} {
				row, ok := rows[what]
				switch {
				case !ok:
					t.Errorf("%s: no such row\n%s", what, res.Comparison.Text())
				case rules == 5 && !row.Match:
					t.Errorf("%s: %+v, want the same epoch on both sides under rules 5", what, row)
				case rules == 4 && (row.Match || row.Reason != kafkarun.ReasonFirstEpoch):
					t.Errorf("%s: %+v, want the broker one epoch ahead for ReasonFirstEpoch under rules 4", what, row)
				}
			}
		})
	}
}

// Kafka's UniformAssignor orders a group's topics by their ids, which the
// broker draws at random when it creates a topic: the playground draws
// them from the names (assign.DefaultTopicID), so over two topics its
// engine's answer may be another than this broker's. Given the broker's
// own topic ids, plog's assignor (assign.AssignTargetInRecordOrder, which
// the engine runs, each member's last target given back in its record's
// order) gives the target assignments the broker computed, as members
// join one by one. It is given the broker's topic names too, the run's
// prefix and all: a member's subscribed names are a HashSet, whose order
// by the names' String.hashCode decides which topic the assignor takes
// first when the two ids fall in one bucket of its set of topic ids (one
// run in sixteen, which the unprefixed names answered otherwise).
func TestUniformWithTheBrokersTopicIDs(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	topics := map[string]int{"orders": 5, "audit": 4}
	c := newCPCluster(t, ctx, "ids", topics)
	ids := map[string]assign.TopicID{}
	brokerTopics := map[string]int{}
	for name, id := range c.ids {
		ids[c.prefix+name] = assign.TopicID(id)
		brokerTopics[c.prefix+name] = topics[name]
	}
	script := "rules 5\nseed 23\ntopic audit partitions=4\ntopic orders partitions=5\n"
	for _, n := range []string{"a", "b", "c"} {
		script += "join g " + n + " topics=orders,audit group.protocol=consumer\n"
	}
	memberID := memberIDs(t, script, "g")
	var joined []*hbMember
	var members []assign.TargetMember
	var target assign.Assignment
	for _, n := range []string{"a", "b", "c"} {
		m := &hbMember{name: n, id: memberID[n], topics: []string{"orders", "audit"}, owned: map[[16]byte][]int32{}}
		c.join(m)
		joined = append(joined, m)
		// The heartbeat sends the names in this order (cpCluster.heartbeat).
		members = append(members, assign.TargetMember{ID: m.id, Topics: []string{c.prefix + "orders", c.prefix + "audit"}})
		for i := range members {
			members[i].Target = target[members[i].ID]
		}
		var err error
		if target, err = assign.AssignTargetInRecordOrder(assign.Uniform, members, brokerTopics, ids); err != nil {
			t.Fatal(err)
		}
		d := c.settle(joined...)
		for _, dm := range d.Members {
			got := stateText(c.assignment(dm.TargetAssignment))
			var want []scenario.AssignmentState
			for _, tp := range target[dm.MemberID] {
				want = append(want, scenario.AssignmentState{Topic: strings.TrimPrefix(tp.Topic, c.prefix), Partitions: []int{tp.Partition}})
			}
			if stateText(want) != got {
				t.Errorf("after %s joined, %s's target: plog's assignor %s, the broker %s", n, dm.MemberID, stateText(want), got)
			}
		}
	}
}

// A consumer group's last member leaving: Kafka 4.4 writes the emptied
// group's target assignment at its new group epoch
// (GroupMetadataManager.consumerGroupFenceMembers), as the playground does
// under rules 5, so the epochs are the same on both sides; a member
// joining right after gets its target at once on both (the target's
// assignment time is 0 again). Under rules 4 the playground's target
// stays behind, and the row says why.
func TestEmptiedConsumerGroupLikeKafka(t *testing.T) {
	t.Parallel()
	const script = `topic orders partitions=2
join g a topics=orders group.protocol=consumer
advance 5s
leave g a
`
	wantRows(t, runTxnScript(t, script), map[string]string{
		"g assignment epoch": "3",
		"g state":            "empty",
	})
	wantRows(t, runTxnScript(t, script+"join g b topics=orders group.protocol=consumer\nadvance 5s\n"), map[string]string{
		"g assignment epoch":      "4",
		"g partitions owned":      "orders/0,1",
		"g partitions per member": "2",
	})
	for _, row := range runTxnScript(t, "rules 4\n"+script).Comparison.Rows {
		if row.What == "g assignment epoch" && (row.Match || row.Reason != kafkarun.ReasonEmptiedTarget) {
			t.Errorf("rules 4, the emptied group's target epoch: %+v, want a difference with ReasonEmptiedTarget", row)
		}
	}
}

// An emptied consumer group whose members asked for range: Kafka 4.4
// describes its assignor as the brokers' default, uniform
// (ConsumerGroup.asDescribedGroup: the members' preferred server assignor,
// else the default), as the playground does under rules 6. Under rules 5
// the playground names the last target's range, which the row says
// (ReasonEmptiedAssignor).
func TestEmptiedConsumerGroupsAssignorLikeKafka(t *testing.T) {
	t.Parallel()
	const script = `topic orders partitions=2
join g a topics=orders group.protocol=consumer group.remote.assignor=range
advance 5s
leave g a
`
	wantRows(t, runTxnScript(t, "rules 6\n"+script), map[string]string{
		"g assignor": "uniform",
		"g state":    "empty",
	})
	for _, row := range runTxnScript(t, "rules 5\n"+script).Comparison.Rows {
		if row.What == "g assignor" && (row.Match || row.Playground != "range" || row.Cluster != "uniform" || row.Reason != kafkarun.ReasonEmptiedAssignor) {
			t.Errorf("rules 5, the emptied group's assignor: %+v, want range against uniform, with ReasonEmptiedAssignor", row)
		}
	}
}

// A member joins a consumer group as its topic gains a partition: Kafka
// 4.4 bumps the group epoch once for the heartbeat that brings both the
// new subscription and the new subscription metadata
// (GroupMetadataManager.consumerGroupHeartbeat: one groupEpoch + 1), as
// the playground does under rules 6; under rules 5 it bumped it twice. a
// sends no heartbeat between the new partitions and b's join, so b's first
// heartbeat is the first the coordinator sees after them, on both sides.
func TestJoinAndNewPartitionsBumpOnceLikeKafka(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	c := newCPCluster(t, ctx, "bump", map[string]int{"orders": 2})
	header := "rules 6\nseed 19\ntopic orders partitions=2\n"
	joinA := "join g a topics=orders group.protocol=consumer\n"
	joinB := "join g b topics=orders group.protocol=consumer\n"
	ids := memberIDs(t, header+joinA+joinB, "g")
	order := []string{ids["a"], ids["b"]}
	a := &hbMember{name: "a", id: ids["a"], topics: []string{"orders"}, owned: map[[16]byte][]int32{}}
	b := &hbMember{name: "b", id: ids["b"], topics: []string{"orders"}, owned: map[[16]byte][]int32{}}
	check := func(what, steps string, d kmsg.ConsumerGroupDescribeResponseGroup) {
		t.Helper()
		want, _ := playgroundText(t, header+steps, "g", order)
		if got := c.groupText(d, order); got != want {
			t.Errorf("%s:\nplayground:\n%scluster:\n%s", what, want, got)
		}
	}
	steps := joinA
	c.join(a)
	steps += "advance 10s\n"
	check("once a reconciled", steps, c.settle(a))

	resp, err := c.admin.UpdatePartitions(ctx, 3, c.prefix+"orders")
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatalf("adding a partition to orders: %v", err)
	}
	if err := kafkarun.AwaitCoordinatorImage(ctx, c.client, c.group, map[string]int{c.prefix + "orders": 3}, 20*time.Second); err != nil {
		t.Fatal(err)
	}
	steps += "partitions orders count=3\n" + joinB
	c.join(b)
	d := c.describe()
	if d.Epoch != 3 {
		t.Errorf("the cluster's group epoch after b joined as orders gained a partition: %d, want 3 (a new group is at 1, a's join made it 2, b's with the partition 3)", d.Epoch)
	}
	check("after b joined as orders gained a partition", steps, d)
	if _, old := playgroundText(t, strings.Replace(header, "rules 6", "rules 5", 1)+steps, "g", order); *old.GroupEpoch != int(d.Epoch)+1 {
		t.Errorf("rules 5: the playground's group epoch %d, want the cluster's %d plus one, the second bump Kafka does not make", *old.GroupEpoch, d.Epoch)
	}
	steps += "advance 10s\n"
	check("once a and b reconciled", steps, c.settle(a, b))
}

// kafkarun.AwaitCoordinatorImage, which plogsim kafka and the tests above
// call before a member joins, returns once the group's coordinator assigns
// every partition of a topic created a moment before, leaves no probe
// group behind, and gives up, saying what it waited for, on a partition
// count the topic does not have.
func TestCoordinatorImageIsAwaited(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), caseDeadline)
	defer cancel()
	client, admin := adminOf(t, brokers)
	prefix := fmt.Sprintf("image-%d-", time.Now().UnixNano())
	topic, group := prefix+"orders", prefix+"g"
	if _, err := admin.CreateTopic(ctx, 3, 1, nil, topic); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.DeleteTopics(context.Background(), topic) })
	if err := kafkarun.AwaitCoordinatorImage(ctx, client, group, map[string]int{topic: 3}, 20*time.Second); err != nil {
		t.Fatalf("the coordinator's image of a new topic: %v", err)
	}
	err := kafkarun.AwaitCoordinatorImage(ctx, client, group, map[string]int{topic: 4}, 2*time.Second)
	if err == nil || !strings.Contains(err.Error(), "gave up after 2s waiting for the group coordinator of "+group+" to see ["+topic+"]") {
		t.Errorf("awaiting a fourth partition the topic does not have: %v, want a message that it gave up", err)
	}
	listed, err := admin.ListGroups(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range listed.Groups() {
		if strings.HasPrefix(g, prefix) {
			t.Errorf("group %s left on the cluster", g)
		}
	}
}
