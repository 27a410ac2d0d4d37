package app

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"plog/core"
	"plog/core/lesson"
	"plog/core/scenario"
	"plog/core/units"
)

// The captions the page draws on the picture are true after every command:
// each lesson's start and solution are applied one command at a time, and
// at each step every caption, made by the function the page draws it with
// from the page's snapshot, is read back and compared with the engine's
// state, read through core.ReadOnlyLog apart from the snapshot. A caption
// that reads right after the last command of a lesson but wrong in the
// middle of it teaches the wrong thing just as surely.
func TestCaptionsAreTrueAtEveryStepOfEveryLesson(t *testing.T) {
	for _, l := range lesson.All() {
		t.Run(l.Name, func(t *testing.T) {
			steps := 0
			everyLessonStep(t, l, func(step string, s *scenario.Session) {
				steps++
				c := &captionCheck{t: t, at: step, l: s.Log()}
				snap, err := snapshotOf(s, nil, nil)
				if err != nil {
					t.Fatalf("after %q: snapshot: %v", step, err)
				}
				c.lanes(snap)
				c.windows(snap)
				c.windows(read(snapshotOf(s, fromLogStart(snap), nil)))
				c.groups(snap)
				c.producers(snap)
				c.shareGroups(snap)
				c.brokers()
			})
			if steps < 2 {
				t.Fatalf("walked %d steps: the lesson's start or solution did not apply", steps)
			}
		})
	}
}

// The hot-partition lesson shows its hot partition at the start, and only
// it: the lesson asks the learner to find it.
func TestTheHotPartitionLessonShowsItsHotPartition(t *testing.T) {
	l, err := lesson.Find("hot-partition")
	if err != nil {
		t.Fatal(err)
	}
	s, err := l.Start()
	if err != nil {
		t.Fatal(err)
	}
	snap, err := snapshotOf(s, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var hot []int
	for _, topic := range snap.Topics {
		for _, p := range topic.Partitions {
			if topic.hot(p.Count) {
				hot = append(hot, p.Partition)
			}
		}
	}
	if len(hot) != 1 {
		t.Fatalf("hot partitions at the start: %v, want one", hot)
	}
}

// everyLessonStep applies a lesson's start and then its solution one
// command at a time, and calls visit after each.
func everyLessonStep(t *testing.T, l lesson.Lesson, visit func(step string, s *scenario.Session)) {
	t.Helper()
	start, err := scenario.Parse(l.Script)
	if err != nil {
		t.Fatalf("start: %v", err)
	}
	solution, err := scenario.Parse(l.Solution)
	if err != nil {
		t.Fatalf("solution: %v", err)
	}
	s := scenario.NewSession()
	for _, c := range append(start, solution...) {
		if _, err := s.ApplyCommand(c); err != nil {
			t.Fatalf("%q: %v", c.String(), err)
		}
		visit(c.String(), s)
	}
}

// fromLogStart is the lane views that start each lane's window at its log
// start, so that a lane of more records than its window has newer ones.
func fromLogStart(snap LogSnapshot) map[string]int64 {
	views := map[string]int64{}
	for _, t := range snap.Topics {
		for _, p := range t.Partitions {
			views[laneKey(p.Topic, p.Partition)] = p.LogStart
		}
	}
	return views
}

// captionCheck reads captions back and compares them with the engine.
type captionCheck struct {
	t  *testing.T
	at string // the command just applied
	l  core.ReadOnlyLog
}

func (c *captionCheck) errorf(format string, args ...any) {
	c.t.Helper()
	c.t.Errorf("after %q: %s", c.at, fmt.Sprintf(format, args...))
}

// read is a value the engine read, which fails only when the engine
// contradicts the names it listed: the test stops there.
func read[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// number reads the one number a caption of the form `prefix N` holds.
func (c *captionCheck) number(caption, prefix string) int64 {
	c.t.Helper()
	n, err := strconv.ParseInt(strings.TrimPrefix(caption, prefix), 10, 64)
	if err != nil || !strings.HasPrefix(caption, prefix) {
		c.errorf("caption %q is not %q and a number", caption, prefix)
	}
	return n
}

var (
	laneCountCaption = regexp.MustCompile(`^(\d+) records?( · hot)?$`)
	// groupChipCaption reads "billing: committed 5 · b1 reads 5", "billing:
	// no commit · b1 owns it", with "paused by a rebalance" and "new to b1".
	groupChipCaption = regexp.MustCompile(`^(\S+): (?:no commit|committed (\d+))(?: · (\S+) reads (\d+))?( · paused by a rebalance)?(?: · (\S+) owns it)?(?: · new to (\S+))?$`)
	assignedCaption  = regexp.MustCompile(`^(\S+)/(\d+)(?: @(\d+))?$`)
	producerCaption  = regexp.MustCompile(`^(\S+) · (?:no id|id (\d+) · epoch (\d+)) · ([a-z-]+)(?: · transactional.id (\S+))?$`)
	lagCaption       = regexp.MustCompile(`^lag (\d+) records? from its commits · (\S+) behind$`)
	expiryCaption    = regexp.MustCompile(`^offsets? (\d+)(?:–(\d+))? (?:goes|go) at (\S+) \(retention.ms\)$`)
	shareCaption     = regexp.MustCompile(`^SPSO (\d+), SPEO (\d+), share lag (-?\d+)$`)
)

// lanes checks each lane's count, offsets, last stable offset, hot flag
// and group chips.
func (c *captionCheck) lanes(snap LogSnapshot) {
	c.t.Helper()
	if len(snap.Topics) != len(c.l.TopicNames()) {
		c.errorf("%d topics drawn, the engine has %d", len(snap.Topics), len(c.l.TopicNames()))
	}
	for _, topic := range snap.Topics {
		counts := read(c.l.PartitionRecordCounts(topic.Name))
		if len(topic.Partitions) != len(counts) {
			c.errorf("%s: %d lanes, the engine has %d partitions", topic.Name, len(topic.Partitions), len(counts))
			continue
		}
		c.skew(topic, counts)
		for i, p := range topic.Partitions {
			name := laneKey(topic.Name, i)
			count := laneCountText(p.Count, topic.hot(p.Count))
			m := laneCountCaption.FindStringSubmatch(count)
			if m == nil {
				c.errorf("%s: count caption %q", name, count)
				continue
			}
			if n, _ := strconv.Atoi(m[1]); n != read(c.l.RecordCount(topic.Name, i)) || n != counts[i] {
				c.errorf("%s: caption %q, the engine retains %d records", name, count, counts[i])
			}
			total := 0
			for _, n := range counts {
				total += n
			}
			if hot := m[2] != ""; hot != isHot(counts[i], total, len(counts)) {
				c.errorf("%s: caption %q, counts %v", name, count, counts)
			}
			if got, want := c.number(logStartText(p), "start "), read(c.l.LogStartOffset(topic.Name, i)); got != want {
				c.errorf("%s: caption %q, log start offset %d", name, logStartText(p), want)
			}
			if got, want := c.number(nextOffsetText(p), "next "), read(c.l.LogEndOffset(topic.Name, i)); got != want {
				c.errorf("%s: caption %q, log end offset %d", name, nextOffsetText(p), want)
			}
			if got, want := c.number(hwText(p.HighWatermark), "HW "), read(c.l.HighWatermark(topic.Name, i)); got != want {
				c.errorf("%s: caption %q, high watermark %d", name, hwText(p.HighWatermark), want)
			}
			if p.Txn.InUse != c.l.TransactionsInUse() {
				c.errorf("%s: LSO drawn %v, transactions in use %v", name, p.Txn.InUse, c.l.TransactionsInUse())
			}
			if p.Txn.InUse {
				lso := lsoText(p.Txn.LastStableOffset)
				if got, want := c.number(lso, "LSO "), read(c.l.LastStableOffset(topic.Name, i)); got != want {
					c.errorf("%s: caption %q, last stable offset %d", name, lso, want)
				}
			}
			c.retention(p)
			c.chips(p)
		}
	}
}

// skew checks a topic's skew caption: its fullest partition's count over
// the mean.
func (c *captionCheck) skew(topic TopicSnapshot, counts []int) {
	c.t.Helper()
	text := skewText(topic)
	total, most := 0, 0
	for _, n := range counts {
		total += n
		most = max(most, n)
	}
	if total == 0 {
		if text != "empty" {
			c.errorf("%s: caption %q, no records", topic.Name, text)
		}
		return
	}
	got, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimPrefix(text, "skew "), "×"), 64)
	want := float64(most) * float64(len(counts)) / float64(total)
	if err != nil || math.Abs(got-want) > 0.005 {
		c.errorf("%s: caption %q, counts %v: skew %.3f", topic.Name, text, counts, want)
	}
}

// windows checks each lane's window: the records it draws are the
// partition's, in order with none left out, and its older and newer
// buttons count the retained records before and after it.
func (c *captionCheck) windows(snap LogSnapshot) {
	c.t.Helper()
	for _, topic := range snap.Topics {
		for _, p := range topic.Partitions {
			name := laneKey(p.Topic, p.Partition)
			all := read(c.l.Records(p.Topic, p.Partition))
			if len(p.Records) == 0 {
				if len(all) != 0 {
					c.errorf("%s: no records drawn, the partition retains %d", name, len(all))
				}
				continue
			}
			first := slices.IndexFunc(all, func(r core.Record) bool { return r.Offset == p.Records[0].Offset })
			if first < 0 || first+len(p.Records) > len(all) {
				c.errorf("%s: the window from %d is not the partition's records", name, p.Records[0].Offset)
				continue
			}
			for i, r := range p.Records {
				if all[first+i].Offset != r.Offset {
					c.errorf("%s: the window draws offset %d where the partition has %d", name, r.Offset, all[first+i].Offset)
					break
				}
			}
			after := len(all) - first - len(p.Records)
			if p.Before > 0 && c.number(strings.TrimPrefix(strings.TrimSuffix(olderText(p), " older"), "◀ "), "") != int64(first) ||
				p.Before == 0 && first != 0 {
				c.errorf("%s: caption %q, %d records before the window", name, olderText(p), first)
			}
			if p.After > 0 && c.number(strings.TrimSuffix(newerText(p), " newer ▶"), "") != int64(after) ||
				p.After == 0 && after != 0 {
				c.errorf("%s: caption %q, %d records after the window", name, newerText(p), after)
			}
		}
	}
}

// retention checks the lane's retention captions against its segments:
// retention.ms deletes a whole segment once its newest record is older
// than it, at a retention check. Below the cliff every segment has
// expired and the one at the cliff has not; the next records to go are a
// segment (from the log start) that has not expired yet, and they go at a
// check after they expire.
func (c *captionCheck) retention(p PartitionSnapshot) {
	c.t.Helper()
	name := laneKey(p.Topic, p.Partition)
	config := read(c.l.TopicConfig(p.Topic))
	segments := read(c.l.Segments(p.Topic, p.Partition))
	now := c.l.Now()
	// Kafka deletes a segment whose newest record is more than
	// retention.ms old (UnifiedLog.deleteRetentionMsBreachedSegments).
	expired := func(s core.SegmentInfo) bool { return now-s.MaxTimestamp > config.RetentionMs }
	if p.Cliff > p.LogStart {
		note := cliffNote(p)
		var cliff int64
		if _, err := fmt.Sscanf(note, "retention cliff at %d:", &cliff); err != nil {
			c.errorf("%s: retention caption %q", name, note)
		}
		for _, s := range segments {
			if s.Records == 0 {
				continue
			}
			if below := s.EndOffset <= cliff; below != expired(s) {
				c.errorf("%s: caption %q, the segment %d–%d, newest at %d, expired %v (retention.ms %d, now %d)",
					name, note, s.BaseOffset, s.EndOffset-1, s.MaxTimestamp, expired(s), config.RetentionMs, now)
			}
		}
	}
	if p.NextExpiry == "" || config.CleanupPolicy != core.PolicyDelete {
		return
	}
	m := expiryCaption.FindStringSubmatch(p.NextExpiry)
	if m == nil {
		c.errorf("%s: expiry caption %q", name, p.NextExpiry)
		return
	}
	from, to := int64(mustAtoi(m[1])), int64(mustAtoi(m[1]))
	if m[2] != "" {
		to = int64(mustAtoi(m[2]))
	}
	at := duration(m[3])
	for _, s := range segments {
		if from < s.BaseOffset || from >= s.EndOffset {
			continue
		}
		if from != max(s.BaseOffset, p.LogStart) || to != s.EndOffset-1 || expired(s) || at-s.MaxTimestamp <= config.RetentionMs || at < now {
			c.errorf("%s: caption %q, the segment %d–%d, newest at %d, retention.ms %d, now %d",
				name, p.NextExpiry, s.BaseOffset, s.EndOffset-1, s.MaxTimestamp, config.RetentionMs, now)
		}
		return
	}
	c.errorf("%s: caption %q names offsets no segment holds", name, p.NextExpiry)
}

// chips checks a lane's group chips against each group's committed
// offsets and its members' assignments and positions, and that every
// group that has committed here or owns the partition has a chip.
func (c *captionCheck) chips(p PartitionSnapshot) {
	c.t.Helper()
	tp := core.TopicPartition{Topic: p.Topic, Partition: p.Partition}
	chipped := map[string]bool{}
	for _, mark := range p.Marks {
		text := groupChipText(mark)
		m := groupChipCaption.FindStringSubmatch(text)
		if m == nil {
			c.errorf("%s: chip caption %q", tp, text)
			continue
		}
		group := m[1]
		chipped[group] = true
		offsets := read(c.l.GroupOffsets(group))
		committed, has := offsets[tp]
		switch {
		case has != (m[2] != ""):
			c.errorf("%s: chip %q, the group has committed %v (offsets %v)", tp, text, has, offsets)
		case has && strconv.FormatInt(committed, 10) != m[2]:
			c.errorf("%s: chip %q, the group's committed offset is %d", tp, text, committed)
		}
		owner, position, hasPosition := c.ownerOf(group, tp)
		named := m[3] + m[6] // who reads, or who owns it
		if named != owner {
			c.errorf("%s: chip %q names owner %q, the member that holds it in its assignment is %q", tp, text, named, owner)
		}
		if hasPosition != (m[4] != "") || hasPosition && strconv.FormatInt(position, 10) != m[4] {
			c.errorf("%s: chip %q, %s's position is %d (has one: %v)", tp, text, owner, position, hasPosition)
		}
		if m[7] != "" && m[7] != owner {
			c.errorf("%s: chip %q, new to %s, the owner is %q", tp, text, m[7], owner)
		}
	}
	for _, group := range c.l.GroupNames() {
		if chipped[group] {
			continue
		}
		if off, has := read(c.l.GroupOffsets(group))[tp]; has {
			c.errorf("%s: no chip of %s, which has committed %d", tp, group, off)
		}
		if owner, _, _ := c.ownerOf(group, tp); owner != "" {
			c.errorf("%s: no chip of %s, whose member %s owns it", tp, group, owner)
		}
	}
}

// ownerOf is the member of a group whose assignment holds a partition, and
// its position there. A stopped member keeps its assignment until the
// group rebalances, as Kafka's coordinator does until its session expires.
func (c *captionCheck) ownerOf(group string, tp core.TopicPartition) (string, int64, bool) {
	g := read(c.l.Group(group))
	for _, m := range g.Members {
		if !slices.Contains(m.Assignment, tp) {
			continue
		}
		for _, pos := range m.Positions {
			if pos.Topic == tp.Topic && pos.Partition == tp.Partition {
				return m.ID, pos.Offset, true
			}
		}
		return m.ID, 0, false
	}
	return "", 0, false
}

// groups checks each group card's state, generation, lag, members'
// assignments and poll deadlines.
func (c *captionCheck) groups(snap LogSnapshot) {
	c.t.Helper()
	if len(snap.Groups) != len(c.l.GroupNames()) {
		c.errorf("%d group cards, the engine has %d groups", len(snap.Groups), len(c.l.GroupNames()))
	}
	for _, g := range snap.Groups {
		v := read(c.l.Group(g.Name))
		if g.State != v.State {
			c.errorf("group %s: state %q, the engine's %q", g.Name, g.State, v.State)
		}
		gen := groupGenerationText(g)
		if v.Protocol == core.ProtocolConsumer {
			var epoch, target int
			if _, err := fmt.Sscanf(gen, "epoch %d, target %d", &epoch, &target); err != nil || epoch != v.GroupEpoch || target != v.AssignmentEpoch {
				c.errorf("group %s: caption %q, group epoch %d, assignment epoch %d", g.Name, gen, v.GroupEpoch, v.AssignmentEpoch)
			}
		} else if got := c.number(gen, "gen "); got != int64(v.Generation) {
			c.errorf("group %s: caption %q, generation %d", g.Name, gen, v.Generation)
		}
		c.lag(g)
		c.members(g, v)
	}
}

// lag checks a group's lag caption against its committed offsets and the
// partitions' high watermarks: lag is the records from the committed
// offset up to the high watermark, over the partitions with a commit.
func (c *captionCheck) lag(g GroupSnapshot) {
	c.t.Helper()
	text := lagText(g)
	var lag, timeLag int64
	committed := false
	for tp, off := range read(c.l.GroupOffsets(g.Name)) {
		n, err := c.l.Partitions(tp.Topic)
		if err != nil || tp.Partition >= n {
			continue // a commit on a topic deleted since
		}
		committed = true
		hw := read(c.l.HighWatermark(tp.Topic, tp.Partition))
		lag += max(0, hw-off)
		// Time lag: how old the first record the group has not read is.
		if r, ok := c.l.FirstRecordAtOrAfter(tp.Topic, tp.Partition, off); ok && off < hw {
			timeLag = max(timeLag, c.l.Now()-r.Timestamp)
		}
	}
	if !committed {
		if text != "lag unknown: nothing committed yet" {
			c.errorf("group %s: caption %q, nothing committed", g.Name, text)
		}
		return
	}
	m := lagCaption.FindStringSubmatch(text)
	if m == nil {
		c.errorf("group %s: lag caption %q", g.Name, text)
		return
	}
	if strconv.FormatInt(lag, 10) != m[1] {
		c.errorf("group %s: caption %q, the committed offsets are %d records behind the high watermarks", g.Name, text, lag)
	}
	if behind := duration(m[2]); behind != timeLag {
		c.errorf("group %s: caption %q, the oldest record it has not read is %d ms old", g.Name, text, timeLag)
	}
}

// duration reads a duration as units.Duration writes it, -1 when it
// cannot.
func duration(text string) int64 {
	if text == "0" {
		return 0
	}
	ms, ok, _ := units.Parse(text, units.Durations, 1<<62)
	if !ok {
		return -1
	}
	return ms
}

// members checks each member's assignment caption against the partitions
// the group says the member owns, and its positions.
func (c *captionCheck) members(g GroupSnapshot, v core.GroupView) {
	c.t.Helper()
	for _, m := range g.Members {
		text := assignmentText(m)
		var owned []string
		for _, p := range v.Partitions {
			if p.Owner == m.ID {
				owned = append(owned, laneKey(p.Topic, p.Partition))
			}
		}
		var listed []string
		if text != "no partitions" {
			for part := range strings.SplitSeq(strings.TrimSuffix(text, "…"), ", ") {
				a := assignedCaption.FindStringSubmatch(part)
				if a == nil {
					c.errorf("group %s member %s: assignment caption %q", g.Name, m.ID, text)
					break
				}
				tp := laneKey(a[1], mustAtoi(a[2]))
				listed = append(listed, tp)
				var at int64 = -1
				for _, pos := range m.Positions {
					if laneKey(pos.Topic, pos.Partition) == tp {
						at = pos.Offset
					}
				}
				if (a[3] != "") != (at >= 0) || a[3] != "" && strconv.FormatInt(at, 10) != a[3] {
					c.errorf("group %s member %s: caption %q, its position on %s is %d", g.Name, m.ID, text, tp, at)
				}
			}
		}
		if len(owned) <= assignmentListed && !slices.Equal(sorted(listed), sorted(owned)) {
			c.errorf("group %s member %s: caption %q, the group's partitions it owns: %v", g.Name, m.ID, text, owned)
		}
		if m.MemberState != "" {
			// A consumer-protocol member revokes what it owns outside its
			// target and is assigned what its target holds that it does
			// not own.
			revoke := slices.DeleteFunc(slices.Clone(m.Assignment), func(tp core.TopicPartition) bool { return slices.Contains(m.Target, tp) })
			assign := slices.DeleteFunc(slices.Clone(m.Target), func(tp core.TopicPartition) bool { return slices.Contains(m.Assignment, tp) })
			if got, want := partitionsText(m.PendingRevoke), partitionsText(revoke); got != want {
				c.errorf("group %s member %s: to revoke %q, it owns %v outside its target %v", g.Name, m.ID, got, revoke, m.Target)
			}
			if got, want := partitionsText(m.PendingAssign), partitionsText(assign); got != want {
				c.errorf("group %s member %s: to assign %q, its target holds %v it does not own", g.Name, m.ID, got, assign)
			}
		}
		if m.PollDeadline > 0 && m.Down == "" {
			text := pollDeadlineText(m, c.l.Now())
			if want := "must poll within " + units.SpanToSecond(max(m.PollDeadline-c.l.Now(), 0)); text != want {
				c.errorf("group %s member %s: caption %q, poll deadline %d ms, now %d ms", g.Name, m.ID, text, m.PollDeadline, c.l.Now())
			}
		}
	}
}

// producers checks each producer card's id, epoch and state.
func (c *captionCheck) producers(snap LogSnapshot) {
	c.t.Helper()
	engine := c.l.Producers()
	if len(snap.Producers) != len(engine) {
		c.errorf("%d producer cards, the engine has %d producers", len(snap.Producers), len(engine))
		return
	}
	for i, p := range snap.Producers {
		want := engine[i]
		text := producerSummary(p)
		m := producerCaption.FindStringSubmatch(text)
		if m == nil {
			c.errorf("producer card %q", text)
			continue
		}
		if m[1] != want.Name || (m[2] == "") != (want.ID < 0) {
			c.errorf("producer card %q, producer %s id %d", text, want.Name, want.ID)
		}
		if m[2] != "" && (m[2] != strconv.FormatInt(want.ID, 10) || m[3] != strconv.Itoa(want.Epoch)) {
			c.errorf("producer card %q, id %d epoch %d", text, want.ID, want.Epoch)
		}
		state := want.TransactionState
		if state == "" {
			state = map[bool]string{true: "idempotent", false: "plain"}[want.Config.Idempotence]
		}
		if m[4] != state || m[5] != want.Config.TransactionalID {
			c.errorf("producer card %q, state %s, transactional.id %q", text, state, want.Config.TransactionalID)
		}
	}
}

// shareGroups checks each share group's state and epoch, and each
// share-partition's offsets and share lag against its in-flight records
// and the partition's high watermark.
func (c *captionCheck) shareGroups(snap LogSnapshot) {
	c.t.Helper()
	for _, g := range snap.ShareGroups {
		v := read(c.l.ShareGroup(g.Name))
		if want := fmt.Sprintf("%s, epoch %d", v.State, v.GroupEpoch); shareGroupStateText(g) != want {
			c.errorf("share group %s: caption %q, the engine's state %s and epoch %d", g.Name, shareGroupStateText(g), v.State, v.GroupEpoch)
		}
		members := map[string]bool{}
		for _, m := range g.Members {
			members[m.Name] = true
		}
		for _, m := range g.Members {
			c.held(g, m)
		}
		for _, p := range g.Partitions {
			text := sharePartitionText(p)
			m := shareCaption.FindStringSubmatch(text)
			if m == nil {
				c.errorf("share-partition %s: caption %q", p.TopicPartition, text)
				continue
			}
			spso, speo, lag := mustAtoi(m[1]), mustAtoi(m[2]), mustAtoi(m[3])
			hw := read(c.l.HighWatermark(p.Topic, p.Partition))
			done := 0
			for _, r := range p.InFlight {
				if r.State == core.RecordAcknowledged || r.State == core.RecordArchived {
					done++
				}
				if shareStateLetters[r.State] == "" {
					c.errorf("share-partition %s: offset %d in state %q, which the strip has no word for", p.TopicPartition, r.Offset, r.State)
				}
				if r.Offset < int64(spso) || r.Offset > int64(speo) {
					c.errorf("share-partition %s: %q, an in-flight record at %d", p.TopicPartition, text, r.Offset)
				}
				if r.State == core.RecordAcquired && !members[r.Member] {
					c.errorf("share-partition %s: offset %d held by %q, not a member", p.TopicPartition, r.Offset, r.Member)
				}
			}
			if want := hw - int64(spso) - int64(done); int64(lag) != want {
				c.errorf("share-partition %s: %q, the high watermark %d less the start less %d delivered is %d", p.TopicPartition, text, hw, done, want)
			}
		}
	}
}

// held checks a share member's caption of its last poll: every record it
// names and has not acknowledged is in flight, acquired by it, unless the
// caption says its lock expired, when it is not.
func (c *captionCheck) held(g core.ShareGroupView, m core.ShareMemberView) {
	c.t.Helper()
	text := shareHeldText(m, lockExpired(g, m))
	if text == "holds nothing from its last poll" {
		if len(m.Holding) != 0 {
			c.errorf("share member %s: caption %q, holding %v", m.Name, text, m.Holding)
		}
		return
	}
	for part := range strings.SplitSeq(strings.TrimPrefix(text, "last poll: "), ", ") {
		var topic string
		var partition int
		var offset int64
		at := strings.LastIndex(part, "@")
		slash := strings.LastIndex(part[:max(at, 0)], "/")
		if at < 0 || slash < 0 {
			c.errorf("share member %s: caption %q", m.Name, text)
			return
		}
		topic, partition = part[:slash], mustAtoi(part[slash+1:at])
		word, _, _ := strings.Cut(part[at+1:], " ")
		offset = int64(mustAtoi(word))
		if strings.HasSuffix(part, "(acknowledged)") {
			continue
		}
		expired := strings.HasSuffix(part, "(lock expired)")
		state := "not in flight"
		for _, p := range g.Partitions {
			if p.Topic != topic || p.Partition != partition {
				continue
			}
			for _, r := range p.InFlight {
				if r.Offset == offset {
					state = r.State + " by " + r.Member
				}
			}
		}
		if held := state == core.RecordAcquired+" by "+m.Name; held == expired {
			c.errorf("share member %s: caption %q, %s/%d@%d is %s", m.Name, text, topic, partition, offset, state)
		}
	}
}

// brokers checks each broker's caption says down exactly when it is.
func (c *captionCheck) brokers() {
	c.t.Helper()
	for _, b := range c.l.Brokers() {
		text := brokerText(b)
		prefix := "b" + strconv.Itoa(b.ID) + " "
		if !strings.HasPrefix(text, prefix) || (strings.TrimPrefix(text, prefix) == "down") != b.Down {
			c.errorf("broker %d: caption %q, down %v", b.ID, text, b.Down)
		}
	}
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
