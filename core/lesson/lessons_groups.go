package lesson

import (
	"fmt"
	"slices"
	"strings"

	"plog/core"
	"plog/core/units"
)

// Lessons about consumer groups: how assignors share partitions, what a
// rebalance stops and moves, and how to deploy without a storm of them.

var assignors = Lesson{
	Name:  "assignors",
	Title: "Range, round-robin, and the idle consumer",
	Text: []string{
		"When members join or leave a consumer group, the group rebalances: an assignor, chosen with partition.assignment.strategy, divides the partitions among the members. Every partition goes to exactly one member of the group.",
		"The range assignor works topic by topic and gives each member a run of consecutive partitions; when they do not divide evenly, the first members get one more. Five partitions over two consumers give c1 partitions 0, 1 and 2, and c2 partitions 3 and 4. The round-robin assignor deals partitions out one at a time, in turn: c1 gets 0, 2 and 4, c2 gets 1 and 3.",
		"A partition is never split between two members of one group, so a group cannot use more consumers than the topic has partitions. A fifth consumer on a four-partition topic gets nothing and sits idle, ready to take over when another one leaves.",
	},
	Goal: "Start group robin on orders with the roundrobin strategy and two consumers, and compare it with ranged; then add a fifth consumer, c5, to shipping and see it sit idle.",
	Script: `seed 4
topic orders partitions=5
topic payments partitions=4
join ranged c1 topics=orders strategy=range
join ranged c2 topics=orders
join shipping c1 topics=payments
join shipping c2 topics=payments
join shipping c3 topics=payments
join shipping c4 topics=payments
# shipping's consumers run, polling every second
consumer shipping c1 rate=1/s
consumer shipping c2 rate=1/s
consumer shipping c3 rate=1/s
consumer shipping c4 rate=1/s
advance 6s
`,
	Hints: []string{
		"In Consumer groups, join group `robin` as member `c1` on orders with the Strategy roundrobin, then `c2` the same way, and press +1 s six times for the rebalance: a new group's first rebalance waits group.initial.rebalance.delay.ms (3 s) for more members, and 3 s more because c2 joined in that wait.",
		"The first member of a group chooses its strategy and the others must agree. Leaving the Strategy at the group's default for robin's first member gives range, the assignor Kafka's default settings use: the same split as ranged.",
		"Join group `shipping` as member `c5` on payments and press +1 s: shipping's running consumers rejoin the rebalance in their next poll, and its four partitions stay with c1 to c4.",
	},
	Solution: `join robin c1 topics=orders strategy=roundrobin
join robin c2 topics=orders
join shipping c5 topics=payments
advance 6s
`,
	WrongAttempt: `join robin c1 topics=orders
join robin c2 topics=orders
join shipping c5 topics=payments
advance 6s
`,
	check: checkAssignors,
}

func checkAssignors(c *ctx) Result {
	var robin core.GroupView
	for _, name := range c.log.GroupNames() {
		if name == "ranged" || name == "shipping" {
			continue
		}
		v, _ := c.group(name)
		reads := slices.ContainsFunc(v.Members, func(m core.MemberView) bool { return slices.Contains(m.Topics, "orders") })
		if reads && (robin.Name == "" || v.Strategy == core.StrategyRoundRobin) {
			robin = v
		}
	}
	if robin.Name == "" {
		return pending("start a second group on orders, with the roundrobin strategy and two consumers")
	}
	if msg := waiting(robin); msg != "" {
		return pending("%s", msg)
	}
	if robin.Strategy != core.StrategyRoundRobin {
		return pending("group %s uses %s, so it splits orders like ranged: %s; the first member to join chooses the strategy, so start a group with strategy=roundrobin",
			robin.Name, robin.Strategy, groupSplit(robin))
	}
	if n := liveMembers(robin); n != 2 {
		return pending("group %s has %s; the comparison with ranged needs two", robin.Name, units.Plural(int64(n), "consumer"))
	}
	ranged, _ := c.group("ranged")
	shipping, ok := c.group("shipping")
	if !ok {
		return pending("group shipping is gone: reload the lesson")
	}
	c5, ok := member(shipping, "c5")
	if !ok {
		return pending("%s deals orders out in turn (%s); now add a fifth consumer, c5, to shipping", robin.Name, groupSplit(robin))
	}
	if msg := waiting(shipping); msg != "" {
		return pending("%s", msg)
	}
	if !c5.Idle {
		return pending("c5 owns %s: shipping no longer has more consumers than partitions", assignmentText(c5.Assignment))
	}
	return solved("ranged gives %s; %s deals out in turn: %s. In shipping c5 sits idle: %d consumers, %d partitions.",
		groupSplit(ranged), robin.Name, groupSplit(robin), liveMembers(shipping), c.partitions("payments"))
}

// groupSplit writes who owns what: "c1 orders/0 orders/1, c2 orders/2".
func groupSplit(v core.GroupView) string {
	var parts []string
	for _, m := range v.Members {
		parts = append(parts, m.ID+" "+assignmentText(m.Assignment))
	}
	return strings.Join(parts, ", ")
}

var rebalanceMoves = Lesson{
	Name:  "rebalance-moves",
	Title: "What a rebalance stops and moves",
	Text: []string{
		"Group eager uses range, an eager strategy. When membership changes, every member gives up all its partitions, the group waits for all of them to rejoin, and the assignor starts from scratch. While that runs, nobody in the group reads anything.",
		"A consumer rejoins inside its next poll: the rebalance ends only once every member has polled, or after the rebalance timeout (max.poll.interval.ms, 5 minutes), which removes the members that did not. A consumer that stops polling for that long leaves its group by itself.",
		"Group coop uses cooperative-sticky (KIP-429). Members keep what they own and go on reading it during the rebalance; only the partitions that must change owner are revoked, in a first round, and handed to their new owner in a second. A sticky assignor also keeps each partition where it was whenever it can, so fewer partitions move.",
		"A partition that moves costs more than a pause: its new owner begins at the committed offset, so work done since the last commit is done again, and any local state or cache for it must be rebuilt.",
	},
	Goal: "Make the same membership change in both groups (one consumer leaves, or a fourth joins), let the rebalances finish, and compare what each stopped and moved.",
	Script: `seed 10
topic jobs partitions=6
join eager e1 topics=jobs strategy=range
join eager e2 topics=jobs
join eager e3 topics=jobs
join coop c1 topics=jobs strategy=cooperative-sticky
join coop c2 topics=jobs
join coop c3 topics=jobs
advance 6s
`,
	Hints: []string{
		"Press Leave on e1 in eager and on c1 in coop, then Poll on each member that stays (e2, e3, c2, c3): each rejoins in its poll, and the rebalance ends when the last has. Or let a fourth consumer join each group, and poll the others.",
		"A crash, pressing Crash on e1, is noticed only when the member's session times out (session.timeout.ms, 45 seconds by default): ten seconds later nothing has happened yet.",
		"Each rebalance in a group's history says how many partitions it stopped (nobody read them while it ran) and how many changed owner.",
	},
	Solution: `leave eager e1
leave coop c1
poll eager e2
poll eager e3
poll coop c2
poll coop c3
advance 10s
`,
	WrongAttempt: `crash eager e1
crash coop c1
advance 10s
`,
	check: checkRebalanceMoves,
}

// rebalanceTally sums the rebalances a group went through since the start.
type rebalanceTally struct {
	group                  string
	change                 int // live members now minus at the start
	rounds, stopped, moved int
}

func checkRebalanceMoves(c *ctx) Result {
	var tallies []rebalanceTally
	for _, name := range []string{"eager", "coop"} {
		v, ok := c.group(name)
		if !ok {
			return pending("group %s is gone: reload the lesson", name)
		}
		if msg := waiting(v); msg != "" {
			return pending("%s", msg)
		}
		b, _ := c.baseline().Group(name)
		t := rebalanceTally{group: name, change: liveMembers(v) - liveMembers(b)}
		for _, h := range v.History {
			if h.Generation > b.Generation {
				t.rounds++
				t.moved += h.Moved
				t.stopped += stoppedBy(h)
			}
		}
		if t.rounds == 0 {
			return pending("group %s has not rebalanced since the start: make one of its consumers leave, or a fourth join", name)
		}
		tallies = append(tallies, t)
	}
	eager, coop := tallies[0], tallies[1]
	if eager.change != coop.change {
		return pending("eager's membership changed by %+d and coop's by %+d: make the same change in both groups so that the counts compare",
			eager.change, coop.change)
	}
	if coop.stopped >= eager.stopped {
		return pending("this time coop stopped %s and eager %s; make a simple change, one consumer leaving or joining, and compare again",
			units.Plural(int64(coop.stopped), "partition"), units.Plural(int64(eager.stopped), "partition"))
	}
	return solved("when %s, eager stopped %s and moved %d in %s; coop stopped %s and moved %d in %s.",
		changeWords(eager.change), units.Plural(int64(eager.stopped), "partition"), eager.moved, units.Plural(int64(eager.rounds), "rebalance"),
		units.Plural(int64(coop.stopped), "partition"), coop.moved, units.Plural(int64(coop.rounds), "rebalance"))
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

var rollingDeploy = Lesson{
	Name:  "rolling-deploy",
	Title: "A rolling deploy without a rebalance storm",
	Text: []string{
		"To deploy a new version, teams restart their consumers one at a time. For an ordinary, dynamic member each restart means two rebalances: one when it leaves, one when it comes back. Under an eager strategy each of them stops the whole group. Group storm just went through that: look at its rebalance history.",
		"Static membership (group.instance.id, KIP-345) gives each consumer a lasting identity. A static member that shuts down sends no LeaveGroup request; the coordinator keeps its partitions for it until session.timeout.ms runs out. When it comes back in time with the same instance id, it gets its partitions again with no rebalance at all.",
		"Cooperative rebalancing (cooperative-sticky) helps the other way: rebalances still happen, but members go on reading the partitions that do not move.",
	},
	Goal: "Deploy group calm the same way, three consumers on events restarted one at a time, stopping at most a third as many partitions in rebalances as storm's deploy did.",
	Script: `seed 11
topic events partitions=6
join storm s1 topics=events strategy=range
join storm s2 topics=events
join storm s3 topics=events
advance 6s
# a rolling deploy: each consumer restarts in turn, taking 5s to start;
# the others rejoin each rebalance in their next poll
leave storm s1
poll storm s2
poll storm s3
advance 5s
join storm s1 topics=events
poll storm s2
poll storm s3
advance 5s
leave storm s2
poll storm s1
poll storm s3
advance 5s
join storm s2 topics=events
poll storm s1
poll storm s3
advance 5s
leave storm s3
poll storm s1
poll storm s2
advance 5s
join storm s3 topics=events
poll storm s1
poll storm s2
advance 5s
`,
	Hints: []string{
		"Join calm's consumers with an instance id: join group `calm` as member `k1` on events with the Instance id (static) `k1`, likewise k2 and k3, then press +1 s six times (each joining in the new group's first wait makes it 3 s longer).",
		"Restart each in turn: press Leave on k1, advance by `5s`, press Come back as k1, advance by `5s`; then k2, then k3.",
		"A restart slower than the session timeout, as when the clock advances by a minute between k1's Leave and its come-back, lets k1's session expire: the group rebalances after all, and the rebalance ends only when the others poll. Keep restarts shorter than session.timeout.ms, or raise it (type `2m` in calm's session timeout and press Set).",
		"cooperative-sticky (the Strategy of the first member to join) calms the storm too, even with dynamic members.",
	},
	Solution: `join calm k1 topics=events instance=k1
join calm k2 topics=events instance=k2
join calm k3 topics=events instance=k3
advance 6s
leave calm k1
advance 5s
join calm k1 topics=events instance=k1
advance 5s
leave calm k2
advance 5s
join calm k2 topics=events instance=k2
advance 5s
leave calm k3
advance 5s
join calm k3 topics=events instance=k3
advance 5s
`,
	WrongAttempt: `join calm k1 topics=events instance=k1
join calm k2 topics=events instance=k2
join calm k3 topics=events instance=k3
advance 6s
leave calm k1
advance 1m
join calm k1 topics=events instance=k1
poll calm k2
poll calm k3
advance 5s
leave calm k2
advance 1m
join calm k2 topics=events instance=k2
poll calm k1
poll calm k3
advance 5s
leave calm k3
advance 1m
join calm k3 topics=events instance=k3
poll calm k1
poll calm k2
advance 5s
`,
	check: checkRollingDeploy,
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
			case e.Kind == core.EventMemberLeft && e.Detail == "session timeout":
				d.timeouts = append(d.timeouts, e.Member)
			case e.Kind == core.EventMemberStopped || e.Kind == core.EventMemberLeft && !strings.HasPrefix(e.Detail, "fenced"):
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

func checkRollingDeploy(c *ctx) Result {
	calm, ok := c.group("calm")
	if !ok {
		return pending("create group calm: three consumers on events, each with an instance id (static membership)")
	}
	deploys := c.deploys()
	d := deploys["calm"]
	var todo []string
	for _, m := range calm.Members {
		if d == nil || !d.restarted[m.ID] {
			todo = append(todo, m.ID)
		}
	}
	switch {
	case len(todo) == len(calm.Members) && (d == nil || d.began < 0):
		if n := liveMembers(calm); n < 3 {
			return pending("calm has %s; the deploy needs three", units.Plural(int64(n), "consumer"))
		}
		if msg := waiting(calm); msg != "" {
			return pending("%s", msg)
		}
		return pending("calm is running; now restart its consumers one at a time: leave, advance 5s (the new version starting), join again")
	case len(todo) > 0:
		return pending("restart %s too, one at a time: leave, advance 5s, join again", joinWords(todo))
	}
	if msg := waiting(calm); msg != "" {
		return pending("%s", msg)
	}
	if n := liveMembers(calm); n < 3 {
		return pending("calm has %s; the deploy needs three", units.Plural(int64(n), "consumer"))
	}
	storm, _ := c.group("storm")
	stormRebalances, stormPaused := deployCost(storm, deploys["storm"])
	calmRebalances, calmPaused := deployCost(calm, d)
	if calmPaused*3 > stormPaused {
		why := ""
		if len(d.timeouts) > 0 {
			why = fmt.Sprintf(": %s stayed away longer than session.timeout.ms=%s, so the group gave the partitions away",
				joinWords(d.timeouts), units.Duration(calm.Config.SessionTimeoutMs))
		}
		return pending("calm's deploy stopped %s in %s, against storm's %s in %s%s",
			units.Plural(int64(calmPaused), "partition"), units.Plural(int64(calmRebalances), "rebalance"),
			units.Plural(int64(stormPaused), "partition"), units.Plural(int64(stormRebalances), "rebalance"), why)
	}
	return solved("storm's deploy took %s that stopped %s; calm's took %s, stopping %s.",
		units.Plural(int64(stormRebalances), "rebalance"), units.Plural(int64(stormPaused), "partition"),
		units.Plural(int64(calmRebalances), "rebalance"), units.Plural(int64(calmPaused), "partition"))
}
