// Package picture draws the state of a scenario at one step as an SVG
// image, for a teacher's slides and handouts: each topic's partitions as
// lanes of records (offset, key and value, in the key's colour and shape
// as the page draws them), the consumer groups' committed offsets and
// owners under each lane, and each group's members with their partitions.
// The page's downloads (app/picture_download.go) and `plogsim picture`
// draw with it, so a picture is the same wherever it is made.
//
// A picture is bounded whatever the scenario holds: at most maxTopics
// topics, maxLanes lanes a topic, the newest records that fit a lane,
// maxGroups groups of maxMembers members; what is left out is counted in
// words.
package picture

import (
	"errors"
	"fmt"
	"html"
	"slices"
	"strings"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"
)

// Scene is what a picture shows: the state, and where in its timeline it
// stands.
type Scene struct {
	Log     core.ReadOnlyLog
	Title   string // a heading: the scenario's or the lesson's name; "" for none
	Step    int    // the timeline position
	Steps   int    // the script's length
	Command string // the command of the step shown; "" at step 0
}

// At is the scene of a session where its timeline stands.
func At(s *scenario.Session, title string) Scene {
	return Scene{Log: s.Log(), Title: title, Step: s.Position(), Steps: s.Len(), Command: s.StepLine(s.Position())}
}

// The picture's bounds and measures, in CSS pixels.
const (
	maxTopics  = 6
	maxLanes   = 12
	maxGroups  = 6
	maxMembers = 10

	width      = 960
	margin     = 16
	labelWidth = 112
	boxWidth   = 80
	boxHeight  = 34
	boxGap     = 4
	laneHeight = boxHeight + 10
	markHeight = 16
)

// keyless and its text are how a record without a key is drawn (theme.css,
// --keyless).
const keyless, onKeyless = "#64748b", "#ffffff"

// SVG draws the scene.
func SVG(s Scene) string {
	f := Draw(s)
	var b svgWriter
	return b.document(f.height, f.body)
}

// Frame is a scene drawn, one step of an animation. It is drawn at once,
// from the state as it is: a session's log changes as it seeks.
type Frame struct {
	body   string
	height int
}

// Draw draws a scene as a frame.
func Draw(s Scene) Frame {
	var b svgWriter
	height := b.scene(s)
	return Frame{body: b.body.String(), height: height}
}

// MaxFrames bounds an animation's steps: each is a whole picture.
const MaxFrames = 30

// FrameSeconds is how long an animation shows each step.
const FrameSeconds = 2

// Animated puts frames, a step's each, in one SVG that shows them in
// turn, FrameSeconds each, over and over (SVG's own animation: it plays in
// a browser, a web page or a slide tool that shows SVG, with no script).
// At most MaxFrames frames are kept, the first ones.
func Animated(frames []Frame) string {
	frames = frames[:min(len(frames), MaxFrames)]
	var all strings.Builder
	height := 0
	n := len(frames)
	for i, f := range frames {
		height = max(height, f.height)
		// Each frame is hidden but for its own stretch of the loop.
		fmt.Fprintf(&all, `<g visibility="%s"><animate attributeName="visibility" calcMode="discrete" values="hidden;visible;hidden" keyTimes="0;%s;%s" dur="%ds" repeatCount="indefinite"/>`+"\n",
			map[bool]string{true: "visible", false: "hidden"}[i == 0], fraction(i, n), fraction(i+1, n), n*FrameSeconds)
		fmt.Fprintf(&all, `<rect width="%d" height="100%%" fill="#ffffff"/>`+"\n", width)
		all.WriteString(f.body)
		all.WriteString("</g>\n")
	}
	var b svgWriter
	return b.document(height, all.String())
}

// AnimateSteps draws a session's steps from one to another, at most
// MaxFrames of them, as an animation, and leaves the session at the step
// it stood at.
func AnimateSteps(s *scenario.Session, from, to int, title string) (string, error) {
	if from < 0 || to <= from || to > s.Len() || to-from+1 > MaxFrames {
		return "", fmt.Errorf("an animation needs steps from 0 to %d, the first below the last, at most %d steps apart", s.Len(), MaxFrames-1)
	}
	at := s.Position()
	var frames []Frame
	for step := from; step <= to; step++ {
		if err := s.Seek(step); err != nil {
			return "", errors.Join(err, s.Seek(at))
		}
		frames = append(frames, Draw(At(s, title)))
	}
	if err := s.Seek(at); err != nil {
		return "", err
	}
	return Animated(frames), nil
}

// fraction writes i/n for keyTimes, with no more digits than it needs.
func fraction(i, n int) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", float64(i)/float64(n)), "0"), ".")
}

// scene draws a scene's elements and returns the picture's height.
func (b *svgWriter) scene(s Scene) int {
	y := margin
	if s.Title != "" {
		y += 20
		b.text(margin, y, "title", s.Title)
		y += 8
	}
	y += 18
	command := s.Command
	if command == "" {
		command = "the start: nothing has happened yet"
	}
	b.text(margin, y, "step", fmt.Sprintf("step %d of %d", s.Step, s.Steps))
	b.text(margin+130, y, "command", clip(command, 80))
	b.text(width-margin-150, y, "count", "virtual time "+units.Duration(s.Log.Now()))
	y += 14

	topics := s.Log.TopicNames()
	groups := s.Log.GroupNames()
	marks := groupMarks(s.Log, groups)
	looks := lookOf(s.Log, topics)
	if len(topics) == 0 {
		y += 28
		b.text(margin, y, "note", "No topic yet.")
	}
	for _, topic := range topics[:min(len(topics), maxTopics)] {
		y += 30
		b.text(margin, y, "topic", topic)
		n, _ := s.Log.Partitions(topic)
		for p := range min(n, maxLanes) {
			y += 8
			y = b.lane(s.Log, topic, p, y, looks, marks[core.TopicPartition{Topic: topic, Partition: p}])
		}
		if n > maxLanes {
			y += 18
			b.text(margin, y, "note", fmt.Sprintf("and %d more partitions of %s", n-maxLanes, topic))
		}
	}
	if len(topics) > maxTopics {
		y += 24
		b.text(margin, y, "note", fmt.Sprintf("and %d more topics", len(topics)-maxTopics))
	}
	if len(groups) > 0 {
		y += 34
		b.text(margin, y, "topic", "Consumer groups")
		for _, name := range groups[:min(len(groups), maxGroups)] {
			g, err := s.Log.Group(name)
			if err != nil {
				continue
			}
			y += 22
			b.text(margin, y, "group", fmt.Sprintf("%s · %s · %s · generation %d", g.Name, g.Strategy, g.State, g.Generation))
			for _, m := range g.Members[:min(len(g.Members), maxMembers)] {
				y += 18
				b.text(margin+16, y, "member", memberLine(m))
			}
			if len(g.Members) > maxMembers {
				y += 18
				b.text(margin+16, y, "note", fmt.Sprintf("and %d more members", len(g.Members)-maxMembers))
			}
		}
		if len(groups) > maxGroups {
			y += 20
			b.text(margin, y, "note", fmt.Sprintf("and %d more groups", len(groups)-maxGroups))
		}
	}
	return y + margin
}

// lane draws a partition's lane from its top at y and returns its bottom:
// the partition's name and count, its log start, the newest records that
// fit, the next offset, and a line of the groups' marks.
func (b *svgWriter) lane(l core.ReadOnlyLog, topic string, p int, y int, looks map[string]Look, marks []string) int {
	start, _ := l.LogStartOffset(topic, p)
	end, _ := l.LogEndOffset(topic, p)
	count, _ := l.RecordCount(topic, p)
	mid := y + laneHeight/2
	b.text(margin, mid-2, "lane", fmt.Sprintf("%s/%d", topic, p))
	b.text(margin, mid+13, "count", units.Plural(int64(count), "record"))
	x := margin + labelWidth
	b.line(x, y+2, x, y+laneHeight-2, "start")
	b.text(x+6, mid+4, "count", fmt.Sprintf("start %d", start))
	x += 56
	fit := (width - margin - x - boxWidth - 8) / (boxWidth + boxGap)
	from := max(start, end-int64(fit))
	records, _ := l.LogRecords(topic, p, from, fit)
	records = slices.DeleteFunc(records, func(r core.Record) bool { return r.Control != 0 })
	if from > start {
		b.text(x, mid+4, "count", "…")
		x += 14
	}
	for _, r := range records {
		b.record(x, y+(laneHeight-boxHeight)/2, r, looks)
		x += boxWidth + boxGap
	}
	b.dashed(x, y+(laneHeight-boxHeight)/2, boxWidth-16, boxHeight)
	b.text(x+6, mid+4, "count", fmt.Sprintf("next %d", end))
	y += laneHeight
	if len(marks) > 0 {
		y += markHeight - 4
		b.text(margin+labelWidth, y, "mark", clip(strings.Join(marks, " · "), 110))
		y += 4
	}
	return y
}

// record draws one record's box: its offset, shape and key on one line,
// its value under them.
func (b *svgWriter) record(x, y int, r core.Record, looks map[string]Look) {
	fill, ink, head := keyless, onKeyless, fmt.Sprintf("%d ∅", r.Offset)
	if r.HasKey {
		look, ok := looks[r.Key]
		if !ok {
			look = HashLook(r.Key)
		}
		fill, ink = Palette[look.Colour()][0], Palette[look.Colour()][1]
		head = fmt.Sprintf("%d %s %s", r.Offset, ShapeMarks[look.Shape()], clip(r.Key, 7))
	}
	value := clip(r.Value, 10)
	if r.Tombstone {
		value = "tombstone"
	} else if !r.HasKey && r.Value == "" {
		value = "no value"
	}
	fmt.Fprintf(&b.body, `<rect x="%d" y="%d" width="%d" height="%d" rx="5" fill="%s"/>`+"\n", x, y, boxWidth, boxHeight, fill)
	fmt.Fprintf(&b.body, `<text x="%d" y="%d" class="record-head" fill="%s">%s</text>`+"\n", x+5, y+14, ink, esc(head))
	fmt.Fprintf(&b.body, `<text x="%d" y="%d" class="record-value" fill="%s">%s</text>`+"\n", x+5, y+28, ink, esc(value))
}

// groupMarks lists, for each partition, what each group has there: its
// committed offset and the member that owns it.
func groupMarks(l core.ReadOnlyLog, groups []string) map[core.TopicPartition][]string {
	marks := map[core.TopicPartition][]string{}
	for _, name := range groups[:min(len(groups), maxGroups)] {
		g, err := l.Group(name)
		if err != nil {
			continue
		}
		owners := map[core.TopicPartition]string{}
		reads := map[core.TopicPartition]int64{} // where the owner reads next
		for _, m := range g.Members {
			for _, tp := range m.Assignment {
				owners[tp] = m.ID
			}
			for _, pos := range m.Positions {
				reads[core.TopicPartition{Topic: pos.Topic, Partition: pos.Partition}] = pos.Offset
			}
		}
		committed, _ := l.GroupOffsets(name)
		seen := map[core.TopicPartition]bool{}
		for tp := range owners {
			seen[tp] = true
		}
		for tp := range committed {
			seen[tp] = true
		}
		for tp := range seen {
			mark := name + ": no commit"
			if o, ok := committed[tp]; ok {
				mark = fmt.Sprintf("%s: committed %d", name, o)
			}
			if owner := owners[tp]; owner != "" {
				mark += ", " + owner + " owns it"
				if at, ok := reads[tp]; ok {
					mark += fmt.Sprintf(" and reads from %d", at)
				}
			}
			marks[tp] = append(marks[tp], mark)
		}
	}
	for tp := range marks {
		slices.Sort(marks[tp])
	}
	return marks
}

// lookOf gives the keys the picture draws their looks, as the page gives
// the keys it draws at once (AssignLooks).
func lookOf(l core.ReadOnlyLog, topics []string) map[string]Look {
	var keys []string
	for _, topic := range topics[:min(len(topics), maxTopics)] {
		n, _ := l.Partitions(topic)
		for p := range min(n, maxLanes) {
			end, _ := l.LogEndOffset(topic, p)
			start, _ := l.LogStartOffset(topic, p)
			records, _ := l.LogRecords(topic, p, max(start, end-16), 16)
			for _, r := range records {
				if r.HasKey {
					keys = append(keys, r.Key)
				}
			}
		}
	}
	return AssignLooks(keys)
}

// memberLine says what a member owns.
func memberLine(m core.MemberView) string {
	var parts []string
	for _, tp := range m.Assignment {
		parts = append(parts, fmt.Sprintf("%s/%d", tp.Topic, tp.Partition))
	}
	owns := "no partitions"
	if len(parts) > 0 {
		owns = strings.Join(parts, ", ")
	}
	line := m.ID + ": " + owns
	if m.Down != "" {
		line += " (" + m.Down + ")"
	}
	return clip(line, 110)
}

// svgWriter gathers the picture's elements; document wraps them.
type svgWriter struct {
	body strings.Builder
}

func (b *svgWriter) text(x, y int, class, text string) {
	fmt.Fprintf(&b.body, `<text x="%d" y="%d" class="%s">%s</text>`+"\n", x, y, class, esc(text))
}

func (b *svgWriter) line(x1, y1, x2, y2 int, class string) {
	fmt.Fprintf(&b.body, `<line x1="%d" y1="%d" x2="%d" y2="%d" class="%s"/>`+"\n", x1, y1, x2, y2, class)
}

func (b *svgWriter) dashed(x, y, w, h int) {
	fmt.Fprintf(&b.body, `<rect x="%d" y="%d" width="%d" height="%d" rx="5" class="next"/>`+"\n", x, y, w, h)
}

// document is the whole SVG around a body, height tall. Its styles are
// inside it, so the file shows the same in a browser, a slide or an image
// editor.
func (b *svgWriter) document(height int, body string) string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">
<style>
text { font-size: 13px; fill: #111827; }
.title { font-size: 20px; font-weight: 700; }
.step { font-size: 15px; font-weight: 700; }
.command, .lane, .record-head, .record-value { font-family: ui-monospace, Menlo, Consolas, monospace; }
.command { font-size: 14px; }
.topic { font-size: 16px; font-weight: 700; }
.lane { font-size: 13px; font-weight: 700; }
.count, .note { font-size: 11px; fill: #475569; }
.mark { font-size: 11px; fill: #0f4c81; }
.group { font-size: 13px; font-weight: 700; }
.member { font-size: 12px; }
.record-head { font-size: 11px; font-weight: 700; }
.record-value { font-size: 10px; font-style: italic; }
.start { stroke: #334155; stroke-width: 3; }
.next { fill: none; stroke: #334155; stroke-dasharray: 4 3; }
</style>
<rect width="100%%" height="100%%" fill="#ffffff"/>
%s</svg>
`, width, height, width, height, body)
}

// esc escapes text for SVG's XML, and leaves out the characters XML has
// no place for (a key may hold any bytes a link put in it).
func esc(s string) string {
	return html.EscapeString(strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' || r == 0xfffe || r == 0xffff {
			return -1
		}
		return r
	}, s))
}

// clip shortens text to n characters, with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
