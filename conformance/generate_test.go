package conformance

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"plog/core"
	"plog/core/scenario"
)

// The generator is deterministic, its scenarios load under the latest
// rules, which they write out, and across the CI sample it uses every
// command it promises and each of the producer's partitioners.
func TestGenerateIsDeterministicValidAndCoversTheCommands(t *testing.T) {
	used := map[string]bool{}
	rules := fmt.Sprintf("rules %d", core.LatestRules)
	for seed := uint64(1); seed <= ciRandom; seed++ {
		script := Generate(seed, randomSteps)
		if lines := strings.SplitN(script, "\n", 3); len(lines) < 3 || lines[1] != rules {
			t.Errorf("seed %d: the scenario's second line is not %q:\n%s", seed, rules, script)
		}
		if core.LatestRules >= core.RulesV2 && strings.Contains(script, "partitioner=sticky") {
			t.Errorf("seed %d: a topic's partitioner=sticky is rules 1's alone:\n%s", seed, script)
		}
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
			fields := strings.Fields(line)
			used[fields[0]] = true
			for _, f := range fields[1:] {
				if strings.HasPrefix(f, "partitioner=") {
					used[fields[0]+" "+f] = true
				}
			}
		}
	}
	want := slices.Clone(Commands)
	if core.LatestRules >= core.RulesV2 {
		for _, p := range scenario.PartitionerChoices {
			want = append(want, scenario.CmdProduce+" partitioner="+p)
		}
	}
	for _, c := range want {
		if !used[c] {
			t.Errorf("no scenario of seeds 1 to %d uses %s", ciRandom, c)
		}
	}
}
