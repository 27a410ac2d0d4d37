package app

import "plog/core"

// ProtocolsCompared is the replay of the learner's change, as the engine's
// CompareProtocols works it out, or why it cannot be.
type ProtocolsCompared struct {
	Change     string // in words
	Comparison core.ProtocolComparison
	Err        string
}

// compareProtocols replays the learner's change of group g; nil when the
// learner has picked none for it.
func compareProtocols(l core.ReadOnlyLog, g core.GroupView, c protocolChoice) *ProtocolsCompared {
	if c.Group != g.Name || c.Kind == "" {
		return nil
	}
	change := core.ProtocolChange{Kind: c.Kind, Member: c.Member, PollIntervalMs: c.PollMs}
	if c.Kind == core.ChangeJoin {
		change.Member = newMemberID(g.Members)
	}
	cmp, err := l.CompareProtocols(g.Name, change)
	if err != nil {
		return &ProtocolsCompared{Change: core.ProtocolChangeText(change), Err: err.Error()}
	}
	return &ProtocolsCompared{Change: core.ProtocolChangeText(cmp.Change), Comparison: cmp}
}
