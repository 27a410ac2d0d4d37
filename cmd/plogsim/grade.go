package main

import (
	"encoding/csv"
	"fmt"
	"io"
	"strings"

	"plog/core/lesson"
	"plog/core/scenario"
)

// maxGradedLinks bounds the links one grade reads: a course's class, with
// room to spare; each link is a replay of the lesson.
const maxGradedLinks = 2000

// gradedLink is one link to grade, and who handed it in ("" when it came
// on the command line).
type gradedLink struct {
	who, link string
}

// gradeLessonLinks is `plogsim lesson grade LESSON LINK...`: each link
// (a page address, a fragment, or a CSV file of "who,link" rows) replayed
// against the lesson from its start, says solved or not and why. The exit
// status is 0 when every link solves the lesson, 1 when one does not or
// cannot be read.
func gradeLessonLinks(ref string, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	l, err := findLesson(ref, stdin)
	if err != nil {
		fmt.Fprintf(stderr, "plogsim lesson grade: %v\n", err)
		return 2
	}
	var links []gradedLink
	for _, arg := range args {
		if !strings.HasSuffix(strings.ToLower(arg), ".csv") {
			links = append(links, gradedLink{link: arg})
			continue
		}
		rows, err := csvLinks(arg, stdin)
		if err != nil {
			fmt.Fprintf(stderr, "plogsim lesson grade: %v\n", err)
			return 2
		}
		links = append(links, rows...)
	}
	if len(links) == 0 {
		fmt.Fprintf(stderr, "plogsim lesson grade: give the learners' links, or a CSV file of them\n%s", lessonUsage)
		return 2
	}
	if len(links) > maxGradedLinks {
		fmt.Fprintf(stderr, "plogsim lesson grade: %d links; at most %d at once\n", len(links), maxGradedLinks)
		return 2
	}
	fmt.Fprintf(stdout, "lesson %s (id %s): %s\n", l.Name, l.ID, l.Title)
	solved := 0
	for i, g := range links {
		who := g.who
		if who == "" {
			who = fmt.Sprintf("link %d", i+1)
		}
		r, err := gradeLink(l, g.link)
		switch {
		case err != nil:
			fmt.Fprintf(stdout, "%s: cannot be graded: %v\n", who, err)
		case r.Solved:
			solved++
			fmt.Fprintf(stdout, "%s: solved: %s\n", who, r.Progress)
		default:
			fmt.Fprintf(stdout, "%s: not solved: %s\n", who, r.Progress)
		}
	}
	fmt.Fprintf(stdout, "%d of %d solved\n", solved, len(links))
	if solved < len(links) {
		return 1
	}
	return 0
}

// gradeLink reads one learner's link as the page reads its address and
// grades it.
func gradeLink(l lesson.Lesson, link string) (lesson.Result, error) {
	fragment, err := linkFragment(strings.TrimSpace(link))
	if err != nil {
		return lesson.Result{}, err
	}
	f, err := scenario.ParseFragment(fragment)
	if err != nil {
		return lesson.Result{}, err
	}
	return l.Grade(f)
}

// csvLinks reads a CSV file of learners' links: each row's first field
// says who, its last the link; a row whose last field holds no link (a
// header) is skipped.
func csvLinks(path string, stdin io.Reader) ([]gradedLink, error) {
	src, err := readSource(path, stdin)
	if err != nil {
		return nil, err
	}
	r := csv.NewReader(strings.NewReader(src.text))
	r.FieldsPerRecord = -1
	var links []gradedLink
	for {
		row, err := r.Read()
		if err == io.EOF {
			return links, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v", src.name, err)
		}
		if len(row) == 0 {
			continue
		}
		link := strings.TrimSpace(row[len(row)-1])
		if !strings.Contains(link, scenario.LinkPrefix) {
			continue // a header, or a row with no link yet
		}
		who := ""
		if len(row) > 1 {
			who = strings.TrimSpace(row[0])
		}
		links = append(links, gradedLink{who: who, link: link})
	}
}
