package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"plog/core"
)

// Session is a scenario being played: the history of commands, the position
// in it, and the state after the commands up to that position. The state is
// a fold over the commands, so undo, redo and seek re-derive it: from the
// nearest checkpoint (a clone of the state, taken every few steps and after
// every so much work, see session_checkpoint.go) the session replays the
// commands in between.
//
// After a seek back, the commands ahead of the position stay in the history
// (redo replays them). Applying a new command there replaces them; the
// replaced commands are kept as a branch (Discarded) that the learner can
// take back (RestoreDiscarded, which keeps the commands it replaces as the
// branch in turn), until a later command at an earlier step replaces
// others (session_branch.go).
//
// Beside each command of the history the session keeps a sample of every
// group's lag after it (LagHistory), taken when the command is applied, with
// the samples an advance takes over virtual time: the engine keeps no
// history of lag, and a chart of lag over time needs one.
type Session struct {
	cur     *world
	history []Command
	// lines[i] is history[i]'s canonical line, for the steps Lines has
	// written: the page asks for every line at each render (its timeline,
	// its share menu), and writing 1,000 of them anew took a tenth of a
	// seek's render natively.
	lines  []string
	lag    []LagSample  // lag[i] is the lag after history[i]
	work   []int64      // work[i] is the replay work of history[:i+1] (see stepWork)
	pos    int          // commands applied: the state is the fold of history[:pos]
	events []core.Event // events of the command at pos-1

	checkpoints []checkpoint // sorted by step; step 0 always present
	every       int          // a checkpoint is kept at each multiple of every steps
	workEvery   int64        // and at each step whose work crosses a multiple of workEvery

	branch   []Command // the commands the latest command at an earlier step replaced
	branchAt int       // the step they followed: they were history[branchAt:]
	// superseded is the scenario the last command let go, replacing the
	// branch with another: the history up to branchAt, then the branch.
	superseded []Command

	replayed int64 // work replayed to move in the history, for tests

	pause func() // given to every world the session steps (world.pause)

	// rules is the version of the engine's rules the scenario runs under
	// (core/rules.go), and explicitRules says its script has a rules line.
	// The rules line is the scenario's, not a step: it comes first, or
	// right after seed, and the history and its positions leave it out.
	rules         int
	explicitRules bool
}

// NewSession returns an empty session: seed 0, no topics, the clock at 0.
func NewSession() *Session {
	s := &Session{cur: newWorld(0, core.LatestRules), every: checkpointEvery, workEvery: checkpointWork, rules: core.LatestRules}
	s.checkpoints = []checkpoint{{step: 0, state: s.cur.clone(nil)}}
	return s
}

// Load applies a script line by line. On error it returns the session with
// the commands before the failing line applied, and an error naming the
// line (an *Error).
func Load(script string) (*Session, error) {
	s := NewSession()
	err := eachCommand(script, func(c Command) error {
		return s.applyCommand(c)
	})
	return s, err
}

// Log returns the engine in its current state, to read: every change goes
// through Apply, so that the script stays the source of truth, and the
// engine is handed out read-only to keep it so.
func (s *Session) Log() core.ReadOnlyLog { return s.cur.log }

// Script returns the canonical text of the applied commands (those before
// the position), the scenario that makes the current state.
func (s *Session) Script() string {
	if !s.explicitRules {
		return Format(s.history[:s.pos])
	}
	return strings.Join(s.ScriptLines(s.pos), "\n") + "\n"
}

// ScriptLines returns the first n lines of the history (Lines) with the
// scenario's rules line, as its link and file write it: first, or right
// after seed.
func (s *Session) ScriptLines(n int) []string {
	lines, _ := WithRulesLine(s.Lines()[:n], s.rules)
	return lines
}

// Lines returns the canonical line of every command in the history,
// including those ahead of the position after a seek back.
func (s *Session) Lines() []string {
	if len(s.history) == 0 {
		return []string{}
	}
	for i := len(s.lines); i < len(s.history); i++ {
		s.lines = append(s.lines, s.history[i].String())
	}
	// Clipped, so that an append by the caller copies rather than
	// writing into the session's.
	return slices.Clip(s.lines)
}

// StepLine returns the command that made step (1 to Len) as a line of
// the script, and "" for step 0 or one the history does not hold: a
// caller that shows one step need not copy every line.
func (s *Session) StepLine(step int) string {
	if step < 1 || step > len(s.history) {
		return ""
	}
	return s.history[step-1].String()
}

// Answer returns the learner's last answer to a lesson's question
// (answer QUESTION TEXT) at the position, and whether there is one.
func (s *Session) Answer(question string) (string, bool) {
	a, ok := s.cur.answers[question]
	return a, ok
}

// Position returns how many commands of the history are applied.
func (s *Session) Position() int { return s.pos }

// Len returns how many commands the history holds.
func (s *Session) Len() int { return len(s.history) }

// LagHistory returns every group's lag after each applied command, oldest
// first: sample i follows command i+1. The slice is the session's own, kept
// for the commands ahead of the position too, so that stepping back and forth
// costs nothing: read it, do not change it.
func (s *Session) LagHistory() []LagSample { return s.lag[:s.pos:s.pos] }

// Events returns the events of the last applied command.
func (s *Session) Events() []core.Event { return slices.Clone(s.events) }

// Apply parses one line and applies it. A line that fails changes nothing:
// it is not added to the history, and the returned events hold one error
// event with the message. Errors are *Error, with the line being the
// command's step in the script.
func (s *Session) Apply(line string) ([]core.Event, error) {
	if strings.ContainsAny(line, "\n\r") {
		return s.failed(&Error{Line: s.pos + 1, Col: 1, Msg: "apply takes one command; use Load for a script"})
	}
	c, ok, err := ParseLine(line, s.pos+1)
	if err != nil {
		return s.failed(err)
	}
	if !ok {
		return s.failed(&Error{Line: s.pos + 1, Col: 1, Msg: "nothing to apply: the line is blank or a comment"})
	}
	if err := s.applyCommand(c); err != nil {
		return s.failed(err)
	}
	return slices.Clone(s.events), nil
}

// ApplyCommand applies a command that is already parsed, like Apply; its
// errors name c.Line, the command's line in the script it came from.
func (s *Session) ApplyCommand(c Command) ([]core.Event, error) {
	if err := s.applyCommand(c); err != nil {
		return s.failed(err)
	}
	return slices.Clone(s.events), nil
}

func (s *Session) failed(err error) ([]core.Event, error) {
	return []core.Event{{Kind: EventError, Time: s.cur.log.Now(), Detail: err.Error()}}, err
}

// applyCommand applies a parsed command at the position, replacing any
// commands ahead of it; its events are then s.events.
func (s *Session) applyCommand(c Command) error {
	if c.Name == CmdRules {
		return s.applyRules(c)
	}
	if s.pos >= MaxCommands {
		return &Error{Line: c.Line, Col: c.Col, Msg: fmt.Sprintf("a scenario may hold at most %d commands", MaxCommands)}
	}
	produced := s.cur.produced
	during, err := s.stepSampled(c)
	s.breathe()
	events := s.cur.drainEvents()
	if err == nil && s.cur.work > MaxWork {
		err = workLimitError{before: s.cur.workBefore} // its events
	}
	if held := s.cur.memory(); err == nil && held > MaxMemoryBytes {
		// What the engine made on its own: retries, markers, the cleaner.
		err = memoryLimitError{held: held}
	}
	if err != nil {
		if rerr := s.restore(); rerr != nil {
			return errors.Join(err, rerr)
		}
		return &Error{Line: c.Line, Col: c.Col, Msg: err.Error()}
	}
	s.superseded = nil
	if s.pos < len(s.history) {
		if s.branch != nil {
			s.superseded = append(slices.Clone(s.history[:s.branchAt]), s.branch...)
		}
		s.branch, s.branchAt = slices.Clone(s.history[s.pos:]), s.pos
		s.truncate(s.pos)
	}
	s.record(c, produced, during, events)
	return nil
}

// stepSampled applies c at the position to the current state, and returns
// the lag samples it took over the virtual time it advanced.
func (s *Session) stepSampled(c Command) ([]LagSample, error) {
	var prev LagSample
	if s.pos > 0 {
		prev = s.lag[s.pos-1]
	}
	sampler := &lagSampler{step: s.pos + 1, prev: prev}
	s.cur.lag = sampler
	err := s.step(s.cur, c, s.pos)
	s.cur.lag = nil // the command may have made a new world (seed): it has none
	return sampler.samples, err
}

// truncate drops the commands from step on, and what the session keeps of
// them. The samples given out by LagHistory stay as they were: the next
// append copies rather than writing over them.
func (s *Session) truncate(step int) {
	s.history, s.lag, s.work = s.history[:step:step], s.lag[:step:step], s.work[:step:step]
	// With its capacity cut too: lines handed out stay as they were.
	n := min(step, len(s.lines))
	s.lines = s.lines[:n:n]
	s.dropCheckpointsAfter(step)
}

// record appends a command just applied to the current state at the end of
// the history; produced is the state's record count before it, during the
// lag samples it took while it advanced the clock, events what it caused.
func (s *Session) record(c Command, produced int64, during []LagSample, events []core.Event) {
	var prev LagSample
	if s.pos > 0 {
		prev = s.lag[s.pos-1]
	}
	if len(during) > 0 {
		prev = during[len(during)-1]
	}
	sample := sampleLag(s.cur.log, s.pos+1, prev)
	sample.During = during
	s.events = events
	s.history = append(s.history, c)
	s.lag = append(s.lag, sample)
	s.work = append(s.work, s.workAfter(s.pos)+s.stepWork(c, produced))
	s.pos++
	s.breathe()
	s.maybeCheckpoint()
}

// breathe lets the page's browser run between the pieces of a command's
// bookkeeping (its events, its lag sample, its checkpoint), each of which
// takes tens of milliseconds in the browser in a scenario of 10,000
// partitions; natively (no pause) it is nothing.
func (s *Session) breathe() {
	if s.pause != nil {
		s.pause()
	}
}

// step applies c to w, turning a panic into an error: a bug must not take
// the page down, and the session restores its state after any error. The
// work meter stops the engine part way through the same way (world.meter),
// with the work limit's error.
func (s *Session) step(w *world, c Command, at int) (err error) {
	defer func() {
		w.log.SetWorkMeter(nil) // the log may be cloned into a checkpoint
		if r := recover(); r != nil {
			if limit, ok := r.(workLimitError); ok {
				err = limit
				return
			}
			err = fmt.Errorf("internal error applying %q: %v", c.Name, r)
		}
	}()
	w.pause = s.pause
	w.log.SetWorkMeter(w.meter)
	return w.apply(c, at)
}

// restore rebuilds the state at the position from a checkpoint, after a
// command failed part way.
func (s *Session) restore() error {
	w, events, err := s.stateAt(s.pos, false)
	if err != nil {
		return err
	}
	s.cur, s.events = w, events
	return nil
}

// stateAt derives the state after history[:step] and the events of its last
// command, from the nearest checkpoint at or before step, or from the
// current state when that is nearer (and fromCurrent allows it).
func (s *Session) stateAt(step int, fromCurrent bool) (*world, []core.Event, error) {
	ck := s.checkpoints[0]
	for _, c := range s.checkpoints {
		if c.step <= step {
			ck = c
		}
	}
	w, events, from := ck.state.clone(s.pause), ck.events, ck.step
	if fromCurrent && s.pos <= step && s.pos > ck.step {
		w, events, from = s.cur, s.events, s.pos
	}
	for i := from; i < step; i++ {
		s.replayed += s.workAfter(i+1) - s.workAfter(i)
		if err := s.step(w, s.history[i], i); err != nil {
			return nil, nil, fmt.Errorf("replaying line %d (%s): %v", i+1, s.history[i], err)
		}
		events = w.drainEvents()
	}
	return w, events, nil
}

// Seek moves to step (0 = before the first command, Len() = after the
// last), re-deriving the state. The history is kept.
func (s *Session) Seek(step int) error {
	if step < 0 || step > len(s.history) {
		return fmt.Errorf("cannot seek to step %d: the history has steps 0 to %d", step, len(s.history))
	}
	if step == s.pos {
		return nil
	}
	forward := step > s.pos
	w, events, err := s.stateAt(step, true)
	if err != nil {
		// Replaying from the current state may have changed it part way.
		return errors.Join(err, s.restore())
	}
	s.cur, s.events, s.pos = w, events, step
	if forward {
		s.maybeCheckpoint()
	}
	return nil
}

// Undo steps back one command.
func (s *Session) Undo() error {
	if s.pos == 0 {
		return errors.New("nothing to undo")
	}
	return s.Seek(s.pos - 1)
}

// Redo re-applies the next command of the history.
func (s *Session) Redo() error {
	if s.pos == len(s.history) {
		return errors.New("nothing to redo")
	}
	return s.Seek(s.pos + 1)
}
