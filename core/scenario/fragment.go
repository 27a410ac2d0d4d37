package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// A page URL's fragment holds the scenario link followed by view parameters,
// each introduced by '&':
//
//	#v1.PAYLOAD&at=12&branch=9.v1.PAYLOAD&lesson=compaction&embed=1&readonly=1
//
// The link part is optional (#lesson=key-order opens a lesson from its start)
// and so is every parameter. '&' and '=' never occur in base64url, so the
// link's end is unambiguous (a padded link's trailing '=' aside, which
// ParseFragment allows for). Parameters a page does not know are kept in
// Unknown and otherwise ignored, so a link made by a newer page still opens
// in an older one.
//
//	at        the timeline position: how many steps of the script are applied
//	          (the rest stay in the history, to redo or step through)
//	branch    AT.LINK: the steps that followed step AT before a command at
//	          that step replaced them (Session.Discarded), as a link of their
//	          own, for the learner to bring back
//	lesson    the name of a built-in lesson (package lesson) this scenario
//	          belongs to, or a lesson link (v1.…) that carries a lesson file
//	embed     1: the compact layout for an iframe
//	readonly  1: step and play only, no editing
//	present   1: the presenter's view, for a room: the picture large, the
//	          tools hidden, the steps on a presentation clicker's keys
//	play      1: play the timeline as the page opens
//	loop      FROM-TO: play steps FROM to TO over and over (the page
//	          checks the range against the scenario: Loop is as written)
//	theme     light, dark or system: the page's colours (the page checks
//	          the name: Theme is as written)
type Fragment struct {
	Link string // "v1.…", or "" for no scenario
	At   int    // timeline position; -1 when absent (all steps applied)
	// Branch is the link of the replaced steps that followed step
	// BranchAt; "" when there are none.
	Branch   string
	BranchAt int
	Lesson   string
	Embed    bool
	ReadOnly bool
	Present  bool
	Play     bool
	Loop     string
	Theme    string
	Unknown  []string // parameters not understood, as written
}

// maxFragmentParams bounds the parameters read from a fragment, which may
// come from a stranger's link.
const maxFragmentParams = 16

// ParseFragment splits a URL fragment (with or without '#') into its link and
// parameters. It does not decode the link: DecodeLink does that, with its own
// errors. A malformed parameter is an error that names it.
func ParseFragment(fragment string) (Fragment, error) {
	f := Fragment{At: -1}
	fragment = strings.TrimPrefix(fragment, "#")
	if fragment == "" {
		return f, nil
	}
	parts := strings.Split(fragment, "&")
	// The first part is the link unless it is a parameter. A link may end
	// in base64's '=' padding, so one that starts with a version ("v1.")
	// is the link whatever it holds.
	if _, isLink := linkVersion(parts[0]); isLink || !strings.Contains(parts[0], "=") {
		f.Link, parts = parts[0], parts[1:]
		if strings.Contains(f.Link, "#") {
			return Fragment{At: -1}, fmt.Errorf("link has a stray '#' in %q", clip(f.Link))
		}
	}
	if len(parts) > maxFragmentParams {
		return Fragment{At: -1}, fmt.Errorf("link has %d parameters; at most %d are read", len(parts), maxFragmentParams)
	}
	for _, part := range parts {
		name, value, ok := strings.Cut(part, "=")
		if !ok || name == "" {
			return Fragment{At: -1}, fmt.Errorf("link parameter %q should be name=value", clip(part))
		}
		switch name {
		case "at":
			n, err := strconv.Atoi(value)
			if err != nil || n < 0 || n > MaxCommands {
				return Fragment{At: -1}, fmt.Errorf("link parameter at=%q should be a step number from 0 to %d", clip(value), MaxCommands)
			}
			f.At = n
		case "branch":
			at, link, _ := strings.Cut(value, ".")
			n, err := strconv.Atoi(at)
			if err != nil || n < 0 || n > MaxCommands || !strings.HasPrefix(link, "v1.") {
				return Fragment{At: -1}, fmt.Errorf("link parameter branch=%q should be a step number, '.' and a link (v1.…)", clip(value))
			}
			f.BranchAt, f.Branch = n, link
		case "lesson":
			// A lesson's name is a slug, which has no '.'; a lesson link
			// (package lesson) starts with its version, "v1.".
			if value == "" || len(value) > 64 && !strings.HasPrefix(value, LinkPrefix) {
				return Fragment{At: -1}, fmt.Errorf("link parameter lesson=%q should name a lesson or hold a lesson link (v1.…)", clip(value))
			}
			f.Lesson = value
		case "embed", "readonly", "present", "play":
			on, err := parseFlag(value)
			if err != nil {
				return Fragment{At: -1}, fmt.Errorf("link parameter %s=%q %v", name, clip(value), err)
			}
			switch name {
			case "embed":
				f.Embed = on
			case "readonly":
				f.ReadOnly = on
			case "present":
				f.Present = on
			default:
				f.Play = on
			}
		case "loop":
			f.Loop = clip(value)
		case "theme":
			f.Theme = clip(value)
		default:
			f.Unknown = append(f.Unknown, clip(part))
		}
	}
	return f, nil
}

func parseFlag(value string) (bool, error) {
	switch value {
	case "1", "true":
		return true, nil
	case "0", "false":
		return false, nil
	}
	return false, fmt.Errorf("should be 1 or 0")
}

// clip shortens text from a link for an error message.
func clip(s string) string {
	const max = 40
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}

// String writes the fragment (without '#') in canonical order: the link,
// then at, branch, lesson, embed, readonly, present, play, loop, theme. Unknown
// parameters are dropped.
func (f Fragment) String() string {
	var parts []string
	if f.Link != "" {
		parts = append(parts, f.Link)
	}
	if f.At >= 0 {
		parts = append(parts, "at="+strconv.Itoa(f.At))
	}
	if f.Branch != "" {
		parts = append(parts, "branch="+strconv.Itoa(f.BranchAt)+"."+f.Branch)
	}
	if f.Lesson != "" {
		parts = append(parts, "lesson="+f.Lesson)
	}
	if f.Embed {
		parts = append(parts, "embed=1")
	}
	if f.ReadOnly {
		parts = append(parts, "readonly=1")
	}
	if f.Present {
		parts = append(parts, "present=1")
	}
	if f.Play {
		parts = append(parts, "play=1")
	}
	if f.Loop != "" {
		parts = append(parts, "loop="+f.Loop)
	}
	if f.Theme != "" {
		parts = append(parts, "theme="+f.Theme)
	}
	return strings.Join(parts, "&")
}
