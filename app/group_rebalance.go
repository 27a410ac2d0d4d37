package app

import (
	"fmt"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// GroupRebalance shows a group's rebalance as it happens: while one runs,
// its cause, the paused partitions and whom it waits for; then, for the
// last rebalance (both rounds of a cooperative one, as the engine adds them
// up), what each member lost, gained and kept, and how many partitions
// moved.
type GroupRebalance struct {
	app.Compo

	Group     string
	Now       int64
	Rebalance *core.RebalanceView
	Last      *core.RebalanceSummary
}

// Render draws [data-rebalance="running"] with data-paused while a rebalance
// runs, and [data-rebalance="done"] with data-moved for the last one; from
// rules 4 the running one lists the members it waits for,
// [data-rebalance-waits-for=NAME], and its timeout, data-timeout-at (each member's card says when it
// must poll: group_member.go).
func (r *GroupRebalance) Render() app.UI {
	var parts []app.UI
	if r.Rebalance != nil {
		parts = append(parts, r.renderRunning())
	}
	if r.Last != nil {
		parts = append(parts, r.renderDone(*r.Last))
	}
	return app.Div().Class("rebalance").Body(parts...)
}

// renderWaits lists, from rules 4, the members a running rebalance waits
// for: those that rejoin at their next poll, and when its timeout removes
// them.
func (r *GroupRebalance) renderWaits() app.UI {
	rb := r.Rebalance
	if rb.Initial {
		return app.P().Class("rebalance-waits").DataSet("rebalance-initial", true).DataSet("timeout-at", rb.DoneAt).
			Text(fmt.Sprintf("The group was empty, so this rebalance waits group.initial.rebalance.delay.ms for more members, until %s (in %s), 3s more whenever one joins.",
				units.Duration(rb.DoneAt), units.Duration(max(rb.DoneAt-r.Now, 0))))
	}
	return app.Div().Class("rebalance-waits").DataSet("timeout-at", rb.DoneAt).Body(
		app.If(len(rb.NotRejoined) > 0,
			app.P().Body(
				app.Text("Waiting for these members to rejoin, which a consumer does in its next poll: "),
				app.Range(rb.NotRejoined).Slice(func(i int) app.UI {
					sep := ""
					if i > 0 {
						sep = ", "
					}
					return app.Span().DataSet("rebalance-waits-for", rb.NotRejoined[i]).Text(sep + rb.NotRejoined[i])
				}),
				app.Text("."),
			),
		),
		app.P().Text(fmt.Sprintf("The rebalance timeout (max.poll.interval.ms) at %s (in %s) removes the dynamic members that have not rejoined by then.",
			units.Duration(rb.DoneAt), units.Duration(max(rb.DoneAt-r.Now, 0)))),
	)
}

func (r *GroupRebalance) renderRunning() app.UI {
	rb := r.Rebalance
	paused := partitionList(rb.Paused)
	when := fmt.Sprintf("completes in %s", units.Duration(max(rb.DoneAt-r.Now, 0)))
	timing := rb.Waits != "" // rules 4: it ends when the members have rejoined
	switch {
	case len(rb.WaitingFor) > 0:
		when = "waits for " + strings.Join(rb.WaitingFor, ", ") + " until their sessions time out"
	case timing && rb.Initial:
		when = "waits for more members to join"
	case timing:
		when = "waits for its members to rejoin"
	}
	round := ""
	if rb.Round > 1 {
		round = fmt.Sprintf(" (round %d)", rb.Round)
	}
	pausedText := "none: members keep consuming what does not move"
	if paused != "" {
		pausedText = strings.ReplaceAll(paused, " ", ", ")
	}
	return app.Div().
		Class("rebalance-running").
		DataSet("rebalance", "running").
		DataSet("paused", paused).
		Attr("role", "status").
		Body(
			app.P().Body(
				app.Strong().Text("Rebalancing"+round+": "),
				app.Text(rb.Cause+"; "+when+"."),
				&Help{Topic: "rebalance"},
			),
			app.If(timing, r.renderWaits()),
			app.P().Class("rebalance-paused").Text("Paused partitions: "+pausedText),
		)
}

func (r *GroupRebalance) renderDone(last core.RebalanceSummary) app.UI {
	moved, paused, changes := last.Moved, last.Paused, last.Members
	listed := changes[:min(len(changes), changesListed)]
	return app.Details().
		Class("rebalance-done").
		DataSet("rebalance", "done").
		DataSet("moved", moved).
		DataSet("newly-owned", newlyOwned(changes)).
		DataSet("generation", last.Generation).
		Body(
			app.Summary().Text(fmt.Sprintf("Last rebalance: generation %d (%s), %s: %s",
				last.Generation, last.Strategy, last.Cause, movesText(moved, newlyOwned(changes), paused))),
			app.Ul().Class("rebalance-changes").Body(
				app.Range(listed).Slice(func(i int) app.UI {
					ch := listed[i]
					return app.Li().
						DataSet("change-member", ch.Member).
						DataSet("lost", partitionList(listedOf(ch.Revoked))).
						DataSet("gained", partitionList(listedOf(ch.Assigned))).
						DataSet("kept", partitionList(listedOf(ch.Kept))).
						Text(changeText(ch))
				}),
				app.If(len(changes) > len(listed),
					app.Li().Class("rebalance-changes-more").Text(moreMembersText(len(changes)-len(listed))),
				),
			),
		)
}

// changesListed is the most members a rebalance's summary lists, and
// each of them the most partitions of a kind (assignmentListed): a group
// of 200 members over 10,000 partitions wrote all 10,000 into a folded
// list, a tenth of a second of the page's main thread at each render.
const changesListed = 24

// moreMembersText says how many members a summary leaves out, and where
// to see what they own.
func moreMembersText(n int) string {
	members := "members"
	if n == 1 {
		members = "member"
	}
	return fmt.Sprintf("and %d more %s: %s", n, members, lanesShowOwners)
}

// listedOf is the first assignmentListed partitions of tps.
func listedOf(tps []core.TopicPartition) []core.TopicPartition {
	return tps[:min(len(tps), assignmentListed)]
}

// partitionsText writes partitions as "orders/0, orders/1", past
// assignmentListed with how many more.
func partitionsText(tps []core.TopicPartition) string {
	text := strings.ReplaceAll(partitionList(listedOf(tps)), " ", ", ")
	if more := len(tps) - assignmentListed; more > 0 {
		text += fmt.Sprintf(" and %d more", more)
	}
	return text
}

// changeText says in words what a member lost and gained.
func changeText(ch core.MemberChange) string {
	var parts []string
	if len(ch.Revoked) > 0 {
		parts = append(parts, "lost "+partitionsText(ch.Revoked))
	}
	if len(ch.Assigned) > 0 {
		parts = append(parts, "gained "+partitionsText(ch.Assigned))
	}
	if len(ch.Kept) > 0 {
		parts = append(parts, "kept "+partitionsText(ch.Kept))
	}
	if len(parts) == 0 {
		parts = append(parts, "had nothing before or after")
	}
	text := ch.Member + " " + strings.Join(parts, "; ")
	if ch.Left {
		text += " (left the group)"
	}
	return text
}

// newlyOwned counts the partitions a rebalance gave to a member that no
// member gave up in it: a topic's new partitions, or those of a group
// with no member. Moved does not count them (core.RebalanceRecord), and a
// walk read "b1 joined: 0 partitions moved" above b1 gaining all three.
func newlyOwned(changes []core.MemberChange) int {
	revoked := map[core.TopicPartition]bool{}
	for _, ch := range changes {
		for _, tp := range ch.Revoked {
			revoked[tp] = true
		}
	}
	n := 0
	for _, ch := range changes {
		for _, tp := range ch.Assigned {
			if !revoked[tp] {
				n++
			}
		}
	}
	return n
}

// movesText says what a rebalance moved: "2 partitions moved, 0 paused",
// or with partitions that had no owner, "3 partitions newly owned, none
// moved, 0 paused".
func movesText(moved, newly, paused int) string {
	if newly == 0 {
		return fmt.Sprintf("%s moved, %d paused", units.Plural(int64(moved), "partition"), paused)
	}
	movedWords := "none moved"
	if moved > 0 {
		movedWords = fmt.Sprintf("%d moved", moved)
	}
	return fmt.Sprintf("%s newly owned, %s, %d paused", units.Plural(int64(newly), "partition"), movedWords, paused)
}
