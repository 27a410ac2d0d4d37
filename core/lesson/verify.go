package lesson

import (
	"errors"
	"fmt"

	"plog/core/scenario"
)

// Trial is one run of a lesson's own scripts against its goal, as
// `plogsim lesson check FILE` reports it: the start alone, the start and
// each wrong attempt, the start and the solution.
type Trial struct {
	Name string // "start", "wrong attempt" (or "wrong attempt N" of several) or "solution"
	// Want says whether the goal must hold after it (only the solution).
	Want   bool
	Result Result
	// Err is set when the script does not apply; a *scenario.Error names
	// the lesson file's line.
	Err error
	// FailedLine is the lesson file's line of the goal's first check that
	// does not hold, 0 when every check holds; FailedCheck is that line as
	// written.
	FailedLine  int
	FailedCheck string
}

// OK reports whether the trial went as the lesson needs.
func (t Trial) OK() bool {
	return t.Err == nil && t.Result.Solved == t.Want
}

// Verify runs the lesson's start, wrong attempt and solution and checks
// the goal after each: the start and each wrong attempt must not solve
// it, the solution must. A lesson without a solution fails:
// nothing would show that its goal can be reached at all, and a goal that
// contradicts itself passed.
func (l Lesson) Verify() []Trial {
	trials := []Trial{l.trial("start", "", l.lines.start, false)}
	if trials[0].Err != nil {
		return trials // the others run on top of the start
	}
	for i, wrong := range l.WrongAttempts {
		name := "wrong attempt"
		if len(l.WrongAttempts) > 1 {
			name = fmt.Sprintf("wrong attempt %d", i+1)
		}
		trials = append(trials, l.trial(name, wrong, l.lines.wrong[i], false))
	}
	if l.lines.solution > 0 {
		trials = append(trials, l.trial("solution", l.Solution, l.lines.solution, true))
	} else {
		trials = append(trials, Trial{Name: "solution", Want: true, Err: ErrNoSolution})
	}
	return trials
}

// ErrNoSolution is the error of the solution trial of a lesson that has
// none.
var ErrNoSolution = errors.New("the file has none: add a ## solution section, the commands that solve the lesson, so that the check proves its goal can be reached")

func (l Lesson) trial(name, script string, first int, want bool) Trial {
	t := Trial{Name: name, Want: want}
	var s *scenario.Session
	var err error
	if script == "" {
		s, err = l.Start()
		first = l.lines.start
	} else {
		s, err = l.Attempt(script)
	}
	if err != nil {
		var perr *scenario.Error
		if errors.As(err, &perr) {
			err = &scenario.Error{Line: perr.Line + first - 1, Col: perr.Col, Msg: fmt.Sprintf("the %s: %s", name, perr.Msg)}
		}
		t.Err = err
		return t
	}
	var failed *goalLine
	t.Result, failed = l.checkGoal(s)
	if failed != nil {
		t.FailedLine, t.FailedCheck = failed.line, failed.text
	}
	return t
}
