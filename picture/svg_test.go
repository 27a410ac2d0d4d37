package picture

import (
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"plog/core/scenario"
)

// svgOf draws a script's state at its last step, and checks the picture is
// well-formed XML.
func svgOf(t *testing.T, script string) string {
	t.Helper()
	s, err := scenario.Load(script)
	if err != nil {
		t.Fatal(err)
	}
	svg := SVG(At(s, "a scenario"))
	d := xml.NewDecoder(strings.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the picture is not well-formed XML: %v\n%s", err, svg)
		}
	}
	return svg
}

// texts lists the picture's text elements' contents.
func texts(svg string) []string {
	var out []string
	d := xml.NewDecoder(strings.NewReader(svg))
	inText := false
	for {
		tok, err := d.Token()
		if err != nil {
			return out
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				out = append(out, string(tok))
			}
		}
	}
}

// The picture shows the step and its command, each lane with its records
// (offset, shape and key, and value), the next offset, the groups' marks
// under the lanes and each member's partitions.
func TestPictureShowsTheLanesRecordsAndGroups(t *testing.T) {
	svg := svgOf(t, `topic orders partitions=2
produce orders key=acct-1 value=created count=2
produce orders value=loose
join billing c1 topics=orders
join billing c2 topics=orders
advance 6s
poll billing c1
commit billing c1
`)
	got := texts(svg)
	for _, want := range []string{"a scenario", "step 8 of 8", "commit billing c1", "virtual time 6s", "orders", "orders/0", "orders/1", "created", "loose", "Consumer groups"} {
		if !slices.Contains(got, want) {
			t.Errorf("the picture has no text %q; it has %q", want, got)
		}
	}
	look := HashLook("acct-1")
	head := fmt.Sprintf("0 %s acct-1", ShapeMarks[look.Shape()])
	if !slices.Contains(got, head) {
		t.Errorf("the picture has no record head %q", head)
	}
	if !strings.Contains(svg, `fill="`+Palette[look.Colour()][0]+`"`) {
		t.Errorf("acct-1's record is not drawn in its colour %s", Palette[look.Colour()][0])
	}
	var marks, members int
	for _, s := range got {
		if strings.HasPrefix(s, "billing: committed") && strings.Contains(s, "c1 owns it and reads from") {
			marks++
		}
		if strings.HasPrefix(s, "c1: orders/") || strings.HasPrefix(s, "c2: orders/") {
			members++
		}
	}
	if marks == 0 || members != 2 {
		t.Errorf("the picture has %d lanes marked with billing's commits and %d members' lines, want some and 2: %q", marks, members, got)
	}
}

// However big the scenario, the picture draws a bounded part of it and
// says what it left out; markup in a key or a value is text.
func TestPictureIsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 20 {
		fmt.Fprintf(&b, "topic t%02d partitions=30\n", i)
	}
	b.WriteString("produce t00 key=k count=5000\n")
	svg := svgOf(t, b.String())
	got := texts(svg)
	for _, want := range []string{"and 14 more topics", "and 18 more partitions of t00"} {
		if !slices.Contains(got, want) {
			t.Errorf("the picture does not say %q", want)
		}
	}
	if len(svg) > 200_000 {
		t.Errorf("the picture of a big scenario is %d bytes", len(svg))
	}
	if got := texts(svgOf(t, "topic t partitions=1\nproduce t key=<b> value=<&>\n")); !slices.Contains(got, "<&>") {
		t.Errorf("a value of markup is drawn as %q", got)
	}
}

func TestEscLeavesOutWhatXMLCannotHold(t *testing.T) {
	if got := esc("a\x01b\t<"); got != "ab\t&lt;" {
		t.Errorf("esc = %q", got)
	}
}

// An animation shows each step's picture in turn, FrameSeconds each, over
// and over: one group a step, each shown for its own stretch of the loop;
// at most MaxFrames steps.
func TestAnimatedShowsEachStepInTurn(t *testing.T) {
	s, err := scenario.Load("topic orders partitions=2\nproduce orders key=acct-1 value=created\nproduce orders key=acct-2 value=paid\n")
	if err != nil {
		t.Fatal(err)
	}
	var frames []Frame
	for step := 1; step <= 3; step++ {
		if err := s.Seek(step); err != nil {
			t.Fatal(err)
		}
		frames = append(frames, Draw(At(s, "")))
	}
	svg := Animated(frames)
	if err := xml.Unmarshal([]byte(svg), new(struct{})); err != nil {
		t.Fatalf("the animation is not well-formed XML: %v", err)
	}
	if n := strings.Count(svg, "<animate "); n != 3 {
		t.Errorf("%d frames animated, want 3", n)
	}
	// Each frame draws its own step: the first has no record yet, the
	// last acct-2's.
	first, last := svg[:strings.Index(svg, "</g>")], svg[strings.LastIndex(svg, "<g "):]
	if strings.Contains(first, "acct-") || !strings.Contains(last, "acct-2") {
		t.Errorf("the frames do not draw their own steps:\nfirst %s\nlast %s", first, last)
	}
	for _, want := range []string{`keyTimes="0;0;0.3333"`, `keyTimes="0;0.3333;0.6667"`, `keyTimes="0;0.6667;1"`, `dur="6s"`, "step 1 of 3", "step 3 of 3"} {
		if !strings.Contains(svg, want) {
			t.Errorf("the animation has no %s", want)
		}
	}
	many := make([]Frame, MaxFrames+5)
	for i := range many {
		many[i] = frames[0]
	}
	if n := strings.Count(Animated(many), "<animate "); n != MaxFrames {
		t.Errorf("an animation of %d steps draws %d, want at most %d", len(many), n, MaxFrames)
	}
}
