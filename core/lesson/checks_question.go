package lesson

import (
	"fmt"
	"slices"
	"strings"
)

// A lesson may ask the learner a question, checked as any goal is: the
// learner answers on the page (the lesson panel's choices or text box),
// which writes the scenario's answer command (answer QUESTION TEXT), so
// that a link, and a grade, keeps the answer as it keeps every step. A
// question is a check line:
//
//	question hot "Which partition holds the hot key?" answer=2 choices=0,1,2,3
//	question why "Why is it hot?" answer="one key;the key"
//
// answer= lists the accepted answers, ; between them; the learner's is
// compared without case and extra spaces. choices= offers buttons; without
// it the learner types the answer.

var questionChecks = []*checkSpec{
	{name: "question", usage: "question NAME TEXT answer=ANSWER [choices=CHOICE,...]", min: 2, max: 2, named: []string{"answer", "choices"},
		help:     "the learner's answer to the question TEXT (on the page, under the goal) is one of ANSWER (; between them, case and extra spaces aside); CHOICE... are offered as buttons, else the learner types it",
		validate: validateQuestion, values: []string{"answer"}, run: checkQuestion},
}

// maxChoices bounds a question's buttons.
const maxChoices = 12

// Question is one question a lesson asks, as the page shows it.
type Question struct {
	Name, Text string
	// Choices are the answers offered as buttons; none for a typed one.
	Choices []string
}

// Questions are the questions the lesson's check asks, in its order.
func (l Lesson) Questions() []Question {
	var qs []Question
	for _, g := range l.checks {
		for _, c := range g.terms {
			if c.spec.name == "question" {
				qs = append(qs, Question{Name: c.args[0], Text: c.args[1], Choices: choicesOf(c)})
			}
		}
	}
	return qs
}

func choicesOf(c *check) []string {
	if c.named["choices"] == "" {
		return nil
	}
	return strings.Split(c.named["choices"], ",")
}

// answersOf are a question's accepted answers.
func answersOf(c *check) []string {
	return strings.Split(c.named["answer"], ";")
}

// sameAnswer compares two answers without case and extra spaces.
func sameAnswer(a, b string) bool {
	return strings.EqualFold(strings.Join(strings.Fields(a), " "), strings.Join(strings.Fields(b), " "))
}

func validateQuestion(c *check) (string, int) {
	if !isSlug(c.args[0]) {
		return fmt.Sprintf("the question's name %q is not a slug (lower-case words joined by -)", c.args[0]), 0
	}
	if strings.TrimSpace(c.named["answer"]) == "" {
		return "a question needs answer=, the answer that solves it", -1
	}
	choices := choicesOf(c)
	if len(choices) > maxChoices {
		return fmt.Sprintf("%d choices; a question offers at most %d", len(choices), maxChoices), -1
	}
	if len(choices) > 0 && !slices.ContainsFunc(answersOf(c), func(a string) bool {
		return slices.ContainsFunc(choices, func(ch string) bool { return sameAnswer(a, ch) })
	}) {
		return fmt.Sprintf("no answer= is one of the choices %s: the learner could never solve it", strings.Join(choices, ", ")), -1
	}
	return "", -1
}

func checkQuestion(x *ctx, c *check) Result {
	name, text := c.args[0], c.args[1]
	got, ok := x.s.Answer(name)
	if !ok {
		return pending("answer the question: %s", text)
	}
	x.keep(c, "answer", got)
	if slices.ContainsFunc(answersOf(c), func(a string) bool { return sameAnswer(a, got) }) {
		return solved("%s %s", text, got)
	}
	return pending("%s is not the answer to %q: look at the picture again, and answer once more", quoteAnswer(got), text)
}

// quoteAnswer quotes a learner's answer in a sentence.
func quoteAnswer(a string) string {
	if a == "" {
		return "an empty answer"
	}
	return fmt.Sprintf("%q", a)
}
