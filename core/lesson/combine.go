package lesson

import (
	"fmt"
	"slices"
	"strings"

	"plog/core/scenario"
)

// A goal line combines checks with and, or, not and parentheses:
//
//	settled billing and expect lag(billing) at-most 3
//	aged-out logs or not truncated logs
//	not (alert ledger or alert audit) and expect members(ledger) at-least 2
//
// not binds tighter than and, and than or, as in Go: a or b and not c is
// a or (b and (not c)). A line is read once into a goalExpr whose leaves
// are its checks; or holds when one of its checks does and and when every
// one does, each looked at in order only as far as the answer needs (a
// check after an or that held, or after an and that failed, is not run,
// and finds nothing for the sentences).

// goalLine is one line of a lesson's ## check section.
type goalLine struct {
	line int    // in the lesson file
	text string // the line as written, for reports
	// optional is set by maybe: the line never stands in the goal's way.
	optional bool
	// label names the line, for the solved: sentence to quote its values
	// as {label.name}; "" for none.
	label string
	// expr is what the line says: its checks, combined.
	expr *goalExpr
	// terms are the line's checks in the order written, the leaves of
	// expr. The line's values are theirs: a name several checks find
	// ({value} of two expect checks) is the first's that finds it.
	terms []*check
	// otherwise, from the indented else: line under it, is what the
	// learner reads when the line does not hold, with {name} the line's
	// values; "" for the words of the check that decided.
	otherwise string
	// otherwiseAt is where otherwise begins in the lesson file.
	otherwiseAt struct{ line, col int }
	// quotes are the functions otherwise quotes, {hw(orders/0)}, read
	// once, by their text.
	quotes map[string]term
	// controls are the controls otherwise names (sentence.go).
	controls []ControlRef
}

// goalOp is what a node of a line's tree does.
type goalOp int

const (
	termOp goalOp = iota // one check
	notOp                // holds when its one operand does not
	andOp                // holds when each of its operands does
	orOp                 // holds when one of its operands does
)

// goalExpr is a node of a goal line's tree.
type goalExpr struct {
	op   goalOp
	term *check      // termOp's check
	kids []*goalExpr // notOp's one operand; andOp's and orOp's two or more
}

// and is the word between two checks that must both hold.
const and = "and"

// eval runs the node's checks as far as its answer needs. A negated
// check that holds says so, in its own words, as what must change; or
// says the words of the operand that held, or of its first when none did;
// and says those of the first operand that did not hold, or all of theirs
// when each did.
func (e *goalExpr) eval(x *ctx) Result {
	switch e.op {
	case notOp:
		r := e.kids[0].eval(x)
		if r.Solved {
			return pending("it must not be so, and it is: %s", r.Progress)
		}
		return solved("as it must be, not so: %s", r.Progress)
	case orOp:
		first := e.kids[0].eval(x)
		for _, k := range e.kids[1:] {
			if first.Solved {
				break
			}
			if r := k.eval(x); r.Solved {
				return r
			}
		}
		return first
	case andOp:
		var said []string
		for _, k := range e.kids {
			r := k.eval(x)
			if !r.Solved {
				return r
			}
			said = append(said, strings.TrimSuffix(r.Progress, "."))
		}
		return solved("%s", strings.Join(said, "; "))
	}
	return e.term.runOne(x)
}

// valueNames are the values a line's checks find, each once, in the
// order of its checks.
func (g *goalLine) valueNames() []string {
	var names []string
	for _, t := range g.terms {
		for _, v := range t.spec.values {
			if !slices.Contains(names, v) {
				names = append(names, v)
			}
		}
	}
	return names
}

// noValue says what is wrong with a line's sentence quoting {name}, ""
// when one of its checks finds it.
func (g *goalLine) noValue(name string) string {
	if len(g.terms) == 1 {
		if s := g.terms[0].spec; !slices.Contains(s.values, name) {
			return fmt.Sprintf("%s has no value {%s}; %s", s.name, name, valueList(s))
		}
		return ""
	}
	names := g.valueNames()
	switch {
	case slices.Contains(names, name):
		return ""
	case len(names) == 0:
		return fmt.Sprintf("no check of the line has a value {%s}; they have none to quote", name)
	}
	return fmt.Sprintf("no check of the line has a value {%s}; they have {%s}", name, strings.Join(names, "}, {"))
}

// value is what the line found for {name}: the first of its checks that
// finds such a value says it ("" when that check found none, or did not
// run).
func (g *goalLine) value(x *ctx, name string) string {
	for _, t := range g.terms {
		if slices.Contains(t.spec.values, name) {
			return x.values[t][name]
		}
	}
	return ""
}

// goalReader reads a line's words, after its label and maybe, into its
// tree.
type goalReader struct {
	toks  []checkToken
	i     int
	n     int // the file's line
	terms []*check
}

// readGoal reads the words of a goal line into its tree and its checks.
func readGoal(toks []checkToken, n int) (*goalExpr, []*check, error) {
	r := &goalReader{toks: toks, n: n}
	e, err := r.or()
	if err != nil {
		return nil, nil, err
	}
	if r.i < len(toks) {
		// Only an unmatched ) stops or() before the end.
		return nil, nil, r.fail(toks[r.i], "this ) closes no (")
	}
	return e, r.terms, nil
}

func (r *goalReader) fail(t checkToken, msg string) error {
	return &scenario.Error{Line: r.n, Col: t.col, Msg: msg}
}

// peek is the next word, and whether there is one.
func (r *goalReader) peek() (checkToken, bool) {
	if r.i < len(r.toks) {
		return r.toks[r.i], true
	}
	return checkToken{}, false
}

// isWord reports whether t is the operator word (or parenthesis) w.
func isWord(t checkToken, w string) bool {
	if w == "(" || w == ")" {
		return t.paren && t.text == w
	}
	return !t.paren && !t.quoted && t.text == w
}

func (r *goalReader) or() (*goalExpr, error) {
	return r.list(or, orOp, r.and)
}

func (r *goalReader) and() (*goalExpr, error) {
	return r.list(and, andOp, r.unary)
}

// list reads operands joined by the word: a or b or c.
func (r *goalReader) list(word string, op goalOp, operand func() (*goalExpr, error)) (*goalExpr, error) {
	if t, ok := r.peek(); ok && isWord(t, word) {
		return nil, r.fail(t, word+" goes between two checks")
	}
	first, err := operand()
	if err != nil {
		return nil, err
	}
	e := first
	for {
		t, ok := r.peek()
		if !ok || !isWord(t, word) {
			return e, nil
		}
		r.i++
		if next, ok := r.peek(); !ok || isWord(next, ")") || isWord(next, or) || isWord(next, and) {
			return nil, r.fail(t, word+" goes between two checks")
		}
		k, err := operand()
		if err != nil {
			return nil, err
		}
		if e == first {
			e = &goalExpr{op: op, kids: []*goalExpr{first}}
		}
		e.kids = append(e.kids, k)
	}
}

func (r *goalReader) unary() (*goalExpr, error) {
	t, _ := r.peek()
	switch {
	case isWord(t, not):
		r.i++
		next, ok := r.peek()
		switch {
		case !ok || isWord(next, ")") || isWord(next, or) || isWord(next, and):
			return nil, r.fail(t, "not what? write a check after not, such as not alert analytics")
		case isWord(next, not):
			return nil, r.fail(next, "not not: write the check itself")
		}
		k, err := r.unary()
		if err != nil {
			return nil, err
		}
		return &goalExpr{op: notOp, kids: []*goalExpr{k}}, nil
	case isWord(t, "("):
		r.i++
		if next, ok := r.peek(); !ok {
			return nil, r.fail(t, "this ( is never closed: write ) after the checks it groups")
		} else if isWord(next, ")") {
			return nil, r.fail(t, "( ) groups no check: write checks between them")
		}
		e, err := r.or()
		if err != nil {
			return nil, err
		}
		if next, ok := r.peek(); !ok || !isWord(next, ")") {
			return nil, r.fail(t, "this ( is never closed: write ) after the checks it groups")
		}
		r.i++
		return e, nil
	case isWord(t, maybe):
		return nil, r.fail(t, "maybe goes at the start of the line, before its first check")
	}
	return r.term()
}

// term reads one check: its name and arguments, up to an operator or a
// parenthesis that closes.
func (r *goalReader) term() (*goalExpr, error) {
	start := r.i
	if t, ok := r.peek(); !ok || isWord(t, ")") {
		if ok {
			return nil, r.fail(t, "this ) closes no (")
		}
		return nil, r.fail(r.toks[len(r.toks)-1], "the line ends where a check should be")
	}
	for r.i < len(r.toks) {
		t := r.toks[r.i]
		if isWord(t, or) || isWord(t, and) || isWord(t, ")") {
			break
		}
		if isWord(t, "(") {
			return nil, r.fail(t, "( goes before a check, not among its arguments: group checks as (a or b) and c")
		}
		r.i++
	}
	c, err := buildCheck(r.toks[start:r.i], r.n)
	if err != nil {
		return nil, err
	}
	c.col = r.toks[start].col
	r.terms = append(r.terms, c)
	return &goalExpr{op: termOp, term: c}, nil
}
