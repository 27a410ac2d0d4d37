package app

import (
	"strings"
	"testing"

	"plog/core/lesson"
)

// Every control a hint can name has a place on the page, and the page
// knows no control the lesson package does not: one list, read twice.
func TestEveryHintControlHasAPlace(t *testing.T) {
	known := map[string]bool{}
	for _, c := range lesson.Controls() {
		known[c.Name] = true
		place, ok := controlPlaces[c.Name]
		if !ok {
			t.Errorf("control %s has no place on the page", c.Name)
			continue
		}
		if scoped := strings.Contains(place.css, "%[1]s") || place.inspect != ""; scoped != (c.Scope != lesson.NoScope) {
			t.Errorf("control %s belongs to a %s, but its place (%q) reads one: %v", c.Name, c.Scope, place.css, scoped)
		}
	}
	for name := range controlPlaces {
		if !known[name] {
			t.Errorf("the page places control %s, which no hint can name", name)
		}
	}
}

// A thing's name is written into a selector as a CSS string's text.
func TestControlSelectorQuotesTheThing(t *testing.T) {
	got := controlPlaces["poll"].selector(`a"b\c`)
	if got != `button[aria-label="Poll a\"b\\c"]` {
		t.Errorf("selector %s", got)
	}
}
