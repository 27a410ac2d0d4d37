package app

import (
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// A scenario opened from the Scenarios panel (New scenario, or a recent
// one) closes the panel, which hangs over the page; the Share dialog
// stays as the learner left it.
func TestOpeningAScenarioClosesTheScenariosPanel(t *testing.T) {
	for _, tc := range []struct{ open, after string }{
		{"scenarios", ""},
		{"share", "share"},
	} {
		m := &ShareMenu{}
		d := app.NewClientTester(m)
		m.open = tc.open
		d.Context().NewActionWithValue(openAction, openRequest{})
		d.Consume()
		if m.open != tc.after {
			t.Errorf("with %s open, a scenario opened leaves %q open, want %q", tc.open, m.open, tc.after)
		}
		d.Close()
	}
}
