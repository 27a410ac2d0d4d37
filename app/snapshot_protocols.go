package app

import (
	"fmt"

	"plog/core"
)

// ProtocolsCompared is the replay of the learner's change, as the engine's
// CompareProtocols works it out, or why it cannot be.
type ProtocolsCompared struct {
	Change     string // in words
	Comparison core.ProtocolComparison
	Err        string
}

// compareProtocols replays the learner's change of group g; nil when the
// learner has picked none for it. A panic, which the engine promises never
// to raise, becomes the replay's error: it runs outside any command, and a
// panic in wasm would kill the page.
func compareProtocols(l core.ReadOnlyLog, g core.GroupView, c protocolChoice) (out *ProtocolsCompared) {
	if c.Group != g.Name || c.Kind == "" {
		return nil
	}
	change := core.ProtocolChange{Kind: c.Kind, Member: c.Member, PollIntervalMs: c.PollMs}
	if c.Kind == core.ChangeJoin {
		change.Member = newMemberID(g.Members)
	}
	defer func() {
		if r := recover(); r != nil {
			out = &ProtocolsCompared{Change: core.ProtocolChangeText(change), Err: fmt.Sprintf("plog hit a bug (please report it with the link): %v", r)}
		}
	}()
	cmp, err := l.CompareProtocols(g.Name, change)
	if err != nil {
		return &ProtocolsCompared{Change: core.ProtocolChangeText(change), Err: err.Error()}
	}
	return &ProtocolsCompared{Change: core.ProtocolChangeText(cmp.Change), Comparison: cmp}
}
