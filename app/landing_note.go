package app

import (
	"fmt"
	"strings"

	"plog/core"
	"plog/core/units"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Landing is where the last command's records landed, lane by lane, and why
// the partitioner chose each lane.
type Landing struct {
	Lanes []LandedRange
	Count int // records produced
	// Read is the records the command's polls read, by laneKey
	// (motion_reads.go).
	Read map[string]readRange
	// Moves is what the command did to the groups' assignments
	// (motion_rebalance.go).
	Moves map[assignmentKey]string
	// Wire is what the command did between named producers and the
	// brokers, in words (wire_note.go).
	Wire []WireLine
	// Reads is what the command's polls read, member by member
	// (read_note.go).
	Reads []ReadLine
	// Members is what the command did to the groups' members
	// (member_note.go).
	Members []MemberLine

	hwNoted bool // noteHighWatermarks has run
}

// LandedRange is the records one command appended to one partition: a run
// of consecutive offsets, since nothing else writes in between.
type LandedRange struct {
	Topic     string
	Partition int
	From, To  int64    // first and last offset
	Count     int      // records
	Reasons   []string // distinct reasons, e.g. murmur2("acct-1") % 4 = 2
	// HighWatermark is the partition's after the command; Uncommitted how
	// many of the records are at or above it: stored on the leader, not
	// yet fetched by every follower in the ISR, so no consumer reads them.
	HighWatermark int64
	Uncommitted   int
	// HWHeld says why the high watermark stays (an ISR smaller than
	// min.insync.replicas), "" when it moves as the followers fetch.
	HWHeld string
}

// noteHighWatermarks sets, for each lane, its high watermark after the
// command and how many of the records landed above it, from the snapshot
// taken right after the command: once, so that later snapshots (a redo, a
// move of the replicas' window) leave what the command did as it was.
func (l *Landing) noteHighWatermarks(view LogSnapshot) {
	if l.hwNoted {
		return
	}
	l.hwNoted = true
	for i := range l.Lanes {
		r := &l.Lanes[i]
		part, ok := view.partition(r.Topic, r.Partition)
		if !ok {
			continue // a lane of a topic the command also removed
		}
		hw := part.HighWatermark
		r.HighWatermark = hw
		r.Uncommitted = int(max(0, r.To+1-max(r.From, hw)))
		r.HWHeld = part.HWHeld
	}
}

// maxReasons bounds the reasons kept per lane: keys drawn at random give one
// each, and the note says how the partition was chosen, not every key.
const maxReasons = 3

// landingOf gathers the produced events of one command by partition. Each
// event is a run of records produced one after another to a partition.
func landingOf(events []core.Event) Landing {
	l := Landing{Read: readsOf(events), Wire: wireLinesOf(events), Reads: readLinesOf(events), Members: memberLinesOf(events)}
	index := map[string]int{}
	for _, e := range events {
		if e.Kind != core.EventProduced {
			continue
		}
		l.Count += e.Count
		k := laneKey(e.Topic, e.Partition)
		i, ok := index[k]
		if !ok {
			i = len(l.Lanes)
			index[k] = i
			l.Lanes = append(l.Lanes, LandedRange{Topic: e.Topic, Partition: e.Partition, From: e.From})
		}
		r := &l.Lanes[i]
		r.To = e.To - 1
		r.Count += e.Count
		for _, reason := range e.Reasons() {
			if len(r.Reasons) < maxReasons && reason != "" && !contains(r.Reasons, reason) {
				r.Reasons = append(r.Reasons, reason)
			}
		}
	}
	return l
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// landedIn says whether records landed in a topic.
func (l Landing) landedIn(topic string) bool {
	for _, r := range l.Lanes {
		if r.Topic == topic {
			return true
		}
	}
	return false
}

// rangeFor returns the landed range of one partition, if any.
func (l Landing) rangeFor(topic string, partition int) (LandedRange, bool) {
	for _, r := range l.Lanes {
		if r.Topic == topic && r.Partition == partition {
			return r, true
		}
	}
	return LandedRange{}, false
}

// maxLandingLines bounds the note: a produce across 100 partitions is
// summed up after this many lines.
const maxLandingLines = 6

// LandingNote says where the last produce put its records and why: the
// partitioner's own arithmetic for a key, round-robin or sticky for none.
type LandingNote struct {
	app.Compo

	Landing Landing
}

// Render draws nothing until something is produced.
func (n *LandingNote) Render() app.UI {
	l := n.Landing
	if l.Count == 0 {
		return app.Div().Class("landing", "empty")
	}
	shown := l.Lanes
	if len(shown) > maxLandingLines {
		shown = shown[:maxLandingLines]
	}
	return app.Section().Class("landing").Aria("live", "polite").Aria("label", "where the records landed").Body(
		app.P().Class("landing-title").Text(fmt.Sprintf("%s produced", countOf(l.Count, "record"))),
		app.Ul().Body(
			app.Range(shown).Slice(func(i int) app.UI {
				r := shown[i]
				return app.Li().
					DataSet("landed-topic", r.Topic).
					DataSet("landed-partition", r.Partition).
					DataSet("landed-offset", r.To).
					Body(
						app.Strong().Text(fmt.Sprintf("%s/%d", r.Topic, r.Partition)),
						app.Text(" "+offsetRange(r.From, r.To)+" · why: "),
						app.Code().Text(reasonText(r.Reasons)),
						app.If(r.Uncommitted > 0,
							app.Span().Class("landing-uncommitted").DataSet("uncommitted", r.Uncommitted).Text(uncommittedText(r)),
						),
					)
			}),
			app.If(len(l.Lanes) > len(shown),
				app.Li().Text(fmt.Sprintf("and %d more partitions", len(l.Lanes)-len(shown))),
			),
		),
	)
}

// echo says in a line where the records went, for the control that
// produced them: "→ orders/2, offset 1 (murmur2("acct-1") % 3 = 2)".
func (l Landing) echo() string {
	if l.Count == 0 {
		return ""
	}
	r := l.Lanes[0]
	text := fmt.Sprintf("→ %s/%d, %s (%s)", r.Topic, r.Partition, offsetRange(r.From, r.To), reasonText(r.Reasons))
	if more := len(l.Lanes) - 1; more > 0 {
		text += fmt.Sprintf(", and %s", countOf(more, "more partition"))
	}
	return text
}

// uncommittedText says why consumers cannot read records yet. Kafka 4.x
// serves consumers only below the high watermark
// (kafka.cluster.Partition.fetchRecords with FetchIsolation.HIGH_WATERMARK),
// and the leader moves it up once every follower in the ISR has fetched the
// records (kafka.cluster.Partition.maybeIncrementLeaderHW), but not while
// the ISR is smaller than min.insync.replicas (Kafka 3.7+, KAFKA-15583:
// rules 3), which HWHeld then says.
func uncommittedText(r LandedRange) string {
	which := "They are"
	if r.Uncommitted < r.Count {
		which = fmt.Sprintf("%d of them are", r.Uncommitted)
	} else if r.Count == 1 {
		which = "It is"
	}
	if r.HWHeld != "" {
		return fmt.Sprintf(". %s not committed: the high watermark stays at %d, and consumers read only below it. It stays because %s.",
			which, r.HighWatermark, r.HWHeld)
	}
	return fmt.Sprintf(". %s not committed yet: the high watermark is %d, and consumers read only below it. It moves up once the followers in the ISR have fetched the records (they fetch every %s of the clock).",
		which, r.HighWatermark, units.Duration(core.ReplicaFetchIntervalMs))
}

// reasonText writes the partitioner's reasons for the reader.
func reasonText(reasons []string) string {
	switch {
	case len(reasons) == 0:
		return "a workload's choice"
	case reasons[0] == "explicit":
		return "the partition was given"
	}
	return strings.Join(reasons, "; ")
}

// offsetRange writes "offset 5" or "offsets 5–7".
func offsetRange(from, to int64) string {
	if from == to {
		return fmt.Sprintf("offset %d", from)
	}
	return fmt.Sprintf("offsets %d–%d", from, to)
}

// countOf writes "1 record", "3 records".
func countOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
