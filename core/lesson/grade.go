package lesson

import (
	"errors"
	"fmt"

	"plog/core/scenario"
)

// Grading reads a learner's page link, the address of their page once they
// solved the lesson (or the link the page's solved message carries): its
// script is replayed from the lesson's own start, so the link alone says
// whether it solves the lesson, and no page needs to be trusted.

// Is reports whether a lesson= of a link names or carries this lesson: a
// built-in lesson's name, or a lesson link whose file is this one (the
// same ID).
func (l Lesson) Is(ref string) bool {
	if !IsLink(ref) {
		return ref == l.Name
	}
	other, _, err := DecodeLink(ref)
	return err == nil && other.ID == l.ID
}

// Grade replays a learner's link against the lesson: the script it holds
// must be the lesson's start and the learner's steps after it, and the
// goal is checked at the step the link shows (its at=, else its last). A
// link whose lesson= is another lesson, or that holds no script, is an
// error, as is a script that does not begin with the lesson's start.
func (l Lesson) Grade(f scenario.Fragment) (Result, error) {
	if f.Link == "" {
		return Result{}, errors.New("the link holds no steps (v1.…): the learner's page address, copied once the lesson says Solved, holds them")
	}
	if f.Lesson != "" && !l.Is(f.Lesson) {
		return Result{}, fmt.Errorf("the link is of another lesson (lesson=%s)", clip(f.Lesson))
	}
	text, err := scenario.DecodeLink(f.Link)
	if err != nil {
		return Result{}, err
	}
	s, err := l.attemptWhole(text)
	if err != nil {
		return Result{}, err
	}
	if f.At >= 0 && f.At < s.Len() {
		if err := s.Seek(f.At); err != nil {
			return Result{}, err
		}
	}
	return l.Check(s), nil
}

// clip shortens a long lesson= (a lesson link) for a message.
func clip(s string) string {
	const most = 24
	if len(s) <= most {
		return s
	}
	return s[:most] + "…"
}
