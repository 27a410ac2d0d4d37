package conformance

import (
	"strings"
	"testing"

	"plog/core/scenario"
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
