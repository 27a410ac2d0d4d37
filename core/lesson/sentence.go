package lesson

import (
	"strings"
	"unicode/utf8"

	"plog/core/scenario"
)

// A line's else: sentence and the solved: sentence may name the control
// the learner is to press next as a hint does (controls.go),
//
//	else: balances still holds every record written to it: [compact it](control:run-cleaner balances)
//
// so that the progress line the learner reads after every action points
// at it too, long before the hint that would. The page draws the label as
// the hint's button; Result.Progress, which the CLI and the golden files
// print, holds the label alone. A link is read with the hints' own reader
// when the file is read, an unknown control or a wrong thing an error at
// its [; its label and its thing may quote values, {member}, filled in
// when the sentence shows. A [part] of the sentence may hold a link, and
// shows or not as a whole.

// sentenceLink reads the control link at the start of s, which begins
// with [: the control and the link's length; 0 when the [ opens a [part]
// instead, or a message for a wrong link.
func sentenceLink(s string) (Inline, int, string) {
	end := strings.IndexAny(s[1:], "[]") + 1
	if end == 0 || s[end] != ']' || !strings.HasPrefix(s[end+1:], "(") {
		return Inline{}, 0, ""
	}
	link, n, msg := readLink(s, end)
	if msg == "" && link.Kind == InlineLink {
		return Inline{}, 0, "a sentence's link names a control of the page, [label](control:NAME); it opens no address"
	}
	return link, n, msg
}

// sentenceControls reads the controls a sentence names; the sentence is
// at line:col of the file.
func sentenceControls(tmpl string, line, col int) ([]ControlRef, error) {
	var refs []ControlRef
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '[' {
			continue
		}
		link, n, msg := sentenceLink(tmpl[i:])
		at := col + utf8.RuneCountInString(tmpl[:i])
		if msg != "" {
			return nil, &scenario.Error{Line: line, Col: at, Msg: msg}
		}
		if n > 0 {
			link.Control.line, link.Control.col = line, at
			refs = append(refs, link.Control)
			i += n - 1
		}
	}
	return refs, nil
}

// nextPart finds a sentence's first [part]: its [ and its ], the control
// links before it and in it passed over; -1 when it has none.
func nextPart(tmpl string) (open, end int) {
	open = -1
	for i := 0; i < len(tmpl); i++ {
		switch {
		case tmpl[i] == ']' && open >= 0:
			return open, i
		case tmpl[i] != '[':
		case linkLen(tmpl[i:]) > 0:
			i += linkLen(tmpl[i:]) - 1
		case open < 0:
			open = i
		}
	}
	return -1, -1
}

// linkLen is the length of the control link at the start of s, 0 for
// none.
func linkLen(s string) int {
	_, n, _ := sentenceLink(s)
	return n
}

// fill fills a sentence whose [parts] are settled: as plain text, each
// control's label in its place, and as text and the controls it names,
// nil when it names none.
func fill(shown string, value func(label, name string) string) (string, []Inline) {
	var doc []Inline
	controls := false
	text := func(s string) {
		if s == "" {
			return
		}
		if k := len(doc) - 1; k >= 0 && doc[k].Kind == InlineText {
			doc[k].Text += s
			return
		}
		doc = append(doc, Inline{Kind: InlineText, Text: s})
	}
	last := 0
	for i := 0; i < len(shown); i++ {
		if shown[i] != '[' {
			continue
		}
		link, n, _ := sentenceLink(shown[i:])
		if n == 0 {
			continue
		}
		text(expand(shown[last:i], value))
		link.Text = expand(link.Text, value)
		// A thing quoted that has no value now, or one of several
		// words, points nowhere: the label is text.
		ref, msg := parseControl(expand(link.Control.String(), value))
		if msg != "" || link.Text == "" {
			text(link.Text)
		} else {
			link.Control = ref
			doc = append(doc, link)
			controls = true
		}
		i += n - 1
		last = i + 1
	}
	text(expand(shown[last:], value))
	if !controls {
		return Plain(doc), nil
	}
	return Plain(doc), doc
}
