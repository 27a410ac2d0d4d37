package core

// groupState holds the consumer groups of a PartitionedLog.
type groupState struct{}

// clone returns a deep, independent copy of the groups.
func (g *groupState) clone() groupState { return groupState{} }

// nextGroupDeadline returns the earliest pending group timer (rebalance
// completion, session timeout, auto-commit), if any. runGroupTimers must move
// every timer due at a time past that time.
func (l *PartitionedLog) nextGroupDeadline() (at int64, ok bool) { return 0, false }

// runGroupTimers fires the group timers due at now.
func (l *PartitionedLog) runGroupTimers(now int64) {}

// onPartitionsChanged lets the groups reading a topic rebalance after its
// partition count changed.
func (l *PartitionedLog) onPartitionsChanged(topic string) {}
