package main

import (
	"os"
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
	}
	if _, err := scenario.Parse(string(text)); err != nil {
		t.Errorf("%s does not parse: %v", file, err)
	}
}
