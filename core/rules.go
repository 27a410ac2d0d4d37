package core

import (
	"fmt"
	"strings"
)

// The engine's rules are numbered. A rule of Kafka that the playground
// learns to follow better changes what a scenario replays to, so it comes
// under a new rules version: links, files and lessons made before it keep
// the version they were made under (the scenario's `rules N` line) and
// replay as they did. Each change has a name (RuleChange, below), and the
// engine asks whether a scenario follows it only where a rule differs; old
// rules stay in the code for old links.
//
// Every version, in one place:
//
//	1  the rules of every link, file and lesson made before rules were
//	   numbered: keyless records go round-robin, or with a topic's
//	   partitioner=sticky, to a partition chosen at random every
//	   StickyBatchRecords records.
//	2  keyless records go through Kafka's built-in partitioner (Kafka 3.3+,
//	   KIP-794; org.apache.kafka.clients.producer.internals.BuiltInPartitioner
//	   in kafka-clients 4.x): they stick to one partition until batch.size
//	   bytes have gone there, then move to another chosen at random. The
//	   partitioner is the producer's setting (partitioner=default|round-robin
//	   on produce and producer, Kafka's partitioner.class), not a topic's.
//	3  - The sticky and cooperative-sticky assignors are Kafka's own
//	     (AbstractStickyAssignor of kafka-clients 4.4.0, ported in
//	     core/assign/sticky_kafka.go), giving the very partitions Kafka's
//	     give; rules 1 and 2 keep the playground's first sticky planner, a
//	     minimum-cost flow that often picks other partitions.
//	   - The high watermark does not move while the ISR is smaller than
//	     min(min.insync.replicas, replication factor) (Kafka 3.7+,
//	     KAFKA-15583; kafka.cluster.Partition.maybeIncrementLeaderHW), and a
//	     min.insync.replicas above the replication factor is accepted.
//	   - An offset commit from outside the group (commit GROUP T/P offset=N
//	     with no live member) is refused while the group is not empty
//	     (UNKNOWN_MEMBER_ID; ClassicGroup.validateOffsetCommit).
//	   - Kafka's defaults (kafka-clients 4.4's ConsumerConfig, the broker's
//	     ServerLogConfigs and CleanerConfig): a new group's members start at
//	     the end (auto.offset.reset=latest) and auto-commit
//	     (enable.auto.commit=true); retention checks run every
//	     log.retention.check.interval.ms (5m) after log.initial.task.delay.ms
//	     (30s), on topics that do not compact; the log cleaner runs by itself
//	     every log.cleaner.backoff.ms (15s) it finds nothing to do, cleaning a
//	     partition once its dirty ratio passes 0.5, and runs retention on the
//	     compacted topics that also delete.
//	   - Members get Kafka's member ids (ClassicGroup.generateMemberId of
//	     Kafka 4.x's group coordinator: client.id, or a static member's
//	     group.instance.id, a dash and a UUID, drawn from the seed; see
//	     member_ids.go), and the assignors order members by them; rules 1
//	     and 2 give no member id and order members by name.
//	4  Rebalance timing and liveness as Kafka 4.x's classic group protocol
//	   has them (GroupMetadataManager and ClassicGroup of the
//	   group-coordinator module; ConsumerCoordinator and AbstractCoordinator
//	   of kafka-clients), instead of the playground's rebalance.ms (3s for
//	   every rebalance round, rules 1 to 3):
//	   - an empty group's first rebalance waits
//	     group.initial.rebalance.delay.ms (3s), that long again whenever a
//	     member joined in the wait, up to the rebalance timeout;
//	   - a later rebalance ends when every member has rejoined, which a
//	     consumer does inside its poll, or at the rebalance timeout (the
//	     members' max.poll.interval.ms), which removes the dynamic members
//	     that did not rejoin;
//	   - a member that does not poll within max.poll.interval.ms (5m)
//	     leaves the group (a static member stops heartbeating, and its
//	     session ends it);
//	   - partitions added to a topic start a rebalance only when the
//	     group's leader refreshes its metadata (metadata.max.age.ms, 5m).
//	   Members may also join with Kafka 4's consumer group protocol
//	   (group.protocol=consumer, KIP-848; group_consumer.go), which only
//	   rules 4 have: no link made before took it, so it needs no version of
//	   its own.
//	5  Kafka 4.4's consumer group protocol where rules 4 had it otherwise
//	   (group_consumer.go, group_migration.go):
//	   - a new consumer group starts at group epoch 1 (ModernGroup's
//	     constructor, TargetAssignmentMetadata.INITIAL of Kafka 4.4's group
//	     coordinator), so its first member's heartbeat makes it 2; a classic
//	     group made anew from an empty consumer group starts at generation
//	     0 (GroupMetadataManager.maybeDeleteEmptyConsumerGroup); rules 4
//	     start a consumer group at 0 and keep the generation;
//	   - an offset commit at an older member epoch is taken for a partition
//	     the member has owned since that epoch (ConsumerGroup.
//	     createAssignmentEpochValidator); rules 4 refuse every epoch but the
//	     member's own;
//	   - a classic member may take a static member's group.instance.id in a
//	     consumer group (getOrMaybeSubscribeStaticConsumerGroupMember from
//	     classicGroupJoinToConsumerGroup); rules 4 refuse it;
//	   - a target assignment due within group.consumer.assignment.interval.ms
//	     of the last is computed at the first heartbeat after the interval
//	     (GroupMetadataManager.maybeUpdateTargetAssignment; Kafka 4.4 delays
//	     by a timer only a streams group's, computeDelayedTargetAssignment);
//	     rules 4 compute it when the interval ends;
//	   - a member that revoked what it was told to, and must revoke more
//	     for a newer target, stays at its epoch (CurrentAssignmentBuilder:
//	     UNREVOKED_PARTITIONS computes from the member's epoch); rules 4
//	     gave it its epoch plus one;
//	   - a classic member joining a consumer group gets a member id as the
//	     coordinator makes it there, Uuid.randomUuid().toString()
//	     (classicGroupJoinToConsumerGroup); rules 4 gave it a classic
//	     group's client.id-UUID (ClassicGroup.generateMemberId);
//	   - the last member's leaving writes the emptied consumer group's
//	     target assignment at its new group epoch, with no assignment time
//	     (GroupMetadataManager.consumerGroupFenceMembers), so the next
//	     member's target is computed at once; rules 4 keep the target's
//	     epoch and time;
//	   - a transaction with nothing sent and no offsets ends in the
//	     producer alone, which sends no EndTxn, so the epoch stays
//	     (TransactionManager.nextRequest of kafka-clients 4.4.0); rules 4
//	     end it on the coordinator, which bumps the epoch.
//	6  Kafka 4.4's group coordinator where rules 5 had it otherwise
//	   (group_consumer.go, group_view.go, share.go):
//	   - a consumer-protocol heartbeat that both joins (or changes a
//	     subscription) and finds a topic's new partitions bumps the group
//	     epoch once (GroupMetadataManager.consumerGroupHeartbeat of Kafka
//	     4.4: bumpGroupEpoch from the subscription, or from new subscription
//	     metadata in updateSubscriptionMetadata, then groupEpoch + 1 once);
//	     rules 5 bump it for each;
//	   - an emptied consumer group describes its assignor as the brokers'
//	     default, uniform (ConsumerGroup.asDescribedGroup of Kafka 4.4: the
//	     members' preferred server assignor, else the default); rules 5
//	     keep the assignor of the last target assignment;
//	   - a share group's members get a topic's new partitions at once, as
//	     a running member's background heartbeat brings them
//	     (ShareHeartbeatRequestManager of kafka-clients 4.4 heartbeats every
//	     share.heartbeat.interval.ms whether or not the application polls;
//	     GroupMetadataManager.onMetadataUpdate and shareGroupHeartbeat
//	     reassign at that heartbeat); rules 5 give them at the member's
//	     next poll.
const (
	RulesV1 = 1
	RulesV2 = 2
	RulesV3 = 3
	RulesV4 = 4
	RulesV5 = 5
	RulesV6 = 6
	// LatestRules is the version a scenario with no rules line runs under.
	LatestRules = RulesV6
)

// RuleChange names one change of the engine's rules: a rule of Kafka that
// the playground follows from a rules version on. Code asks whether a
// scenario follows a change (PartitionedLog.follows, Follows), never
// compares version numbers, so that a grep of a change's name finds every
// place it makes a difference, and the table below is the one place that
// says which version brought it and how the page tells it.
type RuleChange int

// The changes, by the version that brought each (the comment above the
// constants says each with the Kafka class it follows).
const (
	noRuleChange RuleChange = iota
	// Rules 2.
	BuiltInPartitioner // keyless records through Kafka's built-in partitioner; the producer's partitioner=
	// Rules 3.
	KafkaStickyAssignors         // AbstractStickyAssignor's plans
	HighWatermarkHeldUnderMinISR // the high watermark waits for min.insync.replicas
	OutsideCommitRefused         // a commit from outside a non-empty group is refused
	KafkaConsumerDefaults        // auto.offset.reset=latest, enable.auto.commit=true
	ScheduledRetentionAndCleaner // retention checks on their schedule, the cleaner by itself
	KafkaMemberIDs               // client.id-UUID member ids, which order members
	// Rules 4.
	ClassicProtocolTiming // rebalances end on rejoins or timeouts; max.poll.interval.ms; metadata refresh
	ConsumerGroupProtocol // group.protocol=consumer (KIP-848)
	// Rules 5.
	ConsumerGroupEpochFromOne     // a new consumer group at epoch 1; a classic group made anew at generation 0
	CommitAtOlderMemberEpoch      // commits at an older member epoch for partitions owned since
	ClassicTakesStaticInstance    // a classic member may take a static member's instance id
	TargetAtNextHeartbeat         // a held-back target is computed at the next heartbeat
	RevokeAgainKeepsEpoch         // a member that must revoke again keeps its epoch
	KafkaUUIDForClassicInConsumer // a classic member in a consumer group gets a Kafka Uuid
	EmptiedGroupTargetAtNewEpoch  // the last member's leaving moves the target to the new epoch
	EmptyTxnEndsInProducer        // a transaction with nothing in it sends no EndTxn
	// Rules 6.
	OneEpochBumpPerHeartbeat      // a join and new partitions in one heartbeat bump the group epoch once
	EmptiedGroupDefaultAssignor   // an emptied consumer group describes the default assignor, uniform
	ShareNewPartitionsAtHeartbeat // a share group's members get new partitions at a heartbeat, not a poll
	lastRuleChange
)

// ruleChanges says, for each change, the version that brought it and what
// the page says it brings (RulesBrought): a phrase a learner can read.
var ruleChanges = [lastRuleChange]struct {
	version int
	phrases []string
}{
	BuiltInPartitioner: {RulesV2, []string{"Kafka 3.3's built-in partitioner is the default for keyless records (KIP-794)"}},

	KafkaStickyAssignors:         {RulesV3, []string{"the sticky assignors give the very partitions Kafka's StickyAssignor and CooperativeStickyAssignor give (kafka-clients 4.4.0)"}},
	HighWatermarkHeldUnderMinISR: {RulesV3, []string{"the high watermark waits while the ISR is smaller than min.insync.replicas (Kafka 3.7, KAFKA-15583), which may exceed the replication factor"}},
	OutsideCommitRefused:         {RulesV3, []string{"an offset commit from outside a group is refused while the group is not empty (UNKNOWN_MEMBER_ID)"}},
	KafkaConsumerDefaults:        {RulesV3, []string{"Kafka's defaults: new consumers start at the end (auto.offset.reset=latest) and commit by themselves (enable.auto.commit=true)"}},
	ScheduledRetentionAndCleaner: {RulesV3, []string{"retention checks every 5 minutes (log.retention.check.interval.ms) and the log cleaner runs by itself once half a log is dirty"}},
	KafkaMemberIDs:               {RulesV3, []string{"members get Kafka's member ids (client.id-UUID), which the assignors order members by"}},

	ClassicProtocolTiming: {RulesV4, []string{
		"a rebalance ends when every member has rejoined by polling, or at the rebalance timeout (max.poll.interval.ms), not after rebalance.ms; an empty group's first one waits group.initial.rebalance.delay.ms",
		"a member that does not poll within max.poll.interval.ms (5 minutes) leaves its group",
		"consumers see partitions added to a topic at their next metadata refresh (metadata.max.age.ms, 5 minutes)",
	}},
	// No link made before rules 4 took the consumer protocol, so it came
	// without a version of its own, and the page has not announced it.
	ConsumerGroupProtocol: {RulesV4, nil},

	ConsumerGroupEpochFromOne:     {RulesV5, []string{"a consumer group starts at group epoch 1, so its first member makes it 2, as in Kafka 4.4"}},
	CommitAtOlderMemberEpoch:      {RulesV5, []string{"a consumer-protocol member may commit at an older member epoch for the partitions it has owned since then (Kafka 4.4)"}},
	ClassicTakesStaticInstance:    {RulesV5, []string{"a classic member may take a static member's group.instance.id in a consumer group"}},
	TargetAtNextHeartbeat:         {RulesV5, []string{"a consumer group's target assignment held back by group.consumer.assignment.interval.ms waits for the next heartbeat after it, as in Kafka 4.4"}},
	RevokeAgainKeepsEpoch:         {RulesV5, []string{"a member that must revoke again for a newer target keeps its epoch meanwhile"}},
	KafkaUUIDForClassicInConsumer: {RulesV5, []string{"a classic member joining a consumer group gets a member id as Kafka 4.4's coordinator makes it there (a Kafka Uuid)"}},
	EmptiedGroupTargetAtNewEpoch:  {RulesV5, []string{"a consumer group's last member leaving puts the emptied group's target assignment at its new group epoch, as Kafka 4.4 does"}},
	EmptyTxnEndsInProducer:        {RulesV5, []string{"a transaction with nothing sent in it ends in the producer alone, with no EndTxn, so the producer's epoch stays (Kafka 4.4)"}},

	OneEpochBumpPerHeartbeat:      {RulesV6, []string{"a consumer joining a consumer group as its topic gains partitions bumps the group epoch once, not twice, as in Kafka 4.4"}},
	EmptiedGroupDefaultAssignor:   {RulesV6, []string{"a consumer group whose members have all left names the brokers' default assignor, uniform, as Kafka 4.4 describes it"}},
	ShareNewPartitionsAtHeartbeat: {RulesV6, []string{"a share group's members get a topic's new partitions at their next heartbeat, without polling, as in Kafka 4.4"}},
}

// Since is the rules version that brought the change.
func (c RuleChange) Since() int { return ruleChanges[c].version }

// Follows reports whether a scenario under a rules version follows a
// change.
func Follows(rules int, c RuleChange) bool { return rules >= c.Since() }

// follows reports whether the scenario follows a change.
func (l *PartitionedLog) follows(c RuleChange) bool { return Follows(l.rules, c) }

// RulesChanges says, for each version after 1, what changed, a phrase per
// change: RulesChanges[v] for version v. It is read from the changes'
// table, in their order.
var RulesChanges = func() map[int][]string {
	byVersion := map[int][]string{}
	for c := noRuleChange + 1; c < lastRuleChange; c++ {
		byVersion[c.Since()] = append(byVersion[c.Since()], ruleChanges[c].phrases...)
	}
	return byVersion
}()

// RulesBrought says in a line what the versions after from, up to to,
// changed, for the page's notices: what a scenario made under from lacks of
// the latest rules, and what it gained once moved to them.
func RulesBrought(from, to int) string {
	var changes []string
	for v := from + 1; v <= to; v++ {
		changes = append(changes, RulesChanges[v]...)
	}
	return strings.Join(changes, "; ")
}

// Rules returns the rules version the engine follows.
func (l *PartitionedLog) Rules() int { return l.rules }

// UseRules sets the rules version. It comes before anything else: a
// scenario is made under one version from its start.
func (l *PartitionedLog) UseRules(v int) error {
	if v < RulesV1 || v > LatestRules {
		return fmt.Errorf("rules %d is not known to this playground: it has rules 1 to %d", v, LatestRules)
	}
	if len(l.topicNames) > 0 || l.now > 0 {
		return fmt.Errorf("the rules are set at the start of a scenario, before any topic")
	}
	l.rules = v
	return nil
}
