// Package lesson holds plog's lessons: short scenarios that teach one idea
// of the partitioned log by doing. Each lesson has a starting scenario, an
// explanation in plain words, a goal the engine checks against the state
// after every action, hints that unlock one at a time and name the page's
// controls, a reference solution and a plausible wrong attempt that one of
// its hints describes.
//
// A lesson is a plain text file (file.go): a teacher writes one in an
// editor, and the built-in lessons are such files, embedded (files/). Its
// goal is said in the check language (checks.go).
//
// A goal reads the state the scenario made (records, offsets, groups,
// rebalances, deliveries, and where it must, the events of replaying the
// script), never the text of the script: any sequence of commands that
// reaches the state solves the lesson.
//
// The package is pure and deterministic like core: the same session always
// gets the same Result, natively and in WebAssembly.
package lesson

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	"plog/core"
	"plog/core/scenario"
	"plog/core/units"
)

// Lesson is one lesson. Its fields are text for the page and the CLI; its
// goal is checked by Check.
type Lesson struct {
	// Name is the stable slug used in links and in `plogsim lesson NAME`.
	Name string
	// ID is short and stable, a digest of the lesson file's text: one
	// edit makes another lesson. The page's solved message carries it, so
	// that a course page can keep which lesson a learner solved.
	ID    string
	Title string
	// Text explains the idea in short paragraphs: the Markdown source of
	// each of Doc's blocks, its lines joined (a list's items each one
	// entry, after "• "). Commands and configs are written between
	// backquotes, which a page may show as code.
	Text []string
	// Doc is Text parsed: paragraphs and lists of plain text, emphasis,
	// code and links (markdown.go), for a page to build its own elements
	// from, never HTML.
	Doc []Block
	// Goal says in one sentence what solves the lesson.
	Goal string
	// GoalDoc is Goal parsed, as Doc is Text.
	GoalDoc []Inline
	// Hides are what the page must not show until the lesson is solved
	// (a hide: line): the very thing the learner is to find.
	Hides []Giveaway
	// SolvedText, when set, is what the learner reads once the goal holds,
	// in the lesson's own words; without it they read what each check
	// found.
	SolvedText string
	// Script is the starting scenario in the scenario language.
	Script string
	// Hints unlock one at a time, the first the gentlest. They say which
	// of the page's controls to use, not which line to write.
	Hints []string
	// HintDocs are the hints parsed, as Doc is Text.
	HintDocs [][]Inline
	// Solution is a reference solution: lines appended to Script.
	Solution string
	// WrongAttempts are plausible attempts that do not solve the lesson,
	// each lines appended to Script: a teacher writes one per
	// misconception (a ## wrong section each), and the hints describe
	// them.
	WrongAttempts []string

	// checks are the goal in the check language (checks.go).
	checks []goalLine
	// solvedQuotes are the functions SolvedText quotes, {lag(billing)},
	// read once, by their text.
	solvedQuotes map[string]term
	// solvedControls are the controls SolvedText names.
	solvedControls []ControlRef
	// lines holds where each script begins in the lesson's file, for
	// Verify's reports; 0 for a script the file has not.
	lines struct {
		start, solution int
		solved          int   // the solved: line
		wrong           []int // one for each of WrongAttempts
	}
}

// Result is the goal's status after an action.
type Result struct {
	Solved bool
	// Progress is one sentence: what is still missing, or when solved,
	// what the learner achieved.
	Progress string
	// ProgressDoc is Progress as text and the controls it names (an
	// else: or solved: sentence's [label](control:NAME), sentence.go),
	// for a page to draw them as a hint's; nil when it names none.
	ProgressDoc []Inline
}

// All returns the lessons in teaching order, each parsed in full (a
// built-in file that does not parse is left out, and a test keeps every
// one parsing).
func All() []Lesson {
	var out []Lesson
	for _, b := range builtins() {
		if l, err := b.parse(); err == nil {
			out = append(out, l)
		}
	}
	return out
}

// Entry is a built-in lesson as a list of them shows it.
type Entry struct {
	Name, Title string
}

// Catalogue lists the built-in lessons in teaching order, by name and
// title, without parsing them.
func Catalogue() []Entry {
	all := builtins()
	out := make([]Entry, len(all))
	for i, b := range all {
		out[i] = b.Entry
	}
	return out
}

// files holds the built-in lessons, one lesson file each (file.go), named
// NN-NAME.lesson so that their order is the teaching order.
//
//go:embed files/*.lesson
var files embed.FS

// builtin is a built-in lesson: its name and title, read from its file's
// header the first time a lesson is asked for, and the lesson, parsed in full the first
// time it is asked for. Parsing all 21 files took the page's start 42 ms
// and 1.7 MB under wasm (BENCHMARKS.md, after the wasm's last byte), where
// the lesson list needs only the names and titles and a learner opens one
// lesson at a time.
type builtin struct {
	Entry
	parse func() (Lesson, error)
}

// builtins are the built-in lessons in teaching order (fs.ReadDir sorts
// the files by name). A file whose header does not read is left out. The
// headers are read the first time a lesson is asked for: as the package
// started, reading them was 12 ms of the page's first task in the browser.
var builtins = sync.OnceValue(readBuiltins)

func readBuiltins() []builtin {
	entries, _ := fs.ReadDir(files, "files")
	var out []builtin
	for _, e := range entries {
		data, err := files.ReadFile("files/" + e.Name())
		if err != nil {
			continue
		}
		file, text := e.Name(), string(data)
		header, _, err := readHeader(fileLines(text))
		if err != nil {
			continue
		}
		out = append(out, builtin{
			Entry: Entry{Name: nameOf(file, header), Title: header["title"]},
			parse: sync.OnceValues(func() (Lesson, error) {
				l, err := Parse(file, text)
				if err != nil {
					return Lesson{}, fmt.Errorf("%s: %w", file, err)
				}
				return l, nil
			}),
		})
	}
	return out
}

// Find returns the built-in lesson with the given name. For an unknown
// name the error suggests the nearest one.
func Find(name string) (Lesson, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	for _, b := range builtins() {
		if b.Name == name || b.Name == key {
			return b.parse()
		}
	}
	best, bestDist := "", -1
	for _, b := range builtins() {
		if d := units.EditDistance(key, b.Name); bestDist < 0 || d < bestDist {
			best, bestDist = b.Name, d
		}
	}
	if bestDist <= max(2, len(best)/3) || strings.Contains(best, key) && key != "" {
		return Lesson{}, fmt.Errorf("no lesson named %q; did you mean %q?", name, best)
	}
	return Lesson{}, fmt.Errorf("no lesson named %q; the lessons are %s", name, strings.Join(Names(), ", "))
}

// Names lists the built-in lessons' names in teaching order.
func Names() []string {
	all := builtins()
	names := make([]string, len(all))
	for i, b := range all {
		names[i] = b.Name
	}
	return names
}

// Start returns a session with the lesson's starting scenario applied.
func (l Lesson) Start() (*scenario.Session, error) {
	s, err := scenario.Load(l.Script)
	if err != nil {
		return nil, fmt.Errorf("lesson %s: starting scenario: %w", l.Name, err)
	}
	return s, nil
}

// Attempt starts the lesson and applies a learner's script to it. The
// script holds the lines the learner added after the start. A script whose
// first command is `seed` is the whole scenario instead (as a share link or
// `plogsim run` holds it): it must begin with the lesson's start, and the
// lines after it are applied. Errors name the script's own lines.
func (l Lesson) Attempt(script string) (*scenario.Session, error) {
	cmds, err := scenario.Parse(script)
	if err != nil {
		return nil, err
	}
	return l.attempt(cmds, len(cmds) > 0 && cmds[0].Name == scenario.CmdSeed)
}

// attemptWhole is Attempt of a whole scenario, as a page link holds it,
// whatever its first command.
func (l Lesson) attemptWhole(script string) (*scenario.Session, error) {
	cmds, err := scenario.Parse(script)
	if err != nil {
		return nil, err
	}
	return l.attempt(cmds, true)
}

// attempt applies a learner's commands to the lesson's start: the lines
// after it, or when whole, the whole scenario, start included.
func (l Lesson) attempt(cmds []scenario.Command, whole bool) (*scenario.Session, error) {
	start, err := scenario.Parse(l.Script)
	if err != nil {
		return nil, fmt.Errorf("lesson %s: starting scenario: %w", l.Name, err)
	}
	rules := 0 // the whole scenario's rules line, which its link writes
	if whole {
		rules, cmds = withoutRules(cmds)
		_, start = withoutRules(start)
		for i, c := range start {
			if i >= len(cmds) {
				line := 1
				if len(cmds) > 0 {
					line = cmds[len(cmds)-1].Line
				}
				return nil, &scenario.Error{Line: line, Col: 1,
					Msg: fmt.Sprintf("the script ends inside the lesson's start, which goes on with %q", c.String())}
			}
			if !cmds[i].Equal(c) {
				return nil, &scenario.Error{Line: cmds[i].Line, Col: 1,
					Msg: fmt.Sprintf("the lesson's start has %q here, not %q", c.String(), cmds[i].String())}
			}
		}
		cmds = cmds[len(start):]
	}
	s, err := l.Start()
	if err != nil {
		return nil, err
	}
	if rules != 0 && rules != s.Rules() {
		if err := s.UseRules(rules); err != nil {
			return s, err
		}
	}
	for _, c := range cmds {
		if _, err := s.ApplyCommand(c); err != nil {
			return s, err
		}
	}
	return s, nil
}

// withoutRules returns the version of a script's rules line (0 for none)
// and its other commands: the rules line is the scenario's, not a step of
// its history (scenario.Session.Rules).
func withoutRules(cmds []scenario.Command) (int, []scenario.Command) {
	rules, steps := 0, make([]scenario.Command, 0, len(cmds))
	for _, c := range cmds {
		if c.Name == scenario.CmdRules {
			n, _ := c.CountAt(0)
			rules = int(n)
			continue
		}
		steps = append(steps, c)
	}
	return rules, steps
}

// Check checks the lesson's goal against a session: the state its applied
// commands made, which must begin with the lesson's start. It never panics.
func (l Lesson) Check(s *scenario.Session) Result {
	r, _ := l.checkGoal(s)
	return r
}

// checkGoal is Check, and also returns the goal's line that does not
// hold (nil when every line holds, or when the session is not on top of
// the lesson's start).
func (l Lesson) checkGoal(s *scenario.Session) (r Result, failed *goalLine) {
	r, failed, _ = l.goal(s)
	return r, failed
}

// goal is checkGoal, and also returns what the goal read (nil when it read
// nothing), whose values its sentences quoted.
func (l Lesson) goal(s *scenario.Session) (r Result, failed *goalLine, x *ctx) {
	defer func() {
		if p := recover(); p != nil {
			r, failed, x = Result{Progress: fmt.Sprintf("the goal of lesson %s could not be checked: internal error: %v", l.Name, p)}, nil, nil
		}
	}()
	if s == nil || len(l.checks) == 0 {
		return Result{Progress: "no scenario to check"}, nil, nil
	}
	start, mismatch := l.startMismatch(s)
	if mismatch != "" {
		return Result{Progress: mismatch}, nil, nil
	}
	x = &ctx{lesson: &l, s: s, log: s.Log(), startLen: len(start)}
	r, i := evaluate(x, l.checks)
	if x.replays > maxReplays {
		return Result{Progress: fmt.Sprintf("this lesson's goal is not checked: it would replay the script more than %d times after each action (its checks of what happened in order: ask fewer of them)", maxReplays)}, nil, nil
	}
	if i >= 0 {
		failed = &l.checks[i]
	} else if l.SolvedText != "" {
		r.Progress, r.ProgressDoc = expandSolved(l.SolvedText, x, l.checks)
	}
	return r, failed, x
}

// Begins reports whether a session's applied commands begin with the
// lesson's start, so that its goal can be checked on it.
func (l Lesson) Begins(s *scenario.Session) bool {
	if s == nil {
		return false
	}
	_, mismatch := l.startMismatch(s)
	return mismatch == ""
}

// startMismatch says how a session's applied commands do not begin with
// the lesson's start, "" when they do, and returns the start's commands.
func (l Lesson) startMismatch(s *scenario.Session) ([]scenario.Command, string) {
	start, err := scenario.Parse(l.Script)
	if err != nil {
		return nil, fmt.Sprintf("lesson %s: starting scenario: %v", l.Name, err)
	}
	applied := s.Lines()[:s.Position()]
	_, start = withoutRules(start)
	for i, c := range start {
		if i >= len(applied) {
			return start, fmt.Sprintf("only %d of the %d commands of the lesson's start are applied: step forward to continue", len(applied), len(start))
		}
		if applied[i] != c.String() {
			return start, fmt.Sprintf("command %d of the script, %q, differs from the lesson's start, %q: reload the lesson to start again", i+1, applied[i], c.String())
		}
	}
	return start, ""
}

// ctx is what a goal reads: the learner's session and, on demand, the
// state right after the lesson's start and a replay of the script.
type ctx struct {
	lesson   *Lesson
	s        *scenario.Session
	log      core.ReadOnlyLog
	startLen int // commands in the lesson's start
	base     core.ReadOnlyLog
	// values holds what each check found (ctx.keep), for the sentences
	// of else: and solved: to quote.
	values map[*check]map[string]string
	holds  map[*goalLine]bool     // the lines that held
	events map[string]*core.Event // firstEvent's finds
	// ahead is the next minute as the running workloads would make it.
	ahead    core.ReadOnlyLog
	aheadErr error
	deployed map[string]*deploy // deployOf's replay
	// histories holds history's replays, by topic.
	histories map[string]replicationHistory
	// producerLog holds producerEvents' replay.
	producerLog []core.Event
	// shares holds shareHistory's replays, by share group.
	shares map[string]*shareHistory
	// replays counts the replays of the script asked for; past
	// maxReplays, replay does nothing and the goal is not checked.
	replays int
	// unfilled are the values the sentences shown quoted and had not.
	unfilled []unfilledValue
	// quoteErrs says why a function a sentence quoted had no value, by
	// its text.
	quoteErrs map[string]string
	// timelineEvents holds timeline's replay: every event since the lesson's
	// start.
	timelineEvents []stepEvent
}

// maxReplays bounds the replays of the script one check of a goal makes.
// Each replay costs as much as the scenario did (scenario.MaxWork bounds
// that), and a goal runs after every action; a lesson file from a link may
// ask for many checks that each replay (MaxChecks), so they are bounded
// together. The built-in lessons need at most two.
const maxReplays = 4

// baseline returns the engine as the lesson's start left it.
func (c *ctx) baseline() core.ReadOnlyLog {
	if c.base == nil {
		s, err := scenario.Load(c.lesson.Script)
		if err != nil {
			c.base = core.NewPartitionedLog(0)
		} else {
			c.base = s.Log()
		}
	}
	return c.base
}

// replay applies the session's script again from the beginning and calls
// visit after each command with its 1-based step, the engine (to read, not
// keep) and the command's events. It is how a goal sees the order in which
// things happened: when an alert lit, why a segment went.
func (c *ctx) replay(visit func(step int, l core.ReadOnlyLog, events []core.Event)) {
	if c.replays++; c.replays > maxReplays {
		return
	}
	cmds, err := scenario.Parse(c.s.Script())
	if err != nil {
		return
	}
	r := scenario.NewSession()
	for i, cmd := range cmds {
		events, err := r.ApplyCommand(cmd)
		if err != nil {
			return
		}
		visit(i+1, r.Log(), events)
	}
}

// group returns a group's view, and false when there is no such group.
func (c *ctx) group(name string) (core.GroupView, bool) {
	v, err := c.log.Group(name)
	return v, err == nil
}

// records returns every record a partition retains, nil for none.
func (c *ctx) records(topic string, partition int) []core.Record {
	rs, _ := c.log.Records(topic, partition)
	return rs
}

// partitions returns a topic's partition count, 0 for no such topic.
func (c *ctx) partitions(topic string) int {
	n, _ := c.log.Partitions(topic)
	return n
}

// pending is a sentence of a check that does not hold yet. It may name
// the control to press as an else: sentence does, [label](control:NAME
// THING), read as else: sentences are (fill): the page draws the control
// as a hint's button, and Progress keeps its label.
func pending(format string, args ...any) Result {
	text := fmt.Sprintf(format, args...)
	if !strings.Contains(text, "](control:") {
		return Result{Progress: text}
	}
	r := Result{}
	r.Progress, r.ProgressDoc = fill(text, func(label, name string) string { return "{" + name + "}" })
	return r
}

func solved(format string, args ...any) Result {
	return Result{Solved: true, Progress: fmt.Sprintf(format, args...)}
}
