package assign

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/cockroachdb/datadriven"
)

// TestDataDriven runs the scripts in testdata/*.txt, one file per strategy.
// Each script is a group over time: topics are created, members join and
// leave, and every rebalance prints who owns what. Rewrite the expected
// output with
//
//	go test ./core/assign/ -run TestDataDriven -rewrite
//
// The directives:
//
//	topics t0=3 t1=2           partition counts (a topic may grow)
//	join                       one member a line: C0 topics=(t0,t1) [instance=host-1]
//	leave C0 C1                members that leave
//	claim                      what a member says it owns: C0 generation=1 owns=(t0/0,t0/1)
//	rebalance strategy=range   one round over the members as they are
//	reset                      a new group, with no topics
//
// A rebalance prints the generation, how many partitions moved and how
// many a cooperative round held back, then each member, in Kafka's order,
// with its partitions. Each member then owns what it got, in that
// generation, as a consumer does after SyncGroup.
func TestDataDriven(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		h := &groupHarness{counts: map[string]int{}}
		datadriven.RunTest(t, path, h.run)
	})
}

// groupHarness is the group a script builds up.
type groupHarness struct {
	counts     map[string]int
	members    []Member   // in the order they joined
	last       Assignment // the last round's result, members since gone too
	generation int
}

func (h *groupHarness) run(t *testing.T, d *datadriven.TestData) string {
	switch d.Cmd {
	case "reset":
		*h = groupHarness{counts: map[string]int{}}
		return ""
	case "topics":
		for _, arg := range d.CmdArgs {
			n, err := strconv.Atoi(arg.SingleVal(t))
			if err != nil {
				d.Fatalf(t, "topics %s: %v", arg.Key, err)
			}
			h.counts[arg.Key] = n
		}
		return ""
	case "join":
		for _, line := range inputLines(d) {
			id, args := parseMemberLine(t, d, line)
			m := Member{ID: id}
			for _, arg := range args {
				switch arg.Key {
				case "topics":
					m.Topics = arg.Vals
				case "instance":
					m.InstanceID = arg.SingleVal(t)
				default:
					d.Fatalf(t, "join %s: unknown argument %s", id, arg.Key)
				}
			}
			h.members = append(h.members, m)
		}
		return ""
	case "leave":
		for _, arg := range d.CmdArgs {
			n := len(h.members)
			h.members = slices.DeleteFunc(h.members, func(m Member) bool { return m.ID == arg.Key })
			if len(h.members) == n {
				d.Fatalf(t, "leave: no member %s", arg.Key)
			}
		}
		return ""
	case "claim":
		for _, line := range inputLines(d) {
			id, args := parseMemberLine(t, d, line)
			m := h.member(t, d, id)
			m.Owned = []TopicPartition{}
			for _, arg := range args {
				switch arg.Key {
				case "generation":
					var err error
					if m.Generation, err = strconv.Atoi(arg.SingleVal(t)); err != nil {
						d.Fatalf(t, "claim %s: %v", id, err)
					}
				case "owns":
					for _, v := range arg.Vals {
						m.Owned = append(m.Owned, parsePartition(t, d, v))
					}
				default:
					d.Fatalf(t, "claim %s: unknown argument %s", id, arg.Key)
				}
			}
		}
		return ""
	case "rebalance":
		var strategy string
		d.ScanArgs(t, "strategy", &strategy)
		return h.rebalance(t, d, strategy)
	}
	d.Fatalf(t, "unknown directive %q", d.Cmd)
	return ""
}

func (h *groupHarness) rebalance(t *testing.T, d *datadriven.TestData, strategy string) string {
	a, held, err := Round(strategy, slices.Clone(h.members), h.counts)
	if err != nil {
		return "error: " + err.Error() + "\n"
	}
	checkRound(t, d, h.members, h.counts, a, held, strategy)
	h.generation++
	var b strings.Builder
	fmt.Fprintf(&b, "generation %d: %d moved", h.generation, MovedPartitions(h.last, a))
	if IsCooperative(strategy) {
		fmt.Fprintf(&b, ", %d held back", held)
	}
	b.WriteString("\n")
	sorted := slices.Clone(h.members)
	SortMembers(sorted)
	for _, m := range sorted {
		b.WriteString(m.ID)
		if m.InstanceID != "" {
			b.WriteString(" (" + m.InstanceID + ")")
		}
		b.WriteString(":")
		if len(a[m.ID]) == 0 {
			b.WriteString(" nothing")
		}
		for _, tp := range a[m.ID] {
			b.WriteString(" " + tp.String())
		}
		b.WriteString("\n")
	}
	for i := range h.members {
		h.members[i].Owned = a[h.members[i].ID]
		h.members[i].Generation = h.generation
	}
	h.last = a
	return b.String()
}

// checkRound holds every round to what any assignor owes: each member is in
// the assignment, and each partition of a subscribed topic goes to one
// subscriber at most, to exactly one unless a cooperative round held it
// back.
func checkRound(t *testing.T, d *datadriven.TestData, members []Member, counts map[string]int, a Assignment, held int, strategy string) {
	t.Helper()
	owner := map[TopicPartition]string{}
	for _, m := range members {
		tps, ok := a[m.ID]
		if !ok {
			d.Fatalf(t, "%s: member %s missing from the assignment", strategy, m.ID)
		}
		for _, tp := range tps {
			if prev, ok := owner[tp]; ok {
				d.Fatalf(t, "%s: %s given to %s and %s", strategy, tp, prev, m.ID)
			}
			if !slices.Contains(m.Topics, tp.Topic) || tp.Partition >= counts[tp.Topic] {
				d.Fatalf(t, "%s: %s given to %s, which does not subscribe to it", strategy, tp, m.ID)
			}
			owner[tp] = m.ID
		}
	}
	subscribed := 0
	for topic, n := range counts {
		if slices.ContainsFunc(members, func(m Member) bool { return slices.Contains(m.Topics, topic) }) {
			subscribed += n
		}
	}
	if len(owner)+held != subscribed {
		d.Fatalf(t, "%s: %d partitions assigned and %d held back of the %d subscribed", strategy, len(owner), held, subscribed)
	}
}

func (h *groupHarness) member(t *testing.T, d *datadriven.TestData, id string) *Member {
	for i := range h.members {
		if h.members[i].ID == id {
			return &h.members[i]
		}
	}
	d.Fatalf(t, "no member %s", id)
	return nil
}

func inputLines(d *datadriven.TestData) []string {
	var lines []string
	for _, line := range strings.Split(d.Input, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// parseMemberLine reads `C0 key=value key=(a,b)`: the member id, then its
// arguments.
func parseMemberLine(t *testing.T, d *datadriven.TestData, line string) (string, []datadriven.CmdArg) {
	id, args, err := datadriven.ParseLine(line)
	if err != nil {
		d.Fatalf(t, "%q: %v", line, err)
	}
	return id, args
}

// parsePartition reads `t0/3`.
func parsePartition(t *testing.T, d *datadriven.TestData, s string) TopicPartition {
	topic, p, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(p)
	if !ok || err != nil {
		d.Fatalf(t, "%q is not a partition like t0/3", s)
	}
	return TopicPartition{Topic: topic, Partition: n}
}
