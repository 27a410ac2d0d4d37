package app

import (
	"strings"

	"plog/core/lesson"
	"plog/core/scenario"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// LessonQuestions are the questions a lesson asks (its check's question
// lines), under its goal: each offers its choices as buttons, or a text
// box, and an answer is the scenario's answer command, a step like any
// other, so that undo takes it back and a link keeps it.
type LessonQuestions struct {
	app.Compo

	Questions []lesson.Question
	// Answers are the learner's answers at the timeline's position, by
	// question; a question without one is not in it.
	Answers map[string]string

	typed map[string]string // what the learner typed in each text box
}

// questionControl names the questions' errors.
const questionControl = "question"

// answer writes the learner's answer to a question.
func answer(name, text string) app.EventHandler {
	return func(ctx app.Context, e app.Event) {
		e.PreventDefault()
		if strings.TrimSpace(text) == "" {
			setControlError(ctx, ControlAlert{Control: questionControl, Message: "Type your answer first."})
			return
		}
		ApplyFrom(ctx, questionControl, answerLine(name, text))
	}
}

// answerLine is the command of an answer to a question.
func answerLine(question, text string) string {
	return line(scenario.CmdAnswer, positional(question), positional(text))
}

// Render draws the questions.
func (q *LessonQuestions) Render() app.UI {
	return app.Div().Class("lesson-questions").Body(
		app.Range(q.Questions).Slice(func(i int) app.UI { return q.renderQuestion(q.Questions[i]) }),
		&ControlError{Control: questionControl},
	)
}

func (q *LessonQuestions) renderQuestion(question lesson.Question) app.UI {
	id := "question-" + question.Name
	current, answered := q.Answers[question.Name]
	var body []app.UI
	if len(question.Choices) > 0 {
		body = append(body, app.P().ID(id).Class("lesson-question-text").Text(question.Text),
			app.Div().Class("row").Attr("role", "group").Aria("labelledby", id).Body(
				app.Range(question.Choices).Slice(func(i int) app.UI {
					choice := question.Choices[i]
					chosen := answered && current == choice
					return app.Button().Type("button").Class("secondary").DataSet("command", scenario.CmdAnswer).
						DataSet("choice", choice).Aria("pressed", chosen).OnClick(answer(question.Name, choice)).Text(choice)
				}),
			))
	} else {
		input := id + "-answer"
		typed := q.typed[question.Name]
		body = append(body, app.Form().Class("row").DataSet("command", scenario.CmdAnswer).
			OnSubmit(func(ctx app.Context, e app.Event) { answer(question.Name, q.typed[question.Name])(ctx, e) }).Body(
			field(input, question.Text, app.Input().Type("text").ID(input).Value(typed).AutoComplete(false).
				OnInput(func(ctx app.Context, e app.Event) {
					if q.typed == nil {
						q.typed = map[string]string{}
					}
					q.typed[question.Name] = ctx.JSSrc().Get("value").String()
				})),
			app.Button().Type("submit").ID(id+"-send").Text("Answer"),
		))
	}
	if answered {
		body = append(body, app.P().Class("hint").DataSet("answered", question.Name).Text("Your answer: "+current))
	}
	return app.Div().Class("lesson-question").DataSet("question", question.Name).Body(body...)
}
