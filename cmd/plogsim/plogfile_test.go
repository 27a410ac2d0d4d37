package main

import (
	"os"
	"strings"
	"testing"

	"plog/core/scenario"
)

// testdata/downloaded.plog is a file as the playground's share dialog
// writes it (app's TestPlogFileRunsWithPlogsim keeps the two the same): the
// whole history behind comments, and the step the learner was at. plogsim
// runs it as it is, and --at gives the state the page showed.
func TestRunsAFileThePageDownloads(t *testing.T) {
	const file = "testdata/downloaded.plog"
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		script string
	}{
		{[]string{"run", file}, "seed 42\ntopic orders partitions=3\nproduce orders key=acct-1 value=created count=3\nproduce orders value=\"no key\" count=2\n"},
		{[]string{"run", "--at", "3", file}, "seed 42\ntopic orders partitions=3\nproduce orders key=acct-1 value=created count=3\n"},
	} {
		t.Run(strings.Join(tc.args[:len(tc.args)-1], " "), func(t *testing.T) {
			code, out, errOut := plogsim(t, "", tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("plogsim %v: exit %d: %s", tc.args, code, errOut)
			}
			s, err := scenario.Load(tc.script)
			if err != nil {
				t.Fatal(err)
			}
			if want := scenario.StateText(s.Log()); out != want {
				t.Errorf("plogsim %v printed:\n%s\nwant:\n%s", tc.args, out, want)
			}
		})
	}
	if _, err := scenario.Parse(string(text)); err != nil {
		t.Errorf("%s does not parse: %v", file, err)
	}
}

// An endless input is refused by its size once the limit is passed, not
// read to the end first.
func TestRefusesAnEndlessInputAtTheSizeLimit(t *testing.T) {
	for _, args := range [][]string{{"run", "/dev/zero"}, {"link", "/dev/zero"}} {
		code, out, errOut := plogsim(t, "", args...)
		if code != 1 || out != "" || !strings.Contains(errOut, "/dev/zero: larger than 1048576 bytes") {
			t.Errorf("plogsim %v: exit %d, %q, %q", args, code, out, errOut)
		}
	}
}

// A .plog saved with a byte-order mark (as Notepad saves UTF-8) runs as
// the script it holds, and makes the same link as without.
func TestRunsAFileWithAByteOrderMark(t *testing.T) {
	const text = "topic \"tombstone\" partitions=2\nproduce \"tombstone\" key=k value=v count=3\n"
	_, plain, _ := plogsim(t, "", "run", writeFile(t, text))
	code, out, errOut := plogsim(t, "", "run", writeFile(t, "\uFEFF"+text))
	if code != 0 || errOut != "" || out != plain {
		t.Fatalf("with a byte-order mark: exit %d, %s\n%s\nwant\n%s", code, errOut, out, plain)
	}
	_, link, _ := plogsim(t, "", "link", writeFile(t, text))
	if _, bomLink, _ := plogsim(t, "", "link", writeFile(t, "\uFEFF"+text)); bomLink != link {
		t.Errorf("link with a byte-order mark %s, without %s", bomLink, link)
	}
	// The link of a topic named like a flag opens to the same scenario.
	code, out, errOut = plogsim(t, "", "run", "--link", strings.TrimSpace(link))
	if code != 0 || out != plain {
		t.Errorf("plogsim run --link %s: exit %d, %s\n%s", link, code, errOut, out)
	}
}
