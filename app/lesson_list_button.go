package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// LessonListButton sits in the masthead and opens the lesson list over the
// page (or closes it).
type LessonListButton struct {
	app.Compo
}

// showList opens the list, or closes it when open, and puts the focus on
// the lesson open (or the first), so that a keyboard picks at once. The
// list's folding is the browser's own (a details element), so the button
// sets it in the page.
func (b *LessonListButton) showList(ctx app.Context, e app.Event) {
	details := app.Window().GetElementByID(lessonListID + "-details")
	if !details.Truthy() {
		return
	}
	open := !details.Get("open").Bool()
	details.Set("open", open)
	if !open {
		return
	}
	link := details.Call("querySelector", "li.current a, li a")
	if link.Truthy() {
		link.Call("focus", map[string]any{"preventScroll": true})
	}
}

// Render draws the button.
func (b *LessonListButton) Render() app.UI {
	return app.Button().Type("button").ID("lessons-open").Class("lessons-open").
		Aria("controls", lessonListID).OnClick(b.showList).Text("Lessons")
}
