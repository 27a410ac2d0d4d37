package lesson

import (
	"fmt"
	"strings"

	"plog/core"
)

// The goals of the lessons about consumer groups: how assignors share partitions, what a
// rebalance stops and moves, and how to deploy without a storm of them.

// groupSplit writes who owns what: "c1 orders/0 orders/1, c2 orders/2".
func groupSplit(v core.GroupView) string {
	var parts []string
	for _, m := range v.Members {
		parts = append(parts, m.ID+" "+assignmentText(m.Assignment))
	}
	return strings.Join(parts, ", ")
}

// stoppedBy counts the partitions nobody read while a rebalance ran: those
// it paused, and those of members that left, which wait for a new owner.
func stoppedBy(h core.RebalanceRecord) int {
	n := h.Paused
	for _, m := range h.Members {
		if m.Left {
			n += len(m.Revoked)
		}
	}
	return n
}

func changeWords(change int) string {
	switch change {
	case -1:
		return "a consumer left"
	case 1:
		return "a consumer joined"
	}
	return fmt.Sprintf("membership changed by %+d", change)
}

// deploy is what a group's restarts looked like, from the events of a
// replay of the script.
type deploy struct {
	began     int64           // time of the first member stopping or leaving
	restarted map[string]bool // members that stopped or left and joined again
	timeouts  []string        // members whose session expired
}

// deploys replays the script and follows every group's restarts.
func (c *ctx) deploys() map[string]*deploy {
	all := map[string]*deploy{}
	gone := map[string]bool{} // "group member" of members that stopped or left
	c.replay(func(_ int, _ core.ReadOnlyLog, events []core.Event) {
		for _, e := range events {
			d := all[e.Group]
			if d == nil {
				d = &deploy{began: -1, restarted: map[string]bool{}}
				all[e.Group] = d
			}
			id := e.Group + " " + e.Member
			switch {
			case e.Kind == core.EventMemberLeft && e.Cause == core.CauseSessionTimeout:
				d.timeouts = append(d.timeouts, e.Member)
			case e.Kind == core.EventMemberStopped || e.Kind == core.EventMemberLeft && e.Cause != core.CauseFenced:
				if d.began < 0 {
					d.began = e.Time
				}
				gone[id] = true
			case e.Kind == core.EventMemberJoined && gone[id]:
				d.restarted[e.Member] = true
				delete(gone, id)
			}
		}
	})
	return all
}

// deployCost counts the rebalances a group ran since its deploy began and
// the partitions they paused.
func deployCost(v core.GroupView, d *deploy) (rebalances, paused int) {
	if d == nil || d.began < 0 {
		return 0, 0
	}
	for _, h := range v.History {
		if h.StartedAt >= d.began {
			rebalances++
			paused += h.Paused
		}
	}
	return rebalances, paused
}
