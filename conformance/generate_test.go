package conformance

import (
	"errors"
	"strings"
	"testing"

	"plog/core/scenario"
	"plog/kafkarun"
)

// The generator is deterministic, its scenarios load, and across the CI
// sample it uses every command it promises.
func TestGenerateIsDeterministicValidAndCoversTheCommands(t *testing.T) {
	used := map[string]bool{}
	for seed := uint64(1); seed <= ciRandom; seed++ {
		script := Generate(seed, randomSteps)
		if again := Generate(seed, randomSteps); again != script {
			t.Fatalf("seed %d: two scenarios:\n%s\n---\n%s", seed, script, again)
		}
		if _, err := scenario.Load(script); err != nil {
			t.Fatalf("seed %d: the playground refuses its scenario: %v\n%s", seed, err, script)
		}
		if n := strings.Count(script, "\n"); n < randomSteps/2 {
			t.Errorf("seed %d: %d commands, want about %d", seed, n, randomSteps)
		}
		for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
			used[strings.Fields(line)[0]] = true
		}
	}
	for _, c := range Commands {
		if !used[c] {
			t.Errorf("no scenario of seeds 1 to %d uses %s", ciRandom, c)
		}
	}
}

// The known issues match the failures they name and nothing else.
func TestKnownIssuesMatchNarrowly(t *testing.T) {
	sticky := "topic t0 partitions=2 partitioner=sticky\nproduce t0 value=b count=5\ntruncate t0/0 before=2\n"
	outOfRange := errors.New("line 3: truncate t0/0 before=2: DeleteRecords on p-t0/0: OFFSET_OUT_OF_RANGE")
	if got := knownIssue(sticky, outOfRange, nil); got != issueStickyTruncate {
		t.Errorf("a truncate of a sticky topic out of range: %q", got)
	}
	roundRobin := strings.Replace(sticky, " partitioner=sticky", "", 1)
	if got := knownIssue(roundRobin, outOfRange, nil); got != "" {
		t.Errorf("a truncate of a round-robin topic out of range is excused: %q", got)
	}
	settle := errors.New("line 4: advance 5s: gave up after 30s waiting for group p-g to settle with members a")
	rejoin := "topic t partitions=2\njoin g a topics=t\njoin g a topics=t\nadvance 5s\n"
	if got := knownIssue(rejoin, settle, nil); got != "" {
		t.Errorf("a rejoin of a live member, which kafkarun runs as a change of subscription, is excused: %q", got)
	}
	if got := knownIssue("topic t partitions=2\njoin g a topics=t\nadvance 5s\n", settle, nil); got != "" {
		t.Errorf("a group that does not settle with no known cause is excused: %q", got)
	}
	static := "topic t\njoin g a topics=t instance=i\nleave g a\njoin g b topics=t\nadvance 5s\n"
	if got := knownIssue(static, settle, nil); got != issueStaticMember {
		t.Errorf("a static member that left: %q", got)
	}
	configOnly := "topic t\nconfig group g auto.offset.reset=latest\n"
	state := []kafkarun.Row{{What: "g state", Playground: "empty", Cluster: "none"}}
	if got := knownIssue(configOnly, nil, state); got != issueConfigOnlyGroup {
		t.Errorf("a group only config named: %q", got)
	}
	if got := knownIssue(configOnly+"join g a topics=t\n", nil, state); got != "" {
		t.Errorf("a group that had a member, missing on the cluster, is excused: %q", got)
	}
}
