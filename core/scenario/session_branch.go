package scenario

import (
	"errors"
	"fmt"
	"slices"

	"plog/core"
)

// A command applied at an earlier step replaces the steps ahead of it. They
// are not lost: the session keeps them as a branch, which RestoreDiscarded
// brings back, keeping the steps it replaces in their place as the branch
// in turn, so that the learner may go back and forth between the two. One
// branch is kept: the latest command at an earlier step makes the steps it
// replaces the branch, and gives out the scenario the branch before made
// (Superseded) for the page to keep elsewhere. A page keeps the branch in
// its link (the branch= parameter of Fragment), so a reload loses nothing
// either.
//
// A gesture of several lines (ApplyLines) is all or nothing: when one line
// is refused, the session is as it was before the first, steps ahead and
// branch included.

// Discarded returns the canonical lines of the branch: the steps the latest
// command at an earlier step replaced, or that RestoreDiscarded put aside;
// nil when there are none.
func (s *Session) Discarded() []string { return commandLines(s.branch) }

// Superseded returns the canonical lines of the scenario the last command
// let go when it made other steps the branch: the history up to where the
// old branch started, then the old branch. A page keeps it elsewhere (the
// recent list), so that no step a learner made is lost. Nil otherwise.
func (s *Session) Superseded() []string { return commandLines(s.superseded) }

// commandLines writes commands in canonical form, one a line; nil for nil.
func commandLines(commands []Command) []string {
	if commands == nil {
		return nil
	}
	lines := make([]string, len(commands))
	for i, c := range commands {
		lines[i] = c.String()
	}
	return lines
}

// DiscardedAt returns the step the branch followed: its steps were the
// history's from DiscardedAt()+1 on.
func (s *Session) DiscardedAt() int { return s.branchAt }

// KeepBranch sets the branch, as a page's link holds it: the script of the
// steps that followed step at. It replays nothing (RestoreDiscarded does);
// a script that does not parse, or a step outside the history, is an error
// and changes nothing.
func (s *Session) KeepBranch(at int, script string) error {
	if at < 0 || at > len(s.history) {
		return fmt.Errorf("the replaced steps follow step %d, but the scenario has steps 0 to %d", at, len(s.history))
	}
	var branch []Command
	err := eachCommand(script, func(c Command) error {
		if at+len(branch) >= MaxCommands {
			return &Error{Line: c.Line, Col: c.Col, Msg: fmt.Sprintf("a scenario may hold at most %d commands", MaxCommands)}
		}
		branch = append(branch, c)
		return nil
	})
	if err != nil {
		return err
	}
	if len(branch) == 0 {
		branch = nil
	}
	s.branch, s.branchAt = branch, at
	return nil
}

// RestoreDiscarded brings the branch back: the history becomes the steps up
// to where the branch started, then the branch, and the position is where
// it started, so that redo steps through it. The steps it replaces there
// become the branch. On error nothing changes.
func (s *Session) RestoreDiscarded() error {
	if s.branch == nil {
		return errors.New("no replaced commands to restore")
	}
	at, branch := s.branchAt, s.branch
	if at > len(s.history) {
		return fmt.Errorf("the replaced steps follow step %d, but the scenario has %d steps", at, len(s.history))
	}
	saved := s.save()
	tail := slices.Clone(s.history[at:])
	err := s.replaceFrom(at, branch)
	if err == nil {
		err = s.Seek(at)
	}
	if err != nil {
		return errors.Join(fmt.Errorf("restoring the replaced steps failed: %w", err), s.rollback(saved))
	}
	s.branch, s.superseded = nil, nil
	if len(tail) > 0 {
		s.branch = tail
	}
	return nil
}

// replaceFrom makes the history its steps up to step, then commands, each
// replayed, with the position at the end.
func (s *Session) replaceFrom(step int, commands []Command) error {
	s.truncate(step)
	w, events, err := s.stateAt(step, false)
	if err != nil {
		return err
	}
	s.cur, s.events, s.pos = w, events, step
	for _, c := range commands {
		produced := s.cur.produced
		during, err := s.stepSampled(c)
		if err != nil {
			return fmt.Errorf("replaying line %d (%s): %v", s.pos+1, c, err)
		}
		s.record(c, produced, during, s.cur.drainEvents())
	}
	return nil
}

// ApplyLines applies the lines of one gesture in order, all or nothing:
// when one is refused, the session is as before the first (its position,
// the steps ahead of it and the branch), and the error is that line's.
func (s *Session) ApplyLines(lines []string) ([]core.Event, error) {
	saved := s.save()
	var events []core.Event
	var superseded []Command
	defer func() {
		if superseded != nil {
			s.superseded = superseded
		}
	}()
	for i, l := range lines {
		evs, err := s.Apply(l)
		if err == nil && s.superseded != nil {
			superseded = s.superseded
		}
		if err != nil {
			if i == 0 { // a refused line changes nothing
				return evs, err
			}
			superseded = nil
			if rerr := s.rollback(saved); rerr != nil {
				err = errors.Join(err, rerr)
			}
			return evs, err
		}
		events = append(events, evs...)
	}
	return events, nil
}

// savedHistory is what a session holds besides its current state, as save
// took it.
type savedHistory struct {
	history     []Command
	lag         []LagSample
	work        []int64
	pos         int
	checkpoints []checkpoint
	every       int
	workEvery   int64
	branch      []Command
	branchAt    int
	superseded  []Command
}

// save takes what rollback puts back. It costs no copy of the history: the
// session never writes over a command, sample or work entry it holds (it
// truncates with a capacity that makes the next append copy), so the saved
// slices keep what they held. The checkpoints list is copied: thinning
// changes it in place.
func (s *Session) save() savedHistory {
	return savedHistory{
		history: s.history, lag: s.lag, work: s.work, pos: s.pos,
		checkpoints: slices.Clone(s.checkpoints), every: s.every, workEvery: s.workEvery,
		branch: s.branch, branchAt: s.branchAt, superseded: s.superseded,
	}
}

// rollback puts back what save took, and re-derives the state at the
// saved position from a checkpoint: the commands since changed the state
// in place.
func (s *Session) rollback(h savedHistory) error {
	s.history, s.lag, s.work, s.pos = h.history, h.lag, h.work, h.pos
	s.lines = nil // written again from the history put back
	s.checkpoints, s.every, s.workEvery = h.checkpoints, h.every, h.workEvery
	s.branch, s.branchAt, s.superseded = h.branch, h.branchAt, h.superseded
	return s.restore()
}

// Rules returns the version of the engine's rules the scenario runs under
// (core/rules.go): its rules line's, or the latest when it has none.
func (s *Session) Rules() int { return s.rules }

// applyRules applies a rules line: it may only come first, or right after
// seed. A later one is refused, since a scenario runs under one version
// from its start.
func (s *Session) applyRules(c Command) error {
	n, err := c.CountAt(0)
	if err != nil {
		return &Error{Line: c.Line, Col: c.Col, Msg: err.Error()}
	}
	if s.pos > 1 || s.pos == 1 && s.history[0].Name != CmdSeed || s.explicitRules {
		return &Error{Line: c.Line, Col: c.Col, Msg: "rules must come first, or right after seed, once: a scenario runs under one version of the rules from its start"}
	}
	if err := s.UseRules(int(n)); err != nil {
		return &Error{Line: c.Line, Col: c.Col, Msg: err.Error()}
	}
	s.events = nil
	return nil
}

// UseRules makes the scenario run under rules v (its rules line becomes
// `rules v`) and replays its whole history under them, at the same
// position. On error, such as a step the new rules refuse, nothing
// changes.
func (s *Session) UseRules(v int) error {
	if v < core.RulesV1 || v > core.LatestRules {
		return fmt.Errorf("rules %d is not known to this playground: it has rules %d to %d", v, core.RulesV1, core.LatestRules)
	}
	saved, pos := s.save(), s.pos
	rules, explicit, ck := s.rules, s.explicitRules, s.checkpoints
	history := slices.Clone(s.history)
	s.rules, s.explicitRules = v, true
	s.checkpoints = []checkpoint{{step: 0, state: newWorld(0, v)}}
	err := s.replaceFrom(0, history)
	if err == nil {
		err = s.Seek(pos)
	}
	if err != nil {
		s.rules, s.explicitRules = rules, explicit
		saved.checkpoints = ck
		return errors.Join(fmt.Errorf("under rules %d, %w", v, err), s.rollback(saved))
	}
	return nil
}
