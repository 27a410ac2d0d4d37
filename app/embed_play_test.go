package app

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"plog/picture"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// play=1 plays the timeline as the page opens, a step a tick.
func TestEmbedPlaysOnOpen(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps)+"&at=0&embed=1&readonly=1&play=1")
	clock := clockOf(t, p)
	d.Consume()
	if !p.playing || p.session.Position() != 0 {
		t.Fatalf("as it opens: playing %v at step %d; want playing from step 0", p.playing, p.session.Position())
	}
	clock.Step(d, 2*playTick)
	if p.session.Position() != 2 {
		t.Errorf("after two ticks at step %d, want 2", p.session.Position())
	}
}

// loop=FROM-TO opens at FROM, plays to TO, and goes back to FROM on the
// tick after, over and over.
func TestEmbedLoopsARangeOfSteps(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps)+"&embed=1&readonly=1&loop=1-3")
	clock := clockOf(t, p)
	d.Consume()
	var seen []string
	for range 7 {
		seen = append(seen, fmt.Sprint(p.session.Position()))
		clock.Step(d, playTick)
	}
	if got := strings.Join(seen, " "); got != "1 2 3 1 2 3 1" {
		t.Errorf("the loop went through steps %s, want 1 2 3 1 2 3 1", got)
	}
	if p.session.Len() != 3 {
		t.Errorf("the loop changed the script: %d steps", p.session.Len())
	}
}

// A loop that does not fit is left out with a message in the embed bar,
// and the page opens at its link's step all the same.
func TestBadLoopIsToldAndThePageOpens(t *testing.T) {
	for loop, want := range map[string]string{
		"3-1": "later one", "1-9": "steps 0 to 3", "x": "two step numbers", "1-": "two step numbers", "-1-2": "two step numbers",
	} {
		t.Run(loop, func(t *testing.T) {
			useBrowser(t)
			p, d := mountAt(t, mustLink(t, threeSteps)+"&embed=1&loop="+loop)
			d.Consume()
			if p.share.options.Loop.set() || p.playing || p.session.Position() != 3 {
				t.Errorf("loop %q: loop %v, playing %v, at step %d; want no loop, not playing, at step 3",
					loop, p.share.options.Loop, p.playing, p.session.Position())
			}
			if got := p.embedBar().(*EmbedBar).LoopProblem; !strings.Contains(got, want) || !strings.Contains(got, "loop") {
				t.Errorf("loop %q: the bar says %q, want it to say %q", loop, got, want)
			}
		})
	}
}

// theme= is kept in the page's own link; an unknown theme is told.
func TestThemeParameter(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, mustLink(t, threeSteps)+"&embed=1&theme=dark&play=1&loop=1-2")
	d.Consume()
	o := p.share.options
	if o.Theme != "dark" || !o.Play || o.Loop != (loopRange{1, 2}) || p.err != "" {
		t.Errorf("options %+v, problem %q", o, p.err)
	}
	f, err := fragmentOf(strings.Split(strings.TrimSpace(threeSteps), "\n"), 3, 3, o)
	if err != nil || !strings.HasSuffix(f, "&embed=1&play=1&loop=1-2&theme=dark") {
		t.Errorf("the page's link is %q (%v), want it to keep play, loop and theme", f, err)
	}
	if full := withOptions(f, linkOptions{}); strings.Contains(full, "theme=") || strings.Contains(full, "loop=") || strings.Contains(full, "play=") {
		t.Errorf("the full playground's link %q keeps the embed's parameters", full)
	}
	if _, _, problem := loadFragment(mustLink(t, threeSteps) + "&theme=pink"); !strings.Contains(problem, "light, dark or system") {
		t.Errorf("theme=pink: %q", problem)
	}
	// Outside an embed a bad loop is the page's alert.
	p, d = mountAt(t, mustLink(t, threeSteps)+"&loop=2-2")
	d.Consume()
	if !strings.Contains(p.err, "loop was ignored") {
		t.Errorf("loop=2-2 outside an embed: the page says %q", p.err)
	}
}

// A lesson's link may loop its starting scenario's steps.
func TestLessonLinkLoops(t *testing.T) {
	useBrowser(t)
	p, d := mountAt(t, "lesson=key-order&embed=1&loop=0-1")
	d.Consume()
	if p.share.options.LoopProblem != "" || !p.share.options.Loop.set() || p.session.Len() < 1 {
		t.Errorf("loop 0-1 on the lesson of %d steps: %+v", p.session.Len(), p.share.options)
	}
}

// The Theme button goes system, light, dark and back.
func TestThemeToggleCycles(t *testing.T) {
	b := useBrowser(t)
	tt := &ThemeToggle{}
	var seen []string
	for range 4 {
		tt.toggle(nil, app.Event{})
		saved, _ := b.LoadItem(themeStorageKey)
		seen = append(seen, tt.choice+"/"+saved)
	}
	if got := strings.Join(seen, " "); got != "light/light dark/dark system/system light/light" {
		t.Errorf("the button went %s", got)
	}
}

// Keys of one colour are told apart by their shape: among 300 keys, every
// colour comes in every shape, and theme.css draws every shape.
func TestKeysHaveASecondCue(t *testing.T) {
	pairs := map[string]bool{}
	for i := range 300 {
		key := fmt.Sprintf("key-%d", i)
		pairs[colourClass(hashLook(key))+"/"+fmt.Sprint(hashLook(key).Shape())] = true
	}
	if len(pairs) != keyColours*picture.Shapes {
		t.Errorf("300 keys make %d colour-shape pairs, want all %d", len(pairs), keyColours*picture.Shapes)
	}
	css, err := os.ReadFile("../web/static/theme.css")
	if err != nil {
		t.Fatal(err)
	}
	for s := range picture.Shapes {
		if !strings.Contains(string(css), fmt.Sprintf(`.record[data-key-shape="%d"] .record-offset::after { content: "`, s)) {
			t.Errorf("theme.css draws no shape %d", s)
		}
	}
}

// A poll's records are marked read in their lane, and only until the next
// command.
func TestPollMarksTheRecordsRead(t *testing.T) {
	useBrowser(t)
	script := threeSteps + "config group g auto.offset.reset=earliest\njoin g c1 topics=orders\nadvance 3s\n"
	p, d := mountAt(t, mustLink(t, script))
	d.Context().NewActionWithValue(applyAction, applyRequest{Lines: []string{"poll g c1"}})
	d.Consume()
	read := 0
	for k, r := range p.landing.Read {
		if !strings.HasPrefix(k, "orders") || r.End <= r.From {
			t.Errorf("read %v in %s", r, k)
		}
		read += int(r.End - r.From)
	}
	if read != 2 {
		t.Errorf("the poll marked %d records read, want the 2 produced: %v", read, p.landing.Read)
	}
	if (readRange{}).holds(0) {
		t.Error("the empty range holds offset 0")
	}
	d.Context().NewActionWithValue(applyAction, applyRequest{Lines: []string{"advance 1s"}})
	d.Consume()
	if len(p.landing.Read) != 0 {
		t.Errorf("after another command %v is still marked read", p.landing.Read)
	}
}

// A rebalance's moves: what a member got arrives, what it lost leaves, and
// a command that moves nothing gives no motion.
func TestRebalanceMotions(t *testing.T) {
	useBrowser(t)
	// From rules 4 a rebalance ends when every member has rejoined in its
	// poll, so c1 polls after c2 joins.
	script := "topic orders partitions=2\njoin g c1 topics=orders\nadvance 3s\n"
	p, d := mountAt(t, mustLink(t, script))
	before := p.view.Groups
	d.Context().NewActionWithValue(applyAction, applyRequest{Lines: []string{"join g c2 topics=orders", "poll g c1", "advance 10s"}})
	d.Consume()
	motions := assignmentMotions(before, p.view.Groups)
	var got []string
	for k, m := range motions {
		got = append(got, fmt.Sprintf("%s %s %s", k.Member, k.Partition, m))
	}
	slices.Sort(got)
	if strings.Join(got, ", ") != "c1 orders/1 leaving, c2 orders/1 arriving" {
		t.Errorf("the rebalance moved %v", got)
	}
	lane := Landing{Moves: motions}
	if got := fmt.Sprint(lane.laneMotions("orders", 1), lane.laneMotions("orders", 0)); got != "map[g:arriving] map[]" {
		t.Errorf("the lanes show %s, want orders/1 arriving and nothing on orders/0", got)
	}
	if m := assignmentMotions(p.view.Groups, p.view.Groups); m != nil {
		t.Errorf("no change gave %v", m)
	}
}
