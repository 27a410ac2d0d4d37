package lesson

import (
	"errors"
	"strings"
	"testing"

	"plog/core/scenario"
)

// Every built-in lesson is fair: each name its check refers to is in its
// solution, and each value its sentences quote is there when they show.
func TestBuiltinLessonsAreFair(t *testing.T) {
	for _, l := range All() {
		for _, err := range l.Fairness() {
			t.Errorf("%s: %v", l.Name, err)
		}
	}
}

// A name no step of the solution has is a typo, found at its line and
// column; a value a shown sentence quotes and has not is a gap, found at
// its placeholder.
func TestFairnessFindsTyposAndGaps(t *testing.T) {
	example := readExample(t)
	for _, tc := range []struct {
		name, from, to string
		line, col      int
		want           string
	}{
		{"group", "read-all billing payments", "read-all biling payments", 24, 10, "read-all names group biling, which no step of the solution has"},
		{"topic", "read-all billing payments", "read-all billing paymnts", 24, 18, "names topic paymnts"},
		{"named topic", "lag-at-most billing 0 topic=payments", "lag-at-most billing 0 topic=paymnts", 25, 23, "names topic paymnts"},
		{"member", "read-all billing payments\n", "read-all billing payments\nmember billing b2\n", 25, 16, "names member b2"},
		{"an alternative", "read-all billing payments\n", "read-all billing payments or read-all billing paymnts\n", 24, 47, "names topic paymnts"},
		{"a check after and", "read-all billing payments\n", "read-all billing payments and (read-all billing paymnts)\n", 24, 49, "names topic paymnts"},
		{"an event's field", "read-all billing payments\n", "read-all billing payments and expect events(delivered,group=bling) is 0\n", 24, 38, "names group bling"},
		{"else: gap", "lag-at-most billing 0 topic=payments\n", "lag-at-most billing 0 topic=payments\n  else: billing is {lag} behind on {partition}\n", 26, 20,
			"else: quotes {lag}, which has no value in the solution, after \"poll billing b1\""},
		{"solved: gap", "title: Keep", "solved: Read up to {late.lag}.\ntitle: Keep", 2, 20, "solved: quotes {late.lag}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text := strings.Replace(example, tc.from, tc.to, 1)
			if tc.name == "solved: gap" {
				// a labelled line that holds with no lag to quote
				text = strings.Replace(text, "lag-at-most billing 0 topic=payments", "late: maybe lag-at-most billing 5 topic=payments", 1)
			}
			l, err := Parse("x.lesson", text)
			if err != nil {
				t.Fatal(err)
			}
			errs := l.Fairness()
			var found *scenario.Error
			for _, err := range errs {
				var perr *scenario.Error
				if errors.As(err, &perr) && strings.Contains(perr.Msg, tc.want) {
					found = perr
				}
			}
			if found == nil {
				t.Fatalf("no %q in %v", tc.want, errs)
			}
			if found.Line != tc.line || found.Col != tc.col {
				t.Errorf("at %d:%d, want %d:%d: %v", found.Line, found.Col, tc.line, tc.col, found)
			}
		})
	}
	l, err := Parse("x.lesson", example)
	if err != nil {
		t.Fatal(err)
	}
	if errs := l.Fairness(); len(errs) != 0 {
		t.Errorf("the example is unfair: %v", errs)
	}
}

// Every placeholder a check's usage writes says plainly what it is, so
// that Fairness knows which arguments name a topic, a group, a member or
// a producer: a new check with an OTHER of its own fails here.
func TestUsagePlaceholdersSayWhatTheyAre(t *testing.T) {
	plain := map[string]bool{"N": true, "KEY": true, "VALUE": true, "EVENT": true, "SKEW": true, "OUTCOME": true, "NAME": true, "LABEL": true, "TEXT": true, "ANSWER": true, "CHOICE": true, "COMPARISON": true}
	for _, s := range checkSpecs {
		for _, word := range strings.Fields(s.usage)[1:] {
			if strings.ToLower(word) == word {
				continue // or, between two forms
			}
			word = strings.TrimSuffix(strings.Trim(word, "[]"), "...")
			if _, value, named := strings.Cut(word, "="); named {
				word = strings.TrimSuffix(strings.TrimSuffix(value, "..."), ",")
			}
			last := word[strings.LastIndexByte(word, '-')+1:]
			if kindOf(word) == notAName && !plain[last] && word != "NAME=VALUE" {
				t.Errorf("%s: the placeholder %s says neither a name's kind nor a plain value", s.name, word)
			}
		}
	}
}

// The sentences' check stops after maxFairSteps steps, and says so: each
// step's goal may replay the script.
func TestFairnessIsBounded(t *testing.T) {
	long := strings.Replace(readExample(t), "## solution\n", "## solution\n"+strings.Repeat("advance 1s\n", maxFairSteps), 1)
	l, err := Parse("x.lesson", long)
	if err != nil {
		t.Fatal(err)
	}
	errs := l.Fairness()
	if len(errs) == 0 || !strings.Contains(errs[len(errs)-1].Error(), "the check of the sentences looks at 300") {
		t.Errorf("a long lesson's fairness: %v", errs)
	}
}
