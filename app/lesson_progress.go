package app

import (
	"encoding/json"
	"slices"

	"plog/core/lesson"
)

// lessonProgressKey is the storage key of the learner's lesson progress.
const lessonProgressKey = "plog.lessons"

// lessonProgress is what the page remembers of a learner's lessons: which
// they have solved and how many hints each has shown. It is kept as JSON, so
// a learner's progress survives a newer page that adds lessons.
type lessonProgress struct {
	Solved []string       `json:"solved,omitempty"` // in teaching order
	Hints  map[string]int `json:"hints,omitempty"`  // hints shown, by lesson name
}

// readLessonProgress reads progress as it was kept. What it cannot use
// (text that is not JSON, lessons that no longer exist, more hints than a
// lesson has) is dropped: storage is the learner's to edit, and may hold
// anything.
func readLessonProgress(text string) lessonProgress {
	var kept lessonProgress
	if json.Unmarshal([]byte(text), &kept) != nil {
		kept = lessonProgress{}
	}
	var p lessonProgress
	for _, l := range lesson.All() {
		if slices.Contains(kept.Solved, l.Name) {
			p.Solved = append(p.Solved, l.Name)
		}
		if n := min(kept.Hints[l.Name], len(l.Hints)); n > 0 {
			if p.Hints == nil {
				p.Hints = map[string]int{}
			}
			p.Hints[l.Name] = n
		}
	}
	return p
}

// String is the progress as it is kept.
func (p lessonProgress) String() string {
	text, err := json.Marshal(p)
	if err != nil { // a struct of strings and ints always marshals
		return ""
	}
	return string(text)
}

// isSolved reports whether the learner has ever solved the lesson.
func (p lessonProgress) isSolved(name string) bool {
	return slices.Contains(p.Solved, name)
}

// markSolved records a solved lesson, keeping teaching order, and reports
// whether that is news.
func (p *lessonProgress) markSolved(name string) bool {
	if p.isSolved(name) {
		return false
	}
	var solved []string
	for _, n := range lesson.Names() {
		if n == name || p.isSolved(n) {
			solved = append(solved, n)
		}
	}
	p.Solved = solved
	return true
}

// hintsShown is how many of a lesson's hints the learner has unlocked.
func (p lessonProgress) hintsShown(l lesson.Lesson) int {
	return min(max(p.Hints[l.Name], 0), len(l.Hints))
}

// showHint unlocks the lesson's next hint and reports whether there was one.
func (p *lessonProgress) showHint(l lesson.Lesson) bool {
	n := p.hintsShown(l)
	if n >= len(l.Hints) {
		return false
	}
	if p.Hints == nil {
		p.Hints = map[string]int{}
	}
	p.Hints[l.Name] = n + 1
	return true
}
