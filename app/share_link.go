package app

import (
	"fmt"
	"slices"
	"strings"

	"plog/core/scenario"
)

// The page's URL is the scenario. Its fragment has the documented form of
// scenario.Fragment:
//
//	#v1.PAYLOAD&at=12&lesson=NAME&embed=1&readonly=1&play=1&loop=2-5&theme=dark
//
// PAYLOAD is the link of the whole history, including the steps after the
// position when the learner has gone back; at= is the position when it is
// not the end, so that opening the link gives the same state and the same
// history, with the later steps there to redo. lesson=, embed=,
// readonly=, play=, loop= and theme= ride along as the page was opened with
// them.

// linkOptions are the view parameters a link opens the page with.
type linkOptions struct {
	Lesson   string // the lesson= the page was opened with; the lesson panel runs it
	Embed    bool   // the compact layout for an iframe
	ReadOnly bool   // step and play only, no editing
	Present  bool   // the presenter's view (presenter.go)
	Play     bool   // play the timeline as the page opens
	Loop     loopRange
	// LoopProblem says why the link's loop= was left out; the embed bar
	// shows it for as long as the page is open, since play clears the
	// page's alert at every tick.
	LoopProblem string
	loopText    string // loop= as the link writes it, until the page checks it against its scenario (takeLoop)
	Theme       string // "light", "dark" or "system" as the link asks (web/static/theme.js applies it); "" when it does not
}

// loopRange is the steps an embed plays over and over (loop=FROM-TO):
// after step To it goes back to step From. The zero value loops nothing.
type loopRange struct {
	From, To int
}

func (r loopRange) set() bool { return r.To > r.From }

func (r loopRange) String() string {
	if !r.set() {
		return ""
	}
	return fmt.Sprintf("%d-%d", r.From, r.To)
}

// parseLoop reads loop=FROM-TO for a scenario of steps steps.
func parseLoop(value string, steps int) (loopRange, error) {
	from, to, ok := strings.Cut(value, "-")
	r := loopRange{From: -1, To: -1}
	if ok {
		r.From, r.To = stepNumber(from), stepNumber(to)
	}
	if r.From < 0 || r.To < 0 {
		return loopRange{}, fmt.Errorf("loop=%q should be two step numbers, FROM-TO, such as loop=1-%d", value, max(steps, 2))
	}
	if r.From >= r.To || r.To > steps {
		return loopRange{}, fmt.Errorf("loop=%q should go from a step to a later one, within the scenario's steps 0 to %d", value, steps)
	}
	return r, nil
}

// stepNumber is s as a step number, or -1 when it is not one.
func stepNumber(s string) int {
	if s == "" || len(s) > 6 || strings.Trim(s, "0123456789") != "" {
		return -1
	}
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// themeNames are the themes theme= may ask for.
var themeNames = []string{"light", "dark", "system"}

// sharing is what the page keeps to share, embed and remember its scenario.
type sharing struct {
	options linkOptions
	base    string // the page's URL without its fragment

	workspace string           // this workspace's id in the recent list
	held      bool             // the page holds the workspace's id: it saves under it (autosave_tab.go)
	saveWaits bool             // a save waits until the page holds it
	recent    []recentScenario // newest first
	asides    []recentScenario // entries for the recent list the next save writes
	stored    storedValues     // what the page could not read in storage (autosave_unreadable.go)
	notice    string           // what the page says once: storage, a reopened workspace
	warned    bool             // the page has said storage is unavailable or full
	unsaved   bool             // a change waits for the URL and autosave

	postedStep, postedSteps int // the position last posted to the parent window
	stopDrop                func()
}

// fragmentOf writes the fragment (without '#') that reopens a history at a
// position with the given options.
func fragmentOf(lines []string, position, rules int, o linkOptions) (string, error) {
	f, err := historyFragment(lines, position, rules, o)
	return f.String(), err
}

func historyFragment(lines []string, position, rules int, o linkOptions) (scenario.Fragment, error) {
	f := scenario.Fragment{At: -1, Lesson: o.Lesson, Embed: o.Embed, ReadOnly: o.ReadOnly, Present: o.Present,
		Play: o.Play, Loop: o.Loop.String(), Theme: o.Theme}
	if len(lines) > 0 {
		// The link says which rules the scenario runs under (the rules
		// line is no step: the position does not count it).
		withRules, _ := scenario.WithRulesLine(lines, rules)
		link, err := scenario.EncodeLink(strings.Join(withRules, "\n"))
		if err != nil {
			return f, err
		}
		f.Link = link
	}
	if position < len(lines) {
		f.At = position
	}
	return f, nil
}

// currentFragment is the fragment of what the page shows, with the lesson
// the lesson panel runs, and the steps a command at an earlier step
// replaced (branch=), so that a reload or the reopened workspace can still
// bring them back. The Share dialog's link leaves them out: it shares the
// scenario, not the learner's drafts.
func (p *Playground) currentFragment() (string, error) {
	f, err := historyFragment(p.session.Lines(), p.session.Position(), p.session.Rules(), p.linkOptions())
	if err != nil {
		return "", err
	}
	if branch := p.session.Discarded(); len(branch) > 0 {
		if f.Branch, err = scenario.EncodeBranchLink(strings.Join(branch, "\n")); err != nil {
			return "", err
		}
		f.BranchAt = p.session.DiscardedAt()
	}
	return f.String(), nil
}

// linkOptions are the options the page's links carry: those it was opened
// with, and the lesson it runs now.
func (p *Playground) linkOptions() linkOptions {
	o := p.share.options
	o.Lesson = p.lesson.name()
	return o
}

// loadFragment returns the session a URL fragment (without '#') describes,
// the options it opens the page with, and what was wrong with it, if
// anything. A fragment that cannot be read gives the empty scenario; a
// script that fails part way keeps the commands before the failing line.
// The messages quote the link only as text.
func loadFragment(fragment string) (*scenario.Session, linkOptions, string) {
	if fragment == "" {
		return scenario.NewYieldingSession(), linkOptions{}, ""
	}
	var problems []string
	f, err := scenario.ParseFragment(fragment)
	if err != nil {
		// The parameters are wrong; the scenario before them may still be
		// good, and is worth opening.
		problems = append(problems, "This link's parameters were ignored: "+err.Error()+".")
		f = scenario.Fragment{At: -1}
		if head, _, _ := strings.Cut(strings.TrimPrefix(fragment, "#"), "&"); !strings.Contains(head, "=") {
			f.Link = head
		}
	}
	opts := linkOptions{Lesson: f.Lesson, Embed: f.Embed, ReadOnly: f.ReadOnly, Present: f.Present, Play: f.Play, loopText: f.Loop}
	if f.Theme != "" {
		if slices.Contains(themeNames, f.Theme) {
			opts.Theme = f.Theme
		} else {
			problems = append(problems, fmt.Sprintf("This link's theme=%q was ignored: it should be light, dark or system.", f.Theme))
		}
	}
	if f.Link == "" {
		return scenario.NewYieldingSession(), opts, strings.Join(problems, " ")
	}
	script, err := scenario.DecodeLink(f.Link) // an old link's under rules 1
	if err != nil {
		problems = append(problems, "This link holds no scenario plog can read: "+err.Error())
		return scenario.NewYieldingSession(), opts, strings.Join(problems, " ")
	}
	session, err := scenario.LoadYielding(script) // the garbage collector keeps up in the browser
	if session == nil {
		session = scenario.NewYieldingSession()
	}
	if err != nil {
		problems = append(problems, "The scenario stopped early: "+err.Error())
	}
	if f.Branch != "" {
		if err := keepBranch(session, f); err != nil {
			problems = append(problems, "The replaced steps this link kept cannot be brought back: "+err.Error())
		}
	}
	if f.At >= 0 {
		if f.At > session.Len() {
			problems = append(problems, fmt.Sprintf("The link asks for step %d, but the scenario has %d steps: it opens at the last.", f.At, session.Len()))
		} else if err := session.Seek(f.At); err != nil {
			problems = append(problems, fmt.Sprintf("Going to step %d failed: %v", f.At, err))
		}
	}
	return session, opts, strings.Join(problems, " ")
}

// keepBranch gives the session the replaced steps a fragment holds.
func keepBranch(s *scenario.Session, f scenario.Fragment) error {
	script, err := scenario.DecodeBranchLink(f.Branch)
	if err != nil {
		return err
	}
	return s.KeepBranch(f.BranchAt, script)
}

// withOptions rewrites a fragment with other view options, keeping its
// scenario, position and lesson: o's embed, readonly, present, play, loop
// and theme replace the fragment's (the zero value leaves none of them). A fragment
// that does not parse is returned as is.
func withOptions(fragment string, o linkOptions) string {
	f, err := scenario.ParseFragment(fragment)
	if err != nil {
		return fragment
	}
	f.Embed, f.ReadOnly, f.Present = o.Embed, o.ReadOnly, o.Present
	f.Play, f.Loop, f.Theme = o.Play, o.Loop.String(), o.Theme
	return f.String()
}
