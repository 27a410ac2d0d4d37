package app

import (
	"fmt"

	"plog/core"
	"plog/core/scenario"
)

// ShareCompared is the learner's workload run through a consumer group
// and a share group side by side, as the engine's CompareShareConsumer
// works it out, or why it cannot be.
type ShareCompared struct {
	Comparison core.ShareComparison
	Err        string
}

// shareCompareChoice is the workload a learner asked to compare; the zero
// value asks for none.
type shareCompareChoice struct {
	Group   string
	Records int
	PollMax int
	Crash   string // "" for no crash
}

// compareShareInspected runs the learner's workload for the share group
// the inspector shows, and for no other: only the inspector draws it.
func (s *LogSnapshot) compareShareInspected(session *scenario.Session, sel selection) {
	s.ShareCompared = nil
	c := sel.ShareCompare
	if session == nil || sel.Kind != selectShareGroup || c.Group != sel.Group || c.Group == "" {
		return
	}
	s.ShareCompared = compareShare(session.Log(), c)
}

// compareShare asks the engine. A panic, which the engine promises never
// to raise, becomes the comparison's error: it runs outside any command,
// and a panic in wasm would kill the page.
func compareShare(l core.ReadOnlyLog, c shareCompareChoice) (out *ShareCompared) {
	defer func() {
		if r := recover(); r != nil {
			out = &ShareCompared{Err: fmt.Sprintf("plog hit a bug (please report it with the link): %v", r)}
		}
	}()
	cmp, err := l.CompareShareConsumer(c.Group, core.ShareWorkload{Records: c.Records, PollMax: c.PollMax, Crash: c.Crash})
	if err != nil {
		return &ShareCompared{Err: err.Error()}
	}
	return &ShareCompared{Comparison: cmp}
}
