package lesson

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"plog/core/scenario"
	"plog/core/units"
)

// A lesson file is plain text a teacher writes in an editor (docs/lessons.md,
// "Writing a lesson"): a header of `key: value` lines, the explanation in
// Markdown, then sections, each under a `## NAME` line:
//
//	name: key-order
//	title: Same key, same partition
//	goal: Produce acct-1's events so that they sit in one partition, in order.
//
//	A topic is split into partitions ... (paragraphs, lists)
//
//	## start
//	seed 1
//	topic orders partitions=4
//
//	## check
//	in-order orders acct-1 created updated shipped
//
//	## hints
//	- In Produce, type `acct-1` as the key ...
//
//	## solution
//	produce orders key=acct-1 value=created
//
//	## wrong
//	produce orders key=acct-1 value=created partition=0
//
// A lesson may have several ## wrong sections, one per misconception.
// start, solution and wrong are in the scenario language; check is in the
// check language (checks.go). Errors name the file's line and column, as
// the scenario language's do.

// Limits on a lesson file, which may come from anyone (a link, a paste):
// they bound what parsing and checking it may cost.
const (
	MaxFileBytes = 64 << 10
	MaxHints     = 20
	MaxChecks    = 40
	// MaxWrongAttempts bounds the ## wrong sections, each a replay of
	// the start that `plogsim lesson check` runs.
	MaxWrongAttempts = 8
	MaxTitle         = 200 // characters
)

// headerKeys are the header's keys, in the order they are written.
var headerKeys = []string{"name", "title", "goal", "solved", "hide"}

// Giveaways are what the page shows that would give a lesson's answer
// away, which a lesson's hide: line hides until it is solved.
type Giveaway string

const (
	// GiveawaySkew is each topic's skew and its hot partition's flag:
	// the answer to "find the hot partition".
	GiveawaySkew Giveaway = "skew"
)

// giveaways are the words hide: takes.
var giveaways = []string{string(GiveawaySkew)}

// sectionNames are the sections, in the order they are written.
var sectionNames = []string{"start", "check", "hints", "solution", "wrong"}

// Parse reads a lesson file. file names it (a path or a file name); a
// lesson without a name: line takes its name from it, without a leading
// "NN-" that orders files and without the .lesson extension.
func Parse(file, text string) (Lesson, error) {
	if len(text) > MaxFileBytes {
		return Lesson{}, fmt.Errorf("a lesson file holds at most %d bytes; this one has %d", MaxFileBytes, len(text))
	}
	if !utf8.ValidString(text) {
		return Lesson{}, &scenario.Error{Line: invalidUTF8Line(text), Col: 1, Msg: "the file is not UTF-8 text"}
	}
	lines := fileLines(text)
	for i, line := range lines {
		if len(line) > scenario.MaxLineBytes {
			return Lesson{}, &scenario.Error{Line: i + 1, Col: 1, Msg: fmt.Sprintf("line longer than %d bytes", scenario.MaxLineBytes)}
		}
	}
	l := Lesson{ID: textID(text)}
	header, i, err := readHeader(lines)
	if err != nil {
		return Lesson{}, err
	}
	l.Name = nameOf(file, header)
	if !isSlug(l.Name) {
		return Lesson{}, &scenario.Error{Line: 1, Col: 1, Msg: fmt.Sprintf("the lesson's name %q is not a slug (lower-case words joined by -): give one with name:", l.Name)}
	}
	l.Title, l.Goal, l.SolvedText = header["title"], header["goal"], header["solved"]
	if hide := header["hide"]; hide != "" {
		at := slices.IndexFunc(lines, func(s string) bool { return strings.HasPrefix(s, "hide:") }) + 1
		for _, word := range strings.FieldsFunc(hide, func(r rune) bool { return r == ',' || r == ' ' }) {
			if !slices.Contains(giveaways, word) {
				return Lesson{}, &scenario.Error{Line: at, Col: strings.Index(lines[at-1], word) + 1, Msg: unknownWord("give-away to hide", word, giveaways)}
			}
			l.Hides = append(l.Hides, Giveaway(word))
		}
	}
	for _, key := range []string{"title", "goal"} {
		if header[key] == "" {
			return Lesson{}, &scenario.Error{Line: max(i, 1), Col: 1, Msg: fmt.Sprintf("the header has no %s: line", key)}
		}
	}
	// The goal is a run of Markdown's inlines, as the explanation's are.
	goalAt := slices.IndexFunc(lines, func(s string) bool { return strings.HasPrefix(s, "goal:") }) + 1
	goal := &span{}
	goal.add(l.Goal, goalAt, len("goal:")+2)
	if l.GoalDoc, err = parseInlines(goal); err != nil {
		return Lesson{}, err
	}
	if n := utf8.RuneCountInString(l.Title); n > MaxTitle {
		return Lesson{}, &scenario.Error{Line: 1, Col: 1, Msg: fmt.Sprintf("the title has %d characters; at most %d", n, MaxTitle)}
	}

	// The explanation runs to the first section.
	textStart := i
	for i < len(lines) && !strings.HasPrefix(lines[i], "## ") {
		i++
	}
	if l.Doc, l.Text, err = parseBlocks(lines[textStart:i], textStart+1); err != nil {
		return Lesson{}, err
	}
	if len(l.Doc) == 0 {
		return Lesson{}, &scenario.Error{Line: textStart + 1, Col: 1, Msg: "the lesson has no explanation: write it in paragraphs after the header"}
	}

	// The sections.
	seen := map[string]int{}
	for i < len(lines) {
		name := strings.TrimSpace(strings.TrimPrefix(lines[i], "## "))
		at := i + 1
		if !slices.Contains(sectionNames, name) {
			return Lesson{}, &scenario.Error{Line: at, Col: 4, Msg: unknownWord("section", name, sectionNames)}
		}
		// A lesson may say several wrong attempts, one per misconception.
		if prev, dup := seen[name]; dup && name != "wrong" {
			return Lesson{}, &scenario.Error{Line: at, Col: 4, Msg: fmt.Sprintf("section %s is given twice (first on line %d)", name, prev)}
		}
		seen[name] = at
		i++
		bodyStart := i
		for i < len(lines) && !strings.HasPrefix(lines[i], "## ") {
			i++
		}
		body := lines[bodyStart:i]
		if err := l.section(name, body, bodyStart+1); err != nil {
			return Lesson{}, err
		}
	}
	for _, name := range []string{"start", "check", "hints"} {
		if _, ok := seen[name]; !ok {
			return Lesson{}, &scenario.Error{Line: len(lines), Col: 1, Msg: fmt.Sprintf("the lesson has no ## %s section", name)}
		}
	}
	if err := l.checkSolvedText(lines); err != nil {
		return Lesson{}, err
	}
	return l, nil
}

// IsFile reports whether text is written as a lesson file rather than a
// scenario: its first line that is not blank is a header line, "key:
// value" with a key of the header's. No command of the scenario language
// has a colon in its first word, so the two are never taken for each
// other; a file that IsFile is not is read as a scenario.
func IsFile(text string) bool {
	for _, line := range fileLines(text) {
		if strings.TrimSpace(line) == "" {
			continue
		}
		key, _, ok := strings.Cut(line, ":")
		return ok && slices.Contains(headerKeys, strings.TrimSpace(key))
	}
	return false
}

// fileLines are a lesson file's lines, without a byte order mark, whether
// they end in \n or \r\n.
func fileLines(text string) []string {
	return strings.Split(strings.ReplaceAll(strings.TrimPrefix(text, "\uFEFF"), "\r\n", "\n"), "\n")
}

// readHeader reads a lesson file's header, its key: value lines up to the
// first blank line or section, and says where it ends.
func readHeader(lines []string) (header map[string]string, end int, err error) {
	header = map[string]string{}
	i := 0
	for ; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "" {
			if len(header) > 0 {
				break
			}
			continue
		}
		if strings.HasPrefix(line, "## ") {
			break
		}
		key, value, ok := strings.Cut(line, ":")
		key = strings.TrimSpace(key)
		if !ok || strings.ContainsAny(key, " \t") {
			if len(header) == 0 {
				return nil, 0, &scenario.Error{Line: i + 1, Col: 1, Msg: "a lesson file begins with its header, lines such as \"title: Same key, same partition\""}
			}
			return nil, 0, &scenario.Error{Line: i + 1, Col: 1, Msg: "the header's lines are key: value; a blank line ends the header"}
		}
		if !slices.Contains(headerKeys, key) {
			return nil, 0, &scenario.Error{Line: i + 1, Col: 1, Msg: unknownWord("header key", key, headerKeys)}
		}
		if _, dup := header[key]; dup {
			return nil, 0, &scenario.Error{Line: i + 1, Col: 1, Msg: fmt.Sprintf("%s: is given twice", key)}
		}
		// A value goes on over the indented lines below it.
		parts := []string{strings.TrimSpace(value)}
		for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && strings.TrimLeft(lines[i+1], " \t") != lines[i+1] {
			i++
			parts = append(parts, strings.TrimSpace(lines[i]))
		}
		header[key] = strings.Join(parts, " ")
		if header[key] == "" {
			return nil, 0, &scenario.Error{Line: i + 1, Col: len(key) + 2, Msg: fmt.Sprintf("%s: has no value", key)}
		}
	}
	return header, i, nil
}

// nameOf is a lesson's name: its header's name:, else its file's name.
func nameOf(file string, header map[string]string) string {
	if name := header["name"]; name != "" {
		return name
	}
	return nameFromFile(file)
}

// checkSolvedText validates the solved: sentence's placeholders: each
// {label.name} names a labelled check's value.
func (l *Lesson) checkSolvedText(lines []string) error {
	at := slices.IndexFunc(lines, func(s string) bool { return strings.HasPrefix(s, "solved:") })
	if at < 0 || l.SolvedText == "" {
		return nil
	}
	l.lines.solved = at + 1
	l.solvedQuotes = map[string]term{}
	var err error
	if l.solvedControls, err = sentenceControls(l.SolvedText, at+1, len("solved:")+2); err != nil {
		return err
	}
	return checkTemplate(l.SolvedText, at+1, len("solved:")+2, func(label, name string) string {
		if isQuote(name) {
			return readQuote(l.solvedQuotes, name)
		}
		if label == "" {
			return fmt.Sprintf("{%s} names no line: write {LABEL.%s}, with the label of a check line (LABEL: check ...)", name, name)
		}
		for i := range l.checks {
			if l.checks[i].label == label {
				return l.checks[i].noValue(name)
			}
		}
		return fmt.Sprintf("no check line has the label %s", label)
	})
}

// section reads one section's lines; first is the file line of body[0].
func (l *Lesson) section(name string, body []string, first int) error {
	switch name {
	case "start", "solution", "wrong":
		script, line, err := scriptOf(body, first)
		if err != nil {
			return err
		}
		switch name {
		case "start":
			if script == "" {
				return &scenario.Error{Line: first - 1, Col: 1, Msg: "the start is empty: write the starting scenario in the scenario language"}
			}
			l.Script, l.lines.start = script, line
		case "solution":
			l.Solution, l.lines.solution = script, line
		case "wrong":
			if script == "" {
				return &scenario.Error{Line: first - 1, Col: 1, Msg: "the wrong attempt is empty: write the commands of a plausible attempt that does not solve the lesson, or leave the section out"}
			}
			if len(l.WrongAttempts) == MaxWrongAttempts {
				return &scenario.Error{Line: first - 1, Col: 1, Msg: fmt.Sprintf("a lesson has at most %d wrong attempts", MaxWrongAttempts)}
			}
			l.WrongAttempts = append(l.WrongAttempts, script)
			l.lines.wrong = append(l.lines.wrong, line)
		}
	case "check":
		checks, err := parseChecks(body, first)
		if err != nil {
			return err
		}
		if len(checks) == 0 {
			return &scenario.Error{Line: first - 1, Col: 1, Msg: "the check section is empty: write one check a line"}
		}
		l.checks = checks
	case "hints":
		blocks, texts, err := parseBlocks(body, first)
		if err != nil {
			return err
		}
		for bi, b := range blocks {
			if b.Items == nil {
				return &scenario.Error{Line: first + blockLine(body, bi), Col: 1, Msg: "a hint is a list item: begin it with \"- \""}
			}
		}
		for _, b := range blocks {
			l.HintDocs = append(l.HintDocs, b.Items...)
		}
		// Hints keep their source text, each item's lines joined.
		for _, t := range texts {
			l.Hints = append(l.Hints, strings.TrimPrefix(t, "• "))
		}
		if len(l.Hints) == 0 {
			return &scenario.Error{Line: first - 1, Col: 1, Msg: "the hints section is empty: write each hint as a list item, \"- ...\""}
		}
		if len(l.Hints) > MaxHints {
			return &scenario.Error{Line: first - 1, Col: 1, Msg: fmt.Sprintf("%d hints; a lesson has at most %d", len(l.Hints), MaxHints)}
		}
	}
	return nil
}

// blockLine returns the index in body of the first line of the block-th
// block (blocks are separated by blank lines or begin with a list marker).
func blockLine(body []string, block int) int {
	n := -1
	inBlock := false
	for i, line := range body {
		t := strings.TrimSpace(line)
		if t == "" {
			inBlock = false
			continue
		}
		if m, _ := listMarker(t); !inBlock || m > 0 {
			n++
			inBlock = true
			if n == block {
				return i
			}
		}
	}
	return 0
}

// scriptOf returns a script section's text, its blank lines at either end
// dropped, and the file line of its first line, and checks that it parses;
// errors name the file's lines.
func scriptOf(body []string, first int) (string, int, error) {
	lo, hi := 0, len(body)
	for lo < hi && strings.TrimSpace(body[lo]) == "" {
		lo++
	}
	for hi > lo && strings.TrimSpace(body[hi-1]) == "" {
		hi--
	}
	if lo == hi {
		return "", 0, nil
	}
	script := strings.Join(body[lo:hi], "\n") + "\n"
	if _, err := scenario.Parse(script); err != nil {
		if perr, ok := err.(*scenario.Error); ok {
			return "", 0, &scenario.Error{Line: perr.Line + first + lo - 1, Col: perr.Col, Msg: perr.Msg}
		}
		return "", 0, err
	}
	return script, first + lo, nil
}

// nameFromFile makes a lesson's name from its file's: "01-key-order.lesson"
// is key-order.
func nameFromFile(file string) string {
	name := strings.TrimSuffix(path.Base(strings.ReplaceAll(file, "\\", "/")), ".lesson")
	if len(name) > 3 && name[0] >= '0' && name[0] <= '9' && name[1] >= '0' && name[1] <= '9' && name[2] == '-' {
		name = name[3:]
	}
	return name
}

// isSlug reports whether s is lower-case words of letters and digits
// joined by single hyphens, beginning with a letter.
func isSlug(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'a' || s[0] > 'z' || strings.HasSuffix(s, "-") || strings.Contains(s, "--") {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

// unknownWord says that word is not one of known, suggesting the nearest.
func unknownWord(what, word string, known []string) string {
	best, bestDist := "", -1
	for _, k := range known {
		if d := units.EditDistance(word, k); bestDist < 0 || d < bestDist {
			best, bestDist = k, d
		}
	}
	if bestDist >= 0 && bestDist <= max(2, len(best)/3) {
		return fmt.Sprintf("unknown %s %q; did you mean %q?", what, word, best)
	}
	return fmt.Sprintf("unknown %s %q; the %ss are %s", what, word, what, strings.Join(known, ", "))
}

func invalidUTF8Line(text string) int {
	line := 1
	for i := 0; i < len(text); {
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			return line
		}
		if r == '\n' {
			line++
		}
		i += size
	}
	return line
}
