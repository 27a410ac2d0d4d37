package kafkarun

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"
	"unicode/utf16"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// The group coordinator's view of the topics.
//
// A broker answers Metadata from its metadata cache, and its group
// coordinator assigns from an image of its own, which the broker hands it
// after the cache (Kafka 4.4 BrokerMetadataPublisher.onMetadataUpdate
// calls GroupCoordinator.onNewMetadataImage, and CoordinatorRuntime
// applies the image to each coordinator as one more event in its queue).
// For a moment after a topic is created, or given partitions, Metadata
// shows them and the coordinator does not: a KIP-848 or share member that
// joins then is assigned nothing of them (or not their new partitions),
// and the coordinator bumps the group epoch again when the image reaches
// it (GroupMetadataManager: the subscribed topics' metadata changed), one
// epoch more than the playground's group, where a topic is there for a
// group once it is created. Before such a member joins, the run waits
// until the coordinator sees what the member subscribes to
// (AwaitCoordinatorImage).

// AwaitCoordinatorImage waits until the group coordinator of group has
// every partition of topics (their names on the cluster and their
// partition counts) in its metadata image. It asks the same coordinator:
// a member of a probe group kept on group's partition of
// __consumer_offsets (Kafka 4.4 GroupCoordinatorService.topicPartitionFor,
// so the image reaches both in one queue) heartbeats until the uniform
// assignor gives it every partition, then leaves, and the probe group is
// deleted. It gives up after timeout.
func AwaitCoordinatorImage(ctx context.Context, client *kgo.Client, group string, topics map[string]int, timeout time.Duration) error {
	admin := kadm.NewClient(client)
	probe, err := probeGroup(ctx, admin, group, timeout)
	if err != nil {
		return err
	}
	defer func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), timeout)
		defer cancel()
		admin.DeleteGroups(ctx, probe)
	}()
	id := make([]byte, 16)
	rand.Read(id)
	req := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	// A member id of the client's making (ConsumerGroupHeartbeat v1, as
	// Kafka 4's consumers do), at epoch 0 to join.
	req.Group, req.MemberID = probe, base64.RawURLEncoding.EncodeToString(id)
	req.RebalanceTimeoutMillis = 30000
	req.SubscribedTopicNames = slices.Sorted(maps.Keys(topics))
	req.Topics = []kmsg.ConsumerGroupHeartbeatRequestTopic{}
	want := 0
	for _, n := range topics {
		want += n
	}
	joined := false
	err = pollUntil(ctx, timeout, fmt.Sprintf("the group coordinator of %s to see %s", group, req.SubscribedTopicNames), func() (bool, error) {
		resp, err := req.RequestWith(ctx, client)
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		if coordinatorNotReady(err) {
			return false, nil
		}
		if err != nil {
			return false, fmt.Errorf("probe heartbeat of group %s: %w", probe, err)
		}
		joined = true
		req.MemberEpoch = resp.MemberEpoch
		if resp.Assignment == nil {
			return false, nil
		}
		got := 0
		req.Topics = req.Topics[:0]
		for _, t := range resp.Assignment.Topics {
			got += len(t.Partitions)
			owned := kmsg.NewConsumerGroupHeartbeatRequestTopic()
			owned.TopicID, owned.Partitions = t.TopicID, t.Partitions
			req.Topics = append(req.Topics, owned)
		}
		return got == want, nil
	})
	if joined {
		req.MemberEpoch = -1 // leave
		req.RequestWith(ctx, client)
	}
	return err
}

// probeGroup is a group id, group's with a suffix, that falls on group's
// partition of __consumer_offsets.
func probeGroup(ctx context.Context, admin *kadm.Client, group string, timeout time.Duration) (string, error) {
	// Finding group's coordinator makes __consumer_offsets if it is not
	// there yet (Kafka 4.4 KafkaApis.handleFindCoordinatorRequest).
	err := pollUntil(ctx, timeout, "the coordinator of group "+group, func() (bool, error) {
		found := admin.FindGroupCoordinators(ctx, group)[group]
		if coordinatorNotReady(found.Err) {
			return false, nil
		}
		return true, found.Err
	})
	if err != nil {
		return "", err
	}
	md, err := admin.Metadata(ctx, "__consumer_offsets")
	if err != nil {
		return "", err
	}
	partitions := len(md.Topics["__consumer_offsets"].Partitions)
	if partitions == 0 {
		// A cluster that does not list it (kfake): any probe group.
		return group + ".plog-probe", nil
	}
	at := offsetsPartition(group, partitions)
	for i := 0; ; i++ {
		if probe := fmt.Sprintf("%s.plog-probe-%d", group, i); offsetsPartition(probe, partitions) == at {
			return probe, nil
		}
	}
}

// coordinatorNotReady says whether err is a coordinator's that is being
// made, loaded or moved (__consumer_offsets made by the first group of a
// cluster, or its partition's leader elected): asking again will do.
func coordinatorNotReady(err error) bool {
	return errors.Is(err, kerr.CoordinatorNotAvailable) || errors.Is(err, kerr.CoordinatorLoadInProgress) || errors.Is(err, kerr.NotCoordinator)
}

// offsetsPartition is a group's partition of __consumer_offsets: Kafka 4.4
// GroupCoordinatorService.topicPartitionFor, Utils.abs of Java's
// String.hashCode modulo the partitions.
func offsetsPartition(group string, partitions int) int {
	var h int32
	for _, unit := range utf16.Encode([]rune(group)) {
		h = 31*h + int32(unit)
	}
	if h == -1<<31 { // Utils.abs
		h = 0
	} else if h < 0 {
		h = -h
	}
	return int(h) % partitions
}

// pollUntil calls done until it says true, fails, or timeout passes.
func pollUntil(ctx context.Context, timeout time.Duration, what string, done func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := done()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("gave up after %s waiting for %s", timeout, what)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// awaitCoordinator waits until the coordinator of the group with id sees
// the topics (the script's names) with the partitions they have on the
// cluster now, before a member that the coordinator assigns subscribes to
// them. What it saw is kept, so each topic is asked for once per group
// and partition count.
func (r *runner) awaitCoordinator(ctx context.Context, id string, topics []string) error {
	need := map[string]int{}
	for _, topic := range topics {
		name, n := r.opts.Prefix+topic, r.partitions[topic]
		if n > 0 && r.coordinatorSaw[id][name] != n {
			need[name] = n
		}
	}
	if len(need) == 0 {
		return nil
	}
	if err := AwaitCoordinatorImage(ctx, r.base, id, need, r.opts.WaitTimeout); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		// A cluster that cannot be asked (one without KIP-848's
		// heartbeat, say) runs on: the wait only spares an epoch.
		r.marks.note(fmt.Sprintf("group %s: the run could not learn whether its coordinator sees %s yet (%v); "+
			"a member that joins before it does costs the cluster's group one more epoch", id, slices.Sorted(maps.Keys(need)), err))
		return nil
	}
	if r.coordinatorSaw[id] == nil {
		r.coordinatorSaw[id] = map[string]int{}
	}
	maps.Copy(r.coordinatorSaw[id], need)
	return nil
}
