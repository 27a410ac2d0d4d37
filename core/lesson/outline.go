package lesson

import (
	"slices"
	"strings"
)

// An Outline cuts a lesson file into the parts a teacher edits one at a
// time (the page's lesson editor shows each as a field): the header's
// values, the explanation, and each section's body. It reads any text and
// never fails: Parse says what is wrong with a file; the outline only
// finds its parts, as Parse does (a header of key: value lines up to the
// first blank line, the explanation up to the first "## " line, a section
// from each "## " line to the next).
//
// Changing one part rewrites only that part's lines, so a file the editor
// opens and saves unchanged comes back byte for byte, its comments, line
// breaks and order kept.
type Outline struct {
	lines []string
	parts []Part
}

// Part is one part of a lesson file.
type Part struct {
	Kind PartKind
	// Name is the header key or the section's name; "" for the
	// explanation.
	Name string
	// Index counts the sections of one name before this one: the wrong
	// attempts are wrong 0, wrong 1, and so on.
	Index int
	// first and end are the part's lines, [first, end): a header value's
	// key line and the indented lines it goes on over; a section's body,
	// after its "## " line.
	first, end int
	// heading is a section's "## " line, -1 for other parts.
	heading int
}

// PartKind says what a part of a lesson file is.
type PartKind int

const (
	PartHeader  PartKind = iota // a key: value line of the header
	PartText                    // the explanation, Markdown
	PartSection                 // a ## section's body
)

// ReadOutline finds the parts of a lesson file's text.
func ReadOutline(text string) Outline {
	o := Outline{lines: strings.Split(strings.ReplaceAll(strings.TrimPrefix(text, "\uFEFF"), "\r\n", "\n"), "\n")}
	i := 0
	for ; i < len(o.lines); i++ {
		line := o.lines[i]
		if strings.TrimSpace(line) == "" {
			if len(o.parts) > 0 {
				break
			}
			continue
		}
		key, _, ok := strings.Cut(line, ":")
		if strings.HasPrefix(line, "## ") || !ok || !slices.Contains(headerKeys, strings.TrimSpace(key)) {
			break
		}
		first := i
		for i+1 < len(o.lines) && strings.TrimSpace(o.lines[i+1]) != "" && strings.TrimLeft(o.lines[i+1], " \t") != o.lines[i+1] {
			i++
		}
		o.parts = append(o.parts, Part{Kind: PartHeader, Name: strings.TrimSpace(key), first: first, end: i + 1, heading: -1})
	}
	textStart := i
	for i < len(o.lines) && !strings.HasPrefix(o.lines[i], "## ") {
		i++
	}
	o.parts = append(o.parts, Part{Kind: PartText, first: textStart, end: i, heading: -1})
	seen := map[string]int{}
	for i < len(o.lines) {
		heading := i
		name := strings.TrimSpace(strings.TrimPrefix(o.lines[i], "## "))
		i++
		for i < len(o.lines) && !strings.HasPrefix(o.lines[i], "## ") {
			i++
		}
		o.parts = append(o.parts, Part{Kind: PartSection, Name: name, Index: seen[name], first: heading + 1, end: i, heading: heading})
		seen[name]++
	}
	return o
}

// Text is the file's text.
func (o Outline) Text() string { return strings.Join(o.lines, "\n") }

// Parts are the file's parts, in the file's order.
func (o Outline) Parts() []Part { return slices.Clone(o.parts) }

// Find returns the part of a kind, name and index, and whether the file
// has it.
func (o Outline) Find(kind PartKind, name string, index int) (Part, bool) {
	i := slices.IndexFunc(o.parts, func(p Part) bool { return p.Kind == kind && p.Name == name && p.Index == index })
	if i < 0 {
		return Part{}, false
	}
	return o.parts[i], true
}

// Count is how many sections of a name the file has.
func (o Outline) Count(name string) int {
	n := 0
	for _, p := range o.parts {
		if p.Kind == PartSection && p.Name == name {
			n++
		}
	}
	return n
}

// Value is a part's text as a teacher edits it: a header value with the
// lines it goes on over joined by spaces; the explanation or a section's
// body without blank lines at either end.
func (o Outline) Value(p Part) string {
	if p.Kind == PartHeader {
		var words []string
		for i := p.first; i < p.end; i++ {
			line := o.lines[i]
			if i == p.first {
				_, line, _ = strings.Cut(line, ":")
			}
			words = append(words, strings.TrimSpace(line))
		}
		return strings.Join(words, " ")
	}
	lo, hi := p.first, p.end
	for lo < hi && strings.TrimSpace(o.lines[lo]) == "" {
		lo++
	}
	for hi > lo && strings.TrimSpace(o.lines[hi-1]) == "" {
		hi--
	}
	return strings.Join(o.lines[lo:hi], "\n")
}

// LineOf returns the part a file line (1-based) is in, and the line's
// place within the part's value (1-based); false for a heading or a
// header line between parts.
func (o Outline) LineOf(line int) (Part, int, bool) {
	at := line - 1
	for _, p := range o.parts {
		if at < p.first || at >= p.end {
			continue
		}
		if p.Kind == PartHeader {
			return p, 1, true
		}
		lo := p.first
		for lo < p.end && strings.TrimSpace(o.lines[lo]) == "" {
			lo++
		}
		return p, max(at-lo, 0) + 1, true
	}
	return Part{}, 0, false
}

// Set returns the file's text with one part's value replaced, or added
// when the file has no such part (a header line after the header's last,
// a section at the end), or taken out when value is blank and the part is
// a header value or a section. Every other line stays as it was.
func (o Outline) Set(kind PartKind, name string, index int, value string) string {
	value = strings.Trim(strings.ReplaceAll(value, "\r\n", "\n"), "\n")
	blank := strings.TrimSpace(value) == ""
	p, ok := o.Find(kind, name, index)
	var repl []string
	switch {
	case kind == PartHeader:
		if !blank {
			repl = []string{name + ": " + strings.Join(strings.Fields(value), " ")}
		}
		if !ok {
			p = Part{first: o.headerEnd(), end: o.headerEnd()}
		}
	case !ok && blank:
		return o.Text()
	case !ok:
		// A new section goes at the end, after one blank line.
		lines := slices.Clone(o.lines)
		for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
			lines = lines[:len(lines)-1]
		}
		lines = append(lines, "", "## "+name)
		lines = append(lines, strings.Split(value, "\n")...)
		return strings.Join(append(lines, ""), "\n")
	case blank && kind == PartSection:
		p.first = p.heading // the heading goes with its body
	default:
		// The explanation keeps a blank line after the header, and each
		// part one before the next (or the file's last newline).
		repl = strings.Split(value, "\n")
		if kind == PartText {
			repl = append([]string{""}, repl...)
		}
		repl = append(repl, "")
	}
	lines := slices.Concat(o.lines[:p.first], repl, o.lines[p.end:])
	return strings.Join(lines, "\n")
}

// headerEnd is the line after the header's last value.
func (o Outline) headerEnd() int {
	end := 0
	for _, p := range o.parts {
		if p.Kind == PartHeader {
			end = p.end
		}
	}
	return end
}
