package lesson

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"plog/core/scenario"
)

func readExample(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/example.lesson")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// Every built-in lesson file reads, and the catalogue holds them all, by
// the names and titles their full parse gives.
func TestBuiltinFilesRead(t *testing.T) {
	for _, b := range builtins() {
		if _, err := b.parse(); err != nil {
			t.Error(err)
		}
	}
	entries, err := files.ReadDir("files")
	if err != nil || len(entries) != len(All()) || len(entries) != len(Catalogue()) {
		t.Fatalf("%d files, %d lessons, %d in the catalogue, %v", len(entries), len(All()), len(Catalogue()), err)
	}
	for i, l := range All() {
		if e := Catalogue()[i]; e.Name != l.Name || e.Title != l.Title {
			t.Errorf("the catalogue's lesson %d is %+v; parsed, it is %q, %q", i+1, e, l.Name, l.Title)
		}
	}
}

// The example of docs/lessons.md's "Writing a lesson" is a lesson file whose
// checks are the language's own, and it passes its own check.
func TestExampleLesson(t *testing.T) {
	l, err := Parse("testdata/example.lesson", readExample(t))
	if err != nil {
		t.Fatal(err)
	}
	if l.Name != "payments-in-order" || l.Title != "Keep a customer's payments in order" ||
		!strings.HasPrefix(l.Goal, "Produce customer cust-7's payments") || !strings.HasSuffix(l.Goal, "read them all and commit.") {
		t.Errorf("header: %q %q %q", l.Name, l.Title, l.Goal)
	}
	if len(l.Doc) != 3 || l.Doc[1].Items == nil || len(l.Doc[1].Items) != 2 || l.Doc[1].Ordered {
		t.Fatalf("doc: %+v", l.Doc)
	}
	kinds := func(in []Inline) string {
		var k []string
		for _, x := range in {
			k = append(k, string(x.Kind))
		}
		return strings.Join(k, " ")
	}
	if got := kinds(l.Doc[0].Inlines); got != "text emphasis text strong text code text" {
		t.Errorf("first paragraph's inlines: %s", got)
	}
	if c := l.Doc[0].Inlines[5]; c.Text != "murmur2(key) % partitions" {
		t.Errorf("code: %+v", c)
	}
	link := l.Doc[2].Inlines[1]
	if link.Kind != InlineLink || link.Text != "topics and partitions" || link.URL != "https://kafka.apache.org/documentation/#intro_concepts_and_terms" {
		t.Errorf("link: %+v", link)
	}
	if len(l.Text) != 4 || l.Text[1] != "• A record without a key goes where the partitioner sticks, with no promise of order." {
		t.Errorf("text: %q", l.Text)
	}
	if len(l.Hints) != 3 || l.Hints[0] != "In Produce, type `cust-7` as the [Key](control:produce-key) and `authorised` as the value and press [Produce](control:produce); then the same key with `captured` and `refunded`." {
		t.Errorf("hints: %q", l.Hints)
	}
	if len(l.HintDocs) != 3 || kinds(l.HintDocs[1]) != "text control text control text" {
		t.Errorf("hint docs: %+v", l.HintDocs)
	}
	if len(l.checks) != 3 || l.checks[0].text != "in-order payments cust-7 authorised captured refunded" || l.checks[0].line != 23 {
		t.Errorf("checks: %+v", l.checks)
	}
	trials := l.Verify()
	if len(trials) != 3 {
		t.Fatalf("%d trials", len(trials))
	}
	for _, tr := range trials {
		if !tr.OK() {
			t.Errorf("%s: %+v", tr.Name, tr)
		}
	}
	if tr := trials[1]; tr.FailedLine != 23 || !strings.Contains(tr.Result.Progress, "cust-7's events are split over partitions 0, 1 and 2") {
		t.Errorf("wrong attempt: %+v", tr)
	}
	if tr := trials[2]; tr.FailedLine != 0 || !strings.HasPrefix(tr.Result.Progress, "cust-7's records sit in payments/") {
		t.Errorf("solution: %+v", tr)
	}
	// solved: says it in the lesson's own words.
	own, err := Parse("x.lesson", strings.Replace(readExample(t), "\n\n", "\nsolved: Every payment of cust-7 in one partition, in order, and read.\n\n", 1))
	if err != nil {
		t.Fatal(err)
	}
	if tr := own.Verify(); tr[2].Result.Progress != "Every payment of cust-7 in one partition, in order, and read." || tr[1].Result.Solved {
		t.Errorf("solved: %+v", tr)
	}
}

// A lesson that goes wrong is told where: the check that fails on the
// solution, a solution that does not apply, a start that solves it.
func TestVerifyFailures(t *testing.T) {
	example := readExample(t)
	for _, tc := range []struct {
		name, from, to, trial string
		line                  int
		want                  string
	}{
		{"the solution forgets its commit", "poll billing b1\ncommit billing b1\n\n## wrong", "poll billing b1\n\n## wrong", "solution", 25,
			"group billing has committed no offset of payments yet"},
		{"the solution does not apply", "poll billing b1\ncommit billing b1\n\n## wrong", "poll billing b9\ncommit billing b1\n\n## wrong", "solution", 38, `the solution: group "billing" has no member "b9"`},
		{"the start takes the page's memory", "join billing b1 topics=payments\nadvance 3s",
			"join billing b1 topics=payments\nproducer p payments rate=1000/s value=" + strings.Repeat("x", 3900) + "\nproducer q payments rate=1000/s value=" + strings.Repeat("y", 3900) +
				"\nproducer r payments rate=1000/s value=" + strings.Repeat("z", 3900) + "\nproducer s payments rate=1000/s value=" + strings.Repeat("w", 3900) +
				"\nproducer u payments rate=1000/s value=" + strings.Repeat("v", 3900) + "\nadvance 100s",
			"start", 25, "memory budget"},
		{"the start solves it", "in-order payments cust-7 authorised captured refunded  # one partition, in this order\nread-all billing payments\nlag-at-most billing 0 topic=payments",
			"read-all billing payments", "start", 0, "group billing received every record of payments"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(example, tc.from) {
				t.Fatalf("the example has no %q", tc.from)
			}
			l, err := Parse("x.lesson", strings.Replace(example, tc.from, tc.to, 1))
			if err != nil {
				t.Fatal(err)
			}
			var got *Trial
			for _, tr := range l.Verify() {
				if tr.Name == tc.trial {
					got = &tr
				}
			}
			if got == nil || got.OK() {
				t.Fatalf("%s passes: %+v", tc.trial, got)
			}
			var perr *scenario.Error
			text := got.Result.Progress
			if got.Err != nil {
				text = got.Err.Error()
				if !errors.As(got.Err, &perr) || perr.Line != tc.line {
					t.Errorf("error at the file's line %d: %v", tc.line, got.Err)
				}
			} else if got.FailedLine != tc.line {
				t.Errorf("failed line %d, want %d", got.FailedLine, tc.line)
			}
			if !strings.Contains(text, tc.want) {
				t.Errorf("got %q, want %q", text, tc.want)
			}
		})
	}
}

// A teacher writes one ## wrong section per misconception: each is a
// trial of its own, and one that solves the goal fails the lesson's check,
// by its number.
func TestSeveralWrongAttempts(t *testing.T) {
	example := readExample(t)
	noCommit := "\n## wrong\nproduce payments key=cust-7 value=authorised\nproduce payments key=cust-7 value=captured\nproduce payments key=cust-7 value=refunded\npoll billing b1\n"
	solves := "\n## wrong\nproduce payments key=cust-7 value=authorised\nproduce payments key=cust-7 value=captured\nproduce payments key=cust-7 value=refunded\npoll billing b1\ncommit billing b1\n"
	l, err := Parse("x.lesson", example+noCommit+solves)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.WrongAttempts) != 3 {
		t.Fatalf("%d wrong attempts", len(l.WrongAttempts))
	}
	var names []string
	ok := map[string]bool{}
	for _, tr := range l.Verify() {
		names = append(names, tr.Name)
		ok[tr.Name] = tr.OK()
	}
	if got := strings.Join(names, ", "); got != "start, wrong attempt 1, wrong attempt 2, wrong attempt 3, solution" {
		t.Fatalf("trials: %s", got)
	}
	if !ok["wrong attempt 1"] || !ok["wrong attempt 2"] || ok["wrong attempt 3"] || !ok["solution"] {
		t.Errorf("trials' verdicts: %v; only the third wrong attempt, which solves it, fails", ok)
	}

	// An empty wrong section says so, and a lesson's wrong attempts are
	// bounded, each a replay the check runs.
	_, err = Parse("x.lesson", example+"\n## wrong\n\n")
	var perr *scenario.Error
	if !errors.As(err, &perr) || !strings.Contains(perr.Msg, "the wrong attempt is empty") || perr.Line != strings.Count(example, "\n")+2 {
		t.Errorf("empty wrong section: %v", err)
	}
	_, err = Parse("x.lesson", example+strings.Repeat(noCommit, MaxWrongAttempts))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d wrong attempts", MaxWrongAttempts)) {
		t.Errorf("%d wrong attempts: %v", MaxWrongAttempts+1, err)
	}
}

// Errors in a lesson file name its line and column, and say what is wrong.
func TestParseErrors(t *testing.T) {
	example := readExample(t)
	for _, tc := range []struct {
		name, from, to string
		line, col      int
		want           string
	}{
		{"unknown header key", "title: Keep", "titel: Keep", 2, 1, `unknown header key "titel"; did you mean "title"?`},
		{"no title", "title: Keep a customer's payments in order\n", "", 0, 1, "the header has no title: line"},
		{"not a header", "name: payments-in-order", "Hello", 1, 1, "a lesson file begins with its header"},
		{"bad name", "name: payments-in-order", "name: Payments", 1, 1, `the lesson's name "Payments" is not a slug`},
		{"unknown section", "## hints", "## hint", 27, 4, `unknown section "hint"; did you mean "hints"?`},
		{"twice", "## wrong", "## start", 41, 4, "section start is given twice (first on line 15)"},
		{"no check", "## check\n", "## notes\n", 22, 4, `unknown section "notes"`},
		{"bad start line", "topic payments partitions=3", "topic payments partitons=3", 17, 16, "partitons"},
		{"bad solution line", "produce payments key=cust-7 value=refunded\npoll", "produce payments key=cust-7 value=refunded tombstone\npoll", 37, 29, "a tombstone has no value"},
		{"unknown check", "read-all billing", "read-al billing", 24, 1, `unknown check "read-al"; did you mean "read-all"?`},
		{"check arguments", "read-all billing payments", "read-all billing", 24, 17, "read-all needs 2 arguments here, not 1 (usage: read-all GROUP TOPIC)"},
		{"check number", "lag-at-most billing 0", "lag-at-most billing none", 25, 21, `"none" is not a whole number`},
		{"check name=value", "topic=payments", "topik=payments", 25, 23, "lag-at-most takes no topik="},
		{"unclosed code", "`murmur2(key) % partitions`", "`murmur2(key) % partitions", 7, 55, "this ` starts code that no ` closes"},
		{"script link", "(https://kafka.apache.org/documentation/#intro_concepts_and_terms)", "(javascript:alert(1))", 13, 39, "a link must begin with https://, http:// or mailto:"},
		{"else first", "## check\nin-order", "## check\n  else: x\nin-order", 23, 1, "an else: line goes under a check, once, indented"},
		{"holds unknown label", "read-all billing payments\n", "read-all billing payments\nholds paid\n", 25, 1, "holds names paid, which labels no line above"},
		{"holds its own label", "read-all billing payments\n", "read-all billing payments\npaid: holds paid\n", 25, 7, "holds names paid, which labels no line above"},
		{"else value", "read-all billing payments\n", "read-all billing payments\n  else: not yet {lag}\n", 25, 17, "read-all has no value {lag}; it has {partition}"},
		{"solved label", "title: Keep", "solved: done {x.rule}\ntitle: Keep", 2, 14, "no check line has the label x"},
		{"solved bare", "title: Keep", "solved: done {rule}\ntitle: Keep", 2, 14, "{rule} names no line"},
		{"label twice", "read-all billing payments\nlag-at-most", "a: read-all billing payments\na: lag-at-most", 25, 1, "the label a names another line already"},
		{"or alone", "read-all billing payments\n", "read-all billing payments or\n", 24, 27, "or goes between two checks"},
		{"else label", "read-all billing payments\n", "read-all billing payments\n  else: {x.lag}\n", 25, 9, "no line above has the label x"},
		{"hint paragraph", "- Then press [Poll]", "Then press [Poll]", 31, 1, "a hint is a list item"},
		{"no explanation", "\n\nEvery payment", "\n## wrong\n\nEvery payment", 5, 1, "the lesson has no explanation"},
		{"hide", "title: Keep", "hide: sekw\ntitle: Keep", 2, 7, `unknown give-away to hide "sekw"; did you mean "skew"?`},
		{"hint code", "then the same key with `captured`", "then the same key with `captured", 29, 77, "this ` starts code that no ` closes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(example, tc.from) {
				t.Fatalf("the example has no %q", tc.from)
			}
			_, err := Parse("example.lesson", strings.Replace(example, tc.from, tc.to, 1))
			var perr *scenario.Error
			if !errors.As(err, &perr) {
				t.Fatalf("no positioned error: %v", err)
			}
			if tc.line > 0 && (perr.Line != tc.line || perr.Col != tc.col) {
				t.Errorf("at %d:%d, want %d:%d: %v", perr.Line, perr.Col, tc.line, tc.col, err)
			}
			if !strings.Contains(perr.Msg, tc.want) {
				t.Errorf("%q does not say %q", perr.Msg, tc.want)
			}
		})
	}
}

// A lesson file may come from anyone: it is bounded in size, in checks and
// in hints, and nothing in it panics the parser.
func TestParseLimits(t *testing.T) {
	example := readExample(t)
	big := example + "\n" + strings.Repeat("x", MaxFileBytes)
	if _, err := Parse("big.lesson", big); err == nil || !strings.Contains(err.Error(), "at most 65536 bytes") {
		t.Errorf("a huge file: %v", err)
	}
	many := strings.Replace(example, "read-all billing payments\n", strings.Repeat("read-all billing payments\n", MaxChecks+1), 1)
	if _, err := Parse("many.lesson", many); err == nil || !strings.Contains(err.Error(), "at most 40 checks") {
		t.Errorf("too many checks: %v", err)
	}
	hints := strings.Replace(example, "## hints\n", "## hints\n"+strings.Repeat("- again\n", MaxHints), 1)
	if _, err := Parse("hints.lesson", hints); err == nil || !strings.Contains(err.Error(), "at most 20") {
		t.Errorf("too many hints: %v", err)
	}
	if _, err := Parse("bad.lesson", "title: \xff\n"); err == nil || !strings.Contains(err.Error(), "not UTF-8") {
		t.Errorf("bad UTF-8: %v", err)
	}
	long := strings.Replace(example, "Every payment", strings.Repeat("word ", scenario.MaxLineBytes/5+1), 1)
	if _, err := Parse("long.lesson", long); err == nil || !strings.Contains(err.Error(), "line 6:1: line longer than 4096 bytes") {
		t.Errorf("a long line: %v", err)
	}
	// Windows line ends and a byte-order mark read the same.
	crlf := "\uFEFF" + strings.ReplaceAll(example, "\n", "\r\n")
	a, err1 := Parse("example.lesson", example)
	b, err2 := Parse("example.lesson", crlf)
	if err1 != nil || err2 != nil || fmt.Sprint(a.Text, a.Hints, a.Script) != fmt.Sprint(b.Text, b.Hints, b.Script) {
		t.Errorf("CRLF: %v %v", err1, err2)
	}
}

// Markup in a lesson is text: the parsed structure holds it as characters
// for the page to show, never as elements.
func TestMarkdownIsText(t *testing.T) {
	sp := &span{}
	sp.add(`<script>alert(1)</script> a\*b snake_case_name **bold _and_ more** [x](mailto:t@example.org) [not a link] 2 * 3 * 4`, 1, 1)
	in, err := parseInlines(sp)
	if err != nil {
		t.Fatal(err)
	}
	want := []Inline{
		{Kind: InlineText, Text: "<script>alert(1)</script> a*b snake_case_name "},
		{Kind: InlineStrong, Text: "bold _and_ more"},
		{Kind: InlineText, Text: " "},
		{Kind: InlineLink, Text: "x", URL: "mailto:t@example.org"},
		{Kind: InlineText, Text: " [not a link] 2 * 3 * 4"},
	}
	if fmt.Sprintf("%+v", in) != fmt.Sprintf("%+v", want) {
		t.Errorf("got  %+v\nwant %+v", in, want)
	}
	blocks, texts, err := parseBlocks([]string{"1. one", "2. two", "   more", "", "after"}, 1)
	if err != nil || len(blocks) != 2 || !blocks[0].Ordered || len(blocks[0].Items) != 2 || Plain(blocks[0].Items[1]) != "two more" || Plain(blocks[1].Inlines) != "after" {
		t.Errorf("ordered list: %+v %q %v", blocks, texts, err)
	}
}

// Whatever a lesson file holds, reading it returns a lesson or an error,
// never a panic, and the checks of a lesson it returns run.
func FuzzParse(f *testing.F) {
	data, err := os.ReadFile("testdata/example.lesson")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add("title: x\ngoal: y\n\n*a _b `c [d](e) **f\n\n## start\nseed 1\n## check\nnot\n## hints\n- h\n")
	f.Add("title: x\ngoal: y\n\n1. a\n   b\n- c\n\n## check\nin-order \"t\" k\n")
	f.Add("title: x\ngoal: y\nsolved: {lag(g)} {a.value}\n\nz\n\n## start\nseed 1\n## check\na: (topic t or not settled g) and expect events(delivered,g,partition=0) at-least 1\n  else: [{value}] {hw(t/0)}\n## hints\n- h\n")
	f.Fuzz(func(t *testing.T, text string) {
		l, err := Parse("fuzz.lesson", text)
		if err != nil {
			return
		}
		if l.Title == "" || l.Goal == "" || l.Script == "" || len(l.checks) == 0 || len(l.Hints) == 0 {
			t.Fatalf("a lesson without its parts: %+v", l)
		}
		// Its checks run on a small state, whatever their arguments (the
		// start itself is the scenario language's, fuzzed there).
		s, err := scenario.Load("seed 1\ntopic t partitions=2\nproduce t key=k value=v\njoin g m topics=t\nadvance 3s\npoll g m\n")
		if err != nil {
			t.Fatal(err)
		}
		evaluate(&ctx{lesson: &l, s: s, log: s.Log(), base: s.Log()}, l.checks)
	})
}

// Markdown built to make a parser search again and again (openers that
// never close, brackets that are never links) reads in one pass: the
// whole 64 KB costs milliseconds, where a search from every opener took
// over ten seconds.
func TestHostileMarkdownIsQuick(t *testing.T) {
	begin := time.Now()
	for _, p := range []string{"*a ", "_a ", "**a ", "`a` *", "[a", "[[", "[a]"} {
		line := strings.Repeat(p, 4000/len(p))
		lines := []string{line, line, line, line, line, line, line}
		text := "title: x\ngoal: y\n\n" + strings.Join(lines, "\n") + "\n\n## start\nseed 1\n## check\nread-all g t\n## hints\n- " + strings.Join(lines, "\n  ") + "\n"
		if _, err := Parse("x.lesson", text); err != nil && !strings.Contains(err.Error(), "starts code that no ` closes") {
			t.Errorf("%q: %v", p, err)
		}
	}
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("hostile Markdown took %v", d)
	}
}
