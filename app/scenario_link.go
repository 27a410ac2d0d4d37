package app

import "errors"

// snapshotFromLink runs the scenario in a link (the URL fragment without '#')
// and returns what the engine then holds. The empty link is the empty
// scenario.
func snapshotFromLink(link string) (LogSnapshot, error) {
	if link == "" {
		return LogSnapshot{}, nil
	}
	return LogSnapshot{}, errors.New("this page cannot read scenario links yet")
}
