package kafkarun

import (
	"context"
	"fmt"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"

	"plog/core"
	"plog/core/scenario"
)

// The online upgrade and downgrade between the classic and consumer group
// protocols (core/group_migration.go) on the cluster.
//
// A member runs the protocol its join names (group.protocol, classic when
// absent), whatever its group's: a classic member of a consumer group is a
// classic franz-go client, whose JoinGroup and SyncGroup the coordinator
// answers from the consumer group (Kafka 4.4 GroupMetadataManager.
// classicGroupJoinToConsumerGroup). The first consumer-protocol member of
// a classic group converts it on the cluster as in the playground.
//
// The brokers' group.consumer.migration.policy decides whether they may.
// Kafka 4.4 reads it only at broker start: it is not among
// GroupCoordinatorConfig.RECONFIGURABLE_CONFIGS, so IncrementalAlterConfigs
// cannot change it on a running cluster. The run reads the cluster's
// policy (DescribeConfigs of a broker) and compares it with the
// playground's, which the script's brokers command sets: a join the
// cluster's policy refuses and the playground's allows fails the run,
// naming the policy to start the cluster with; a group whose last
// consumer-protocol member leaves where one policy allows the downgrade and
// the other does not is explained by ReasonMigrationPolicy.

// ReasonMigrationPolicy: see above.
const ReasonMigrationPolicy Reason = "the script's group.consumer.migration.policy is not the cluster's, and Kafka 4.4 reads it only at broker start " +
	"(GroupCoordinatorConfig: not a dynamic config): the cluster converted the group between the classic and consumer protocols under its own policy"

// migrationPolicyConfig is the brokers' config (GroupCoordinatorConfig.
// CONSUMER_GROUP_MIGRATION_POLICY_CONFIG of Kafka 4.4).
const migrationPolicyConfig = "group.consumer.migration.policy"

// clusterMigrationPolicy reads the cluster's group.consumer.migration.policy,
// once, lowercased as Kafka parses it (ConsumerGroupMigrationPolicy.parse).
// A cluster that does not describe it (kfake, a broker before Kafka 3.8)
// is taken to run Kafka's default, bidirectional.
func (r *runner) clusterMigrationPolicy(ctx context.Context) string {
	if r.migrationPolicy != "" {
		return r.migrationPolicy
	}
	r.migrationPolicy = core.MigrationBidirectional
	described, err := r.admin.DescribeBrokerConfigs(ctx)
	if err != nil {
		return r.migrationPolicy
	}
	for _, rc := range described {
		if rc.Err != nil {
			continue
		}
		for _, c := range rc.Configs {
			if c.Key == migrationPolicyConfig && c.Value != nil && *c.Value != "" {
				r.migrationPolicy = strings.ToLower(*c.Value)
				return r.migrationPolicy
			}
		}
	}
	return r.migrationPolicy
}

// notePolicy notes, at a brokers command that sets the policy, whether the
// cluster runs it.
func (r *runner) notePolicy(ctx context.Context, c scenario.Command) {
	want, ok := c.Value(migrationPolicyConfig)
	if !ok {
		return
	}
	if got := r.clusterMigrationPolicy(ctx); got != strings.ToLower(want) {
		r.marks.note(fmt.Sprintf("line %d: %s=%s: not run; Kafka 4.4 reads it only at broker start, and the cluster's is %s", c.Line, migrationPolicyConfig, want, got))
	}
}

// playgroundPolicy is the playground's group.consumer.migration.policy, as
// the group's view gives it.
func (r *runner) playgroundPolicy(group string) string {
	if v, err := r.session.Log().Group(group); err == nil && v.MigrationPolicy != "" {
		return v.MigrationPolicy
	}
	return core.MigrationBidirectional
}

// upgradeAllowed, downgradeAllowed and classicJoinAllowed are what a
// policy lets happen (ConsumerGroupMigrationPolicy.isUpgradeEnabled,
// isDowngradeEnabled; GroupMetadataManager.
// throwIfClassicMemberCannotJoinConsumerGroup).
func upgradeAllowed(policy string) bool {
	return policy == core.MigrationBidirectional || policy == core.MigrationUpgrade
}

func downgradeAllowed(policy string) bool {
	return policy == core.MigrationBidirectional || policy == core.MigrationDowngrade
}

func classicJoinAllowed(policy string) bool { return policy != core.MigrationDisabled }

// checkMigrationJoin is called before a member joins a group on the
// cluster: before is the group's protocol on the cluster until now ("" for
// a group with no members), protocol the member's. The playground took the
// join, so its policy allows it; one the cluster's policy refuses fails the
// run. Where both allow it, both convert the group alike.
func (r *runner) checkMigrationJoin(ctx context.Context, g *groupRun, c scenario.Command, before, protocol string) error {
	if before == "" || before == protocol {
		return nil
	}
	cluster, playground := r.clusterMigrationPolicy(ctx), r.playgroundPolicy(g.name)
	if cluster == playground {
		return nil
	}
	refused := ""
	switch {
	case protocol == core.ProtocolConsumer && !upgradeAllowed(cluster):
		refused = "Cannot upgrade classic group " + g.id + " to consumer group because online upgrade is disabled. (GROUP_ID_NOT_FOUND)"
	case protocol == core.ProtocolClassic && !classicJoinAllowed(cluster):
		refused = "Cannot join the consumer group " + g.id + " with the classic protocol because the group migration is disabled. (INCONSISTENT_GROUP_PROTOCOL)"
	}
	if refused != "" {
		return fmt.Errorf("the cluster's %s is %s, which refuses this join (Kafka 4.4: %s) where the playground's %s allows it; "+
			"Kafka reads the policy only at broker start: run the script on a cluster started with %s=%s", migrationPolicyConfig, cluster, refused, playground, migrationPolicyConfig, playground)
	}
	return nil
}

// markMigrationLeave marks a group whose last consumer-protocol member
// leaves while classic members stay, where the cluster's policy and the
// playground's differ on the downgrade: whether the group converts back to
// a classic group is the policy's (ConsumerGroupMigrationPolicy.
// isDowngradeEnabled, GroupMetadataManager.
// validateOnlineDowngradeWithFencedMembers).
func (r *runner) markMigrationLeave(ctx context.Context, g *groupRun, leaving string) {
	classic, consumer := 0, 0
	for name, m := range g.members {
		switch {
		case name == leaving:
		case m.consumer:
			consumer++
		default:
			classic++
		}
	}
	if !g.consumer || consumer > 0 || classic == 0 {
		return
	}
	if downgradeAllowed(r.clusterMigrationPolicy(ctx)) != downgradeAllowed(r.playgroundPolicy(g.name)) {
		r.marks.group(g.name, ReasonMigrationPolicy)
	}
}

// clusterProtocol is a group's protocol on the cluster as the run made it:
// "" when it has no member, else consumer if it runs the consumer protocol.
func (g *groupRun) clusterProtocol() string {
	switch {
	case len(g.members) == 0 && len(g.goneStatic) == 0:
		return ""
	case g.consumer:
		return core.ProtocolConsumer
	}
	return core.ProtocolClassic
}

// memberProtocols reads which protocol each member of a consumer group runs
// on the cluster, by client id (ConsumerGroupDescribe v1's MemberType,
// KIP-1099: 0 classic, 1 consumer); a member of unknown type (an older
// broker, -1) is left out.
func (r *runner) memberProtocols(ctx context.Context, g *groupRun) (map[string]string, error) {
	req := kmsg.NewPtrConsumerGroupDescribeRequest()
	req.Groups = []string{g.id}
	resp, err := req.RequestWith(ctx, r.base)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, rg := range resp.Groups {
		if err := kerr.ErrorForCode(rg.ErrorCode); err != nil {
			if isGroupGone(err) {
				return out, nil
			}
			return nil, err
		}
		for _, m := range rg.Members {
			switch m.MemberType {
			case 0:
				out[m.ClientID] = core.ProtocolClassic
			case 1:
				out[m.ClientID] = core.ProtocolConsumer
			}
		}
	}
	return out, nil
}

// classicRejoinPolls returns the polls (max=1) that let the classic members
// of a playground's consumer group rejoin: the coordinator answers such a
// member's heartbeat REBALANCE_IN_PROGRESS while it is behind the target
// assignment's epoch or has partitions to revoke or waits for some (Kafka
// 4.4 GroupMetadataManager.classicGroupHeartbeatToConsumerGroup), and the
// playground lets it rejoin at its next poll (core/group_migration.go), as
// the Java consumer does inside poll. The cluster's client runs the same
// polls, so that both sides move the member at the same point.
func classicRejoinPolls(v core.GroupView, line int) ([]scenario.Command, error) {
	var polls []scenario.Command
	for _, m := range v.Members {
		if m.Protocol != core.ProtocolClassic || m.Down != "" {
			continue
		}
		if m.Epoch >= v.AssignmentEpoch && m.MemberState == core.MemberStable && len(m.PendingRevoke) == 0 && len(m.PendingAssign) == 0 {
			continue
		}
		c, ok, err := scenario.ParseLine(fmt.Sprintf("poll %q %q max=1", v.Name, m.ID), line)
		if err != nil || !ok {
			return nil, fmt.Errorf("polling %s of group %s: %v", m.ID, v.Name, err)
		}
		polls = append(polls, c)
	}
	return polls, nil
}

// followProtocols takes each group's protocol from the playground after a
// command: a leave, a crashed member's session ending or a join may have
// converted it (core/group_migration.go), and the cluster's coordinator
// converts it at the same point. A group deleted on the cluster keeps no
// protocol there.
func (r *runner) followProtocols() {
	for _, name := range r.groupNames {
		g := r.groups[name]
		if v, err := r.session.Log().Group(name); err == nil && !g.deleted {
			g.consumer = v.Protocol == core.ProtocolConsumer
		}
	}
}

// readMemberProtocols sets the protocol of each member of a consumer group
// read from the cluster (memberProtocols), as the playground's state has it.
func (r *runner) readMemberProtocols(ctx context.Context, g *groupRun, gs *scenario.GroupState) error {
	protocols, err := r.memberProtocols(ctx, g)
	if err != nil {
		return err
	}
	for i := range gs.Members {
		gs.Members[i].Protocol = protocols[gs.Members[i].ID]
	}
	return nil
}

// ReasonEmptiedTarget: Kafka 4.4 writes an emptied consumer group's target
// assignment at the group's new epoch; see markEmptiedTarget.
const ReasonEmptiedTarget Reason = "the group's last member left: Kafka 4.4 writes the emptied group's target assignment at its new group epoch " +
	"(GroupMetadataManager.consumerGroupFenceMembers: newConsumerGroupTargetAssignmentMetadataRecord when every member is fenced), " +
	"where the playground's target assignment under rules 4 keeps the epoch it was computed at (rules 5 follow Kafka)"

// markEmptiedTarget explains the epochs of a consumer group that ends
// without members, where the cluster's target assignment epoch is its
// group epoch and the playground's is behind its own: the rule above,
// which the playground follows from rules 5 on. It explains the target
// assignment epoch alone, whatever else explains the group's epochs (under
// rules 4, ReasonFirstEpoch the group epoch's). A scenario under rules 5,
// or a playground whose target is at its group epoch, is not excused.
func (c *comparer) markEmptiedTarget(want, got scenario.GroupState) {
	if core.Follows(c.marks.rules, core.EmptiedGroupTargetAtNewEpoch) || want.Protocol != core.ProtocolConsumer || len(want.Members) > 0 || len(got.Members) > 0 ||
		want.GroupEpoch == nil || want.AssignmentEpoch == nil || got.GroupEpoch == nil || got.AssignmentEpoch == nil {
		return
	}
	if *want.AssignmentEpoch < *want.GroupEpoch && *got.AssignmentEpoch == *got.GroupEpoch {
		c.marks.targets[want.Name] = ReasonEmptiedTarget
	}
}
