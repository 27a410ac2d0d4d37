package app

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// LessonListButton sits in the masthead and takes the learner to the lesson
// list below the playground, unfolded.
type LessonListButton struct {
	app.Compo
}

// showList unfolds the list and scrolls to it. The list's folding is the
// browser's own (a details element), so the button sets it in the page.
func (b *LessonListButton) showList(ctx app.Context, e app.Event) {
	if details := app.Window().GetElementByID(lessonListID + "-details"); details.Truthy() {
		details.Set("open", true)
	}
	ctx.ScrollTo(lessonListID)
}

// Render draws the button.
func (b *LessonListButton) Render() app.UI {
	return app.Button().Type("button").ID("lessons-open").Class("lessons-open").
		Aria("controls", lessonListID).OnClick(b.showList).Text("Lessons")
}
