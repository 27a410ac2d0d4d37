package app

import (
	"encoding/json"
	"slices"
	"strings"

	"plog/core/lesson"
)

// lessonProgressKey is the storage key of the learner's lesson progress.
const lessonProgressKey = "plog.lessons"

// lessonProgress is what the page remembers of a learner's lessons: which
// they have solved and how many hints each has shown. It is kept as JSON, so
// a learner's progress survives a newer page that adds lessons.
//
// A built-in lesson is kept under its name; a lesson from a link under the
// key of its file's text (lesson.TextKey), so that an edited lesson is a
// new one and two teachers' lessons of one name never mix.
type lessonProgress struct {
	Solved []string       `json:"solved,omitempty"` // built-in lessons in teaching order, then lessons from links
	Hints  map[string]int `json:"hints,omitempty"`  // hints shown, by lesson key
}

// maxLinkLessonsKept bounds the lessons from links whose progress is kept:
// the oldest are forgotten first.
const maxLinkLessonsKept = 200

// isTextKey reports whether a kept key is a lesson from a link's.
func isTextKey(key string) bool {
	return strings.HasPrefix(key, "text-") && len(key) == len(lesson.TextKey(""))
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
	setHints := func(key string, n int) {
		if n > 0 {
			if p.Hints == nil {
				p.Hints = map[string]int{}
			}
			p.Hints[key] = n
		}
	}
	for _, name := range lesson.Names() {
		if slices.Contains(kept.Solved, name) {
			p.Solved = append(p.Solved, name)
		}
		if kept.Hints[name] > 0 {
			// Only a lesson with hints kept is parsed, to count its own.
			if l, err := lesson.Find(name); err == nil {
				setHints(name, min(kept.Hints[name], len(l.Hints)))
			}
		}
	}
	var linked []string
	for _, key := range kept.Solved {
		if isTextKey(key) && !slices.Contains(linked, key) {
			linked = append(linked, key)
		}
	}
	p.Solved = append(p.Solved, linked[max(0, len(linked)-maxLinkLessonsKept):]...)
	hinted := 0
	for key, n := range kept.Hints {
		if isTextKey(key) && hinted < maxLinkLessonsKept {
			setHints(key, min(n, lesson.MaxHints))
			hinted++
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
func (p lessonProgress) isSolved(key string) bool {
	return slices.Contains(p.Solved, key)
}

// builtinSolved lists the built-in lessons solved, in teaching order.
func (p lessonProgress) builtinSolved() []string {
	return slices.DeleteFunc(slices.Clone(p.Solved), isTextKey)
}

// markSolved records a solved lesson, keeping teaching order, and reports
// whether that is news.
func (p *lessonProgress) markSolved(key string) bool {
	if p.isSolved(key) {
		return false
	}
	var solved []string
	for _, n := range lesson.Names() {
		if n == key || p.isSolved(n) {
			solved = append(solved, n)
		}
	}
	linked := slices.DeleteFunc(slices.Clone(p.Solved), func(k string) bool { return !isTextKey(k) })
	if isTextKey(key) {
		linked = append(linked, key)
	}
	p.Solved = append(solved, linked[max(0, len(linked)-maxLinkLessonsKept):]...)
	return true
}

// hintsShown is how many of a lesson's hints the learner has unlocked, of
// the hints it has.
func (p lessonProgress) hintsShown(key string, hints int) int {
	return min(max(p.Hints[key], 0), hints)
}

// showHint unlocks the lesson's next hint and reports whether there was one.
func (p *lessonProgress) showHint(key string, hints int) bool {
	n := p.hintsShown(key, hints)
	if n >= hints {
		return false
	}
	if p.Hints == nil {
		p.Hints = map[string]int{}
	}
	p.Hints[key] = n + 1
	return true
}
