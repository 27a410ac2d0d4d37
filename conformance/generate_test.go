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
// command it promises, each of the producer's partitioners, and groups of
// the consumer protocol (group.protocol=consumer) whose members ask for
// each server-side assignor or none, and join, poll, commit, leave and
// crash; a consumer group's members all ask for the same assignor, and
// none joins with the classic protocol.
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
		consumer := map[string]bool{} // groups of the consumer protocol
		assignor := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(script), "\n") {
			fields := strings.Fields(line)
			used[fields[0]] = true
			for _, f := range fields[1:] {
				if strings.HasPrefix(f, "partitioner=") {
					used[fields[0]+" "+f] = true
				}
			}
			if fields[0] != scenario.CmdJoin {
				if len(fields) > 1 && consumer[fields[1]] {
					used["consumer "+fields[0]] = true
				}
				continue
			}
			group, protocol, asks := fields[1], "", "none"
			for _, f := range fields[3:] {
				if v, ok := strings.CutPrefix(f, "group.protocol="); ok {
					protocol = v
				}
				if v, ok := strings.CutPrefix(f, "group.remote.assignor="); ok {
					asks = v
				}
			}
			if protocol == core.ProtocolConsumer {
				if first, ok := assignor[group]; ok && first != asks {
					t.Errorf("seed %d: group %s's members ask for group.remote.assignor %s and %s:\n%s", seed, group, first, asks, script)
				}
				consumer[group], assignor[group] = true, asks
				used["consumer join assignor "+asks] = true
				used["consumer join"] = true
			} else if consumer[group] {
				t.Errorf("seed %d: %q joins the consumer group %s with the classic protocol:\n%s", seed, line, group, script)
			}
		}
	}
	for _, c := range []string{"join", "poll", "commit", "leave", "crash"} {
		if !used["consumer "+c] {
			t.Errorf("no scenario of seeds 1 to %d has a %s in a consumer-protocol group", ciRandom, c)
		}
	}
	for _, a := range []string{"uniform", "range", "none"} {
		if !used["consumer join assignor "+a] {
			t.Errorf("no scenario of seeds 1 to %d has a consumer-protocol group asking for group.remote.assignor %s", ciRandom, a)
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
