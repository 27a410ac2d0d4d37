package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"strings"

	"plog/core/lesson"
	"plog/core/scenario"
)

// pageLink is what --link reads from a link as the page reads its address:
// the scenario it opens, the step it opens at, and what of the link plogsim
// does not follow.
type pageLink struct {
	source
	// at is the step the page opens at (the fragment's at=), -1 for the
	// last.
	at int
	// ignored are the link's parameters plogsim does not follow, as the
	// link writes them (embed=1, theme=dark, ...): they set the page's
	// view, or the page's lesson panel and kept-aside steps.
	ignored []string
	// problem says why the page would ignore the link's parameters, when
	// they are malformed ("" when they are not).
	problem string
}

// readLink reads what plogsim run --link and plogsim kafka --link are
// given: whatever the page opens, read by the page's own parser
// (scenario.ParseFragment), so that the two never part. That is a whole
// address (http://host/sub/path/#v1.…&embed=1, its fragment), a fragment
// with or without its '#' (#v1.…&at=2, v1.…), or a lesson's link
// (#lesson=NAME, #lesson=v1.… carrying a lesson file), which opens the
// lesson's start as the page does. As the page (app/share_link.go's
// loadFragment), it takes the scenario of a link whose parameters are
// malformed, and says so.
func readLink(arg string) (pageLink, error) {
	fragment, err := linkFragment(strings.TrimSpace(arg))
	if err != nil {
		return pageLink{}, err
	}
	l := pageLink{at: -1}
	f, err := scenario.ParseFragment(fragment)
	if err != nil {
		l.problem = err.Error()
		f = scenario.Fragment{At: -1}
		if head, _, _ := strings.Cut(fragment, "&"); !strings.Contains(head, "=") {
			f.Link = head
		}
	}
	l.at = f.At
	switch {
	case f.Link != "":
		text, err := scenario.DecodeLink(f.Link) // an old link's under rules 1
		if err != nil {
			return pageLink{}, err
		}
		l.source = source{name: "link", text: text}
		if f.Lesson != "" {
			// The page checks the scenario against the lesson's goal;
			// plogsim lesson NAME --check does that.
			l.ignored = append(l.ignored, "lesson="+clipLink(f.Lesson))
		}
	case f.Lesson != "":
		// #lesson=… alone opens the lesson from its start
		// (app/lesson_run.go's openLesson).
		les, err := linkedLesson(f.Lesson)
		if err != nil {
			return pageLink{}, err
		}
		l.source = source{name: "lesson " + les.Name, text: les.Script}
	default:
		return pageLink{}, errors.New("the link holds no scenario (v1.…) and no lesson (lesson=…)")
	}
	if f.Branch != "" {
		l.ignored = append(l.ignored, "branch="+strconv.Itoa(f.BranchAt)+"."+clipLink(f.Branch))
	}
	for _, p := range []struct {
		on   bool
		text string
	}{{f.Embed, "embed=1"}, {f.ReadOnly, "readonly=1"}, {f.Play, "play=1"}, {f.Loop != "", "loop=" + f.Loop}, {f.Theme != "", "theme=" + f.Theme}} {
		if p.on {
			l.ignored = append(l.ignored, p.text)
		}
	}
	l.ignored = append(l.ignored, f.Unknown...)
	return l, nil
}

// linkFragment is the fragment of what was given to --link: a whole
// address's (as url.URL has it, unescaped, the page's URL), the text after
// a '#', or the whole text, which is a fragment without its '#'.
func linkFragment(arg string) (string, error) {
	if strings.Contains(arg, "://") {
		u, err := url.Parse(arg)
		if err != nil {
			return "", fmt.Errorf("not an address plogsim can read: %v", err)
		}
		if u.Fragment == "" {
			return "", fmt.Errorf("%s has no fragment (#v1.… or #lesson=…): copy the address of a page that shows a scenario", clipLink(arg))
		}
		return u.Fragment, nil
	}
	if _, fragment, ok := strings.Cut(arg, "#"); ok {
		return fragment, nil
	}
	return arg, nil
}

// linkedLesson is the lesson lesson= names or carries: a built-in lesson's
// name, or a lesson link (package lesson).
func linkedLesson(ref string) (lesson.Lesson, error) {
	if !lesson.IsLink(ref) {
		return lesson.Find(ref)
	}
	l, _, err := lesson.DecodeLink(ref)
	if err != nil {
		return l, fmt.Errorf("the link's lesson cannot be opened: %w", err)
	}
	return l, nil
}

// clipLink shortens a link's long part (a payload) for a message.
func clipLink(s string) string {
	const most = 24
	if len(s) <= most {
		return s
	}
	return s[:most] + "…"
}

// note writes on stderr, as command's, the parameters of the link it
// ignores (its own among them: plogsim kafka runs the whole scenario,
// whatever at= says), and why the page would ignore them all, if it would.
func (l pageLink) note(stderr io.Writer, command string, ignored ...string) {
	if l.problem != "" {
		fmt.Fprintf(stderr, "%s: ignoring the link's parameters, as the page does: %s\n", command, l.problem)
	}
	if ignored = append(ignored, l.ignored...); len(ignored) > 0 {
		fmt.Fprintf(stderr, "%s: ignoring the link's view parameters: %s\n", command, strings.Join(ignored, " "))
	}
}

// stepAsked settles the step a command draws or stops at, as the page
// opens a link: the link's at=, unless --at (at) asks for another, which
// is said. It notes the link's ignored parameters, and reports false,
// having said why, for an --at below 0.
func (l pageLink) stepAsked(fs *flag.FlagSet, command string, at *int, stderr io.Writer) bool {
	if *at < -1 {
		fmt.Fprintf(stderr, "%s: --at needs a step number ≥ 0, got %d\n", command, *at)
		return false
	}
	switch atSet := flagSet(fs, "at"); {
	case l.at >= 0 && atSet && *at != l.at:
		l.note(stderr, command, fmt.Sprintf("at=%d (--at %d says otherwise)", l.at, *at))
	case l.at >= 0 && !atSet:
		*at = l.at
		fallthrough
	default:
		l.note(stderr, command)
	}
	return true
}
