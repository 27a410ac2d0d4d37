package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// ThemeToggle is the masthead's Theme button: a click goes from the
// system's theme to light, to dark, and back. The choice is the root
// element's data-theme (none for the system's), which theme.css's colours
// follow, and is stored for the next visit; web/static/theme.js applies it
// before the page draws, and an embed's &theme= wins over it.
type ThemeToggle struct {
	app.Compo

	choice string // "system", "light" or "dark"
}

// Theme choices, in the order the button goes through them.
var themeChoices = []string{"system", "light", "dark"}

// themeStorageKey is where the choice is kept; web/static/theme.js reads
// the same key.
const themeStorageKey = "plog.theme"

// OnMount reads the theme web/static/theme.js applied.
func (t *ThemeToggle) OnMount(ctx app.Context) {
	t.choice = themeChoice(app.Window().Get("document").Get("documentElement").Call("getAttribute", "data-theme"))
}

// themeChoice is the choice a root's data-theme value stands for.
func themeChoice(v app.Value) string {
	if v.Truthy() {
		switch s := v.String(); s {
		case "light", "dark":
			return s
		}
	}
	return "system"
}

// current is the theme the button stands at: the system's before it mounts.
func (t *ThemeToggle) current() string {
	if t.choice == "" {
		return "system"
	}
	return t.choice
}

// nextTheme is the choice after choice.
func nextTheme(choice string) string {
	for i, c := range themeChoices {
		if c == choice {
			return themeChoices[(i+1)%len(themeChoices)]
		}
	}
	return themeChoices[0]
}

func (t *ThemeToggle) toggle(ctx app.Context, e app.Event) {
	t.choice = nextTheme(t.current())
	root := app.Window().Get("document").Get("documentElement")
	if t.choice == "system" {
		root.Call("removeAttribute", "data-theme")
	} else {
		root.Call("setAttribute", "data-theme", t.choice)
	}
	// A frame without storage forgets the choice on reload; the theme
	// still changes now.
	_ = currentBrowser().SaveItem(themeStorageKey, t.choice)
}

// Render draws the button; data-theme-choice is the theme it shows now.
func (t *ThemeToggle) Render() app.UI {
	choice := t.current()
	// Its name is its text, which says the theme now; the title says
	// what a click does.
	return app.Button().Type("button").Class(append(roleSecondary.classes(), "theme-toggle")...).
		DataSet("theme-toggle", true).DataSet("theme-choice", choice).
		Title("Theme: "+choice+". Click for "+nextTheme(choice)+".").
		OnClick(t.toggle).
		Body(
			app.Span().Aria("hidden", "true").Text("◐ "),
			// On a phone the words hide (visually, not from a screen
			// reader): the masthead's buttons fit two rows at 44 px.
			app.Span().Class("theme-words").Text("Theme: "+choice),
		)
}
