package scenario

import (
	"fmt"

	"plog/core"
)

// The consumer group commands wait for the engine's group API.

var errNoGroups = fmt.Errorf("consumer groups are not in this engine yet")

func (w *world) applyGroupCommand(c Command) error { return errNoGroups }

func (w *world) checkMember(group, member string) error { return errNoGroups }

func (w *world) poll(group, member string, max int, commit bool) error { return errNoGroups }

func (w *world) configGroup(c Command) error { return errNoGroups }

func groupStates(l *core.PartitionedLog) []GroupState { return []GroupState{} }
