package assign

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// The playground's first sticky planner (FlowSticky: the sticky strategies
// under rules 1 and 2, kept so that scenarios made then replay as they
// did; rules 3 on run Kafka's own, sticky_kafka.go). It follows what Kafka
// 4.4's StickyAssignor (KIP-54) and the plan behind its
// CooperativeStickyAssignor aim at, not how they get there, and wants two
// things, in this order:
//
//  1. balance: the partition counts of the members are as even as the
//     subscriptions allow. Precisely, the counts sorted from largest to
//     smallest are lexicographically smallest; with equal subscriptions
//     that means counts differ by at most one.
//  2. stickiness: among the balanced assignments, as many partitions as
//     possible stay with the member that owned them.
//
// Both fit one minimum-cost flow. Each partition is a unit of flow from the
// source, through a member subscribed to its topic, to the sink. Handing a
// partition to a member that did not own it costs 1. The k-th partition a
// member takes costs W·(2k-1) on its way to the sink, so a member holding n
// partitions has paid W·n²: the flow minimises W·Σn² + moves. With W larger
// than the number of partitions, balance always wins over stickiness, and
// minimising Σn² is exactly balance in the sense above (for assignments of
// items to eligible bins, the square-sum minimisers are the decreasingly
// minimal load vectors: Frank and Murota, "Discrete Decreasing Minimization").
//
// Partitions that nobody can tell apart (same subscribers, same previous
// owner) share one node, a row, so the graph stays small: one topic over a
// hundred members is about a hundred rows whatever its partition count.

// stickyRow is a set of partitions with the same subscribers and the same
// previous owner.
type stickyRow struct {
	parts       []TopicPartition // in partition order
	subscribers []int            // member indices, in member order
	owner       int              // previous owner's index, or -1
	flow        []int            // partitions of this row going to subscribers[j]
	left        int              // partitions not yet routed
}

func (in assignInput) stickyRows() []*stickyRow {
	owners := in.claimedOwners()
	var rows []*stickyRow
	index := make(map[string]*stickyRow)
	for _, topic := range in.topics {
		subs := in.subs[topic]
		var class strings.Builder
		for _, m := range subs {
			class.WriteString(strconv.Itoa(m))
			class.WriteByte(',')
		}
		for p := range in.counts[topic] {
			tp := TopicPartition{topic, p}
			owner, ok := owners[tp]
			if !ok {
				owner = -1
			}
			key := class.String() + "|" + strconv.Itoa(owner)
			row := index[key]
			if row == nil {
				row = &stickyRow{subscribers: subs, owner: owner, flow: make([]int, len(subs))}
				index[key] = row
				rows = append(rows, row)
			}
			row.parts = append(row.parts, tp)
			row.left++
		}
	}
	return rows
}

// memberEdge points from a member to its place in a row's subscribers.
type memberEdge struct {
	row, slot int
}

func (in assignInput) assignSticky() Assignment {
	if len(in.members) == 0 {
		return in.empty()
	}
	if in.equalSubscriptions() {
		return in.assignStickyEqual()
	}
	rows := in.stickyRows()
	nm := len(in.members)
	total := 0
	edges := make([][]memberEdge, nm)
	for r, row := range rows {
		total += len(row.parts)
		for j, m := range row.subscribers {
			edges[m] = append(edges[m], memberEdge{r, j})
		}
	}
	f := &stickyFlow{
		rows:      rows,
		edges:     edges,
		load:      make([]int, nm),
		weight:    int64(total) + 1,
		potential: make([]int64, len(rows)+nm+2), // the last two: sink, source
		visited:   make([]bool, len(rows)+nm+1),
	}
	f.route()
	return in.realizeSticky(rows)
}

// stickyFlow is the flow network. Nodes: rows 0..R-1, members R..R+M-1,
// then the sink. The source is implicit, with potential 0.
type stickyFlow struct {
	rows      []*stickyRow
	edges     [][]memberEdge // member → its slots in rows
	load      []int          // partitions routed to each member so far
	weight    int64          // W: the price of balance over one move
	potential []int64        // Johnson potentials: reduced costs stay ≥ 0
	visited   []bool
}

const flowInfinity = math.MaxInt64 / 4

func (f *stickyFlow) sink() int { return len(f.rows) + len(f.load) }

// moveCost is the price of giving one partition of row to member m.
func (f *stickyFlow) moveCost(row *stickyRow, m int) int64 {
	if row.owner == m {
		return 0
	}
	return 1
}

// sinkCost is the price of member m taking one more partition.
func (f *stickyFlow) sinkCost(m int) int64 {
	return f.weight * int64(2*f.load[m]+1)
}

func (f *stickyFlow) reduced(u, v int, cost int64) int64 {
	return cost + f.potential[u] - f.potential[v]
}

// route sends every partition from the source to the sink at the least
// total cost (primal-dual: Dijkstra sets the potentials, then as many
// partitions as possible go along paths of reduced cost 0).
func (f *stickyFlow) route() {
	for f.updatePotentials() {
		for f.augment() {
		}
	}
}

// updatePotentials runs Dijkstra on reduced costs from the source and adds
// the distances (capped at the sink's) to the potentials. It reports false
// when no partition is left to route.
func (f *stickyFlow) updatePotentials() bool {
	nr := len(f.rows)
	sink := f.sink()
	dist := make([]int64, sink+1)
	done := make([]bool, sink+1)
	for v := range dist {
		dist[v] = flowInfinity
	}
	left := false
	for r, row := range f.rows {
		if row.left > 0 {
			dist[r] = f.reduced(sink+1, r, 0)
			left = true
		}
	}
	if !left {
		return false
	}
	for {
		u := -1
		for v := range dist {
			if !done[v] && dist[v] < flowInfinity && (u < 0 || dist[v] < dist[u]) {
				u = v
			}
		}
		if u < 0 || u == sink {
			break
		}
		done[u] = true
		relax := func(v int, cost int64) {
			dist[v] = min(dist[v], dist[u]+f.reduced(u, v, cost))
		}
		if u < nr {
			for _, m := range f.rows[u].subscribers {
				relax(nr+m, f.moveCost(f.rows[u], m))
			}
			continue
		}
		m := u - nr
		relax(sink, f.sinkCost(m))
		for _, e := range f.edges[m] {
			if f.rows[e.row].flow[e.slot] > 0 {
				relax(e.row, -f.moveCost(f.rows[e.row], m))
			}
		}
	}
	for v := range dist {
		f.potential[v] += min(dist[v], dist[sink])
	}
	return true
}

// augment routes one partition along a path whose arcs all have reduced
// cost 0, found by depth-first search. It reports false if there is none.
func (f *stickyFlow) augment() bool {
	clear(f.visited)
	source := f.sink() + 1
	for r, row := range f.rows {
		if row.left > 0 && f.reduced(source, r, 0) == 0 && f.fromRow(r) {
			row.left--
			return true
		}
	}
	return false
}

func (f *stickyFlow) fromRow(r int) bool {
	nr := len(f.rows)
	row := f.rows[r]
	f.visited[r] = true
	for j, m := range row.subscribers {
		if !f.visited[nr+m] && f.reduced(r, nr+m, f.moveCost(row, m)) == 0 && f.fromMember(m) {
			row.flow[j]++
			return true
		}
	}
	return false
}

func (f *stickyFlow) fromMember(m int) bool {
	nr := len(f.rows)
	f.visited[nr+m] = true
	if f.reduced(nr+m, f.sink(), f.sinkCost(m)) == 0 {
		f.load[m]++
		return true
	}
	for _, e := range f.edges[m] {
		row := f.rows[e.row]
		if row.flow[e.slot] > 0 && !f.visited[e.row] && f.reduced(nr+m, e.row, -f.moveCost(row, m)) == 0 && f.fromRow(e.row) {
			row.flow[e.slot]--
			return true
		}
	}
	return false
}

// realizeSticky turns the row flows into partitions: the previous owner
// keeps the lowest of its partitions, and the rest are dealt one at a time
// to the members in order, so a fresh group gets partitions the way Kafka's
// sticky assignor deals them.
func (in assignInput) realizeSticky(rows []*stickyRow) Assignment {
	out := in.empty()
	for _, row := range rows {
		parts := row.parts
		want := slices.Clone(row.flow)
		for j, m := range row.subscribers {
			if m == row.owner {
				id := in.members[m].ID
				out[id] = append(out[id], parts[:want[j]]...)
				parts = parts[want[j]:]
				want[j] = 0
			}
		}
		in.deal(out, parts, row.subscribers, want)
	}
	sortAssignment(out)
	return out
}

// equalSubscriptions reports whether every member subscribes to every topic
// in play, the common case that Kafka's sticky assignor also solves apart
// (its constrainedAssign).
func (in assignInput) equalSubscriptions() bool {
	for _, topic := range in.topics {
		if len(in.subs[topic]) != len(in.members) {
			return false
		}
	}
	return true
}

// assignStickyEqual solves the equal-subscription case directly. Balanced
// means every member holds n/m partitions and n%m members one more; a
// member keeps its own partitions up to that quota, so the extra places go
// to the members that owned the most (ties: the first in order). What is
// left is dealt one partition at a time to the members in order that are
// still below their quota.
func (in assignInput) assignStickyEqual() Assignment {
	out := in.empty()
	nm := len(in.members)
	owned := make([][]TopicPartition, nm)
	total := 0
	for _, topic := range in.topics {
		total += in.counts[topic]
	}
	owners := in.claimedOwners()
	for _, topic := range in.topics {
		for p := range in.counts[topic] {
			tp := TopicPartition{topic, p}
			if m, ok := owners[tp]; ok {
				owned[m] = append(owned[m], tp)
			}
		}
	}
	quota := make([]int, nm)
	byOwned := make([]int, nm)
	for m := range nm {
		quota[m] = total / nm
		byOwned[m] = m
	}
	slices.SortStableFunc(byOwned, func(a, b int) int { return len(owned[b]) - len(owned[a]) })
	for _, m := range byOwned[:total%nm] {
		quota[m]++
	}
	var free []TopicPartition
	for m, tps := range owned {
		keep := min(len(tps), quota[m])
		out[in.members[m].ID] = append(out[in.members[m].ID], tps[:keep]...)
		free = append(free, tps[keep:]...)
		quota[m] -= keep
	}
	for _, topic := range in.topics {
		for p := range in.counts[topic] {
			if _, ok := owners[TopicPartition{topic, p}]; !ok {
				free = append(free, TopicPartition{topic, p})
			}
		}
	}
	slices.SortFunc(free, ComparePartitions)
	everyone := make([]int, nm)
	for m := range everyone {
		everyone[m] = m
	}
	in.deal(out, free, everyone, quota)
	sortAssignment(out)
	return out
}

// deal hands parts out one at a time to members in order, going round,
// giving member members[j] want[j] of them in all.
func (in assignInput) deal(out Assignment, parts []TopicPartition, members []int, want []int) {
	for len(parts) > 0 {
		for j, m := range members {
			if want[j] > 0 && len(parts) > 0 {
				id := in.members[m].ID
				out[id] = append(out[id], parts[0])
				parts = parts[1:]
				want[j]--
			}
		}
	}
}

func sortAssignment(a Assignment) {
	for id := range a {
		slices.SortFunc(a[id], ComparePartitions)
	}
}
