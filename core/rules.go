package core

import (
	"fmt"
	"strings"
)

// The engine's rules are numbered. A rule of Kafka that the playground
// learns to follow better changes what a scenario replays to, so it comes
// under a new rules version: links, files and lessons made before it keep
// the version they were made under (the scenario's `rules N` line) and
// replay as they did. The engine branches on its version only where a rule
// differs; old rules stay in the code for old links.
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
const (
	RulesV1 = 1
	RulesV2 = 2
	RulesV3 = 3
	RulesV4 = 4
	RulesV5 = 5
	// LatestRules is the version a scenario with no rules line runs under.
	LatestRules = RulesV5
)

// RulesChanges says, for each version after 1, what changed, a phrase per
// change: RulesChanges[v] for version v.
var RulesChanges = map[int][]string{
	RulesV2: {"Kafka 3.3's built-in partitioner is the default for keyless records (KIP-794)"},
	RulesV3: {
		"the sticky assignors give the very partitions Kafka's StickyAssignor and CooperativeStickyAssignor give (kafka-clients 4.4.0)",
		"the high watermark waits while the ISR is smaller than min.insync.replicas (Kafka 3.7, KAFKA-15583), which may exceed the replication factor",
		"an offset commit from outside a group is refused while the group is not empty (UNKNOWN_MEMBER_ID)",
		"Kafka's defaults: new consumers start at the end (auto.offset.reset=latest) and commit by themselves (enable.auto.commit=true)",
		"retention checks every 5 minutes (log.retention.check.interval.ms) and the log cleaner runs by itself once half a log is dirty",
		"members get Kafka's member ids (client.id-UUID), which the assignors order members by",
	},
	RulesV4: {
		"a rebalance ends when every member has rejoined by polling, or at the rebalance timeout (max.poll.interval.ms), not after rebalance.ms; an empty group's first one waits group.initial.rebalance.delay.ms",
		"a member that does not poll within max.poll.interval.ms (5 minutes) leaves its group",
		"consumers see partitions added to a topic at their next metadata refresh (metadata.max.age.ms, 5 minutes)",
	},
	RulesV5: {
		"a consumer group starts at group epoch 1, so its first member makes it 2, as in Kafka 4.4",
		"a consumer-protocol member may commit at an older member epoch for the partitions it has owned since then (Kafka 4.4)",
		"a classic member may take a static member's group.instance.id in a consumer group",
		"a consumer group's target assignment held back by group.consumer.assignment.interval.ms waits for the next heartbeat after it, as in Kafka 4.4",
		"a member that must revoke again for a newer target keeps its epoch meanwhile",
		"a classic member joining a consumer group gets a member id as Kafka 4.4's coordinator makes it there (a Kafka Uuid)",
		"a consumer group's last member leaving puts the emptied group's target assignment at its new group epoch, as Kafka 4.4 does",
		"a transaction with nothing sent in it ends in the producer alone, with no EndTxn, so the producer's epoch stays (Kafka 4.4)",
	},
}

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
