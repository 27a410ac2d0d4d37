package kafkarun

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"plog/core"
	"plog/core/scenario"
)

// Rebalance timing and liveness from rules 4 (core/group_timing.go), on
// both sides of a run:
//
//   - A later rebalance ends in the playground when every member has
//     rejoined, in its poll; on the cluster the run's clients rejoin by
//     themselves in a moment of wall time. Where the script needs a
//     settled group (letRebalanceEnd, the end of the script), the run polls
//     the members that have not rejoined (max=1), on both sides, as a
//     running consumer would, and the notes say so.
//   - A member the playground removes for not polling within
//     max.poll.interval.ms leaves the cluster's group too: the Java
//     consumer's heartbeat thread sends LeaveGroup (franz-go's client has
//     no such timer), a static member's stops, as closing its client does.
//   - The clients send max.poll.interval.ms as their rebalance timeout, as
//     the Java consumer does, and do not refresh their metadata by the
//     wall clock (metadata.max.age.ms is virtual time). New partitions
//     still reach the cluster's clients at once (topics.go's
//     addPartitions), while the playground's group sees them at its
//     leader's refresh: the rows of such a group are marked
//     ReasonMetadataRefresh, and when the playground's leader refreshes,
//     the run makes the group's clients refresh again. Where the cluster's
//     rebalance for them waits for a static member that left, the group
//     is held until that member's session ends in the playground
//     (groups.go's heldByGoneStatic, ReasonRefreshHeld).
//   - group.initial.rebalance.delay.ms is the broker's: the playground's
//     per-group value is run only when it is the broker's (3s, Kafka's
//     default), and noted otherwise.

// pollTimedOut is a member the playground removed, or stopped, for not
// polling within max.poll.interval.ms.
type pollTimedOut struct{ group, member string }

// timingEvents notes, from a command's events in the playground, the
// members that left for not polling and the groups whose leader saw new
// partitions, for the cluster to follow (followTiming).
func (r *runner) timingEvents(events []core.Event) {
	for _, e := range events {
		switch {
		case (e.Kind == core.EventMemberLeft || e.Kind == core.EventMemberStopped) && e.Cause == core.CausePollTimeout:
			r.timedOut = append(r.timedOut, pollTimedOut{e.Group, e.Member})
		case e.Kind == core.EventRebalanceStarted && e.Cause == core.CauseMetadataRefresh:
			if !slices.Contains(r.refreshed, e.Group) {
				r.refreshed = append(r.refreshed, e.Group)
			}
		}
	}
}

// followTiming makes the cluster follow what timingEvents noted: the
// members that stopped polling leave, the groups whose leader refreshed its
// metadata refresh theirs.
func (r *runner) followTiming(ctx context.Context) error {
	timedOut, refreshed := r.timedOut, r.refreshed
	r.timedOut, r.refreshed = nil, nil
	for _, t := range timedOut {
		g := r.groups[t.group]
		if g == nil {
			continue
		}
		m := g.members[t.member]
		if m == nil {
			continue
		}
		delete(g.members, t.member)
		if m.instance != "" {
			g.goneStatic[t.member] = m.instance
		}
		r.marks.note(fmt.Sprintf("group %s: %s did not poll within max.poll.interval.ms in the playground's virtual time; its client left the cluster's group, as the Java consumer's heartbeat thread does", t.group, t.member))
		if err := within(ctx, func() error { closeClient(ctx, m.client); return nil }); err != nil {
			return err
		}
	}
	for _, name := range refreshed {
		g := r.groups[name]
		if g == nil {
			continue
		}
		for _, m := range g.members {
			m.client.ForceMetadataRefresh()
		}
	}
	return nil
}

// timingOpts are the group options a member's client takes from its
// group's config under rules 4: max.poll.interval.ms as the rebalance
// timeout (within franz-go's bounds, 100ms and up), and metadata that the
// wall clock never refreshes during a run (followTiming refreshes it).
func timingOpts(cfg core.GroupConfig) []kgo.Opt {
	if !cfg.Has("max.poll.interval.ms") {
		return nil
	}
	timeout := max(time.Duration(cfg.MaxPollIntervalMs)*time.Millisecond, 100*time.Millisecond)
	return []kgo.Opt{kgo.RebalanceTimeout(timeout), kgo.MetadataMaxAge(time.Hour)}
}

// brokerInitialDelayMs is group.initial.rebalance.delay.ms on the brokers a
// run meets: Kafka's default, which internal/kafkabroker keeps.
var brokerInitialDelayMs = func() int64 {
	def, _ := core.LookupConfig(core.OnGroup, "group.initial.rebalance.delay.ms")
	d, _ := core.ParseDuration(def.KafkaDefault)
	return d
}()

// notRejoinedPolls are the polls, one record each, that let a rebalance of
// the playground's group end: one for each running member that has not
// rejoined (core.RebalanceView.NotRejoined); none for an initial wait,
// which ends with time.
func notRejoinedPolls(v core.GroupView, line int) ([]scenario.Command, error) {
	rb := v.Rebalance
	if rb == nil || rb.Initial || len(rb.NotRejoined) == 0 {
		return nil, nil
	}
	var polls []scenario.Command
	for _, id := range rb.NotRejoined {
		c, ok, err := scenario.ParseLine(fmt.Sprintf("poll %q %q max=1", v.Name, id), line)
		if err != nil || !ok {
			return nil, fmt.Errorf("polling %s of group %s: %v", id, v.Name, err)
		}
		polls = append(polls, c)
	}
	return polls, nil
}
