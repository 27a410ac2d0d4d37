package scenario

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"plog/core/units"
)

// MaxCommands is the most commands one script may hold. It bounds what a
// shared link can ask of the page, and is well above what a lesson or a
// session of clicking produces.
const MaxCommands = 20_000

// MaxLineBytes is the longest line the parser reads.
const MaxLineBytes = 4096

// Error is a problem in a script, at a line and column (both from 1; the
// column counts characters, not bytes).
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string {
	return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, e.Msg)
}

// Command is one parsed line of a scenario.
type Command struct {
	Name string
	// Args in canonical order: positionals, name=value arguments in the
	// command's order, configs sorted by name, then flags (for reset, the
	// flags come right after the positionals).
	// Values are canonical (durations in their largest exact unit, ...).
	Args []Arg
	Line int // 1-based line in the script it came from; 0 if built in code
	Col  int // column of the command name

	endCol int // column just after the line's last argument, for "missing" errors
}

// Arg is one argument of a command.
type Arg struct {
	Name  string // "" for a positional; the flag's word; the name of name=value
	Value string // the value; "" for a flag
	Flag  bool
	Col   int // column where the argument starts

	// typed is Value read as the grammar's kind says, filled by the
	// parser; an Arg built in code has none, and the accessors (Count,
	// Duration, ...) read its Value.
	typed value
}

// Positional returns the text of the i-th positional argument (from 0),
// or "" when there is none.
func (c Command) Positional(i int) string {
	a, _ := c.positionalArg(i)
	return a.Value
}

// Value returns the value of the name=value argument called name.
func (c Command) Value(name string) (string, bool) {
	a, ok := c.arg(name)
	return a.Value, ok
}

// HasFlag reports whether the flag word is present.
func (c Command) HasFlag(flag string) bool {
	a, ok := c.arg(flag)
	return ok && a.Flag
}

func (c Command) arg(name string) (Arg, bool) {
	for _, a := range c.Args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

// String is the command's canonical line. A positional that is one of the
// command's flag words is quoted: unquoted, the parser would read it as the
// flag (produce tombstone key=k is a tombstone to no topic).
func (c Command) String() string {
	spec := specByName[c.Name]
	var b strings.Builder
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		switch {
		case a.Flag:
			b.WriteString(a.Name)
		case a.Name == "" && spec != nil && spec.isFlagWord(a.Value):
			b.WriteString(strconv.Quote(a.Value))
		case a.Name == "":
			b.WriteString(quoteIfNeeded(a.Value, true))
		default:
			b.WriteString(a.Name)
			b.WriteByte('=')
			b.WriteString(quoteIfNeeded(a.Value, false))
		}
	}
	return b.String()
}

// Equal reports whether two commands say the same thing (positions aside).
func (c Command) Equal(d Command) bool {
	if c.Name != d.Name || len(c.Args) != len(d.Args) {
		return false
	}
	for i, a := range c.Args {
		b := d.Args[i]
		if a.Name != b.Name || a.Value != b.Value || a.Flag != b.Flag {
			return false
		}
	}
	return true
}

// quoteIfNeeded quotes a value that would not read back as one word: empty,
// with spaces, quotes, backslashes, control or non-printing characters, a
// leading '#' (a comment), or, for a positional, an '=' (a name=value).
func quoteIfNeeded(s string, positional bool) string {
	if s == "" || s[0] == '#' || (positional && strings.Contains(s, "=")) {
		return strconv.Quote(s)
	}
	for _, r := range s {
		if r == '"' || r == '\\' || r == ' ' || !strconv.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// Format writes commands as a canonical script: one command a line, each
// ending with a newline.
func Format(cmds []Command) string {
	var b strings.Builder
	for _, c := range cmds {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Parse reads a script. Blank lines and comments (from a '#' that begins a
// word to the end of the line) are skipped. The first problem found is
// returned as an *Error with its line and column.
func Parse(text string) ([]Command, error) { return parse(text, nil) }

// parse is Parse that calls pause, when it is not nil, after each command.
func parse(text string, pause func()) ([]Command, error) {
	var cmds []Command
	rules := 0 // the rules line is the scenario's, not one of its commands
	err := eachCommand(text, func(c Command) error {
		if c.Name == CmdRules {
			rules++
		}
		if len(cmds) == MaxCommands+min(rules, 1) {
			return &Error{Line: c.Line, Col: 1, Msg: fmt.Sprintf("a script may hold at most %d commands", MaxCommands)}
		}
		cmds = append(cmds, c)
		if pause != nil {
			pause()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return cmds, nil
}

// byteOrderMark is what some editors (Notepad among them) write at the
// start of a UTF-8 file.
const byteOrderMark = "\uFEFF"

// eachCommand parses text line by line (a line ends with "\n" or "\r\n")
// and calls f with each command, stopping at the first error, its own or
// f's. A byte-order mark at the start of the text is skipped: a .plog saved
// by such an editor reads as the script it holds.
func eachCommand(text string, f func(c Command) error) error {
	text = strings.TrimPrefix(text, byteOrderMark)
	lineNo := 0
	for len(text) > 0 {
		lineNo++
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		c, ok, err := ParseLine(strings.TrimSuffix(line, "\r"), lineNo)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if err := f(c); err != nil {
			return err
		}
	}
	return nil
}

// ParseLine reads one line (lineNo is used in errors). ok is false for a
// blank or comment-only line.
func ParseLine(line string, lineNo int) (c Command, ok bool, err error) {
	if len(line) > MaxLineBytes {
		return Command{}, false, &Error{Line: lineNo, Col: 1, Msg: fmt.Sprintf("line is longer than %d bytes", MaxLineBytes)}
	}
	if !utf8.ValidString(line) {
		i := 0
		for i < len(line) {
			r, size := utf8.DecodeRuneInString(line[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return Command{}, false, &Error{Line: lineNo, Col: utf8.RuneCountInString(line[:i]) + 1, Msg: "text is not valid UTF-8"}
	}
	var room [8]token // most lines fit: no allocation for the tokens
	toks, endCol, err := tokenize(room[:0], line, lineNo)
	if err != nil || len(toks) == 0 {
		return Command{}, false, err
	}
	c, err = build(toks, lineNo, endCol)
	return c, err == nil, err
}

// token is one word of a line.
type token struct {
	name    string // for name=value
	value   string // unquoted
	named   bool
	quoted  bool
	col     int // column of the token's start
	textCol int // column of the value (after "name=")
}

// tokenize splits a line into words, name=value pairs and quoted strings,
// appended to toks.
func tokenize(toks []token, line string, lineNo int) ([]token, int, error) {
	i := 0
	ascii := isASCII(line)
	col := func(byteIndex int) int {
		if ascii {
			return byteIndex + 1
		}
		return utf8.RuneCountInString(line[:byteIndex]) + 1
	}
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) || line[i] == '#' {
			return toks, col(len(strings.TrimRight(line[:i], " \t"))), nil
		}
		t := token{col: col(i)}
		// A name=value starts with a bare name followed by '='.
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' && line[j] != '=' && line[j] != '"' {
			j++
		}
		if j < len(line) && line[j] == '=' {
			if j == i {
				return nil, 0, &Error{Line: lineNo, Col: t.col, Msg: "expected a name before '='"}
			}
			t.named, t.name = true, line[i:j]
			i = j + 1
		}
		t.textCol = col(i)
		if i < len(line) && line[i] == '"' {
			end, err := closingQuote(line, i)
			if err != nil {
				return nil, 0, &Error{Line: lineNo, Col: t.textCol, Msg: err.Error()}
			}
			v, err := strconv.Unquote(line[i:end])
			if err != nil {
				return nil, 0, &Error{Line: lineNo, Col: t.textCol, Msg: "invalid escape in quoted text " + line[i:end]}
			}
			if !utf8.ValidString(v) {
				return nil, 0, &Error{Line: lineNo, Col: t.textCol, Msg: "quoted text is not valid UTF-8 once its escapes are read"}
			}
			t.value, t.quoted = v, true
			i = end
			if i < len(line) && line[i] != ' ' && line[i] != '\t' {
				return nil, 0, &Error{Line: lineNo, Col: col(i), Msg: "expected a space after the closing quote"}
			}
		} else {
			valueStart := i
			for i < len(line) && line[i] != ' ' && line[i] != '\t' {
				if line[i] == '"' {
					return nil, 0, &Error{Line: lineNo, Col: col(i), Msg: "a quote may only start a value; quote the whole value"}
				}
				i++
			}
			t.value = line[valueStart:i]
		}
		toks = append(toks, t)
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// closingQuote returns the index just after the quote closing the string
// that opens at line[open].
func closingQuote(line string, open int) (int, error) {
	for i := open + 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			return i + 1, nil
		}
	}
	return 0, fmt.Errorf("quoted text is not closed")
}

// build checks tokens against the command's spec and makes the Command.
func build(toks []token, lineNo, endCol int) (Command, error) {
	head := toks[0]
	c := Command{Line: lineNo, Col: head.col, endCol: endCol}
	if head.named || head.quoted {
		return c, &Error{Line: lineNo, Col: head.col, Msg: "expected a command name, one of " + strings.Join(CommandNames(), ", ")}
	}
	spec, ok := specByName[head.value]
	if !ok {
		return c, &Error{Line: lineNo, Col: head.col, Msg: fmt.Sprintf("unknown command %q%s", head.value, suggest(head.value, CommandNames()))}
	}
	c.Name = spec.name
	errf := func(col int, format string, args ...any) error {
		return &Error{Line: lineNo, Col: col, Msg: fmt.Sprintf(format, args...)}
	}

	// Room on the stack for the arguments of most lines.
	var positionalRoom, flagsRoom [2]Arg
	var namedRoom [8]Arg
	positional, flags, named := positionalRoom[:0], flagsRoom[:0], namedRoom[:0]
	var configs []Arg
	for _, t := range toks[1:] {
		if !t.named {
			// A bare word fills the next required positional even when
			// it is spelled like a flag: flags come after the positionals,
			// so produce tombstone key=k is a record for topic tombstone
			// (as Format wrote such a line before it quoted the name).
			if free := len(positional) < len(spec.positional) && len(flags) == 0; free && (!isFlag(spec, t) || !spec.positional[len(positional)].optional) {
				ps := spec.positional[len(positional)]
				v, typed, err := readArg(ps, t.value)
				if err != nil {
					return c, errf(t.col, "%s: %v", ps.name, err)
				}
				positional = append(positional, Arg{Value: v, Col: t.col, typed: typed})
				continue
			}
			if isFlag(spec, t) {
				if hasArg(flags, t.value) {
					return c, errf(t.col, "%s is given twice", t.value)
				}
				flags = append(flags, Arg{Name: t.value, Flag: true, Col: t.col})
				continue
			}
			if len(positional) < len(spec.positional) {
				return c, errf(t.col, "%s: expected %s here; usage: %s", spec.name, spec.positional[len(positional)].name, spec.usage)
			}
			return c, errf(t.col, "unexpected argument %q for %s%s; usage: %s", t.value, spec.name, suggest(t.value, argNames(spec, values(positional))), spec.usage)
		}
		if hasArg(named, t.name) || hasArg(configs, t.name) {
			return c, errf(t.col, "%s= is given twice", t.name)
		}
		if as, ok := findSpec(spec.named, t.name); ok {
			v, typed, err := readArg(as, t.value)
			if err != nil {
				return c, errf(t.textCol, "%s: %v", t.name, err)
			}
			named = append(named, Arg{Name: t.name, Value: v, Col: t.col, typed: typed})
			continue
		}
		if spec.configs != nil {
			if as, ok := findSpec(spec.configs(values(positional)), t.name); ok {
				for _, other := range configs {
					if o, _ := findSpec(spec.configs(values(positional)), other.Name); o.config() == as.config() {
						return c, errf(t.col, "%s= and %s= set one config (%s), given twice", other.Name, t.name, as.config())
					}
				}
				v, typed, err := readArg(as, t.value)
				if err != nil {
					return c, errf(t.textCol, "%s: %v", t.name, err)
				}
				configs = append(configs, Arg{Name: t.name, Value: v, Col: t.col, typed: typed})
				continue
			}
		}
		return c, errf(t.col, "unknown argument %s= for %s%s; usage: %s", t.name, spec.name, suggest(t.name, argNames(spec, values(positional))), spec.usage)
	}
	for i, ps := range spec.positional {
		if i >= len(positional) && !ps.optional {
			return c, errf(endCol, "%s needs a %s; usage: %s", spec.name, ps.name, spec.usage)
		}
	}
	for _, as := range spec.named {
		if as.required && !hasArg(named, as.name) {
			return c, errf(endCol, "%s needs %s=; usage: %s", spec.name, as.name, spec.usage)
		}
	}

	// Canonical order: positionals, flags and named arguments in the spec's
	// order, configs sorted by name.
	c.Args = make([]Arg, 0, len(toks)-1)
	orderedFlags := make([]Arg, 0, len(flagsRoom))
	for _, f := range spec.flags {
		if a, ok := findArg(flags, f); ok {
			orderedFlags = append(orderedFlags, a)
		}
	}
	c.Args = append(c.Args, positional...)
	if spec.flagsFirst {
		c.Args = append(c.Args, orderedFlags...)
	}
	for _, as := range spec.named {
		if a, ok := findArg(named, as.name); ok {
			c.Args = append(c.Args, a)
		}
	}
	slices.SortFunc(configs, func(a, b Arg) int { return strings.Compare(a.Name, b.Name) })
	c.Args = append(c.Args, configs...)
	if !spec.flagsFirst {
		c.Args = append(c.Args, orderedFlags...)
	}
	if spec.check != nil {
		if err := spec.check(&c); err != nil {
			return c, err
		}
	}
	return c, nil
}

// values returns the values of args.
func values(args []Arg) []string {
	vs := make([]string, len(args))
	for i, a := range args {
		vs[i] = a.Value
	}
	return vs
}

// isFlag reports whether a token reads as one of the command's flags: a
// quoted word never does.
func isFlag(spec *commandSpec, t token) bool {
	return !t.quoted && spec.isFlagWord(t.value)
}

// isFlagWord reports whether word is one of the command's flags.
func (spec *commandSpec) isFlagWord(word string) bool {
	return slices.Contains(spec.flags, word)
}

func hasArg(args []Arg, name string) bool {
	_, ok := findArg(args, name)
	return ok
}

func findArg(args []Arg, name string) (Arg, bool) {
	for _, a := range args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}

func findSpec(specs []argSpec, name string) (argSpec, bool) {
	for _, s := range specs {
		if s.name == name {
			return s, true
		}
	}
	return argSpec{}, false
}

// argNames lists every flag and argument name a command takes, for
// suggestions.
func argNames(spec *commandSpec, positional []string) []string {
	names := append([]string(nil), spec.flags...)
	for _, a := range spec.named {
		names = append(names, a.name)
	}
	if spec.configs != nil {
		for _, a := range spec.configs(positional) {
			names = append(names, a.name)
		}
	}
	return names
}

// suggest returns ` (did you mean "x"?)` for the candidate nearest to word,
// or "" when none is near enough to be a likely typo.
func suggest(word string, candidates []string) string {
	best, bestDist := "", -1
	for _, c := range candidates {
		d := units.EditDistance(word, c)
		if bestDist < 0 || d < bestDist {
			best, bestDist = c, d
		}
	}
	limit := len([]rune(word))/3 + 1
	if limit < 2 {
		limit = 2
	}
	if bestDist < 0 || bestDist > limit || bestDist == len([]rune(word)) {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
