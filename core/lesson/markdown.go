package lesson

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"plog/core/scenario"
)

// A lesson's explanation and hints are written in a small subset of
// Markdown: paragraphs, lists (- or 1.), *emphasis*, **strong**, `code` and
// [links](https://…). It is parsed into a structure, never into HTML, so
// that whatever shows it builds its own elements and no text of a lesson
// file reaches a page as markup: a < or & is a character like any other.

// Block is a paragraph, or a list when Items is set.
type Block struct {
	// Inlines is a paragraph's text; nil for a list.
	Inlines []Inline
	// Items are a list's items, each a run of inlines; nil for a paragraph.
	Items   [][]Inline
	Ordered bool // a list numbered 1. 2. 3.
}

// InlineKind says what an Inline is.
type InlineKind string

// The kinds of Inline.
const (
	InlineText     InlineKind = "text"
	InlineEmphasis InlineKind = "emphasis" // *text* or _text_
	InlineStrong   InlineKind = "strong"   // **text**
	InlineCode     InlineKind = "code"     // `text`
	InlineLink     InlineKind = "link"     // [text](URL)
	InlineControl  InlineKind = "control"  // [text](control:NAME THING), controls.go
)

// Inline is a run of text of one kind. Text is always plain text; a link's
// address is URL.
type Inline struct {
	Kind InlineKind
	Text string
	URL  string // a link's address: http, https or mailto only
	// Control is the control a hint points at, for InlineControl.
	Control ControlRef
}

// linkSchemes are the addresses a link may have. A link never loads
// anything by itself (no images): the learner follows it, in a new tab.
var linkSchemes = []string{"https://", "http://", "mailto:"}

// span is a block's source: its lines joined by spaces, and where each
// line begins, to turn a place in the joined text back into the file's
// line and column.
type span struct {
	parts []string
	lines []int // file line of each part
	cols  []int // column of each part's first character in its line
}

func (s *span) add(text string, line, col int) {
	s.parts = append(s.parts, text)
	s.lines = append(s.lines, line)
	s.cols = append(s.cols, col)
}

func (s *span) text() string { return strings.Join(s.parts, " ") }

// at returns the file line and column of byte i of text().
func (s *span) at(i int) (int, int) {
	for k, p := range s.parts {
		if i <= len(p) || k == len(s.parts)-1 {
			return s.lines[k], s.cols[k] + utf8.RuneCountInString(p[:min(i, len(p))])
		}
		i -= len(p) + 1
	}
	return 0, 1
}

// parseBlocks parses the Markdown of a lesson's explanation. lines are the
// section's lines and first the file line of lines[0], for errors. It
// returns the blocks and, for each, its source text with its lines joined
// by spaces (a list's items each their own entry, after "• "), as
// Lesson.Text holds it.
func parseBlocks(lines []string, first int) ([]Block, []string, error) {
	var blocks []Block
	var texts []string
	var para, item *span
	var list *Block
	flushItem := func() error {
		if item == nil {
			return nil
		}
		in, err := parseInlines(item)
		if err != nil {
			return err
		}
		list.Items = append(list.Items, in)
		texts = append(texts, "• "+item.text())
		item = nil
		return nil
	}
	flush := func() error {
		if para != nil {
			in, err := parseInlines(para)
			if err != nil {
				return err
			}
			blocks = append(blocks, Block{Inlines: in})
			texts = append(texts, para.text())
			para = nil
		}
		if list != nil {
			if err := flushItem(); err != nil {
				return err
			}
			blocks = append(blocks, *list)
			list = nil
		}
		return nil
	}
	for i, raw := range lines {
		n := first + i
		line := strings.TrimSpace(raw)
		col := utf8.RuneCountInString(raw[:strings.Index(raw, line)]) + 1
		if line == "" {
			if err := flush(); err != nil {
				return nil, nil, err
			}
			continue
		}
		if marker, ordered := listMarker(line); marker > 0 {
			if para != nil {
				if err := flush(); err != nil {
					return nil, nil, err
				}
			}
			if list != nil && list.Ordered != ordered {
				if err := flush(); err != nil {
					return nil, nil, err
				}
			}
			if list == nil {
				list = &Block{Ordered: ordered}
			}
			if err := flushItem(); err != nil {
				return nil, nil, err
			}
			rest := strings.TrimLeft(line[marker:], " ")
			item = &span{}
			item.add(strings.TrimRight(rest, " \t"), n, col+utf8.RuneCountInString(line[:len(line)-len(rest)]))
			continue
		}
		if list != nil && raw != line && item != nil { // an indented line goes on with the item
			item.add(line, n, col)
			continue
		}
		if list != nil {
			if err := flush(); err != nil {
				return nil, nil, err
			}
		}
		if para == nil {
			para = &span{}
		}
		para.add(line, n, col)
	}
	if err := flush(); err != nil {
		return nil, nil, err
	}
	return blocks, texts, nil
}

// listMarker returns the length of a list item's marker ("- ", "* ",
// "1. ") at the start of line, 0 when it has none.
func listMarker(line string) (int, bool) {
	if strings.HasPrefix(line, "- ") || strings.HasPrefix(line, "* ") {
		return 2, false
	}
	digits := 0
	for digits < len(line) && digits < 3 && line[digits] >= '0' && line[digits] <= '9' {
		digits++
	}
	if digits > 0 && strings.HasPrefix(line[digits:], ". ") {
		return digits + 2, true
	}
	return 0, false
}

// parseInlines parses one block's text. A backslash makes the character
// after it plain. Emphasis that is never closed is plain text, as in
// Markdown; an unclosed ` or a link without its address is an error, since
// it hides the writer's intent.
func parseInlines(sp *span) ([]Inline, error) {
	src := sp.text()
	fail := func(i int, msg string) error {
		line, col := sp.at(i)
		return &scenario.Error{Line: line, Col: col, Msg: msg}
	}
	var out []Inline
	var text strings.Builder
	emph := newClosers(src)
	bracket := -1 // the next ] at or after the [ being read
	emit := func(kind InlineKind, s, url string) {
		if text.Len() > 0 {
			out = append(out, Inline{Kind: InlineText, Text: text.String()})
			text.Reset()
		}
		out = append(out, Inline{Kind: kind, Text: s, URL: url})
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\\' && i+1 < len(src):
			_, size := utf8.DecodeRuneInString(src[i+1:])
			text.WriteString(src[i+1 : i+1+size])
			i += 1 + size
			continue
		case c == '`':
			end := strings.IndexByte(src[i+1:], '`')
			if end < 0 {
				return nil, fail(i, "this ` starts code that no ` closes")
			}
			emit(InlineCode, src[i+1:i+1+end], "")
			i += end + 2
			continue
		case c == '[':
			if bracket < i { // the next ], found once for every [ before it
				bracket = len(src)
				if k := strings.IndexByte(src[i:], ']'); k >= 0 {
					bracket = i + k
				}
			}
			link, n, err := readLink(src[i:], bracket-i)
			if err != "" {
				return nil, fail(i, err)
			}
			if n > 0 {
				if link.Kind == InlineControl {
					link.Control.line, link.Control.col = sp.at(i)
				}
				emit(link.Kind, link.Text, link.URL)
				out[len(out)-1].Control = link.Control
				i += n
				continue
			}
		case c == '*' || c == '_':
			delim := string(c)
			kind := InlineEmphasis
			if strings.HasPrefix(src[i:], delim+delim) {
				delim, kind = delim+delim, InlineStrong
			}
			if end := emph.at(i, delim); end > 0 {
				emit(kind, src[i+len(delim):end], "")
				i = end + len(delim)
				continue
			}
			text.WriteString(delim)
			i += len(delim)
			continue
		}
		text.WriteByte(c)
		i++
	}
	if text.Len() > 0 {
		out = append(out, Inline{Kind: InlineText, Text: text.String()})
	}
	return out, nil
}

// closers finds where emphasis closes in one block's text. As in
// Markdown, an opener is followed and a closer preceded by a non-space, an
// _ inside a word (snake_case) is plain, and code is not searched. Each
// kind of delimiter's closers are listed once, so that a block full of
// openers that never close costs a pass, not a pass for each.
type closers struct {
	src    string
	inCode []bool // bytes inside a `code` span
	found  map[string][]int
}

func newClosers(src string) *closers {
	c := &closers{src: src, inCode: make([]bool, len(src)), found: map[string][]int{}}
	for i := 0; i < len(src); i++ {
		if src[i] != '`' {
			continue
		}
		end := strings.IndexByte(src[i+1:], '`')
		if end < 0 {
			break
		}
		for k := i; k <= i+1+end; k++ {
			c.inCode[k] = true
		}
		i += end + 1
	}
	return c
}

// at returns where the emphasis delim opened at src[open] closes, or -1.
func (c *closers) at(open int, delim string) int {
	src := c.src
	start := open + len(delim)
	if start >= len(src) || src[start] == ' ' {
		return -1
	}
	if delim[0] == '_' && open > 0 && isWordByte(src[open-1]) {
		return -1
	}
	list, ok := c.found[delim]
	if !ok {
		for i := 1; i+len(delim) <= len(src); i++ {
			if c.inCode[i] || !strings.HasPrefix(src[i:], delim) || src[i-1] == ' ' {
				continue
			}
			after := i + len(delim)
			if after < len(src) && (src[after] == delim[0] || delim[0] == '_' && isWordByte(src[after])) {
				continue
			}
			list = append(list, i)
		}
		c.found[delim] = list
	}
	if k := sort.SearchInts(list, start+1); k < len(list) {
		return list[k]
	}
	return -1
}

func isWordByte(b byte) bool {
	return b >= 0x80 || unicode.IsLetter(rune(b)) || unicode.IsDigit(rune(b))
}

// parseLink reads [label](url) at the start of s, whose first ] is at end
// (len(s) for none), and returns its length, 0 when s holds no link (a
// bracket in plain text), or a message for a link whose address the page
// must not follow.
func parseLink(s string, end int) (label, url string, n int, msg string) {
	if end >= len(s) || !strings.HasPrefix(s[end+1:], "(") {
		return "", "", 0, ""
	}
	close := strings.IndexByte(s[end+2:], ')')
	if close < 0 {
		return "", "", 0, "this link's address has no closing )"
	}
	label, url = s[1:end], strings.TrimSpace(s[end+2:end+2+close])
	if label == "" {
		return "", "", 0, "this link has no text to click"
	}
	if strings.HasPrefix(url, controlScheme) {
		return label, url, end + 3 + close, ""
	}
	for _, scheme := range linkSchemes {
		if strings.HasPrefix(strings.ToLower(url), scheme) && len(url) > len(scheme) && !strings.ContainsAny(url, " <>\"") {
			return label, url, end + 3 + close, ""
		}
	}
	return "", "", 0, fmt.Sprintf("link address %q: a link must begin with https://, http:// or mailto:, or name a control of the page with control:", url)
}

// readLink reads [label](url) at the start of s, whose first ] is at end,
// into a link or a control (controls.go), and returns its length: 0 when
// s holds no link, or a message for a link or a control that is wrong.
func readLink(s string, end int) (Inline, int, string) {
	label, url, n, msg := parseLink(s, end)
	if n == 0 || msg != "" {
		return Inline{}, 0, msg
	}
	if !strings.HasPrefix(url, controlScheme) {
		return Inline{Kind: InlineLink, Text: label, URL: url}, n, ""
	}
	ref, msg := parseControl(url[len(controlScheme):])
	if msg != "" {
		return Inline{}, 0, msg
	}
	return Inline{Kind: InlineControl, Text: label, Control: ref}, n, ""
}

// Plain writes inlines as plain text, without their marks.
func Plain(in []Inline) string {
	var b strings.Builder
	for _, x := range in {
		b.WriteString(x.Text)
	}
	return b.String()
}
