package kafkarun

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// Group configs (ConfigResource GROUP: KIP-848's consumer.* and KIP-932's
// share.* configs) the run sets on the cluster.
//
// IncrementalAlterConfigs answers once the controller has committed the
// configs to the metadata log; each broker learns them later, as it
// replays the log, and its group coordinator and share-partitions read them
// from its GroupConfigManager. Kafka 4.4's SharePartition reads
// share.auto.offset.reset there as it initializes, at the group's first
// ShareFetch of the partition (SharePartition.startOffsetDuringInitialization
// through ShareGroupConfigProvider.autoOffsetReset): a fetch that came
// before the broker had the config started the share-partition at the
// log's end, where the playground's started at its beginning, and the
// member acquired nothing (on a busy machine the broker replays the log
// late). So the run waits until every broker has the configs it set
// (awaitGroupConfigs).
//
// A broker answers DescribeConfigs from its metadata image
// (ConfigHelper.describeConfigs reads the ConfigRepository), which Kafka
// 4.4's BrokerMetadataPublisher.onMetadataUpdate sets before it hands the
// same image to DynamicConfigPublisher, which updates the
// GroupConfigManager; the broker's MetadataLoader publishes one image after
// the other, on one thread, and may fold several records into one. So
// once a broker describes the configs, the run writes a config of its own
// on a group of its own (configBarrier) and waits until the broker
// describes that too: the barrier's image is a later one, published only
// after the configs' image had reached the GroupConfigManager.

// alterGroupConfigs sets configs of the group with id on the cluster (op
// Set, to the values given) or deletes them (op Delete, the values unused).
func (r *runner) alterGroupConfigs(ctx context.Context, id string, op kmsg.IncrementalAlterConfigOp, configs map[string]string) error {
	req := kmsg.NewPtrIncrementalAlterConfigsRequest()
	res := kmsg.NewIncrementalAlterConfigsRequestResource()
	res.ResourceType, res.ResourceName = kmsg.ConfigResourceTypeGroupConfig, id
	names := slices.Sorted(maps.Keys(configs))
	for _, name := range names {
		cfg := kmsg.NewIncrementalAlterConfigsRequestResourceConfig()
		cfg.Name, cfg.Op = name, op
		if op == kmsg.IncrementalAlterConfigOpSet {
			cfg.Value = kmsg.StringPtr(configs[name])
		}
		res.Configs = append(res.Configs, cfg)
	}
	req.Resources = append(req.Resources, res)
	resp, err := req.RequestWith(ctx, r.base)
	if err != nil {
		return err
	}
	for _, rr := range resp.Resources {
		if err := kerr.ErrorForCode(rr.ErrorCode); err != nil {
			verb := "setting"
			if op == kmsg.IncrementalAlterConfigOpDelete {
				verb = "deleting"
			}
			if rr.ErrorMessage != nil {
				return fmt.Errorf("%s %s of group %s: %w: %s", verb, strings.Join(names, ", "), id, err, *rr.ErrorMessage)
			}
			return fmt.Errorf("%s %s of group %s: %w", verb, strings.Join(names, ", "), id, err)
		}
	}
	return nil
}

// setGroupConfigs sets configs of the group with id on the cluster and
// waits until every broker has them.
func (r *runner) setGroupConfigs(ctx context.Context, id string, configs map[string]string) error {
	if err := r.alterGroupConfigs(ctx, id, kmsg.IncrementalAlterConfigOpSet, configs); err != nil {
		return err
	}
	return r.awaitGroupConfigs(ctx, id, configs)
}

// configBarrier is the group id whose config the run writes to learn that
// the brokers have applied the configs written before it: ':' is in no
// scenario's names, so no group of a scenario has it.
func (r *runner) configBarrier() string { return r.opts.Prefix + "plog:config-barrier" }

// barrierConfig is the config the barrier writes: a group's
// share.auto.offset.reset, which any broker takes, earliest and latest in
// turn, so that each write changes it (a write that changes nothing adds
// no record to the metadata log).
const barrierConfig = "share.auto.offset.reset"

// awaitGroupConfigs waits until every broker applies the configs the run
// has just set on the group with id (see the comment above). A cluster
// that does not describe group configs (one without KIP-848's) is not
// waited for: the notes say so once.
func (r *runner) awaitGroupConfigs(ctx context.Context, id string, configs map[string]string) error {
	if r.groupConfigsUnseen {
		return nil
	}
	err := r.awaitDescribed(ctx, id, configs)
	if err == nil {
		r.barrierWrites++
		mark := map[string]string{barrierConfig: [...]string{"latest", "earliest"}[r.barrierWrites%2]}
		if err = r.alterGroupConfigs(ctx, r.configBarrier(), kmsg.IncrementalAlterConfigOpSet, mark); err == nil {
			err = r.awaitDescribed(ctx, r.configBarrier(), mark)
		}
	}
	var unseen *unseenConfigsError
	if errors.As(err, &unseen) {
		r.groupConfigsUnseen = true
		r.marks.note(fmt.Sprintf("group %s: the run cannot see when the brokers take the group configs it sets (%v): a member may act before they do", id, unseen.err))
		return nil
	}
	return err
}

// unseenConfigsError is a broker's refusal to describe group configs.
type unseenConfigsError struct{ err error }

func (e *unseenConfigsError) Error() string { return e.err.Error() }

// awaitDescribed waits until every broker describes the group's configs
// with the values given.
func (r *runner) awaitDescribed(ctx context.Context, id string, configs map[string]string) error {
	names := slices.Sorted(maps.Keys(configs))
	what := fmt.Sprintf("every broker to have group %s's %s", id, strings.Join(names, ", "))
	return r.waitFor(ctx, what, func() (bool, error) {
		brokers, err := r.admin.ListBrokers(ctx)
		if err != nil {
			return false, err
		}
		for _, b := range brokers {
			req := kmsg.NewPtrDescribeConfigsRequest()
			res := kmsg.NewDescribeConfigsRequestResource()
			res.ResourceType, res.ResourceName, res.ConfigNames = kmsg.ConfigResourceTypeGroupConfig, id, names
			req.Resources = append(req.Resources, res)
			resp, err := req.RequestWith(ctx, r.base.Broker(int(b.NodeID)))
			if err != nil {
				return false, err
			}
			if len(resp.Resources) != 1 {
				return false, &unseenConfigsError{fmt.Errorf("broker %d described %d resources for one", b.NodeID, len(resp.Resources))}
			}
			if err := kerr.ErrorForCode(resp.Resources[0].ErrorCode); err != nil {
				return false, &unseenConfigsError{fmt.Errorf("broker %d: %w", b.NodeID, err)}
			}
			has := map[string]string{}
			for _, c := range resp.Resources[0].Configs {
				if c.Value != nil {
					has[c.Name] = *c.Value
				}
			}
			for name, v := range configs {
				if has[name] != v {
					return false, nil
				}
			}
		}
		return true, nil
	})
}
