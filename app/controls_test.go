package app

import (
	"fmt"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"
	"plog/picture"
)

// The key colours must be told apart by colour-blind readers (Okabe-Ito) and
// read by everyone: each box's text keeps WCAG AA contrast (4.5:1) on its
// colour. The test reads the colours from the stylesheet itself.
func TestKeyColoursKeepContrast(t *testing.T) {
	css, err := os.ReadFile("../web/static/theme.css")
	if err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(`\.record\.key-(\d+) \{ background: #([0-9a-f]{6}); color: #([0-9a-f]{3,6}); \}`)
	found := rule.FindAllStringSubmatch(string(css), -1)
	if len(found) != keyColours {
		t.Fatalf("theme.css defines %d key colours, the page uses %d", len(found), keyColours)
	}
	for _, m := range found {
		// The pictures a teacher downloads draw the page's colours.
		i, _ := strconv.Atoi(m[1])
		if i >= keyColours || !strings.EqualFold(picture.Palette[i][0], "#"+m[2]) || !strings.EqualFold(picture.Palette[i][1], "#"+m[3]) {
			t.Errorf(".key-%s is #%s on #%s in theme.css; the pictures draw it as %v", m[1], m[3], m[2], picture.Palette[min(i, keyColours-1)])
		}
		if c := contrast(m[2], m[3]); c < 4.5 {
			t.Errorf(".key-%s: text #%s on #%s has contrast %.2f, below 4.5", m[1], m[3], m[2], c)
		}
	}
}

// contrast is WCAG's contrast ratio of two hex colours.
func contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (math.Max(la, lb) + 0.05) / (math.Min(la, lb) + 0.05)
}

func luminance(hex string) float64 {
	if len(hex) == 3 {
		hex = string([]byte{hex[0], hex[0], hex[1], hex[1], hex[2], hex[2]})
	}
	var l float64
	for i, weight := range []float64{0.2126, 0.7152, 0.0722} {
		v, _ := strconv.ParseUint(hex[2*i:2*i+2], 16, 8)
		c := float64(v) / 255
		if c <= 0.03928 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += weight * c
	}
	return l
}

func TestKeyColourIsStableAndSpread(t *testing.T) {
	first := colourClass(hashLook("acct-1"))
	for _, other := range []string{"acct-2", "", "zz"} {
		hashLook(other)
	}
	if colourClass(hashLook("acct-1")) != first {
		t.Fatal("a key's colour changed after other keys were coloured")
	}
	// FNV-1a of "acct-1" is fixed forever: the colour must not depend on
	// the run, the platform or the order keys were seen in.
	if got := colourClass(hashLook("acct-1")); got != "key-"+strconv.Itoa(int(fnv1a("acct-1")%keyColours)) {
		t.Errorf("acct-1 is %s", got)
	}
	used := map[string]bool{}
	for i := range 100 {
		used[colourClass(hashLook(fmt.Sprintf("key-%d", i)))] = true
	}
	if len(used) != keyColours {
		t.Errorf("100 keys use %d of the %d colours", len(used), keyColours)
	}
}

func fnv1a(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func TestFormsWriteScenarioLines(t *testing.T) {
	topics := []TopicSnapshot{{Name: "orders", Partitions: make([]PartitionSnapshot, 4)}}
	tf := &TopicForm{}
	tf.OnInit()
	if _, problem := tf.Line(); problem == "" {
		t.Error("a topic without a name must be refused before the engine sees it")
	}
	tf.name, tf.retention = " orders ", "7d"
	if l, _ := tf.Line(); l != "topic orders partitions=3 retention.ms=7d cleanup.policy=delete" {
		t.Errorf("topic line: %q", l)
	}

	pf := &ProduceForm{Topics: topics}
	pf.OnInit()
	pf.key, pf.value = `a "quoted" key`, "two words"
	l, _ := pf.Line()
	if l != `produce orders key="a \"quoted\" key" value="two words"` {
		t.Errorf("produce line: %q", l)
	}
	cmds, err := scenario.Parse(l)
	if err != nil || len(cmds) != 1 {
		t.Fatalf("the produce line does not parse: %v", err)
	}
	if v, _ := cmds[0].Value("key"); v != `a "quoted" key` {
		t.Errorf("the key read back is %q", v)
	}
	pf.noKey, pf.tombstone, pf.partition, pf.count = true, true, "2", "3"
	if l, _ := pf.Line(); l != "produce orders count=3 partition=2 tombstone" {
		t.Errorf("produce line: %q", l)
	}
	if _, problem := (&ProduceForm{}).Line(); problem == "" {
		t.Error("producing with no topic must say to create one")
	}

	pf.generate = "8"
	pf.Step = 4
	lines, _ := pf.GeneratorLines("uniform")
	want := []string{"producer burst-5 orders rate=8/s keys=uniform keyspace=8", "advance 1s", "stop burst-5"}
	if fmt.Sprint(lines) != fmt.Sprint(want) {
		t.Errorf("random keys: %q, want %q", lines, want)
	}
	if lines, _ := pf.GeneratorLines("hot"); len(lines) != 1 || lines[0] != "produce orders key=hot count=8" {
		t.Errorf("hot key: %q", lines)
	}
	pf.generate = "many"
	if _, problem := pf.GeneratorLines("sequence"); problem == "" {
		t.Error("a generator count that is no number must be refused")
	}

	cc := &CleanupControls{Topics: topics, truncPartition: "3", before: "12"}
	if l, _ := cc.TruncateLine(); l != "truncate orders/3 before=12" {
		t.Errorf("truncate line: %q", l)
	}
	if l, _ := cc.CompactLine(); l != "compact orders" {
		t.Errorf("compact line: %q", l)
	}
	if _, problem := AdvanceLine(" "); problem == "" {
		t.Error("advancing by nothing must be refused")
	}
}

// A produce says where each record went and why, in the partitioner's own
// words, lane by lane.
func TestLandingSaysWhy(t *testing.T) {
	s := scenario.NewSession()
	for _, l := range []string{"topic orders partitions=4"} {
		if _, err := s.Apply(l); err != nil {
			t.Fatal(err)
		}
	}
	events, err := s.Apply("produce orders key=acct-1 value=v count=3")
	if err != nil {
		t.Fatal(err)
	}
	landing := landingOf(events)
	p := core.PartitionFor("acct-1", 4)
	want := fmt.Sprintf(`murmur2("acct-1") %% 4 = %d`, p)
	if landing.Count != 3 || len(landing.Lanes) != 1 {
		t.Fatalf("landing = %+v", landing)
	}
	r := landing.Lanes[0]
	if r.Partition != p || r.From != 0 || r.To != 2 || len(r.Reasons) != 1 || r.Reasons[0] != want {
		t.Errorf("landed %+v, want orders/%d offsets 0–2 because %s", r, p, want)
	}
	events, _ = s.Apply("produce orders value=v count=8")
	if l := landingOf(events); len(l.Lanes) != 1 || l.Lanes[0].Count != 8 || !strings.HasPrefix(reasonText(l.Lanes[0].Reasons), "built-in partitioner: keyless records stick to orders/") {
		t.Errorf("keyless landing: %+v", l)
	}
	events, _ = s.Apply("produce orders value=v count=8 partitioner=round-robin")
	if l := landingOf(events); len(l.Lanes) != 4 || reasonText(l.Lanes[0].Reasons) != "round-robin" {
		t.Errorf("round-robin landing: %+v", l)
	}
}

// Truncation is told in words, and the records it removed from the drawn
// window are kept to be drawn leaving.
func TestRemovalIsToldAndDrawn(t *testing.T) {
	s, err := scenario.Load("topic t partitions=1\nproduce t value=v count=6\n")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := snapshotLog(s.Log(), nil)
	events, err := s.Apply("truncate t/0 before=4")
	if err != nil {
		t.Fatal(err)
	}
	after, _ := snapshotLog(s.Log(), nil)
	r := removalOf(events)
	if len(r.Lines) != 1 || !strings.Contains(r.Lines[0], "Truncate removed offsets 0–3 of t/0 (4 records)") {
		t.Errorf("removal told as %q", r.Lines)
	}
	ghosts := removedRecords(before, after)["t/0"]
	if len(ghosts) != 4 || ghosts[0].Offset != 0 || ghosts[3].Offset != 3 {
		t.Errorf("records drawn leaving: %+v", ghosts)
	}
	// A produce removes nothing, though the window moves on.
	events, _ = s.Apply("produce t value=v count=100")
	later, _ := snapshotLog(s.Log(), nil)
	if len(removalOf(events).Lines) != 0 || len(removedRecords(after, later)) != 0 {
		t.Error("a produce was told as a removal")
	}
}

// A retention check that deletes every segment says that the active one
// rolled first, and where the log starts now; one that leaves the active
// segment says nothing of a roll.
func TestRemovalSaysTheActiveSegmentRolledFirst(t *testing.T) {
	s, err := scenario.Load("topic t partitions=1 retention.ms=1m segment.records=2\nproduce t value=v count=5\n")
	if err != nil {
		t.Fatal(err)
	}
	events, err := s.Apply("advance 6m") // past the retention check at 5m30s
	if err != nil {
		t.Fatal(err)
	}
	r := removalOf(events)
	if len(r.Lines) != 3 {
		t.Fatalf("removal told as %q, want three segments", r.Lines)
	}
	for _, line := range r.Lines[:2] {
		if strings.Contains(line, "rolled") {
			t.Errorf("a closed segment's deletion told as a roll: %q", line)
		}
	}
	want := "It was the active segment: as Kafka does, the log first rolled a new, empty active segment at offset 5, so the log start offset is now 5"
	if !strings.Contains(r.Lines[2], "offset 4 of t/0") || !strings.Contains(r.Lines[2], want) {
		t.Errorf("the active segment's deletion told as %q, want it to say %q", r.Lines[2], want)
	}
}

// The window counts what it does not draw exactly, with the gaps compaction
// leaves, wherever the learner scrolls.
func TestLaneWindowCountsTheRest(t *testing.T) {
	script := "topic c partitions=1 cleanup.policy=compact segment.records=5\n"
	for i := range 300 {
		script += fmt.Sprintf("produce c key=k%d value=v\n", i%37)
	}
	script += "compact c\n"
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	all, _ := s.Log().Records("c", 0)
	for _, view := range []int64{followTail, 0, 3, 150, 290, 299, 1000} {
		snap, err := snapshotLog(s.Log(), map[string]int64{"c/0": view})
		if err != nil {
			t.Fatal(err)
		}
		p := snap.Topics[0].Partitions[0]
		if p.Count != len(all) || p.Before+len(p.Records)+p.After != len(all) {
			t.Fatalf("view %d: %d before + %d drawn + %d after, want %d records", view, p.Before, len(p.Records), p.After, len(all))
		}
		if len(p.Records) == 0 {
			t.Fatalf("view %d draws nothing", view)
		}
		first := p.Records[0].Offset
		before := 0
		for _, r := range all {
			if r.Offset < first {
				before++
			}
		}
		if p.Before != before {
			t.Errorf("view %d: %d records before the window, want %d", view, p.Before, before)
		}
		if view == followTail && p.After != 0 {
			t.Errorf("following the tail leaves %d newer records undrawn", p.After)
		}
	}
}

// A gesture of several lines applies all of them or none; the error shows
// beside its control, and nothing changes.
func TestGestureAppliesAllOrNothing(t *testing.T) {
	p, d := mountAt(t, mustLink(t, "topic t partitions=2\n"))
	script := p.session.Script()
	ApplyFrom(d.Context(), generateControl, "produce t value=v", "produce nosuch value=v")
	d.Consume()
	if p.session.Script() != script || p.view.Topics[0].Partitions[0].Count+p.view.Topics[0].Partitions[1].Count != 0 {
		t.Errorf("a refused gesture left its first line applied:\n%s", p.session.Script())
	}
	var alert ControlAlert
	d.Context().GetState(controlAlertState, &alert)
	if alert.Control != generateControl || !strings.Contains(alert.Message, "nosuch") {
		t.Errorf("alert = %+v, want the generator's, naming the missing topic", alert)
	}
	if p.err != "" {
		t.Errorf("the page-wide alert shows %q: the error belongs beside its control", p.err)
	}
	ApplyFrom(d.Context(), produceControl, "produce t value=v")
	d.Consume()
	d.Context().GetState(controlAlertState, &alert)
	if alert.Message != "" {
		t.Errorf("the alert %q stayed after the next action", alert.Message)
	}
}

// Records an unclean leader change cuts off the log's end (drawn, above the
// high watermark, before it) are drawn leaving too.
func TestRecordsLostAtTheLogEndAreDrawnLeaving(t *testing.T) {
	s, err := scenario.Load("topic t replication.factor=3\nproduce t value=safe acks=1\nadvance 1s\nproduce t value=lost acks=1 count=2\n")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := snapshotLog(s.Log(), nil)
	if n := len(before.Topics[0].Partitions[0].Records); n != 3 {
		t.Fatalf("%d records drawn before the crash, want 3 (2 above the high watermark)", n)
	}
	if _, err := s.Apply("broker crash 1"); err != nil {
		t.Fatal(err)
	}
	after, _ := snapshotLog(s.Log(), nil)
	ghosts := removedRecords(before, after)["t/0"]
	if len(ghosts) != 2 || ghosts[0].Offset != 1 || ghosts[1].Offset != 2 {
		t.Errorf("records drawn leaving after the leader lost them: %+v", ghosts)
	}
}

// Keys drawn at once never share a colour and a shape while there are at
// most 28 of them: a key keeps its hash's look unless another took it, and
// which takes it does not depend on the order the keys came in.
func TestKeysDrawnTogetherLookApart(t *testing.T) {
	// Find two keys whose hashes give the same look.
	byLook := map[keyLook]string{}
	var a, b string
	for i := 0; a == ""; i++ {
		k := fmt.Sprintf("order-%d", i)
		if other, ok := byLook[hashLook(k)]; ok {
			a, b = other, k
		}
		byLook[hashLook(k)] = k
	}
	records := func(keys ...string) []core.Record {
		var rs []core.Record
		for i, k := range keys {
			rs = append(rs, core.Record{Offset: int64(i), Key: k, HasKey: true})
		}
		return rs
	}
	looksOf := func(keys ...string) map[string]keyLook {
		topics := []TopicSnapshot{{Name: "t", Partitions: []PartitionSnapshot{{Records: records(keys...)}, {Records: records(keys[0])}}}}
		assignLooks(topics, nil)
		got := map[string]keyLook{}
		for _, p := range topics[0].Partitions {
			for i, r := range p.Records {
				got[r.Key] = p.lookOf(i)
			}
		}
		return got
	}
	one, other := looksOf(a, b), looksOf(b, a)
	if one[a] == one[b] {
		t.Errorf("%s and %s, drawn together, share look %d", a, b, one[a])
	}
	if one[a] != other[a] || one[b] != other[b] {
		t.Errorf("the looks depend on the order the keys came in: %v and %v", one, other)
	}
	if looksOf(a)[a] != hashLook(a) || looksOf(b)[b] != hashLook(b) {
		t.Error("a key drawn alone does not keep its hash's look")
	}
	var many []string
	for i := range keyLooks {
		many = append(many, fmt.Sprintf("k%d", i))
	}
	seen := map[keyLook]bool{}
	for _, l := range looksOf(many...) {
		seen[l] = true
	}
	if len(seen) != keyLooks {
		t.Errorf("%d keys drawn together have %d looks, want all apart", keyLooks, len(seen))
	}
}

// A compaction says where it stopped: a key whose older records stay in
// the active segment, after the cleaner said each key keeps its latest, read
// as a contradiction to a walk of lesson 13.
func TestRemovalSaysWhereCompactionStopped(t *testing.T) {
	s, err := scenario.Load("topic t partitions=1 cleanup.policy=compact segment.records=3\nproduce t key=a value=1\nproduce t key=a value=2\nproduce t key=b value=1\nproduce t key=a value=3\nproduce t key=a value=4\n")
	if err != nil {
		t.Fatal(err)
	}
	events, err := s.Apply("compact t")
	if err != nil {
		t.Fatal(err)
	}
	r := removalOf(events)
	if len(r.Lines) != 1 {
		t.Fatalf("compaction told as %q", r.Lines)
	}
	for _, want := range []string{"removed 1 record from t/0", "below offset 3 each key keeps only its latest record", "From offset 3 on nothing is cleaned yet", "its table) is the same as before"} {
		if !strings.Contains(r.Lines[0], want) {
			t.Errorf("compaction told as %q, want it to say %q", r.Lines[0], want)
		}
	}
}
