package app

// A button's role says how much it weighs, so that the page does not draw
// every action as the same pill: Crash looked like Poll. The main action
// of a form or a card is drawn filled (the default), a secondary one
// outlined, and one that breaks something on purpose (crash a member or a
// broker, truncate, delete a group) outlined in the colour of removal
// (web/static/plog.css, button.secondary and button.danger).
type buttonRole string

const (
	rolePrimary   buttonRole = ""          // filled: the default style of a button
	roleSecondary buttonRole = "secondary" // outlined
	roleDanger    buttonRole = "danger"    // outlined in --danger
)

// classes are the CSS classes that draw the role, for app.Button().Class.
func (r buttonRole) classes() []string {
	if r == rolePrimary {
		return nil
	}
	return []string{string(r)}
}
