package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"plog/core/scenario"
)

// A link of a few hundred characters can ask for hours of work: a consumer
// polling a thousand times a second through twenty thousand advances of
// 1000s. The run stops at the line that crosses scenario.MaxWork, says so,
// and returns in seconds.
func TestRunLinkOfEndlessWorkStopsAtTheLimit(t *testing.T) {
	script := "topic t\njoin g m topics=t\nconsumer g m rate=1000/s\n" + strings.Repeat("advance 1000s\n", 19_997)
	code, link, errOut := plogsim(t, script, "link", "-")
	if code != 0 {
		t.Fatalf("link: exit %d: %s", code, errOut)
	}
	link = strings.TrimSpace(link)
	if len(link) > 1000 {
		t.Fatalf("the link is %d characters", len(link))
	}

	type result struct {
		code        int
		out, errOut string
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		code, out, errOut := plogsim(t, "", "run", "--link", link)
		done <- result{code, out, errOut}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("run --link still runs after two minutes")
	}
	t.Logf("run --link returned in %s", time.Since(start))
	// Each advance polls a million times; the first that would pass the
	// limit is refused before it polls.
	// The link's script has its rules line first, as plogsim link writes it.
	line := 5 + scenario.MaxWork/(scenario.PollWork*1_000_000)
	want := fmt.Sprintf("link:%d:1: this command takes the scenario past its limit of %d units of work", line, scenario.MaxWork)
	if r.code != 1 || !strings.Contains(r.errOut, want) || r.out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q; want exit 1 and %q", r.code, r.out, r.errOut, want)
	}
}
