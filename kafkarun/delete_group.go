package kafkarun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"

	"plog/core"
	"plog/core/scenario"
)

// delete-group on the cluster: DeleteGroups, as kafka-consumer-groups
// --delete sends it (Kafka 4.4 GroupCoordinatorShard.deleteGroups). The
// playground deletes only an empty group, so the script's delete-group
// reaches the cluster only where the playground's group has no member;
// the cluster's answer is compared with the playground's, a row of its
// own: Kafka refuses a group that still lists members with
// NON_EMPTY_GROUP (GroupNotEmptyException) and one it does not know with
// GROUP_ID_NOT_FOUND (GroupIdNotFoundException), as the playground
// refuses them in its own words (core.PartitionedLog.DeleteGroup).

// ReasonConfigOnlyGroup: a group the script named in config group only
// exists in the playground.
const ReasonConfigOnlyGroup Reason = "the playground holds a group from its first config group command; Kafka makes a group only at a member's join " +
	"or an offset commit (Kafka 4.4 GroupMetadataManager), so it knows no group this script only configured, and answers delete with GROUP_ID_NOT_FOUND"

// groupDeletion is one delete-group and the cluster's answer.
type groupDeletion struct {
	line    int
	group   string
	cluster string // "deleted", or Kafka's error
	why     Reason
}

// deleted is how a deletion the cluster accepted reads in its row.
const deleted = "deleted"

// deleteGroupCommand deletes a group on the cluster. The members the run
// closed have left (their clients sent LeaveGroup, or the consumer
// protocol's leave heartbeat), but the broker may list one a moment
// longer: NON_EMPTY_GROUP is tried again until WaitTimeout, and then
// recorded as the cluster's answer.
func (r *runner) deleteGroupCommand(ctx context.Context, c scenario.Command) error {
	g := r.group(c.Positional(0))
	d := groupDeletion{line: c.Line, group: g.name, cluster: deleted}
	deadline := time.Now().Add(r.opts.WaitTimeout)
	var err error
	for {
		resp, reqErr := r.admin.DeleteGroups(ctx, g.id)
		if reqErr != nil {
			return fmt.Errorf("deleting group %s: %w", g.id, reqErr)
		}
		err = resp[g.id].Err
		if errors.Is(err, kerr.NonEmptyGroup) && len(g.members) == 0 && time.Now().Before(deadline) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		switch {
		case err == nil:
		case errors.Is(err, kerr.GroupIDNotFound) && !g.made:
			d.cluster, d.why = kafkaError(err), ReasonConfigOnlyGroup
		case errors.Is(err, kerr.NonEmptyGroup), errors.Is(err, kerr.GroupIDNotFound):
			d.cluster = kafkaError(err)
		default:
			return fmt.Errorf("deleting group %s: %w", g.id, err)
		}
		break
	}
	if why := r.marks.groups[g.name]; d.why == "" && d.cluster != deleted {
		d.why = why // a crash, say, left the cluster's group otherwise
	}
	r.marks.deletions = append(r.marks.deletions, d)
	if err == nil || errors.Is(err, kerr.GroupIDNotFound) {
		// Gone on the cluster: it reads as Dead until a join or a
		// commit makes it again.
		g.deleted, g.made, g.consumer = true, false, false
	}
	return nil
}

// kafkaError writes a Kafka error as its code's name, NON_EMPTY_GROUP.
func kafkaError(err error) string {
	var ke *kerr.Error
	if errors.As(err, &ke) {
		return ke.Message
	}
	return err.Error()
}

// compareDeletions adds a row per delete-group: the playground deleted the
// group (it refuses the script otherwise); the cluster's answer beside it.
func (c *comparer) compareDeletions() {
	for _, d := range c.marks.deletions {
		c.row(fmt.Sprintf("%s delete-group (line %d)", d.group, d.line), deleted, d.cluster, d.why)
	}
}

// deletedState is a deleted group's state on the cluster: Kafka describes
// a group it does not know as Dead (ConsumerGroupCommand of kafka-tools
// 4.4: "Consumer group ... does not exist"), as the playground's deleted
// group is.
const deletedState = core.GroupDead
