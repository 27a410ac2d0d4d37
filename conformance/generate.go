// Package conformance checks the playground against Apache Kafka's own
// broker (internal/kafkabroker): its tests run every lesson's start and
// solution, the golden scenarios and seeded random scenarios through
// kafkarun, as `plogsim kafka` does, and require that every difference
// between the two has its reason.
//
// Generate, the random scenario generator, lives outside the tests so that a
// failing seed can be replayed by hand: `plogsim run` and `plogsim kafka`
// take the .plog file the test writes for it.
package conformance

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"plog/core"
	"plog/core/scenario"
)

// Commands are the commands Generate uses: every command kafkarun runs on a
// cluster (kafkarun/runner.go's apply), and compact, which it reports as not
// run.
var Commands = []string{scenario.CmdSeed, scenario.CmdTopic, scenario.CmdProduce, scenario.CmdPartitions,
	scenario.CmdTruncate, scenario.CmdConfig, scenario.CmdJoin, scenario.CmdLeave, scenario.CmdCrash,
	scenario.CmdPoll, scenario.CmdCommit, scenario.CmdReset, scenario.CmdAdvance, scenario.CmdCompact}

// Generate returns a random scenario for seed: topics, records, consumer
// groups and what their members do, of about steps commands. Every line is
// one the playground accepts where it stands: a line it refuses is drawn
// again. The same seed gives the same scenario. It runs under the latest
// rules (core.LatestRules), the ones the page teaches, and writes them out.
//
// In about three seeds of four group g1 is a group of Kafka 4's consumer
// protocol (KIP-848): its members join with group.protocol=consumer, all
// asking for one server-side assignor (group.remote.assignor=uniform or
// range) or none, the coordinator's default, uniform; they poll, commit,
// leave and crash as a classic group's do. The choice has its own stream,
// so that a seed whose g1 stays classic draws the scenario it drew before.
func Generate(seed uint64, steps int) string {
	g := &generator{rng: rand.New(rand.NewPCG(seed, 0x706c6f67)), s: scenario.NewSession(), rules: core.LatestRules}
	if protocol := rand.New(rand.NewPCG(seed, 0x6b697038)); core.Follows(g.rules, core.ConsumerGroupProtocol) && protocol.IntN(4) != 0 {
		g.consumerGroup = "g1"
		// By the seed, so that the CI sample has each of them.
		g.remoteAssignor = []string{"uniform", "range", ""}[seed%3]
	}
	g.add(fmt.Sprintf("seed %d", seed%1000))
	g.add(fmt.Sprintf("rules %d", g.rules))
	g.add(g.topicLine("t0"))
	if g.rng.IntN(2) == 0 {
		g.add(g.topicLine("t1"))
	}
	// Under Kafka's default (enable.auto.commit, rules 3) a group commits
	// on the wall clock on a cluster and on the virtual one here, so its
	// committed offsets are not compared (kafkarun's ReasonAutoCommit):
	// most groups commit only when told, so that commits stay checked. The
	// choice has its own stream, so that the rest of the scenario is drawn
	// as before.
	autoCommit := rand.New(rand.NewPCG(seed, 0x6175746f))
	for _, group := range []string{"g0", "g1"} {
		if autoCommit.IntN(4) != 0 {
			g.add(fmt.Sprintf("config group %s enable.auto.commit=false", group))
		}
	}
	for tries := 0; len(g.lines) < steps && tries < 20*steps; tries++ {
		g.add(g.next())
	}
	if len(g.groups) > 0 && g.rng.IntN(2) == 0 {
		g.windDown(g.groups[0])
	}
	// A last advance lets the groups settle on both sides, as a script
	// that ends mid-rebalance would not.
	g.add("advance 5s")
	return strings.Join(g.lines, "\n") + "\n"
}

type generator struct {
	rng     *rand.Rand
	rules   int
	s       *scenario.Session
	lines   []string
	topics  []string
	members map[string][]string // group → live members
	groups  []string
	// consumerGroup is the group whose members join with
	// group.protocol=consumer, "" for none; remoteAssignor the
	// group.remote.assignor they all ask for, "" for none.
	consumerGroup, remoteAssignor string
}

// add keeps line if the playground accepts it.
func (g *generator) add(line string) {
	if line == "" {
		return
	}
	c, ok, err := scenario.ParseLine(line, len(g.lines)+1)
	if err != nil || !ok {
		return
	}
	if _, err := g.s.ApplyCommand(c); err != nil {
		return
	}
	g.lines = append(g.lines, line)
	group, member := c.Positional(0), c.Positional(1)
	switch c.Name {
	case scenario.CmdTopic:
		g.topics = append(g.topics, c.Positional(0))
	case scenario.CmdJoin:
		if g.members == nil {
			g.members = map[string][]string{}
		}
		if _, ok := g.members[group]; !ok {
			g.groups = append(g.groups, group)
		}
		g.members[group] = append(g.members[group], member)
	case scenario.CmdLeave, scenario.CmdCrash:
		ms := g.members[group]
		for i, m := range ms {
			if m == member {
				g.members[group] = append(ms[:i:i], ms[i+1:]...)
				break
			}
		}
	}
}

func (g *generator) pick(choices ...string) string { return choices[g.rng.IntN(len(choices))] }

func (g *generator) topicLine(name string) string {
	line := fmt.Sprintf("topic %s partitions=%d", name, 1+g.rng.IntN(4))
	switch g.rng.IntN(8) {
	case 0:
		line += " cleanup.policy=compact"
	case 1:
		line += " retention.ms=" + g.pick("1h", "7d")
	case 2:
		// A topic's partitioner is the playground's own config of rules
		// 1; from rules 2 the producer chooses (produce's partitioner=).
		if !core.Follows(g.rules, core.BuiltInPartitioner) {
			line += " partitioner=sticky"
		}
	case 3:
		line += " segment.records=" + g.pick("5", "20")
	}
	return line
}

func (g *generator) topic() string { return g.topics[g.rng.IntN(len(g.topics))] }

// group returns a group with a live member and that member, or "" when
// there is none.
func (g *generator) liveMember() (string, string) {
	var live []string
	for _, name := range g.groups {
		if len(g.members[name]) > 0 {
			live = append(live, name)
		}
	}
	if len(live) == 0 {
		return "", ""
	}
	group := live[g.rng.IntN(len(live))]
	ms := g.members[group]
	return group, ms[g.rng.IntN(len(ms))]
}

func (g *generator) key() string {
	return fmt.Sprintf("k%d", g.rng.IntN(6))
}

// next draws one command, weighted towards producing and reading.
func (g *generator) next() string {
	group, member := g.liveMember()
	switch n := g.rng.IntN(100); {
	case n < 25:
		return g.produce()
	case n < 37:
		return g.join()
	case n < 52 && group != "":
		if g.rng.IntN(2) == 0 {
			return fmt.Sprintf("poll %s %s max=%d", group, member, 1+g.rng.IntN(8))
		}
		return fmt.Sprintf("poll %s %s", group, member)
	case n < 62 && group != "":
		return fmt.Sprintf("commit %s %s", group, member)
	case n < 70:
		return "advance " + g.pick("1s", "3s", "5s", "10s")
	case n < 73 && group != "":
		return fmt.Sprintf("leave %s %s", group, member)
	case n < 75 && group != "":
		return fmt.Sprintf("crash %s %s", group, member)
	case n < 80 && g.emptyGroup() != "":
		return g.reset(g.emptyGroup())
	case n < 81 && len(g.groups) > 0:
		return fmt.Sprintf("commit %s %s/%d offset=%d", g.groups[g.rng.IntN(len(g.groups))], g.topic(), g.rng.IntN(2), g.rng.IntN(4))
	case n < 83:
		return fmt.Sprintf("truncate %s/%d before=%d", g.topic(), g.rng.IntN(2), 1+g.rng.IntN(3))
	case n < 85:
		return fmt.Sprintf("partitions %s count=%d", g.topic(), 2+g.rng.IntN(4))
	case n < 88:
		return fmt.Sprintf("config topic %s retention.ms=%s", g.topic(), g.pick("1h", "1d", "7d"))
	case n < 91:
		name := fmt.Sprintf("g%d", g.rng.IntN(2))
		configs := []string{"auto.offset.reset=latest", "auto.offset.reset=earliest", "session.timeout.ms=10s"}
		if core.Follows(g.rules, core.ClassicProtocolTiming) {
			// A member that does not poll within it leaves (rules 4).
			configs = append(configs, "max.poll.interval.ms=1m")
		}
		if name == g.consumerGroup {
			// Kafka refuses a client's session.timeout.ms under
			// group.protocol=consumer (ConsumerConfig): the
			// coordinator's consumer.session.timeout.ms rules. And
			// plogsim kafka lets a consumer group reconcile before
			// each command of it, in virtual time, past a crashed
			// member's 45 s session: a minute's max.poll.interval.ms
			// would end members the scenario goes on to use.
			configs = []string{"auto.offset.reset=latest", "auto.offset.reset=earliest"}
		}
		return fmt.Sprintf("config group %s %s", name, g.pick(configs...))
	case n < 92:
		return "compact " + g.topic()
	case n < 94 && len(g.topics) < 3:
		return g.topicLine(fmt.Sprintf("t%d", len(g.topics)))
	}
	return g.produce()
}

func (g *generator) produce() string {
	line := "produce " + g.topic()
	switch g.rng.IntN(6) {
	case 0, 1, 2:
		line += " key=" + g.key()
	case 3:
		line += fmt.Sprintf(" partition=%d", g.rng.IntN(2))
	}
	if g.rng.IntN(10) == 0 && strings.Contains(line, "key=") {
		line += " tombstone"
	} else {
		line += " value=" + g.pick("a", "b", "c")
	}
	if g.rng.IntN(2) == 0 {
		line += fmt.Sprintf(" count=%d", 1+g.rng.IntN(5))
	}
	if core.Follows(g.rules, core.BuiltInPartitioner) {
		// The producer's partitioner (Kafka's partitioner.class): unset,
		// Kafka's built-in one; round-robin places keyed records too.
		switch g.rng.IntN(6) {
		case 0:
			line += " partitioner=" + core.PartitionerRoundRobin
		case 1:
			line += " partitioner=" + core.PartitionerDefault
		}
	}
	return line
}

func (g *generator) join() string {
	group := fmt.Sprintf("g%d", g.rng.IntN(2))
	member := fmt.Sprintf("m%d", g.rng.IntN(4))
	topics := g.topic()
	if len(g.topics) > 1 && g.rng.IntN(3) == 0 {
		topics = strings.Join(g.topics[:2], ",")
	}
	// Every member of a group joins with the strategy the group first
	// used: the playground refuses a member with another.
	strategy := scenario.Strategies[int(g.rng.IntN(4)+len(group))%4]
	if v, err := g.s.Log().Group(group); err == nil && v.Strategy != "" {
		strategy = string(v.Strategy)
	}
	line := fmt.Sprintf("join %s %s topics=%s", group, member, topics) + g.protocolArgs(group, strategy)
	if g.rng.IntN(8) == 0 {
		line += " instance=host-" + member
	}
	return line
}

// protocolArgs are a join's arguments for its group's protocol: a classic
// group's strategy; a consumer group's group.protocol and the assignor its
// members ask for (Kafka refuses a strategy there: the coordinator assigns).
func (g *generator) protocolArgs(group, strategy string) string {
	if group != g.consumerGroup {
		return " strategy=" + strategy
	}
	args := " group.protocol=" + core.ProtocolConsumer
	if g.remoteAssignor != "" {
		args += " group.remote.assignor=" + g.remoteAssignor
	}
	return args
}

// windDown stops every member of a group, lets a crashed one's session
// run out, resets the group's offsets as an admin would, and has a member
// come back and read from where the reset put it.
func (g *generator) windDown(group string) {
	members := slices.Clone(g.members[group])
	for _, m := range members {
		g.add(fmt.Sprintf("leave %s %s", group, m))
	}
	g.add("advance 1m")
	g.add(g.reset(group))
	if len(members) > 0 {
		line := fmt.Sprintf("join %s %s topics=%s", group, members[0], g.topics[0])
		if group == g.consumerGroup {
			// Back in the consumer protocol: a classic member would
			// make the empty group a classic one.
			line += g.protocolArgs(group, "")
		}
		g.add(line)
		g.add("advance 5s")
		g.add(fmt.Sprintf("poll %s %s", group, members[0]))
	}
}

// emptyGroup returns a group with no live member, which Kafka lets an
// admin reset, or "".
func (g *generator) emptyGroup() string {
	for _, name := range g.groups {
		if len(g.members[name]) == 0 {
			return name
		}
	}
	return ""
}

func (g *generator) reset(group string) string {
	line := "reset " + group + " " + g.pick("to-earliest", "to-latest", fmt.Sprintf("to-offset=%d", g.rng.IntN(4)))
	if g.rng.IntN(2) == 0 {
		line += " topic=" + g.topic()
	}
	return line
}
