package app

import (
	"fmt"
	"strings"

	"plog/core"
)

// snapshotShareGroups copies every share group out of the engine, in name
// order. A group the engine names but cannot describe is reported, and
// the others are kept.
func snapshotShareGroups(l core.ReadOnlyLog) ([]core.ShareGroupView, error) {
	var groups []core.ShareGroupView
	var problems []string
	for _, name := range l.ShareGroupNames() {
		g, err := l.ShareGroup(name)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		groups = append(groups, g)
	}
	if len(problems) > 0 {
		return groups, fmt.Errorf("share groups: %s", strings.Join(problems, "; "))
	}
	return groups, nil
}
